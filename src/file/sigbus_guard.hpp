// The SIGBUS guard for mapped files (sigbus_guard.cpp): a file that shrinks under its mapping
// makes the next load past its new end fault with SIGBUS, which would end the process. While a
// guard lives, a fault in its range maps zeros over the rest of the mapping instead, so that
// hashing runs to its end and the guard reports the fault (the caller then fails with
// file_errc::truncated). Faults elsewhere go to whatever handled SIGBUS before.
//
// A shrink that leaves part of the last page is no fault at all: the kernel shows the rest of
// that page as zeros. The guard cannot see it; the caller compares the file's size afterwards.
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

/// Registers [data, data + size) with the handler for its lifetime. The table grows with the
/// mappings hashed at once, without limit; only when memory for it runs out is a guard
/// inactive (active() false), and the caller must then read the file instead of mapping it.
class sigbus_guard {
 public:
  sigbus_guard(const void* data, std::size_t size) noexcept;
  ~sigbus_guard() {
    if (range_ != nullptr) {
      range_->end.store(0);
      range_->begin.store(0);
    }
  }
  sigbus_guard(const sigbus_guard&) = delete;
  sigbus_guard& operator=(const sigbus_guard&) = delete;

  bool active() const noexcept { return range_ != nullptr; }
  bool faulted() const noexcept { return range_ != nullptr && range_->faulted.load(); }

 private:
  guarded_range* range_ = nullptr;
};

}  // namespace fastblake::internal
