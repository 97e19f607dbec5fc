// The mmap strategies: a file mapped once, hashed window by window (each window's pages
// released after it), under the fault guard, with the system asked to read ahead; in the
// automatic strategy each window is mapped or read in parts, whichever has been faster.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <span>

#include "file/ways.hpp"

namespace fastblake::internal {
namespace {

// Whether the file of src is now shorter than `end`. A mapped file that shrinks by part of a
// page raises no fault: the kernel zeros the rest of its new last page, and the mapping shows
// those zeros as if they were the file's. The kernel sets the new size before it zeros the
// page, so a size read after the last load from the mapping tells whether any load may have
// seen them.
bool shrank_below(const source& src, std::uint64_t end) noexcept {
  os::file_status now;
  return os::status(src.fd, now) != 0 || now.size < end;
}

}  // namespace

std::error_code hash_by_mapping(file_sink& h, const source& src, const file_options& options,
                                bool parallel, bool may_offload, bool may_read_parts) {
  const std::uint64_t size = src.info.size;
  if (src.offset >= size)
    return report(options, 0, 0) ? std::error_code()
                                 : std::make_error_code(std::errc::operation_canceled);
  const std::uint64_t alignment = os::mapping_alignment();
  const std::uint64_t map_from = src.offset / alignment * alignment;
  os::mapped_file map;
  if (const std::error_code ec = map.map(src.fd, map_from, size - map_from)) return ec;
  map.read_sequentially();
  thread_pool* pool = parallel ? pool_of(options) : nullptr;

  const std::uint64_t total = size - src.offset;
  const std::uint64_t window = window_for(options);
  const bool choose_way = may_read_parts && pool != nullptr;
  part_buffers buffers;
  std::uint64_t done = 0;
  std::uint64_t reported = 0;
  while (done < total) {
    // Windows end on multiples of the window size (counted from the hash's start), so that
    // each one is whole subtrees of the tree.
    const std::uint64_t end = std::min(total, (done / window + 1) * window);
    const std::uint64_t reach = src.offset + std::min(total, end + read_ahead_distance);
    map.read_ahead(src.offset + done, reach);
    const window_way way = choose_way ? choose_window_way() : window_way::map;
    const auto start = std::chrono::steady_clock::now();
    std::uint64_t mapped_from = done;
    if (way == window_way::read_parts) {
      std::uint64_t hashed = 0;
      if (const std::error_code ec = read_in_parts(h, src.fd, src.offset + done, end - done, *pool,
                                                   may_offload, buffers, hashed)) {
        return ec;
      }
      mapped_from += hashed;
    }
    // What no subtree read in parts took: from the mapping.
    if (mapped_from < end) {
      const std::byte* data = map.window(src.offset + mapped_from, end - mapped_from, reach);
      if (data == nullptr) {
        // Nothing hashed yet: read instead, as a file that cannot be mapped is.
        return mapped_from == 0 ? std::make_error_code(std::errc::no_such_device)
                                : std::make_error_code(std::errc::not_enough_memory);
      }
      const std::span<const std::byte> piece(data, static_cast<std::size_t>(end - mapped_from));
      if (pool != nullptr || may_offload) {
        h.update_parallel(piece, pool, may_offload);
      } else {
        h.update(piece);
      }
      if (map.faulted()) return make_error_code(file_errc::truncated);
      map.release(piece.data(), piece.size());
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
  if (map.faulted() || shrank_below(src, size)) return make_error_code(file_errc::truncated);
  if (!report(options, done, total)) return std::make_error_code(std::errc::operation_canceled);
  return {};
}

}  // namespace fastblake::internal
