// BLAKE3's SIMD kernels, many blocks at once: word i of every lane in one vector.
//
// Part of simd-inl.hpp, which includes it (inside each backend file's anonymous namespace, with
// no include guard and no includes, as that file says).

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
