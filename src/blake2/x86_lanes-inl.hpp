// Vector types for the BLAKE2 lanes kernels on x86: one message per lane, word w of every lane
// in one register. 128-bit types need SSE4.1, 256-bit ones AVX2; with AVX-512VL (the avx512
// file's flags) every rotation is one instruction.
//
// No include guard and no includes: included inside each ISA file's anonymous namespace after
// <immintrin.h> and compress-inl.hpp.

// Byte shuffles that rotate every 64-bit (b) or 32-bit (s) word right by 24 or 16 (b), 16 or 8
// (s), repeated for each 128-bit lane.
#define FASTBLAKE_ROT_MASK_B24 3, 4, 5, 6, 7, 0, 1, 2, 11, 12, 13, 14, 15, 8, 9, 10
#define FASTBLAKE_ROT_MASK_B16 2, 3, 4, 5, 6, 7, 0, 1, 10, 11, 12, 13, 14, 15, 8, 9
#define FASTBLAKE_ROT_MASK_S16 2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13
#define FASTBLAKE_ROT_MASK_S8 1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12

// Two BLAKE2b lanes.
struct lanes_b128 {
  using word = std::uint64_t;
  using reg = __m128i;
  static constexpr std::size_t lanes = 2;
  static constexpr int rounds = 12;
  static constexpr const std::uint64_t* iv = iv_b;
  static reg add(reg a, reg b) { return _mm_add_epi64(a, b); }
  static reg xor_(reg a, reg b) { return _mm_xor_si128(a, b); }
  static reg set1(word w) { return _mm_set1_epi64x(static_cast<long long>(w)); }
  static reg load(const word* p) { return _mm_loadu_si128(reinterpret_cast<const reg*>(p)); }
  static void store(word* p, reg v) { _mm_storeu_si128(reinterpret_cast<reg*>(p), v); }
#if defined(FASTBLAKE_ISA_AVX512)
  static reg rot1(reg x) { return _mm_ror_epi64(x, 32); }
  static reg rot2(reg x) { return _mm_ror_epi64(x, 24); }
  static reg rot3(reg x) { return _mm_ror_epi64(x, 16); }
  static reg rot4(reg x) { return _mm_ror_epi64(x, 63); }
#else
  static reg rot1(reg x) { return _mm_shuffle_epi32(x, _MM_SHUFFLE(2, 3, 0, 1)); }
  static reg rot2(reg x) { return _mm_shuffle_epi8(x, _mm_setr_epi8(FASTBLAKE_ROT_MASK_B24)); }
  static reg rot3(reg x) { return _mm_shuffle_epi8(x, _mm_setr_epi8(FASTBLAKE_ROT_MASK_B16)); }
  // x + x is x << 1 on the adder, which has more ports than the shifter.
  static reg rot4(reg x) { return _mm_or_si128(_mm_srli_epi64(x, 63), _mm_add_epi64(x, x)); }
#endif
  static void load_message(const std::uint8_t* const* blocks, std::size_t offset, reg m[16]) {
    for (int k = 0; k < 8; ++k) {
      const reg r0 = _mm_loadu_si128(reinterpret_cast<const reg*>(blocks[0] + offset + 16 * k));
      const reg r1 = _mm_loadu_si128(reinterpret_cast<const reg*>(blocks[1] + offset + 16 * k));
      m[2 * k] = _mm_unpacklo_epi64(r0, r1);
      m[2 * k + 1] = _mm_unpackhi_epi64(r0, r1);
    }
  }
};

