// The avx512 BLAKE3 kernel (AVX-512F + VL): sixteen lanes of 512-bit vectors for many blocks at
// once, then 8 lanes of 256 bits, then stacked rows (one input per 128-bit quarter) for the
// last few chunks or parents, all with native rotates; single blocks use 128-bit rows.
// What this file may use: the -inl headers test these, never the compiler's global flags,
// which -march=native raises for every file alike.
#define FASTBLAKE_ISA_SSSE3 1
#define FASTBLAKE_ISA_AVX2 1
#define FASTBLAKE_ISA_AVX512 1

#include <immintrin.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "common/compiler.hpp"
#include "kernels/blake3/kernels.hpp"
#include "kernels/blake3/schedule.hpp"

namespace fastblake::internal::blake3 {
namespace {

#include "common/avx512_transpose-inl.hpp"
#include "kernels/blake3/x86_vectors-inl.hpp"

struct vec512 : simd::u32x16 {
  static void store_half(void* p, reg v) {
    _mm256_storeu_si256(static_cast<__m256i*>(p), _mm512_castsi512_si256(v));
  }
  static reg rot16(reg v) { return rotr<16>(v); }
  static reg rot12(reg v) { return rotr<12>(v); }
  static reg rot8(reg v) { return rotr<8>(v); }
  static reg rot7(reg v) { return rotr<7>(v); }

  static void transpose(reg r[16]) { transpose_16x16_epi32(r); }

  // simd-inl.hpp's load_transposed, with lanes l and l + 8 in one vector from the start (a
  // 256-bit load and an insert from memory), so that an 8 x 8 transpose within each 256-bit
  // half finishes the job: 48 shuffles a block, where the 16 x 16 transpose takes 104. 512-bit
  // shuffles all run on one port, which the rounds need too.
  static void load_transposed(const std::uint8_t* const inputs[16], std::size_t offset, reg m[16]) {
    const reg low_lanes = _mm512_setr_epi64(0, 1, 8, 9, 4, 5, 12, 13);
    const reg high_lanes = _mm512_setr_epi64(2, 3, 10, 11, 6, 7, 14, 15);
    for (std::size_t half = 0; half < 2; ++half) {
      reg r[8];
      for (std::size_t lane = 0; lane < 8; ++lane) {
        const auto* lo = inputs[lane] + offset + 32 * half;
        const auto* hi = inputs[lane + 8] + offset + 32 * half;
        r[lane] = _mm512_inserti64x4(
            _mm512_castsi256_si512(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(lo))),
            _mm256_loadu_si256(reinterpret_cast<const __m256i*>(hi)), 1);
      }
      reg s[8], t[8];
      for (int i = 0; i < 4; ++i) {
        s[2 * i] = _mm512_unpacklo_epi32(r[2 * i], r[2 * i + 1]);
        s[2 * i + 1] = _mm512_unpackhi_epi32(r[2 * i], r[2 * i + 1]);
      }
      // t[4q + w]: in each 128-bit lane, word w (first lane of a 256-bit half) or 4 + w (second)
      // of rows 4q .. 4q + 3.
      for (int q = 0; q < 2; ++q) {
        t[4 * q] = _mm512_unpacklo_epi64(s[4 * q], s[4 * q + 2]);
        t[4 * q + 1] = _mm512_unpackhi_epi64(s[4 * q], s[4 * q + 2]);
        t[4 * q + 2] = _mm512_unpacklo_epi64(s[4 * q + 1], s[4 * q + 3]);
        t[4 * q + 3] = _mm512_unpackhi_epi64(s[4 * q + 1], s[4 * q + 3]);
      }
      // Word w < 4 of rows 0-3 sits in 128-bit lanes 0 and 2 of t[w], of rows 4-7 in t[4 + w];
      // words 4-7 in lanes 1 and 3.
      for (int w = 0; w < 4; ++w) {
        m[8 * half + w] = _mm512_permutex2var_epi64(t[w], low_lanes, t[4 + w]);
        m[8 * half + 4 + w] = _mm512_permutex2var_epi64(t[w], high_lanes, t[4 + w]);
      }
    }
  }
};

// Four inputs in one 512-bit vector, each in its own 128-bit quarter as the row form. Used for
// three or four parents (one block each: 78 ns for four, against 95 for stack_pair<stack256>);
// for whole chunks the pair is faster (292 against 329 ns per chunk, four chunks).
struct stack512 : simd::u32x16 {
  static constexpr std::size_t stack = 4;
  static constexpr std::size_t lanes = stack;

