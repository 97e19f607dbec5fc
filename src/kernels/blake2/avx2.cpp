// The avx2 BLAKE2 kernels: four BLAKE2b or eight BLAKE2s lanes per 256-bit register (two and
// four in 128-bit ones) for leaves and many messages; one message as rows of words
// (x86_rows-inl.hpp).
// What this file may use: the -inl headers test these, never the compiler's global flags,
// which -march=native raises for every file alike.
#define FASTBLAKE_ISA_SSSE3 1
#define FASTBLAKE_ISA_AVX2 1

#include <immintrin.h>

#include <bit>
#include <cstddef>
#include <cstdint>

#include "common/compiler.hpp"
#include "common/endian.hpp"
#include "kernels/blake2/kernels.hpp"

namespace fastblake::internal::blake2 {
namespace {

// In this order: each uses what the ones before it define.
#include "kernels/blake2/compress-inl.hpp"
#include "kernels/blake2/scalar-inl.hpp"
#include "kernels/blake2/x86_lanes-inl.hpp"

#include "kernels/blake2/x86_rows-inl.hpp"

}  // namespace

const kernels avx2 = {
    .compress_b = compress_rows_b,
    .compress_s = compress_rows_s,
    .b_x2 = compress_lanes<lanes_b128>,
    .b_x4 = compress_lanes<lanes_b256>,
    .b_many = compress_lanes<lanes_b256>,
    .b_many_lanes = 4,
    .b_many_wide = compress_lanes<lanes_b256>,
    .b_many_wide_lanes = 4,
    .b_simultaneous_lanes = 4,
    .s_x4 = compress_lanes<lanes_s128>,
    .s_x8 = compress_lanes<lanes_s256>,
    .s_many = compress_lanes<lanes_s256>,
    .s_many_lanes = 8,
    .s_many_wide = compress_lanes<lanes_s256>,
    .s_many_wide_lanes = 8,
    .s_simultaneous_lanes = 8,
};

}  // namespace fastblake::internal::blake2
