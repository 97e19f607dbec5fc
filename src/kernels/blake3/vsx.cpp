// The vsx BLAKE3 kernel (POWER8 and later, little-endian: ppc64le): four lanes of 128-bit VSX
// vectors, for many blocks at once and for single blocks as rows. The generic 128-bit traits,
// with rotations by vrlw, one instruction.
#include <altivec.h>

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "common/compiler.hpp"
#include "kernels/blake3/kernels.hpp"
#include "kernels/blake3/schedule.hpp"

// altivec.h defines these as macros, which the shared code's names would meet.
#undef vector
#undef pixel
#undef bool

// The shared kernels read message words with memcpy: little-endian only.
static_assert(std::endian::native == std::endian::little, "the vsx kernel is little-endian");

namespace fastblake::internal::blake3 {
namespace {

#include "kernels/blake3/vector128-inl.hpp"

struct vsx128 : vector128 {
  // vec_rl rotates left: right by k is left by 32 - k.
  template <int k>
  static reg rotr(reg v) {
    using altivec = __vector unsigned int;
    return (reg)vec_rl((altivec)v, vec_splats(static_cast<unsigned int>(32 - k)));
  }
  static reg rot16(reg v) { return rotr<16>(v); }
  static reg rot12(reg v) { return rotr<12>(v); }
  static reg rot8(reg v) { return rotr<8>(v); }
  static reg rot7(reg v) { return rotr<7>(v); }
};

using row = vsx128;
#include "kernels/blake3/simd-inl.hpp"

}  // namespace

const kernels vsx = kernels_with<vsx128>();

}  // namespace fastblake::internal::blake3
