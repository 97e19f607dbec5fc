// BLAKE3's 128-bit vector type (four 32-bit lanes) for the x86 kernels, `vec128`: simd::u32x4
// with BLAKE3's rotations and, below AVX-512, the asm rounds.
//
// No include guard: included inside each ISA file's anonymous namespace after <immintrin.h>,
// so that the rotates use the best instruction that file's flags allow.

#include "kernels/blake3/x86_rounds_asm-inl.hpp"
#include "simd/x86-inl.hpp"

struct vec128 : simd::u32x4 {
  static reg rot16(reg v) { return rotr<16>(v); }
  static reg rot12(reg v) { return rotr<12>(v); }
  static reg rot8(reg v) { return rotr<8>(v); }
  static reg rot7(reg v) { return rotr<7>(v); }
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
};
