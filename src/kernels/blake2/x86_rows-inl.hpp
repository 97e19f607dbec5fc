// BLAKE2 for one message with AVX2 (AVX-512VL rotations where the file's flags allow): the state
// as four rows of four words (a, b, c, d), the four G functions of a step in one register each.
// Needs compress-inl.hpp (sigma, advance) and x86_lanes-inl.hpp (the vectors, the rotations).
//
// Between the column and the diagonal step the rows are rotated so that the diagonals line up.
// The usual way rotates b, c and d; this one keeps b in place and rotates a, c and d: G's
// critical path runs through b (the next step starts with a += b), so no rotation waits on it,
// and a, c and d are ready several operations before they are needed. A step is then twelve
// dependent one-cycle operations, as in scalar code, with a quarter of the instructions.
//
// The message words of each step are gathered off the critical path, by instructions chosen at
// compile time from the schedule: for BLAKE2b from the block's 128-bit pieces broadcast to both
// halves (an unpack, alignr or blend per pair of words, a blend per vector); for BLAKE2s by one
// two-source permute (AVX-512VL), or by permuting each 256-bit half of the block and blending.
//
// No include guard and no includes: included inside an ISA file's anonymous namespace.

// For each round, the message words of the column step's lanes (x then y: G0..G3's first and
// second words) and of the diagonal step's lanes. With b in place, lane i of the diagonal step
// holds the G whose b is row b's word i: G7, G4, G5, G6.
struct row_schedule {
  // [round][step][x or y][lane]
  std::uint8_t index[10][2][2][4];
};

constexpr row_schedule make_row_schedule() {
  row_schedule r{};
  constexpr int diagonal_g_of_lane[4] = {3, 0, 1, 2};  // G7, G4, G5, G6 as diagonal G 0..3
  for (int round = 0; round < 10; ++round) {
    for (int lane = 0; lane < 4; ++lane) {
      r.index[round][0][0][lane] = sigma[round][2 * lane];
      r.index[round][0][1][lane] = sigma[round][2 * lane + 1];
      const int g = diagonal_g_of_lane[lane];
      r.index[round][1][0][lane] = sigma[round][8 + 2 * g];
      r.index[round][1][1][lane] = sigma[round][8 + 2 * g + 1];
    }
  }
  return r;
}

inline constexpr row_schedule row_message = make_row_schedule();

// BLAKE2b: rows of four 64-bit words in 256-bit registers.
struct rows_b {
  // Words X0 and X1 of the block in each 128-bit half; piece[k] holds words 2k and 2k + 1 in
  // both halves.
  template <int X0, int X1>
  FASTBLAKE_ALWAYS_INLINE static __m256i pair(const __m256i* piece) {
    constexpr int p0 = X0 / 2, w0 = X0 % 2, p1 = X1 / 2, w1 = X1 % 2;
    if constexpr (p0 == p1) {
      return w0 == 0 ? piece[p0] : _mm256_shuffle_epi32(piece[p0], _MM_SHUFFLE(1, 0, 3, 2));
    } else if constexpr (w0 == 0 && w1 == 0) {
      return _mm256_unpacklo_epi64(piece[p0], piece[p1]);
    } else if constexpr (w0 == 1 && w1 == 1) {
      return _mm256_unpackhi_epi64(piece[p0], piece[p1]);
    } else if constexpr (w0 == 1) {
      return _mm256_alignr_epi8(piece[p1], piece[p0], 8);
    } else {
      return _mm256_blend_epi32(piece[p0], piece[p1], 0xCC);
    }
  }
  template <int R, int Step, int Which>
  FASTBLAKE_ALWAYS_INLINE static __m256i words(const __m256i* piece) {
    constexpr const std::uint8_t* i = row_message.index[R % 10][Step][Which];
    // Named first: Clang's intrinsics are macros, and the template arguments hold commas.
    const __m256i low = pair<i[0], i[1]>(piece);
    const __m256i high = pair<i[2], i[3]>(piece);
    return _mm256_blend_epi32(low, high, 0xF0);
  }
  // Rotations by whole bytes as byte shuffles even where AVX-512VL has a rotate: on Zen 5 the
  // row kernel measured 3% faster so (docs/blake2-kernels.md).
  static __m256i rot32(__m256i x) { return simd::u64x4::rotr_shuffled<32>(x); }
  static __m256i rot24(__m256i x) { return simd::u64x4::rotr_shuffled<24>(x); }
  static __m256i rot16(__m256i x) { return simd::u64x4::rotr_shuffled<16>(x); }
  FASTBLAKE_ALWAYS_INLINE static void half(__m256i& a, __m256i& b, __m256i& c, __m256i& d,
                                           __m256i x, __m256i y) {
    a = _mm256_add_epi64(_mm256_add_epi64(a, x), b);
    d = rot32(_mm256_xor_si256(d, a));
    c = _mm256_add_epi64(c, d);
    b = rot24(_mm256_xor_si256(b, c));
    a = _mm256_add_epi64(_mm256_add_epi64(a, y), b);
    d = rot16(_mm256_xor_si256(d, a));
    c = _mm256_add_epi64(c, d);
    b = lanes_b256::rot4(_mm256_xor_si256(b, c));
  }
  template <int R>
  FASTBLAKE_ALWAYS_INLINE static void round(__m256i& a, __m256i& b, __m256i& c, __m256i& d,
                                            const __m256i* piece) {
    half(a, b, c, d, words<R, 0, 0>(piece), words<R, 0, 1>(piece));
    a = _mm256_permute4x64_epi64(a, _MM_SHUFFLE(2, 1, 0, 3));
    c = _mm256_permute4x64_epi64(c, _MM_SHUFFLE(0, 3, 2, 1));
    d = _mm256_permute4x64_epi64(d, _MM_SHUFFLE(1, 0, 3, 2));
    half(a, b, c, d, words<R, 1, 0>(piece), words<R, 1, 1>(piece));
    a = _mm256_permute4x64_epi64(a, _MM_SHUFFLE(0, 3, 2, 1));
    c = _mm256_permute4x64_epi64(c, _MM_SHUFFLE(2, 1, 0, 3));
    d = _mm256_permute4x64_epi64(d, _MM_SHUFFLE(1, 0, 3, 2));
  }
};

