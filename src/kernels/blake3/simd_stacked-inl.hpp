// BLAKE3's SIMD kernels, a few chunks at once as stacked rows.
//
// Part of simd-inl.hpp, which includes it (inside each backend file's anonymous namespace, with
// no include guard and no includes, as that file says).

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
