// The tools' input and output (io.hpp).
#include "io.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

namespace tools {

int open_above_standard(const char* path, int flags, mode_t mode) {
  int fd;
  do {
    fd = ::open(path, flags | O_CLOEXEC, mode);
  } while (fd < 0 && errno == EINTR);
  if (fd < 0 || fd > STDERR_FILENO) return fd;
  const int moved = ::fcntl(fd, F_DUPFD_CLOEXEC, STDERR_FILENO + 1);
  const int saved = errno;
  ::close(fd);
  errno = saved;
  return moved;
}

void fill_closed_standard_descriptors() {
  for (int fd = STDIN_FILENO; fd <= STDERR_FILENO; ++fd) {
    if (::fcntl(fd, F_GETFD) >= 0 || errno != EBADF) continue;
    // open returns the lowest free descriptor: this one, since the lower ones are open.
    const int null = ::open("/dev/null", O_RDWR);
    if (null >= 0 && null != fd) ::close(null);
  }
}

namespace {

// Whether fd is the null device, where nobody reads what is written.
bool is_null_device(int fd) {
  struct stat target;
  struct stat null;
  return ::fstat(fd, &target) == 0 && S_ISCHR(target.st_mode) && ::stat("/dev/null", &null) == 0 &&
         S_ISCHR(null.st_mode) && target.st_rdev == null.st_rdev;
}

}  // namespace

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
    ssize_t n;
    do {
      n = ::read(fd_, buffer_.data() + old, 64 * 1024);
    } while (n < 0 && errno == EINTR);
    buffer_.resize(old + static_cast<std::size_t>(n > 0 ? n : 0));
    if (n < 0) error_ = errno;
    if (n == 0) at_end_ = true;
  }
}

bool write_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

}  // namespace tools