void compress_rows_b(std::uint64_t h[8], const std::uint8_t* blocks, std::size_t num_blocks,
                     std::uint64_t t[2], std::uint64_t increment, std::uint64_t f0,
                     std::uint64_t f1) {
  __m256i row_a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(h));
  __m256i row_b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(h + 4));
  const __m256i iv_low = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(iv_b));
  const __m256i iv_high = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(iv_b + 4));
  std::uint64_t t0 = t[0];
  std::uint64_t t1 = t[1];
  for (std::size_t k = 0; k < num_blocks; ++k, blocks += 128) {
    advance(t0, t1, increment);
    __m256i piece[8];
    for (int p = 0; p < 8; ++p) {
      piece[p] = _mm256_broadcastsi128_si256(
          _mm_loadu_si128(reinterpret_cast<const __m128i*>(blocks + 16 * p)));
    }
    __m256i a = row_a;
    __m256i b = row_b;
    __m256i c = iv_low;
    __m256i d = _mm256_xor_si256(
        iv_high, _mm256_setr_epi64x(static_cast<long long>(t0), static_cast<long long>(t1),
                                    static_cast<long long>(f0), static_cast<long long>(f1)));
    rows_b::round<0>(a, b, c, d, piece);
    rows_b::round<1>(a, b, c, d, piece);
    rows_b::round<2>(a, b, c, d, piece);
    rows_b::round<3>(a, b, c, d, piece);
    rows_b::round<4>(a, b, c, d, piece);
    rows_b::round<5>(a, b, c, d, piece);
    rows_b::round<6>(a, b, c, d, piece);
    rows_b::round<7>(a, b, c, d, piece);
    rows_b::round<8>(a, b, c, d, piece);
    rows_b::round<9>(a, b, c, d, piece);
    rows_b::round<10>(a, b, c, d, piece);
    rows_b::round<11>(a, b, c, d, piece);
    row_a = _mm256_xor_si256(row_a, _mm256_xor_si256(a, c));
    row_b = _mm256_xor_si256(row_b, _mm256_xor_si256(b, d));
  }
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(h), row_a);
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(h + 4), row_b);
  t[0] = t0;
  t[1] = t1;
}

