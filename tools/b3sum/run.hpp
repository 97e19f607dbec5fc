// b3sum as a function: the command line in, the exit status out, its output on the standard
// descriptors. Tests call it in their own process; main.cpp only calls it. Each call starts
// afresh (no state is kept between calls), but calls must not overlap.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>

#include <fastblake/blake3.hpp>
#include <fastblake/file.hpp>
#include <fastblake/thread_pool.hpp>

namespace b3sum {

/// The hashing mode as the command line gave it: what a distributor hands to other processes,
/// which build the same mode from it.
struct mode_spec {
  enum class kind : std::uint8_t { hash, keyed, derive_key };
  kind mode = kind::hash;
  fastblake::blake3::key_type key{};
  std::string context;

  fastblake::blake3::hazmat::mode to_mode() const;
};

/// Hashes files somewhere else than this process alone: b3sum-mpi's hashes them across the
/// ranks of an MPI job. b3sum hands it every file to hash (never standard input), in batches.
class distributor {
 public:
  virtual ~distributor() = default;
  /// Hashes `paths` in the mode `spec` with the threads of `pool` (nullptr: the default pool)
  /// in this process, and as many in each of the others, reading as `strategy` says. Calls
  /// done(i, result) for each path in order, and progress(bytes done, total) as it goes, on
  /// this thread.
  virtual void hash(
      std::span<const std::string> paths, const mode_spec& spec, fastblake::thread_pool* pool,
      fastblake::file_strategy strategy,
      const std::function<void(std::uint64_t, std::uint64_t)>& progress,
      const std::function<void(std::size_t, fastblake::blake3::file_result&&)>& done) = 0;
};

/// What a tool built on b3sum says of itself: --help prints help_head, a blank line, b3sum's
/// arguments and options, then help_tail; usage errors quote help_head's "Usage: " line;
/// --version prints `version` and the library's version and backend.
struct identity {
  std::string_view help_head;
  std::string_view help_tail;
  std::string_view version;
};

int run(int argc, char** argv);
/// As run(), with every file hashed through `files_elsewhere`, as the tool `who`.
int run_distributed(int argc, char** argv, distributor& files_elsewhere, const identity& who);

}  // namespace b3sum
