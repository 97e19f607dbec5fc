#include <fastblake/thread_pool.hpp>

#include "common/automatic_pool.hpp"
#include "os/fork_safe_mutex.hpp"
#include "os/process.hpp"

#include <algorithm>
#include <atomic>
#include <charconv>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#if defined(__x86_64__) || defined(__i386__) || defined(_M_X64)
#include <immintrin.h>
#endif

namespace fastblake {

using detail::pool_task;

namespace {

// Spins before sleeping: waking a thread that sleeps on a condition variable takes tens of
// microseconds, as long as hashing a hundred kilobytes, so an idle thread watches for work
// for a while first (measured: docs/benchmarks.md, "Threads").
constexpr auto spin_before_sleep = std::chrono::microseconds(100);

void cpu_relax() noexcept {
#if defined(__x86_64__) || defined(__i386__) || defined(_M_X64)
  _mm_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#else
  std::this_thread::yield();
#endif
}

// Spins until ready() or spin_before_sleep has passed; returns ready().
template <class Ready>
bool spin_until(const Ready& ready) {
  const auto deadline = std::chrono::steady_clock::now() + spin_before_sleep;
  for (;;) {
    for (int i = 0; i < 64; ++i) {
      if (ready()) return true;
      cpu_relax();
    }
    if (std::chrono::steady_clock::now() >= deadline) return ready();
  }
}

// fork() leaves the child only the thread that called it: every pool's workers stay behind in
// the parent, and a pool's lock may be held there by a thread the child does not have. So each
// pool's state belongs to one generation of forks, which the child counts up; a pool used in a
// later generation leaves its old state alone (leaked: its threads and locks are not the
// child's to join or take) and starts afresh (restart_after_fork). adopt_mutex serializes the
// restarts, and the making of the default pool.
std::atomic<std::uint64_t> fork_generation{0};
internal::fork_safe_mutex adopt_mutex;

[[maybe_unused]] const int fork_counted = [] {
  internal::os::at_fork(nullptr, nullptr,
                        [] { fork_generation.fetch_add(1, std::memory_order_relaxed); });
  return 0;
}();

}  // namespace

// One mutex guards the queue and every task's flags; `queued` and `sleepers` mirror what it
// guards so that spinning threads and the thread that queues work can look without it. The
// tasks are coarse (subtrees of tens of kilobytes and more), so a lock per fork costs little
// next to them. One condition variable is signalled, only when some thread sleeps, when work
// is queued or a taken task finishes; every sleeper looks for both.
struct thread_pool::shared {
  // The fork generation the workers were started in.
  std::uint64_t generation = fork_generation.load(std::memory_order_relaxed);
  // The states forks left behind in this process, a list guarded by adopt_mutex.
  static inline shared* abandoned = nullptr;
  shared* next_abandoned = nullptr;
  std::mutex mutex;
  std::condition_variable changed;
  pool_task* head = nullptr;  // oldest
  pool_task* tail = nullptr;
  std::atomic<std::size_t> queued{0};
  std::atomic<std::size_t> sleepers{0};
  std::atomic<bool> stopping{false};
  std::vector<std::thread> workers;

  void push(pool_task& t) {
    {
      std::lock_guard lock(mutex);
      t.prev = tail;
      t.next = nullptr;
      (tail != nullptr ? tail->next : head) = &t;
      tail = &t;
      t.queued = true;
      queued.fetch_add(1, std::memory_order_relaxed);
    }
    if (sleepers.load() > 0) changed.notify_one();
  }

  void unlink(pool_task& t) noexcept {
    (t.prev != nullptr ? t.prev->next : head) = t.next;
    (t.next != nullptr ? t.next->prev : tail) = t.prev;
    t.queued = false;
    queued.fetch_sub(1, std::memory_order_relaxed);
  }

  pool_task* pop_oldest() noexcept {
    pool_task* t = head;
    if (t != nullptr) unlink(*t);
    return t;
  }

  // Runs a task taken from the queue, with the lock released, and marks it done.
  void run_taken(std::unique_lock<std::mutex>& lock, pool_task& t) {
    lock.unlock();
    try {
      t.run(t.context);
    } catch (...) {
      t.error = std::current_exception();
    }
    lock.lock();
    t.done.store(true, std::memory_order_release);
    if (sleepers.load() > 0) changed.notify_all();
  }

