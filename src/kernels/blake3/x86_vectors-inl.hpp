// BLAKE3's vector types for the x86 kernels: `vec128` (four 32-bit lanes: simd::u32x4 with
// BLAKE3's rotations and, below AVX-512, the asm rounds); from AVX2 on, `vec256` (eight lanes:
// simd::u32x8 with BLAKE3's rotations, message loads and transpose and, below AVX-512, the asm
// rounds), `stack256` (two inputs in one 256-bit vector) and `stack_pair<S>` (two groups of S
// side by side).
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

#if defined(FASTBLAKE_ISA_AVX2)

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

// Two inputs in one 256-bit vector, each in its own 128-bit half as the single-block rows
// (simd-inl.hpp's stacked rows): 256-bit operations run at twice the rate of 512-bit ones on
// AMD Zen 5, so two chunks take about as long as one; with AVX2 the official assembly hashes
// its last four chunks the same way.
struct stack256 : simd::u32x8 {
  static constexpr std::size_t stack = 2;
  static constexpr std::size_t lanes = stack;

  static reg row(std::uint32_t a, std::uint32_t b, std::uint32_t c, std::uint32_t d) {
    return _mm256_broadcastsi128_si256(_mm_setr_epi32(static_cast<int>(a), static_cast<int>(b),
                                                      static_cast<int>(c), static_cast<int>(d)));
  }
  static reg rot16(reg v) { return vec256::rot16(v); }
  static reg rot12(reg v) { return vec256::rot12(v); }
  static reg rot8(reg v) { return vec256::rot8(v); }
  static reg rot7(reg v) { return vec256::rot7(v); }
  template <int k>
  static reg rotate_lanes(reg v) {
    return _mm256_shuffle_epi32(v,
                                ((k + 3) % 4) << 6 | ((k + 2) % 4) << 4 | ((k + 1) % 4) << 2 | k);
  }
  template <int imm>
  static reg shuffle(reg v) {
    return _mm256_shuffle_epi32(v, imm);
  }
  template <int mask>
  static reg blend4(reg a, reg b) {
    return _mm256_blend_epi32(a, b, mask * 0x11);
  }
  static void load_message(const std::uint8_t* const inputs[stack], std::size_t offset, reg n[4]) {
    for (int k = 0; k < 4; ++k) {
      n[k] = _mm256_inserti128_si256(
          _mm256_castsi128_si256(
              _mm_loadu_si128(reinterpret_cast<const __m128i*>(inputs[0] + offset + 16 * k))),
          _mm_loadu_si128(reinterpret_cast<const __m128i*>(inputs[1] + offset + 16 * k)), 1);
    }
  }
  static void store_cvs(reg lo, reg hi, std::uint8_t* out) {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out), _mm256_permute2x128_si256(lo, hi, 0x20));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + 32),
                        _mm256_permute2x128_si256(lo, hi, 0x31));
  }
};

// Two independent groups of S side by side, as one stacked-rows type of twice the inputs:
// every operation is issued for both, so that each one's latency hides behind the other's work.
template <class S>
struct stack_pair {
  struct reg {
    typename S::reg lo, hi;
  };
  static constexpr std::size_t stack = 2 * S::stack;
  static constexpr std::size_t lanes = stack;

  static reg add(reg a, reg b) { return {S::add(a.lo, b.lo), S::add(a.hi, b.hi)}; }
  static reg xor_(reg a, reg b) { return {S::xor_(a.lo, b.lo), S::xor_(a.hi, b.hi)}; }
  static reg loadu(const void* p) {
    const auto* bytes = static_cast<const std::uint8_t*>(p);
    return {S::loadu(bytes), S::loadu(bytes + sizeof(typename S::reg))};
  }
  static reg row(std::uint32_t a, std::uint32_t b, std::uint32_t c, std::uint32_t d) {
    const typename S::reg r = S::row(a, b, c, d);
    return {r, r};
  }
  static reg rot16(reg v) { return {S::rot16(v.lo), S::rot16(v.hi)}; }
  static reg rot12(reg v) { return {S::rot12(v.lo), S::rot12(v.hi)}; }
  static reg rot8(reg v) { return {S::rot8(v.lo), S::rot8(v.hi)}; }
  static reg rot7(reg v) { return {S::rot7(v.lo), S::rot7(v.hi)}; }
  template <int k>
  static reg rotate_lanes(reg v) {
    return {S::template rotate_lanes<k>(v.lo), S::template rotate_lanes<k>(v.hi)};
  }
  template <int imm>
  static reg shuffle(reg v) {
    return {S::template shuffle<imm>(v.lo), S::template shuffle<imm>(v.hi)};
  }
  template <int mask>
  static reg blend4(reg a, reg b) {
    return {S::template blend4<mask>(a.lo, b.lo), S::template blend4<mask>(a.hi, b.hi)};
  }
  static void load_message(const std::uint8_t* const inputs[stack], std::size_t offset, reg n[4]) {
    typename S::reg lo[4], hi[4];
    S::load_message(inputs, offset, lo);
    S::load_message(inputs + S::stack, offset, hi);
    for (int k = 0; k < 4; ++k) n[k] = {lo[k], hi[k]};
  }
  static void store_cvs(reg lo, reg hi, std::uint8_t* out) {
    S::store_cvs(lo.lo, hi.lo, out);
    S::store_cvs(lo.hi, hi.hi, out + S::stack * out_len);
  }
};

#endif  // defined(FASTBLAKE_ISA_AVX2)
