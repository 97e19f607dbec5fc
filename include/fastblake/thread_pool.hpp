// A fixed set of worker threads for fork-join parallelism, as the BLAKE3 tree needs it: split
// the input in two, hash both halves at once, merge.
#pragma once

#include <fastblake/detail/require_cxx20.hpp>

#include <atomic>
#include <cstddef>
#include <exception>
#include <memory>
#include <type_traits>

#include <fastblake/config.hpp>

namespace fastblake {

namespace detail {

// The half of a fork-join offered to other threads. It lives on the forking thread's stack
// until join() returns; the pool links it into its queue without allocating.
struct pool_task {
  pool_task(void (*run_fn)(void*), void* context_) noexcept : run(run_fn), context(context_) {}

  void (*run)(void* context);
  void* context;
  pool_task* prev = nullptr;
  pool_task* next = nullptr;
  bool queued = false;            // in the queue; guarded by the pool's mutex
  std::atomic<bool> done{false};  // taken by another thread and finished
  std::exception_ptr error;
};

template <class F>
void* erase_callable(F& f) noexcept {
  return const_cast<void*>(static_cast<const void*>(std::addressof(f)));
}

template <class F>
void call_erased(void* f) {
  (*static_cast<std::remove_reference_t<F>*>(f))();
}

}  // namespace detail

/// A pool of `size()` threads: size() - 1 workers started by the constructor, and whichever
/// thread calls join(), which works alongside them until its join is done. A pool of one
/// runs everything on the calling thread.
///
/// Several threads may call join() on one pool at once, and tasks may join recursively. Work
/// offered by join() is taken oldest first (the largest halves of a recursive split), and a
/// thread waiting for its other half runs queued work meanwhile, so every thread stays busy
/// while there is any. join() never allocates (but the first in a child of fork(), below). The
/// destructor stops and joins the workers;
/// no join() may be running then.
///
/// A pool is fork-safe: the child of a fork() has none of the parent's threads, so a pool it
/// inherited starts workers of its own at its first join() there (and, until the system gives
/// it threads, runs both halves on the calling thread); the parent's pool goes on unchanged.
class FASTBLAKE_API thread_pool {
 public:
  /// The most threads a pool takes.
  static constexpr std::size_t max_threads = 4096;

  /// Starts threads - 1 workers (threads == 0 means default_threads()). Throws
  /// std::system_error: std::errc::invalid_argument for more than max_threads, else the
  /// system's error if it refuses a thread.
  explicit thread_pool(std::size_t threads = default_threads());
  ~thread_pool();
  thread_pool(const thread_pool&) = delete;
  thread_pool& operator=(const thread_pool&) = delete;

  /// The threads that can work at once: the workers and the caller of join().
  std::size_t size() const noexcept;

  /// How many threads are asleep waiting for work right now (a hint that may change at once).
  /// Handing work to a sleeping worker costs the joining thread a system call, ~2.5 us.
  std::size_t sleeping() const noexcept;

  /// Runs a() on this thread and b() on this or another thread of the pool, and returns when
  /// both are done. If either throws, the exception is rethrown here once both are done (a's
  /// if both throw). Workers never let an exception escape.
  template <class A, class B>
  void join(A&& a, B&& b) {
    detail::pool_task task{&detail::call_erased<B>, detail::erase_callable(b)};
    fork_join(task, &detail::call_erased<A>, detail::erase_callable(a));
  }

  /// The environment variable FASTBLAKE_THREADS when it holds a number from 1 to 1024, else
  /// the number of hardware threads (at least 1).
  static std::size_t default_threads() noexcept;

  /// The process-wide pool behind the automatic parallel paths, with default_threads()
  /// threads, created on first use; with fewer (halved until the system gives them, down to the
  /// calling thread alone) where the system refuses threads, as under a small RLIMIT_AS.
  /// Throws std::bad_alloc only, where not even that can be made.
  static thread_pool& default_pool();

 private:
  void fork_join(detail::pool_task& offered, void (*run_here)(void*), void* context);

  struct shared;
  shared* restart_after_fork() noexcept;

  // Owned; replaced in a child of fork() (thread_pool.cpp).
  std::atomic<shared*> shared_{nullptr};
  std::size_t size_;
};

}  // namespace fastblake
