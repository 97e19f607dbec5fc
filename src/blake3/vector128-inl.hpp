// 128-bit vector traits (four 32-bit lanes) in the compilers' generic vector extension, for
// the instruction sets whose kernels need nothing else: VSX (vsx.cpp) and WebAssembly's
// SIMD128. The compiler turns each operation into that file's instructions (its flags); a file
// may replace the rotations where its instruction set has better ones.
//
// No include guard and no includes: included inside each ISA file's anonymous namespace, after
// <cstring>. loadu and storeu move native words; load_le and store_le little-endian bytes,
// which on a big-endian target (s390x) swap each word's bytes.

struct vector128 {
  using reg = std::uint32_t __attribute__((vector_size(16)));
  static constexpr std::size_t lanes = 4;

  static reg add(reg a, reg b) { return a + b; }
  static reg xor_(reg a, reg b) { return a ^ b; }
  static reg set1(std::uint32_t w) { return reg{w, w, w, w}; }
  static reg setr(std::uint32_t a, std::uint32_t b, std::uint32_t c, std::uint32_t d) {
    return reg{a, b, c, d};
  }
  static reg loadu(const void* p) {
    reg v;
    std::memcpy(&v, p, sizeof v);
    return v;
  }
  static void storeu(void* p, reg v) { std::memcpy(p, &v, sizeof v); }
  static reg byteswap(reg v) {
    using bytes = std::uint8_t __attribute__((vector_size(16)));
    return (reg)__builtin_shufflevector((bytes)v, (bytes)v, 3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8,
                                        15, 14, 13, 12);
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

  template <int k>
  static reg rotr(reg v) {
    return v >> k | v << (32 - k);
  }
  static reg rot16(reg v) { return rotr<16>(v); }
  static reg rot12(reg v) { return rotr<12>(v); }
  static reg rot8(reg v) { return rotr<8>(v); }
  static reg rot7(reg v) { return rotr<7>(v); }

  /// Lane i takes lane (i + k) % 4.
  template <int k>
  static reg rotate_lanes(reg v) {
    return __builtin_shufflevector(v, v, k % 4, (k + 1) % 4, (k + 2) % 4, (k + 3) % 4);
  }

  static void transpose(reg r[4]) {
    const reg ab01 = __builtin_shufflevector(r[0], r[1], 0, 4, 1, 5);
    const reg ab23 = __builtin_shufflevector(r[0], r[1], 2, 6, 3, 7);
    const reg cd01 = __builtin_shufflevector(r[2], r[3], 0, 4, 1, 5);
    const reg cd23 = __builtin_shufflevector(r[2], r[3], 2, 6, 3, 7);
    r[0] = __builtin_shufflevector(ab01, cd01, 0, 1, 4, 5);
    r[1] = __builtin_shufflevector(ab01, cd01, 2, 3, 6, 7);
    r[2] = __builtin_shufflevector(ab23, cd23, 0, 1, 4, 5);
    r[3] = __builtin_shufflevector(ab23, cd23, 2, 3, 6, 7);
  }
};
