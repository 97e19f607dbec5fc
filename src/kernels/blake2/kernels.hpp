// The interface between the BLAKE2 modes (params.cpp, state.cpp, ...) and the compression kernels.
//
// Each instruction-set file defines one `kernels` instance; the active backend
// (backend/backend.hpp, a layer above) holds those of both families, so both hashes run on one
// backend.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fastblake_backends.hpp"

namespace fastblake::internal::blake2 {

inline constexpr std::uint64_t iv_b[8] = {
    0x6A09E667F3BCC908, 0xBB67AE8584CAA73B, 0x3C6EF372FE94F82B, 0xA54FF53A5F1D36F1,
    0x510E527FADE682D1, 0x9B05688C2B3E6C1F, 0x1F83D9ABFB41BD6B, 0x5BE0CD19137E2179};
inline constexpr std::uint32_t iv_s[8] = {0x6A09E667, 0xBB67AE85, 0x3C6EF372, 0xA54FF53A,
                                          0x510E527F, 0x9B05688C, 0x1F83D9AB, 0x5BE0CD19};

/// Compresses num_blocks consecutive blocks into h. Before each block the 2-word counter t
/// grows by `increment` (the block size for whole blocks; the input's length for the last);
/// f0 and f1 are the finalization words of every one of them (non-zero only for a last block).
template <class W>
using compress_fn = void (*)(W h[8], const std::uint8_t* blocks, std::size_t num_blocks, W t[2],
                             W increment, W f0, W f1);

/// Compresses num_blocks blocks in each of n independent lanes (n fixed by the function). The
/// states are transposed: word w of lane i is h[w * n + i]. Lane i's k-th block is at
/// blocks[i] + k * stride. Its counter is t[i] (low word) and t[n + i] (high word) and grows
/// by increment[i] before each block; its finalization words are f[i] and f[n + i].
template <class W>
using lanes_fn = void (*)(W* h, const std::uint8_t* const* blocks, std::size_t stride,
                          std::size_t num_blocks, W* t, const W* increment, const W* f);

struct kernels {
  compress_fn<std::uint64_t> compress_b;
  compress_fn<std::uint32_t> compress_s;
  /// Two and four BLAKE2b lanes (BLAKE2bp's leaves, split between threads or not), and the
  /// widest many-message width.
  lanes_fn<std::uint64_t> b_x2;
  lanes_fn<std::uint64_t> b_x4;
  lanes_fn<std::uint64_t> b_many;
  std::size_t b_many_lanes;
  /// Wider many-message lanes (512-bit registers), for when there are messages to fill them;
  /// the same as b_many where there are none.
  lanes_fn<std::uint64_t> b_many_wide;
  std::size_t b_many_wide_lanes;
  /// How many BLAKE2b lanes run at once (in one register): where fewer than a kernel's lanes,
  /// the rest wait, and threads can run them instead.
  std::size_t b_simultaneous_lanes;
  /// Four and eight BLAKE2s lanes (BLAKE2sp's leaves), and the widest many-message width.
  lanes_fn<std::uint32_t> s_x4;
  lanes_fn<std::uint32_t> s_x8;
  lanes_fn<std::uint32_t> s_many;
  std::size_t s_many_lanes;
  lanes_fn<std::uint32_t> s_many_wide;
  std::size_t s_many_wide_lanes;
  std::size_t s_simultaneous_lanes;
};

/// The widest many-message kernel has this many lanes.
inline constexpr std::size_t max_lanes = 16;

// One instance per backend that has BLAKE2 kernels (src/blake2/<name>.cpp); the others run
// portable's.
#define FASTBLAKE_DECLARE_KERNELS(name, features, blake2_level) extern const kernels blake2_level;
FASTBLAKE_FOR_EACH_BACKEND(FASTBLAKE_DECLARE_KERNELS)
#undef FASTBLAKE_DECLARE_KERNELS

}  // namespace fastblake::internal::blake2
