// BLAKE3 kernels written once over vector traits, instantiated by each SIMD backend's file
// (every backend of cmake/Backends.cmake but portable).
//
// No include guard and no includes: each ISA file includes this inside its own anonymous
// namespace, after <algorithm>, <cstring>, kernels.hpp, schedule.hpp and compiler.hpp, and
// after defining
//   struct row   4-lane (128-bit) vectors for one block at a time: add, xor_, set1, setr(w0,
//                w1, w2, w3), loadu, storeu, rot16, rot12, rot8, rot7, rotate_lanes<k>(reg)
//                (lane i takes lane i + k).
// The many-block functions are templates over a vector type W with N lanes of 32-bit words:
// the arithmetic above, transpose(reg[N]) of an N x N tile, and with more than 8 lanes
// store_half (the low 8 words). Each ISA file calls them with its widths, widest first.
// So every function here is compiled with that file's flags and has internal linkage: the
// linker can never hand an older CPU the AVX-512 copy of a shared inline function.

// Bytes in memory (message blocks, chaining values and output written as bytes) hold
// little-endian words; word arrays (cv, key, counters) are native. On a big-endian target the
// traits give load_le and store_le for the bytes; on a little-endian one loadu and storeu are
// the same thing.
template <class W>
FASTBLAKE_ALWAYS_INLINE typename W::reg load_le(const void* p) {
  if constexpr (std::endian::native == std::endian::big) {
    return W::load_le(p);
  } else {
    return W::loadu(p);
  }
}

template <class W>
FASTBLAKE_ALWAYS_INLINE void store_le(void* p, typename W::reg v) {
  if constexpr (std::endian::native == std::endian::big) {
    W::store_le(p, v);
  } else {
    W::storeu(p, v);
  }
}

// The three layouts, in this order (the stacked rows fall back on the wide kernels): one block
// at a time as rows, many blocks at once as wide vectors, a few chunks as stacked rows.

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

// ---- many blocks at once: word i of every lane in one vector ----

// Four independent G functions, step by step: G(a[i], b[i], c[i], d[i], *x[i], *y[i]) for i < 4.
// Interleaving them by hand keeps four dependency chains in flight in program order, so the
// out-of-order core fills every vector pipe even across long rounds.
template <class W>
FASTBLAKE_ALWAYS_INLINE void wide_g4(typename W::reg v[16], const int (&a)[4], const int (&b)[4],
                                     const int (&c)[4], const int (&d)[4],
                                     const typename W::reg* const x[4],
                                     const typename W::reg* const y[4]) {
  for (int i = 0; i < 4; ++i) v[a[i]] = W::add(W::add(v[a[i]], *x[i]), v[b[i]]);
  for (int i = 0; i < 4; ++i) v[d[i]] = W::rot16(W::xor_(v[d[i]], v[a[i]]));
  for (int i = 0; i < 4; ++i) v[c[i]] = W::add(v[c[i]], v[d[i]]);
  for (int i = 0; i < 4; ++i) v[b[i]] = W::rot12(W::xor_(v[b[i]], v[c[i]]));
  for (int i = 0; i < 4; ++i) v[a[i]] = W::add(W::add(v[a[i]], *y[i]), v[b[i]]);
  for (int i = 0; i < 4; ++i) v[d[i]] = W::rot8(W::xor_(v[d[i]], v[a[i]]));
  for (int i = 0; i < 4; ++i) v[c[i]] = W::add(v[c[i]], v[d[i]]);
  for (int i = 0; i < 4; ++i) v[b[i]] = W::rot7(W::xor_(v[b[i]], v[c[i]]));
}

template <class W>
FASTBLAKE_ALWAYS_INLINE void wide_round(typename W::reg v[16], const typename W::reg m[16],
                                        const round_schedule& s) {
  const typename W::reg* const cx[4] = {&m[s[0]], &m[s[2]], &m[s[4]], &m[s[6]]};
  const typename W::reg* const cy[4] = {&m[s[1]], &m[s[3]], &m[s[5]], &m[s[7]]};
  wide_g4<W>(v, {0, 1, 2, 3}, {4, 5, 6, 7}, {8, 9, 10, 11}, {12, 13, 14, 15}, cx, cy);
  const typename W::reg* const dx[4] = {&m[s[8]], &m[s[10]], &m[s[12]], &m[s[14]]};
  const typename W::reg* const dy[4] = {&m[s[9]], &m[s[11]], &m[s[13]], &m[s[15]]};
  wide_g4<W>(v, {0, 1, 2, 3}, {5, 6, 7, 4}, {10, 11, 8, 9}, {15, 12, 13, 14}, dx, dy);
}

