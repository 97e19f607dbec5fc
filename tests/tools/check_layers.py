#!/usr/bin/env python3
"""The folders of src/ are the layers docs/architecture.md lists: every #include "..." of src/
runs down them or stays in its layer, neither family (blake2, blake3: their kernels and their
modes) includes the other, no two folders include each other, and only src/os/posix/ and
src/os/windows/ include the OS's own headers (<unistd.h>, <windows.h>, <sys/...>...). Fails on an
include that runs up, on one between the families, on two folders that include each other, on
an OS header elsewhere, on a file in a folder no layer names, and on an include it cannot
resolve; prints the layers' sizes otherwise.
The wings (the folders under "## Wings" there) are built on the public API: the code of each
(its tests apart) includes its own files and nothing of src/ or of another wing; the tools'
OS headers are only in tools/common/posix/ and tools/common/windows/.

Usage: check_layers.py SOURCE_DIR
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(sys.argv[1])
SRC = ROOT / "src"
# Included by name from the build tree, not src/; in the first layer.
GENERATED = {"fastblake_backends.hpp"}


def layers():
    """{folder: (number, name)} from the table under "## Layers"."""
    text = (ROOT / "docs" / "architecture.md").read_text()
    section = text.split("\n## Layers\n", 1)[1].split("\n## ", 1)[0]
    found = {}
    for line in section.splitlines():
        row = re.match(r"^\| (\d+) ([a-z]+) \| (.*) \|$", line)
        if row:
            for folder in re.findall(r"`([^`]+)/`", row.group(3)):
                found[folder] = (int(row.group(1)), row.group(2))
    if not found:
        sys.exit("check_layers: no layer table of folders under '## Layers' in docs/architecture.md")
    return found


LAYERS = layers()


def folder_of(relative):
    return relative.rsplit("/", 1)[0] if "/" in relative else ""


def layer_of(relative):
    if relative in GENERATED:
        return min(LAYERS.values())
    return LAYERS.get(folder_of(relative))


def resolve(includer, target):
    """The included file, relative to src/ (or its generated name), or None."""
    if target in GENERATED:
        return target
    for base in (SRC, includer.parent):
        candidate = (base / target).resolve()
        if candidate.is_file() and SRC.resolve() in candidate.parents:
            return candidate.relative_to(SRC.resolve()).as_posix()
    return None


def family(relative):
    found = re.search(r"(?:^|/)(blake2|blake3)/", relative)
    return found.group(1) if found else None


# What differs by OS lives in one folder per OS family: their headers nowhere else.
OS_FOLDERS = {"os/posix", "os/windows"}
OS_HEADERS = re.compile(r"^(windows|io|direct|psapi|unistd|fcntl|signal|pthread|sched|dirent|dlfcn|"
                        r"termios|poll|pwd|langinfo)\.h$|^sys/|^mach/")

problems = []
counts = {}
# (including folder, included folder) -> the first include that makes the edge.
edges = {}
files = sorted(p for p in SRC.rglob("*") if p.suffix in (".cpp", ".hpp", ".cu", ".h"))
for path in files:
    relative = path.relative_to(SRC).as_posix()
    mine = layer_of(relative)
    if mine is None:
        problems.append(f"src/{relative}: its folder is in no layer of docs/architecture.md")
        continue
    counts[mine] = counts.get(mine, 0) + 1
    for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
        system = re.match(r"\s*#\s*include\s+<([^>]+)>", line)
        if system and OS_HEADERS.match(system.group(1)) and folder_of(relative) not in OS_FOLDERS:
            problems.append(f"src/{relative}:{number}: <{system.group(1)}> is the OS's: only "
                            f"src/os/posix/ and src/os/windows/ include it (src/os/*.hpp asks)")
        include = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
        if not include:
            continue
        target = resolve(path, include.group(1))
        where = f"src/{relative}:{number}"
        if target is None:
            problems.append(f"{where}: cannot find \"{include.group(1)}\" in src/")
            continue
        theirs = layer_of(target)
        if theirs is None:
            problems.append(f"{where}: {target} is in no layer")
            continue
        if theirs[0] > mine[0]:
            problems.append(f"{where}: {mine[1]} (layer {mine[0]}) includes {target}, "
                            f"{theirs[1]} (layer {theirs[0]}): up")
        if family(relative) and family(target) and family(relative) != family(target):
            problems.append(f"{where}: {family(relative)} includes {target}, of the other family")
        if target not in GENERATED and folder_of(target) != folder_of(relative):
            edges.setdefault((folder_of(relative), folder_of(target)), where)

for (a, b), where in sorted(edges.items()):
    if a < b and (b, a) in edges:
        problems.append(f"src/{a}/ and src/{b}/ include each other ({where}; {edges[(b, a)]})")



def wings():
    """The wings' folders, from the table under "## Wings"."""
    text = (ROOT / "docs" / "architecture.md").read_text()
    section = text.split("\n## Wings\n", 1)[1].split("\n## ", 1)[0]
    found = re.findall(r"^\| `([a-z0-9-]+)/` \|", section, re.MULTILINE)
    if not found:
        sys.exit("check_layers: no table of wings under '## Wings' in docs/architecture.md")
    return found


# The tools run on POSIX systems and Windows: what they ask of either is in one folder each.
WING_OS_FOLDERS = {"tools": {"common/posix", "common/windows"}}

wing_files = 0
for wing in wings():
    base = (ROOT / wing).resolve()
    if not base.is_dir():
        problems.append(f"{wing}/: a wing docs/architecture.md names, not in the tree")
        continue
    for path in sorted(p for p in base.rglob("*") if p.suffix in (".cpp", ".hpp", ".cu", ".h", ".c")):
        if "tests" in path.relative_to(base).parts:
            continue
        wing_files += 1
        os_folders = WING_OS_FOLDERS.get(wing)
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            system = re.match(r"\s*#\s*include\s+<([^>]+)>", line)
            if (system and os_folders is not None and OS_HEADERS.match(system.group(1)) and
                    folder_of(path.relative_to(base).as_posix()) not in os_folders):
                problems.append(f"{path.relative_to(ROOT.resolve()).as_posix()}:{number}: "
                                f"<{system.group(1)}> is the OS's: only {wing}/common/posix/ and "
                                f"{wing}/common/windows/ include it ({wing}/common/system.hpp asks)")
            include = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
            if not include:
                continue
            if include.group(1) in GENERATED:
                continue
            where = f"{path.relative_to(ROOT.resolve()).as_posix()}:{number}"
            target = (path.parent / include.group(1)).resolve()
            if not target.is_file():
                problems.append(f"{where}: cannot find \"{include.group(1)}\" beside it")
            elif base not in target.parents:
                problems.append(f"{where}: includes {target.relative_to(ROOT.resolve()).as_posix()}, "
                                f"outside its wing {wing}/ (the public API is <fastblake/...>)")

if problems:
    print("\n".join(problems))
    sys.exit(1)
print(", ".join(f"{name} {count} files" for (_, name), count in sorted(counts.items())) +
      f"; wings {wing_files} files")
