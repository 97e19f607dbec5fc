// The library's process-wide locks, made safe across fork(): the child of a fork has only the
// thread that called it, so a lock another thread held at that moment would stay held in the
// child for ever, and the child's first use of it would hang. Every fork_safe_mutex is taken
// just before fork() (pthread_atfork's prepare) and released on both sides after it, so the
// child inherits each one free and the state it guards whole.
//
// Only for leaf locks, held briefly and never while taking another of them or calling out, so
// that the prepare handler may take them all in any order.
#pragma once

#include <mutex>

namespace fastblake::internal {

class fork_safe_mutex {
 public:
  fork_safe_mutex() noexcept;  // registers with the fork handlers for good
  fork_safe_mutex(const fork_safe_mutex&) = delete;
  fork_safe_mutex& operator=(const fork_safe_mutex&) = delete;
  ~fork_safe_mutex() = default;  // only static ones are made: never unregistered

  void lock() { mutex_.lock(); }
  bool try_lock() noexcept { return mutex_.try_lock(); }
  void unlock() noexcept { mutex_.unlock(); }

 private:
  friend struct fork_handlers;
  std::mutex mutex_;
  fork_safe_mutex* next_ = nullptr;
};

}  // namespace fastblake::internal
