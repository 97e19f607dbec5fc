// The neon BLAKE3 kernel (AArch64 Advanced SIMD): four lanes of 128-bit vectors, for many blocks
// at once and for single blocks as rows.
#include <arm_neon.h>

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "blake3/kernels.hpp"
#include "blake3/schedule.hpp"
#include "common/compiler.hpp"

// The shared kernels read message words with memcpy: little-endian only.
static_assert(std::endian::native == std::endian::little, "the neon kernel is little-endian");

namespace fastblake::internal::blake3 {
namespace {

struct neon128 {
  using reg = uint32x4_t;
  static constexpr std::size_t lanes = 4;

  static reg add(reg a, reg b) { return vaddq_u32(a, b); }
  static reg xor_(reg a, reg b) { return veorq_u32(a, b); }
  static reg set1(std::uint32_t w) { return vdupq_n_u32(w); }
  static reg setr(std::uint32_t a, std::uint32_t b, std::uint32_t c, std::uint32_t d) {
    const std::uint32_t w[4] = {a, b, c, d};
    return vld1q_u32(w);
  }
  static reg loadu(const void* p) {
    return vreinterpretq_u32_u8(vld1q_u8(static_cast<const std::uint8_t*>(p)));
  }
  static void storeu(void* p, reg v) {
    vst1q_u8(static_cast<std::uint8_t*>(p), vreinterpretq_u8_u32(v));
  }
  // Rotate right: a 16-bit rotate swaps half-words; the others shift left, then shift right and
  // insert (SRI) the rest.
  static reg rot16(reg v) { return vreinterpretq_u32_u16(vrev32q_u16(vreinterpretq_u16_u32(v))); }
  static reg rot12(reg v) { return vsriq_n_u32(vshlq_n_u32(v, 20), v, 12); }
  static reg rot8(reg v) { return vsriq_n_u32(vshlq_n_u32(v, 24), v, 8); }
  static reg rot7(reg v) { return vsriq_n_u32(vshlq_n_u32(v, 25), v, 7); }

  /// Lane i takes lane (i + k) % 4.
  template <int k>
  static reg rotate_lanes(reg v) {
    return vextq_u32(v, v, k);
  }

  static void transpose(reg r[4]) {
    const uint32x4x2_t ab = vtrnq_u32(r[0], r[1]);  // a0 b0 a2 b2 | a1 b1 a3 b3
    const uint32x4x2_t cd = vtrnq_u32(r[2], r[3]);  // c0 d0 c2 d2 | c1 d1 c3 d3
    r[0] = vcombine_u32(vget_low_u32(ab.val[0]), vget_low_u32(cd.val[0]));
    r[1] = vcombine_u32(vget_low_u32(ab.val[1]), vget_low_u32(cd.val[1]));
    r[2] = vcombine_u32(vget_high_u32(ab.val[0]), vget_high_u32(cd.val[0]));
    r[3] = vcombine_u32(vget_high_u32(ab.val[1]), vget_high_u32(cd.val[1]));
  }
};

using row = neon128;
#include "blake3/simd-inl.hpp"

}  // namespace

const kernels neon = {
    .simd_degree = neon128::lanes,
    .compress_in_place = row_compress_in_place,
    .compress_blocks = row_compress_blocks,
    .xof_many = xof_many_with<neon128>,
    .hash_chunks = hash_chunks_with<neon128>,
    .hash_roots = hash_roots_with<neon128>,
    .hash_parents = hash_parents_with<neon128>,
};

}  // namespace fastblake::internal::blake3
