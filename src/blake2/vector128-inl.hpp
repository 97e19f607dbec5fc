// BLAKE2 lane traits over 128-bit vectors in the compilers' generic vector extension: two
// BLAKE2b or four BLAKE2s lanes per register, for instruction sets that need nothing else
// (VSX, WebAssembly's SIMD128). Rotations are written as shifts, which the compilers turn into
// the instruction set's rotate where it has one.
//
// No include guard and no includes: included inside each ISA file's anonymous namespace, after
// <cstring>, kernels.hpp, compress-inl.hpp and scalar-inl.hpp. Message words are little-endian
// in memory: on a big-endian target (s390x) each is byte-swapped as it is loaded.

struct lanes_b_vector128 {
  using word = std::uint64_t;
  using reg = std::uint64_t __attribute__((vector_size(16)));
  static constexpr std::size_t lanes = 2;
  static constexpr int rounds = 12;
  static constexpr const std::uint64_t* iv = iv_b;
  static reg add(reg a, reg b) { return a + b; }
  static reg xor_(reg a, reg b) { return a ^ b; }
  static reg set1(word w) { return reg{w, w}; }
  static reg load(const word* p) {
    reg v;
    std::memcpy(&v, p, sizeof v);
    return v;
  }
  static void store(word* p, reg v) { std::memcpy(p, &v, sizeof v); }
  static reg load_le(const std::uint8_t* p) {
    reg v;
    std::memcpy(&v, p, sizeof v);
    if constexpr (std::endian::native == std::endian::big) {
      using bytes = std::uint8_t __attribute__((vector_size(16)));
      v = (reg)__builtin_shufflevector((bytes)v, (bytes)v, 7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12,
                                       11, 10, 9, 8);
    }
    return v;
  }
  template <int N>
  static reg rotr(reg x) {
    return x >> N | x << (64 - N);
  }
  static reg rot1(reg x) { return rotr<32>(x); }
  static reg rot2(reg x) { return rotr<24>(x); }
  static reg rot3(reg x) { return rotr<16>(x); }
  static reg rot4(reg x) { return rotr<63>(x); }
  static void load_message(const std::uint8_t* const* blocks, std::size_t offset, reg m[16]) {
    for (int k = 0; k < 8; ++k) {
      const reg r0 = load_le(blocks[0] + offset + 16 * k);
      const reg r1 = load_le(blocks[1] + offset + 16 * k);
      m[2 * k] = __builtin_shufflevector(r0, r1, 0, 2);
      m[2 * k + 1] = __builtin_shufflevector(r0, r1, 1, 3);
    }
  }
};

struct lanes_s_vector128 {
  using word = std::uint32_t;
  using reg = std::uint32_t __attribute__((vector_size(16)));
  static constexpr std::size_t lanes = 4;
  static constexpr int rounds = 10;
  static constexpr const std::uint32_t* iv = iv_s;
  static reg add(reg a, reg b) { return a + b; }
  static reg xor_(reg a, reg b) { return a ^ b; }
  static reg set1(word w) { return reg{w, w, w, w}; }
  static reg load(const word* p) {
    reg v;
    std::memcpy(&v, p, sizeof v);
    return v;
  }
  static void store(word* p, reg v) { std::memcpy(p, &v, sizeof v); }
  static reg load_le(const std::uint8_t* p) {
    reg v;
    std::memcpy(&v, p, sizeof v);
    if constexpr (std::endian::native == std::endian::big) {
      using bytes = std::uint8_t __attribute__((vector_size(16)));
      v = (reg)__builtin_shufflevector((bytes)v, (bytes)v, 3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15,
                                       14, 13, 12);
    }
    return v;
  }
  template <int N>
  static reg rotr(reg x) {
    return x >> N | x << (32 - N);
  }
  static reg rot1(reg x) { return rotr<16>(x); }
  static reg rot2(reg x) { return rotr<12>(x); }
  static reg rot3(reg x) { return rotr<8>(x); }
  static reg rot4(reg x) { return rotr<7>(x); }
  // A 4 x 4 transpose of 32-bit words for each quarter of the blocks.
  static void load_message(const std::uint8_t* const* blocks, std::size_t offset, reg m[16]) {
    for (int k = 0; k < 4; ++k) {
      reg r[4];
      for (int i = 0; i < 4; ++i) r[i] = load_le(blocks[i] + offset + 16 * k);
      const reg t0 = __builtin_shufflevector(r[0], r[1], 0, 4, 1, 5);
      const reg t1 = __builtin_shufflevector(r[0], r[1], 2, 6, 3, 7);
      const reg t2 = __builtin_shufflevector(r[2], r[3], 0, 4, 1, 5);
      const reg t3 = __builtin_shufflevector(r[2], r[3], 2, 6, 3, 7);
      m[4 * k] = __builtin_shufflevector(t0, t2, 0, 1, 4, 5);
      m[4 * k + 1] = __builtin_shufflevector(t0, t2, 2, 3, 6, 7);
      m[4 * k + 2] = __builtin_shufflevector(t1, t3, 0, 1, 4, 5);
      m[4 * k + 3] = __builtin_shufflevector(t1, t3, 2, 3, 6, 7);
    }
  }
};

// The table of a kernel that runs these lanes.
constexpr kernels vector128_kernels = {
    .compress_b = compress_scalar<scalar_b>,
    .compress_s = compress_scalar<scalar_s>,
    .b_x2 = compress_lanes<lanes_b_vector128>,
    .b_x4 = compress_lane_groups<lanes_b_vector128, 4>,
    .b_many = compress_lane_groups<lanes_b_vector128, 4>,
    .b_many_lanes = 4,
    .b_many_wide = compress_lane_groups<lanes_b_vector128, 4>,
    .b_many_wide_lanes = 4,
    .b_simultaneous_lanes = 2,
    .s_x4 = compress_lanes<lanes_s_vector128>,
    .s_x8 = compress_lane_groups<lanes_s_vector128, 8>,
    .s_many = compress_lane_groups<lanes_s_vector128, 8>,
    .s_many_lanes = 8,
    .s_many_wide = compress_lane_groups<lanes_s_vector128, 8>,
    .s_many_wide_lanes = 8,
    .s_simultaneous_lanes = 4,
};