// Four BLAKE2s lanes.
struct lanes_s128 {
  using word = std::uint32_t;
  using reg = __m128i;
  static constexpr std::size_t lanes = 4;
  static constexpr int rounds = 10;
  static constexpr const std::uint32_t* iv = iv_s;
  static reg add(reg a, reg b) { return _mm_add_epi32(a, b); }
  static reg xor_(reg a, reg b) { return _mm_xor_si128(a, b); }
  static reg set1(word w) { return _mm_set1_epi32(static_cast<int>(w)); }
  static reg load(const word* p) { return _mm_loadu_si128(reinterpret_cast<const reg*>(p)); }
  static void store(word* p, reg v) { _mm_storeu_si128(reinterpret_cast<reg*>(p), v); }
#if defined(FASTBLAKE_ISA_AVX512)
  static reg rot1(reg x) { return _mm_ror_epi32(x, 16); }
  static reg rot2(reg x) { return _mm_ror_epi32(x, 12); }
  static reg rot3(reg x) { return _mm_ror_epi32(x, 8); }
  static reg rot4(reg x) { return _mm_ror_epi32(x, 7); }
#else
  static reg rot1(reg x) { return _mm_shuffle_epi8(x, _mm_setr_epi8(FASTBLAKE_ROT_MASK_S16)); }
  static reg rot2(reg x) { return _mm_or_si128(_mm_srli_epi32(x, 12), _mm_slli_epi32(x, 20)); }
  static reg rot3(reg x) { return _mm_shuffle_epi8(x, _mm_setr_epi8(FASTBLAKE_ROT_MASK_S8)); }
  static reg rot4(reg x) { return _mm_or_si128(_mm_srli_epi32(x, 7), _mm_slli_epi32(x, 25)); }
#endif
  static void load_message(const std::uint8_t* const* blocks, std::size_t offset, reg m[16]) {
    for (int k = 0; k < 4; ++k) {
      reg r[4];
      for (int i = 0; i < 4; ++i) {
        r[i] = _mm_loadu_si128(reinterpret_cast<const reg*>(blocks[i] + offset + 16 * k));
      }
      const reg t0 = _mm_unpacklo_epi32(r[0], r[1]);
      const reg t1 = _mm_unpackhi_epi32(r[0], r[1]);
      const reg t2 = _mm_unpacklo_epi32(r[2], r[3]);
      const reg t3 = _mm_unpackhi_epi32(r[2], r[3]);
      m[4 * k] = _mm_unpacklo_epi64(t0, t2);
      m[4 * k + 1] = _mm_unpackhi_epi64(t0, t2);
      m[4 * k + 2] = _mm_unpacklo_epi64(t1, t3);
      m[4 * k + 3] = _mm_unpackhi_epi64(t1, t3);
    }
  }
};

#if defined(FASTBLAKE_ISA_AVX2)
// Four BLAKE2b lanes.
struct lanes_b256 {
  using word = std::uint64_t;
  using reg = __m256i;
  static constexpr std::size_t lanes = 4;
  static constexpr int rounds = 12;
  static constexpr const std::uint64_t* iv = iv_b;
  static reg add(reg a, reg b) { return _mm256_add_epi64(a, b); }
  static reg xor_(reg a, reg b) { return _mm256_xor_si256(a, b); }
  static reg set1(word w) { return _mm256_set1_epi64x(static_cast<long long>(w)); }
  static reg load(const word* p) { return _mm256_loadu_si256(reinterpret_cast<const reg*>(p)); }
  static void store(word* p, reg v) { _mm256_storeu_si256(reinterpret_cast<reg*>(p), v); }
#if defined(FASTBLAKE_ISA_AVX512)
  static reg rot1(reg x) { return _mm256_ror_epi64(x, 32); }
  static reg rot2(reg x) { return _mm256_ror_epi64(x, 24); }
  static reg rot3(reg x) { return _mm256_ror_epi64(x, 16); }
  static reg rot4(reg x) { return _mm256_ror_epi64(x, 63); }
#else
  static reg rot1(reg x) { return _mm256_shuffle_epi32(x, _MM_SHUFFLE(2, 3, 0, 1)); }
  static reg rot2(reg x) {
    return _mm256_shuffle_epi8(x, _mm256_setr_epi8(FASTBLAKE_ROT_MASK_B24, FASTBLAKE_ROT_MASK_B24));
  }
  static reg rot3(reg x) {
    return _mm256_shuffle_epi8(x, _mm256_setr_epi8(FASTBLAKE_ROT_MASK_B16, FASTBLAKE_ROT_MASK_B16));
  }
  static reg rot4(reg x) {
    return _mm256_or_si256(_mm256_srli_epi64(x, 63), _mm256_add_epi64(x, x));
  }
#endif
  // A 4 x 4 transpose of 64-bit words for each quarter of the blocks.
  static void load_message(const std::uint8_t* const* blocks, std::size_t offset, reg m[16]) {
    for (int q = 0; q < 4; ++q) {
      reg r[4];
      for (int i = 0; i < 4; ++i) {
        r[i] = _mm256_loadu_si256(reinterpret_cast<const reg*>(blocks[i] + offset + 32 * q));
      }
      const reg t0 = _mm256_unpacklo_epi64(r[0], r[1]);
      const reg t1 = _mm256_unpackhi_epi64(r[0], r[1]);
      const reg t2 = _mm256_unpacklo_epi64(r[2], r[3]);
      const reg t3 = _mm256_unpackhi_epi64(r[2], r[3]);
      m[4 * q] = _mm256_permute2x128_si256(t0, t2, 0x20);
      m[4 * q + 1] = _mm256_permute2x128_si256(t1, t3, 0x20);
      m[4 * q + 2] = _mm256_permute2x128_si256(t0, t2, 0x31);
      m[4 * q + 3] = _mm256_permute2x128_si256(t1, t3, 0x31);
    }
  }
};

