// What b3sum's run (b3sum.cpp) and its --check (check.cpp) share: the run's settings, hashing
// one input, and printing its output (hashing.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <system_error>

#include <fastblake/blake3.hpp>
#include <fastblake/file.hpp>

#include "../common/progress.hpp"
#include "cli.hpp"
#include "run.hpp"

namespace b3sum::detail {

// The most files (or check lines) handed to a distributor at once.
inline constexpr std::size_t distributed_batch = 1u << 16;

/// Rust's io::Error display: "<strerror> (os error N)".
std::string os_error(const std::error_code& ec);

struct context {
  options opt;
  b3sum::mode_spec spec;
  fastblake::blake3::hasher mode;
  b3sum::distributor* elsewhere = nullptr;
  fastblake::blake3::file_options file;
  std::uint64_t length = 32;
  std::uint64_t seek = 0;
  std::unique_ptr<tools::progress_display> progress;
};

/// Reports file progress to the display, if there is one.
void attach_progress(context& ctx, bool shared);
/// The whole job's progress, for a distributor.
std::function<void(std::uint64_t, std::uint64_t)> progress_callback(const context& ctx);

/// Hashes one input ("-" is standard input, read as a stream) into a reader; on failure, the
/// errno-style error.
std::optional<fastblake::blake3::output_reader> hash_input(const context& ctx,
                                                           const std::string& name,
                                                           std::error_code& ec, std::string& error);

/// Prints the output of one input as the options ask: its line, or the raw bytes.
void print_output(const context& ctx, fastblake::blake3::output_reader reader,
                  const std::string& name);

}  // namespace b3sum::detail
