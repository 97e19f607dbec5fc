#!/usr/bin/env bash
# Regenerates blake3_vectors.txt, the official BLAKE3 test vectors, with the official b3sum
# (Debian package b3sum). Input byte i is i % 251; each mode gives 131 bytes of output.
# Usage: tests/vectors/generate_blake3_vectors.sh > tests/vectors/blake3_vectors.txt
set -euo pipefail
lengths="0 1 2 3 4 5 6 7 8 63 64 65 127 128 129 1023 1024 1025 2048 2049 3072 3073 4096 4097
5120 5121 6144 6145 7168 7169 8192 8193 16384 31744 102400"
key='whats the Elvish word for friend'
context='BLAKE3 2019-12-27 16:29:52 test vectors context'
input=$(mktemp)
trap 'rm -f "$input"' EXIT

echo "# The official BLAKE3 test vectors, made by tests/vectors/generate_blake3_vectors.sh"
echo "# with $(b3sum --version). Input byte i is i % 251; key: '$key';"
echo "# context: '$context'. Columns: input length, hash, keyed hash, derive-key;"
echo "# each 131 bytes of extended output in hex."
for n in $lengths; do
  perl -e 'print chr($_ % 251) for 0 .. $ARGV[0] - 1' "$n" > "$input"
  hash=$(b3sum --no-names --length 131 "$input")
  keyed=$(printf '%s' "$key" | b3sum --keyed --no-names --length 131 "$input")
  derived=$(b3sum --derive-key "$context" --no-names --length 131 "$input")
  echo "$n $hash $keyed $derived"
done
