#!/usr/bin/env python3
"""The Windows tools as a user downloads them: b3sum.exe, b2sum.exe and bao.exe, each one file
that imports only DLLs every Windows has (no libstdc++, libgcc or winpthread DLL to carry: they
are linked statically), read from the import tables that x86_64-w64-mingw32-objdump -p prints.

Usage: windows_package.py check DIR   fails on a tool in DIR that imports any other DLL
       windows_package.py zip DIR     checks, then writes DIR/fastblake-tools-VERSION-windows-x86_64.zip
                                      (the tools, the licence, a README) and prints the sizes
"""
import os
import re
import subprocess
import sys
import zipfile

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
TOOLS = ("b3sum.exe", "b2sum.exe", "bao.exe")
# Windows' own DLLs (lower case): the C runtime every Windows has (msvcrt, or the universal
# one and its api sets), the Win32 API.
SYSTEM = re.compile(r"^(kernel32|msvcrt|ucrtbase|advapi32|user32|ntdll|bcrypt|shell32|ws2_32)\.dll$"
                    r"|^api-ms-win-[a-z0-9-]+\.dll$")


def imports(exe):
    dump = subprocess.run(["x86_64-w64-mingw32-objdump", "-p", exe], capture_output=True, text=True,
                          check=True).stdout
    return re.findall(r"^\s*DLL Name: (\S+)$", dump, re.MULTILINE)


def check(directory):
    problems = []
    for tool in TOOLS:
        exe = os.path.join(directory, tool)
        if not os.path.isfile(exe):
            problems.append(f"{exe}: missing")
            continue
        dlls = imports(exe)
        if not dlls:
            problems.append(f"{tool}: no import table found (is it a Windows program?)")
        others = [dll for dll in dlls if not SYSTEM.match(dll.lower())]
        if others:
            problems.append(f"{tool}: imports {', '.join(others)}, which Windows does not have")
        print(f"{tool}: {os.path.getsize(exe):,} bytes, imports {', '.join(sorted(dlls))}")
    if problems:
        print("\n".join(problems))
        sys.exit(1)


def version():
    text = open(os.path.join(ROOT, "include", "fastblake", "config.hpp")).read()
    return ".".join(re.search(rf"#define FASTBLAKE_VERSION_{part} (\d+)", text).group(1)
                    for part in ("MAJOR", "MINOR", "PATCH"))


README = """fastblake {version} for Windows x86-64

b3sum.exe  BLAKE3 sums, as the official b3sum (--check, --keyed, --derive-key, --length, --raw...)
b2sum.exe  BLAKE2 sums, as GNU's b2sum (-c, --tag, -l; -a blake2s, blake2bp, blake2sp)
bao.exe    Bao verified streaming, as the Rust bao tool (hash, encode, decode, slice, decode-slice)

Each is one program: copy it anywhere (a folder on PATH) and run it from cmd or PowerShell;
nothing else is needed. Names in any script work; wildcards (*.iso) are expanded by the tools.
Every SIMD level of the CPU (SSE2 to AVX-512) is chosen when a tool starts.
Run a tool with --help for its options.
"""


def make_zip(directory):
    check(directory)
    v = version()
    name = os.path.join(directory, f"fastblake-tools-{v}-windows-x86_64.zip")
    with zipfile.ZipFile(name, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        folder = f"fastblake-tools-{v}-windows-x86_64/"
        for tool in TOOLS:
            z.write(os.path.join(directory, tool), folder + tool)
        z.write(os.path.join(ROOT, "LICENSE"), folder + "LICENSE.txt")
        z.writestr(folder + "README.txt", README.format(version=v).replace("\n", "\r\n"))
    print(f"{name}: {os.path.getsize(name):,} bytes")


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("check", "zip"):
        sys.exit(__doc__)
    (check if sys.argv[1] == "check" else make_zip)(sys.argv[2])
