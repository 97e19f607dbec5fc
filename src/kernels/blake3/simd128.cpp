// The simd128 BLAKE3 kernel (WebAssembly SIMD): four lanes of 128-bit vectors, for many blocks
// at once and for single blocks as rows, in the generic 128-bit traits, which clang turns into
// i32x4 operations and shuffles; WebAssembly has no rotate, so rotations are two shifts and
// an or.
#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "common/compiler.hpp"
#include "kernels/blake3/kernels.hpp"
#include "kernels/blake3/schedule.hpp"

static_assert(std::endian::native == std::endian::little, "the simd128 kernel is little-endian");

namespace fastblake::internal::blake3 {
namespace {

#include "kernels/blake3/vector128-inl.hpp"

using row = vector128;
#include "kernels/blake3/simd-inl.hpp"

}  // namespace

const kernels simd128 = kernels_with<vector128>();

}  // namespace fastblake::internal::blake3
