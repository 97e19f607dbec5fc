// The sse41 BLAKE3 kernel: SSE4.1 (with SSSE3 byte shuffles for the 8- and 16-bit rotates), four
// lanes.
// What this file may use: the -inl headers test these, never the compiler's global flags,
// which -march=native raises for every file alike.
#define FASTBLAKE_ISA_SSSE3 1

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

const kernels sse41 = {
    .simd_degree = vec128::lanes,
    .compress_in_place = row_compress_in_place,
    .compress_blocks = row_compress_blocks,
    .xof_many = xof_many_with<vec128>,
    .hash_chunks = hash_chunks_with<vec128>,
    .hash_roots = hash_roots_with<vec128>,
    .hash_parents = hash_parents_with<vec128>,
};

}  // namespace fastblake::internal::blake3
