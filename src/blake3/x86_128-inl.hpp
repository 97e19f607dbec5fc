// 128-bit vector traits (four 32-bit lanes) for the x86 kernels: `vec128`.
//
// No include guard and no includes: included inside each ISA file's anonymous namespace after
// <immintrin.h>, so that the rotates use the best instruction that file's flags allow.

#include "blake3/x86_rounds_asm-inl.hpp"

struct vec128 {
  using reg = __m128i;
  static constexpr std::size_t lanes = 4;

  static reg add(reg a, reg b) { return _mm_add_epi32(a, b); }
  static reg xor_(reg a, reg b) { return _mm_xor_si128(a, b); }
  static reg set1(std::uint32_t w) { return _mm_set1_epi32(static_cast<int>(w)); }
  static reg setr(std::uint32_t a, std::uint32_t b, std::uint32_t c, std::uint32_t d) {
    return _mm_setr_epi32(static_cast<int>(a), static_cast<int>(b), static_cast<int>(c),
                          static_cast<int>(d));
  }
  static reg loadu(const void* p) { return _mm_loadu_si128(static_cast<const __m128i*>(p)); }
  static void storeu(void* p, reg v) { _mm_storeu_si128(static_cast<__m128i*>(p), v); }

#if defined(FASTBLAKE_ISA_AVX512)
  static reg rot16(reg v) { return _mm_ror_epi32(v, 16); }
  static reg rot12(reg v) { return _mm_ror_epi32(v, 12); }
  static reg rot8(reg v) { return _mm_ror_epi32(v, 8); }
  static reg rot7(reg v) { return _mm_ror_epi32(v, 7); }
#else
#if defined(FASTBLAKE_ISA_SSSE3)
  // Byte rotations are one byte shuffle.
  static reg rot16(reg v) {
    return _mm_shuffle_epi8(v, _mm_setr_epi8(2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13));
  }
  static reg rot8(reg v) {
    return _mm_shuffle_epi8(v, _mm_setr_epi8(1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12));
  }
#else
  static reg rot16(reg v) { return _mm_shufflehi_epi16(_mm_shufflelo_epi16(v, 0xB1), 0xB1); }
  static reg rot8(reg v) { return _mm_or_si128(_mm_srli_epi32(v, 8), _mm_slli_epi32(v, 24)); }
#endif
  static reg rot12(reg v) { return _mm_or_si128(_mm_srli_epi32(v, 12), _mm_slli_epi32(v, 20)); }
  static reg rot7(reg v) { return _mm_or_si128(_mm_srli_epi32(v, 7), _mm_slli_epi32(v, 25)); }
#if defined(FASTBLAKE_BLAKE3_ROUNDS_ASM)
  // The byte shuffles of rot16 and rot8 (SSSE3 and later), as memory operands of rounds() and
  // compress().
  alignas(16) static constexpr reg rot16_mask = {0x0504070601000302, 0x0D0C0F0E09080B0A};
  alignas(16) static constexpr reg rot8_mask = {0x0407060500030201, 0x0C0F0E0D080B0A09};
  // The encoding follows the compiler's (__AVX__): VEX among VEX code, legacy SSE among legacy
  // SSE, so that the two never mix within a function.
  FASTBLAKE_ALWAYS_INLINE static void rounds(reg v[16], const reg m[16]) {
    reg spill;
#if defined(__AVX__)
    FASTBLAKE_ASM_ROUNDS(FASTBLAKE_ASM_VEX, "vmovdqu", "xmm", "16", v, m, spill, rot16_mask,
                         rot8_mask);
#elif defined(FASTBLAKE_ISA_SSSE3)
    FASTBLAKE_ASM_ROUNDS(FASTBLAKE_ASM_SSSE3, "movdqu", "xmm", "16", v, m, spill, rot16_mask,
                         rot8_mask);
#else
    FASTBLAKE_ASM_ROUNDS(FASTBLAKE_ASM_SSE2, "movdqu", "xmm", "16", v, m, spill, rot16_mask,
                         rot8_mask);
#endif
  }
  FASTBLAKE_ALWAYS_INLINE static void compress(reg h[8], const reg tail[8], const reg m[16]) {
    reg spill;
#if defined(__AVX__)
    FASTBLAKE_ASM_COMPRESS(FASTBLAKE_ASM_VEX, FASTBLAKE_ASM_3OP, "vpxor", "vmovdqu", "xmm", "16", h,
                           tail, m, spill, rot16_mask, rot8_mask);
#elif defined(FASTBLAKE_ISA_SSSE3)
    FASTBLAKE_ASM_COMPRESS(FASTBLAKE_ASM_SSSE3, FASTBLAKE_ASM_2OP, "pxor", "movdqu", "xmm", "16", h,
                           tail, m, spill, rot16_mask, rot8_mask);
#else
    FASTBLAKE_ASM_COMPRESS(FASTBLAKE_ASM_SSE2, FASTBLAKE_ASM_2OP, "pxor", "movdqu", "xmm", "16", h,
                           tail, m, spill, rot16_mask, rot8_mask);
#endif
  }
#endif
#endif

  /// Lane i takes lane (i + k) % 4.
  template <int k>
  static reg rotate_lanes(reg v) {
    return _mm_shuffle_epi32(v, ((k + 3) % 4) << 6 | ((k + 2) % 4) << 4 | ((k + 1) % 4) << 2 | k);
  }

  static void transpose(reg r[4]) {
    const reg ab01 = _mm_unpacklo_epi32(r[0], r[1]);
    const reg ab23 = _mm_unpackhi_epi32(r[0], r[1]);
    const reg cd01 = _mm_unpacklo_epi32(r[2], r[3]);
    const reg cd23 = _mm_unpackhi_epi32(r[2], r[3]);
    r[0] = _mm_unpacklo_epi64(ab01, cd01);
    r[1] = _mm_unpackhi_epi64(ab01, cd01);
    r[2] = _mm_unpacklo_epi64(ab23, cd23);
    r[3] = _mm_unpackhi_epi64(ab23, cd23);
  }
};
