// The zvector BLAKE3 kernel (IBM Z from z13, the vector facility; big-endian): four lanes of
// 128-bit vectors, for many blocks at once and for single blocks as rows, in the generic
// 128-bit traits: bytes are loaded and stored as little-endian words with one byte
// permutation each (vperm), and GCC turns the rotations into verllf.
#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "common/compiler.hpp"
#include "kernels/blake3/kernels.hpp"
#include "kernels/blake3/schedule.hpp"

namespace fastblake::internal::blake3 {
namespace {

#include "kernels/blake3/vector128-inl.hpp"

using row = vector128;
#include "kernels/blake3/simd-inl.hpp"

}  // namespace

const kernels zvector = kernels_with<vector128>();

}  // namespace fastblake::internal::blake3
