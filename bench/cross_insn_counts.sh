#!/usr/bin/env bash
# Guest instructions per byte of each cross build's SIMD backend against portable, counted under
# qemu-user by bench/qemu_insn_count.c (a TCG plugin; Debian's qemu ships none): b3sum on one
# thread and b2sum -a blake2sp / blake2bp, 1 MiB less an empty file. No native machine of these
# kinds is here, so these counts stand in for times (docs: native speed unmeasured).
# Usage: bench/cross_insn_counts.sh   (after building cross-ppc64le, cross-s390x, cross-riscv64)
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
gcc -shared -fPIC -O2 bench/qemu_insn_count.c -o "$work/insn.so"
head -c 1048576 /dev/urandom > "$work/data"
: > "$work/empty"
export FASTBLAKE_THREADS=1
count() {  # qemu cpu sysroot backend program args... -> instructions
  local qemu=$1 cpu=$2 root=$3 backend=$4
  shift 4
  FASTBLAKE_BACKEND=$backend "$qemu" -cpu "$cpu" -L "$root" -plugin "$work/insn.so" "$@" 2>&1 >/dev/null |
    sed -n 's/^insns: //p'
}
row() {  # label qemu cpu sysroot backend program args...
  local label=$1 qemu=$2 cpu=$3 root=$4 backend=$5
  shift 5
  local full empty
  full=$(count "$qemu" "$cpu" "$root" "$backend" "$@" "$work/data")
  empty=$(count "$qemu" "$cpu" "$root" "$backend" "$@" "$work/empty")
  python3 -c "print(f'| $label | $backend | {($full - $empty) / 1048576:.2f} |')"
}
echo "| what | backend | instructions per byte |"
echo "|---|---|---|"
for target in "ppc64le qemu-ppc64le power9 /usr/powerpc64le-linux-gnu vsx" \
              "s390x qemu-s390x max /usr/s390x-linux-gnu zvector" \
              "riscv64 qemu-riscv64 rv64,v=true,vlen=128,vext_spec=v1.0 /usr/riscv64-linux-gnu rvv"; do
  read -r arch qemu cpu root simd <<<"$target"
  build=build/cross-$arch
  for backend in portable "$simd"; do
    row "$arch BLAKE3 (b3sum)" "$qemu" "$cpu" "$root" "$backend" "$build/b3sum" --num-threads 1 --no-mmap
    row "$arch BLAKE2sp" "$qemu" "$cpu" "$root" "$backend" "$build/b2sum" -a blake2sp
    row "$arch BLAKE2bp" "$qemu" "$cpu" "$root" "$backend" "$build/b2sum" -a blake2bp
  done
done
