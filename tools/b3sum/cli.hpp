// What b3sum's command line (options.cpp, read as the official's clap 4 parser reads it) and
// its run (b3sum.cpp, hashing.cpp, check.cpp) share: the options, standard output, the tool's
// identity, and how a usage error or a failed write ends the run.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "../common/check.hpp"
#include "../common/io.hpp"
#include "run.hpp"

namespace b3sum::detail {

inline constexpr std::string_view official_version = "1.8.6";

struct options {
  std::vector<std::string> files;
  bool keyed = false;
  std::optional<std::string> derive_key;
  std::optional<std::string> length;
  std::optional<std::string> seek;
  std::optional<std::string> num_threads;
  std::optional<std::string> jobs;
  bool no_mmap = false;
  bool no_names = false;
  bool raw = false;
  bool tag = false;
  bool check = false;
  tools::check_options checking;
  std::optional<const char*> gnu_check_option;  // the last check-only option given
  bool zero = false;
  bool recursive = false;
  bool dereference = false;
  bool progress = false;
  std::optional<std::string> files0_from;  // the list of inputs, in place of `files`
};

/// Standard output, written whole lines at a time.
extern tools::output out;
/// The tool running: b3sum, or one built on it (b3sum-mpi).
extern const identity* tool;

void to_stderr(const std::string& text);

/// A usage error as clap 4 reports it for the official tool: the message, a tip, a usage line
/// ("Usage: <program> <usage>"), exit status 2. Some errors have no usage line.
[[noreturn]] void clap_error(const std::string& message, std::optional<std::string> usage,
                             const std::string& tip = "");
/// Rust's anyhow error from main: "Error: <message>", exit status 1, after what was printed.
[[noreturn]] void fatal(const std::string& message);
/// A failed write to standard output ends the run: nothing after it could be seen.
void check_output();

/// A number as Rust's str::parse reads an unsigned integer: decimal digits, one '+' allowed
/// before them. On failure, `why` is Rust's ParseIntError message.
std::optional<std::uint64_t> parse_number(std::string_view s, const char** why = nullptr);

/// The command line, as the official's clap 4 parser reads it and reports what it refuses:
/// the same messages, usage lines and exit status 2 (docs: tools/b3sum/README.md). --help and
/// --version print and end the run.
options parse(int argc, char** argv);

}  // namespace b3sum::detail
