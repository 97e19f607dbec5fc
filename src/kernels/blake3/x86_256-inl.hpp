// BLAKE3's 256-bit vector type (eight 32-bit lanes) for the x86 kernels, `vec256`: simd::u32x8
// with BLAKE3's rotations, message loads and transpose and, below AVX-512, the asm rounds.
//
// No include guard: included inside each ISA file's anonymous namespace after <immintrin.h>,
// so that the rotates use the best instruction that file's flags allow.

#include "kernels/blake3/x86_rounds_asm-inl.hpp"
#include "simd/x86-inl.hpp"

struct vec256 : simd::u32x8 {
  static reg rot16(reg v) { return rotr<16>(v); }
  static reg rot12(reg v) { return rotr<12>(v); }
  static reg rot8(reg v) { return rotr<8>(v); }
  static reg rot7(reg v) { return rotr<7>(v); }
#if defined(FASTBLAKE_BLAKE3_ROUNDS_ASM)
  // The byte shuffles of rot16 and rot8, as memory operands of rounds() and compress().
  static constexpr reg rot16_mask = {0x0504070601000302, 0x0D0C0F0E09080B0A, 0x0504070601000302,
                                     0x0D0C0F0E09080B0A};
  static constexpr reg rot8_mask = {0x0407060500030201, 0x0C0F0E0D080B0A09, 0x0407060500030201,
                                    0x0C0F0E0D080B0A09};
  FASTBLAKE_ALWAYS_INLINE static void rounds(reg v[16], const reg m[16]) {
    reg spill;
    FASTBLAKE_ASM_ROUNDS(FASTBLAKE_ASM_VEX, "vmovdqu", "ymm", "32", v, m, spill, rot16_mask,
                         rot8_mask);
  }
  FASTBLAKE_ALWAYS_INLINE static void compress(reg h[8], const reg tail[8], const reg m[16]) {
    reg spill;
    FASTBLAKE_ASM_COMPRESS(FASTBLAKE_ASM_VEX, FASTBLAKE_ASM_3OP, "vpxor", "vmovdqu", "ymm", "32", h,
                           tail, m, spill, rot16_mask, rot8_mask);
  }
#endif

  // Words 8t .. 8t + 7 of the blocks at inputs[lane] + offset for t = 0, 1: m[w] holds word w
  // of every lane. Lanes l and l + 4 share a vector from the start (a 128-bit load and an
  // insert from memory), so a 4 x 4 transpose within each half finishes the job: no
  // lane-crossing shuffle, whose port the rounds' byte shuffles need.
  static void load_transposed(const std::uint8_t* const inputs[8], std::size_t offset, reg m[16]) {
    for (std::size_t quarter = 0; quarter < 4; ++quarter) {
      reg r[4];
      for (std::size_t lane = 0; lane < 4; ++lane) {
        const auto* lo = inputs[lane] + offset + 16 * quarter;
        const auto* hi = inputs[lane + 4] + offset + 16 * quarter;
        r[lane] = _mm256_inserti128_si256(
            _mm256_castsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(lo))),
            _mm_loadu_si128(reinterpret_cast<const __m128i*>(hi)), 1);
      }
      const reg ab01 = _mm256_unpacklo_epi32(r[0], r[1]);
      const reg ab23 = _mm256_unpackhi_epi32(r[0], r[1]);
      const reg cd01 = _mm256_unpacklo_epi32(r[2], r[3]);
      const reg cd23 = _mm256_unpackhi_epi32(r[2], r[3]);
      m[4 * quarter] = _mm256_unpacklo_epi64(ab01, cd01);
      m[4 * quarter + 1] = _mm256_unpackhi_epi64(ab01, cd01);
      m[4 * quarter + 2] = _mm256_unpacklo_epi64(ab23, cd23);
      m[4 * quarter + 3] = _mm256_unpackhi_epi64(ab23, cd23);
    }
  }

  // 8 x 8 words: 32-bit and 64-bit interleaves within each 128-bit half, then the halves.
  static void transpose(reg r[8]) {
    const reg ab01 = _mm256_unpacklo_epi32(r[0], r[1]);
    const reg ab23 = _mm256_unpackhi_epi32(r[0], r[1]);
    const reg cd01 = _mm256_unpacklo_epi32(r[2], r[3]);
    const reg cd23 = _mm256_unpackhi_epi32(r[2], r[3]);
    const reg ef01 = _mm256_unpacklo_epi32(r[4], r[5]);
    const reg ef23 = _mm256_unpackhi_epi32(r[4], r[5]);
    const reg gh01 = _mm256_unpacklo_epi32(r[6], r[7]);
    const reg gh23 = _mm256_unpackhi_epi32(r[6], r[7]);
    const reg abcd0 = _mm256_unpacklo_epi64(ab01, cd01);
    const reg abcd1 = _mm256_unpackhi_epi64(ab01, cd01);
    const reg abcd2 = _mm256_unpacklo_epi64(ab23, cd23);
    const reg abcd3 = _mm256_unpackhi_epi64(ab23, cd23);
    const reg efgh0 = _mm256_unpacklo_epi64(ef01, gh01);
    const reg efgh1 = _mm256_unpackhi_epi64(ef01, gh01);
    const reg efgh2 = _mm256_unpacklo_epi64(ef23, gh23);
    const reg efgh3 = _mm256_unpackhi_epi64(ef23, gh23);
    r[0] = _mm256_permute2x128_si256(abcd0, efgh0, 0x20);
    r[1] = _mm256_permute2x128_si256(abcd1, efgh1, 0x20);
    r[2] = _mm256_permute2x128_si256(abcd2, efgh2, 0x20);
    r[3] = _mm256_permute2x128_si256(abcd3, efgh3, 0x20);
    r[4] = _mm256_permute2x128_si256(abcd0, efgh0, 0x31);
    r[5] = _mm256_permute2x128_si256(abcd1, efgh1, 0x31);
    r[6] = _mm256_permute2x128_si256(abcd2, efgh2, 0x31);
    r[7] = _mm256_permute2x128_si256(abcd3, efgh3, 0x31);
  }
};
