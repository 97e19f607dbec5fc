// The SIGBUS guard for mapped files (sigbus_guard.cpp): a file that shrinks under its mapping
// makes the next load past its new end fault with SIGBUS, which would end the process. While a
// guard lives, a fault in its range maps zeros over the rest of the mapping instead, so that
// hashing runs to its end and the guard reports the fault (the caller then fails with
// file_errc::truncated). Faults elsewhere go to whatever handled SIGBUS before.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace fastblake::internal {

/// A slot of the handler's table of guarded mappings: atomics, no locks.
struct guarded_range {
  std::atomic<std::uintptr_t> begin{0};
  std::atomic<std::uintptr_t> end{0};
  std::atomic<bool> faulted{false};
};

/// Registers [data, data + size) with the handler for its lifetime (unguarded when all slots
/// are busy, as mmap is without it).
class sigbus_guard {
 public:
  sigbus_guard(const void* data, std::size_t size);
  ~sigbus_guard() {
    if (range_ != nullptr) {
      range_->end.store(0);
      range_->begin.store(0);
    }
  }
  sigbus_guard(const sigbus_guard&) = delete;
  sigbus_guard& operator=(const sigbus_guard&) = delete;

  bool faulted() const noexcept { return range_ != nullptr && range_->faulted.load(); }

 private:
  guarded_range* range_ = nullptr;
};

}  // namespace fastblake::internal
