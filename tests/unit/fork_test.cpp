// fork() while other threads hash: the child has only the thread that forked, so the pools,
// locks and guards it inherited must not wait for threads it does not have. Children forked at
// random moments hash on the default pool, on a pool of their own, and a file, and exit both
// ways (with and without the static destructors); none may hang or give a wrong digest.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include <fastblake/blake3.hpp>
#include <fastblake/file.hpp>
#include <fastblake/thread_pool.hpp>

#include "scratch_dir.hpp"
#include "test_support.hpp"

// AddressSanitizer's allocator (GCC 12's) is not fork-safe: a child forked while another thread
// held one of its size classes' locks hangs in its first allocation of that class (seen: 2 runs
// in 8, a gdb backtrace in __sanitizer::SizeClassAllocator64::GetFromAllocator). glibc's malloc,
// which every other build uses, takes its locks around fork(). So under ASan these tests skip.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool allocator_forks_safely = false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool allocator_forks_safely = false;
#else
constexpr bool allocator_forks_safely = true;
#endif
#else
constexpr bool allocator_forks_safely = true;
#endif

// Nor is qemu-user (Debian 12's 7.2): a child forked while other threads ran, which starts
// threads of its own, aborts in qemu's code ("cpu_exec: assertion failed: (cpu == current_cpu)").
// The cross builds' tests run under it (either variable; one a platform).
namespace {
bool under_an_emulator() {
  return std::getenv("FASTBLAKE_TEST_EMULATED") != nullptr ||
         std::getenv("FASTBLAKE_TEST_NO_MAPPED_SIGBUS") != nullptr;
}
}  // namespace

// A child of fork() holds memory that the parent's other threads were using when it forked
// (their stacks, which pointed to it, are not the child's): where the build has LeakSanitizer,
// it would report that memory at a child's exit(). Off in the children alone.
namespace {
bool forked_child = false;
}  // namespace
extern "C" int __lsan_is_turned_off() { return forked_child ? 1 : 0; }

namespace fastblake::test {
namespace {

namespace b3 = fastblake::blake3;
namespace fs = std::filesystem;

// How a child ended: its exit status, or -1 if it was still running after a minute (a hang;
// it is killed) or died of a signal.
int wait_for_child(pid_t child) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(1);
  for (;;) {
    int status = 0;
    const pid_t done = ::waitpid(child, &status, WNOHANG);
    if (done == child) return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    if (std::chrono::steady_clock::now() > deadline) {
      ::kill(child, SIGKILL);
      ::waitpid(child, &status, 0);
      return -1;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
}

class ForkSafety : public scratch_dir_test {};

TEST_F(ForkSafety, ChildrenForkedWhileThreadsHashHashOnPoolsOfTheirOwn) {
  if (!allocator_forks_safely) GTEST_SKIP() << "AddressSanitizer's allocator hangs forked children";
  if (under_an_emulator()) GTEST_SKIP() << "qemu-user aborts in forked children that start threads";
  random_source rng(test_seed() + 70);
  const std::vector<std::byte> data = rng.bytes((6u << 20) + 5);
  const b3::digest want = b3::hash(data);
  const fs::path file = write("forked", data);
  thread_pool own(3);
  std::atomic<bool> stop{false};
  std::atomic<int> wrong{0};
  // Two threads keep the default pool, a pool of their own and the file code busy, so that
  // forks land while their locks are held and their queues hold work.
  std::vector<std::thread> busy;
  busy.emplace_back([&] {
    while (!stop) wrong += b3::hash(data) != want;
  });
  busy.emplace_back([&] {
    while (!stop) {
      wrong += b3::hasher().update_parallel(data, own).finalize() != want;
      wrong += b3::hash_file(file) != want;
    }
  });
  constexpr int children = 40;
  int hung = 0;
  int failed = 0;
  for (int i = 0; i < children; ++i) {
    std::this_thread::sleep_for(std::chrono::microseconds(rng.below(3000)));
    std::fflush(nullptr);  // (or a child's exit() writes the parent's buffers again)
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      forked_child = true;
      // A quarter leave at once through exit(): the default pool they inherited, unused here,
      // is destroyed with the parent's workers in it, which the child does not have.
      if (i % 4 == 1) std::exit(0);
      // The child: the default pool, the inherited pool, a new one, and the file.
      thread_pool fresh(2);
      const bool ok = b3::hash(data) == want &&
                      b3::hasher().update_parallel(data, own).finalize() == want &&
                      b3::hasher().update_parallel(data, fresh).finalize() == want &&
                      b3::hash_file(file) == want;
      // Half leave through exit(), which destroys the default pool the child restarted.
      if (i % 2 == 0) std::exit(ok ? 0 : 1);
      ::_exit(ok ? 0 : 1);
    }
    const int status = wait_for_child(child);
    hung += status == -1;
    failed += status > 0;
  }
  stop = true;
  for (std::thread& t : busy) t.join();
  EXPECT_EQ(hung, 0) << "children that hung or died, of " << children;
  EXPECT_EQ(failed, 0) << "children with a wrong digest, of " << children;
  EXPECT_EQ(wrong, 0) << "wrong digests in the parent";
  // And the parent's pools go on.
  EXPECT_EQ(b3::hasher().update_parallel(data, own).finalize(), want);
}

// A child of a child: the second fork finds the first child's restarted pools, and restarts
// them again.
TEST_F(ForkSafety, GrandchildrenToo) {
  if (!allocator_forks_safely) GTEST_SKIP() << "AddressSanitizer's allocator hangs forked children";
  if (under_an_emulator()) GTEST_SKIP() << "qemu-user aborts in forked children that start threads";
  const std::vector<std::byte> data = random_source(test_seed() + 71).bytes(3u << 20);
  const b3::digest want = b3::hash(data);
  thread_pool own(2);
  ASSERT_EQ(b3::hasher().update_parallel(data, own).finalize(), want);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    bool ok = b3::hasher().update_parallel(data, own).finalize() == want;
    const pid_t grandchild = ::fork();
    if (grandchild == 0) {
      ::_exit(b3::hasher().update_parallel(data, own).finalize() == want && b3::hash(data) == want
                  ? 0
                  : 1);
    }
    ok = ok && grandchild > 0 && wait_for_child(grandchild) == 0;
    ok = ok && b3::hasher().update_parallel(data, own).finalize() == want;
    ::_exit(ok ? 0 : 1);
  }
  EXPECT_EQ(wait_for_child(child), 0);
}

}  // namespace
}  // namespace fastblake::test
