#!/bin/sh
# zig's ar (ziglang from PyPI, the version scripts/test pins) for the zig toolchain files.
exec "${FASTBLAKE_ZIG_PYTHON:-python3}" -m ziglang ar "$@"
