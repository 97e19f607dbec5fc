// The interface between the BLAKE3 tree code and the compression kernels.
//
// The tree code (tree.cpp) sees only this struct. Each instruction-set file defines one
// constant instance; dispatch picks one at run time. Multi-input functions take contiguous
// inputs because the tree code always hands over neighbouring chunks or parent nodes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include <fastblake/config.hpp>

namespace fastblake::detail::blake3 {

inline constexpr std::size_t block_len = 64;
inline constexpr std::size_t chunk_len = 1024;
inline constexpr std::size_t out_len = 32;
inline constexpr std::size_t blocks_per_chunk = chunk_len / block_len;
/// The widest kernel hashes 16 chunks at once (AVX-512: sixteen 32-bit lanes).
inline constexpr std::size_t max_simd_degree = 16;

enum flag : std::uint8_t {
  chunk_start = 1 << 0,
  chunk_end = 1 << 1,
  parent = 1 << 2,
  root = 1 << 3,
  keyed_hash = 1 << 4,
  derive_key_context = 1 << 5,
  derive_key_material = 1 << 6,
};

inline constexpr std::uint32_t iv[8] = {0x6A09E667, 0xBB67AE85, 0x3C6EF372, 0xA54FF53A,
                                        0x510E527F, 0x9B05688C, 0x1F83D9AB, 0x5BE0CD19};

struct kernels {
  /// Backend name: portable, sse2, sse41, avx2, avx512, neon.
  std::string_view name;
  /// The cpu_feature bits (common/cpu_features.hpp) the CPU needs to run these kernels.
  std::uint32_t required_features;
  /// How many chunks or parents hash_chunks / hash_parents process in parallel. The tree
  /// code groups work in multiples of this; any count is accepted.
  std::size_t simd_degree;

  /// cv = the first 8 words of compress(cv, block, counter, block_len, flags).
  void (*compress_in_place)(std::uint32_t cv[8], const std::uint8_t block[block_len],
                            std::uint8_t block_len, std::uint64_t counter, std::uint8_t flags);

  /// Compresses num_blocks whole blocks at `blocks` into cv one after another, as the blocks
  /// of one chunk: the first with first_flags, the others with flags. Keeps cv in registers
  /// from block to block.
  void (*compress_blocks)(std::uint32_t cv[8], const std::uint8_t* blocks, std::size_t num_blocks,
                          std::uint64_t counter, std::uint8_t first_flags, std::uint8_t flags);

  /// Writes num_blocks 64-byte output blocks of the node (cv, block, block_len, flags) to out,
  /// the i-th with counter + i: the extendable output from block `counter` on.
  void (*xof_many)(const std::uint32_t cv[8], const std::uint8_t block[block_len],
                   std::uint8_t block_len, std::uint64_t counter, std::uint8_t flags,
                   std::uint8_t* out, std::size_t num_blocks);

  /// Hashes num_chunks whole chunks laid out back to back at input; chunk i gets counter + i.
  /// Writes their chaining values back to back (32 bytes each) to out.
  void (*hash_chunks)(const std::uint8_t* input, std::size_t num_chunks, const std::uint32_t key[8],
                      std::uint64_t counter, std::uint8_t flags, std::uint8_t* out);

  /// Hashes num_inputs independent whole messages of at most one chunk each (inputs[i] holds
  /// lengths[i] bytes) and writes their 32-byte root hashes back to back. flags is the mode:
  /// 0, keyed_hash or derive_key_material. Inputs of similar block counts should be neighbours:
  /// a group of lanes runs as long as its longest input.
  void (*hash_roots)(const std::uint8_t* const* inputs, const std::size_t* lengths,
                     std::size_t num_inputs, const std::uint32_t key[8], std::uint8_t flags,
                     std::uint8_t* out);

  /// Hashes num_parents parent nodes whose 64-byte blocks (two chaining values each) lie back
  /// to back at input. Writes their chaining values back to back to out.
  void (*hash_parents)(const std::uint8_t* input, std::size_t num_parents,
                       const std::uint32_t key[8], std::uint8_t flags, std::uint8_t* out);
};

/// How the avx512 kernels hash the last three or four chunks of a call: as four rows in one
/// 512-bit vector, or as two interleaved pairs of 256-bit vectors. Chosen from the CPU (pairs
/// where 512-bit operations run at half rate); tests run both.
enum class four_chunk_layout : std::uint8_t { rows512, pairs256 };
FASTBLAKE_API four_chunk_layout avx512_four_chunk_layout() noexcept;
FASTBLAKE_API void set_avx512_four_chunk_layout(four_chunk_layout layout) noexcept;

/// The portable kernel: plain C++, any CPU, any byte order.
FASTBLAKE_API extern const kernels portable;
// One instance per instruction set, where FASTBLAKE_BACKENDS compiled it in.
FASTBLAKE_API extern const kernels sse2;
FASTBLAKE_API extern const kernels sse41;
FASTBLAKE_API extern const kernels avx2;
FASTBLAKE_API extern const kernels avx512;
FASTBLAKE_API extern const kernels neon;

/// The compiled-in kernels this CPU can run, best first; portable is last.
FASTBLAKE_API std::span<const kernels* const> available_kernels() noexcept;

/// The kernels every hash uses: the best the CPU has, unless a test or benchmark chose one.
FASTBLAKE_API const kernels& active_kernels() noexcept;

/// Makes k the active kernels for every later hash in the process (tests and benchmarks).
FASTBLAKE_API void set_active_kernels(const kernels& k) noexcept;

}  // namespace fastblake::detail::blake3