// Eight BLAKE2s lanes.
struct lanes_s256 {
  using word = std::uint32_t;
  using reg = __m256i;
  static constexpr std::size_t lanes = 8;
  static constexpr int rounds = 10;
  static constexpr const std::uint32_t* iv = iv_s;
  static reg add(reg a, reg b) { return _mm256_add_epi32(a, b); }
  static reg xor_(reg a, reg b) { return _mm256_xor_si256(a, b); }
  static reg set1(word w) { return _mm256_set1_epi32(static_cast<int>(w)); }
  static reg load(const word* p) { return _mm256_loadu_si256(reinterpret_cast<const reg*>(p)); }
  static void store(word* p, reg v) { _mm256_storeu_si256(reinterpret_cast<reg*>(p), v); }
#if defined(FASTBLAKE_ISA_AVX512)
  static reg rot1(reg x) { return _mm256_ror_epi32(x, 16); }
  static reg rot2(reg x) { return _mm256_ror_epi32(x, 12); }
  static reg rot3(reg x) { return _mm256_ror_epi32(x, 8); }
  static reg rot4(reg x) { return _mm256_ror_epi32(x, 7); }
#else
  static reg rot1(reg x) {
    return _mm256_shuffle_epi8(x, _mm256_setr_epi8(FASTBLAKE_ROT_MASK_S16, FASTBLAKE_ROT_MASK_S16));
  }
  static reg rot2(reg x) {
    return _mm256_or_si256(_mm256_srli_epi32(x, 12), _mm256_slli_epi32(x, 20));
  }
  static reg rot3(reg x) {
    return _mm256_shuffle_epi8(x, _mm256_setr_epi8(FASTBLAKE_ROT_MASK_S8, FASTBLAKE_ROT_MASK_S8));
  }
  static reg rot4(reg x) {
    return _mm256_or_si256(_mm256_srli_epi32(x, 7), _mm256_slli_epi32(x, 25));
  }
#endif
  // An 8 x 8 transpose of 32-bit words for each half of the blocks.
  static void load_message(const std::uint8_t* const* blocks, std::size_t offset, reg m[16]) {
    for (int half = 0; half < 2; ++half) {
      reg r[8];
      for (int i = 0; i < 8; ++i) {
        r[i] = _mm256_loadu_si256(reinterpret_cast<const reg*>(blocks[i] + offset + 32 * half));
      }
      reg t[8];
      for (int i = 0; i < 4; ++i) {
        t[2 * i] = _mm256_unpacklo_epi32(r[2 * i], r[2 * i + 1]);
        t[2 * i + 1] = _mm256_unpackhi_epi32(r[2 * i], r[2 * i + 1]);
      }
      reg u[8];
      for (int i = 0; i < 2; ++i) {
        u[4 * i] = _mm256_unpacklo_epi64(t[4 * i], t[4 * i + 2]);
        u[4 * i + 1] = _mm256_unpackhi_epi64(t[4 * i], t[4 * i + 2]);
        u[4 * i + 2] = _mm256_unpacklo_epi64(t[4 * i + 1], t[4 * i + 3]);
        u[4 * i + 3] = _mm256_unpackhi_epi64(t[4 * i + 1], t[4 * i + 3]);
      }
      for (int j = 0; j < 4; ++j) {
        m[8 * half + j] = _mm256_permute2x128_si256(u[j], u[4 + j], 0x20);
        m[8 * half + 4 + j] = _mm256_permute2x128_si256(u[j], u[4 + j], 0x31);
      }
    }
  }
};
#endif

