// BLAKE2 for one message with AVX-512VL: the state as four rows of four words (a, b, c, d), the
// four G functions of a step in one register each. Needs compress-inl.hpp (sigma, advance).
//
// Between the column and the diagonal step the rows are rotated so that the diagonals line up.
// The usual way rotates b, c and d; this one keeps b in place and rotates a, c and d: G's
// critical path runs through b (the next step starts with a += b), so no rotation waits on it,
// and a, c and d are ready several operations before they are needed. A step is then twelve
// dependent one-cycle operations, as in scalar code, with a quarter of the instructions.
//
// The message words of each step are picked from the block (two registers) by one two-source
// permute, off the critical path.
//
// No include guard and no includes: included inside avx512.cpp's anonymous namespace.

// For each round, the message words of the column step's lanes (x then y: G0..G3's first and
// second words) and of the diagonal step's lanes. With b in place, lane i of the diagonal step
// holds the G whose b is row b's word i: G7, G4, G5, G6.
template <std::size_t Lanes>
struct row_schedule {
  // [round][step][x or y][lane]
  std::uint8_t index[10][2][2][Lanes];
};

constexpr row_schedule<4> make_row_schedule() {
  row_schedule<4> r{};
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

inline constexpr row_schedule<4> row_message = make_row_schedule();

// BLAKE2b: rows of four 64-bit words in 256-bit registers; the block in two 512-bit ones.
struct rows_b {
  // The step's x and y words in one register (x low, y high): one permute per step.
  static __m512i xy_of(__m512i lo, __m512i hi, int round, int step) {
    const std::uint8_t* x = row_message.index[round % 10][step][0];
    const std::uint8_t* y = row_message.index[round % 10][step][1];
    const __m512i idx = _mm512_setr_epi64(x[0], x[1], x[2], x[3], y[0], y[1], y[2], y[3]);
    return _mm512_permutex2var_epi64(lo, idx, hi);
  }
  template <int R>
  FASTBLAKE_ALWAYS_INLINE static void round(__m256i& a, __m256i& b, __m256i& c, __m256i& d,
                                            __m512i lo, __m512i hi) {
    const auto half = [&](__m512i xy) {
      const __m256i x = _mm512_castsi512_si256(xy);
      const __m256i y = _mm512_extracti64x4_epi64(xy, 1);
      a = _mm256_add_epi64(_mm256_add_epi64(a, x), b);
      d = _mm256_ror_epi64(_mm256_xor_si256(d, a), 32);
      c = _mm256_add_epi64(c, d);
      b = _mm256_ror_epi64(_mm256_xor_si256(b, c), 24);
      a = _mm256_add_epi64(_mm256_add_epi64(a, y), b);
      d = _mm256_ror_epi64(_mm256_xor_si256(d, a), 16);
      c = _mm256_add_epi64(c, d);
      b = _mm256_ror_epi64(_mm256_xor_si256(b, c), 63);
    };
    half(xy_of(lo, hi, R, 0));
    a = _mm256_permute4x64_epi64(a, _MM_SHUFFLE(2, 1, 0, 3));
    c = _mm256_permute4x64_epi64(c, _MM_SHUFFLE(0, 3, 2, 1));
    d = _mm256_permute4x64_epi64(d, _MM_SHUFFLE(1, 0, 3, 2));
    half(xy_of(lo, hi, R, 1));
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
    const __m512i lo = _mm512_loadu_si512(blocks);
    const __m512i hi = _mm512_loadu_si512(blocks + 64);
    __m256i a = row_a;
    __m256i b = row_b;
    __m256i c = iv_low;
    __m256i d = _mm256_xor_si256(
        iv_high, _mm256_setr_epi64x(static_cast<long long>(t0), static_cast<long long>(t1),
                                    static_cast<long long>(f0), static_cast<long long>(f1)));
    rows_b::round<0>(a, b, c, d, lo, hi);
    rows_b::round<1>(a, b, c, d, lo, hi);
    rows_b::round<2>(a, b, c, d, lo, hi);
    rows_b::round<3>(a, b, c, d, lo, hi);
    rows_b::round<4>(a, b, c, d, lo, hi);
    rows_b::round<5>(a, b, c, d, lo, hi);
    rows_b::round<6>(a, b, c, d, lo, hi);
    rows_b::round<7>(a, b, c, d, lo, hi);
    rows_b::round<8>(a, b, c, d, lo, hi);
    rows_b::round<9>(a, b, c, d, lo, hi);
    rows_b::round<10>(a, b, c, d, lo, hi);
    rows_b::round<11>(a, b, c, d, lo, hi);
    row_a = _mm256_ternarylogic_epi64(row_a, a, c, 0x96);
    row_b = _mm256_ternarylogic_epi64(row_b, b, d, 0x96);
  }
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(h), row_a);
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(h + 4), row_b);
  t[0] = t0;
  t[1] = t1;
}

