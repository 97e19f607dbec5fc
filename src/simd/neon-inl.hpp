// The vector types of both families' AArch64 Advanced SIMD (neon) kernels: u32x4 and u64x2,
// with the operations of simd/x86-inl.hpp's types (load_words and store_words: ld1 and st1 of
// the word size, where loadu and storeu move bytes). Rotations right shift left, then shift
// right and insert (SRI) the rest; a rotation by half a word is one reversal of the halves.
//
// No includes: included inside each ISA file's anonymous namespace after <arm_neon.h> and
// <cstdint>, once (each family header or file that builds on it includes it).
#pragma once

namespace simd {

struct u32x4 {
  using reg = uint32x4_t;
  using word = std::uint32_t;
  static constexpr std::size_t lanes = 4;

  static reg add(reg a, reg b) { return vaddq_u32(a, b); }
  static reg xor_(reg a, reg b) { return veorq_u32(a, b); }
  static reg set1(word w) { return vdupq_n_u32(w); }
  static reg setr(word a, word b, word c, word d) {
    const word w[4] = {a, b, c, d};
    return vld1q_u32(w);
  }
  static reg loadu(const void* p) {
    return vreinterpretq_u32_u8(vld1q_u8(static_cast<const std::uint8_t*>(p)));
  }
  static void storeu(void* p, reg v) {
    vst1q_u8(static_cast<std::uint8_t*>(p), vreinterpretq_u8_u32(v));
  }
  static reg load_words(const word* p) { return vld1q_u32(p); }
  static void store_words(word* p, reg v) { vst1q_u32(p, v); }
  template <int n>
  static reg rotr(reg v) {
    if constexpr (n == 16) {
      return vreinterpretq_u32_u16(vrev32q_u16(vreinterpretq_u16_u32(v)));
    } else {
      return vsriq_n_u32(vshlq_n_u32(v, 32 - n), v, n);
    }
  }

  /// Lane i takes lane (i + k) % 4.
  template <int k>
  static reg rotate_lanes(reg v) {
    return vextq_u32(v, v, k);
  }

  /// r[i] takes word i of every r[j], as lane j.
  static void transpose(reg r[4]) {
    const uint32x4x2_t ab = vtrnq_u32(r[0], r[1]);  // a0 b0 a2 b2 | a1 b1 a3 b3
    const uint32x4x2_t cd = vtrnq_u32(r[2], r[3]);  // c0 d0 c2 d2 | c1 d1 c3 d3
    r[0] = vcombine_u32(vget_low_u32(ab.val[0]), vget_low_u32(cd.val[0]));
    r[1] = vcombine_u32(vget_low_u32(ab.val[1]), vget_low_u32(cd.val[1]));
    r[2] = vcombine_u32(vget_high_u32(ab.val[0]), vget_high_u32(cd.val[0]));
    r[3] = vcombine_u32(vget_high_u32(ab.val[1]), vget_high_u32(cd.val[1]));
  }
};

struct u64x2 {
  using reg = uint64x2_t;
  using word = std::uint64_t;
  static constexpr std::size_t lanes = 2;

  static reg add(reg a, reg b) { return vaddq_u64(a, b); }
  static reg xor_(reg a, reg b) { return veorq_u64(a, b); }
  static reg set1(word w) { return vdupq_n_u64(w); }
  static reg loadu(const void* p) {
    return vreinterpretq_u64_u8(vld1q_u8(static_cast<const std::uint8_t*>(p)));
  }
  static void storeu(void* p, reg v) {
    vst1q_u8(static_cast<std::uint8_t*>(p), vreinterpretq_u8_u64(v));
  }
  static reg load_words(const word* p) { return vld1q_u64(p); }
  static void store_words(word* p, reg v) { vst1q_u64(p, v); }
  template <int n>
  static reg rotr(reg v) {
    if constexpr (n == 32) {
      return vreinterpretq_u64_u32(vrev64q_u32(vreinterpretq_u32_u64(v)));
    } else {
      return vsriq_n_u64(vshlq_n_u64(v, 64 - n), v, n);
    }
  }
};

}  // namespace simd
