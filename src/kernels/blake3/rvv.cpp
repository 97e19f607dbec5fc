// The rvv BLAKE3 kernel (RISC-V with the V extension 1.0): four lanes of 128-bit vectors, for
// many blocks at once and for single blocks as rows, in the generic 128-bit traits. Clang
// lowers them to RVV instructions with vl set to four words, so the same code runs at every
// VLEN (the V extension's is at least 128 bits).
#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "common/compiler.hpp"
#include "kernels/blake3/kernels.hpp"
#include "kernels/blake3/schedule.hpp"

static_assert(std::endian::native == std::endian::little, "the rvv kernel is little-endian");

namespace fastblake::internal::blake3 {
namespace {

#include "kernels/blake3/vector128-inl.hpp"

using row = vector128;
#include "kernels/blake3/simd-inl.hpp"

}  // namespace

const kernels rvv = kernels_with<vector128>();

}  // namespace fastblake::internal::blake3