  // Sleeps until notified; the caller has found nothing to do under the lock.
  void sleep(std::unique_lock<std::mutex>& lock) {
    sleepers.fetch_add(1);
    changed.wait(lock);
    sleepers.fetch_sub(1);
  }

  void stop() noexcept {
    {
      std::lock_guard lock(mutex);
      stopping = true;
    }
    changed.notify_all();
    for (std::thread& t : workers) t.join();
    workers.clear();
  }

  // A state with its workers started: as many of threads - 1 as the system gives when `all`
  // is false, else all of them or std::system_error.
  static std::unique_ptr<shared> started(std::size_t threads, bool all) {
    auto s = std::make_unique<shared>();
    s->workers.reserve(threads - 1);
    try {
      for (std::size_t i = 1; i < threads; ++i)
        s->workers.emplace_back([raw = s.get()] { raw->work(); });
    } catch (...) {
      if (all) {
        s->stop();
        throw;
      }
    }
    return s;
  }

  // Whether this state's workers are this process's (no fork since they started).
  bool of_this_generation() const noexcept {
    return generation == fork_generation.load(std::memory_order_acquire);
  }

  void work() {
    internal::os::run_as_batch_thread();
    for (;;) {
      spin_until([&] { return queued.load(std::memory_order_relaxed) > 0 || stopping.load(); });
      std::unique_lock lock(mutex);
      if (pool_task* t = pop_oldest()) {
        run_taken(lock, *t);
      } else if (stopping) {
        return;
      } else {
        sleep(lock);
      }
    }
  }

