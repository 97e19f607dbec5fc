// The rvv BLAKE2 kernels (RISC-V with the V extension 1.0): two BLAKE2b or four BLAKE2s lanes
// per 128-bit register (four and eight in two groups), in the generic 128-bit traits, which
// clang lowers to RVV at any VLEN; one message at a time runs the scalar kernel.
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "common/compiler.hpp"
#include "common/endian.hpp"
#include "kernels/blake2/kernels.hpp"

static_assert(std::endian::native == std::endian::little, "the rvv kernels are little-endian");

namespace fastblake::internal::blake2 {
namespace {

#include "kernels/blake2/compress-inl.hpp"
#include "kernels/blake2/scalar-inl.hpp"
#include "kernels/blake2/vector128-inl.hpp"

}  // namespace

const kernels rvv = vector128_kernels;

}  // namespace fastblake::internal::blake2
