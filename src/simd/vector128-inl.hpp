// The vector types of both families' kernels for instruction sets that need nothing but the
// compilers' generic vector extension (VSX, z/Architecture vectors, RVV, WebAssembly's
// SIMD128): u32x4 and u64x2, with the operations of simd/x86-inl.hpp's types. The compiler
// turns each operation into that file's instructions (its flags); a family may replace a
// rotation where the instruction set has a better one.
//
// loadu and storeu move native words from and to any address, load_words and store_words
// from and to an array of words; load_le and store_le little-endian bytes, which on a
// big-endian target (s390x, ppc64) swap each word's bytes.
//
// No includes: included inside each ISA file's anonymous namespace after <bit>, <cstdint> and
// <cstring>, once (each family header that builds on it includes it).
#pragma once

namespace simd {

// GCC does not apply vector_size to a template's dependent type: one specialisation a word.
template <class Word>
struct vector_of;
template <>
struct vector_of<std::uint32_t> {
  using type = std::uint32_t __attribute__((vector_size(16)));
};
template <>
struct vector_of<std::uint64_t> {
  using type = std::uint64_t __attribute__((vector_size(16)));
};

template <class Word>
struct vector128 {
  using word = Word;
  using reg = typename vector_of<Word>::type;
  static constexpr std::size_t lanes = 16 / sizeof(Word);

  static reg add(reg a, reg b) { return a + b; }
  static reg xor_(reg a, reg b) { return a ^ b; }
  static reg set1(word w) {
    if constexpr (lanes == 2) {
      return reg{w, w};
    } else {
      return reg{w, w, w, w};
    }
  }
  static reg loadu(const void* p) {
    reg v;
    std::memcpy(&v, p, sizeof v);
    return v;
  }
  static void storeu(void* p, reg v) { std::memcpy(p, &v, sizeof v); }
  // Words of an array of words, which the compiler knows to be aligned as words: on RISC-V,
  // Clang loads bytes one by one where it knows nothing of the pointer (loadu).
  static reg load_words(const word* p) {
    reg v;
    std::memcpy(&v, p, sizeof v);
    return v;
  }
  static void store_words(word* p, reg v) { std::memcpy(p, &v, sizeof v); }
  /// Reverses the bytes of each word.
  static reg byteswap(reg v) {
    using bytes = std::uint8_t __attribute__((vector_size(16)));
    if constexpr (sizeof(Word) == 8) {
      return (reg)__builtin_shufflevector((bytes)v, (bytes)v, 7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13,
                                          12, 11, 10, 9, 8);
    } else {
      return (reg)__builtin_shufflevector((bytes)v, (bytes)v, 3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8,
                                          15, 14, 13, 12);
    }
  }
  static reg load_le(const void* p) {
    const reg v = loadu(p);
    if constexpr (std::endian::native == std::endian::big) return byteswap(v);
    return v;
  }
  static void store_le(void* p, reg v) {
    if constexpr (std::endian::native == std::endian::big) v = byteswap(v);
    storeu(p, v);
  }
  template <int n>
  static reg rotr(reg v) {
    return v >> n | v << (8 * static_cast<int>(sizeof(Word)) - n);
  }
};

struct u32x4 : vector128<std::uint32_t> {
  static reg setr(word a, word b, word c, word d) { return reg{a, b, c, d}; }

  /// Lane i takes lane (i + k) % 4.
  template <int k>
  static reg rotate_lanes(reg v) {
    return __builtin_shufflevector(v, v, k % 4, (k + 1) % 4, (k + 2) % 4, (k + 3) % 4);
  }

  /// out[i] takes word i of every in[j], as lane j; out may be in.
  static void transpose(const reg in[4], reg out[4]) {
    const reg ab01 = __builtin_shufflevector(in[0], in[1], 0, 4, 1, 5);
    const reg ab23 = __builtin_shufflevector(in[0], in[1], 2, 6, 3, 7);
    const reg cd01 = __builtin_shufflevector(in[2], in[3], 0, 4, 1, 5);
    const reg cd23 = __builtin_shufflevector(in[2], in[3], 2, 6, 3, 7);
    out[0] = __builtin_shufflevector(ab01, cd01, 0, 1, 4, 5);
    out[1] = __builtin_shufflevector(ab01, cd01, 2, 3, 6, 7);
    out[2] = __builtin_shufflevector(ab23, cd23, 0, 1, 4, 5);
    out[3] = __builtin_shufflevector(ab23, cd23, 2, 3, 6, 7);
  }
  static void transpose(reg r[4]) { transpose(r, r); }
};

struct u64x2 : vector128<std::uint64_t> {
  /// Lanes 0 of a and b, and lanes 1 of a and b.
  static reg low_lanes(reg a, reg b) { return __builtin_shufflevector(a, b, 0, 2); }
  static reg high_lanes(reg a, reg b) { return __builtin_shufflevector(a, b, 1, 3); }
};

}  // namespace simd