  // Returns once `offered`, taken by another thread, is done; runs queued work meanwhile.
  void wait_for(pool_task& offered) {
    for (;;) {
      spin_until([&] {
        return offered.done.load(std::memory_order_acquire) ||
               queued.load(std::memory_order_relaxed) > 0;
      });
      std::unique_lock lock(mutex);
      if (offered.done.load(std::memory_order_acquire)) return;
      if (pool_task* t = pop_oldest()) {
        run_taken(lock, *t);
      } else {
        sleep(lock);
      }
    }
  }
};

thread_pool::thread_pool(std::size_t threads) : size_(threads == 0 ? default_threads() : threads) {
  if (size_ > max_threads) {
    throw std::system_error(std::make_error_code(std::errc::invalid_argument),
                            "fastblake::thread_pool: " + std::to_string(size_) +
                                " threads asked for, at most " + std::to_string(max_threads));
  }
  shared_.store(shared::started(size_, true).release(), std::memory_order_release);
}

thread_pool::~thread_pool() {
  shared* s = shared_.load(std::memory_order_acquire);
  if (s == nullptr) return;
  if (s->of_this_generation()) {
    s->stop();
    delete s;
    return;
  }
  // A state from before a fork is the parent's: its workers cannot be joined here.
  const std::lock_guard lock(adopt_mutex);
  s->next_abandoned = shared::abandoned;
  shared::abandoned = s;
}

std::size_t thread_pool::size() const noexcept { return size_; }

std::size_t thread_pool::sleeping() const noexcept {
  const shared* s = shared_.load(std::memory_order_acquire);
  // After a fork, no worker is awake until the next join starts them.
  return s != nullptr && s->of_this_generation() ? s->sleepers.load() : size_ - 1;
}

// In a child of fork(): a fresh state with workers of its own, or, when the system gives no
// thread or memory now, nullptr (the caller then runs everything itself, as a pool of one).
thread_pool::shared* thread_pool::restart_after_fork() noexcept {
  const std::lock_guard lock(adopt_mutex);
  shared* s = shared_.load(std::memory_order_acquire);
  if (s != nullptr && s->of_this_generation()) return s;
  shared* fresh = nullptr;
  try {
    fresh = shared::started(size_, false).release();
  } catch (...) {
    return nullptr;
  }
  // The old state stays allocated (its threads are not ours to join), and reachable, so that
  // a leak checker sees it kept on purpose.
  if (s != nullptr) {
    s->next_abandoned = shared::abandoned;
    shared::abandoned = s;
  }
  shared_.store(fresh, std::memory_order_release);
  return fresh;
}

void thread_pool::fork_join(pool_task& offered, void (*run_here)(void*), void* context) {
  std::exception_ptr here_error;
  shared* current = nullptr;
  if (size_ > 1) {
    current = shared_.load(std::memory_order_acquire);
    if (!current->of_this_generation()) current = restart_after_fork();
  }
  if (current == nullptr) {
    // A pool of one, or one that has no workers after a fork and can start none now: both
    // halves here, one after the other.
    try {
      run_here(context);
    } catch (...) {
      here_error = std::current_exception();
    }
    try {
      offered.run(offered.context);
    } catch (...) {
      offered.error = std::current_exception();
    }
  } else {
    shared& s = *current;
    s.push(offered);
    try {
      run_here(context);
    } catch (...) {
      here_error = std::current_exception();
    }
    std::unique_lock lock(s.mutex);
    if (offered.queued) {
      // Nobody took it: run it here.
      s.unlink(offered);
      lock.unlock();
      try {
        offered.run(offered.context);
      } catch (...) {
        offered.error = std::current_exception();
      }
    } else {
      lock.unlock();
      s.wait_for(offered);
    }
  }
  if (here_error) std::rethrow_exception(here_error);
  if (offered.error) std::rethrow_exception(offered.error);
}

std::size_t thread_pool::default_threads() noexcept {
  if (const char* env = std::getenv("FASTBLAKE_THREADS")) {
    std::size_t n = 0;
    const char* end = env + std::strlen(env);
    const auto [rest, error] = std::from_chars(env, end, n);
    if (error == std::errc() && rest == end && n >= 1 && n <= 1024) return n;
  }
  return std::max(1u, std::thread::hardware_concurrency());
}

// The pool is a function's static, but made only under adopt_mutex, which fork() takes too:
// a fork while another thread was making it would leave the child the static's guard held by
// a thread it does not have, and its first default_pool() waiting on it for ever.
namespace {
// The default pool: of as many threads as the system gives, halving down to the calling
// thread alone (under a small RLIMIT_AS, or a limit on processes, threads cannot always be had;
// hashing then goes on with fewer).
thread_pool make_default_pool() {
  for (std::size_t n = thread_pool::default_threads();; n = std::max<std::size_t>(n / 2, 1)) {
    try {
      return thread_pool(n);
    } catch (const std::system_error&) {
      if (n == 1) throw;
    }
  }
}
}  // namespace

thread_pool& thread_pool::default_pool() {
  static std::atomic<thread_pool*> made{nullptr};
  if (thread_pool* p = made.load(std::memory_order_acquire)) return *p;
  const std::lock_guard lock(adopt_mutex);
  static thread_pool pool = make_default_pool();
  made.store(&pool, std::memory_order_release);
  return pool;
}

namespace internal {

// Below this size the automatic functions do not wake a sleeping pool for a lone call: the
// wake-up costs the caller ~2.5 us, 5-12% of hashing 128 KiB to 1 MiB, and on the project's
// virtual machines the woken worker rarely gets to help before the caller is done (docs/
// benchmarks.md, "Threads", the cold rows).
constexpr std::size_t wake_min_size = 4u << 20;
// Calls this close together are taken as a run of calls, which a woken pool will serve warm.
constexpr std::int64_t run_of_calls_ns = 1'000'000;

// The default pool when `bytes` bytes of work are worth spreading across threads, else none.
// A pool that cannot be created (the system refuses threads) means hashing on this thread.
thread_pool* automatic_pool(std::size_t bytes, std::size_t threshold) noexcept {
  if (bytes < threshold) return nullptr;
  static std::atomic<std::int64_t> last_call_ns{0};
  const std::int64_t now = std::chrono::duration_cast<std::chrono::nanoseconds>(
                               std::chrono::steady_clock::now().time_since_epoch())
                               .count();
  const std::int64_t previous = last_call_ns.exchange(now, std::memory_order_relaxed);
  try {
    thread_pool& pool = thread_pool::default_pool();
    if (pool.size() == 1) return nullptr;
    const bool awake = pool.sleeping() < pool.size() - 1;
    if (awake || bytes >= wake_min_size || now - previous < run_of_calls_ns) return &pool;
    return nullptr;
  } catch (...) {
    return nullptr;
  }
}

}  // namespace internal

}  // namespace fastblake