#if defined(FASTBLAKE_BLAKE3_ROUNDS_ASM)
#define FASTBLAKE_ASM_SCHEDULE_ROW(unused, ...) round_schedule{__VA_ARGS__},
static_assert(std::array<round_schedule, 7>{FASTBLAKE_ASM_SCHEDULE(FASTBLAKE_ASM_SCHEDULE_ROW,
                                                                   0)} == message_schedule,
              "x86_rounds_asm-inl.hpp's schedule differs from schedule.hpp's");
#undef FASTBLAKE_ASM_SCHEDULE_ROW
#endif

// The seven rounds on v; a vector type with its own rounds() (x86_rounds_asm-inl.hpp: the x86
// levels with sixteen registers) runs them in registers it assigns itself.
template <class W>
FASTBLAKE_ALWAYS_INLINE void wide_rounds(typename W::reg v[16], const typename W::reg m[16]) {
  if constexpr (requires { W::rounds(v, m); }) {
    W::rounds(v, m);
    return;
  }
  wide_round<W>(v, m, message_schedule[0]);
  wide_round<W>(v, m, message_schedule[1]);
  wide_round<W>(v, m, message_schedule[2]);
  wide_round<W>(v, m, message_schedule[3]);
  wide_round<W>(v, m, message_schedule[4]);
  wide_round<W>(v, m, message_schedule[5]);
  wide_round<W>(v, m, message_schedule[6]);
}

// One compression of every lane into its chaining value: h = the first half of the rounds on
// {h, tail} xor the second half (tail: the IV words, counter, block length and flags).
template <class W>
FASTBLAKE_ALWAYS_INLINE void wide_compress(typename W::reg h[8], const typename W::reg tail[8],
                                           const typename W::reg m[16]) {
  if constexpr (requires { W::compress(h, tail, m); }) {
    W::compress(h, tail, m);
  } else {
    typename W::reg v[16];
    for (int i = 0; i < 8; ++i) {
      v[i] = h[i];
      v[i + 8] = tail[i];
    }
    wide_rounds<W>(v, m);
    for (int i = 0; i < 8; ++i) h[i] = W::xor_(v[i], v[i + 8]);
  }
}

// The 64-byte blocks at inputs[lane] + offset as sixteen vectors, vector i holding word i of
// every lane: lanes x lanes tiles, each transposed in registers.
template <class W>
FASTBLAKE_ALWAYS_INLINE void load_transposed(const std::uint8_t* const inputs[W::lanes],
                                             std::size_t offset, typename W::reg m[16]) {
  if constexpr (requires { W::load_transposed(inputs, offset, m); }) {
    W::load_transposed(inputs, offset, m);
    return;
  }
  for (std::size_t tile = 0; tile < 16 / W::lanes; ++tile) {
    // In temporaries, not in m: m may live in memory (x86_rounds_asm-inl.hpp reads it there),
    // and only the transposed words need to reach it.
    typename W::reg t[W::lanes];
    for (std::size_t lane = 0; lane < W::lanes; ++lane)
      t[lane] = load_le<W>(inputs[lane] + offset + tile * W::lanes * 4);
    W::transpose(t);
    for (std::size_t lane = 0; lane < W::lanes; ++lane) m[tile * W::lanes + lane] = t[lane];
  }
}

