// Mapped views on POSIX systems (os/file.hpp): mmap, the SIGBUS guard, and read-ahead.
//
// The SIGBUS guard: a file that shrinks under its mapping makes the next load past its new end
// fault with SIGBUS, which would end the process. A fault in a guarded view maps zeros over the
// rest of the view instead, so that hashing runs to its end, and marks the view faulted. (A
// shrink that leaves part of the last page is no fault at all: the kernel shows the rest of that
// page as zeros. The guard cannot see it; the file code compares the file's size afterwards.)
#include "os/file.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <limits>
#include <mutex>

#include "os/fork_safe_mutex.hpp"
#include "os/guard_table.hpp"

namespace fastblake::internal::os {
namespace {

struct sigaction previous_sigbus {};

void on_sigbus(int signal, siginfo_t* info, void* context) {
  const auto address = reinterpret_cast<std::uintptr_t>(info->si_addr);
  if (guard_slot* slot = guard_slot_at(address)) {
    // The file ends before this page now: map zeros from here to the end of the view, so that
    // hashing runs to completion (and fails), then return to retry the faulting load.
    const auto page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
    const std::uintptr_t from = address & ~(page - 1);
    if (mmap(reinterpret_cast<void*>(from), slot->end.load() - from, PROT_READ,
             MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) != MAP_FAILED) {
      slot->state.store(guard_slot::zeros);
      return;
    }
    // Cannot be mended: as if it were not ours.
  }
  // Not a mapping of ours: whatever handled SIGBUS before.
  if ((previous_sigbus.sa_flags & SA_SIGINFO) != 0) {
    previous_sigbus.sa_sigaction(signal, info, context);
  } else if (previous_sigbus.sa_handler != SIG_DFL && previous_sigbus.sa_handler != SIG_IGN) {
    previous_sigbus.sa_handler(signal);
  } else {
    // Restore the default action; returning re-executes the faulting load, which then ends
    // the process as it would have without us.
    ::signal(SIGBUS, SIG_DFL);
  }
}

// Once, under a fork_safe_mutex rather than std::call_once, whose flag a fork() could leave
// a child held by a thread it does not have.
std::atomic<bool> handler_installed{false};
fork_safe_mutex installing;

void install_sigbus_handler() noexcept {
  if (handler_installed.load(std::memory_order_acquire)) return;
  const std::lock_guard lock(installing);
  if (handler_installed.load(std::memory_order_relaxed)) return;
  struct sigaction action {};
  action.sa_sigaction = on_sigbus;
  action.sa_flags = SA_SIGINFO | SA_NODEFER;
  sigemptyset(&action.sa_mask);
  sigaction(SIGBUS, &action, &previous_sigbus);
  handler_installed.store(true, std::memory_order_release);
}

// Whether the page at `at` is in the page cache. mincore's vector is of unsigned char on Linux,
// of char on macOS and the BSDs: the types are taken from the function given.
template <class Address, class Vector>
bool page_cached(int (*mincore_call)(Address, std::size_t, Vector*), const std::byte* at,
                 std::size_t page) noexcept {
  Vector state{};
  return mincore_call(const_cast<std::byte*>(at), page, &state) == 0 && (state & 1) != 0;
}

}  // namespace

mapped_file::~mapped_file() {
  if (guard_ != nullptr) free_guard_slot(*guard_);
  if (data_ != nullptr) {
    ::munmap(const_cast<std::byte*>(data_), static_cast<std::size_t>(size_));
  }
}

std::error_code mapped_file::map(int fd, std::uint64_t from, std::uint64_t size) noexcept {
  if (size > std::numeric_limits<std::size_t>::max()) {
    return std::make_error_code(std::errc::value_too_large);
  }
  void* map = ::mmap(nullptr, static_cast<std::size_t>(size), PROT_READ, MAP_SHARED, fd,
                     static_cast<off_t>(from));
  // No address space for the mapping (a limit on it, RLIMIT_AS, as batch schedulers set): read
  // instead, as from a file system that cannot map.
  if (map == MAP_FAILED && errno == ENOMEM) return std::make_error_code(std::errc::no_such_device);
  if (map == MAP_FAILED) return {errno, std::generic_category()};
  fd_ = fd;
  data_ = static_cast<const std::byte*>(map);
  from_ = from;
  size_ = size;
  requested_ = from;
  install_sigbus_handler();
  const auto begin = reinterpret_cast<std::uintptr_t>(map);
  guard_ = take_guard_slot(begin, begin + static_cast<std::uintptr_t>(size));
  // No memory left for the guard's table: read instead, as from a file system that cannot map.
  if (guard_ == nullptr) return std::make_error_code(std::errc::no_such_device);
  return {};
}

const std::byte* mapped_file::window(std::uint64_t at, std::uint64_t, std::uint64_t) noexcept {
  return data_ + (at - from_);
}

bool mapped_file::faulted() const noexcept {
  return guard_ != nullptr && guard_->state.load() != guard_slot::mapped;
}

void mapped_file::read_sequentially() noexcept {
  ::madvise(const_cast<std::byte*>(data_), static_cast<std::size_t>(size_), MADV_SEQUENTIAL);
}

void mapped_file::release(const std::byte* from, std::size_t size) noexcept {
  const auto page = static_cast<std::uintptr_t>(mapping_alignment());
  const auto* start =
      reinterpret_cast<const std::byte*>(reinterpret_cast<std::uintptr_t>(from) & ~(page - 1));
  ::madvise(const_cast<std::byte*>(start), static_cast<std::size_t>(from + size - start),
            MADV_DONTNEED);
}

// The requests go in pieces of 128 KiB, the kernel's usual default read-ahead size: it reads no
// more than a device's read-ahead size of one request. A block of 2 MiB whose first page is
// cached (a warm file) costs one mincore() and no requests; asking about every page took 180 us
// per 16 MiB window, 5% of hashing a cached file.
void mapped_file::read_ahead(std::uint64_t from, std::uint64_t to) noexcept {
  constexpr std::uint64_t block = 2u << 20;
  constexpr std::uint64_t piece = 128u << 10;
  const std::uint64_t page = mapping_alignment();
  from = std::max(from, requested_) / page * page;
  to = std::min(to, from_ + size_);
  for (std::uint64_t at = from; at < to; at += block) {
    if (page_cached(::mincore, data_ + (at - from_), static_cast<std::size_t>(page))) {
      continue;
    }
    for (std::uint64_t p = at; p < std::min(to, at + block); p += piece) {
      const std::uint64_t n = std::min(piece, to - p);
#if defined(__APPLE__)
      radvisory advice{};
      advice.ra_offset = static_cast<off_t>(p);
      advice.ra_count = static_cast<int>(n);
      ::fcntl(fd_, F_RDADVISE, &advice);
#else
      ::posix_fadvise(fd_, static_cast<off_t>(p), static_cast<off_t>(n), POSIX_FADV_WILLNEED);
#endif
    }
  }
  requested_ = std::max(requested_, to);
}

}  // namespace fastblake::internal::os
