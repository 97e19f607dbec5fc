// The encoders' and the reader's sources and destinations: memory and file descriptors.
#include <algorithm>
#include <system_error>

#include <cerrno>

#include <fastblake/bao.hpp>

#include "os/file.hpp"

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

#if FASTBLAKE_FILES
read_at_function read_from_fd(int fd) {
  return [fd](std::uint64_t offset, std::span<std::byte> out) -> std::size_t {
    std::uint64_t position = offset;
    const std::int64_t n = internal::os::read_fully(fd, out.data(), out.size(), &position);
    if (n < 0) throw std::system_error(errno, std::generic_category(), "pread");
    return static_cast<std::size_t>(n);
  };
}
#endif

#if FASTBLAKE_FILES
write_at_function write_to_fd(int fd) {
  return [fd](std::uint64_t offset, std::span<const std::byte> bytes) {
    if (!internal::os::write_fully(fd, bytes.data(), bytes.size(), offset)) {
      throw std::system_error(errno, std::generic_category(), "pwrite");
    }
  };
}
#endif

}  // namespace fastblake::bao