#if defined(FASTBLAKE_ISA_AVX512)
// Eight BLAKE2b lanes. Each lane's block is two 512-bit rows of eight words, transposed.
struct lanes_b512 {
  using word = std::uint64_t;
  using reg = __m512i;
  static constexpr std::size_t lanes = 8;
  static constexpr int rounds = 12;
  static constexpr const std::uint64_t* iv = iv_b;
  static reg add(reg a, reg b) { return _mm512_add_epi64(a, b); }
  static reg xor_(reg a, reg b) { return _mm512_xor_si512(a, b); }
  static reg set1(word w) { return _mm512_set1_epi64(static_cast<long long>(w)); }
  static reg load(const word* p) { return _mm512_loadu_si512(p); }
  static void store(word* p, reg v) { _mm512_storeu_si512(p, v); }
  static reg rot1(reg x) { return _mm512_ror_epi64(x, 32); }
  static reg rot2(reg x) { return _mm512_ror_epi64(x, 24); }
  static reg rot3(reg x) { return _mm512_ror_epi64(x, 16); }
  static reg rot4(reg x) { return _mm512_ror_epi64(x, 63); }
  static void load_message(const std::uint8_t* const* blocks, std::size_t offset, reg m[16]) {
    for (int half = 0; half < 2; ++half) {
      for (int i = 0; i < 8; ++i)
        m[8 * half + i] = _mm512_loadu_si512(blocks[i] + offset + 64 * half);
      transpose_8x8_epi64(m + 8 * half);
    }
  }
};

// Sixteen BLAKE2s lanes. Each lane's block is one 512-bit row of sixteen words, transposed.
struct lanes_s512 {
  using word = std::uint32_t;
  using reg = __m512i;
  static constexpr std::size_t lanes = 16;
  static constexpr int rounds = 10;
  static constexpr const std::uint32_t* iv = iv_s;
  static reg add(reg a, reg b) { return _mm512_add_epi32(a, b); }
  static reg xor_(reg a, reg b) { return _mm512_xor_si512(a, b); }
  static reg set1(word w) { return _mm512_set1_epi32(static_cast<int>(w)); }
  static reg load(const word* p) { return _mm512_loadu_si512(p); }
  static void store(word* p, reg v) { _mm512_storeu_si512(p, v); }
  static reg rot1(reg x) { return _mm512_ror_epi32(x, 16); }
  static reg rot2(reg x) { return _mm512_ror_epi32(x, 12); }
  static reg rot3(reg x) { return _mm512_ror_epi32(x, 8); }
  static reg rot4(reg x) { return _mm512_ror_epi32(x, 7); }
  static void load_message(const std::uint8_t* const* blocks, std::size_t offset, reg m[16]) {
    for (int i = 0; i < 16; ++i) m[i] = _mm512_loadu_si512(blocks[i] + offset);
    transpose_16x16_epi32(m);
  }
};
#endif

#undef FASTBLAKE_ROT_MASK_B24
#undef FASTBLAKE_ROT_MASK_B16
#undef FASTBLAKE_ROT_MASK_S16
#undef FASTBLAKE_ROT_MASK_S8
