// The tools' input and output through read(2) and write(2), not stdio: every error is kept
// for the tool to report, and the fault-injection library of the tests
// (tests/tools/fail_io.c) reaches every call.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace tools {

/// Opens path as open(2) does, but never onto descriptors 0, 1 or 2 (when they are closed),
/// so that no file takes the place of a standard stream. Retries on EINTR. -1 and errno on
/// failure.
int open_above_standard(const char* path, int flags);

/// Opens /dev/null onto any of descriptors 0, 1 and 2 that is closed, as Rust's runtime does
/// at startup.
void fill_closed_standard_descriptors();

/// Buffered output to a descriptor. The first error stops all later writes and is kept.
class output {
 public:
  explicit output(int fd) : fd_(fd) {}
  output(const output&) = delete;
  output& operator=(const output&) = delete;

  void write(std::string_view bytes);
  void put(char c) { write(std::string_view(&c, 1)); }
  /// Writes out what is buffered; false if any write so far failed.
  bool flush();
  /// The errno of the first failed write, 0 if none.
  int error() const { return error_; }
  /// Bytes given to write() so far, written or not.
  std::uint64_t given() const { return given_; }
  /// Forgets what is buffered and any error: a new run of the tool.
  void reset() {
    error_ = 0;
    given_ = 0;
    buffer_.clear();
  }

 private:
  static constexpr std::size_t capacity = 64 * 1024;
  int fd_;
  int error_ = 0;
  std::uint64_t given_ = 0;
  std::string buffer_;
};

/// Reads a descriptor line by line.
class line_reader {
 public:
  explicit line_reader(int fd) : fd_(fd) {}

  /// The next line, with its '\n' if it has one (the last may not). False at the end, or on
  /// an error (error() is then set).
  bool next(std::string& line);
  int error() const { return error_; }

 private:
  int fd_;
  int error_ = 0;
  bool at_end_ = false;
  std::string buffer_;
  std::size_t start_ = 0;
};

/// Writes all of bytes to fd, retrying on EINTR; false on an error.
bool write_all(int fd, std::string_view bytes);

}  // namespace tools
