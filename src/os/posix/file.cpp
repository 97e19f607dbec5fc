// Descriptors on POSIX systems (os/file.hpp).
#include "os/file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

namespace fastblake::internal::os {
namespace {

void fill(const struct stat& info, file_status& out) noexcept {
  out.regular = S_ISREG(info.st_mode);
  out.directory = S_ISDIR(info.st_mode);
  out.size = info.st_size > 0 ? static_cast<std::uint64_t>(info.st_size) : 0;
  out.device = static_cast<std::uint64_t>(info.st_dev);
  out.identity = static_cast<std::uint64_t>(info.st_ino);
}

}  // namespace

int status(int fd, file_status& out, bool) noexcept {
  struct stat info;
  if (::fstat(fd, &info) != 0) return -1;
  fill(info, out);
  return 0;
}

int status(const std::filesystem::path& path, file_status& out) noexcept {
  struct stat info;
  if (::stat(path.c_str(), &info) != 0) return -1;
  fill(info, out);
  return 0;
}

std::int64_t read_fully(int fd, std::byte* buffer, std::size_t size,
                        std::uint64_t* position) noexcept {
  std::size_t got = 0;
  while (got < size) {
    const ssize_t n = position != nullptr
                          ? ::pread(fd, buffer + got, size - got, static_cast<off_t>(*position))
                          : ::read(fd, buffer + got, size - got);
    if (n < 0) {
      if (errno == EINTR) continue;
      return -1;
    }
    if (n == 0) break;
    got += static_cast<std::size_t>(n);
    if (position != nullptr) *position += static_cast<std::uint64_t>(n);
  }
  return static_cast<std::int64_t>(got);
}

bool write_fully(int fd, const std::byte* bytes, std::size_t size,
                 std::uint64_t position) noexcept {
  std::size_t done = 0;
  while (done < size) {
    const ssize_t n = ::pwrite(fd, bytes + done, size - done, static_cast<off_t>(position + done));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

std::int64_t offset_of(int fd) noexcept { return ::lseek(fd, 0, SEEK_CUR); }

bool seek_to(int fd, std::uint64_t offset) noexcept {
  return ::lseek(fd, static_cast<off_t>(offset), SEEK_SET) >= 0;
}

bool reads_direct(int fd) noexcept {
#ifdef O_DIRECT
  return (::fcntl(fd, F_GETFL) & O_DIRECT) != 0;
#else
  (void)fd;
  return false;
#endif
}

int open_for_reading(const std::filesystem::path& path) noexcept {
  int fd;
  do {
    fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  } while (fd < 0 && errno == EINTR);
  if (fd >= 0 && fd <= STDERR_FILENO) {
    const int moved = ::fcntl(fd, F_DUPFD_CLOEXEC, STDERR_FILENO + 1);
    const int saved = errno;
    ::close(fd);
    errno = saved;
    fd = moved;
  }
  return fd;
}

void close_file(int fd) noexcept { ::close(fd); }

std::uint64_t mapping_alignment() noexcept {
  return static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
}

}  // namespace fastblake::internal::os