// The inverse for `words` (8 or 16) vectors: lane l's words go to out + l * stride.
template <class W, std::size_t words>
FASTBLAKE_ALWAYS_INLINE void store_transposed(const typename W::reg v[words], std::uint8_t* out,
                                              std::size_t stride) {
  if constexpr (words < W::lanes) {
    // More lanes than words: pad the tile, keep the low words of each row.
    typename W::reg t[W::lanes];
    for (std::size_t i = 0; i < W::lanes; ++i) t[i] = i < words ? v[i] : W::set1(0);
    W::transpose(t);
    for (std::size_t lane = 0; lane < W::lanes; ++lane) W::store_half(out + lane * stride, t[lane]);
  } else {
    for (std::size_t tile = 0; tile < words / W::lanes; ++tile) {
      typename W::reg t[W::lanes];
      for (std::size_t i = 0; i < W::lanes; ++i) t[i] = v[tile * W::lanes + i];
      W::transpose(t);
      for (std::size_t lane = 0; lane < W::lanes; ++lane)
        store_le<W>(out + lane * stride + tile * W::lanes * 4, t[lane]);
    }
  }
}

template <class W>
FASTBLAKE_ALWAYS_INLINE void counter_vectors(std::uint64_t counter, bool increment,
                                             typename W::reg& lo, typename W::reg& hi) {
  alignas(64) std::uint32_t l[W::lanes], h[W::lanes];
  for (std::size_t lane = 0; lane < W::lanes; ++lane) {
    const std::uint64_t c = counter + (increment ? lane : 0);
    l[lane] = static_cast<std::uint32_t>(c);
    h[lane] = static_cast<std::uint32_t>(c >> 32);
  }
  lo = W::loadu(l);
  hi = W::loadu(h);
}

// Hashes `blocks` blocks from each of W::lanes inputs (whole chunks, or single parent
// blocks) into their chaining values, written back to back.
template <class W>
FASTBLAKE_ALWAYS_INLINE void wide_hash(const std::uint8_t* const inputs[W::lanes],
                                       std::size_t blocks, const std::uint32_t key[8],
                                       std::uint64_t counter, bool increment_counter,
                                       std::uint8_t flags, std::uint8_t flags_start,
                                       std::uint8_t flags_end, std::uint8_t* out) {
  typename W::reg h[8];
  for (int i = 0; i < 8; ++i) h[i] = W::set1(key[i]);
  typename W::reg counter_lo, counter_hi;
  counter_vectors<W>(counter, increment_counter, counter_lo, counter_hi);
  // The compression's last eight state words; only the flags change from block to block.
  typename W::reg tail[8] = {W::set1(iv[0]), W::set1(iv[1]), W::set1(iv[2]),     W::set1(iv[3]),
                             counter_lo,     counter_hi,     W::set1(block_len), W::set1(0)};
  for (std::size_t b = 0; b < blocks; ++b) {
    std::uint8_t block_flags = flags;
    if (b == 0) block_flags |= flags_start;
    if (b == blocks - 1) block_flags |= flags_end;
    // Each lane streams from its own chunk, more streams than the hardware prefetcher
    // follows well: ask for every lane's block two ahead (measured best of 2, 4 and 8 blocks
    // on 16 MiB inputs: 0.93x the official C against 0.82x and 0.73x).
    // Never past the group's last block: a prefetch beyond the input may walk the page tables
    // for memory it does not own (the last two blocks of an 8 KiB input took 25% longer).
    // The block's last byte, not its first: where the input is not aligned to 64 bytes (a
    // Python bytes object's is 16 or 48 past a line), a block spans two lines, and its first
    // was asked for with the block before it, two ahead too; its second would otherwise come
    // only one block ahead. (64 MiB from a bytes object 16 past a line: 0.91x blake3-py before,
    // 0.94x after; aligned, the same line either way.)
    if (b + 2 < blocks) {
      for (std::size_t lane = 0; lane < W::lanes; ++lane)
        FASTBLAKE_PREFETCH(inputs[lane] + (b + 2) * block_len + block_len - 1);
    }
    typename W::reg m[16];
    load_transposed<W>(inputs, b * block_len, m);
    tail[7] = W::set1(block_flags);
    wide_compress<W>(h, tail, m);
  }
  store_transposed<W, 8>(h, out, out_len);
}

