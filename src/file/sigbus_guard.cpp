// The SIGBUS guard for mapped files (sigbus_guard.hpp).
#include "file/sigbus_guard.hpp"

#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <mutex>
#include <new>

#include "common/fork_safe_mutex.hpp"

namespace fastblake::internal {
namespace {

// The mappings being hashed, for the signal handler: a list of blocks of slots that only ever
// grows (a block is never freed, so the handler can walk the list at any moment without a
// lock), one block more each time every slot is busy.
struct guard_block {
  static constexpr std::size_t slots = 64;
  guarded_range ranges[slots];
  std::atomic<guard_block*> next{nullptr};
};
guard_block first_block;
struct sigaction previous_sigbus {};

void on_sigbus(int signal, siginfo_t* info, void* context) {
  const auto address = reinterpret_cast<std::uintptr_t>(info->si_addr);
  const auto page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
  for (guard_block* block = &first_block; block != nullptr; block = block->next.load()) {
    for (guarded_range& r : block->ranges) {
      const std::uintptr_t begin = r.begin.load();
      const std::uintptr_t end = r.end.load();
      if (address < begin || address >= end) continue;
      // The file ends before this page now: map zeros from here to the end of the mapping, so
      // that hashing runs to completion (and fails), then return to retry the faulting load.
      const std::uintptr_t from = address & ~(page - 1);
      if (mmap(reinterpret_cast<void*>(from), end - from, PROT_READ,
               MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) != MAP_FAILED) {
        r.faulted.store(true);
        return;
      }
      block = nullptr;  // cannot be mended: as if it were not ours
      break;
    }
    if (block == nullptr) break;
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

// A free slot of `block` taken for [begin, end), or nullptr.
guarded_range* take_slot(guard_block& block, std::uintptr_t begin, std::uintptr_t end) noexcept {
  for (guarded_range& r : block.ranges) {
    std::uintptr_t expected = 0;
    if (r.begin.compare_exchange_strong(expected, begin)) {
      r.faulted.store(false);
      r.end.store(end);
      return &r;
    }
  }
  return nullptr;
}

}  // namespace

sigbus_guard::sigbus_guard(const void* data, std::size_t size) noexcept {
  install_sigbus_handler();
  const auto begin = reinterpret_cast<std::uintptr_t>(data);
  for (guard_block* block = &first_block;;) {
    range_ = take_slot(*block, begin, begin + size);
    if (range_ != nullptr) return;
    guard_block* next = block->next.load();
    if (next == nullptr) {
      auto* added = new (std::nothrow) guard_block;
      if (added == nullptr) return;
      // Another thread may have added one meanwhile: then that one is next, and ours goes.
      if (!block->next.compare_exchange_strong(next, added)) {
        delete added;
      } else {
        next = added;
      }
    }
    block = next;
  }
}

}  // namespace fastblake::internal