  static reg row(std::uint32_t a, std::uint32_t b, std::uint32_t c, std::uint32_t d) {
    return _mm512_broadcast_i32x4(_mm_setr_epi32(static_cast<int>(a), static_cast<int>(b),
                                                 static_cast<int>(c), static_cast<int>(d)));
  }
  static reg rot16(reg v) { return rotr<16>(v); }
  static reg rot12(reg v) { return rotr<12>(v); }
  static reg rot8(reg v) { return rotr<8>(v); }
  static reg rot7(reg v) { return rotr<7>(v); }
  template <int k>
  static reg rotate_lanes(reg v) {
    return _mm512_shuffle_epi32(
        v, static_cast<_MM_PERM_ENUM>(((k + 3) % 4) << 6 | ((k + 2) % 4) << 4 | ((k + 1) % 4) << 2 |
                                      k));
  }
  template <int imm>
  static reg shuffle(reg v) {
    return _mm512_shuffle_epi32(v, static_cast<_MM_PERM_ENUM>(imm));
  }
  template <int mask>
  static reg blend4(reg a, reg b) {
    return _mm512_mask_blend_epi32(static_cast<__mmask16>(mask * 0x1111), a, b);
  }
  // Block quarter k of input i goes to quarter i of n[k]: a 4 x 4 transpose of 128-bit units.
  static void load_message(const std::uint8_t* const inputs[stack], std::size_t offset, reg n[4]) {
    const reg b0 = loadu(inputs[0] + offset), b1 = loadu(inputs[1] + offset);
    const reg b2 = loadu(inputs[2] + offset), b3 = loadu(inputs[3] + offset);
    const reg lo01 = _mm512_shuffle_i32x4(b0, b1, _MM_SHUFFLE(1, 0, 1, 0));
    const reg hi01 = _mm512_shuffle_i32x4(b0, b1, _MM_SHUFFLE(3, 2, 3, 2));
    const reg lo23 = _mm512_shuffle_i32x4(b2, b3, _MM_SHUFFLE(1, 0, 1, 0));
    const reg hi23 = _mm512_shuffle_i32x4(b2, b3, _MM_SHUFFLE(3, 2, 3, 2));
    n[0] = _mm512_shuffle_i32x4(lo01, lo23, _MM_SHUFFLE(2, 0, 2, 0));
    n[1] = _mm512_shuffle_i32x4(lo01, lo23, _MM_SHUFFLE(3, 1, 3, 1));
    n[2] = _mm512_shuffle_i32x4(hi01, hi23, _MM_SHUFFLE(2, 0, 2, 0));
    n[3] = _mm512_shuffle_i32x4(hi01, hi23, _MM_SHUFFLE(3, 1, 3, 1));
  }
  // Chaining value i is quarter i of lo then quarter i of hi.
  static void store_cvs(reg lo, reg hi, std::uint8_t* out) {
    _mm512_storeu_si512(
        out, _mm512_permutex2var_epi64(lo, _mm512_setr_epi64(0, 1, 8, 9, 2, 3, 10, 11), hi));
    _mm512_storeu_si512(
        out + 64, _mm512_permutex2var_epi64(lo, _mm512_setr_epi64(4, 5, 12, 13, 6, 7, 14, 15), hi));
  }
};

using row = vec128;
#include "kernels/blake3/simd-inl.hpp"

// Three or four chunks, in the two variants: four rows in one 512-bit vector, or two pairs of
// 256-bit vectors. The rows ran 4 KiB at 2.92 GB/s on a Sapphire Rapids-class Xeon against
// 2.61 for the pairs (the official: 3.15), where 512-bit operations issue on two ports and
// 256-bit ones on three; on AMD Zen 5, which runs 512-bit operations at half the 256-bit rate,
// the pairs took 292 ns per chunk against 329. Which one runs is variant.cpp's choice.
void hash_chunks_rows512(const std::uint8_t* input, std::size_t num_chunks,
                         const std::uint32_t key[8], std::uint64_t counter, std::uint8_t flags,
                         std::uint8_t* out) {
  hash_chunks_with<vec512, vec256, stack512, stack256>(input, num_chunks, key, counter, flags, out);
}

void hash_chunks_pairs256(const std::uint8_t* input, std::size_t num_chunks,
                          const std::uint32_t key[8], std::uint64_t counter, std::uint8_t flags,
                          std::uint8_t* out) {
  hash_chunks_with<vec512, vec256, stack_pair<stack256>, stack256>(input, num_chunks, key, counter,
                                                                   flags, out);
}

constexpr kernel_variant avx512_variants[] = {{"rows512", hash_chunks_rows512},
                                              {"pairs256", hash_chunks_pairs256}};
constinit variant_selector avx512_selector{"avx512", avx512_variants};

void hash_chunks_avx512(const std::uint8_t* input, std::size_t num_chunks,
                        const std::uint32_t key[8], std::uint64_t counter, std::uint8_t flags,
                        std::uint8_t* out) {
  avx512_selector.current().hash_chunks(input, num_chunks, key, counter, flags, out);
}

}  // namespace

const kernels avx512 = {
    .simd_degree = vec512::lanes,
    .compress_in_place = row_compress_in_place,
    .compress_blocks = row_compress_blocks,
    .xof_many = xof_many_with<vec512, vec256, vec128>,
    .hash_chunks = hash_chunks_avx512,
    .hash_roots = hash_roots_with<vec512, vec256, vec128>,
    .hash_parents = hash_parents_with<vec512, vec256, stack512, stack256>,
    .variants = &avx512_selector,
};

}  // namespace fastblake::internal::blake3
