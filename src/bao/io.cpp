// The encoders' and the reader's sources and destinations: memory and file descriptors.
#include <algorithm>
#include <system_error>

#if defined(__unix__) || defined(__APPLE__)
#include <unistd.h>

#include <cerrno>
#endif

#include <fastblake/bao.hpp>

namespace fastblake::bao {

read_at_function read_from(std::span<const std::byte> bytes) {
  return [bytes](std::uint64_t offset, std::span<std::byte> out) -> std::size_t {
    if (offset >= bytes.size()) return 0;
    const auto n =
        static_cast<std::size_t>(std::min<std::uint64_t>(out.size(), bytes.size() - offset));
    std::copy_n(bytes.data() + offset, n, out.data());
    return n;
  };
}

#if defined(__unix__) || defined(__APPLE__)
read_at_function read_from_fd(int fd) {
  return [fd](std::uint64_t offset, std::span<std::byte> out) -> std::size_t {
    std::size_t got = 0;
    while (got < out.size()) {
      const ssize_t n =
          ::pread(fd, out.data() + got, out.size() - got, static_cast<off_t>(offset + got));
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) throw std::system_error(errno, std::generic_category(), "pread");
      if (n == 0) break;
      got += static_cast<std::size_t>(n);
    }
    return got;
  };
}
#endif

#if defined(__unix__) || defined(__APPLE__)
write_at_function write_to_fd(int fd) {
  return [fd](std::uint64_t offset, std::span<const std::byte> bytes) {
    std::size_t done = 0;
    while (done < bytes.size()) {
      const ssize_t n =
          ::pwrite(fd, bytes.data() + done, bytes.size() - done, static_cast<off_t>(offset + done));
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) throw std::system_error(errno, std::generic_category(), "pwrite");
      done += static_cast<std::size_t>(n);
    }
  };
}
#endif

}  // namespace fastblake::bao
