// BLAKE3's compression and the chunk and parent nodes, written once for the GPU kernels
// (kernels.cu) and the host: with a host compiler the same code builds for the CPU, where
// cuda/tests/cuda_core_test.cpp holds it to the portable kernel without a GPU.
//
// One GPU thread hashes one chunk: sixteen dependent compressions, the state and the message
// in registers. So everything here is straight-line code over fixed-size arrays indexed by
// constants once unrolled (a run-time index would move an array to local memory).
#pragma once

#include <cstdint>

#if defined(__CUDACC__)
#define FASTBLAKE_HD __host__ __device__ __forceinline__
#else
#define FASTBLAKE_HD inline
#endif
// Loops unrolled on the GPU (the host compilers unroll these by themselves at -O2 and up).
#if defined(__CUDA_ARCH__)
#define FASTBLAKE_UNROLL _Pragma("unroll")
#else
#define FASTBLAKE_UNROLL
#endif
// A loop kept rolled on the GPU, for code size.
#if defined(__CUDA_ARCH__)
#define FASTBLAKE_NO_UNROLL _Pragma("unroll 1")
#else
#define FASTBLAKE_NO_UNROLL
#endif

namespace fastblake::cuda::detail {

inline constexpr std::uint32_t chunk_len = 1024;
inline constexpr std::uint32_t block_len = 64;

enum : std::uint32_t {
  chunk_start = 1u << 0,
  chunk_end = 1u << 1,
  parent_flag = 1u << 2,
  root_flag = 1u << 3,
};

FASTBLAKE_HD std::uint32_t rotr(std::uint32_t x, int n) {
#if defined(__CUDA_ARCH__)
  // One funnel-shift instruction (SHF) on the GPU.
  return __funnelshift_r(x, x, static_cast<unsigned>(n));
#else
  return (x >> n) | (x << (32 - n));
#endif
}

// The additions of the G function, all on the integer ALU (a three-input add is one IADD3).
struct alu_adds {
  FASTBLAKE_HD std::uint32_t add3(std::uint32_t a, std::uint32_t b, std::uint32_t c) const {
    return a + b + c;
  }
  FASTBLAKE_HD std::uint32_t add2(std::uint32_t a, std::uint32_t b) const { return a + b; }
};

// The three-input additions moved to the multiply-add pipe, as two multiply-adds by one.
// The compiler already gives that pipe the two-input additions (IMAD.IADD), which leaves the
// ALU with the XORs, the rotations and the three-input additions: ten of the G function's
// fourteen operations. This makes it eight on the ALU and six on the multiply-add pipe.
// `one` is 1 from a kernel argument: a constant would let the compiler fold the multiplies
// back into an IADD3.
struct imad_adds {
  std::uint32_t one;
  FASTBLAKE_HD std::uint32_t mad(std::uint32_t a, std::uint32_t b) const {
#if defined(__CUDA_ARCH__)
    std::uint32_t r;
    asm("mad.lo.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(b), "r"(one), "r"(a));
    return r;
#else
    return b * one + a;
#endif
  }
  FASTBLAKE_HD std::uint32_t add3(std::uint32_t a, std::uint32_t b, std::uint32_t c) const {
    return mad(mad(a, b), c);
  }
  FASTBLAKE_HD std::uint32_t add2(std::uint32_t a, std::uint32_t b) const { return a + b; }
};

template <class Adds = alu_adds>
FASTBLAKE_HD void g(std::uint32_t& a, std::uint32_t& b, std::uint32_t& c, std::uint32_t& d,
                    std::uint32_t x, std::uint32_t y, Adds adds = {}) {
  a = adds.add3(a, b, x);
  d = rotr(d ^ a, 16);
  c = adds.add2(c, d);
  b = rotr(b ^ c, 12);
  a = adds.add3(a, b, y);
  d = rotr(d ^ a, 8);
  c = adds.add2(c, d);
  b = rotr(b ^ c, 7);
}

// One round on the state v with message m, then m permuted in place for the next round: a
// register renaming once unrolled, so no schedule table is read.
template <class Adds = alu_adds>
FASTBLAKE_HD void round_and_permute(std::uint32_t v[16], std::uint32_t m[16], Adds adds = {}) {
  g(v[0], v[4], v[8], v[12], m[0], m[1], adds);
  g(v[1], v[5], v[9], v[13], m[2], m[3], adds);
  g(v[2], v[6], v[10], v[14], m[4], m[5], adds);
  g(v[3], v[7], v[11], v[15], m[6], m[7], adds);
  g(v[0], v[5], v[10], v[15], m[8], m[9], adds);
  g(v[1], v[6], v[11], v[12], m[10], m[11], adds);
  g(v[2], v[7], v[8], v[13], m[12], m[13], adds);
  g(v[3], v[4], v[9], v[14], m[14], m[15], adds);
  constexpr int permutation[16] = {2, 6, 3, 10, 7, 0, 4, 13, 1, 11, 12, 5, 9, 14, 15, 8};
  std::uint32_t permuted[16];
  FASTBLAKE_UNROLL
  for (int i = 0; i < 16; ++i) permuted[i] = m[permutation[i]];
  FASTBLAKE_UNROLL
  for (int i = 0; i < 16; ++i) m[i] = permuted[i];
}

// The seven rounds of compress(cv, m, counter, len, flags), leaving the full state in v. m is
// consumed (permuted).
template <class Adds = alu_adds>
FASTBLAKE_HD void rounds(std::uint32_t v[16], const std::uint32_t cv[8], std::uint32_t m[16],
                         std::uint64_t counter, std::uint32_t len, std::uint32_t flags,
                         Adds adds = {}) {
  constexpr std::uint32_t iv[8] = {0x6A09E667, 0xBB67AE85, 0x3C6EF372, 0xA54FF53A,
                                   0x510E527F, 0x9B05688C, 0x1F83D9AB, 0x5BE0CD19};
  for (int i = 0; i < 8; ++i) v[i] = cv[i];
  for (int i = 0; i < 4; ++i) v[8 + i] = iv[i];
  v[12] = static_cast<std::uint32_t>(counter);
  v[13] = static_cast<std::uint32_t>(counter >> 32);
  v[14] = len;
  v[15] = flags;
  FASTBLAKE_UNROLL
  for (int r = 0; r < 7; ++r) round_and_permute(v, m, adds);
}

/// cv = the chaining value of compress(cv, m, counter, len, flags).
template <class Adds = alu_adds>
FASTBLAKE_HD void compress_in_place(std::uint32_t cv[8], std::uint32_t m[16], std::uint64_t counter,
                                    std::uint32_t len, std::uint32_t flags, Adds adds = {}) {
  std::uint32_t v[16];
  rounds(v, cv, m, counter, len, flags, adds);
  for (int i = 0; i < 8; ++i) cv[i] = v[i] ^ v[8 + i];
}

/// The 16 words of extendable output of compress(cv, m, counter, len, flags).
FASTBLAKE_HD void compress_xof(const std::uint32_t cv[8], std::uint32_t m[16],
                               std::uint64_t counter, std::uint32_t len, std::uint32_t flags,
                               std::uint32_t out[16]) {
  std::uint32_t v[16];
  rounds(v, cv, m, counter, len, flags);
  for (int i = 0; i < 8; ++i) {
    out[i] = v[i] ^ v[8 + i];
    out[8 + i] = v[8 + i] ^ cv[i];
  }
}

/// The little-endian words of 64 bytes at p, which are 4-byte aligned.
FASTBLAKE_HD void load_block_words(const std::uint8_t* p, std::uint32_t m[16]) {
  for (int i = 0; i < 16; ++i) {
    m[i] = static_cast<std::uint32_t>(p[4 * i]) | static_cast<std::uint32_t>(p[4 * i + 1]) << 8 |
           static_cast<std::uint32_t>(p[4 * i + 2]) << 16 |
           static_cast<std::uint32_t>(p[4 * i + 3]) << 24;
  }
}

/// The words of a partial block of `len` (< 64) bytes at p, zero-padded.
FASTBLAKE_HD void load_partial_block(const std::uint8_t* p, std::uint32_t len,
                                     std::uint32_t m[16]) {
  for (int i = 0; i < 16; ++i) m[i] = 0;
  for (std::uint32_t i = 0; i < len; ++i)
    m[i / 4] |= static_cast<std::uint32_t>(p[i]) << (8 * (i % 4));
}

/// As load_partial_block, with every index a constant once unrolled, so that m stays in
/// registers on the GPU.
FASTBLAKE_HD void load_partial_block_in_registers(const std::uint8_t* p, std::uint32_t len,
                                                  std::uint32_t m[16]) {
  FASTBLAKE_UNROLL
  for (std::uint32_t w = 0; w < 16; ++w) {
    std::uint32_t word = 0;
    FASTBLAKE_UNROLL
    for (std::uint32_t k = 0; k < 4; ++k) {
      if (4 * w + k < len) word |= static_cast<std::uint32_t>(p[4 * w + k]) << (8 * k);
    }
    m[w] = word;
  }
}

/// An output node: compress(cv, block, counter, len, flags) gives its chaining value or, with
/// root_flag and counters 0, 1, ..., the extendable output.
struct output_node {
  std::uint32_t cv[8];
  std::uint32_t block[16];
  std::uint64_t counter;
  std::uint32_t len;
  std::uint32_t flags;
};

/// The output node of the `len` (1..1024, or 0 for the empty input) bytes of chunk `index` at
/// p, with the mode's key words and flags. Whole blocks are read through load_block.
template <class LoadBlock>
FASTBLAKE_HD output_node chunk_node(const std::uint8_t* p, std::uint32_t len, std::uint64_t index,
                                    const std::uint32_t key[8], std::uint32_t mode_flags,
                                    LoadBlock load_block) {
  output_node node;
  for (int i = 0; i < 8; ++i) node.cv[i] = key[i];
  const std::uint32_t blocks = len == 0 ? 1 : (len + block_len - 1) / block_len;
  std::uint32_t start = chunk_start;
  for (std::uint32_t b = 0; b + 1 < blocks; ++b) {
    std::uint32_t m[16];
    load_block(p + b * block_len, m);
    compress_in_place(node.cv, m, index, block_len, mode_flags | start);
    start = 0;
  }
  const std::uint32_t last = len - (blocks - 1) * block_len;
  if (last == block_len) {
    load_block(p + (blocks - 1) * block_len, node.block);
  } else {
    load_partial_block(p + (blocks - 1) * block_len, last, node.block);
  }
  node.counter = index;
  node.len = last;
  node.flags = mode_flags | start | chunk_end;
  return node;
}

/// The chaining value of a whole chunk (1024 bytes, not the root), chunk `index` at p: the
/// GPU's hot path. A fixed trip count, so that the state and message stay in registers (the
/// general chunk_node keeps its node in local memory).
template <class LoadBlock, class Adds = alu_adds>
FASTBLAKE_HD void full_chunk_cv(const std::uint8_t* p, std::uint64_t index,
                                const std::uint32_t key[8], std::uint32_t mode_flags,
                                LoadBlock load_block, std::uint32_t cv[8], Adds adds = {}) {
  for (int i = 0; i < 8; ++i) cv[i] = key[i];
  FASTBLAKE_UNROLL
  for (std::uint32_t b = 0; b < chunk_len / block_len; ++b) {
    std::uint32_t m[16];
    load_block(p + b * block_len, m);
    const std::uint32_t flags = mode_flags | (b == 0 ? chunk_start : 0u) |
                                (b + 1 == chunk_len / block_len ? chunk_end : 0u);
    compress_in_place(cv, m, index, block_len, flags, adds);
  }
}

/// full_chunk_cv as a rolled loop, one compression of code instead of sixteen, each block's
/// loads issued one compression ahead of its use so that their latency hides behind it.
template <class LoadBlock, class Adds = alu_adds>
FASTBLAKE_HD void full_chunk_cv_rolled(const std::uint8_t* p, std::uint64_t index,
                                       const std::uint32_t key[8], std::uint32_t mode_flags,
                                       LoadBlock load_block, std::uint32_t cv[8], Adds adds = {}) {
  for (int i = 0; i < 8; ++i) cv[i] = key[i];
  std::uint32_t next[16];
  load_block(p, next);
  FASTBLAKE_NO_UNROLL
  for (std::uint32_t b = 0; b < chunk_len / block_len; ++b) {
    std::uint32_t m[16];
    for (int i = 0; i < 16; ++i) m[i] = next[i];
    if (b + 1 < chunk_len / block_len) load_block(p + (b + 1) * block_len, next);
    const std::uint32_t flags = mode_flags | (b == 0 ? chunk_start : 0u) |
                                (b + 1 == chunk_len / block_len ? chunk_end : 0u);
    compress_in_place(cv, m, index, block_len, flags, adds);
  }
}

/// The digest (the first 32 bytes of output) of a whole input of `len` (0..1024) bytes at p:
/// the batch kernel's path for small inputs. Whole blocks are read through load_block, the
/// last partial one byte by byte; state and message stay in registers.
template <class LoadBlock>
FASTBLAKE_HD void single_chunk_digest(const std::uint8_t* p, std::uint32_t len,
                                      const std::uint32_t key[8], std::uint32_t mode_flags,
                                      LoadBlock load_block, std::uint32_t digest[8]) {
  for (int i = 0; i < 8; ++i) digest[i] = key[i];
  const std::uint32_t blocks = len == 0 ? 1 : (len + block_len - 1) / block_len;
  FASTBLAKE_NO_UNROLL
  for (std::uint32_t b = 0; b < blocks; ++b) {
    const std::uint32_t bytes = b + 1 < blocks ? block_len : len - b * block_len;
    std::uint32_t m[16];
    if (bytes == block_len) {
      load_block(p + b * block_len, m);
    } else {
      load_partial_block_in_registers(p + b * block_len, bytes, m);
    }
    const std::uint32_t flags =
        mode_flags | (b == 0 ? chunk_start : 0u) | (b + 1 == blocks ? chunk_end | root_flag : 0u);
    // The root's output block 0 begins with the chaining value's words.
    compress_in_place(digest, m, 0, bytes, flags);
  }
}

/// The output node of a parent whose children's chaining values are left and right.
FASTBLAKE_HD output_node parent_node(const std::uint32_t left[8], const std::uint32_t right[8],
                                     const std::uint32_t key[8], std::uint32_t mode_flags) {
  output_node node;
  for (int i = 0; i < 8; ++i) {
    node.cv[i] = key[i];
    node.block[i] = left[i];
    node.block[8 + i] = right[i];
  }
  node.counter = 0;
  node.len = block_len;
  node.flags = mode_flags | parent_flag;
  return node;
}

/// A node's chaining value (not the root).
FASTBLAKE_HD void chaining_value(const output_node& node, std::uint32_t out[8]) {
  std::uint32_t m[16];
  for (int i = 0; i < 16; ++i) m[i] = node.block[i];
  for (int i = 0; i < 8; ++i) out[i] = node.cv[i];
  compress_in_place(out, m, node.counter, node.len, node.flags);
}

/// The root's 64-byte output block number `block` (the extendable output's bytes 64 * block
/// on), as words.
FASTBLAKE_HD void root_output_block(const output_node& node, std::uint64_t block,
                                    std::uint32_t out[16]) {
  std::uint32_t m[16];
  for (int i = 0; i < 16; ++i) m[i] = node.block[i];
  compress_xof(node.cv, m, block, node.len, node.flags | root_flag, out);
}

/// The root output node of a whole input of `len` bytes at p, hashed sequentially: what one
/// thread of the batch kernel does for one input. Whole chunks but the last are merged into a
/// stack as soon as they complete a subtree; the last chunk is then folded into the stack from
/// the top, the outermost parent being the root.
template <class LoadBlock>
FASTBLAKE_HD output_node root_node(const std::uint8_t* p, std::uint64_t len,
                                   const std::uint32_t key[8], std::uint32_t mode_flags,
                                   LoadBlock load_block) {
  const std::uint64_t chunks = len == 0 ? 1 : (len + chunk_len - 1) / chunk_len;
  // 2^64 bytes are 2^54 chunks: at most 54 subtrees wait on the stack.
  std::uint32_t stack[54][8];
  int depth = 0;
  for (std::uint64_t c = 0; c + 1 < chunks; ++c) {
    std::uint32_t cv[8];
    chaining_value(chunk_node(p + c * chunk_len, chunk_len, c, key, mode_flags, load_block), cv);
    for (std::uint64_t done = c + 1; (done & 1) == 0; done >>= 1) {
      --depth;
      chaining_value(parent_node(stack[depth], cv, key, mode_flags), cv);
    }
    for (int i = 0; i < 8; ++i) stack[depth][i] = cv[i];
    ++depth;
  }
  const std::uint64_t last = len - (chunks - 1) * chunk_len;
  output_node node = chunk_node(p + (chunks - 1) * chunk_len, static_cast<std::uint32_t>(last),
                                chunks - 1, key, mode_flags, load_block);
  while (depth > 0) {
    std::uint32_t cv[8];
    chaining_value(node, cv);
    --depth;
    node = parent_node(stack[depth], cv, key, mode_flags);
  }
  return node;
}

}  // namespace fastblake::cuda::detail
