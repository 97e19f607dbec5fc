// The thread pool: fork-join results, recursion, several joining threads, exceptions, the
// FASTBLAKE_THREADS default, and clean shutdown.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <mutex>
#include <set>
#include <stdexcept>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include <fastblake/thread_pool.hpp>

#include "os_support.hpp"

namespace fastblake::test {
namespace {

// Sums lo..hi-1 by recursive halving, forking every split: many small tasks, deep joins.
std::uint64_t forked_sum(thread_pool& pool, std::uint64_t lo, std::uint64_t hi) {
  if (hi - lo <= 8) {
    std::uint64_t s = 0;
    for (std::uint64_t i = lo; i < hi; ++i) s += i;
    return s;
  }
  const std::uint64_t mid = lo + (hi - lo) / 2;
  std::uint64_t left = 0, right = 0;
  pool.join([&] { left = forked_sum(pool, lo, mid); }, [&] { right = forked_sum(pool, mid, hi); });
  return left + right;
}

TEST(ThreadPool, SizeCountsTheJoiningThread) {
  for (std::size_t n : {1, 2, 3, 8}) EXPECT_EQ(thread_pool(n).size(), n);
  EXPECT_EQ(thread_pool(0).size(), thread_pool::default_threads());
}

TEST(ThreadPool, PoolOfOneRunsBothSidesOnTheCaller) {
  thread_pool pool(1);
  std::thread::id a, b;
  pool.join([&] { a = std::this_thread::get_id(); }, [&] { b = std::this_thread::get_id(); });
  EXPECT_EQ(a, std::this_thread::get_id());
  EXPECT_EQ(b, std::this_thread::get_id());
}

TEST(ThreadPool, RecursiveJoinsGiveTheSerialResult) {
  for (std::size_t threads = 1; threads <= 16; ++threads) {
    thread_pool pool(threads);
    for (std::uint64_t n : {0, 1, 9, 1000, 100'003}) {
      SCOPED_TRACE("threads " + std::to_string(threads) + ", n " + std::to_string(n));
      EXPECT_EQ(forked_sum(pool, 0, n), n * (n == 0 ? 0 : n - 1) / 2);
    }
  }
}

TEST(ThreadPool, OtherThreadsTakeOfferedWork) {
  thread_pool pool(4);
  std::mutex mutex;
  std::set<std::thread::id> seen;
  // Each side waits (up to a generous deadline) for the other to start, which can only
  // happen if a worker took the offered side.
  std::atomic<int> started{0};
  const auto side = [&] {
    {
      std::lock_guard lock(mutex);
      seen.insert(std::this_thread::get_id());
    }
    ++started;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (started.load() < 2 && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::yield();
    }
  };
  pool.join(side, side);
  EXPECT_EQ(started.load(), 2);
  EXPECT_EQ(seen.size(), 2u);
}

TEST(ThreadPool, SeveralThreadsJoinOnOnePoolAtOnce) {
  thread_pool pool(3);
  std::vector<std::thread> callers;
  std::atomic<int> wrong{0};
  for (int c = 0; c < 6; ++c) {
    callers.emplace_back([&, c] {
      for (int round = 0; round < 20; ++round) {
        const std::uint64_t n = 5000 + 97 * static_cast<std::uint64_t>(c) + round;
        if (forked_sum(pool, 0, n) != n * (n - 1) / 2) ++wrong;
      }
    });
  }
  for (auto& t : callers) t.join();
  EXPECT_EQ(wrong.load(), 0);
}

TEST(ThreadPool, ExceptionsReachTheJoiningThreadAfterBothSidesFinish) {
  for (std::size_t threads : {1, 2, 4}) {
    SCOPED_TRACE("threads " + std::to_string(threads));
    thread_pool pool(threads);
    std::atomic<bool> other_done{false};
    EXPECT_THROW(pool.join([] { throw std::runtime_error("a"); }, [&] { other_done = true; }),
                 std::runtime_error);
    EXPECT_TRUE(other_done.load());

    other_done = false;
    try {
      pool.join([&] { other_done = true; }, [] { throw std::invalid_argument("b"); });
      ADD_FAILURE() << "no exception";
    } catch (const std::invalid_argument& e) {
      EXPECT_STREQ(e.what(), "b");
    }
    EXPECT_TRUE(other_done.load());

    // Both throw: the joining thread's own side wins.
    try {
      pool.join([] { throw std::runtime_error("a"); }, [] { throw std::logic_error("b"); });
      ADD_FAILURE() << "no exception";
    } catch (const std::runtime_error& e) {
      EXPECT_STREQ(e.what(), "a");
    }
    // The pool still works.
    EXPECT_EQ(forked_sum(pool, 0, 1000), 499500u);
  }
}

class ThreadsEnvironment : public ::testing::Test {
 protected:
  void SetUp() override {
    if (const char* old = std::getenv("FASTBLAKE_THREADS")) saved_ = old;
  }
  void TearDown() override {
    if (saved_.empty()) {
      unset_environment("FASTBLAKE_THREADS");
    } else {
      set_environment("FASTBLAKE_THREADS", saved_.c_str());
    }
  }
  std::string saved_;
};

TEST_F(ThreadsEnvironment, OverridesTheDefaultThreadCount) {
  const std::size_t hardware = std::max(1u, std::thread::hardware_concurrency());
  set_environment("FASTBLAKE_THREADS", "3");
  EXPECT_EQ(thread_pool::default_threads(), 3u);
  set_environment("FASTBLAKE_THREADS", "1024");
  EXPECT_EQ(thread_pool::default_threads(), 1024u);
  for (const char* bad : {"", "0", "-2", "1025", "two", "4x", " 4", "99999999999999999999"}) {
    SCOPED_TRACE(std::string("FASTBLAKE_THREADS=") + bad);
    set_environment("FASTBLAKE_THREADS", bad);
    EXPECT_EQ(thread_pool::default_threads(), hardware);
  }
  unset_environment("FASTBLAKE_THREADS");
  EXPECT_EQ(thread_pool::default_threads(), hardware);
}

TEST(ThreadPool, DefaultPoolIsOneLazyInstance) {
  thread_pool& a = thread_pool::default_pool();
  thread_pool& b = thread_pool::default_pool();
  EXPECT_EQ(&a, &b);
  EXPECT_GE(a.size(), 1u);
  EXPECT_EQ(forked_sum(a, 0, 10'000), 49'995'000u);
}

TEST(ThreadPool, StartsAndStopsCleanly) {
  for (int i = 0; i < 50; ++i) {
    thread_pool pool(1 + static_cast<std::size_t>(i % 8));
    if (i % 2 == 0) {
      EXPECT_EQ(forked_sum(pool, 0, 100), 4950u);
    }
  }
}

TEST(ThreadPool, TooManyThreadsIsASystemError) {
  for (const std::size_t n :
       {thread_pool::max_threads + 1, std::numeric_limits<std::size_t>::max() / 2,
        std::numeric_limits<std::size_t>::max()}) {
    try {
      thread_pool pool(n);
      ADD_FAILURE() << n << " threads were started";
    } catch (const std::system_error& e) {
      EXPECT_EQ(e.code(), std::errc::invalid_argument) << n;
    }
  }
}

}  // namespace
}  // namespace fastblake::test
