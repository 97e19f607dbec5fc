// Writes tests/vectors/blake2_kat.txt with libb2 (Debian's libb2-dev): BLAKE2b, BLAKE2s,
// BLAKE2bp and BLAKE2sp of the inputs 00 01 02 ... of lengths 0..255, unkeyed and keyed with
// 00 01 .. of the maximum key length. Lines: "<variant> <keyed 0|1> <length> <hex>".
#include <blake2.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace {

using hash_fn = int (*)(std::uint8_t*, const void*, const void*, std::size_t, std::size_t,
                        std::size_t);

void print(const char* variant, hash_fn hash, std::size_t out_length, std::size_t key_length) {
  std::uint8_t input[256];
  std::uint8_t key[64];
  for (int i = 0; i < 256; ++i) input[i] = static_cast<std::uint8_t>(i);
  for (int i = 0; i < 64; ++i) key[i] = static_cast<std::uint8_t>(i);
  for (int keyed = 0; keyed <= 1; ++keyed) {
    for (std::size_t n = 0; n < 256; ++n) {
      std::uint8_t out[64];
      if (hash(out, input, keyed != 0 ? key : nullptr, out_length, n,
               keyed != 0 ? key_length : 0) != 0) {
        std::fprintf(stderr, "libb2 failed: %s\n", variant);
        std::exit(1);
      }
      std::printf("%s %d %zu ", variant, keyed, n);
      for (std::size_t i = 0; i < out_length; ++i) std::printf("%02x", out[i]);
      std::printf("\n");
    }
  }
}

}  // namespace

int main() {
  print("b", blake2b, 64, 64);
  print("s", blake2s, 32, 32);
  print("bp", blake2bp, 64, 64);
  print("sp", blake2sp, 32, 32);
  return 0;
}
