#!/usr/bin/env bash
# The device check on a bare machine, proved here: a minimal Debian 12 root (debootstrap) with
# only cmake, ninja and g++, the CUDA toolkit copied in, and a clone of this repository with
# .gpu-check/ prepared. scripts/gpu-check must build there, report that there is no CUDA
# device, and exit 0 with its logs. Needs root, debootstrap, a Debian mirror and the CUDA
# toolkit in /usr/local/cuda; the root is kept in build/bare-root and reused.
# Usage: cuda/tests/check/bare_root_test.sh   (scripts/test gpu-check-bare runs it)
set -euo pipefail
repo=$(cd "$(dirname "$0")/../../.." && pwd)
bare="$repo/build/bare-root"
cuda=$(readlink -f /usr/local/cuda)
[ -x "$cuda/bin/nvcc" ] || { echo "no CUDA toolkit in /usr/local/cuda"; exit 1; }
if [ ! -x "$bare/usr/bin/cmake" ]; then
  rm -rf "$bare"
  debootstrap --variant=minbase --include=cmake,ninja-build,g++ bookworm "$bare" \
    http://deb.debian.org/debian > "$repo/build/bare-root.log" 2>&1
fi
if [ ! -x "$bare$cuda/bin/nvcc" ]; then
  mkdir -p "$bare/usr/local"
  cp -a "$cuda" "$bare/usr/local/"
  ln -sfn "$(basename "$cuda")" "$bare/usr/local/cuda"
fi
rm -rf "$bare/src" "$bare/out"
git clone -q "$repo" "$bare/src"
"$repo/scripts/gpu-check" --prepare > /dev/null
cp -r "$repo/.gpu-check" "$bare/src/"
status=0
chroot "$bare" /usr/bin/env -i PATH=/usr/local/cuda/bin:/usr/bin:/bin HOME=/root OUT=/out \
  bash /src/scripts/gpu-check || status=$?
log="$bare/out/gpu-check.log"
fail() { echo "bare-root device check: $*"; exit 1; }
[ "$status" = 0 ] || fail "exit $status"
[ -f "$log" ] || fail "no log in \$OUT"
grep -q '^cmake: cmake version' "$log" || fail "no tool versions in the log"
grep -q '^=== build: exit 0' "$log" || fail "the build did not pass"
grep -q '^=== driver: exit 0' "$log" || fail "the host driver's tests on the fake device failed"
grep -q '^CUDA devices: 0$' "$log" || fail "no report of the missing device"
grep -q 'no CUDA device: the build passed' "$log" || fail "no closing line"
echo "bare-root device check: built, reported no CUDA device, exit 0 (logs in $bare/out)"
