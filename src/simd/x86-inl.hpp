// The vector types of both families' x86 kernels, by word and width: u32x4 and u64x2 (SSE2;
// byte shuffles with SSSE3), u32x8 and u64x4 (AVX2), u32x16 and u64x8 (AVX-512). Each has what
// BLAKE's G function needs (add, xor_, set1, loadu and storeu at any address, load_words and
// store_words of word arrays) and rotr<n>, a rotation of every word right by n bits in the
// best instructions the including file's flags allow: a rotate with AVX-512 (VL at 128 and
// 256 bits); else a byte shuffle for whole bytes (a word shuffle for the 32-bit halves of
// 64-bit words), x + x for the 1-bit left rotation of BLAKE2b (the adder has more ports than
// the shifter), two shifts for the rest. rotr_shuffled<n> is the shuffle even where AVX-512
// has the rotate, for a kernel that measured it faster.
//
// Each family builds its kernels' types on these (blake3/x86_*-inl.hpp, blake2/x86_*-inl.hpp),
// adding only what is its own: its rotation amounts, message loads, transposes, asm rounds.
//
// No includes: included inside each ISA file's anonymous namespace after <immintrin.h> (once:
// each family header that builds on it includes it). The file's FASTBLAKE_ISA_* macros decide
// what is used, never the compiler's __AVX2__-style ones (docs/architecture.md).
#pragma once

namespace simd {

#if defined(FASTBLAKE_ISA_SSSE3)
inline constexpr bool isa_ssse3 = true;
#else
inline constexpr bool isa_ssse3 = false;
#endif
#if defined(FASTBLAKE_ISA_AVX512)
inline constexpr bool isa_avx512 = true;
#else
inline constexpr bool isa_avx512 = false;
#endif

// Byte i of a 128-bit lane of the shuffle that rotates each word of `bits` bits right by n
// bits (a multiple of 8): it takes byte (i + n / 8) mod the word's bytes of its own word.
template <int bits, int n>
constexpr char rotated_byte(int i) {
  constexpr int bytes = bits / 8;
  return static_cast<char>(i / bytes * bytes + (i % bytes + n / 8) % bytes);
}

#define FASTBLAKE_SIMD_LANE_BYTES(f)                                                             \
  f(0), f(1), f(2), f(3), f(4), f(5), f(6), f(7), f(8), f(9), f(10), f(11), f(12), f(13), f(14), \
      f(15)

template <int bits, int n>
__m128i rotation_shuffle_128() {
  return _mm_setr_epi8(FASTBLAKE_SIMD_LANE_BYTES((rotated_byte<bits, n>)));
}

struct u32x4 {
  using reg = __m128i;
  using word = std::uint32_t;
  static constexpr std::size_t lanes = 4;

  static reg add(reg a, reg b) { return _mm_add_epi32(a, b); }
  static reg xor_(reg a, reg b) { return _mm_xor_si128(a, b); }
  static reg set1(word w) { return _mm_set1_epi32(static_cast<int>(w)); }
  static reg setr(word a, word b, word c, word d) {
    return _mm_setr_epi32(static_cast<int>(a), static_cast<int>(b), static_cast<int>(c),
                          static_cast<int>(d));
  }
  static reg loadu(const void* p) { return _mm_loadu_si128(static_cast<const __m128i*>(p)); }
  static void storeu(void* p, reg v) { _mm_storeu_si128(static_cast<__m128i*>(p), v); }
  static reg load_words(const word* p) { return loadu(p); }
  static void store_words(word* p, reg v) { storeu(p, v); }

  template <int n>
  static reg rotr(reg v) {
    if constexpr (isa_avx512) {
      return _mm_ror_epi32(v, n);
    } else if constexpr (isa_ssse3 && n % 8 == 0) {
      return rotr_shuffled<n>(v);
    } else if constexpr (n == 16) {
      return _mm_shufflehi_epi16(_mm_shufflelo_epi16(v, 0xB1), 0xB1);
    } else {
      return _mm_or_si128(_mm_srli_epi32(v, n), _mm_slli_epi32(v, 32 - n));
    }
  }
  template <int n>
  static reg rotr_shuffled(reg v) {
    return _mm_shuffle_epi8(v, rotation_shuffle_128<32, n>());
  }

