#!/usr/bin/env python3
"""CMakePresets.json, generated from the one table below: each preset's build, what it builds,
the labels of the tests it runs, and whether CI runs it (scripts/test runs every workflow, in
this order, but those marked on request). Edit the table, then run this file; the test
presets_are_generated (label meta) fails while CMakePresets.json differs from what it makes.

Usage: cmake/presets.py [--check]   (from anywhere; writes or checks the repository's file)
"""
import json
import pathlib
import sys

# Flag sets the table names.
SANITIZER_BUILD = {"CMAKE_BUILD_TYPE": "RelWithDebInfo",
                   "CMAKE_CXX_FLAGS_RELWITHDEBINFO": "-O1 -g1 -DNDEBUG",
                   "CMAKE_C_FLAGS_RELWITHDEBINFO": "-O1 -g1 -DNDEBUG"}
ASAN = "-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
# The x86 kernels' rounds in intrinsics, not inline asm (src/kernels/blake3/x86_rounds_asm-inl.hpp):
# the clang preset's; every other x86 build runs the asm.
INTRINSICS = "-DFASTBLAKE_NO_INLINE_ASM"
TSAN = "-fsanitize=thread -fno-omit-frame-pointer"
CLANG = {"CMAKE_C_COMPILER": "clang", "CMAKE_CXX_COMPILER": "clang++"}
RELEASE = {"CMAKE_BUILD_TYPE": "Release"}
NATIVE = "^(unit|kernel|threads|backend|cli|cli-locale|mpi|mpi-hosts|packaging|bench|python|meta)$"
LIBRARY = "^(unit|kernel|threads|backend|meta)$"
KERNELS = "^(kernel|backend|meta)$"
EVERY = "."
# What CI compiles for macOS: the library and the tools' code on Apple silicon, the library on
# Intel (its x86 kernels; the tools' code is the same on both), not linked (zig's first link for
# a target builds its libc++, a minute and a half that no CI machine has cached).
MACOS_IN_CI = ["fastblake", "fastblake_b3sum", "fastblake_b2sum", "fastblake_bao"]

# The static tools' architectures (preset static-ARCH) and their zig target triples.
STATIC_ARCHITECTURES = {"x86_64": "x86_64", "aarch64": "aarch64", "riscv64": "riscv64",
                        "ppc64le": "powerpc64le", "s390x": "s390x"}
STATIC_NAMES = {"x86_64": "x86-64", "aarch64": "AArch64", "riscv64": "RISC-V 64 (the rvv backend)",
                "ppc64le": "little-endian POWER (the vsx backend)", "s390x": "IBM Z (big-endian)"}

# A build for a system nothing here runs: GoogleTest's cases listed when tests run, not after the
# link (which would run the program).
COMPILE_ONLY = {"CMAKE_GTEST_DISCOVER_TESTS_DISCOVERY_MODE": "PRE_TEST"}


def toolchain(name):
    return {"toolchainFile": "${sourceDir}/cmake/toolchains/" + name + ".cmake"}


