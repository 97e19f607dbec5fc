// Windows read in parts: a subtree of a tree-hashed family cut into parts that the pool's
// threads read, each into a buffer of its own that stays in its core's caches while hashed.
#include <atomic>
#include <span>
#include <vector>

#include "file/ways.hpp"

namespace fastblake::internal {
namespace {

std::atomic<std::uint64_t> read_in_parts_total{0};

// Runs part(i) for every i in [from, to) on the pool's threads.
template <class Part>
void for_each_part(thread_pool& pool, std::size_t from, std::size_t to, const Part& part) {
  if (to - from == 1) {
    part(from);
    return;
  }
  const std::size_t middle = from + (to - from) / 2;
  pool.join([&] { for_each_part(pool, from, middle, part); },
            [&] { for_each_part(pool, middle, to, part); });
}

// Reads part `part` of a subtree, `size` bytes from file offset `offset`, into subtree,
// through `buffer`.
std::error_code read_part_through(int fd, std::uint64_t offset, std::uint64_t size,
                                  subtree_parts& subtree, std::size_t part, std::byte* buffer,
                                  std::size_t buffer_size) {
  std::uint64_t position = offset;
  for (std::uint64_t left = size; left > 0;) {
    const auto want = static_cast<std::size_t>(std::min<std::uint64_t>(buffer_size, left));
    const std::int64_t n = os::read_fully(fd, buffer, want, &position);
    if (n < 0) return errno_code();
    if (static_cast<std::size_t>(n) < want) return make_error_code(file_errc::truncated);
    subtree.update(part, std::span<const std::byte>(buffer, want));
    left -= want;
  }
  return {};
}

// Where the heap has not 64 KiB to give (a small RLIMIT_AS; a new thread may find no arena):
// a smaller buffer on this thread's stack, kept out of read_part's frame so that the usual
// path needs no more stack than it did.
[[gnu::noinline]] std::error_code read_part_on_stack(int fd, std::uint64_t offset,
                                                     std::uint64_t size, subtree_parts& subtree,
                                                     std::size_t part) {
  alignas(direct_alignment) std::byte buffer[16u << 10];
  return read_part_through(fd, offset, size, subtree, part, buffer, sizeof buffer);
}

std::error_code read_part(int fd, std::uint64_t offset, std::uint64_t size, subtree_parts& subtree,
                          std::size_t part, part_buffers& buffers) {
  std::byte* const buffer = buffers.of(part);
  if (buffer == nullptr) return read_part_on_stack(fd, offset, size, subtree, part);
  return read_part_through(fd, offset, size, subtree, part, buffer, part_buffer_size);
}

}  // namespace

std::error_code read_in_parts(file_sink& h, int fd, std::uint64_t offset, std::uint64_t size,
                              thread_pool& pool, bool may_offload, part_buffers& buffers,
                              std::uint64_t& hashed) {
  hashed = 0;
  std::vector<std::error_code> errors;
  while (hashed < size) {
    const std::unique_ptr<subtree_parts> subtree =
        h.split_next(size - hashed, 2 * pool.size(), may_offload);
    if (subtree == nullptr) break;
    const std::size_t parts = subtree->parts();
    const std::uint64_t part_size = subtree->size() / parts;
    errors.assign(parts, {});
    // (Without room for the list, every part is read through a buffer on its thread's stack.)
    buffers.make_room(parts);
    for_each_part(pool, 0, parts, [&](std::size_t i) {
      errors[i] = read_part(fd, offset + hashed + i * part_size, part_size, *subtree, i, buffers);
    });
    for (const std::error_code& ec : errors) {
      if (ec) return ec;
    }
    subtree->finish();
    hashed += subtree->size();
    read_in_parts_total.fetch_add(subtree->size(), std::memory_order_relaxed);
  }
  return {};
}

std::uint64_t bytes_read_in_parts() noexcept {
  return read_in_parts_total.load(std::memory_order_relaxed);
}

}  // namespace fastblake::internal
