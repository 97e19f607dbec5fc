// What the ways of hashing one descriptor share (hash_fd chooses among them, strategy.cpp):
// the sizes they work in, the descriptor as they see it, aligned read buffers, whole reads and
// progress reports; and the ways themselves: reading (reading.cpp), mapping (mapping.cpp) and
// reading subtrees in parts on the pool (read_in_parts.cpp).
#pragma once

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <new>
#include <system_error>
#include <vector>

#include <fastblake/file.hpp>
#include <fastblake/thread_pool.hpp>

#include "file/engine.hpp"

namespace fastblake::internal {

// The read strategy's two buffers, which it reads and hashes in turn.
constexpr std::size_t read_buffer_size = 1u << 20;
// Regular files up to this size are read in one pread into a stack buffer.
constexpr std::size_t small_file_size = 64u << 10;
// Regular files smaller than this are read, not mapped: mapping costs more than it saves.
constexpr std::uint64_t automatic_mmap_min_size = 64u << 10;
// Mapped files are hashed (and their pages released) in windows of this size, so that the
// resident set stays bounded; a power of two, so that every window is whole subtrees.
constexpr std::uint64_t mmap_window = 16u << 20;
// How far ahead of the window being hashed a file not in the page cache is asked for
// (read_ahead): b3sum hashed a 1 GiB file dropped from the cache in 0.59 s against 1.03 s
// without (medians of 9 alternating runs, AMD EPYC Zen 4; docs/blake3-tree.md, "Files").
constexpr std::uint64_t read_ahead_distance = 64u << 20;
// Each thread reading its part of a subtree (read_part) reads this much at a time into a
// buffer of its own, which stays in the core's caches while it is hashed: 64 KiB was
// the fastest of 16 KiB to 256 KiB on a 256 MiB file in the page cache (AMD EPYC Zen 4).
constexpr std::size_t part_buffer_size = 64u << 10;
// A descriptor opened with O_DIRECT reads only whole blocks of its device into memory aligned
// to them: 4096 bytes is a multiple of every logical block size Linux's file systems use (512
// and 4096), and the read buffers are that aligned for every descriptor.
constexpr std::size_t direct_alignment = 4096;

// The descriptor being hashed, as hash_fd found it.
struct source {
  int fd;
  os::file_status info;
  std::uint64_t offset;  // where hashing starts (a descriptor's current offset)
  bool direct;           // opened with O_DIRECT
};

// Read buffers aligned for O_DIRECT (direct_alignment), for every descriptor: nothing costs.
struct aligned_delete {
  void operator()(std::byte* p) const noexcept {
    ::operator delete[](p, std::align_val_t{direct_alignment});
  }
};
using aligned_buffer = std::unique_ptr<std::byte[], aligned_delete>;
inline aligned_buffer allocate_aligned(std::size_t size) noexcept {
  return aligned_buffer(new (std::align_val_t{direct_alignment}, std::nothrow) std::byte[size]);
}

// Calls the progress callback; false when it asks to stop.
inline bool report(const file_options& options, std::uint64_t done, std::uint64_t total) {
  return !options.progress || options.progress(done, total);
}

// How much of a file is hashed between two progress reports (and, mapped, between two releases
// of hashed pages): a power of two, so that every window is whole subtrees. A progress step
// under mmap_window makes windows of the next power of two (at least 1 MiB); bit_ceil is only
// asked about steps below the window, where it cannot overflow.
inline std::uint64_t window_for(const file_options& options) noexcept {
  return options.progress_step >= mmap_window
             ? mmap_window
             : std::bit_ceil(std::max<std::uint64_t>(options.progress_step, 1u << 20));
}

/// Reads src into h (hash_fd's read and stream strategies). threads: the pool may overlap
/// reading with hashing.
std::error_code hash_by_reading(file_sink& h, const source& src, const file_options& options,
                                bool threads);

/// Maps src and hashes it window by window (hash_fd's mmap strategies); no_such_device where
/// it cannot be mapped or guarded, and is to be read instead. parallel: on the pool.
/// may_offload: the strategy was automatic, so an accelerator may take subtrees (backend.hpp).
/// may_read_parts: the strategy was automatic, so windows may be read in parts instead, where
/// that has been faster (choose_window_way).
std::error_code hash_by_mapping(file_sink& h, const source& src, const file_options& options,
                                bool parallel, bool may_offload, bool may_read_parts);

/// The buffers that read_in_parts reads a subtree's parts through, one a part, kept from one
/// window to the next: a buffer allocated for each part and freed after it made reading a
/// cached 1 GiB file in parts take 0.243 s under Wine 8 against 0.228 s (medians of three,
/// AMD EPYC Zen 4), and no difference on Linux.
class part_buffers {
 public:
  /// Makes room for `parts` buffers; false where the heap has no room for the list.
  bool make_room(std::size_t parts) noexcept {
    try {
      if (buffers_.size() < parts) buffers_.resize(parts);
      return true;
    } catch (...) {
      return false;
    }
  }
  /// Part `part`'s buffer, part_buffer_size bytes, allocated when first asked for; null where
  /// the heap has none to give. Each part's is asked for by one thread at a time.
  std::byte* of(std::size_t part) noexcept {
    if (part >= buffers_.size()) return nullptr;
    if (!buffers_[part]) buffers_[part] = allocate_aligned(part_buffer_size);
    return buffers_[part].get();
  }

 private:
  std::vector<aligned_buffer> buffers_;
};

/// Hashes what it can of the `size` bytes at file offset `offset` as subtrees of a tree-hashed
/// family (file_sink::split_next) whose parts the pool's threads read through `buffers`;
/// `hashed` is how many bytes that was, from the start (0 for another family).
std::error_code read_in_parts(file_sink& h, int fd, std::uint64_t offset, std::uint64_t size,
                              thread_pool& pool, bool may_offload, part_buffers& buffers,
                              std::uint64_t& hashed);

}  // namespace fastblake::internal
