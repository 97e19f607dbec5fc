// The BLAKE2 lanes kernels' types on x86, over simd/x86-inl.hpp's vectors: one message per
// lane, word w of every lane in one register. 128-bit types need SSE4.1, 256-bit ones AVX2;
// with AVX-512VL (the avx512 file's flags) every rotation is one instruction.
//
// No include guard: included inside each ISA file's anonymous namespace after <immintrin.h>
// and compress-inl.hpp.

#include "simd/x86-inl.hpp"

// Two BLAKE2b lanes.
template struct blake2b_over<simd::u64x2>;
struct lanes_b128 : blake2b_over<simd::u64x2> {
  static void load_message(const std::uint8_t* const* blocks, std::size_t offset, reg m[16]) {
    for (int k = 0; k < 8; ++k) {
      const reg r0 = loadu(blocks[0] + offset + 16 * k);
      const reg r1 = loadu(blocks[1] + offset + 16 * k);
      m[2 * k] = _mm_unpacklo_epi64(r0, r1);
      m[2 * k + 1] = _mm_unpackhi_epi64(r0, r1);
    }
  }
};

// Four BLAKE2s lanes.
template struct blake2s_over<simd::u32x4>;
struct lanes_s128 : blake2s_over<simd::u32x4> {
  // A 4 x 4 transpose of 32-bit words for each quarter of the blocks.
  static void load_message(const std::uint8_t* const* blocks, std::size_t offset, reg m[16]) {
    for (int k = 0; k < 4; ++k) {
      reg r[4];
      for (int i = 0; i < 4; ++i) r[i] = loadu(blocks[i] + offset + 16 * k);
      transpose(r, m + 4 * k);
    }
  }
};

#if defined(FASTBLAKE_ISA_AVX2)
// Four BLAKE2b lanes.
template struct blake2b_over<simd::u64x4>;
struct lanes_b256 : blake2b_over<simd::u64x4> {
  // A 4 x 4 transpose of 64-bit words for each quarter of the blocks.
  static void load_message(const std::uint8_t* const* blocks, std::size_t offset, reg m[16]) {
    for (int q = 0; q < 4; ++q) {
      reg r[4];
      for (int i = 0; i < 4; ++i) {
        r[i] = loadu(blocks[i] + offset + 32 * q);
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
template struct blake2s_over<simd::u32x8>;
struct lanes_s256 : blake2s_over<simd::u32x8> {
  // An 8 x 8 transpose of 32-bit words for each half of the blocks.
  static void load_message(const std::uint8_t* const* blocks, std::size_t offset, reg m[16]) {
    for (int half = 0; half < 2; ++half) {
      reg r[8];
      for (int i = 0; i < 8; ++i) {
        r[i] = loadu(blocks[i] + offset + 32 * half);
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
template struct blake2b_over<simd::u64x8>;
struct lanes_b512 : blake2b_over<simd::u64x8> {
  static void load_message(const std::uint8_t* const* blocks, std::size_t offset, reg m[16]) {
    for (int half = 0; half < 2; ++half) {
      for (int i = 0; i < 8; ++i) m[8 * half + i] = loadu(blocks[i] + offset + 64 * half);
      transpose_8x8_epi64(m + 8 * half);
    }
  }
};

// Sixteen BLAKE2s lanes. Each lane's block is one 512-bit row of sixteen words, transposed.
template struct blake2s_over<simd::u32x16>;
struct lanes_s512 : blake2s_over<simd::u32x16> {
  static void load_message(const std::uint8_t* const* blocks, std::size_t offset, reg m[16]) {
    for (int i = 0; i < 16; ++i) m[i] = loadu(blocks[i] + offset);
    transpose_16x16_epi32(m);
  }
};
#endif
