// The tools' input and output (io.hpp).
#include "io.hpp"

#include <cerrno>

namespace tools {

void output::reset() {
  error_ = 0;
  given_ = 0;
  buffer_.clear();
  whole_lines_ = 0;
  line_end_ = '\n';
  looked_ = false;
}

void output::write(std::string_view bytes) {
  given_ += bytes.size();
  if (error_ != 0) return;
  if (!looked_) {
    gather_ = is_null_device(fd_);
    looked_ = true;
  }
  buffer_.append(bytes);
  if (const std::size_t end = bytes.rfind(line_end_); end != std::string_view::npos) {
    whole_lines_ = buffer_.size() - bytes.size() + end + 1;
  }
  if (whole_lines_ > 0 && (!gather_ || buffer_.size() >= capacity)) write_out(whole_lines_);
  // A line longer than the buffer (hex output of a large --length) goes out in pieces, as
  // Rust's LineWriter writes one longer than its buffer.
  if (buffer_.size() >= capacity) write_out(buffer_.size());
}

void output::write_out(std::size_t n) {
  if (error_ == 0 && !write_all(fd_, std::string_view(buffer_).substr(0, n))) error_ = errno;
  buffer_.erase(0, n);
  whole_lines_ = 0;
}

bool output::flush() {
  write_out(buffer_.size());
  return error_ == 0;
}

bool line_reader::next(std::string& line) {
  line.clear();
  last_too_long_ = false;
  bool skipping = false;  // through a line longer than max_line
  for (;;) {
    const std::size_t newline = buffer_.find(end_, start_);
    if (newline != std::string::npos) {
      if (!skipping) line.assign(buffer_, start_, newline + 1 - start_);
      start_ = newline + 1;
      last_too_long_ = skipping;
      return true;
    }
    if (buffer_.size() - start_ > max_line_ || skipping) {
      skipping = true;
      skipped_ += buffer_.size() - start_;
      buffer_.clear();
      start_ = 0;
      if (skipped_ > max_skipped) {
        endless_ = true;
        return false;
      }
    }
    if (at_end_ || error_ != 0) {
      if (skipping) {
        last_too_long_ = error_ == 0;
        return last_too_long_;
      }
      line.assign(buffer_, start_);
      buffer_.clear();
      start_ = 0;
      return !line.empty() && error_ == 0;
    }
    buffer_.erase(0, start_);
    start_ = 0;
    const std::size_t old = buffer_.size();
    buffer_.resize(old + 64 * 1024);
    const std::ptrdiff_t n = read_some(fd_, buffer_.data() + old, 64 * 1024);
    buffer_.resize(old + static_cast<std::size_t>(n > 0 ? n : 0));
    if (n < 0) error_ = errno;
    if (n == 0) at_end_ = true;
  }
}

}  // namespace tools
