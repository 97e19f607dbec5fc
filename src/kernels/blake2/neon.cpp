// The neon BLAKE2 kernels (AArch64 Advanced SIMD): two BLAKE2b or four BLAKE2s lanes per 128-bit
// register (four and eight in two groups); one message at a time runs the scalar kernel.
#include <arm_neon.h>

#include <bit>
#include <cstddef>
#include <cstdint>

#include "common/compiler.hpp"
#include "common/endian.hpp"
#include "kernels/blake2/kernels.hpp"

// The message loads below read words as they lie in memory: little-endian only.
static_assert(std::endian::native == std::endian::little, "the neon kernels are little-endian");

namespace fastblake::internal::blake2 {
namespace {

#include "kernels/blake2/compress-inl.hpp"
#include "kernels/blake2/scalar-inl.hpp"

#include "simd/neon-inl.hpp"

template struct blake2b_over<simd::u64x2>;
struct lanes_b_neon : blake2b_over<simd::u64x2> {
  static void load_message(const std::uint8_t* const* blocks, std::size_t offset, reg m[16]) {
    for (int k = 0; k < 8; ++k) {
      const reg r0 = loadu(blocks[0] + offset + 16 * k);
      const reg r1 = loadu(blocks[1] + offset + 16 * k);
      m[2 * k] = vzip1q_u64(r0, r1);
      m[2 * k + 1] = vzip2q_u64(r0, r1);
    }
  }
};

template struct blake2s_over<simd::u32x4>;
struct lanes_s_neon : blake2s_over<simd::u32x4> {
  // A 4 x 4 transpose of 32-bit words for each quarter of the blocks.
  static void load_message(const std::uint8_t* const* blocks, std::size_t offset, reg m[16]) {
    for (int k = 0; k < 4; ++k) {
      reg r[4];
      for (int i = 0; i < 4; ++i) r[i] = loadu(blocks[i] + offset + 16 * k);
      const reg t0 = vzip1q_u32(r[0], r[1]);
      const reg t1 = vzip2q_u32(r[0], r[1]);
      const reg t2 = vzip1q_u32(r[2], r[3]);
      const reg t3 = vzip2q_u32(r[2], r[3]);
      const auto wide = [](reg v) { return vreinterpretq_u64_u32(v); };
      m[4 * k] = vreinterpretq_u32_u64(vzip1q_u64(wide(t0), wide(t2)));
      m[4 * k + 1] = vreinterpretq_u32_u64(vzip2q_u64(wide(t0), wide(t2)));
      m[4 * k + 2] = vreinterpretq_u32_u64(vzip1q_u64(wide(t1), wide(t3)));
      m[4 * k + 3] = vreinterpretq_u32_u64(vzip2q_u64(wide(t1), wide(t3)));
    }
  }
};

}  // namespace

const kernels neon = {
    .compress_b = compress_scalar<scalar_b>,
    .compress_s = compress_scalar<scalar_s>,
    .b_x2 = compress_lanes<lanes_b_neon>,
    .b_x4 = compress_lane_groups<lanes_b_neon, 4>,
    .b_many = compress_lane_groups<lanes_b_neon, 4>,
    .b_many_lanes = 4,
    .b_many_wide = compress_lane_groups<lanes_b_neon, 4>,
    .b_many_wide_lanes = 4,
    .b_simultaneous_lanes = 2,
    .s_x4 = compress_lanes<lanes_s_neon>,
    .s_x8 = compress_lane_groups<lanes_s_neon, 8>,
    .s_many = compress_lane_groups<lanes_s_neon, 8>,
    .s_many_lanes = 8,
    .s_many_wide = compress_lane_groups<lanes_s_neon, 8>,
    .s_many_wide_lanes = 8,
    .s_simultaneous_lanes = 4,
};

}  // namespace fastblake::internal::blake2
