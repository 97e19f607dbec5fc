// The read and stream strategies: a descriptor read into buffers, from its offset to its end
// or to the size it had, overlapping reads with hashing on the pool.
#include <algorithm>
#include <cerrno>
#include <limits>
#include <utility>

#include "file/ways.hpp"

namespace fastblake::internal {
namespace {

// A regular file that is now shorter than the size it had when hashing started is truncated:
// read up to the size it had from src.offset; or, as a stream, to wherever read(2) left
// the descriptor's offset, unless the stream found its end where the file now ends, which reads
// the file as it is now (GNU's tools, which read so, give that digest too). A read that ended
// at the old size is no proof: past the new end it may have copied bytes the file no longer
// has, or zeros (a read racing a truncate can copy the cut page after the kernel zeroed its
// tail, having taken the size from before the cut). A file shorter than it said it was without
// shrinking (a /sys file reporting 4096 bytes, say, or 0 in /proc) is read as it is.
std::error_code shrank(const source& src, bool stream) {
  if (!src.info.regular) return {};
  std::int64_t end = -1;
  if (stream && (end = os::offset_of(src.fd)) < 0) return {};
  os::file_status now;
  if (os::status(src.fd, now) == 0 && now.size < src.info.size &&
      static_cast<std::int64_t>(now.size) != end) {
    return make_error_code(file_errc::truncated);
  }
  return {};
}

}  // namespace

// Regular files are read with pread from src.offset, leaving the descriptor's offset alone,
// up to the size fstat gave when hashing started (a file that grows is hashed to that size) or
// to their end if that comes first: files in /proc and /sys report sizes (0, 4096) that are not
// their contents'. A size of 0, anything not a regular file, and a stream are read to their end.
std::error_code hash_by_reading(file_sink& h, const source& src, const file_options& options,
                                bool threads) {
  const std::uint64_t size = src.info.size;
  const std::uint64_t size_left = src.info.regular && size > src.offset ? size - src.offset : 0;
  // A stream is read to its end with read(2), whatever its size said.
  const bool regular = src.info.regular && options.strategy != file_strategy::stream;
  const std::uint64_t total = regular ? size_left : 0;
  const bool bounded = total > 0;
  std::uint64_t position = src.offset;
  std::uint64_t* at = regular ? &position : nullptr;
  // Small files go through one stack buffer, in one pread when their size is known: a 2 MiB
  // allocation per file (an mmap and munmap, and page faults) would cost more than hashing
  // them, and so would a second pread to find the end. Streams of unknown size start there
  // too, and move to the big buffers only if they go on. (Not for O_DIRECT, whose reads must be
  // whole blocks into aligned memory: the big buffers are.)
  std::uint64_t done = 0;
  if (total <= small_file_size && !src.direct) {
    std::byte buffer[small_file_size + 1];
    // total fits: it is at most small_file_size here.
    const std::int64_t n = os::read_fully(
        src.fd, buffer, bounded ? static_cast<std::size_t>(total) : sizeof buffer, at);
    if (n < 0) return errno_code();
    done = static_cast<std::uint64_t>(n);
    h.update(std::span<const std::byte>(buffer, static_cast<std::size_t>(n)));
    if (bounded || static_cast<std::size_t>(n) < sizeof buffer) {
      if (const std::error_code ec = shrank(src, !bounded)) return ec;
      if (!report(options, done, size_left)) {
        return std::make_error_code(std::errc::operation_canceled);
      }
      return {};
    }
  }
  // Smaller buffers where the system has no more memory to give (a small RLIMIT_AS), down to
  // the small files' size: slower, but the file is hashed.
  std::size_t buffer_size = read_buffer_size;
  aligned_buffer buffers = allocate_aligned(2 * buffer_size);
  while (!buffers && buffer_size > small_file_size) {
    buffer_size /= 2;
    buffers = allocate_aligned(2 * buffer_size);
  }
  if (!buffers) return std::make_error_code(std::errc::not_enough_memory);
  std::byte* current = buffers.get();
  std::byte* next = buffers.get() + buffer_size;
  thread_pool* pool = threads ? pool_of(options) : nullptr;
  // Overlapping reading with hashing pays from a couple of buffers on.
  const bool overlap = pool != nullptr && pool->size() > 1 && (!bounded || total > 2 * buffer_size);
  const bool split = overlap && h.splits_reads();
  const auto absorb = [&](std::span<const std::byte> data) {
    if (split) {
      h.update_parallel(data, pool, false);
    } else {
      h.update(data);
    }
  };
  std::uint64_t unread = bounded ? total : std::numeric_limits<std::uint64_t>::max();
  const auto read_into = [&](std::byte* buffer) {
    const auto want = static_cast<std::size_t>(std::min<std::uint64_t>(buffer_size, unread));
    // O_DIRECT reads whole blocks, of which only `want` bytes are the file's to hash here
    // (buffer_size is whole blocks, so the rounded request fits).
    const std::size_t asked =
        src.direct ? (want + direct_alignment - 1) / direct_alignment * direct_alignment : want;
    std::int64_t n = want == 0 ? 0 : os::read_fully(src.fd, buffer, asked, at);
    if (n > static_cast<std::int64_t>(want)) n = static_cast<std::int64_t>(want);
    if (n > 0) unread -= static_cast<std::uint64_t>(n);
    return n;
  };
  std::int64_t have = read_into(current);
  std::uint64_t reported = 0;
  while (have > 0) {
    const std::span<const std::byte> data(current, static_cast<std::size_t>(have));
    std::int64_t got = 0;
    int read_errno = 0;
    const auto read_next = [&] {
      got = read_into(next);
      read_errno = got < 0 ? errno : 0;
    };
    if (overlap) {
      pool->join([&] { absorb(data); }, read_next);
    } else {
      h.update(data);
      read_next();
    }
    done += data.size();
    if (got < 0) return errno_code(read_errno);
    if (done - reported >= options.progress_step) {
      reported = done;
      if (!report(options, done, size_left))
        return std::make_error_code(std::errc::operation_canceled);
    }
    std::swap(current, next);
    have = got;
  }
  if (have < 0) return errno_code();
  if (const std::error_code ec = shrank(src, !bounded)) return ec;
  if (!report(options, done, size_left)) return std::make_error_code(std::errc::operation_canceled);
  return {};
}

}  // namespace fastblake::internal
