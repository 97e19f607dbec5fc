// The vsx BLAKE2 kernels (POWER8 and later, little-endian: ppc64le): two BLAKE2b or four
// BLAKE2s lanes per 128-bit register (four and eight in two groups), in the generic 128-bit
// traits; one message at a time runs the scalar kernel.
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "blake2/kernels.hpp"
#include "common/compiler.hpp"
#include "common/endian.hpp"

static_assert(std::endian::native == std::endian::little, "the vsx kernels are little-endian");

namespace fastblake::internal::blake2 {
namespace {

#include "blake2/compress-inl.hpp"
#include "blake2/scalar-inl.hpp"
#include "blake2/vector128-inl.hpp"

}  // namespace

const kernels vsx = {
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

}  // namespace fastblake::internal::blake2