# name: (inherits, cache variables and other configure fields, build targets (None: all),
#        labels its tests run (None: no test preset), workflow (True: one that scripts/test
#        runs, in this order; "request": one it runs only when named; False: none)).
TABLE = {
    "release": ("base", {**RELEASE, "FASTBLAKE_BUILD_BENCH": "ON", "FASTBLAKE_MPI": "AUTO",
                         "FASTBLAKE_TEST_PACKAGES": "ON", "FASTBLAKE_TEST_PYTHON": "ON",
                         "FASTBLAKE_TEST_CONAN": "ON"},
                None, NATIVE, True),
    "asan-ubsan": ("base", {**SANITIZER_BUILD, "CMAKE_CXX_FLAGS": ASAN, "CMAKE_C_FLAGS": ASAN,
                            "CMAKE_EXE_LINKER_FLAGS": "-fsanitize=address,undefined",
                            "FASTBLAKE_CUDA": "AUTO", "FASTBLAKE_MPI": "AUTO",
                            "CMAKE_CUDA_FLAGS": "-G",
                            "CMAKE_MODULE_LINKER_FLAGS": "-fsanitize=address,undefined",
                            "FASTBLAKE_PYTHON": "ON", "FASTBLAKE_GROUP_CASES": "ON"},
                   None, "^(unit|kernel|threads|backend|cli|mpi|mpi-cli|cuda-host|gpu|python|packaging|meta)$",
                   True),
    "tsan": ("base", {**SANITIZER_BUILD, "CMAKE_CXX_FLAGS": TSAN, "CMAKE_C_FLAGS": TSAN,
                      "CMAKE_EXE_LINKER_FLAGS": "-fsanitize=thread",
                      "CMAKE_MODULE_LINKER_FLAGS": "-fsanitize=thread", "FASTBLAKE_PYTHON": "ON"},
             ["fastblake_tests", "fastblake_allocation_tests", "_fastblake"], "^(threads|meta)$", True),
    # The kernels' intrinsics path, with Clang: the kernel tests alone, on the unit test program.
    # Clang compiles the library and its tests in cross-riscv64 and fuzz, and zig's clang the
    # tools in static-x86_64; the library's other tests run under clang on request (clang-all).
    # (Under the sanitizers at -O1, that path took asan-ubsan's Python suite from 97 to 202 s.)
    "clang": ("base", {**RELEASE, **CLANG, "CMAKE_CXX_FLAGS": INTRINSICS}, ["fastblake_tests"],
              KERNELS, True),
    "clang-all": ("clang", {}, None, LIBRARY, "request"),
    "march-v4": ("base", {**RELEASE, "CMAKE_CXX_FLAGS": "-march=x86-64-v4",
                          "CMAKE_C_FLAGS": "-march=x86-64-v4",
                          "CMAKE_GTEST_DISCOVER_TESTS_DISCOVERY_MODE": "PRE_TEST"},
                 ["fastblake_tests"], KERNELS, True),
    # On request: CI builds the library with only the portable backend, warnings as errors, in
    # release's debian_packages (tests/packaging/check_deb.cmake), and runs the portable kernel's
    # tests in every build.
    "portable-only": ("base", {**RELEASE, "FASTBLAKE_BACKENDS": "portable"}, ["fastblake_tests"],
                      KERNELS, "request"),
    "cross-aarch64": ("base", {**RELEASE, **toolchain("aarch64-linux-gnu")}, None, LIBRARY, True),
    # (The unit suite runs on the other little-endian target, aarch64, and big-endian on s390x.)
    "cross-ppc64le": ("base", {**RELEASE, **toolchain("powerpc64le-linux-gnu")},
                      ["fastblake_tests", "fastblake_allocation_tests"],
                      "^(kernel|threads|backend|meta)$", True),
    "cross-ppc64": ("base", {**RELEASE, **toolchain("powerpc64-linux-gnu")}, ["fastblake_tests"],
                    KERNELS, "request"),
    "cross-s390x": ("base", {**RELEASE, **toolchain("s390x-linux-gnu")}, None, LIBRARY, True),
    # (The unit suite runs little-endian on aarch64 and x86-64, big-endian on s390x: here the
    # vector kernels, the threads and detection.)
    "cross-riscv64": ("base", {**RELEASE, **toolchain("riscv64-linux-gnu")},
                      ["fastblake_tests", "fastblake_allocation_tests"],
                      "^(kernel|threads|backend|meta)$", True),
    # Windows x86-64 with MinGW-w64, its programs linked statically and run under Wine.
    "cross-mingw": ("base", {**RELEASE, **toolchain("x86_64-w64-mingw32"),
                             "CMAKE_EXE_LINKER_FLAGS": "-static"},
                    None, "^(unit|kernel|threads|backend|cli|meta)$", True),
    # The Windows tools as scripts/package windows ships them: static, stripped, nothing else.
    "windows-tools": ("base", {**RELEASE, **toolchain("x86_64-w64-mingw32"),
                               "CMAKE_EXE_LINKER_FLAGS": "-static -s", "FASTBLAKE_BUILD_TESTS": "OFF",
                               "FASTBLAKE_WARNINGS_AS_ERRORS": "ON"},
                      ["b3sum", "b2sum", "bao"], None, False),
    "wasm": ("base", {**RELEASE, **toolchain("wasm32-emscripten"), "FASTBLAKE_BUILD_TOOLS": "OFF",
                      "FASTBLAKE_INSTALL": "OFF"},
             None, "^(wasm|unit|kernel|threads|backend|meta)$", True),
    "fuzz": ("base", {"CMAKE_BUILD_TYPE": "RelWithDebInfo", **CLANG,
                      "CMAKE_CXX_FLAGS": "-fsanitize=fuzzer-no-link," + ASAN[len("-fsanitize="):],
                      "CMAKE_EXE_LINKER_FLAGS": "-fsanitize=address,undefined",
                      "FASTBLAKE_BUILD_TESTS": "OFF", "FASTBLAKE_BUILD_TOOLS": "OFF",
                      "FASTBLAKE_BUILD_FUZZERS": "ON", "FASTBLAKE_PYTHON": "ON",
                      "FASTBLAKE_FUZZ_SECONDS": "3"},
             None, "^(fuzz|meta)$", True),
    # The Linux tools as scripts/package static ships them: musl linked statically with zig's
    # clang, stripped, each tool's suite run on them (x86-64 natively, the other architectures
    # under qemu-user). CI runs x86-64's; the others, on request, are the same code for another
    # architecture, each costing CI minutes of zig building musl and libc++ for its target.
    **{f"static-{arch}": ("base", {**RELEASE, **toolchain(f"{triple}-linux-musl"), **COMPILE_ONLY,
                                   "FASTBLAKE_STATIC_TOOLS": "ON", "CMAKE_EXE_LINKER_FLAGS": "-s"},
                          ["b3sum", "b2sum", "bao"], "^static$",
                          True if arch == "x86_64" else "request")
       for arch, triple in STATIC_ARCHITECTURES.items()},
    # macOS (both) and Windows on arm64 with zig's clang, warnings as errors, nothing run (no
    # test preset): in CI, what holds macOS's own code on each (the library, the tools' code);
    # everything, the unit tests too, on request (the -all presets, and windows-arm64), as CI's
    # 30 minutes have no room for those builds.
    "macos-arm64": ("base", {**RELEASE, **toolchain("aarch64-macos"), **COMPILE_ONLY},
                    MACOS_IN_CI, None, True),
    "macos-x86_64": ("base", {**RELEASE, **toolchain("x86_64-macos"), **COMPILE_ONLY},
                     MACOS_IN_CI[:1], None, True),
    "macos-arm64-all": ("macos-arm64", {}, None, None, "request"),
    "macos-x86_64-all": ("macos-x86_64", {}, None, None, "request"),
    "windows-arm64": ("base", {**RELEASE, **toolchain("aarch64-windows"), **COMPILE_ONLY}, None,
                      None, "request"),
    "debug": ("base", {"CMAKE_BUILD_TYPE": "Debug"}, None, EVERY, False),
    "shared": ("base", {**RELEASE, "BUILD_SHARED_LIBS": "ON"}, None, EVERY, False),
    "js": ("wasm", {"FASTBLAKE_BUILD_TESTS": "OFF", "FASTBLAKE_BUILD_BENCH": "OFF"},
           ["fastblake_npm"], None, False),
    "package": (None, {**RELEASE, "CMAKE_INSTALL_PREFIX": "/usr", "BUILD_SHARED_LIBS": "ON",
                       "FASTBLAKE_BUILD_TESTS": "OFF", "FASTBLAKE_BUILD_TOOLS": "ON",
                       "FASTBLAKE_TOOLS_PREFIX": "fastblake-", "FASTBLAKE_DEBIAN_PACKAGES": "ON",
                       "CMAKE_CXX_FLAGS": "-D_FORTIFY_SOURCE=2", "CMAKE_C_FLAGS": "-D_FORTIFY_SOURCE=2",
                       "CMAKE_EXE_LINKER_FLAGS": "-Wl,-z,relro,-z,now",
                       "CMAKE_SHARED_LINKER_FLAGS": "-Wl,-z,relro,-z,now", "FASTBLAKE_CUDA": "OFF"},
                None, None, False),
    "cuda": ("release", {"FASTBLAKE_CUDA": "ON"}, None, EVERY, False),
}
# The qemu-slow cases (tests/labels.cmake) test trees, threads, files and Bao, not kernels: the
# little-endian cross targets run them as x86-64 does, and RISC-V's vector unit takes seconds
# each. Big-endian s390x runs them on request (cross-s390x-qemu-slow, 70 s of CI's minutes):
# in CI it runs the rest, Bao's vectors and encodings, the file functions' and the trees' other
# cases among them.
QEMU_SLOW = {"label": "^qemu-slow$"}
EXCLUDE = {name: QEMU_SLOW for name in ("cross-aarch64", "cross-ppc64le", "cross-riscv64", "cross-s390x")}
# Test presets on another preset's build: name: (build, labels, exclude (a filter's "exclude"),
# environment, after). `after`: the workflow whose last step it is (None: a workflow of its own,
# run on request).
EXTRA_TESTS = {
    "quick": ("release", "^(unit|kernel|backend|cli|meta)$", None, None, None),
    # At VLEN 256 (128 in cross-riscv64): the kernels' vectors and the cases that spread chunks
    # and blocks over the lanes (Many, KernelDifferential, BLAKE2's backends); the random,
    # streaming and subtree cases, which reach the kernels through the same entry points and
    # take a minute of CI there, run at 256 on request (cross-riscv64-vlen256-all).
    "cross-riscv64-vlen256": ("cross-riscv64", "^kernel-rvv$",
                              {"name": "^Kernels/Blake3(Differential|Streaming|Subtree)\\."},
                              {"QEMU_CPU": "rv64,v=true,vlen=256,vext_spec=v1.0"}, "cross-riscv64"),
    "cross-riscv64-vlen256-all": ("cross-riscv64", "^kernel-rvv$", None,
                                  {"QEMU_CPU": "rv64,v=true,vlen=256,vext_spec=v1.0"}, None),
    "cross-s390x-qemu-slow": ("cross-s390x", "^qemu-slow$", None, None, None),
    # The suites run again in a second setting (label repeat): b3sum's and b2sum's in C.UTF-8
    # (they run in C and en_US.UTF-8 in CI), b2sum.exe's under Wine.
    "release-repeat": ("release", "^repeat$", None, None, None),
    "cross-mingw-repeat": ("cross-mingw", "^repeat$", None, None, None),
}

