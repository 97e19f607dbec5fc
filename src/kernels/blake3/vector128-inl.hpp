// BLAKE3's 128-bit vector type in the compilers' generic vector extension, `vector128`:
// simd::u32x4 of simd/vector128-inl.hpp with BLAKE3's rotations, for the instruction sets whose
// kernels need nothing else (VSX, z/Architecture, RVV, WebAssembly's SIMD128). A file may
// replace the rotations where its instruction set has better ones (vsx.cpp).
//
// No include guard: included inside each ISA file's anonymous namespace, after <bit>,
// <cstdint> and <cstring>.

#include "simd/vector128-inl.hpp"

struct vector128 : simd::u32x4 {
  static reg rot16(reg v) { return rotr<16>(v); }
  static reg rot12(reg v) { return rotr<12>(v); }
  static reg rot8(reg v) { return rotr<8>(v); }
  static reg rot7(reg v) { return rotr<7>(v); }
};
