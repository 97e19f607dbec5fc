// The tools' input and output through descriptors (system.hpp: read(2) and write(2) on POSIX),
// not stdio: every error is kept for the tool to report, and the fault-injection library of the
// tests (tools/tests/fail_io.c) reaches every call.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "system.hpp"

namespace tools {

/// Output to a descriptor in whole lines, as the references' line-buffered stdout: each line
/// that ends goes out at once, in one write(2) with whatever else ended in the same write() call,
/// so that a reader of a pipe sees it when it is made, parallel runs on one pipe or file do not
/// mix their lines, and a run that is killed leaves no partial line. Where no reader can tell
/// (the null device) whole lines are gathered into writes of up to 64 KiB instead. A line
/// longer than 64 KiB goes out in pieces of that size. The first error stops all later writes
/// and is kept.
class output {
 public:
  explicit output(int fd) : fd_(fd) {}
  output(const output&) = delete;
  output& operator=(const output&) = delete;

  void write(std::string_view bytes);
  void put(char c) { write(std::string_view(&c, 1)); }
  /// Writes out everything buffered, a partial line too; false if any write so far failed.
  bool flush();
  /// The errno of the first failed write, 0 if none.
  int error() const { return error_; }
  /// Bytes given to write() so far, written or not.
  std::uint64_t given() const { return given_; }
  /// Forgets what is buffered and any error, and looks at the descriptor again: a new run of
  /// the tool, whose lines end with '\n' until set_line_end says otherwise.
  void reset();
  /// What ends a line: '\0' with --zero.
  void set_line_end(char c) { line_end_ = c; }

 private:
  static constexpr std::size_t capacity = 64 * 1024;
  // Writes the first n bytes of the buffer.
  void write_out(std::size_t n);

  int fd_;
  int error_ = 0;
  std::uint64_t given_ = 0;
  char line_end_ = '\n';
  bool gather_ = false;
  bool looked_ = false;
  std::string buffer_;
  std::size_t whole_lines_ = 0;  // bytes of the buffer up to the end of its last whole line
};

/// Reads a descriptor line by line, in bounded memory. A line longer than max_line is read
/// through and given as empty, with last_too_long() set: where GNU's getline would hold it (and
/// a name that long could not be opened). Lines that go on past max_skipped bytes, as
/// `b2sum -c /dev/zero`, end the input with endless() set, as memory running out ends GNU's
/// getline, without taking all of it first.
class line_reader {
 public:
  /// Longer than any line a checksum file can hold for a file that can be opened (PATH_MAX is
  /// 4096 bytes, escaped or not).
  static constexpr std::size_t default_max_line = 1u << 20;
  static constexpr std::uint64_t max_skipped = std::uint64_t{1} << 30;

  /// end: what ends a line ('\0' for a list of names, as --files0-from reads).
  explicit line_reader(int fd, std::size_t max_line = default_max_line, char end = '\n')
      : fd_(fd), max_line_(max_line), end_(end) {}

  /// The next line, with its end ('\n') if it has one (the last may not). False at the end, on an
  /// error (error() is then set), or in a line that does not end (endless()).
  bool next(std::string& line);
  int error() const { return error_; }
  bool last_too_long() const { return last_too_long_; }
  bool endless() const { return endless_; }

 private:
  int fd_;
  std::size_t max_line_;
  char end_;
  int error_ = 0;
  bool at_end_ = false;
  bool last_too_long_ = false;
  bool endless_ = false;
  std::uint64_t skipped_ = 0;
  std::string buffer_;
  std::size_t start_ = 0;
};

}  // namespace tools
