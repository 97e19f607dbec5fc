// The vsx BLAKE2 kernels (POWER8 and later, little-endian: ppc64le): two BLAKE2b or four
// BLAKE2s lanes per 128-bit register (four and eight in two groups), in the generic 128-bit
// traits; one message at a time runs the scalar kernel.
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "common/compiler.hpp"
#include "common/endian.hpp"
#include "kernels/blake2/kernels.hpp"

static_assert(std::endian::native == std::endian::little, "the vsx kernels are little-endian");

namespace fastblake::internal::blake2 {
namespace {

#include "kernels/blake2/compress-inl.hpp"
#include "kernels/blake2/scalar-inl.hpp"
#include "kernels/blake2/vector128-inl.hpp"

}  // namespace

const kernels vsx = vector128_kernels;

}  // namespace fastblake::internal::blake2
