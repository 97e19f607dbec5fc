#!/bin/sh
# zig's c++ (ziglang from PyPI, pinned in scripts/lib/common.sh) for the zig toolchain files.
# -E: a build run by pip hides the interpreter's own packages through PYTHONPATH.
exec "${FASTBLAKE_ZIG_PYTHON:-python3}" -E -m ziglang c++ "$@"