  /// Lane i takes lane (i + k) % 4.
  template <int k>
  static reg rotate_lanes(reg v) {
    return _mm_shuffle_epi32(v, ((k + 3) % 4) << 6 | ((k + 2) % 4) << 4 | ((k + 1) % 4) << 2 | k);
  }

  /// out[i] takes word i of every in[j], as lane j; out may be in.
  static void transpose(const reg in[4], reg out[4]) {
    const reg ab01 = _mm_unpacklo_epi32(in[0], in[1]);
    const reg ab23 = _mm_unpackhi_epi32(in[0], in[1]);
    const reg cd01 = _mm_unpacklo_epi32(in[2], in[3]);
    const reg cd23 = _mm_unpackhi_epi32(in[2], in[3]);
    out[0] = _mm_unpacklo_epi64(ab01, cd01);
    out[1] = _mm_unpackhi_epi64(ab01, cd01);
    out[2] = _mm_unpacklo_epi64(ab23, cd23);
    out[3] = _mm_unpackhi_epi64(ab23, cd23);
  }
  static void transpose(reg r[4]) { transpose(r, r); }
};

struct u64x2 {
  using reg = __m128i;
  using word = std::uint64_t;
  static constexpr std::size_t lanes = 2;

  static reg add(reg a, reg b) { return _mm_add_epi64(a, b); }
  static reg xor_(reg a, reg b) { return _mm_xor_si128(a, b); }
  static reg set1(word w) { return _mm_set1_epi64x(static_cast<long long>(w)); }
  static reg loadu(const void* p) { return _mm_loadu_si128(static_cast<const __m128i*>(p)); }
  static void storeu(void* p, reg v) { _mm_storeu_si128(static_cast<__m128i*>(p), v); }
  static reg load_words(const word* p) { return loadu(p); }
  static void store_words(word* p, reg v) { storeu(p, v); }

  template <int n>
  static reg rotr(reg v) {
    if constexpr (isa_avx512) {
      return _mm_ror_epi64(v, n);
    } else if constexpr (n == 63) {
      return _mm_or_si128(_mm_srli_epi64(v, 63), _mm_add_epi64(v, v));
    } else if constexpr (n == 32 || (isa_ssse3 && n % 8 == 0)) {
      return rotr_shuffled<n>(v);
    } else {
      return _mm_or_si128(_mm_srli_epi64(v, n), _mm_slli_epi64(v, 64 - n));
    }
  }
  template <int n>
  static reg rotr_shuffled(reg v) {
    if constexpr (n == 32) {
      return _mm_shuffle_epi32(v, _MM_SHUFFLE(2, 3, 0, 1));
    } else {
      return _mm_shuffle_epi8(v, rotation_shuffle_128<64, n>());
    }
  }
};

#if defined(FASTBLAKE_ISA_AVX2)
template <int bits, int n>
__m256i rotation_shuffle_256() {
  return _mm256_setr_epi8(FASTBLAKE_SIMD_LANE_BYTES((rotated_byte<bits, n>)),
                          FASTBLAKE_SIMD_LANE_BYTES((rotated_byte<bits, n>)));
}

struct u32x8 {
  using reg = __m256i;
  using word = std::uint32_t;
  static constexpr std::size_t lanes = 8;

  static reg add(reg a, reg b) { return _mm256_add_epi32(a, b); }
  static reg xor_(reg a, reg b) { return _mm256_xor_si256(a, b); }
  static reg set1(word w) { return _mm256_set1_epi32(static_cast<int>(w)); }
  static reg loadu(const void* p) { return _mm256_loadu_si256(static_cast<const __m256i*>(p)); }
  static void storeu(void* p, reg v) { _mm256_storeu_si256(static_cast<__m256i*>(p), v); }
  static reg load_words(const word* p) { return loadu(p); }
  static void store_words(word* p, reg v) { storeu(p, v); }

