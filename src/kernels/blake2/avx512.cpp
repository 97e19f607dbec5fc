// The avx512 BLAKE2 kernels: the AVX2 ones with AVX-512VL's one-instruction rotations and
// two-source permutes (256-bit registers: on Zen 5, 512-bit operations run at half the rate).
// What this file may use: the -inl headers test these, never the compiler's global flags,
// which -march=native raises for every file alike.
#define FASTBLAKE_ISA_SSSE3 1
#define FASTBLAKE_ISA_AVX2 1
#define FASTBLAKE_ISA_AVX512 1

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

#include "common/avx512_transpose-inl.hpp"

#include "kernels/blake2/x86_lanes-inl.hpp"

#include "kernels/blake2/x86_rows-inl.hpp"

}  // namespace

const kernels avx512 = {
    .compress_b = compress_rows_b,
    .compress_s = compress_rows_s,
    .b_x2 = compress_lanes<lanes_b128>,
    .b_x4 = compress_lanes<lanes_b256>,
    .b_many = compress_lanes<lanes_b256>,
    .b_many_lanes = 4,
    .b_many_wide = compress_lanes<lanes_b512>,
    .b_many_wide_lanes = 8,
    .b_simultaneous_lanes = 4,
    .s_x4 = compress_lanes<lanes_s128>,
    .s_x8 = compress_lanes<lanes_s256>,
    .s_many = compress_lanes<lanes_s256>,
    .s_many_lanes = 8,
    .s_many_wide = compress_lanes<lanes_s512>,
    .s_many_wide_lanes = 16,
    .s_simultaneous_lanes = 8,
};

}  // namespace fastblake::internal::blake2
