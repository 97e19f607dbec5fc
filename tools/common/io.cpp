// The tools' input and output (io.hpp).
#include "io.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>

namespace tools {

int open_above_standard(const char* path, int flags) {
  int fd;
  do {
    fd = ::open(path, flags | O_CLOEXEC);
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

void output::write(std::string_view bytes) {
  given_ += bytes.size();
  if (error_ != 0) return;
  if (buffer_.size() + bytes.size() > capacity) {
    flush();
    if (error_ != 0) return;
    if (bytes.size() >= capacity) {
      buffer_.assign(bytes);
      flush();
      return;
    }
  }
  buffer_.append(bytes);
}

bool output::flush() {
  if (error_ == 0 && !write_all(fd_, buffer_)) error_ = errno;
  buffer_.clear();
  return error_ == 0;
}

bool line_reader::next(std::string& line) {
  line.clear();
  for (;;) {
    const std::size_t newline = buffer_.find('\n', start_);
    if (newline != std::string::npos) {
      line.assign(buffer_, start_, newline + 1 - start_);
      start_ = newline + 1;
      return true;
    }
    if (at_end_ || error_ != 0) {
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