// Output blocks counter .. counter + lanes - 1 of one node: the message is the same in every
// lane, so no transposition on the way in; the counters differ.
template <class W>
FASTBLAKE_ALWAYS_INLINE void wide_xof_batch(const std::uint32_t cv[8],
                                            const std::uint8_t block[block_len], std::uint8_t len,
                                            std::uint64_t counter, std::uint8_t flags,
                                            std::uint8_t* out) {
  std::uint32_t words[16];
  load_le32_words(block, words, 16);
  typename W::reg m[16];
  for (int i = 0; i < 16; ++i) m[i] = W::set1(words[i]);
  typename W::reg counter_lo, counter_hi;
  counter_vectors<W>(counter, true, counter_lo, counter_hi);
  typename W::reg v[16] = {W::set1(cv[0]), W::set1(cv[1]), W::set1(cv[2]), W::set1(cv[3]),
                           W::set1(cv[4]), W::set1(cv[5]), W::set1(cv[6]), W::set1(cv[7]),
                           W::set1(iv[0]), W::set1(iv[1]), W::set1(iv[2]), W::set1(iv[3]),
                           counter_lo,     counter_hi,     W::set1(len),   W::set1(flags)};
  wide_rounds<W>(v, m);
  for (int i = 0; i < 8; ++i) {
    v[i] = W::xor_(v[i], v[i + 8]);
    v[i + 8] = W::xor_(v[i + 8], W::set1(cv[i]));
  }
  store_transposed<W, 16>(v, out, block_len);
}

// Whole messages of at most one chunk, one per lane, each finishing at its own block: lane l
// gets its own block length and flags at every step, reads zeros once it is done, and its
// root hash is taken at its last block. Inputs sorted by length keep the wasted steps few.
template <class W>
FASTBLAKE_ALWAYS_INLINE void wide_roots(const std::uint8_t* const inputs[W::lanes],
                                        const std::size_t lengths[W::lanes],
                                        const std::uint32_t key[8], std::uint8_t flags,
                                        std::uint8_t* out) {
  alignas(64) static constexpr std::uint8_t zeros[block_len] = {};
  // Each lane's last block: read in place when it is whole, else copied and padded with zeros.
  alignas(64) std::uint8_t tails[W::lanes][block_len];
  const std::uint8_t* last_block[W::lanes];
  std::size_t last[W::lanes];  // index of each lane's last block
  std::size_t steps = 0;
  bool together = true;     // every lane finishes at the same step
  bool same_length = true;  // and at the same length: one block length and one flags word a step
  for (std::size_t lane = 0; lane < W::lanes; ++lane) {
    last[lane] = lengths[lane] == 0 ? 0 : (lengths[lane] - 1) / block_len;
    steps = std::max(steps, last[lane] + 1);
    together = together && last[lane] == last[0];
    same_length = same_length && lengths[lane] == lengths[0];
    const std::size_t rest = lengths[lane] - last[lane] * block_len;
    if (rest == block_len) {
      last_block[lane] = inputs[lane] + last[lane] * block_len;
    } else {
      std::memset(tails[lane], 0, block_len);
      if (rest != 0) std::memcpy(tails[lane], inputs[lane] + last[lane] * block_len, rest);
      last_block[lane] = tails[lane];
    }
  }
  typename W::reg h[8];
  for (int i = 0; i < 8; ++i) h[i] = W::set1(key[i]);
  const typename W::reg zero = W::set1(0);
  alignas(64) std::uint8_t digests[W::lanes][out_len];
  for (std::size_t b = 0; b < steps; ++b) {
    const std::uint8_t* blocks[W::lanes];
    alignas(64) std::uint32_t lens[W::lanes], lane_flags[W::lanes];
    bool finishing = false;
    for (std::size_t lane = 0; lane < W::lanes; ++lane) {
      std::uint32_t f = flags;
      if (b == 0) f |= chunk_start;
      if (b < last[lane]) {
        blocks[lane] = inputs[lane] + b * block_len;
        lens[lane] = block_len;
      } else if (b == last[lane]) {
        blocks[lane] = last_block[lane];
        lens[lane] = static_cast<std::uint32_t>(lengths[lane] - b * block_len);
        f |= chunk_end | root;
        finishing = true;
      } else {
        blocks[lane] = zeros;
        lens[lane] = 0;
      }
      lane_flags[lane] = f;
    }
    typename W::reg m[16];
    load_transposed<W>(blocks, 0, m);
    // Broadcasts where every lane agrees: a vector loaded from sixteen scalar stores waits for
    // them to retire.
    const typename W::reg tail[8] = {W::set1(iv[0]),
                                     W::set1(iv[1]),
                                     W::set1(iv[2]),
                                     W::set1(iv[3]),
                                     zero,
                                     zero,
                                     same_length ? W::set1(lens[0]) : W::loadu(lens),
                                     same_length ? W::set1(lane_flags[0]) : W::loadu(lane_flags)};
    wide_compress<W>(h, tail, m);
    if (together) continue;
    if (finishing) {
      alignas(64) std::uint8_t now[W::lanes][out_len];
      store_transposed<W, 8>(h, &now[0][0], out_len);
      for (std::size_t lane = 0; lane < W::lanes; ++lane)
        if (last[lane] == b) std::memcpy(digests[lane], now[lane], out_len);
    }
  }
  if (together) {
    store_transposed<W, 8>(h, out, out_len);
  } else {
    std::memcpy(out, digests, sizeof digests);
  }
}

