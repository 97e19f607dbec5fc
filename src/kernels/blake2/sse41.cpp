// The sse41 BLAKE2 kernels: two BLAKE2b or four BLAKE2s lanes per 128-bit register (four and
// eight in two groups) for leaves and many messages; one message runs the scalar kernel.
// What this file may use: the -inl headers test these, never the compiler's global flags,
// which -march=native raises for every file alike.
#define FASTBLAKE_ISA_SSSE3 1

#include <immintrin.h>

#include <bit>
#include <cstddef>
#include <cstdint>

#include "common/compiler.hpp"
#include "common/endian.hpp"
#include "kernels/blake2/kernels.hpp"

namespace fastblake::internal::blake2 {
namespace {

#include "kernels/blake2/compress-inl.hpp"
#include "kernels/blake2/scalar-inl.hpp"
#include "kernels/blake2/x86_lanes-inl.hpp"

}  // namespace

const kernels sse41 = {
    .compress_b = compress_scalar<scalar_b>,
    .compress_s = compress_scalar<scalar_s>,
    .b_x2 = compress_lanes<lanes_b128>,
    .b_x4 = compress_lane_groups<lanes_b128, 4>,
    .b_many = compress_lane_groups<lanes_b128, 4>,
    .b_many_lanes = 4,
    .b_many_wide = compress_lane_groups<lanes_b128, 4>,
    .b_many_wide_lanes = 4,
    .b_simultaneous_lanes = 2,
    .s_x4 = compress_lanes<lanes_s128>,
    .s_x8 = compress_lane_groups<lanes_s128, 8>,
    .s_many = compress_lane_groups<lanes_s128, 8>,
    .s_many_lanes = 8,
    .s_many_wide = compress_lane_groups<lanes_s128, 8>,
    .s_many_wide_lanes = 8,
    .s_simultaneous_lanes = 4,
};

}  // namespace fastblake::internal::blake2