// BLAKE2s: rows of four 32-bit words in 128-bit registers; the block in two 256-bit ones.
struct rows_s {
  static __m256i xy_of(__m256i lo, __m256i hi, int round, int step) {
    const std::uint8_t* x = row_message.index[round][step][0];
    const std::uint8_t* y = row_message.index[round][step][1];
    const __m256i idx = _mm256_setr_epi32(x[0], x[1], x[2], x[3], y[0], y[1], y[2], y[3]);
    return _mm256_permutex2var_epi32(lo, idx, hi);
  }
  template <int R>
  FASTBLAKE_ALWAYS_INLINE static void round(__m128i& a, __m128i& b, __m128i& c, __m128i& d,
                                            __m256i lo, __m256i hi) {
    const auto half = [&](__m256i xy) {
      const __m128i x = _mm256_castsi256_si128(xy);
      const __m128i y = _mm256_extracti128_si256(xy, 1);
      a = _mm_add_epi32(_mm_add_epi32(a, x), b);
      d = _mm_ror_epi32(_mm_xor_si128(d, a), 16);
      c = _mm_add_epi32(c, d);
      b = _mm_ror_epi32(_mm_xor_si128(b, c), 12);
      a = _mm_add_epi32(_mm_add_epi32(a, y), b);
      d = _mm_ror_epi32(_mm_xor_si128(d, a), 8);
      c = _mm_add_epi32(c, d);
      b = _mm_ror_epi32(_mm_xor_si128(b, c), 7);
    };
    half(xy_of(lo, hi, R, 0));
    a = _mm_shuffle_epi32(a, _MM_SHUFFLE(2, 1, 0, 3));
    c = _mm_shuffle_epi32(c, _MM_SHUFFLE(0, 3, 2, 1));
    d = _mm_shuffle_epi32(d, _MM_SHUFFLE(1, 0, 3, 2));
    half(xy_of(lo, hi, R, 1));
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
    const __m256i lo = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(blocks));
    const __m256i hi = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(blocks + 32));
    __m128i a = row_a;
    __m128i b = row_b;
    __m128i c = iv_low;
    __m128i d = _mm_xor_si128(iv_high, _mm_setr_epi32(static_cast<int>(t0), static_cast<int>(t1),
                                                      static_cast<int>(f0), static_cast<int>(f1)));
    rows_s::round<0>(a, b, c, d, lo, hi);
    rows_s::round<1>(a, b, c, d, lo, hi);
    rows_s::round<2>(a, b, c, d, lo, hi);
    rows_s::round<3>(a, b, c, d, lo, hi);
    rows_s::round<4>(a, b, c, d, lo, hi);
    rows_s::round<5>(a, b, c, d, lo, hi);
    rows_s::round<6>(a, b, c, d, lo, hi);
    rows_s::round<7>(a, b, c, d, lo, hi);
    rows_s::round<8>(a, b, c, d, lo, hi);
    rows_s::round<9>(a, b, c, d, lo, hi);
    row_a = _mm_ternarylogic_epi32(row_a, a, c, 0x96);
    row_b = _mm_ternarylogic_epi32(row_b, b, d, 0x96);
  }
  _mm_storeu_si128(reinterpret_cast<__m128i*>(h), row_a);
  _mm_storeu_si128(reinterpret_cast<__m128i*>(h + 4), row_b);
  t[0] = t0;
  t[1] = t1;
}