// ---- a few chunks at once as stacked rows ----
//
// Fewer chunks than a wide group fills run latency-bound in the word-per-vector layout: a
// block step is as long as its four G chains, however many lanes are idle. A stacked-rows type
// S holds S::stack inputs in one vector, each in its own 128-bit quarter laid out as the row
// form above (stacked_round), so a step costs about one block's latency for all of them. What
// S provides besides the row arithmetic and rotate_lanes<k> (within each quarter):
// shuffle<imm> and blend4<mask> (vpshufd and a word blend, the same in every quarter),
// row(w0, w1, w2, w3) (the same row in every quarter), load_message(inputs, offset, n[4])
// (n[k]: words 4k..4k+3 of each input's block, quarter i from input i) and
// store_cvs(lo, hi, out).

// The message words one G step reads, in lane order: stacked_round's columns, then diagonals
// in the order the rotated rows put them.
constexpr std::array<int, 4> step_words(std::size_t round, int step) {
  const round_schedule& s = message_schedule[round];
  switch (step) {
    case 0:
      return {s[0], s[2], s[4], s[6]};
    case 1:
      return {s[1], s[3], s[5], s[7]};
    case 2:
      return {s[14], s[8], s[10], s[12]};
    default:
      return {s[15], s[9], s[11], s[13]};
  }
}

// Which message word each lane of four vectors holds: the block as loaded, or the vectors one
// round's G steps read.
using word_layout = std::array<std::array<int, 4>, 4>;
constexpr word_layout loaded_layout = {
    {{0, 1, 2, 3}, {4, 5, 6, 7}, {8, 9, 10, 11}, {12, 13, 14, 15}}};
constexpr word_layout round_layout(std::size_t round) {
  return {step_words(round, 0), step_words(round, 1), step_words(round, 2), step_words(round, 3)};
}

// Building the vector of `words` from vectors laid out as `from`: each source vector that
// holds some of the words is shuffled (one vpshufd within each 128-bit lane, skipped when its
// words are already in place) and blended in.
struct word_gather {
  std::array<int, 4> shuffle{};  // per source vector: vpshufd immediate, or -1 when not read
  std::array<int, 4> mask{};     // per source vector: the lanes it provides
  int cost = 0;                  // shuffles and blends
};

constexpr word_gather plan_gather(const word_layout& from, const std::array<int, 4>& words) {
  word_gather g;
  int sources = 0;
  for (int vec = 0; vec < 4; ++vec) {
    int imm = 0;
    bool moves = false;
    for (int j = 0; j < 4; ++j) {
      int pos = j;
      for (int p = 0; p < 4; ++p)
        if (from[vec][p] == words[j]) {
          pos = p;
          g.mask[vec] |= 1 << j;
          moves = moves || p != j;
        }
      imm |= pos << (2 * j);
    }
    g.shuffle[vec] = g.mask[vec] == 0 ? -1 : moves ? imm : 0xE4;
    if (g.mask[vec] != 0) g.cost += (moves ? 1 : 0) + (sources++ > 0 ? 1 : 0);
  }
  return g;
}

