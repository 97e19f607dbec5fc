#!/usr/bin/env python3
"""Every optional part of the build may be missing: configure a fresh tree, as a newcomer would
(`cmake -S . -B build -DCMAKE_BUILD_TYPE=Release`, and with the benchmarks asked for), once with
each reference or tool hidden the way its find code looks for it, and once with all of them
hidden. Each configure must succeed, say in one line what it skipped, and generate a build in
which every library of ours that a program links is a target (a target that exists only with
the missing part would otherwise be linked as -l<name> and fail at the link).

The first case looks for the CUDA compiler as a newcomer's configure does; the others that
leave CUDA alone are given the one it found, so that they skip check_language(CUDA), a project
of its own that runs nvcc (the twelve configures: 66 s of CPU to 46 s here).

Usage: check_optional.py SOURCE_DIR WORK_DIR GENERATOR
"""
import concurrent.futures
import os
import pathlib
import re
import shutil
import subprocess
import sys

SOURCE, WORK, GENERATOR = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2]), sys.argv[3]
EMPTY = WORK / "empty"


def pkg_config_without(module):
    """Environment of a pkg-config that finds every module installed but `module`."""
    folder = WORK / f"pkgconfig-without-{module}"
    folder.mkdir(parents=True, exist_ok=True)
    path = subprocess.run(["pkg-config", "--variable", "pc_path", "pkg-config"], check=True,
                          capture_output=True, text=True).stdout.strip()
    for directory in path.split(":"):
        for pc in pathlib.Path(directory).glob("*.pc") if os.path.isdir(directory) else ():
            link = folder / pc.name
            if pc.stem != module and not link.exists():
                link.symlink_to(pc)
    return {"PKG_CONFIG_LIBDIR": str(folder), "PKG_CONFIG_PATH": ""}


# name: (cache arguments, environment, the line configure must print).
CASES = {
    # No crate sources at all (no librust-blake3-dev), and only the C sources not found.
    "crate-sources": ([f"-DFASTBLAKE_CARGO_REGISTRY={EMPTY}"], {},
                      r"official BLAKE3 C sources not found.*skipped"),
    "official-blake3": ([f"-DFASTBLAKE_OFFICIAL_BLAKE3_DIR={EMPTY}"], {},
                        r"official BLAKE3 C sources not found.*skipped"),
    "libb2": ([], pkg_config_without("libb2"), r"BLAKE2 differential tests skipped: no libb2"),
    "libsodium": ([], pkg_config_without("libsodium"),
                  r"BLAKE2 differential tests skipped: no libsodium"),
    "openssl": (["-DCMAKE_DISABLE_FIND_PACKAGE_OpenSSL=ON"], {},
                r"BLAKE2 differential tests skipped: no OpenSSL"),
    "googletest": (["-DCMAKE_DISABLE_FIND_PACKAGE_GTest=ON",
                    f"-DFASTBLAKE_GOOGLETEST_SOURCE_DIR={EMPTY}"], {},
                   r"tests skipped: no GoogleTest"),
    "google-benchmark": (["-DCMAKE_DISABLE_FIND_PACKAGE_benchmark=ON"], {},
                         r"benchmarks skipped: they need Google Benchmark"),
    "mpi": (["-DCMAKE_DISABLE_FIND_PACKAGE_MPI=ON"], {}, r"b3sum-mpi skipped: no MPI"),
    "cuda": (["-DCMAKE_CUDA_COMPILER=CMAKE_CUDA_COMPILER-NOTFOUND"], {},
             r"CUDA backend skipped: no CUDA compiler"),
    "python": (["-DCMAKE_DISABLE_FIND_PACKAGE_Python3=ON"], {},
               r"no Python 3: the command-line suites .* skipped"),
    # A cargo that is not there (a -NOTFOUND value would only make find_program look again,
    # and find the one on PATH).
    "rust": ([f"-DFASTBLAKE_CARGO={EMPTY}/cargo"], {},
             r"benchmarks without the Rust crates' rows"),
}
# (cargo is looked for only by the benchmarks, which the others skip already.)
EVERYTHING = [argument for name, (arguments, _, _) in CASES.items()
              if name not in ("rust", "official-blake3") for argument in arguments]
CASES["everything"] = (EVERYTHING, pkg_config_without("libb2"),
                       r"official BLAKE3 C sources not found")


def configure(name, cuda_compiler=None):
    arguments, environment, expected = CASES[name]
    if cuda_compiler and not any(a.startswith("-DCMAKE_CUDA_COMPILER=") for a in arguments):
        arguments = [*arguments, f"-DCMAKE_CUDA_COMPILER={cuda_compiler}"]
    build = WORK / name
    shutil.rmtree(build, ignore_errors=True)
    command = ["cmake", "-S", str(SOURCE), "-B", str(build), "-G", GENERATOR,
               "-DCMAKE_BUILD_TYPE=Release", "-DFASTBLAKE_BUILD_BENCH=ON", *arguments]
    result = subprocess.run(command, env={**os.environ, **environment}, capture_output=True,
                            text=True)
    output = result.stdout + result.stderr
    problems = []
    if result.returncode != 0:
        problems.append(f"configure exited {result.returncode}")
    lines = [line for line in output.splitlines() if re.search(expected, line)]
    if len(lines) != 1:
        problems.append(f"{len(lines)} lines match /{expected}/, not one")
    if "CMake Warning" in output or "CMake Error" in output:
        problems.append("a CMake warning or error")
    if result.returncode == 0:
        files = list(build.rglob("build.ninja")) + list(build.rglob("link.txt"))
        text = "\n".join(f.read_text(errors="replace") for f in files)
        for missing in sorted(set(re.findall(r"(?<![\w/.-])-l(fastblake\w*)", text))):
            problems.append(f"links -l{missing}, a target that does not exist")
    if problems:
        return f"{name}: " + "; ".join(problems) + f"\n  {' '.join(command)}\n" + output, None
    cache = (build / "CMakeCache.txt").read_text(errors="replace")
    found = re.search(r"^CMAKE_CUDA_COMPILER:\w+=(.*/nvcc)$", cache, re.MULTILINE)
    shutil.rmtree(build, ignore_errors=True)
    return f"{name}: ok ({lines[0].strip()})", found and found.group(1)


EMPTY.mkdir(parents=True, exist_ok=True)
first, *others = CASES
first_report, cuda_compiler = configure(first)
with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
    reports = [first_report] + [report for report, _ in
                                pool.map(lambda name: configure(name, cuda_compiler), others)]
print("\n".join(reports))
sys.exit(0 if all(": ok (" in report for report in reports) else 1)
