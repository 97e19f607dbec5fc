// The file code, for any family: strategies, bounded memory, the SIGBUS guard, progress and
// many files at once. A family gives it a file_sink over its state (blake3_file.cpp,
// blake2_file.cpp) and keeps its own public functions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <system_error>

#include <fastblake/file.hpp>
#include <fastblake/thread_pool.hpp>

#include "os/file.hpp"

namespace fastblake::internal {

/// One subtree of a tree-hashed family's input (BLAKE3) cut into equal parts that threads hash
/// apart, each reading its own part: every part's bytes go to update() in order, from one
/// thread at a time; finish() then adds the whole subtree to the state it was split from.
class subtree_parts {
 public:
  virtual ~subtree_parts() = default;
  /// The subtree's size in bytes, and how many parts of size() / parts() bytes it has.
  virtual std::uint64_t size() const noexcept = 0;
  virtual std::size_t parts() const noexcept = 0;
  virtual void update(std::size_t part, std::span<const std::byte> bytes) = 0;
  virtual void finish() = 0;
};

/// Where the file code puts the bytes: one family's state.
class file_sink {
 public:
  /// Absorbs bytes on this thread.
  virtual void update(std::span<const std::byte> bytes) = 0;
  /// Absorbs bytes, splitting them between the pool's threads where the family can (pool is
  /// null only with may_offload). may_offload: the strategy was automatic, so an accelerator
  /// may take subtrees (backend.hpp).
  virtual void update_parallel(std::span<const std::byte> bytes, thread_pool* pool,
                               bool may_offload) = 0;
  /// Whether one read buffer is worth splitting too (update_parallel while the next buffer is
  /// read): for BLAKE2bp and BLAKE2sp, whose leaves are independent, not for BLAKE3, whose
  /// 1 MiB buffers the read-ahead already keeps one thread busy with.
  virtual bool splits_reads() const noexcept { return false; }
  /// For a tree-hashed family: the largest subtree of at most `most` bytes (a power of two)
  /// that the state's next bytes can be, cut into `parts` equal parts (a power of two, fewer if
  /// the subtree is small); nullptr where there is none: another family, a state part-way
  /// through a chunk, or (may_offload) an accelerator that may take the subtree from memory.
  virtual std::unique_ptr<subtree_parts> split_next(std::uint64_t most, std::size_t parts,
                                                    bool may_offload) {
    (void)most, (void)parts, (void)may_offload;
    return nullptr;
  }

 protected:
  ~file_sink() = default;
};

std::error_code errno_code(int e = errno) noexcept;

/// How the automatic strategy hashes a window of a big regular file of a tree-hashed family:
/// mapped, or read in parts on the pool's threads (file_sink::split_next). choose gives the
/// way that has been faster in this process (faster_of_two), record takes each window's time.
enum class window_way { map, read_parts };
window_way choose_window_way() noexcept;
void record_window_way(window_way way, std::uint64_t bytes, double seconds) noexcept;
/// For tests: always `way` (nothing measured meanwhile), or measure again (std::nullopt); and
/// how many bytes this process has read in parts.
void force_window_way(std::optional<window_way> way) noexcept;
std::uint64_t bytes_read_in_parts() noexcept;

/// Hashes fd into sink as the options say. threads: whether the strategy may use the pool (not
/// when hash_files already runs this file on one of its threads). opened_here: fd was just
/// opened by us, so its offset is 0. known: its status, if taken. On failure the sink may hold
/// part of the file: callers hash into a copy and keep it only on success.
std::error_code hash_fd(file_sink& sink, int fd, const file_options& options, bool threads,
                        bool opened_here, const os::file_status* known = nullptr);

/// Opens path and hashes it as hash_fd.
std::error_code hash_path(file_sink& sink, const std::filesystem::path& path,
                          const file_options& options, bool threads = true);

/// The options' pool, or the default pool; nullptr if that cannot start.
thread_pool* pool_of(const file_options& options) noexcept;

/// For hash_files: hashes file i (open as fd, its status `info`) into the caller's result i,
/// returning the error, as hash_fd does with these options and threads.
using hash_one_file = std::function<std::error_code(
    std::size_t i, int fd, const os::file_status& info, const file_options& options, bool threads)>;

/// Hashes every path with hash_one: small files spread over the pool's threads, those of
/// 4 MiB and more afterwards, one at a time on all of them. errors[i] gets file i's error.
/// Progress, if set, is serialized.
void hash_files(std::span<const std::filesystem::path> paths, const file_options& options,
                std::span<std::error_code> errors, const hash_one_file& hash_one);

/// Hashes into a copy of state through a Sink over it (run(sink) gives the error), and keeps
/// the copy only on success: a state that fails part-way is thrown away.
template <class Sink, class State, class Run>
std::error_code hash_into_copy(State& state, Run&& run) {
  State work = state;
  Sink sink(work);
  const std::error_code ec = run(static_cast<file_sink&>(sink));
  if (!ec) state = work;
  return ec;
}

/// Throws std::system_error for ec, its message "<family>: <what>".
[[noreturn]] void throw_file_error(const std::error_code& ec, std::string_view family,
                                   std::string_view what);
/// The path in single quotes, for messages.
std::string quoted(const std::filesystem::path& path);
/// "descriptor N", for messages.
std::string descriptor_name(int fd);

}  // namespace fastblake::internal
