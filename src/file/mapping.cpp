// The mmap strategies: a file mapped once, hashed window by window (each window's pages
// released after it), under the SIGBUS guard, with the kernel asked to read ahead; in the
// automatic strategy each window is mapped or read in parts, whichever has been faster.
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <limits>
#include <span>

#include "file/read_ahead.hpp"
#include "file/sigbus_guard.hpp"
#include "file/ways.hpp"

namespace fastblake::internal {
namespace {

// Whether the file of src is now shorter than `end`. A mapped file that shrinks by part of a
// page raises no SIGBUS: the kernel zeros the rest of its new last page, and the mapping shows
// those zeros as if they were the file's. The kernel sets the new size before it zeros the
// page, so a size read after the last load from the mapping tells whether any load may have
// seen them.
bool shrank_below(const source& src, std::uint64_t end) noexcept {
  struct stat now;
  return fstat(src.fd, &now) != 0 || static_cast<std::uint64_t>(now.st_size) < end;
}

}  // namespace

std::error_code hash_by_mapping(file_sink& h, const source& src, const file_options& options,
                                bool parallel, bool may_offload, bool may_read_parts) {
  const std::uint64_t size = static_cast<std::uint64_t>(src.info.st_size);
  if (src.offset >= size)
    return report(options, 0, 0) ? std::error_code()
                                 : std::make_error_code(std::errc::operation_canceled);
  const auto page = static_cast<std::uint64_t>(sysconf(_SC_PAGESIZE));
  const std::uint64_t map_from = src.offset / page * page;
  const std::uint64_t map_len = size - map_from;
  if (map_len > std::numeric_limits<std::size_t>::max()) {
    return std::make_error_code(std::errc::value_too_large);
  }
  void* map = mmap(nullptr, static_cast<std::size_t>(map_len), PROT_READ, MAP_SHARED, src.fd,
                   static_cast<off_t>(map_from));
  // No address space for the mapping (a limit on it, RLIMIT_AS, as batch schedulers set): read
  // instead, as from a file system that cannot map (nothing has been hashed yet).
  if (map == MAP_FAILED && errno == ENOMEM) return std::make_error_code(std::errc::no_such_device);
  if (map == MAP_FAILED) return errno_code();
  struct unmap_at_exit {
    void* data;
    std::size_t size;
    ~unmap_at_exit() { munmap(data, size); }
  } const unmap{map, static_cast<std::size_t>(map_len)};
  const sigbus_guard guard(map, static_cast<std::size_t>(map_len));
  // No memory left for the guard's table: read instead, as from a file system that cannot map.
  if (!guard.active()) return std::make_error_code(std::errc::no_such_device);
  madvise(map, static_cast<std::size_t>(map_len), MADV_SEQUENTIAL);
  thread_pool* pool = parallel ? pool_of(options) : nullptr;

  const auto* data = static_cast<const std::byte*>(map) + (src.offset - map_from);
  const std::uint64_t total = size - src.offset;
  const std::uint64_t window = window_for(options);
  const bool choose_way = may_read_parts && pool != nullptr;
  std::uint64_t done = 0;
  std::uint64_t reported = 0;
  read_ahead reader(src.fd, map, map_from, size, page);
  while (done < total) {
    // Windows end on multiples of the window size (counted from the hash's start), so that
    // each one is whole subtrees of the tree.
    const std::uint64_t end = std::min(total, (done / window + 1) * window);
    reader.request(src.offset + done, src.offset + std::min(total, end + read_ahead_distance));
    const window_way way = choose_way ? choose_window_way() : window_way::map;
    const auto start = std::chrono::steady_clock::now();
    std::uint64_t mapped_from = done;
    if (way == window_way::read_parts) {
      std::uint64_t hashed = 0;
      if (const std::error_code ec =
              read_in_parts(h, src.fd, src.offset + done, end - done, *pool, may_offload, hashed)) {
        return ec;
      }
      mapped_from += hashed;
    }
    // What no subtree read in parts took: from the mapping.
    if (mapped_from < end) {
      const std::span<const std::byte> piece(data + mapped_from,
                                             static_cast<std::size_t>(end - mapped_from));
      if (pool != nullptr || may_offload) {
        h.update_parallel(piece, pool, may_offload);
      } else {
        h.update(piece);
      }
      if (guard.faulted()) return make_error_code(file_errc::truncated);
      // Pages already hashed leave the resident set (they stay in the page cache).
      const auto* from = reinterpret_cast<const std::byte*>(
          reinterpret_cast<std::uintptr_t>(piece.data()) & ~static_cast<std::uintptr_t>(page - 1));
      madvise(const_cast<std::byte*>(from),
              static_cast<std::size_t>(piece.data() + piece.size() - from), MADV_DONTNEED);
    }
    if (choose_way) {
      record_window_way(
          way, end - done,
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    done = end;
    if (done < total && done - reported >= options.progress_step) {
      reported = done;
      if (!report(options, done, total)) return std::make_error_code(std::errc::operation_canceled);
    }
  }
  if (guard.faulted() || shrank_below(src, size)) return make_error_code(file_errc::truncated);
  if (!report(options, done, total)) return std::make_error_code(std::errc::operation_canceled);
  return {};
}

}  // namespace fastblake::internal
