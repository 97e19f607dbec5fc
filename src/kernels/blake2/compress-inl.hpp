// The BLAKE2 compression function, generic over a "register" type V: a scalar word, or a
// vector holding that word of several independent messages (one lane each).
//
// No include guard and no includes: included inside each ISA file's anonymous namespace, so
// that every instantiation is compiled with that file's instruction set and none is shared
// between files.
//
// V provides: reg; add, xor_; rot1..rot4 (the four rotations of G) and rounds; and, for the
// lanes, iv. Each family's constants are written once, below (blake2b_over, blake2s_over):
// every kernel's V derives from one of them over its word or vector type, and adds only how
// it loads the message.

// The message schedule: round r uses sigma[r % 10].
inline constexpr std::uint8_t sigma[10][16] = {
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
    {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
    {11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4},
    {7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8},
    {9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13},
    {2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9},
    {12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11},
    {13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10},
    {6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5},
    {10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0},
};

// A family's rounds, IV and rotations over a type W that has reg, add, xor_ and rotr<n>: a
// vector type of src/simd/, or scalar_word. Each file instantiates those it uses explicitly,
// right before the traits that derive from them: GCC's inliner follows the order in which it
// meets functions, and without that GCC 12 allocates registers otherwise in 12 of the x86
// kernels' 27 functions (with it, every kernel's code is what it was when each wrote these out).
template <class W>
struct blake2b_over : W {
  using reg = typename W::reg;
  static constexpr int rounds = 12;
  static constexpr const std::uint64_t* iv = iv_b;
  static reg rot1(reg x) { return W::template rotr<32>(x); }
  static reg rot2(reg x) { return W::template rotr<24>(x); }
  static reg rot3(reg x) { return W::template rotr<16>(x); }
  static reg rot4(reg x) { return W::template rotr<63>(x); }
};

template <class W>
struct blake2s_over : W {
  using reg = typename W::reg;
  static constexpr int rounds = 10;
  static constexpr const std::uint32_t* iv = iv_s;
  static reg rot1(reg x) { return W::template rotr<16>(x); }
  static reg rot2(reg x) { return W::template rotr<12>(x); }
  static reg rot3(reg x) { return W::template rotr<8>(x); }
  static reg rot4(reg x) { return W::template rotr<7>(x); }
};

// One word in a general register, for the scalar kernel.
template <class Word>
struct scalar_word {
  using reg = Word;
  static reg add(reg a, reg b) { return a + b; }
  static reg xor_(reg a, reg b) { return a ^ b; }
  template <int n>
  static reg rotr(reg x) {
    return std::rotr(x, n);
  }
};

template <class V>
FASTBLAKE_ALWAYS_INLINE void g(typename V::reg* v, int a, int b, int c, int d, typename V::reg x,
                               typename V::reg y) {
  // (a + x) + b: only the last add waits for b, the value G's previous step finishes last.
  v[a] = V::add(V::add(v[a], x), v[b]);
  v[d] = V::rot1(V::xor_(v[d], v[a]));
  v[c] = V::add(v[c], v[d]);
  v[b] = V::rot2(V::xor_(v[b], v[c]));
  v[a] = V::add(V::add(v[a], y), v[b]);
  v[d] = V::rot3(V::xor_(v[d], v[a]));
  v[c] = V::add(v[c], v[d]);
  v[b] = V::rot4(V::xor_(v[b], v[c]));
}

// One round; R is a template argument so that every message index is a constant.
template <class V, int R>
FASTBLAKE_ALWAYS_INLINE void round(typename V::reg* v, const typename V::reg* m) {
  constexpr const std::uint8_t* s = sigma[R % 10];
  g<V>(v, 0, 4, 8, 12, m[s[0]], m[s[1]]);
  g<V>(v, 1, 5, 9, 13, m[s[2]], m[s[3]]);
  g<V>(v, 2, 6, 10, 14, m[s[4]], m[s[5]]);
  g<V>(v, 3, 7, 11, 15, m[s[6]], m[s[7]]);
  g<V>(v, 0, 5, 10, 15, m[s[8]], m[s[9]]);
  g<V>(v, 1, 6, 11, 12, m[s[10]], m[s[11]]);
  g<V>(v, 2, 7, 8, 13, m[s[12]], m[s[13]]);
  g<V>(v, 3, 4, 9, 14, m[s[14]], m[s[15]]);
}

// Every round, spelled out (a loop or lambda would leave the indices variable).
template <class V>
FASTBLAKE_ALWAYS_INLINE void all_rounds(typename V::reg* v, const typename V::reg* m) {
  round<V, 0>(v, m);
  round<V, 1>(v, m);
  round<V, 2>(v, m);
  round<V, 3>(v, m);
  round<V, 4>(v, m);
  round<V, 5>(v, m);
  round<V, 6>(v, m);
  round<V, 7>(v, m);
  round<V, 8>(v, m);
  round<V, 9>(v, m);
  if constexpr (V::rounds == 12) {
    round<V, 10>(v, m);
    round<V, 11>(v, m);
  }
}

// Adds `increment` to the two-word counter t, carrying into the high word.
template <class W>
FASTBLAKE_ALWAYS_INLINE void advance(W& low, W& high, W increment) {
  low += increment;
  high += low < increment ? 1 : 0;
}

// The lanes kernel over vector type V (V::lanes lanes of V::word): the generic body of every
// lanes_fn. V also provides load/store (aligned arrays of lanes words), set1, and
// load_message(blocks, offset, m): word w of lane i's block at blocks[i] + offset into m[w].
template <class V>
void compress_lanes(typename V::word* h, const std::uint8_t* const* blocks, std::size_t stride,
                    std::size_t num_blocks, typename V::word* t, const typename V::word* increment,
                    const typename V::word* f) {
  using W = typename V::word;
  using reg = typename V::reg;
  constexpr std::size_t n = V::lanes;
  reg hv[8];
  for (int w = 0; w < 8; ++w) hv[w] = V::load_words(h + w * n);
  const reg f0 = V::load_words(f);
  const reg f1 = V::load_words(f + n);
  alignas(64) W t0[n];
  alignas(64) W t1[n];
  for (std::size_t i = 0; i < n; ++i) {
    t0[i] = t[i];
    t1[i] = t[n + i];
  }
  for (std::size_t k = 0; k < num_blocks; ++k) {
    for (std::size_t i = 0; i < n; ++i) advance(t0[i], t1[i], increment[i]);
    reg m[16];
    V::load_message(blocks, k * stride, m);
    reg v[16];
    for (int w = 0; w < 8; ++w) v[w] = hv[w];
    for (int w = 0; w < 4; ++w) v[8 + w] = V::set1(V::iv[w]);
    v[12] = V::xor_(V::set1(V::iv[4]), V::load_words(t0));
    v[13] = V::xor_(V::set1(V::iv[5]), V::load_words(t1));
    v[14] = V::xor_(V::set1(V::iv[6]), f0);
    v[15] = V::xor_(V::set1(V::iv[7]), f1);
    all_rounds<V>(v, m);
    for (int w = 0; w < 8; ++w) hv[w] = V::xor_(hv[w], V::xor_(v[w], v[w + 8]));
  }
  for (int w = 0; w < 8; ++w) V::store_words(h + w * n, hv[w]);
  for (std::size_t i = 0; i < n; ++i) {
    t[i] = t0[i];
    t[n + i] = t1[i];
  }
}

// A lanes_fn of N lanes made of kernels of V::lanes lanes, group after group (N a multiple).
template <class V, std::size_t N>
void compress_lane_groups(typename V::word* h, const std::uint8_t* const* blocks,
                          std::size_t stride, std::size_t num_blocks, typename V::word* t,
                          const typename V::word* increment, const typename V::word* f) {
  using W = typename V::word;
  constexpr std::size_t n = V::lanes;
  for (std::size_t first = 0; first < N; first += n) {
    alignas(64) W group_h[8 * n];
    alignas(64) W group_t[2 * n];
    alignas(64) W group_f[2 * n];
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t w = 0; w < 8; ++w) group_h[w * n + i] = h[w * N + first + i];
      group_t[i] = t[first + i];
      group_t[n + i] = t[N + first + i];
      group_f[i] = f[first + i];
      group_f[n + i] = f[N + first + i];
    }
    compress_lanes<V>(group_h, blocks + first, stride, num_blocks, group_t, increment + first,
                      group_f);
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t w = 0; w < 8; ++w) h[w * N + first + i] = group_h[w * n + i];
      t[first + i] = group_t[i];
      t[N + first + i] = group_t[n + i];
    }
  }
}
