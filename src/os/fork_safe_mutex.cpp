// The fork handlers of the library's process-wide locks (fork_safe_mutex.hpp).
#include "os/fork_safe_mutex.hpp"

#include <atomic>

#include "os/process.hpp"

namespace fastblake::internal {

struct fork_handlers {
  // The registered locks, newest first; `registering` guards the list (a spin lock, as it is
  // taken while static objects are being made, possibly before any std::mutex may be).
  static inline std::atomic<fork_safe_mutex*> newest{nullptr};
  static inline std::atomic_flag registering = ATOMIC_FLAG_INIT;

  static void lock_list() noexcept {
    while (registering.test_and_set(std::memory_order_acquire)) {
    }
  }
  static void unlock_list() noexcept { registering.clear(std::memory_order_release); }

  static void prepare() noexcept {
    lock_list();
    for (fork_safe_mutex* m = newest.load(); m != nullptr; m = m->next_) m->mutex_.lock();
  }
  static void after() noexcept {
    for (fork_safe_mutex* m = newest.load(); m != nullptr; m = m->next_) m->mutex_.unlock();
    unlock_list();
  }

  static void add(fork_safe_mutex& m) noexcept {
    static const bool installed = (os::at_fork(prepare, after, after), true);
    (void)installed;
    lock_list();
    m.next_ = newest.load();
    newest.store(&m);
    unlock_list();
  }
};

fork_safe_mutex::fork_safe_mutex() noexcept { fork_handlers::add(*this); }

}  // namespace fastblake::internal
