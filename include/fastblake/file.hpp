// Hashing files: by path or open descriptor, in bounded memory, with one set of strategies,
// errors and progress for both families: BLAKE3 in every mode (the hasher you pass carries it;
// read any output length from any position afterwards), and BLAKE2b, BLAKE2s, BLAKE2bp and
// BLAKE2sp with any parameters (the state you pass carries them).
//
// POSIX systems (Linux, macOS and the BSDs).
#pragma once

#include <fastblake/detail/require_cxx20.hpp>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <span>
#include <system_error>
#include <vector>

#include <fastblake/blake2.hpp>
#include <fastblake/blake3.hpp>
#include <fastblake/config.hpp>
#include <fastblake/thread_pool.hpp>

namespace fastblake {

enum class file_strategy {
  /// mmap_parallel for regular files of 64 KiB and more, read for everything else (small
  /// files, pipes, FIFOs, terminals, character devices, standard input). For BLAKE3 each
  /// window of a mapped file may instead be read in parts, each of the pool's threads reading
  /// its own part with pread into a small buffer of its own, where that has been measured
  /// faster in this process: reading copies, but saves the page faults of mapping, which cost
  /// more where the page cache holds the file in small pieces. Either way the result is the same.
  automatic,
  /// read(2) into two 1 MiB buffers, the next one read on another thread of the pool while
  /// this one is hashed. Memory stays at a few MiB whatever the file's size.
  read,
  /// The file mapped into memory and hashed on the calling thread.
  mmap,
  /// The file mapped into memory and hashed on the pool's threads (BLAKE3's subtrees, the
  /// leaves of BLAKE2bp and BLAKE2sp; BLAKE2b and BLAKE2s, one chain of blocks, as mmap).
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
  /// For regular files: the most bytes to hash, from where hashing starts (a descriptor's
  /// offset, or the start of a path's file); the rest is left alone, and a file that ends
  /// before the limit is hashed to its end. With update_from_fd and hazmat::set_input_offset,
  /// one subtree of a file hashes by itself. Other files are always read to their end.
  std::uint64_t max_length = ~std::uint64_t{0};
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

}  // namespace fastblake

template <>
struct std::is_error_code_enum<fastblake::file_errc> : std::true_type {};

namespace fastblake::blake3 {

// The strategies, options and errors are the same for both families.
using fastblake::file_category;
using fastblake::file_errc;
using fastblake::file_options;
using fastblake::file_strategy;

// A file that shrinks while it is hashed fails with file_errc::truncated, by every strategy:
// the digest is only ever of bytes the file held. Mapped, the vanished pages would kill the
// process with SIGBUS: the first mmap hash installs a SIGBUS handler that, for addresses inside
// a mapping being hashed (any number at once), maps zeros over them and flags the hash; a
// shrink within the last page raises no SIGBUS (the kernel shows the rest of it as zeros), and
// is caught by the file's size, read again after the last byte is hashed. Faults anywhere else
// go to the handler that was installed before. A stream that finds the file's end where the
// file now ends gives the digest of the file as it is, as GNU's tools do. A file that grows while
// it is hashed is hashed up to the size it had when hashing started, by every strategy. Files
// that report a size of 0 (those in /proc), and files on file systems that cannot be mapped,
// are read to their end whatever the strategy.
//
// A descriptor opened with O_DIRECT gives the same digest as any other: a regular file is
// mapped whatever the strategy (but stream), and a stream or another kind of file is read in
// whole blocks into aligned memory, from the descriptor's offset, which O_DIRECT then wants
// aligned to the device's block (else the system's EINVAL).
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

namespace fastblake::blake2 {

using fastblake::file_category;
using fastblake::file_errc;
using fastblake::file_options;
using fastblake::file_strategy;

// As for BLAKE3 above: the same strategies, SIGBUS guard, errors and progress. A state that
// fails is left as it was.

/// Absorbs the contents of the file at `path` into s: any of the four algorithms (hasher), or
/// one's own state, with any parameters.
FASTBLAKE_API void update_from_file(hasher& s, const std::filesystem::path& path,
                                    const file_options& options = {});
FASTBLAKE_API void update_from_file(hasher& s, const std::filesystem::path& path,
                                    const file_options& options, std::error_code& ec) noexcept;
template <class State>
FASTBLAKE_API void update_from_file(State& s, const std::filesystem::path& path,
                                    const file_options& options = {});
template <class State>
FASTBLAKE_API void update_from_file(State& s, const std::filesystem::path& path,
                                    const file_options& options, std::error_code& ec) noexcept;

/// Absorbs what can be read from fd, from its current offset on, as blake3::update_from_fd.
FASTBLAKE_API void update_from_fd(hasher& s, int fd, const file_options& options = {});
FASTBLAKE_API void update_from_fd(hasher& s, int fd, const file_options& options,
                                  std::error_code& ec) noexcept;
template <class State>
FASTBLAKE_API void update_from_fd(State& s, int fd, const file_options& options = {});
template <class State>
FASTBLAKE_API void update_from_fd(State& s, int fd, const file_options& options,
                                  std::error_code& ec) noexcept;

/// The hash of the file at `path` in the algorithm and parameters of `prototype` (a fresh
/// hasher: BLAKE2b-512 by default).
FASTBLAKE_API any_digest hash_file(const std::filesystem::path& path,
                                   const hasher& prototype = hasher(),
                                   const file_options& options = {});
FASTBLAKE_API any_digest hash_file(const std::filesystem::path& path, const hasher& prototype,
                                   const file_options& options, std::error_code& ec) noexcept;

/// One file's outcome in hash_files(): its digest or its error.
struct file_result {
  any_digest digest;
  std::error_code error;
};

/// Hashes many files as `prototype` would, several at once, as blake3::hash_files: small files
/// on different threads of the pool, large ones one after another on all of them (BLAKE2bp and
/// BLAKE2sp split their leaves; BLAKE2b and BLAKE2s read ahead on a second thread). Results
/// come in the order of `paths`; a failed file does not stop the others.
FASTBLAKE_API std::vector<file_result> hash_files(std::span<const std::filesystem::path> paths,
                                                  const hasher& prototype = hasher(),
                                                  const file_options& options = {});

}  // namespace fastblake::blake2
