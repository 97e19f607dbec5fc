// The portable BLAKE2 kernels: the compression function of RFC 7693 in plain C++, any CPU, any
// byte order. The reference every SIMD kernel is tested against.
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

}  // namespace

const kernels portable = {
    .compress_b = compress_scalar<scalar_b>,
    .compress_s = compress_scalar<scalar_s>,
    .b_x2 = lanes_scalar<scalar_b, 2>,
    .b_x4 = lanes_scalar<scalar_b, 4>,
    .b_many = lanes_scalar<scalar_b, 4>,
    .b_many_lanes = 4,
    .b_many_wide = lanes_scalar<scalar_b, 4>,
    .b_many_wide_lanes = 4,
    .b_simultaneous_lanes = 1,
    .s_x4 = lanes_scalar<scalar_s, 4>,
    .s_x8 = lanes_scalar<scalar_s, 8>,
    .s_many = lanes_scalar<scalar_s, 8>,
    .s_many_lanes = 8,
    .s_many_wide = lanes_scalar<scalar_s, 8>,
    .s_many_wide_lanes = 8,
    .s_simultaneous_lanes = 1,
};

}  // namespace fastblake::internal::blake2