CONFIGURE_NAMES = {
    "release": "Release: optimised, with tests, benchmarks, fastblake::mpi and b3sum-mpi where MPI is found, and the package and Python tests",
    "debug": "Debug",
    "asan-ubsan": "AddressSanitizer and UndefinedBehaviorSanitizer at -O1 with line tables (-g1), with the CUDA backend where nvcc is found (its host driver on the fake device; device code compiled with -G, unoptimised: it never runs here), fastblake::mpi where MPI is, and the Python module (its tests with ASan's runtime preloaded into Python)",
    "portable-only": "Release with only the portable backend",
    "tsan": "ThreadSanitizer at -O1 with line tables (-g1)",
    "clang": "Release with clang, the x86 kernels without inline asm (their intrinsics path; the fuzz preset builds the asm with clang): the unit test program",
    "clang-all": "clang with every target",
    "march-v4": "Release with the whole tree built for x86-64-v4 (what -march=native means on an AVX-512 machine): each kernel file decides what it uses, whatever the global flags; its GoogleTest cases are listed when ctest runs, not after the link, so that it builds on any x86-64 CPU",
    "shared": "Release, shared library",
    "cross-aarch64": "Cross build for aarch64, tests under qemu-user",
    "cross-s390x": "Cross build for s390x, tests under qemu-user",
    "cross-ppc64le": "Cross build for little-endian POWER (the vsx backend), tests under qemu-user on a POWER9 model",
    "cross-ppc64": "Cross build for big-endian POWER (the portable backend), tests under qemu-user on a POWER9 model",
    "cross-riscv64": "Cross build for RISC-V with clang (the rvv backend), tests under qemu-user with the V extension",
    "cross-mingw": "Cross build for Windows x86-64 with MinGW-w64 (every x86 backend, the file code on Win32), linked statically, tests under Wine",
    "macos-arm64": "macOS on Apple silicon with zig's clang (ziglang from PyPI): compiled and linked, never run",
    "macos-x86_64": "macOS on Intel with zig's clang (ziglang from PyPI): compiled and linked, never run",
    "macos-arm64-all": "macos-arm64 with every target: the tools and the test programs linked too",
    "macos-x86_64-all": "macos-x86_64 with every target: the tools and the test programs linked too",
    "windows-arm64": "Windows on arm64 with zig's clang (ziglang from PyPI): compiled and linked, never run",
    "wasm": "WebAssembly with emscripten (the simd128 backend), tests and the JavaScript module under Node.js",
    "js": "The JavaScript module alone, as the npm package folder (js/package/ of the build; js/README.md): the wasm preset without its tests",
    "fuzz": "libFuzzer targets with AddressSanitizer and UndefinedBehaviorSanitizer (clang; scripts/fuzz), the Python module's binding layer among them",
    "package": "Debian packages: shared library, tools as fastblake-b3sum and fastblake-b2sum, b3sum-mpi (scripts/package)",
    "windows-tools": "The Windows tools, static and stripped, for their zip (scripts/package windows)",
    "cuda": "Release with the CUDA backend required (scripts/gpu-check)",
    **{f"static-{arch}": f"The Linux tools for {STATIC_NAMES[arch]}, static (musl, zig's clang) and stripped (scripts/package static)"
       for arch in STATIC_ARCHITECTURES},
}
TEST_NAMES = {
    "release": "Everything that runs natively (labels: docs/testing.md)",
    "quick": "While you work: the release build's unit, kernel, backend and command-line tests",
    "debug": "Every test of the build",
    "asan-ubsan": "The library, kernels, tools and MPI under the sanitizers; the CUDA host driver; the installed CMake package's components",
    "tsan": "The tests that start threads",
    "clang": "The kernel and backend tests under clang, on the intrinsics path",
    "clang-all": "The library's suite under clang: unit, kernel, threads, backend",
    "march-v4": "The kernel and backend tests",
    "shared": "Every test of the build",
    "portable-only": "The kernel and backend tests",
    "cross-aarch64": "The library's suite under qemu",
    "cross-s390x": "The library's suite under qemu, big-endian, less the qemu-slow cases",
    "cross-ppc64le": "The kernel, threads and backend tests under qemu",
    "cross-ppc64": "The kernel and backend tests under qemu, big-endian",
    "cross-riscv64": "The kernel, threads and backend tests under qemu at VLEN 128, less the qemu-slow cases",
    "cross-riscv64-vlen256": "The rvv kernels' vectors and lane-spreading cases at VLEN 256",
    "cross-riscv64-vlen256-all": "Every rvv kernel test at VLEN 256",
    "cross-s390x-qemu-slow": "The qemu-slow cases (trees, threads, files, Bao) under qemu, big-endian",
    "release-repeat": "The b3sum and b2sum suites in C.UTF-8",
    "cross-mingw-repeat": "b2sum.exe's and bao.exe's whole suites under Wine",
    "cross-mingw": "The library's suite under Wine",
    "wasm": "The suite and the JavaScript module under Node.js",
    "fuzz": "Each fuzz target for 3 s",
    "cuda": "Every test of the build, the GPU's too",
    **{f"static-{arch}": "The static tools: one file each, no dynamic section, each tool's suite "
       + ("natively" if arch == "x86_64" else "under qemu-user") for arch in STATIC_ARCHITECTURES},
}
# Tests at a time (two cores): two, or three where tests wait on others more than they compute
# (release's on pip, apt's tools and package builds' links; cross-mingw's on Wine's server),
# so that a core is rarely idle.
TEST_JOBS = {"release": 3, "cross-mingw": 3}
BASE_CACHE = {"CMAKE_EXPORT_COMPILE_COMMANDS": "ON", "FASTBLAKE_BUILD_TESTS": "ON",
              "FASTBLAKE_WARNINGS_AS_ERRORS": "ON", "FASTBLAKE_CUDA": "OFF", "FASTBLAKE_MPI": "OFF"}