template <class S, const word_gather& g>
FASTBLAKE_ALWAYS_INLINE typename S::reg gather(const typename S::reg from[4]) {
  typename S::reg t{};
  bool first = true;
  [&]<int... vec>(std::integer_sequence<int, vec...>) {
    (
        [&] {
          if constexpr (g.mask[vec] != 0) {
            typename S::reg v = from[vec];
            if constexpr (g.shuffle[vec] != 0xE4) v = S::template shuffle<g.shuffle[vec]>(v);
            t = first ? v : S::template blend4<g.mask[vec]>(t, v);
            first = false;
          }
        }(),
        ...);
  }
  (std::make_integer_sequence<int, 4>{});
  return t;
}

// One G step's message: from the loaded block or from the previous round's message vectors,
// whichever takes fewer operations.
template <class S, std::size_t round, int step>
FASTBLAKE_ALWAYS_INLINE typename S::reg step_message(const typename S::reg loaded[4],
                                                     const typename S::reg previous[4]) {
  static constexpr word_gather direct = plan_gather(loaded_layout, step_words(round, step));
  if constexpr (round == 0) {
    return gather<S, direct>(loaded);
  } else {
    static constexpr word_gather chained =
        plan_gather(round_layout(round - 1), step_words(round, step));
    if constexpr (chained.cost < direct.cost)
      return gather<S, chained>(previous);
    else
      return gather<S, direct>(loaded);
  }
}

// The same round as row_round, for every stacked input; m receives the round's message
// vectors (and holds the previous round's on entry).
template <class S, std::size_t round>
FASTBLAKE_ALWAYS_INLINE void stacked_round(typename S::reg r[4], const typename S::reg n[4],
                                           typename S::reg m[4]) {
  const typename S::reg now[4] = {step_message<S, round, 0>(n, m), step_message<S, round, 1>(n, m),
                                  step_message<S, round, 2>(n, m), step_message<S, round, 3>(n, m)};
  row_g<S>(r[0], r[1], r[2], r[3], now[0], now[1]);
  r[0] = S::template rotate_lanes<3>(r[0]);
  r[2] = S::template rotate_lanes<1>(r[2]);
  r[3] = S::template rotate_lanes<2>(r[3]);
  row_g<S>(r[0], r[1], r[2], r[3], now[2], now[3]);
  r[0] = S::template rotate_lanes<1>(r[0]);
  r[2] = S::template rotate_lanes<3>(r[2]);
  r[3] = S::template rotate_lanes<2>(r[3]);
  for (int i = 0; i < 4; ++i) m[i] = now[i];
}

// wide_hash for S::stack inputs.
template <class S>
FASTBLAKE_ALWAYS_INLINE void stacked_hash(const std::uint8_t* const inputs[S::stack],
                                          std::size_t blocks, const std::uint32_t key[8],
                                          std::uint64_t counter, bool increment_counter,
                                          std::uint8_t flags, std::uint8_t flags_start,
                                          std::uint8_t flags_end, std::uint8_t* out) {
  typename S::reg lo = S::row(key[0], key[1], key[2], key[3]);
  typename S::reg hi = S::row(key[4], key[5], key[6], key[7]);
  alignas(64) std::uint32_t counters[4 * S::stack];
  for (std::size_t q = 0; q < S::stack; ++q) {
    const std::uint64_t c = counter + (increment_counter ? q : 0);
    counters[4 * q] = static_cast<std::uint32_t>(c);
    counters[4 * q + 1] = static_cast<std::uint32_t>(c >> 32);
    counters[4 * q + 2] = block_len;
    counters[4 * q + 3] = 0;
  }
  const typename S::reg counter_row = S::loadu(counters);
  for (std::size_t b = 0; b < blocks; ++b) {
    std::uint8_t block_flags = flags;
    if (b == 0) block_flags |= flags_start;
    if (b == blocks - 1) block_flags |= flags_end;
    typename S::reg n[4];
    S::load_message(inputs, b * block_len, n);
    typename S::reg r[4] = {lo, hi, S::row(iv[0], iv[1], iv[2], iv[3]),
                            S::add(counter_row, S::row(0, 0, 0, block_flags))};
    typename S::reg m[4];
    stacked_round<S, 0>(r, n, m);
    stacked_round<S, 1>(r, n, m);
    stacked_round<S, 2>(r, n, m);
    stacked_round<S, 3>(r, n, m);
    stacked_round<S, 4>(r, n, m);
    stacked_round<S, 5>(r, n, m);
    stacked_round<S, 6>(r, n, m);
    lo = S::xor_(r[0], r[2]);
    hi = S::xor_(r[1], r[3]);
  }
  S::store_cvs(lo, hi, out);
}