// BLAKE2s: rows of four 32-bit words in 128-bit registers; the block in two 256-bit halves.
struct rows_s {
  // A step's x and y words (x in the low half): each half of the block permuted into place,
  // then the words from the upper half blended in.
  template <int R, int Step>
  FASTBLAKE_ALWAYS_INLINE static __m256i words(__m256i low, __m256i high) {
    constexpr const std::uint8_t* x = row_message.index[R][Step][0];
    constexpr const std::uint8_t* y = row_message.index[R][Step][1];
#if defined(FASTBLAKE_ISA_AVX512)
    // One two-source permute.
    return _mm256_permutex2var_epi32(
        low, _mm256_setr_epi32(x[0], x[1], x[2], x[3], y[0], y[1], y[2], y[3]), high);
#else
    const __m256i idx = _mm256_setr_epi32(x[0] % 8, x[1] % 8, x[2] % 8, x[3] % 8, y[0] % 8,
                                          y[1] % 8, y[2] % 8, y[3] % 8);
    constexpr int from_high = (x[0] >= 8) | (x[1] >= 8) << 1 | (x[2] >= 8) << 2 | (x[3] >= 8) << 3 |
                              (y[0] >= 8) << 4 | (y[1] >= 8) << 5 | (y[2] >= 8) << 6 |
                              (y[3] >= 8) << 7;
    return _mm256_blend_epi32(_mm256_permutevar8x32_epi32(low, idx),
                              _mm256_permutevar8x32_epi32(high, idx), from_high);
#endif
  }
  FASTBLAKE_ALWAYS_INLINE static void half(__m128i& a, __m128i& b, __m128i& c, __m128i& d,
                                           __m256i xy) {
    const __m128i x = _mm256_castsi256_si128(xy);
    const __m128i y = _mm256_extracti128_si256(xy, 1);
    a = _mm_add_epi32(_mm_add_epi32(a, x), b);
    d = lanes_s128::rot1(_mm_xor_si128(d, a));
    c = _mm_add_epi32(c, d);
    b = lanes_s128::rot2(_mm_xor_si128(b, c));
    a = _mm_add_epi32(_mm_add_epi32(a, y), b);
    d = lanes_s128::rot3(_mm_xor_si128(d, a));
    c = _mm_add_epi32(c, d);
    b = lanes_s128::rot4(_mm_xor_si128(b, c));
  }
  template <int R>
  FASTBLAKE_ALWAYS_INLINE static void round(__m128i& a, __m128i& b, __m128i& c, __m128i& d,
                                            __m256i low, __m256i high) {
    half(a, b, c, d, words<R, 0>(low, high));
    a = _mm_shuffle_epi32(a, _MM_SHUFFLE(2, 1, 0, 3));
    c = _mm_shuffle_epi32(c, _MM_SHUFFLE(0, 3, 2, 1));
    d = _mm_shuffle_epi32(d, _MM_SHUFFLE(1, 0, 3, 2));
    half(a, b, c, d, words<R, 1>(low, high));
    a = _mm_shuffle_epi32(a, _MM_SHUFFLE(0, 3, 2, 1));
    c = _mm_shuffle_epi32(c, _MM_SHUFFLE(2, 1, 0, 3));
    d = _mm_shuffle_epi32(d, _MM_SHUFFLE(1, 0, 3, 2));
  }
};

void compress_rows_s(std::uint32_t h[8], const std::uint8_t* blocks, std::size_t num_blocks,
                     std::uint32_t t[2], std::uint32_t increment, std::uint32_t f0,
                     std::uint32_t f1) {
  __m128i row_a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(h));
  __m128i row_b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(h + 4));
  const __m128i iv_low = _mm_loadu_si128(reinterpret_cast<const __m128i*>(iv_s));
  const __m128i iv_high = _mm_loadu_si128(reinterpret_cast<const __m128i*>(iv_s + 4));
  std::uint32_t t0 = t[0];
  std::uint32_t t1 = t[1];
  for (std::size_t k = 0; k < num_blocks; ++k, blocks += 64) {
    advance(t0, t1, increment);
    const __m256i low = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(blocks));
    const __m256i high = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(blocks + 32));
    __m128i a = row_a;
    __m128i b = row_b;
    __m128i c = iv_low;
    __m128i d = _mm_xor_si128(iv_high, _mm_setr_epi32(static_cast<int>(t0), static_cast<int>(t1),
                                                      static_cast<int>(f0), static_cast<int>(f1)));
    rows_s::round<0>(a, b, c, d, low, high);
    rows_s::round<1>(a, b, c, d, low, high);
    rows_s::round<2>(a, b, c, d, low, high);
    rows_s::round<3>(a, b, c, d, low, high);
    rows_s::round<4>(a, b, c, d, low, high);
    rows_s::round<5>(a, b, c, d, low, high);
    rows_s::round<6>(a, b, c, d, low, high);
    rows_s::round<7>(a, b, c, d, low, high);
    rows_s::round<8>(a, b, c, d, low, high);
    rows_s::round<9>(a, b, c, d, low, high);
    row_a = _mm_xor_si128(row_a, _mm_xor_si128(a, c));
    row_b = _mm_xor_si128(row_b, _mm_xor_si128(b, d));
  }
  _mm_storeu_si128(reinterpret_cast<__m128i*>(h), row_a);
  _mm_storeu_si128(reinterpret_cast<__m128i*>(h + 4), row_b);
  t[0] = t0;
  t[1] = t1;
}
