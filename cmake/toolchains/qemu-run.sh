#!/bin/sh
# The cross builds' emulator: qemu-user on a CPU model, QEMU_CPU's if set, else the default the
# toolchain file names, so that one test run can change it (backend detection, VLEN).
# Usage: qemu-run.sh QEMU DEFAULT_CPU SYSROOT PROGRAM [ARG...]
qemu=$1 cpu=$2 sysroot=$3
shift 3
exec "$qemu" -cpu "${QEMU_CPU:-$cpu}" -L "$sysroot" "$@"
