// The zvector BLAKE2 kernels (IBM Z from z13, big-endian): two BLAKE2b or four BLAKE2s lanes
// per 128-bit register (four and eight in two groups), in the generic 128-bit traits, message
// words byte-swapped as they load; one message at a time runs the scalar kernel.
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "common/compiler.hpp"
#include "common/endian.hpp"
#include "kernels/blake2/kernels.hpp"

namespace fastblake::internal::blake2 {
namespace {

#include "kernels/blake2/compress-inl.hpp"
#include "kernels/blake2/scalar-inl.hpp"
#include "kernels/blake2/vector128-inl.hpp"

}  // namespace

const kernels zvector = vector128_kernels;

}  // namespace fastblake::internal::blake2
