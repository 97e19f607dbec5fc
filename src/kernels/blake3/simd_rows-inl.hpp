// BLAKE3's SIMD kernels, one block at a time: the state as four rows of four words.
//
// Part of simd-inl.hpp, which includes it (inside each backend file's anonymous namespace, with
// no include guard and no includes, as that file says).

// ---- one block at a time: the state as four rows of four words ----

// rotr(x ^ y, k). A ternary-logic form, rotr(x, k) ^ (y >> k | y << (32 - k)), is one cycle
// shorter after y where a rotate takes two (AMD Zen 5), but made 1 KiB 20% slower on an Intel
// Xeon with AVX-512 (1-cycle rotates; four operations instead of two): not used.
template <int k, class R = row>
FASTBLAKE_ALWAYS_INLINE typename R::reg xor_rotr(typename R::reg x, typename R::reg y) {
  const typename R::reg v = R::xor_(x, y);
  if constexpr (k == 16) return R::rot16(v);
  if constexpr (k == 12) return R::rot12(v);
  if constexpr (k == 8) return R::rot8(v);
  if constexpr (k == 7) return R::rot7(v);
}

// One G function on each of the four columns (or, after rotate_lanes, diagonals) at once.
// a += b + x is computed as (a + x) + b: x is ready early, so only one add waits for b.
template <class R = row>
FASTBLAKE_ALWAYS_INLINE void row_g(typename R::reg& a, typename R::reg& b, typename R::reg& c,
                                   typename R::reg& d, typename R::reg x, typename R::reg y) {
  a = R::add(R::add(a, x), b);
  d = xor_rotr<16, R>(d, a);
  c = R::add(c, d);
  b = xor_rotr<12, R>(b, c);
  a = R::add(R::add(a, y), b);
  d = xor_rotr<8, R>(d, a);
  c = R::add(c, d);
  b = xor_rotr<7, R>(b, c);
}

// Rows a, c and d move to the diagonals, not b: G ends by computing b, so a shuffle of b would
// sit on the critical path into the next G, while a, c and d are ready early enough to hide
// theirs. With b fixed, lane i works on the diagonal through v[4 + i]: G(3,4,9,14) in lane 0,
// then G(0,5,10,15), G(1,6,11,12), G(2,7,8,13).
//
// The message vectors are gathered from scalars: tried instead, one 512-bit permute per round
// plus lane extracts was 4% slower on AMD Zen 5 (the extracts' latency).
FASTBLAKE_ALWAYS_INLINE void row_round(row::reg r[4], const std::uint32_t m[16],
                                       const round_schedule& s) {
  row_g(r[0], r[1], r[2], r[3], row::setr(m[s[0]], m[s[2]], m[s[4]], m[s[6]]),
        row::setr(m[s[1]], m[s[3]], m[s[5]], m[s[7]]));
  r[0] = row::rotate_lanes<3>(r[0]);
  r[2] = row::rotate_lanes<1>(r[2]);
  r[3] = row::rotate_lanes<2>(r[3]);
  row_g(r[0], r[1], r[2], r[3], row::setr(m[s[14]], m[s[8]], m[s[10]], m[s[12]]),
        row::setr(m[s[15]], m[s[9]], m[s[11]], m[s[13]]));
  r[0] = row::rotate_lanes<1>(r[0]);
  r[2] = row::rotate_lanes<3>(r[2]);
  r[3] = row::rotate_lanes<2>(r[3]);
}

FASTBLAKE_ALWAYS_INLINE void row_rounds(row::reg r[4], row::reg cv_lo, row::reg cv_hi,
                                        const std::uint8_t block[block_len], std::uint8_t len,
                                        std::uint64_t counter, std::uint8_t flags) {
  std::uint32_t m[16];
  load_le32_words(block, m, 16);
  r[0] = cv_lo;
  r[1] = cv_hi;
  r[2] = row::setr(iv[0], iv[1], iv[2], iv[3]);
  r[3] = row::setr(static_cast<std::uint32_t>(counter), static_cast<std::uint32_t>(counter >> 32),
                   len, flags);
  // Spelled out so that every schedule index is a constant (see portable.cpp).
  row_round(r, m, message_schedule[0]);
  row_round(r, m, message_schedule[1]);
  row_round(r, m, message_schedule[2]);
  row_round(r, m, message_schedule[3]);
  row_round(r, m, message_schedule[4]);
  row_round(r, m, message_schedule[5]);
  row_round(r, m, message_schedule[6]);
}

void row_compress_blocks(std::uint32_t cv[8], const std::uint8_t* blocks, std::size_t num_blocks,
                         std::uint64_t counter, std::uint8_t first_flags, std::uint8_t flags) {
  if (num_blocks == 0) return;
  row::reg r[4];
  row_rounds(r, row::loadu(cv), row::loadu(cv + 4), blocks, block_len, counter, first_flags);
  for (std::size_t b = 1; b < num_blocks; ++b) {
    // The next block starts from this one's output, straight from registers.
    row_rounds(r, row::xor_(r[0], r[2]), row::xor_(r[1], r[3]), blocks + b * block_len, block_len,
               counter, flags);
  }
  row::storeu(cv, row::xor_(r[0], r[2]));
  row::storeu(cv + 4, row::xor_(r[1], r[3]));
}

void row_compress_in_place(std::uint32_t cv[8], const std::uint8_t block[block_len],
                           std::uint8_t len, std::uint64_t counter, std::uint8_t flags) {
  row::reg r[4];
  row_rounds(r, row::loadu(cv), row::loadu(cv + 4), block, len, counter, flags);
  row::storeu(cv, row::xor_(r[0], r[2]));
  row::storeu(cv + 4, row::xor_(r[1], r[3]));
}

void row_compress_xof(const std::uint32_t cv[8], const std::uint8_t block[block_len],
                      std::uint8_t len, std::uint64_t counter, std::uint8_t flags,
                      std::uint8_t out[block_len]) {
  row::reg r[4];
  row_rounds(r, row::loadu(cv), row::loadu(cv + 4), block, len, counter, flags);
  store_le<row>(out, row::xor_(r[0], r[2]));
  store_le<row>(out + 16, row::xor_(r[1], r[3]));
  store_le<row>(out + 32, row::xor_(r[2], row::loadu(cv)));
  store_le<row>(out + 48, row::xor_(r[3], row::loadu(cv + 4)));
}

void row_hash_chunk(const std::uint8_t* input, const std::uint32_t key[8], std::uint64_t counter,
                    std::uint8_t flags, std::uint8_t out[out_len]) {
  std::uint32_t cv[8];
  std::memcpy(cv, key, sizeof cv);
  row_compress_blocks(cv, input, blocks_per_chunk - 1, counter, flags | chunk_start, flags);
  row_compress_in_place(cv, input + (blocks_per_chunk - 1) * block_len, block_len, counter,
                        flags | chunk_end);
  store_le32_words(cv, out, 8);
}
