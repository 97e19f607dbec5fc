// The neon BLAKE3 kernel (AArch64 Advanced SIMD): four lanes of 128-bit vectors, for many blocks
// at once and for single blocks as rows.
#include <arm_neon.h>

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "common/compiler.hpp"
#include "kernels/blake3/kernels.hpp"
#include "kernels/blake3/schedule.hpp"

// The shared kernels read message words with memcpy: little-endian only.
static_assert(std::endian::native == std::endian::little, "the neon kernel is little-endian");

namespace fastblake::internal::blake3 {
namespace {

#include "simd/neon-inl.hpp"

struct neon128 : simd::u32x4 {
  static reg rot16(reg v) { return rotr<16>(v); }
  static reg rot12(reg v) { return rotr<12>(v); }
  static reg rot8(reg v) { return rotr<8>(v); }
  static reg rot7(reg v) { return rotr<7>(v); }
};

using row = neon128;
#include "kernels/blake3/simd-inl.hpp"

}  // namespace

const kernels neon = {
    .simd_degree = neon128::lanes,
    .compress_in_place = row_compress_in_place,
    .compress_blocks = row_compress_blocks,
    .xof_many = xof_many_with<neon128>,
    .hash_chunks = hash_chunks_with<neon128>,
    .hash_roots = hash_roots_with<neon128>,
    .hash_parents = hash_parents_with<neon128>,
};

}  // namespace fastblake::internal::blake3
