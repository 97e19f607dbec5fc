// The simd128 BLAKE2 kernels (WebAssembly SIMD): two BLAKE2b or four BLAKE2s lanes
// per 128-bit register (four and eight in two groups), in the generic 128-bit traits, which
// clang turns into WebAssembly SIMD; one message at a time runs the scalar kernel.
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "common/compiler.hpp"
#include "common/endian.hpp"
#include "kernels/blake2/kernels.hpp"

static_assert(std::endian::native == std::endian::little, "the simd128 kernels are little-endian");

namespace fastblake::internal::blake2 {
namespace {

#include "kernels/blake2/compress-inl.hpp"
#include "kernels/blake2/scalar-inl.hpp"
#include "kernels/blake2/vector128-inl.hpp"

}  // namespace

const kernels simd128 = vector128_kernels;

}  // namespace fastblake::internal::blake2
