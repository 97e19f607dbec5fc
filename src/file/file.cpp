// File hashing for any family: strategies, progress, many files at once (engine.hpp); the
// SIGBUS guard for mapped files is sigbus_guard.cpp, the read-ahead of mapped files
// read_ahead.hpp.
#include "file/engine.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <limits>
#include <memory>
#include <mutex>
#include <new>
#include <optional>
#include <string>
#include <vector>

#include "common/faster_of_two.hpp"
#include "common/fork_safe_mutex.hpp"
#include "file/read_ahead.hpp"
#include "file/sigbus_guard.hpp"

namespace fastblake::internal {
namespace {

constexpr std::size_t read_buffer_size = 1u << 20;
// Regular files up to this size are read in one pread into a stack buffer.
constexpr std::size_t small_file_size = 64u << 10;
// Regular files smaller than this are read, not mapped: mapping costs more than it saves.
constexpr std::uint64_t automatic_mmap_min_size = 64u << 10;
// Mapped files are hashed (and their pages released) in windows of this size, so that the
// resident set stays bounded; a power of two, so that every window is whole subtrees.
constexpr std::uint64_t mmap_window = 16u << 20;
// How far ahead of the window being hashed a file not in the page cache is asked for
// (read_ahead): b3sum hashed a 1 GiB file dropped from the cache in 0.59 s against 1.03 s
// without (medians of 9 alternating runs, AMD EPYC Zen 4; docs/blake3-tree.md, "Files").
constexpr std::uint64_t read_ahead_distance = 64u << 20;
// Each thread reading its part of a subtree (read_part) reads this much at a time into a
// buffer of its own, which stays in the core's caches while it is hashed: 64 KiB was
// the fastest of 16 KiB to 256 KiB on a 256 MiB file in the page cache (AMD EPYC Zen 4).
constexpr std::size_t part_buffer_size = 64u << 10;
// A descriptor opened with O_DIRECT reads only whole blocks of its device into memory aligned
// to them: 4096 bytes is a multiple of every logical block size Linux's file systems use (512
// and 4096), and the read buffers are that aligned for every descriptor.
constexpr std::size_t direct_alignment = 4096;

class file_error_category final : public std::error_category {
 public:
  const char* name() const noexcept override { return "fastblake.file"; }
  std::string message(int value) const override {
    switch (static_cast<file_errc>(value)) {
      case file_errc::truncated:
        return "the file shrank while it was being hashed";
    }
    return "unknown file error";
  }
};

// ---- strategies ----

struct source {
  int fd;
  struct stat info;
  std::uint64_t offset;  // where hashing starts (a descriptor's current offset)
  bool direct;           // opened with O_DIRECT
};

// Read buffers aligned for O_DIRECT (direct_alignment), for every descriptor: nothing costs.
struct aligned_delete {
  void operator()(std::byte* p) const noexcept {
    ::operator delete[](p, std::align_val_t{direct_alignment});
  }
};
using aligned_buffer = std::unique_ptr<std::byte[], aligned_delete>;
aligned_buffer allocate_aligned(std::size_t size) noexcept {
  return aligned_buffer(new (std::align_val_t{direct_alignment}, std::nothrow) std::byte[size]);
}

// Calls the progress callback; false when it asks to stop.
bool report(const file_options& options, std::uint64_t done, std::uint64_t total) {
  return !options.progress || options.progress(done, total);
}

}  // namespace

// Mapping a file costs page faults and page-table work; reading it costs a copy, but into a
// buffer that stays in the core's caches while it is hashed. Which is faster depends on the
// page cache as much as on the machine: on an AMD EPYC Zen 4, b3sum reading in parts hashed a
// 1 GiB file cached in small folios (written 4 KiB at a time) 1.24x as fast as mapping it, and
// one cached in large folios (written 64 MiB at a time, or read in by the kernel's read-ahead)
// about 0.95x (docs/blake3-tree.md, "Files"). So it is measured, window by window, across the
// process's files; 16 windows of 16 MiB between two tries of the slower way cost at most 1/16
// of the difference.
namespace {
fork_safe_mutex window_ways_mutex;
faster_of_two window_ways{16};
std::optional<window_way> forced_window_way;
std::atomic<std::uint64_t> read_in_parts_total{0};
}  // namespace

window_way choose_window_way() noexcept {
  const std::lock_guard lock(window_ways_mutex);
  if (forced_window_way) return *forced_window_way;
  return window_ways.choose() == faster_of_two::way::first ? window_way::map
                                                           : window_way::read_parts;
}

void record_window_way(window_way way, std::uint64_t bytes, double seconds) noexcept {
  const std::lock_guard lock(window_ways_mutex);
  if (forced_window_way) return;
  window_ways.record(
      way == window_way::map ? faster_of_two::way::first : faster_of_two::way::second, bytes,
      seconds);
}

void force_window_way(std::optional<window_way> way) noexcept {
  const std::lock_guard lock(window_ways_mutex);
  forced_window_way = way;
}

std::uint64_t bytes_read_in_parts() noexcept {
  return read_in_parts_total.load(std::memory_order_relaxed);
}

namespace {

// Reads until the buffer is full or the input ends, retrying on EINTR; from *position with
// pread when position is set (and advances it), else from the descriptor's offset. Returns the
// bytes read, or -1 with errno set.
ssize_t read_fully(int fd, std::byte* buffer, std::size_t size, off_t* position) noexcept {
  std::size_t got = 0;
  while (got < size) {
    const ssize_t n = position != nullptr ? ::pread(fd, buffer + got, size - got, *position)
                                          : ::read(fd, buffer + got, size - got);
    if (n < 0) {
      if (errno == EINTR) continue;
      return -1;
    }
    if (n == 0) break;
    got += static_cast<std::size_t>(n);
    if (position != nullptr) *position += n;
  }
  return static_cast<ssize_t>(got);
}

// A regular file that ended before the size it had when hashing started: truncated if its
// size now says so too, else (a /sys file reporting 4096 bytes, say) simply shorter. Read up to
// `total` bytes; or, as a stream (total 0), to wherever read(2) left the descriptor's offset.
// A stream that found its end where the file now ends has read the file as it is now (GNU's
// tools, which read so, give that digest too); one that found it elsewhere has read bytes of
// the file as it was and an end of the file as it is, which together it may never have been.
std::error_code short_read(const source& src, std::uint64_t done, std::uint64_t total) {
  if (!S_ISREG(src.info.st_mode)) return {};
  off_t end = -1;
  if (total == 0) {
    end = lseek(src.fd, 0, SEEK_CUR);
    if (end < 0 || end >= src.info.st_size) return {};
  } else if (done >= total) {
    return {};
  }
  struct stat now;
  if (fstat(src.fd, &now) == 0 && now.st_size < src.info.st_size && now.st_size != end) {
    return make_error_code(file_errc::truncated);
  }
  return {};
}

// Regular files are read with pread from src.offset, leaving the descriptor's offset alone,
// up to the size fstat gave when hashing started (a file that grows is hashed to that size) or
// to their end if that comes first: files in /proc and /sys report sizes (0, 4096) that are not
// their contents'. A size of 0, anything not a regular file, and a stream are read to their end.
std::error_code hash_by_reading(file_sink& h, const source& src, const file_options& options,
                                bool threads) {
  const std::uint64_t size = static_cast<std::uint64_t>(src.info.st_size);
  const std::uint64_t size_left =
      S_ISREG(src.info.st_mode) && size > src.offset ? size - src.offset : 0;
  // A stream is read to its end with read(2), whatever its size said.
  const bool regular = S_ISREG(src.info.st_mode) && options.strategy != file_strategy::stream;
  const std::uint64_t total = regular ? size_left : 0;
  const bool bounded = total > 0;
  off_t position = static_cast<off_t>(src.offset);
  off_t* at = regular ? &position : nullptr;
  // Small files go through one stack buffer, in one pread when their size is known: a 2 MiB
  // allocation per file (an mmap and munmap, and page faults) would cost more than hashing
  // them, and so would a second pread to find the end. Streams of unknown size start there
  // too, and move to the big buffers only if they go on. (Not for O_DIRECT, whose reads must be
  // whole blocks into aligned memory: the big buffers are.)
  std::uint64_t done = 0;
  if (total <= small_file_size && !src.direct) {
    std::byte buffer[small_file_size + 1];
    // total fits: it is at most small_file_size here.
    const ssize_t n =
        read_fully(src.fd, buffer, bounded ? static_cast<std::size_t>(total) : sizeof buffer, at);
    if (n < 0) return errno_code();
    done = static_cast<std::uint64_t>(n);
    h.update(std::span<const std::byte>(buffer, static_cast<std::size_t>(n)));
    if (bounded || static_cast<std::size_t>(n) < sizeof buffer) {
      if (const std::error_code ec = short_read(src, done, total)) return ec;
      if (!report(options, done, size_left)) {
        return std::make_error_code(std::errc::operation_canceled);
      }
      return {};
    }
  }
  const aligned_buffer buffers = allocate_aligned(2 * read_buffer_size);
  if (!buffers) return std::make_error_code(std::errc::not_enough_memory);
  std::byte* current = buffers.get();
  std::byte* next = buffers.get() + read_buffer_size;
  thread_pool* pool = threads ? pool_of(options) : nullptr;
  // Overlapping reading with hashing pays from a couple of buffers on.
  const bool overlap =
      pool != nullptr && pool->size() > 1 && (!bounded || total > 2 * read_buffer_size);
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
    const auto want = static_cast<std::size_t>(std::min<std::uint64_t>(read_buffer_size, unread));
    // O_DIRECT reads whole blocks, of which only `want` bytes are the file's to hash here
    // (read_buffer_size is whole blocks, so the rounded request fits).
    const std::size_t asked =
        src.direct ? (want + direct_alignment - 1) / direct_alignment * direct_alignment : want;
    ssize_t n = want == 0 ? 0 : read_fully(src.fd, buffer, asked, at);
    if (n > static_cast<ssize_t>(want)) n = static_cast<ssize_t>(want);
    if (n > 0) unread -= static_cast<std::uint64_t>(n);
    return n;
  };
  ssize_t have = read_into(current);
  std::uint64_t reported = 0;
  while (have > 0) {
    const std::span<const std::byte> data(current, static_cast<std::size_t>(have));
    ssize_t got = 0;
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
  if (const std::error_code ec = short_read(src, done, total)) return ec;
  if (!report(options, done, size_left)) return std::make_error_code(std::errc::operation_canceled);
  return {};
}

// How much of a file is hashed between two progress reports (and, mapped, between two releases
// of hashed pages): a power of two, so that every window is whole subtrees. A progress step
// under mmap_window makes windows of the next power of two (at least 1 MiB); bit_ceil is only
// asked about steps below the window, where it cannot overflow.
std::uint64_t window_for(const file_options& options) noexcept {
  return options.progress_step >= mmap_window
             ? mmap_window
             : std::bit_ceil(std::max<std::uint64_t>(options.progress_step, 1u << 20));
}

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

// Reads part `part` of a subtree, `size` bytes from file offset `offset`, into subtree.
std::error_code read_part(int fd, std::uint64_t offset, std::uint64_t size, subtree_parts& subtree,
                          std::size_t part) {
  const aligned_buffer buffer = allocate_aligned(part_buffer_size);
  if (!buffer) return std::make_error_code(std::errc::not_enough_memory);
  auto position = static_cast<off_t>(offset);
  for (std::uint64_t left = size; left > 0;) {
    const auto want = static_cast<std::size_t>(std::min<std::uint64_t>(part_buffer_size, left));
    const ssize_t n = read_fully(fd, buffer.get(), want, &position);
    if (n < 0) return errno_code();
    if (static_cast<std::size_t>(n) < want) return make_error_code(file_errc::truncated);
    subtree.update(part, std::span<const std::byte>(buffer.get(), want));
    left -= want;
  }
  return {};
}

// Hashes what it can of the `size` bytes at file offset `offset` as subtrees of a tree-hashed
// family (file_sink::split_next) whose parts the pool's threads read into buffers of their own;
// `hashed` is how many bytes that was, from the start (0 for another family).
std::error_code read_in_parts(file_sink& h, int fd, std::uint64_t offset, std::uint64_t size,
                              thread_pool& pool, bool may_offload, std::uint64_t& hashed) {
  hashed = 0;
  std::vector<std::error_code> errors;
  while (hashed < size) {
    const std::unique_ptr<subtree_parts> subtree =
        h.split_next(size - hashed, 2 * pool.size(), may_offload);
    if (subtree == nullptr) break;
    const std::size_t parts = subtree->parts();
    const std::uint64_t part_size = subtree->size() / parts;
    errors.assign(parts, {});
    for_each_part(pool, 0, parts, [&](std::size_t i) {
      errors[i] = read_part(fd, offset + hashed + i * part_size, part_size, *subtree, i);
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

// Whether the file of src is now shorter than `end`. A mapped file that shrinks by part of a
// page raises no SIGBUS: the kernel zeros the rest of its new last page, and the mapping shows
// those zeros as if they were the file's. The kernel sets the new size before it zeros the
// page, so a size read after the last load from the mapping tells whether any load may have
// seen them.
bool shrank_below(const source& src, std::uint64_t end) noexcept {
  struct stat now;
  return fstat(src.fd, &now) != 0 || static_cast<std::uint64_t>(now.st_size) < end;
}

// may_offload: the strategy was automatic, so an accelerator may take subtrees (backend.hpp).
// may_read_parts: the strategy was automatic, so windows may be read in parts instead, where
// that has been faster (choose_window_way).
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

}  // namespace

std::error_code errno_code(int e) noexcept { return {e, std::generic_category()}; }

thread_pool* pool_of(const file_options& options) noexcept {
  if (options.pool != nullptr) return options.pool;
  try {
    return &thread_pool::default_pool();
  } catch (...) {
    return nullptr;
  }
}

std::error_code hash_fd(file_sink& h, int fd, const file_options& options, bool threads,
                        bool opened_here, const struct stat* known) {
  source src{fd, {}, 0, false};
  if (known != nullptr) {
    src.info = *known;
  } else if (fstat(fd, &src.info) != 0) {
    return errno_code();
  }
  // A stream reads whatever it is given, as GNU's tools read: a directory's read(2) says why
  // it cannot be read (EISDIR, or an I/O error where the file system has one).
  if (S_ISDIR(src.info.st_mode) && options.strategy != file_strategy::stream) {
    return std::make_error_code(std::errc::is_a_directory);
  }
  const bool regular = S_ISREG(src.info.st_mode);
  // A stream reads from the descriptor's offset with read(2): it need not know it.
  if (regular && !opened_here && options.strategy != file_strategy::stream) {
    const off_t at = lseek(fd, 0, SEEK_CUR);
    src.offset = at > 0 ? static_cast<std::uint64_t>(at) : 0;
  }
  file_strategy strategy = options.strategy;
  if (strategy > file_strategy::stream || strategy < file_strategy::automatic) {
    return std::make_error_code(std::errc::invalid_argument);
  }
  // A limit ends a regular file early: hashed as if it ended there, which makes bytes past the
  // limit irrelevant, and a file cut short before it still truncated. (A size of 0 would mean
  // "read to the end": a limit of 0 hashes nothing here.)
  if (regular && options.strategy != file_strategy::stream && options.max_length == 0) {
    return report(options, 0, 0) ? std::error_code()
                                 : std::make_error_code(std::errc::operation_canceled);
  }
  if (regular && options.strategy != file_strategy::stream &&
      static_cast<std::uint64_t>(src.info.st_size) > src.offset &&
      static_cast<std::uint64_t>(src.info.st_size) - src.offset > options.max_length) {
    src.info.st_size = static_cast<off_t>(src.offset + options.max_length);
  }
#ifdef O_DIRECT
  // (A descriptor opened here never has O_DIRECT.)
  src.direct = !opened_here && (fcntl(fd, F_GETFL) & O_DIRECT) != 0;
#endif
  const bool automatic = strategy == file_strategy::automatic;
  if (automatic) {
    strategy = regular && static_cast<std::uint64_t>(src.info.st_size) >=
                              src.offset + automatic_mmap_min_size
                   ? file_strategy::mmap_parallel
                   : file_strategy::read;
  }
  // O_DIRECT reads whole blocks at block-aligned offsets, which a regular file's offset and
  // limit need not be: such a file is mapped, by the page cache, which has no such rule (and
  // gives the same bytes). Streams and other files are read in aligned whole blocks.
  if (src.direct && regular && strategy == file_strategy::read) strategy = file_strategy::mmap;
  // Nothing to map when the size is 0 (files in /proc say 0 whatever they hold): read.
  if (strategy != file_strategy::read && strategy != file_strategy::stream &&
      (!regular || static_cast<std::uint64_t>(src.info.st_size) <= src.offset)) {
    strategy = file_strategy::read;
  }
  if (strategy == file_strategy::mmap_parallel && !threads) strategy = file_strategy::mmap;
  std::error_code ec;
  try {
    if (strategy == file_strategy::read || strategy == file_strategy::stream) {
      ec = hash_by_reading(h, src, options, threads);
    } else {
      ec = hash_by_mapping(h, src, options, strategy == file_strategy::mmap_parallel,
                           automatic && threads, automatic && threads && !src.direct);
      // A file system that cannot map files can still be read (and so can a file whose
      // mapping could not be guarded).
      if (ec == std::errc::no_such_device) ec = hash_by_reading(h, src, options, threads);
    }
  } catch (const std::bad_alloc&) {
    ec = std::make_error_code(std::errc::not_enough_memory);
  } catch (const std::system_error& e) {
    ec = e.code();
  } catch (...) {
    ec = std::make_error_code(std::errc::io_error);
  }
  return ec;
}

namespace {

// Never onto descriptors 0, 1 or 2, where a program closed them: the file would take the
// place of a standard stream the program still writes to or reads from.
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

}  // namespace

std::error_code hash_path(file_sink& h, const std::filesystem::path& path,
                          const file_options& options, bool threads) {
  const int fd = open_for_reading(path);
  if (fd < 0) return errno_code();
  const std::error_code ec = hash_fd(h, fd, options, threads, true);
  ::close(fd);
  return ec;
}

// GCC 12 warns falsely (-Wrestrict) about chains of std::string operator+: appends instead.
void throw_file_error(const std::error_code& ec, std::string_view family, std::string_view what) {
  std::string message(family);
  message.append(": ").append(what);
  throw std::system_error(ec, message);
}

std::string quoted(const std::filesystem::path& path) {
  std::string s = "'";
  s.append(path.native());
  s.push_back('\'');
  return s;
}

std::string descriptor_name(int fd) {
  std::string name = "descriptor ";
  name.append(std::to_string(fd));
  return name;
}

void hash_files(std::span<const std::filesystem::path> paths, const file_options& options,
                std::span<std::error_code> errors, const hash_one_file& hash_one) {
  thread_pool* pool = pool_of(options);
  std::mutex progress_mutex;
  file_options per_file = options;
  if (options.progress) {
    per_file.progress = [&](std::uint64_t done, std::uint64_t total) {
      std::lock_guard lock(progress_mutex);
      return options.progress(done, total);
    };
  }
  // Every file is opened on whichever thread takes it (a divide-and-conquer over the list, so
  // that the pool balances it) and hashed there, except large ones: those are put aside and
  // hashed afterwards one at a time, each across every thread.
  constexpr std::uint64_t large = 4u << 20;
  std::vector<char> deferred(paths.size(), 0);
  const auto hash_small = [&](std::size_t i) {
    const int fd = open_for_reading(paths[i]);
    if (fd < 0) {
      errors[i] = errno_code();
      return;
    }
    struct stat info;
    if (fstat(fd, &info) != 0) {
      errors[i] = errno_code();
    } else if (S_ISREG(info.st_mode) && static_cast<std::uint64_t>(info.st_size) >= large &&
               pool != nullptr && pool->size() > 1) {
      deferred[i] = 1;
    } else {
      errors[i] = hash_one(i, fd, info, per_file, false);
    }
    ::close(fd);
  };
  const std::function<void(std::size_t, std::size_t)> spread = [&](std::size_t from,
                                                                   std::size_t to) {
    if (to - from <= 4 || pool == nullptr || pool->size() == 1) {
      for (std::size_t i = from; i < to; ++i) hash_small(i);
      return;
    }
    const std::size_t middle = from + (to - from) / 2;
    pool->join([&] { spread(from, middle); }, [&] { spread(middle, to); });
  };
  spread(0, paths.size());
  for (std::size_t i = 0; i < paths.size(); ++i) {
    if (deferred[i] == 0) continue;
    const int fd = open_for_reading(paths[i]);
    struct stat info;
    if (fd < 0) {
      errors[i] = errno_code();
      continue;
    }
    errors[i] = fstat(fd, &info) != 0 ? errno_code() : hash_one(i, fd, info, per_file, true);
    ::close(fd);
  }
}

}  // namespace fastblake::internal

namespace fastblake {

const std::error_category& file_category() noexcept {
  static const internal::file_error_category category;
  return category;
}

}  // namespace fastblake
