// The avx2 BLAKE3 kernel: eight lanes of 256-bit vectors for many blocks at once, then stacked
// rows (two inputs per 256-bit vector, two such vectors interleaved) for the last few chunks or
// parents; single blocks use the 128-bit rows (VEX-encoded here).
// What this file may use: the -inl headers test these, never the compiler's global flags,
// which -march=native raises for every file alike.
#define FASTBLAKE_ISA_SSSE3 1
#define FASTBLAKE_ISA_AVX2 1

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

const kernels avx2 = {
    .simd_degree = vec256::lanes,
    .compress_in_place = row_compress_in_place,
    .compress_blocks = row_compress_blocks,
    .xof_many = xof_many_with<vec256, vec128>,
    .hash_chunks = hash_chunks_with<vec256, stack_pair<stack256>, stack256>,
    .hash_roots = hash_roots_with<vec256, vec128>,
    .hash_parents = hash_parents_with<vec256, stack_pair<stack256>, stack256>,
};

}  // namespace fastblake::internal::blake3
