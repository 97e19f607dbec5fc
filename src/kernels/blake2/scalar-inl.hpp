// Scalar BLAKE2 compression: one message, its sixteen working words in general registers.
// On x86-64 cores with several integer units this beats 128- and 256-bit rows for BLAKE2b
// (docs/blake2-kernels.md), so the x86 backends use it too.
//
// No include guard and no includes: included inside each ISA file's anonymous namespace, after
// compress-inl.hpp.

template struct scalar_word<std::uint64_t>;
template struct blake2b_over<scalar_word<std::uint64_t>>;
struct scalar_b : blake2b_over<scalar_word<std::uint64_t>> {
  static reg load(const std::uint8_t* p) { return load_le64(p); }
};

template struct scalar_word<std::uint32_t>;
template struct blake2s_over<scalar_word<std::uint32_t>>;
struct scalar_s : blake2s_over<scalar_word<std::uint32_t>> {
  static reg load(const std::uint8_t* p) { return load_le32(p); }
};

template <class V>
void compress_scalar(typename V::reg h[8], const std::uint8_t* blocks, std::size_t num_blocks,
                     typename V::reg t[2], typename V::reg increment, typename V::reg f0,
                     typename V::reg f1) {
  using W = typename V::reg;
  constexpr std::size_t block_size = 16 * sizeof(W);
  W t0 = t[0];
  W t1 = t[1];
  for (std::size_t k = 0; k < num_blocks; ++k, blocks += block_size) {
    advance(t0, t1, increment);
    // Word by word: a copy of the block would be re-read in word-sized pieces.
    W m[16];
    for (int w = 0; w < 16; ++w) m[w] = V::load(blocks + w * sizeof(W));
    W v[16];
    for (int w = 0; w < 8; ++w) v[w] = h[w];
    for (int w = 0; w < 4; ++w) v[8 + w] = V::iv[w];
    v[12] = V::iv[4] ^ t0;
    v[13] = V::iv[5] ^ t1;
    v[14] = V::iv[6] ^ f0;
    v[15] = V::iv[7] ^ f1;
    all_rounds<V>(v, m);
    for (int w = 0; w < 8; ++w) h[w] ^= v[w] ^ v[w + 8];
  }
  t[0] = t0;
  t[1] = t1;
}

// A lanes_fn made of the scalar kernel, lane after lane.
template <class V, std::size_t N>
void lanes_scalar(typename V::reg* h, const std::uint8_t* const* blocks, std::size_t stride,
                  std::size_t num_blocks, typename V::reg* t, const typename V::reg* increment,
                  const typename V::reg* f) {
  using W = typename V::reg;
  for (std::size_t i = 0; i < N; ++i) {
    W lane[8];
    for (std::size_t w = 0; w < 8; ++w) lane[w] = h[w * N + i];
    W counter[2] = {t[i], t[N + i]};
    for (std::size_t k = 0; k < num_blocks; ++k) {
      compress_scalar<V>(lane, blocks[i] + k * stride, 1, counter, increment[i], f[i], f[N + i]);
    }
    for (std::size_t w = 0; w < 8; ++w) h[w * N + i] = lane[w];
    t[i] = counter[0];
    t[N + i] = counter[1];
  }
}
