// Hashing files: by path or open descriptor, in every BLAKE3 mode (the hasher you pass carries
// it; read any output length from any position afterwards), in bounded memory.
//
// POSIX systems (Linux, macOS and the BSDs).
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <span>
#include <system_error>
#include <vector>

#include <fastblake/blake3.hpp>
#include <fastblake/config.hpp>
#include <fastblake/thread_pool.hpp>

namespace fastblake::blake3 {

enum class file_strategy {
  /// mmap_parallel for regular files of 64 KiB and more, read for everything else (small
  /// files, pipes, FIFOs, terminals, character devices, standard input).
  automatic,
  /// read(2) into two 1 MiB buffers, the next one read on another thread of the pool while
  /// this one is hashed. Memory stays at a few MiB whatever the file's size.
  read,
  /// The file mapped into memory and hashed on the calling thread.
  mmap,
  /// The file mapped into memory and hashed on the pool's threads.
  mmap_parallel,
  /// As read, but every descriptor, regular files too, is read with read(2) from its offset,
  /// which moves past what was hashed: the bytes are consumed, as a tool reads standard input.
  stream,
};

/// What update_from_file() and the others do beyond the defaults.
struct file_options {
  file_strategy strategy = file_strategy::automatic;
  /// The threads for mmap_parallel and read-ahead; nullptr: thread_pool::default_pool().
  thread_pool* pool = nullptr;
  /// Called with (bytes hashed so far, the file's size or 0 when unknown) after about every
  /// progress_step bytes and once at the end. Returning false stops hashing with
  /// std::errc::operation_canceled. Called on the hashing thread, never concurrently.
  std::function<bool(std::uint64_t done, std::uint64_t total)> progress;
  std::uint64_t progress_step = 64u << 20;
};

/// Errors of file hashing that have no errno: std::error_code{file_errc::..., file_category()}.
enum class file_errc {
  /// The file shrank while it was being hashed (mapped or read); the result would be wrong.
  truncated = 1,
};
FASTBLAKE_API const std::error_category& file_category() noexcept;
inline std::error_code make_error_code(file_errc e) noexcept {
  return {static_cast<int>(e), file_category()};
}

// A mapped file that shrinks while it is hashed would kill the process with SIGBUS: the first
// mmap hash installs a SIGBUS handler that, for addresses inside a mapping being hashed, maps
// zeros over the vanished pages and flags the hash, which then fails with file_errc::truncated.
// Faults anywhere else go to the handler that was installed before. A file that grows while it
// is hashed is hashed up to the size it had when hashing started, by every strategy. Files that
// report a size of 0 (those in /proc), and files on file systems that cannot be mapped, are read
// to their end whatever the strategy.
//
// A strategy outside the enumeration is std::errc::invalid_argument. On any error the hasher is
// left as it was. The throwing overloads throw std::system_error
// whose message names the file; the others set ec (cleared on success).

/// Absorbs the contents of the file at `path` into h.
FASTBLAKE_API void update_from_file(hasher& h, const std::filesystem::path& path,
                                    const file_options& options = {});
FASTBLAKE_API void update_from_file(hasher& h, const std::filesystem::path& path,
                                    const file_options& options, std::error_code& ec) noexcept;

/// Absorbs what can be read from the open descriptor fd, from its current offset on (the
/// offset is not moved for regular files, but by file_strategy::stream). The descriptor is
/// not closed.
FASTBLAKE_API void update_from_fd(hasher& h, int fd, const file_options& options = {});
FASTBLAKE_API void update_from_fd(hasher& h, int fd, const file_options& options,
                                  std::error_code& ec) noexcept;

/// The BLAKE3 hash of the file at `path`.
FASTBLAKE_API digest hash_file(const std::filesystem::path& path, const file_options& options = {});
FASTBLAKE_API digest hash_file(const std::filesystem::path& path, const file_options& options,
                               std::error_code& ec) noexcept;

/// One file's outcome in hash_files(): its extendable output (read the digest or any length
/// from any position) or its error.
struct FASTBLAKE_API file_result {
  output_reader output;
  std::error_code error;

  /// The 32-byte hash; meaningless if error is set.
  digest hash() const;
};

/// Hashes many files in the mode of `mode_hasher` (a fresh hasher, keyed or derive-key),
/// several at once: small files on different threads of the pool, large ones one after
/// another on all of them. Results come in the order of `paths`; a failed file does not stop
/// the others. Progress, if set, is reported per file (done, total) as update_from_file does,
/// from whichever thread hashes it, never concurrently.
FASTBLAKE_API std::vector<file_result> hash_files(std::span<const std::filesystem::path> paths,
                                                  const hasher& mode_hasher = hasher(),
                                                  const file_options& options = {});

}  // namespace fastblake::blake3

template <>
struct std::is_error_code_enum<fastblake::blake3::file_errc> : std::true_type {};