  template <int n>
  static reg rotr(reg v) {
    if constexpr (isa_avx512) {
      return _mm256_ror_epi32(v, n);
    } else if constexpr (n % 8 == 0) {
      return rotr_shuffled<n>(v);
    } else {
      return _mm256_or_si256(_mm256_srli_epi32(v, n), _mm256_slli_epi32(v, 32 - n));
    }
  }
  template <int n>
  static reg rotr_shuffled(reg v) {
    return _mm256_shuffle_epi8(v, rotation_shuffle_256<32, n>());
  }
};

struct u64x4 {
  using reg = __m256i;
  using word = std::uint64_t;
  static constexpr std::size_t lanes = 4;

  static reg add(reg a, reg b) { return _mm256_add_epi64(a, b); }
  static reg xor_(reg a, reg b) { return _mm256_xor_si256(a, b); }
  static reg set1(word w) { return _mm256_set1_epi64x(static_cast<long long>(w)); }
  static reg loadu(const void* p) { return _mm256_loadu_si256(static_cast<const __m256i*>(p)); }
  static void storeu(void* p, reg v) { _mm256_storeu_si256(static_cast<__m256i*>(p), v); }
  static reg load_words(const word* p) { return loadu(p); }
  static void store_words(word* p, reg v) { storeu(p, v); }

  template <int n>
  static reg rotr(reg v) {
    if constexpr (isa_avx512) {
      return _mm256_ror_epi64(v, n);
    } else if constexpr (n == 63) {
      return _mm256_or_si256(_mm256_srli_epi64(v, 63), _mm256_add_epi64(v, v));
    } else if constexpr (n % 8 == 0) {
      return rotr_shuffled<n>(v);
    } else {
      return _mm256_or_si256(_mm256_srli_epi64(v, n), _mm256_slli_epi64(v, 64 - n));
    }
  }
  template <int n>
  static reg rotr_shuffled(reg v) {
    if constexpr (n == 32) {
      return _mm256_shuffle_epi32(v, _MM_SHUFFLE(2, 3, 0, 1));
    } else {
      return _mm256_shuffle_epi8(v, rotation_shuffle_256<64, n>());
    }
  }
};
#endif

#if defined(FASTBLAKE_ISA_AVX512)
struct u32x16 {
  using reg = __m512i;
  using word = std::uint32_t;
  static constexpr std::size_t lanes = 16;

  static reg add(reg a, reg b) { return _mm512_add_epi32(a, b); }
  static reg xor_(reg a, reg b) { return _mm512_xor_si512(a, b); }
  static reg set1(word w) { return _mm512_set1_epi32(static_cast<int>(w)); }
  static reg loadu(const void* p) { return _mm512_loadu_si512(p); }
  static void storeu(void* p, reg v) { _mm512_storeu_si512(p, v); }
  static reg load_words(const word* p) { return loadu(p); }
  static void store_words(word* p, reg v) { storeu(p, v); }
  template <int n>
  static reg rotr(reg v) {
    return _mm512_ror_epi32(v, n);
  }
};

struct u64x8 {
  using reg = __m512i;
  using word = std::uint64_t;
  static constexpr std::size_t lanes = 8;

  static reg add(reg a, reg b) { return _mm512_add_epi64(a, b); }
  static reg xor_(reg a, reg b) { return _mm512_xor_si512(a, b); }
  static reg set1(word w) { return _mm512_set1_epi64(static_cast<long long>(w)); }
  static reg loadu(const void* p) { return _mm512_loadu_si512(p); }
  static void storeu(void* p, reg v) { _mm512_storeu_si512(p, v); }
  static reg load_words(const word* p) { return loadu(p); }
  static void store_words(word* p, reg v) { storeu(p, v); }
  template <int n>
  static reg rotr(reg v) {
    return _mm512_ror_epi64(v, n);
  }
};
#endif

#undef FASTBLAKE_SIMD_LANE_BYTES

}  // namespace simd
