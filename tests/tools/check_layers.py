#!/usr/bin/env python3
"""Every #include "..." of src/ runs down the layers docs/architecture.md lists, or stays in
its layer, and neither family (blake2/, blake3/) includes the other. Fails on an include that
runs up, on one between the families, on a file no layer names, and on an include it cannot
resolve; prints the layers' sizes otherwise.

Usage: check_layers.py SOURCE_DIR
"""
import fnmatch
import pathlib
import re
import sys

ROOT = pathlib.Path(sys.argv[1])
SRC = ROOT / "src"
# Included by name from the build tree, not src/.
GENERATED = {"fastblake_backends.hpp"}


def backend_names():
    text = (ROOT / "cmake" / "Backends.cmake").read_text()
    return re.search(r"set\(FASTBLAKE_KNOWN_BACKENDS ([^)]*)\)", text).group(1).split()


def layers():
    """[(number, name, [patterns])] from the table under "## Layers"."""
    text = (ROOT / "docs" / "architecture.md").read_text()
    section = text.split("\n## Layers\n", 1)[1].split("\n## ", 1)[0]
    found = []
    for line in section.splitlines():
        row = re.match(r"^\| (\d+) ([a-z]+) \| (.*) \|$", line)
        if row:
            patterns = []
            for pattern in re.findall(r"`([^`]+)`", row.group(3)):
                if "<isa>" in pattern:
                    patterns += [pattern.replace("<isa>", name) for name in backend_names()]
                else:
                    patterns.append(pattern)
            found.append((int(row.group(1)), row.group(2), patterns))
    if not found:
        sys.exit("check_layers: no layer table under '## Layers' in docs/architecture.md")
    return found


LAYERS = layers()


def layer_of(relative):
    for number, name, patterns in LAYERS:
        if any(fnmatch.fnmatchcase(relative, p) for p in patterns):
            return number, name
    return None


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
    top = relative.split("/", 1)[0]
    return top if top in ("blake2", "blake3") else None


problems = []
counts = {}
files = sorted(p for p in SRC.rglob("*") if p.suffix in (".cpp", ".hpp", ".cu", ".h"))
for path in files:
    relative = path.relative_to(SRC).as_posix()
    mine = layer_of(relative)
    if mine is None:
        problems.append(f"src/{relative}: in no layer of docs/architecture.md")
        continue
    counts[mine] = counts.get(mine, 0) + 1
    for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
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
        elif theirs[0] > mine[0]:
            problems.append(f"{where}: {mine[1]} (layer {mine[0]}) includes {target}, "
                            f"{theirs[1]} (layer {theirs[0]}): up")
        if family(relative) and family(target) and family(relative) != family(target):
            problems.append(f"{where}: {family(relative)} includes {target}, of the other family")

if problems:
    print("\n".join(problems))
    sys.exit(1)
print(", ".join(f"{name} {count} files" for (_, name), count in sorted(counts.items())))
