# Shared by scripts/bench-b3sum and scripts/bench-b2sum: test files, and the timing of pairs of
# commands. Source after common.sh.
# shellcheck shell=bash

# make_files WORK_DIR: a 1 GiB file WORK_DIR/big and 10,000 files of 4 KiB in WORK_DIR/small,
# kept if already there, and read once so that they are in the page cache.
make_files() {
  local work=$1
  mkdir -p "$work/small"
  [[ -f $work/big ]] || head -c $((1 << 30)) /dev/urandom > "$work/big"
  python3 - "$work/small" <<'PY'
import os, sys
for i in range(10000):
    p = os.path.join(sys.argv[1], f"f{i:05d}")
    if not os.path.exists(p):
        with open(p, "wb") as f:
            f.write(os.urandom(4096))
PY
  cat "$work/big" "$work"/small/* > /dev/null
}

# time_pairs REFERENCE_NAME CASE...: each CASE is "label|reference command|our command"; both
# commands' outputs are compared byte for byte (unless COMPARE_OUTPUTS=0), then each runs 7
# times, interleaved, and the medians of wall-clock time are printed with their ratio.
time_pairs() {
  local reference=$1 c label theirs ours a b ma mb
  shift
  seconds() { local s e; s=$(date +%s%N); "$@" > /dev/null; e=$(date +%s%N); echo $(((e - s) / 1000)); }
  median() { tr ' ' '\n' | grep . | sort -n | sed -n 4p; }
  printf '%-34s %12s %12s %8s\n' case "$reference s" "fastblake s" ratio
  for c in "$@"; do
    IFS='|' read -r label theirs ours <<< "$c"
    if [[ ${COMPARE_OUTPUTS:-1} == 1 ]]; then
      cmp <($theirs) <($ours) || { echo "outputs differ: $label" >&2; exit 1; }
    fi
    a="" b=""
    for _ in 1 2 3 4 5 6 7; do
      a+=" $(seconds $theirs)"
      b+=" $(seconds $ours)"
    done
    ma=$(echo "$a" | median) mb=$(echo "$b" | median)
    awk -v l="$label" -v a="$ma" -v b="$mb" \
      'BEGIN { printf "%-34s %12.4f %12.4f %7.2fx\n", l, a / 1e6, b / 1e6, a / b }'
  done
}