// A group of W::lanes inputs through whichever layout W is.
template <class W>
FASTBLAKE_ALWAYS_INLINE void group_hash(const std::uint8_t* const inputs[], std::size_t blocks,
                                        const std::uint32_t key[8], std::uint64_t counter,
                                        bool increment_counter, std::uint8_t flags,
                                        std::uint8_t flags_start, std::uint8_t flags_end,
                                        std::uint8_t* out) {
  if constexpr (requires { W::stack; }) {
    stacked_hash<W>(inputs, blocks, key, counter, increment_counter, flags, flags_start, flags_end,
                    out);
  } else {
    wide_hash<W>(inputs, blocks, key, counter, increment_counter, flags, flags_start, flags_end,
                 out);
  }
}

// ---- kernel entry points: the widest vectors first, then narrower ones for the rest ----

// Runs batch.operator()<W> over n items in groups of W::lanes. What is left runs as one more
// group of W with its spare lanes repeating the first item when it fills more than half of it
// (or W is the narrowest width), else with the next narrower width; one item left at the
// narrowest width goes through `single` (one lane of work gains nothing from vectors).
// `index` counts items done.
template <class W, class... Narrower, class Batch, class Single>
FASTBLAKE_ALWAYS_INLINE void in_batches(const std::uint8_t* input, std::size_t n,
                                        std::size_t input_stride, std::uint8_t* out,
                                        std::size_t out_stride, std::uint64_t index,
                                        const Batch& batch, const Single& single) {
  const std::uint8_t* inputs[W::lanes];
  for (; n >= W::lanes; n -= W::lanes) {
    for (std::size_t lane = 0; lane < W::lanes; ++lane) inputs[lane] = input + lane * input_stride;
    batch.template operator()<W>(inputs, index, out);
    input += W::lanes * input_stride;
    out += W::lanes * out_stride;
    index += W::lanes;
  }
  constexpr bool narrowest = sizeof...(Narrower) == 0;
  if (n == 0) return;
  if (n > W::lanes / 2 || (narrowest && n > 1)) {
    for (std::size_t lane = 0; lane < W::lanes; ++lane)
      inputs[lane] = input + (lane < n ? lane : 0) * input_stride;
    alignas(64) std::uint8_t spare[W::lanes * block_len];
    batch.template operator()<W>(inputs, index, spare);
    std::memcpy(out, spare, n * out_stride);
  } else if constexpr (!narrowest) {
    in_batches<Narrower...>(input, n, input_stride, out, out_stride, index, batch, single);
  } else {
    single(input, index, out);
  }
}

template <class... Widths>
void hash_chunks_with(const std::uint8_t* input, std::size_t num_chunks, const std::uint32_t key[8],
                      std::uint64_t counter, std::uint8_t flags, std::uint8_t* out) {
  in_batches<Widths...>(
      input, num_chunks, chunk_len, out, out_len, counter,
      [&]<class W>(const std::uint8_t* const* inputs, std::uint64_t chunk, std::uint8_t* o) {
        group_hash<W>(inputs, blocks_per_chunk, key, chunk, true, flags, chunk_start, chunk_end, o);
      },
      [&](const std::uint8_t* in, std::uint64_t chunk, std::uint8_t* o) {
        row_hash_chunk(in, key, chunk, flags, o);
      });
}