WHERE = {"generator": "Ninja", "binaryDir": "${sourceDir}/build/${presetName}"}


def presets():
    configure = [{"name": "base", "hidden": True, **WHERE, "cacheVariables": BASE_CACHE}]
    build, test = [], [{"name": "base", "hidden": True, "output": {"outputOnFailure": True},
                        "execution": {"noTestsAction": "error", "jobs": 2}}]
    tests = {}
    for name, (parent, fields, targets, labels, _) in TABLE.items():
        fields = dict(fields)
        preset = {"name": name, "displayName": CONFIGURE_NAMES[name]}
        preset.update({"inherits": parent} if parent else WHERE)
        if "toolchainFile" in fields:
            preset["toolchainFile"] = fields.pop("toolchainFile")
        preset["cacheVariables"] = fields
        configure.append(preset)
        build.append({"name": name, "configurePreset": name, **({"targets": targets} if targets else {})})
        if labels:
            tests[name] = (name, labels, EXCLUDE.get(name), None)
    for name, (on, labels, exclude, environment, _) in EXTRA_TESTS.items():
        tests[name] = (on, labels, exclude, environment)
    # Each build's own tests, then those on its build (quick follows release).
    order = []
    for name in TABLE:
        order += [name] if name in tests else []
        order += [extra for extra, row in EXTRA_TESTS.items() if row[0] == name]
    for name in order:
        on, labels, exclude, environment = tests[name]
        preset = {"name": name, "displayName": TEST_NAMES[name], "inherits": "base", "configurePreset": on,
                  "filter": {"include": {"label": labels}}}
        if name in TEST_JOBS:
            preset["execution"] = {"noTestsAction": "error", "jobs": TEST_JOBS[name]}
        if exclude:
            preset["filter"]["exclude"] = exclude
        if environment:
            preset["environment"] = environment
        test.append(preset)
    workflows, on_request = [], []
    ci = [n for n, row in TABLE.items() if row[4]]
    ci += [n for n, row in EXTRA_TESTS.items() if row[4] is None]
    for name in ci:
        if TABLE.get(name, (None,) * 5)[4] != True:
            on_request.append(name)
        on = EXTRA_TESTS[name][0] if name in EXTRA_TESTS else name
        steps = [{"type": "configure", "name": on}, {"type": "build", "name": on}]
        if name in tests:
            steps.append({"type": "test", "name": name})
        steps += [{"type": "test", "name": extra} for extra, row in EXTRA_TESTS.items() if row[4] == name]
        workflows.append({"name": name, "steps": steps})
    return {"version": 6, "cmakeMinimumRequired": {"major": 3, "minor": 25, "patch": 0},
            "configurePresets": configure, "buildPresets": build, "testPresets": test,
            "workflowPresets": workflows,
            # Read by scripts/test: the workflows it runs only when named.
            "vendor": {"fastblake": {"workflowsOnRequest": on_request}}}


def main():
    path = pathlib.Path(__file__).resolve().parent.parent / "CMakePresets.json"
    text = json.dumps(presets(), indent=2) + "\n"
    if sys.argv[1:] == ["--check"]:
        if path.read_text() != text:
            sys.exit("CMakePresets.json differs from what cmake/presets.py makes: run cmake/presets.py")
        return
    path.write_text(text)


if __name__ == "__main__":
    main()
