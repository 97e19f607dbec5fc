#!/usr/bin/env python3
"""The static Linux tools as a user downloads them (scripts/package static): b3sum, b2sum and
bao of one architecture, each one file (static_test.py has checked them), in a tarball with the
licence and a README, their sizes printed.

Usage: static_package.py DIR ARCH   writes DIR/fastblake-tools-VERSION-linux-ARCH.tar.gz
"""
import io
import os
import sys
import tarfile
import time

from windows_package import ROOT, version

TOOLS = ("b3sum", "b2sum", "bao")
README = """fastblake {version} for Linux on {arch}

b3sum  BLAKE3 sums, as the official b3sum (--check, --keyed, --derive-key, --length, --raw...)
b2sum  BLAKE2 sums, as GNU's b2sum (-c, --tag, -l; -a blake2s, blake2bp, blake2sp)
bao    Bao verified streaming, as the Rust bao tool (hash, encode, decode, slice, decode-slice)

Each is one program, linked statically (musl's C library inside): it runs on any Linux of its
architecture, whatever the distribution or its C library, with nothing else installed. Copy it
to a folder on PATH (~/.local/bin, /usr/local/bin). The SIMD instructions of the CPU are chosen
when a tool starts. Run a tool with --help for its options.
"""


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    directory, arch = sys.argv[1], sys.argv[2]
    v = version()
    folder = f"fastblake-tools-{v}-linux-{arch}"
    name = os.path.join(directory, folder + ".tar.gz")

    def owned_by_root(mode):
        def entry(info):
            info.mode, info.uid, info.gid, info.uname, info.gname = mode, 0, 0, "root", "root"
            return info
        return entry

    with tarfile.open(name, "w:gz", compresslevel=9) as tar:
        for tool in TOOLS:
            path = os.path.join(directory, tool)
            print(f"{tool}: {os.path.getsize(path):,} bytes")
            tar.add(path, f"{folder}/{tool}", filter=owned_by_root(0o755))
        tar.add(os.path.join(ROOT, "LICENSE"), f"{folder}/LICENSE", filter=owned_by_root(0o644))
        text = README.format(version=v, arch=arch).encode()
        info = owned_by_root(0o644)(tarfile.TarInfo(f"{folder}/README"))
        info.size, info.mtime = len(text), int(time.time())
        tar.addfile(info, io.BytesIO(text))
    print(f"{name}: {os.path.getsize(name):,} bytes")


if __name__ == "__main__":
    main()
