// The sse2 BLAKE3 kernel: SSE2 (x86-64 baseline), four lanes.
#include <immintrin.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "common/compiler.hpp"
#include "kernels/blake3/kernels.hpp"
#include "kernels/blake3/schedule.hpp"

namespace fastblake::internal::blake3 {
namespace {

#include "kernels/blake3/x86_vectors-inl.hpp"
using row = vec128;
#include "kernels/blake3/simd-inl.hpp"

}  // namespace

const kernels sse2 = {
    .simd_degree = vec128::lanes,
    .compress_in_place = row_compress_in_place,
    .compress_blocks = row_compress_blocks,
    .xof_many = xof_many_with<vec128>,
    .hash_chunks = hash_chunks_with<vec128>,
    .hash_roots = hash_roots_with<vec128>,
    .hash_parents = hash_parents_with<vec128>,
};

}  // namespace fastblake::internal::blake3
