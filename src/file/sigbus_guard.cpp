// The SIGBUS guard for mapped files (sigbus_guard.hpp).
#include "file/sigbus_guard.hpp"

#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <mutex>

namespace fastblake::internal {
namespace {

// Mappings being hashed, for the signal handler.
constexpr std::size_t max_guarded_ranges = 256;
guarded_range guarded[max_guarded_ranges];
struct sigaction previous_sigbus {};

void on_sigbus(int signal, siginfo_t* info, void* context) {
  const auto address = reinterpret_cast<std::uintptr_t>(info->si_addr);
  const auto page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
  for (guarded_range& r : guarded) {
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
    break;
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

void install_sigbus_handler() {
  static std::once_flag once;
  std::call_once(once, [] {
    struct sigaction action {};
    action.sa_sigaction = on_sigbus;
    action.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigemptyset(&action.sa_mask);
    sigaction(SIGBUS, &action, &previous_sigbus);
  });
}

}  // namespace

sigbus_guard::sigbus_guard(const void* data, std::size_t size) {
  install_sigbus_handler();
  const auto begin = reinterpret_cast<std::uintptr_t>(data);
  for (guarded_range& r : guarded) {
    std::uintptr_t expected = 0;
    if (r.begin.compare_exchange_strong(expected, begin)) {
      r.faulted.store(false);
      r.end.store(begin + size);
      range_ = &r;
      return;
    }
  }
}

}  // namespace fastblake::internal
