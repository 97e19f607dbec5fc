// The interface between the BLAKE3 tree code and the compression kernels.
//
// The tree code (tree.cpp) sees only this struct. Each instruction-set file defines one
// constant instance; the active backend (backend/backend.hpp, a layer above) says which one
// runs. Multi-input
// functions take contiguous inputs because the tree code always hands over neighbouring chunks or
// parent nodes.
#pragma once

#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "common/endian.hpp"
#include "fastblake_backends.hpp"

namespace fastblake::internal::blake3 {

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

using hash_chunks_function = void (*)(const std::uint8_t* input, std::size_t num_chunks,
                                      const std::uint32_t key[8], std::uint64_t counter,
                                      std::uint8_t flags, std::uint8_t* out);

/// One of a kernel set's schedules where no single one is fastest on every core: its
/// hash_chunks (the other functions are the set's own).
// This and variant_selector hold no standard-library type whose layout differs between
// libstdc++ and libc++ (std::string_view's does): the x86 kernels of the manylinux wheels are
// GCC's objects, linked into a module that zig's clang builds with libc++ (scripts/wheels).
struct kernel_variant {
  const char* name;
  hash_chunks_function hash_chunks;
};

/// Which variant a kernel set runs on this core (variant.cpp), decided at its first use:
/// FASTBLAKE_VARIANT if it names one, else the table of cores we measured, else (or where
/// FASTBLAKE_VARIANT=measure) a one-time measurement of each variant here (tens of
/// microseconds). After that, one acquire load.
class variant_selector {
 public:
  enum class basis : std::uint8_t { undecided, environment, table, measured, program };

  constexpr variant_selector(const char* kernels_name,
                             std::span<const kernel_variant> variants) noexcept
      : kernels_name_(kernels_name), variants_(variants.data()), variant_count_(variants.size()) {}

  const kernel_variant& current() noexcept {
    const int chosen = chosen_.load(std::memory_order_acquire);
    return variants_[chosen >= 0 ? static_cast<std::size_t>(chosen) : decide()];
  }
  /// Switches to the variant of that name (basis::program); false if there is none.
  bool choose(std::string_view name) noexcept;
  std::span<const kernel_variant> variants() const noexcept { return {variants_, variant_count_}; }
  std::string_view kernels_name() const noexcept { return kernels_name_; }
  /// How the current variant was chosen (deciding first, as current() does).
  basis how_chosen() noexcept;
  /// Each variant's best time for four chunks, ns, when the choice was measured; else zeros.
  std::span<const double> measured_ns() const noexcept { return {measured_ns_, variant_count_}; }
  /// Whether FASTBLAKE_VARIANT was set at the decision and named none of these variants.
  bool environment_refused() const noexcept {
    return environment_refused_.load(std::memory_order_acquire);
  }

 private:
  std::size_t decide() noexcept;

  static constexpr int undecided = -1, deciding = -2;
  const char* kernels_name_;
  const kernel_variant* variants_;
  std::size_t variant_count_;
  std::atomic<int> chosen_{undecided};
  std::atomic<basis> basis_{basis::undecided};
  std::atomic<bool> environment_refused_{false};
  double measured_ns_[4] = {};
};

struct kernels {
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
  hash_chunks_function hash_chunks;

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

  /// The set's variants where it has several (avx512: how the last three or four chunks of a
  /// hash_chunks call are laid out); hash_chunks runs the chosen one. Null where it has one.
  variant_selector* variants = nullptr;
};

// One instance per backend compiled in (src/blake3/<name>.cpp): portable, plain C++ for any
// CPU and byte order, and those FASTBLAKE_BACKENDS chose.
#define FASTBLAKE_DECLARE_KERNELS(name, features, blake2_level) extern const kernels name;
FASTBLAKE_FOR_EACH_BACKEND(FASTBLAKE_DECLARE_KERNELS)
#undef FASTBLAKE_DECLARE_KERNELS

}  // namespace fastblake::internal::blake3