template <class... Widths>
void hash_parents_with(const std::uint8_t* input, std::size_t num_parents,
                       const std::uint32_t key[8], std::uint8_t flags, std::uint8_t* out) {
  const auto parent_flags = static_cast<std::uint8_t>(flags | parent);
  in_batches<Widths...>(
      input, num_parents, block_len, out, out_len, 0,
      [&]<class W>(const std::uint8_t* const* inputs, std::uint64_t, std::uint8_t* o) {
        group_hash<W>(inputs, 1, key, 0, false, parent_flags, 0, 0, o);
      },
      [&](const std::uint8_t* in, std::uint64_t, std::uint8_t* o) {
        std::uint32_t cv[8];
        std::memcpy(cv, key, sizeof cv);
        row_compress_in_place(cv, in, block_len, 0, parent_flags);
        store_le32_words(cv, o, 8);
      });
}

// Whole small messages: groups of lanes with pointer and length arrays, narrower for the rest;
// a last odd one alone goes through the row path.
template <class W, class... Narrower>
void hash_roots_with(const std::uint8_t* const* inputs, const std::size_t* lengths,
                     std::size_t num_inputs, const std::uint32_t key[8], std::uint8_t flags,
                     std::uint8_t* out) {
  for (; num_inputs >= W::lanes; num_inputs -= W::lanes) {
    wide_roots<W>(inputs, lengths, key, flags, out);
    inputs += W::lanes;
    lengths += W::lanes;
    out += W::lanes * out_len;
  }
  if (num_inputs == 0) return;
  if constexpr (sizeof...(Narrower) > 0) {
    hash_roots_with<Narrower...>(inputs, lengths, num_inputs, key, flags, out);
  } else if (num_inputs == 1) {
    std::uint32_t cv[8];
    std::memcpy(cv, key, sizeof cv);
    const std::size_t full = lengths[0] == 0 ? 0 : (lengths[0] - 1) / block_len;
    row_compress_blocks(cv, inputs[0], full, 0, flags | chunk_start, flags);
    std::uint8_t tail[block_len] = {};
    const std::size_t rest = lengths[0] - full * block_len;
    if (rest != 0) std::memcpy(tail, inputs[0] + full * block_len, rest);
    row_compress_in_place(cv, tail, static_cast<std::uint8_t>(rest), 0,
                          flags | (full == 0 ? chunk_start : 0) | chunk_end | root);
    store_le32_words(cv, out, 8);
  } else {
    const std::uint8_t* padded[W::lanes];
    std::size_t padded_lengths[W::lanes];
    for (std::size_t lane = 0; lane < W::lanes; ++lane) {
      padded[lane] = inputs[lane < num_inputs ? lane : 0];
      padded_lengths[lane] = lengths[lane < num_inputs ? lane : 0];
    }
    alignas(64) std::uint8_t spare[W::lanes * out_len];
    wide_roots<W>(padded, padded_lengths, key, flags, spare);
    std::memcpy(out, spare, num_inputs * out_len);
  }
}

// Output blocks need no input: `input` only paces in_batches (stride 0).
template <class... Widths>
void xof_many_with(const std::uint32_t cv[8], const std::uint8_t block[block_len], std::uint8_t len,
                   std::uint64_t counter, std::uint8_t flags, std::uint8_t* out,
                   std::size_t num_blocks) {
  in_batches<Widths...>(
      block, num_blocks, 0, out, block_len, counter,
      [&]<class W>(const std::uint8_t* const*, std::uint64_t first, std::uint8_t* o) {
        wide_xof_batch<W>(cv, block, len, first, flags, o);
      },
      [&](const std::uint8_t*, std::uint64_t first, std::uint8_t* o) {
        row_compress_xof(cv, block, len, first, flags, o);
      });
}

// The table of a kernel whose rows are `row` and whose many-block functions all run W.
template <class W>
constexpr kernels kernels_with() {
  return {
      .simd_degree = W::lanes,
      .compress_in_place = row_compress_in_place,
      .compress_blocks = row_compress_blocks,
      .xof_many = xof_many_with<W>,
      .hash_chunks = hash_chunks_with<W>,
      .hash_roots = hash_roots_with<W>,
      .hash_parents = hash_parents_with<W>,
  };
}
