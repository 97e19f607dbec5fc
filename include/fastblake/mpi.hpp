// BLAKE3 across the ranks of an MPI job: one file, many files, or one input that lies spread
// over the ranks' memories, hashed where it is and merged into exactly the one-pass hash.
//
// The library fastblake::mpi (CMake option FASTBLAKE_MPI), beside fastblake itself, which
// never needs MPI. Every function here is collective: each rank of `comm` calls it, with the
// same mode and options, from the thread that makes its MPI calls; MPI must be initialized
// with at least MPI_THREAD_FUNNELED, since the rank's hashing threads run while it waits.
// Messages go over a duplicate of `comm`, so they never meet the caller's own.
//
// Failures: a file that cannot be opened or read on any rank, or that changes size while it
// is hashed, is an error on the rank that reports it (the result carries it); no wrong hash
// is ever returned. A rank that dies is the MPI library's to report: Open MPI ends the job.
#pragma once

#include <fastblake/detail/require_cxx20.hpp>

#include <mpi.h>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <span>
#include <system_error>

#include <fastblake/blake3.hpp>
#include <fastblake/file.hpp>
#include <fastblake/thread_pool.hpp>

namespace fastblake::mpi {

/// What a job did, for benchmarks and tuning (options::stats).
struct statistics {
  std::uint64_t items = 0;         // work items handed out
  std::uint64_t ranges = 0;        // pieces and whole files in them
  double coordinator_seconds = 0;  // CPU time of the root's coordinator (not its hashing)
};

/// How a job is cut and read.
struct options {
  /// The bytes of the largest piece of a file one rank hashes: a power of two of at least
  /// blake3::chunk_size (another value is rounded down to one). Files up to this size are
  /// hashed whole by one rank (those up to 1 MiB many at once); larger files are cut into
  /// pieces of this size, each a subtree of the BLAKE3 tree, handed to whichever rank asks
  /// next. 0 chooses for each file: a sixteenth of its share of each rank, from 16 MiB to
  /// 256 MiB (mpi/README.md, "Scaling").
  std::uint64_t piece_size = 0;
  /// Each rank's hashing threads; nullptr: thread_pool::default_pool().
  thread_pool* pool = nullptr;
  /// How each rank reads its pieces, as file_options::strategy: automatic maps them (files of
  /// 64 KiB and more), read preads them into buffers hashed while the next is read.
  file_strategy strategy = file_strategy::automatic;
  /// Called on the root, on the calling thread, with the bytes hashed so far in the job and
  /// its total, as pieces finish.
  std::function<void(std::uint64_t done, std::uint64_t total)> progress;
  /// On the root, if set: what the job did is added to it.
  statistics* stats = nullptr;
};

/// The errors of distributed hashing that have no errno.
enum class errc {
  /// The file's size changed between planning the job and reading a piece of it.
  size_changed = 1,
};
FASTBLAKE_API const std::error_category& category() noexcept;
inline std::error_code make_error_code(errc e) noexcept {
  return {static_cast<int>(e), category()};
}

/// Called on the root (rank 0 of the communicator) for each file, in the order of the paths, as
/// soon as that file and every one before it are done. An exception it throws ends the job (the
/// ranks finish what they hold and stop) and comes out of hash_files on the root.
using result_callback = std::function<void(std::size_t index, blake3::file_result&& result)>;

/// Hashes the files `paths` names (read on rank 0, the root, only; the other ranks pass anything)
/// in the mode `m`, every rank reading its share from a file system they all see. Regular files are
/// distributed; anything else (a FIFO, a device, a file in /proc, a path that cannot be opened on
/// the root) is hashed or failed on the root alone, exactly as blake3::update_from_file would.
FASTBLAKE_API void hash_files(MPI_Comm comm, std::span<const std::filesystem::path> paths,
                              const blake3::hazmat::mode& m, const options& o,
                              const result_callback& done);

/// The hash of one file, on every rank. Throws std::system_error, on every rank, naming the
/// file, if it failed anywhere; the other overload sets ec instead.
FASTBLAKE_API blake3::output_reader hash_file(
    MPI_Comm comm, const std::filesystem::path& path,
    const blake3::hazmat::mode& m = blake3::hazmat::mode::hash(), const options& o = {});
FASTBLAKE_API blake3::output_reader hash_file(MPI_Comm comm, const std::filesystem::path& path,
                                              const blake3::hazmat::mode& m, const options& o,
                                              std::error_code& ec);

/// The hash, on every rank, of one input that lies spread over the ranks: rank 0 holds its
/// first bytes, rank 1 the next, and so on; any rank may hold none. Each rank hashes what it
/// holds on its own threads (those of `pool`, or of the default pool); only the few bytes of
/// the chunks that straddle two ranks, at most 1023 per rank, and 32-byte chaining values
/// travel.
FASTBLAKE_API blake3::output_reader hash_distributed(
    MPI_Comm comm, std::span<const std::byte> local,
    const blake3::hazmat::mode& m = blake3::hazmat::mode::hash(), thread_pool* pool = nullptr);

}  // namespace fastblake::mpi

template <>
struct std::is_error_code_enum<fastblake::mpi::errc> : std::true_type {};
