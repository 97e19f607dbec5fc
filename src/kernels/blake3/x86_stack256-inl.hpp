// Stacked-rows types for the x86 kernels with 256-bit vectors: `stack256` (two inputs in one
// vector) and `stack_pair<S>` (two groups of S side by side).
//
// No include guard and no includes: included inside each ISA file's anonymous namespace after
// x86_256-inl.hpp, whose rotates these use.

// Two inputs in one 256-bit vector, each in its own 128-bit half as the single-block rows
// (simd-inl.hpp's stacked rows): 256-bit operations run at twice the rate of 512-bit ones on
// AMD Zen 5, so two chunks take about as long as one; with AVX2 the official assembly hashes
// its last four chunks the same way.
struct stack256 : simd::u32x8 {
  static constexpr std::size_t stack = 2;
  static constexpr std::size_t lanes = stack;

  static reg row(std::uint32_t a, std::uint32_t b, std::uint32_t c, std::uint32_t d) {
    return _mm256_broadcastsi128_si256(_mm_setr_epi32(static_cast<int>(a), static_cast<int>(b),
                                                      static_cast<int>(c), static_cast<int>(d)));
  }
  static reg rot16(reg v) { return vec256::rot16(v); }
  static reg rot12(reg v) { return vec256::rot12(v); }
  static reg rot8(reg v) { return vec256::rot8(v); }
  static reg rot7(reg v) { return vec256::rot7(v); }
  template <int k>
  static reg rotate_lanes(reg v) {
    return _mm256_shuffle_epi32(v,
                                ((k + 3) % 4) << 6 | ((k + 2) % 4) << 4 | ((k + 1) % 4) << 2 | k);
  }
  template <int imm>
  static reg shuffle(reg v) {
    return _mm256_shuffle_epi32(v, imm);
  }
  template <int mask>
  static reg blend4(reg a, reg b) {
    return _mm256_blend_epi32(a, b, mask * 0x11);
  }
  static void load_message(const std::uint8_t* const inputs[stack], std::size_t offset, reg n[4]) {
    for (int k = 0; k < 4; ++k) {
      n[k] = _mm256_inserti128_si256(
          _mm256_castsi128_si256(
              _mm_loadu_si128(reinterpret_cast<const __m128i*>(inputs[0] + offset + 16 * k))),
          _mm_loadu_si128(reinterpret_cast<const __m128i*>(inputs[1] + offset + 16 * k)), 1);
    }
  }
  static void store_cvs(reg lo, reg hi, std::uint8_t* out) {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out), _mm256_permute2x128_si256(lo, hi, 0x20));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + 32),
                        _mm256_permute2x128_si256(lo, hi, 0x31));
  }
};

// Two independent groups of S side by side, as one stacked-rows type of twice the inputs:
// every operation is issued for both, so that each one's latency hides behind the other's work.
template <class S>
struct stack_pair {
  struct reg {
    typename S::reg lo, hi;
  };
  static constexpr std::size_t stack = 2 * S::stack;
  static constexpr std::size_t lanes = stack;

  static reg add(reg a, reg b) { return {S::add(a.lo, b.lo), S::add(a.hi, b.hi)}; }
  static reg xor_(reg a, reg b) { return {S::xor_(a.lo, b.lo), S::xor_(a.hi, b.hi)}; }
  static reg loadu(const void* p) {
    const auto* bytes = static_cast<const std::uint8_t*>(p);
    return {S::loadu(bytes), S::loadu(bytes + sizeof(typename S::reg))};
  }
  static reg row(std::uint32_t a, std::uint32_t b, std::uint32_t c, std::uint32_t d) {
    const typename S::reg r = S::row(a, b, c, d);
    return {r, r};
  }
  static reg rot16(reg v) { return {S::rot16(v.lo), S::rot16(v.hi)}; }
  static reg rot12(reg v) { return {S::rot12(v.lo), S::rot12(v.hi)}; }
  static reg rot8(reg v) { return {S::rot8(v.lo), S::rot8(v.hi)}; }
  static reg rot7(reg v) { return {S::rot7(v.lo), S::rot7(v.hi)}; }
  template <int k>
  static reg rotate_lanes(reg v) {
    return {S::template rotate_lanes<k>(v.lo), S::template rotate_lanes<k>(v.hi)};
  }
  template <int imm>
  static reg shuffle(reg v) {
    return {S::template shuffle<imm>(v.lo), S::template shuffle<imm>(v.hi)};
  }
  template <int mask>
  static reg blend4(reg a, reg b) {
    return {S::template blend4<mask>(a.lo, b.lo), S::template blend4<mask>(a.hi, b.hi)};
  }
  static void load_message(const std::uint8_t* const inputs[stack], std::size_t offset, reg n[4]) {
    typename S::reg lo[4], hi[4];
    S::load_message(inputs, offset, lo);
    S::load_message(inputs + S::stack, offset, hi);
    for (int k = 0; k < 4; ++k) n[k] = {lo[k], hi[k]};
  }
  static void store_cvs(reg lo, reg hi, std::uint8_t* out) {
    S::store_cvs(lo.lo, hi.lo, out);
    S::store_cvs(lo.hi, hi.hi, out + S::stack * out_len);
  }
};
