// BLAKE2 lane traits over the generic 128-bit vectors of simd/vector128-inl.hpp: two BLAKE2b
// or four BLAKE2s lanes per register, for instruction sets that need nothing else (VSX,
// z/Architecture, RVV, WebAssembly's SIMD128). Rotations are written as shifts, which the
// compilers turn into the instruction set's rotate where it has one.
//
// No include guard: included inside each ISA file's anonymous namespace, after <cstring>,
// kernels.hpp, compress-inl.hpp and scalar-inl.hpp; it includes the shared vectors. Message
// words are little-endian in memory: on a big-endian target (s390x) each is byte-swapped as
// it is loaded.

#include "simd/vector128-inl.hpp"

template struct blake2b_over<simd::u64x2>;
struct lanes_b_vector128 : blake2b_over<simd::u64x2> {
  static void load_message(const std::uint8_t* const* blocks, std::size_t offset, reg m[16]) {
    for (int k = 0; k < 8; ++k) {
      const reg r0 = load_le(blocks[0] + offset + 16 * k);
      const reg r1 = load_le(blocks[1] + offset + 16 * k);
      m[2 * k] = low_lanes(r0, r1);
      m[2 * k + 1] = high_lanes(r0, r1);
    }
  }
};

template struct blake2s_over<simd::u32x4>;
struct lanes_s_vector128 : blake2s_over<simd::u32x4> {
  // A 4 x 4 transpose of 32-bit words for each quarter of the blocks.
  static void load_message(const std::uint8_t* const* blocks, std::size_t offset, reg m[16]) {
    for (int k = 0; k < 4; ++k) {
      reg r[4];
      for (int i = 0; i < 4; ++i) r[i] = load_le(blocks[i] + offset + 16 * k);
      transpose(r, m + 4 * k);
    }
  }
};

// The table of a kernel that runs these lanes.
constexpr kernels vector128_kernels = {
    .compress_b = compress_scalar<scalar_b>,
    .compress_s = compress_scalar<scalar_s>,
    .b_x2 = compress_lanes<lanes_b_vector128>,
    .b_x4 = compress_lane_groups<lanes_b_vector128, 4>,
    .b_many = compress_lane_groups<lanes_b_vector128, 4>,
    .b_many_lanes = 4,
    .b_many_wide = compress_lane_groups<lanes_b_vector128, 4>,
    .b_many_wide_lanes = 4,
    .b_simultaneous_lanes = 2,
    .s_x4 = compress_lanes<lanes_s_vector128>,
    .s_x8 = compress_lane_groups<lanes_s_vector128, 8>,
    .s_many = compress_lane_groups<lanes_s_vector128, 8>,
    .s_many_lanes = 8,
    .s_many_wide = compress_lane_groups<lanes_s_vector128, 8>,
    .s_many_wide_lanes = 8,
    .s_simultaneous_lanes = 4,
};
