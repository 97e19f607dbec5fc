// The portable BLAKE3 kernel: the compression function of the BLAKE3 paper, section 2.2, in
// plain C++. It is the reference every SIMD kernel is tested against.
#include <array>
#include <bit>
#include <cstring>

#include "common/compiler.hpp"
#include "common/endian.hpp"
#include "kernels/blake3/kernels.hpp"
#include "kernels/blake3/schedule.hpp"

namespace fastblake::internal::blake3 {
namespace {

FASTBLAKE_ALWAYS_INLINE void mix(std::uint32_t v[16], int a, int b, int c, int d, std::uint32_t x,
                                 std::uint32_t y) {
  v[a] += v[b] + x;
  v[d] = std::rotr(v[d] ^ v[a], 16);
  v[c] += v[d];
  v[b] = std::rotr(v[b] ^ v[c], 12);
  v[a] += v[b] + y;
  v[d] = std::rotr(v[d] ^ v[a], 8);
  v[c] += v[d];
  v[b] = std::rotr(v[b] ^ v[c], 7);
}

// Inlined into every round so that the schedule's indices become constants.
FASTBLAKE_ALWAYS_INLINE void round_fn(std::uint32_t v[16], const std::uint32_t m[16],
                                      const std::array<std::uint8_t, 16>& s) {
  mix(v, 0, 4, 8, 12, m[s[0]], m[s[1]]);
  mix(v, 1, 5, 9, 13, m[s[2]], m[s[3]]);
  mix(v, 2, 6, 10, 14, m[s[4]], m[s[5]]);
  mix(v, 3, 7, 11, 15, m[s[6]], m[s[7]]);
  mix(v, 0, 5, 10, 15, m[s[8]], m[s[9]]);
  mix(v, 1, 6, 11, 12, m[s[10]], m[s[11]]);
  mix(v, 2, 7, 8, 13, m[s[12]], m[s[13]]);
  mix(v, 3, 4, 9, 14, m[s[14]], m[s[15]]);
}

// The seven rounds, leaving the full 16-word state in v; callers apply the feed-forward.
FASTBLAKE_ALWAYS_INLINE void rounds(std::uint32_t v[16], const std::uint32_t cv[8],
                                    const std::uint8_t block[block_len], std::uint8_t len,
                                    std::uint64_t counter, std::uint8_t flags) {
  // Word by word: a 64-byte copy to the stack would be re-read in 4-byte pieces, which
  // stalls store-to-load forwarding.
  std::uint32_t m[16];
  for (std::size_t i = 0; i < 16; ++i) m[i] = load_le32(block + 4 * i);
  for (int i = 0; i < 8; ++i) v[i] = cv[i];
  for (int i = 0; i < 4; ++i) v[8 + i] = iv[i];
  v[12] = static_cast<std::uint32_t>(counter);
  v[13] = static_cast<std::uint32_t>(counter >> 32);
  v[14] = len;
  v[15] = flags;
  // Spelled out, not looped or passed through a lambda: every schedule index must be a
  // constant once inlined (a lambda here made the kernel 1.6x slower).
  round_fn(v, m, message_schedule[0]);
  round_fn(v, m, message_schedule[1]);
  round_fn(v, m, message_schedule[2]);
  round_fn(v, m, message_schedule[3]);
  round_fn(v, m, message_schedule[4]);
  round_fn(v, m, message_schedule[5]);
  round_fn(v, m, message_schedule[6]);
}

void compress_in_place(std::uint32_t cv[8], const std::uint8_t block[block_len], std::uint8_t len,
                       std::uint64_t counter, std::uint8_t flags) {
  std::uint32_t v[16];
  rounds(v, cv, block, len, counter, flags);
  for (int i = 0; i < 8; ++i) cv[i] = v[i] ^ v[i + 8];
}

void compress_blocks(std::uint32_t cv[8], const std::uint8_t* blocks, std::size_t num_blocks,
                     std::uint64_t counter, std::uint8_t first_flags, std::uint8_t flags) {
  for (std::size_t b = 0; b < num_blocks; ++b)
    compress_in_place(cv, blocks + b * block_len, block_len, counter, b == 0 ? first_flags : flags);
}

void xof_many(const std::uint32_t cv[8], const std::uint8_t block[block_len], std::uint8_t len,
              std::uint64_t counter, std::uint8_t flags, std::uint8_t* out,
              std::size_t num_blocks) {
  for (std::size_t b = 0; b < num_blocks; ++b, out += block_len) {
    std::uint32_t v[16];
    rounds(v, cv, block, len, counter + b, flags);
    std::uint32_t words[16];
    for (int i = 0; i < 8; ++i) {
      words[i] = v[i] ^ v[i + 8];
      words[i + 8] = v[i + 8] ^ cv[i];
    }
    store_le32_words(words, out, 16);
  }
}

void hash_chunks(const std::uint8_t* input, std::size_t num_chunks, const std::uint32_t key[8],
                 std::uint64_t counter, std::uint8_t flags, std::uint8_t* out) {
  for (std::size_t c = 0; c < num_chunks; ++c, input += chunk_len, out += out_len) {
    std::uint32_t cv[8];
    std::memcpy(cv, key, sizeof cv);
    for (std::size_t b = 0; b < blocks_per_chunk; ++b) {
      std::uint8_t block_flags = flags;
      if (b == 0) block_flags |= chunk_start;
      if (b == blocks_per_chunk - 1) block_flags |= chunk_end;
      compress_in_place(cv, input + b * block_len, block_len, counter + c, block_flags);
    }
    store_le32_words(cv, out, 8);
  }
}

void hash_parents(const std::uint8_t* input, std::size_t num_parents, const std::uint32_t key[8],
                  std::uint8_t flags, std::uint8_t* out) {
  for (std::size_t p = 0; p < num_parents; ++p) {
    std::uint32_t cv[8];
    std::memcpy(cv, key, sizeof cv);
    compress_in_place(cv, input + p * block_len, block_len, 0, flags | parent);
    store_le32_words(cv, out + p * out_len, 8);
  }
}

void hash_roots(const std::uint8_t* const* inputs, const std::size_t* lengths,
                std::size_t num_inputs, const std::uint32_t key[8], std::uint8_t flags,
                std::uint8_t* out) {
  for (std::size_t i = 0; i < num_inputs; ++i, out += out_len) {
    std::uint32_t cv[8];
    std::memcpy(cv, key, sizeof cv);
    const std::size_t full = lengths[i] == 0 ? 0 : (lengths[i] - 1) / block_len;
    compress_blocks(cv, inputs[i], full, 0, flags | chunk_start, flags);
    std::uint8_t last[block_len] = {};
    const std::size_t rest = lengths[i] - full * block_len;
    if (rest != 0) std::memcpy(last, inputs[i] + full * block_len, rest);
    compress_in_place(cv, last, static_cast<std::uint8_t>(rest), 0,
                      flags | (full == 0 ? chunk_start : 0) | chunk_end | root);
    store_le32_words(cv, out, 8);
  }
}

}  // namespace

const kernels portable = {
    .simd_degree = 1,
    .compress_in_place = compress_in_place,
    .compress_blocks = compress_blocks,
    .xof_many = xof_many,
    .hash_chunks = hash_chunks,
    .hash_roots = hash_roots,
    .hash_parents = hash_parents,
};

}  // namespace fastblake::internal::blake3
