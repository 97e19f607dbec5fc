// Read-ahead for mapped files not in the page cache (the mapped strategy, mapping.cpp).
#pragma once

#include <fcntl.h>
#include <sys/mman.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace fastblake::internal {

// Asks the kernel to start reading the parts of a mapped file that are not in the page cache,
// ahead of the hashing threads' page faults, so that the device is kept busy while a window is
// hashed. The requests go in pieces of 128 KiB, the kernel's usual default read-ahead size:
// it reads no more than a device's read-ahead size of one POSIX_FADV_WILLNEED. A block of 2 MiB
// whose first page is cached (a warm file) costs one mincore() and no requests; asking about every
// page took 180 us per 16 MiB window, 5% of hashing a cached file.
class read_ahead {
 public:
  read_ahead(int fd, const void* map, std::uint64_t map_from, std::uint64_t size,
             std::uint64_t page)
      : fd_(fd),
        map_(static_cast<const std::byte*>(map)),
        map_from_(map_from),
        size_(size),
        page_(page) {}

  // File offsets [from, to): whatever part of it was not requested before.
  void request(std::uint64_t from, std::uint64_t to) {
    constexpr std::uint64_t block = 2u << 20;
    constexpr std::uint64_t piece = 128u << 10;
    from = std::max(from, requested_) / page_ * page_;
    to = std::min(to, size_);
    for (std::uint64_t at = from; at < to; at += block) {
      if (cached(at)) continue;
      for (std::uint64_t p = at; p < std::min(to, at + block); p += piece) {
        const std::uint64_t n = std::min(piece, to - p);
        posix_fadvise(fd_, static_cast<off_t>(p), static_cast<off_t>(n), POSIX_FADV_WILLNEED);
      }
    }
    requested_ = std::max(requested_, to);
  }

 private:
  bool cached(std::uint64_t offset) const {
    unsigned char state = 0;
    return mincore(const_cast<std::byte*>(map_ + (offset - map_from_)),
                   static_cast<std::size_t>(page_), &state) == 0 &&
           (state & 1) != 0;
  }

  int fd_;
  const std::byte* map_;
  std::uint64_t map_from_;
  std::uint64_t size_;
  std::uint64_t page_;
  std::uint64_t requested_ = 0;
};

}  // namespace fastblake::internal
