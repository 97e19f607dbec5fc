// File hashing under hostile conditions: a file that shrinks by any amount at any moment, by
// every strategy and both families, ends in file_errc::truncated or in the digest of a state
// the file really had, never in zeros it never held; a thousand threads hashing mapped files
// that shrink under them; descriptors opened with O_DIRECT.
#include <fcntl.h>
#include <sys/stat.h>
#ifndef _WIN32
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#endif

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include <fastblake/file.hpp>

#include "file/engine.hpp"
#include "scratch_dir.hpp"
#include "test_support.hpp"

namespace fastblake::test {
namespace {

namespace b3 = fastblake::blake3;
namespace b2 = fastblake::blake2;
namespace fs = std::filesystem;

// Each way the file code can take a regular file: every strategy, and automatic with each of
// its ways for windows forced.
struct way {
  const char* name;
  b3::file_strategy strategy;
  std::optional<internal::window_way> window;
};
constexpr way every_way[] = {
    {"automatic", b3::file_strategy::automatic, std::nullopt},
    {"automatic, windows mapped", b3::file_strategy::automatic, internal::window_way::map},
    {"automatic, windows read in parts", b3::file_strategy::automatic,
     internal::window_way::read_parts},
    {"read", b3::file_strategy::read, std::nullopt},
    {"mmap", b3::file_strategy::mmap, std::nullopt},
    {"mmap_parallel", b3::file_strategy::mmap_parallel, std::nullopt},
};

// And a stream, which reads a regular file with read(2) to whatever end it finds.
constexpr way every_way_and_stream[] = {
    every_way[0],
    every_way[1],
    every_way[2],
    every_way[3],
    every_way[4],
    every_way[5],
    {"stream", b3::file_strategy::stream, std::nullopt},
};

// Whether a way never maps the file.
bool reads_only(const way& w) {
  return w.strategy == b3::file_strategy::read || w.strategy == b3::file_strategy::stream;
}

// Forces the automatic strategy's way for windows while it lives (none: measured).
class windows_forced {
 public:
  explicit windows_forced(std::optional<internal::window_way> w) { internal::force_window_way(w); }
  ~windows_forced() { internal::force_window_way(std::nullopt); }
  windows_forced(const windows_forced&) = delete;
  windows_forced& operator=(const windows_forced&) = delete;
};

// Under an emulator that does not deliver SIGBUS for a shrunk mapped file (qemu-user on
// big-endian guests), mapped strategies can only be shown shrinks that keep the last page.
bool mapped_sigbus_delivered() { return std::getenv("FASTBLAKE_TEST_NO_MAPPED_SIGBUS") == nullptr; }

class FileHazards : public scratch_dir_test {};

TEST_F(FileHazards, AShrinkOfAnySizeIsTruncatedNeverZerosTheFileNeverHad) {
  random_source rng(test_seed() + 60);
  const std::uint64_t page = page_size();
  // The last page is part-filled, so a shrink by less than its fill leaves the page mapped: the
  // kernel then shows the lost bytes as zeros, with no SIGBUS.
  const std::vector<std::byte> data = rng.bytes((6u << 20) + page / 2 + 11);
  const std::uint64_t last_page_fill = data.size() % page;
  const std::uint64_t shrinks[] = {1,        100,           last_page_fill - 1, last_page_fill,
                                   page - 1, page,          page + 1,           3 * page + 5,
                                   1u << 20, (1u << 20) + 7};
  thread_pool pool(3);
  for (const way& w : every_way_and_stream) {
    const windows_forced forced(w.window);
    for (const std::uint64_t shrink : shrinks) {
      if (!reads_only(w) && shrink >= last_page_fill && !mapped_sigbus_delivered()) {
        continue;
      }
      SCOPED_TRACE(std::string(w.name) + ", shrunk by " + std::to_string(shrink));
      const fs::path p = write("shrinks", data);
      b3::file_options options;
      options.strategy = w.strategy;
      options.pool = &pool;
      // Reported after the first 1 MiB window, where the file shrinks: the rest is hashed after.
      options.progress_step = 1u << 20;
      int reports = 0;
      options.progress = [&](std::uint64_t, std::uint64_t) {
        if (reports++ == 0) {
          EXPECT_TRUE(shrink_file(p, data.size() - shrink));
        }
        return true;
      };
      std::error_code ec;
      const b3::digest d = b3::hash_file(p, options, ec);
      // The same through BLAKE2 (its own sink over the same file code).
      write("shrinks", data);
      reports = 0;
      b2::hasher h2;
      std::error_code ec2;
      b2::update_from_file(h2, p, options, ec2);
      if (w.strategy == b3::file_strategy::stream) {
        // A stream that had not read as far as the new end reads the file as it is now.
        const std::span<const std::byte> now = std::span(data).first(data.size() - shrink);
        EXPECT_FALSE(ec) << ec.message();
        EXPECT_EQ(d, b3::hash(now));
        EXPECT_FALSE(ec2) << ec2.message();
        EXPECT_EQ(h2.finalize(), b2::hasher().update(now).finalize());
      } else {
        EXPECT_EQ(ec, b3::file_errc::truncated) << ec.message() << ", digest " << d.to_hex();
        EXPECT_EQ(ec2, b3::file_errc::truncated) << "BLAKE2b: " << ec2.message();
      }
    }
  }
}

// A stream that read past where the file now ends read bytes it no longer has: truncated.
TEST_F(FileHazards, AStreamThatReadPastTheNewEndIsTruncated) {
  const std::vector<std::byte> data = random_source(test_seed() + 64).bytes((6u << 20) + 99);
  for (const std::uint64_t kept : {std::uint64_t{0}, std::uint64_t{1000}, std::uint64_t{1} << 20}) {
    SCOPED_TRACE("shrunk to " + std::to_string(kept));
    const fs::path p = write("stream", data);
    b3::file_options options;
    options.strategy = b3::file_strategy::stream;
    options.progress_step = 1u << 20;
    int reports = 0;
    options.progress = [&](std::uint64_t done, std::uint64_t) {
      EXPECT_GT(done, kept);
      if (reports++ == 0) {
        EXPECT_TRUE(shrink_file(p, kept));
      }
      return true;
    };
    std::error_code ec;
    b3::hash_file(p, options, ec);
    EXPECT_EQ(ec, b3::file_errc::truncated) << ec.message();
  }
}

// A file that shrinks after its last byte was read, before hashing ends, is truncated too, by
// every way: reading to the old size is no proof of the content, since a read racing a
// truncate can copy the cut page's tail after the kernel zeroed it (seen once under qemu).
TEST_F(FileHazards, AShrinkAfterTheLastReadIsTruncated) {
  const std::vector<std::byte> data = random_source(test_seed() + 65).bytes((2u << 20) + 100);
  thread_pool one(1);
  for (const b3::file_strategy strategy :
       {b3::file_strategy::read, b3::file_strategy::stream, b3::file_strategy::mmap,
        b3::file_strategy::mmap_parallel}) {
    SCOPED_TRACE(static_cast<int>(strategy));
    const fs::path p = write("shrinks-late", data);
    b3::file_options options;
    options.strategy = strategy;
    options.pool = &one;
    options.progress_step = 1u << 20;
    // Reads run a 1 MiB buffer ahead of the report: at the first report within 1 MiB of the
    // end every byte has been read (or is mapped); the file then loses 50 bytes, its last page
    // kept.
    bool shrunk = false;
    options.progress = [&](std::uint64_t done, std::uint64_t) {
      if (!shrunk && done + (1u << 20) >= data.size()) {
        EXPECT_TRUE(shrink_file(p, data.size() - 50));
        shrunk = true;
      }
      return true;
    };
    std::error_code ec;
    b3::hash_file(p, options, ec);
    EXPECT_TRUE(shrunk);
    EXPECT_EQ(ec, b3::file_errc::truncated) << ec.message();
  }
}

// The same at random moments, by another thread: whatever the moment, the outcome is the error
// or the digest of the file before or after the shrink, both of which it really was.
TEST_F(FileHazards, AShrinkAtARandomMomentEndsInTheErrorOrARealState) {
  random_source rng(test_seed() + 61);
  const std::uint64_t page = page_size();
  const std::vector<std::byte> data = rng.bytes((8u << 20) + 777);
  const b3::digest whole = b3::hash(data);
  thread_pool pool(2);
  int truncated = 0;
  int before = 0;
  int after = 0;
  for (const way& w : every_way_and_stream) {
    const windows_forced forced(w.window);
    // The moments are spread over the time one hash of the file takes here.
    const fs::path p = write("shrinks", data);
    b3::file_options options;
    options.strategy = w.strategy;
    options.pool = &pool;
    options.progress_step = 1u << 20;
    const auto start = std::chrono::steady_clock::now();
    ASSERT_EQ(b3::hash_file(p, options), whole);
    const auto hash_time = std::chrono::duration_cast<std::chrono::microseconds>(
        std::chrono::steady_clock::now() - start);
    for (int trial = 0; trial < 12; ++trial) {
      // Half the shrinks keep part of the last page (no SIGBUS: only the size tells), half
      // take up to three pages.
      const bool keeps_last_page =
          trial % 2 == 0 || (!mapped_sigbus_delivered() && w.strategy != b3::file_strategy::read);
      const std::uint64_t shrink =
          1 + rng.below(keeps_last_page ? data.size() % page - 1 : 3 * page);
      const auto delay = std::chrono::microseconds(rng.below(hash_time.count() * 5 / 4 + 1));
      SCOPED_TRACE(std::string(w.name) + ", shrunk by " + std::to_string(shrink) + " after " +
                   std::to_string(delay.count()) + " us");
      write("shrinks", data);
      latch started(1);
      std::thread shrinker([&] {
        started.wait();
        std::this_thread::sleep_for(delay);
        EXPECT_TRUE(shrink_file(p, data.size() - shrink));
      });
      started.count_down();
      std::error_code ec;
      const b3::digest d = b3::hash_file(p, options, ec);
      shrinker.join();
      if (ec) {
        EXPECT_EQ(ec, b3::file_errc::truncated) << ec.message();
        ++truncated;
      } else if (d == whole) {
        ++before;
      } else {
        EXPECT_EQ(d, b3::hash(std::span(data).first(data.size() - shrink)))
            << "a digest of content the file never had";
        ++after;
      }
    }
  }
  // (Which outcome each trial has depends on the machine's timing; any of the three holds.)
  std::cout << "[ outcome  ] truncated " << truncated << ", whole " << before << ", shrunk "
            << after << "\n";
}

// The SIGBUS guard has a slot for every mapping hashed at once, however many: 1,000 threads
// each hash their own mapping of one file, all mapped at the moment it shrinks under them.
TEST_F(FileHazards, AThousandThreadsHashMappedFilesThatShrinkUnderThem) {
  if (!mapped_sigbus_delivered()) GTEST_SKIP() << "no SIGBUS for shrunk mappings here";
  constexpr int threads = 1000;
  random_source rng(test_seed() + 62);
  const std::vector<std::byte> data = rng.bytes((1u << 20) + 5 * page_size() + 100);
  const fs::path p = write("shared", data);
  latch all_mapped(threads);
  latch shrunk(1);
  std::vector<std::error_code> errors(threads);
  std::vector<std::thread> hashing;
  hashing.reserve(threads);
  for (int i = 0; i < threads; ++i) {
    hashing.emplace_back([&, i] {
      b3::file_options options;
      options.strategy = b3::file_strategy::mmap;
      options.progress_step = 1u << 20;
      // After the first 1 MiB window, with the mapping and its guard in place.
      options.progress = [&](std::uint64_t done, std::uint64_t) {
        if (done == 1u << 20) {
          all_mapped.count_down();
          shrunk.wait();
        }
        return true;
      };
      b3::hash_file(p, options, errors[i]);
    });
  }
  all_mapped.wait();
  // Past the first window by 10 bytes: every thread's next loads fault (SIGBUS), but the one
  // page that keeps 10 bytes, whose zeros only the size tells.
  EXPECT_TRUE(shrink_file(p, (1u << 20) + 10));
  shrunk.count_down();
  for (std::thread& t : hashing) t.join();
  for (int i = 0; i < threads; ++i) {
    ASSERT_EQ(errors[i], b3::file_errc::truncated) << "thread " << i << ": " << errors[i].message();
  }
}

// A descriptor opened with O_DIRECT hashes as any other, by every strategy, from any offset
// and to any limit: its reads must be whole blocks into aligned memory, or the kernel refuses
// them (EINVAL).
// Under an address-space limit (RLIMIT_AS) that leaves no room to map the file, every way
// reads it instead (and hashes it right): in a child process, whose limit is its own.
TEST_F(FileHazards, AFileThatCannotBeMappedForWantOfAddressSpaceIsRead) {
#if defined(_WIN32)
  GTEST_SKIP() << "Windows has no fork() to put a child under a limit, nor an address-space "
                  "limit (RLIMIT_AS)";
#elif defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__) || defined(__EMSCRIPTEN__)
  GTEST_SKIP() << "a sanitizer's runtime (or a runtime without fork) cannot live under the limit";
#else
  // (Under qemu-user the limit would be the emulator's own, which needs far more.)
  if (std::getenv("FASTBLAKE_TEST_EMULATED") != nullptr ||
      std::getenv("FASTBLAKE_TEST_NO_MAPPED_SIGBUS") != nullptr) {
    GTEST_SKIP() << "under an emulator";
  }
  random_source rng(test_seed() + 64);
  const std::vector<std::byte> data = rng.bytes((48u << 20) + 77);
  const fs::path p = write("unmappable", data);
  const b3::digest want = b3::hash(data);
  thread_pool::default_pool();  // its threads exist before the limit, as a long-lived program's
  for (const way& w : every_way) {
    SCOPED_TRACE(w.name);
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      // Room for buffers and a thread or two, not for the file.
      std::ifstream statm("/proc/self/statm");
      std::uint64_t pages = 0;
      statm >> pages;
      const rlim_t limit = pages * page_size() + (24u << 20);
      const rlimit as{limit, limit};
      if (::setrlimit(RLIMIT_AS, &as) != 0) ::_exit(2);
      const windows_forced forced(w.window);
      b3::file_options options;
      options.strategy = w.strategy;
      std::error_code ec;
      const b3::digest got = b3::hash_file(p, options, ec);
      ::_exit(!ec && got == want ? 0 : 1);
    }
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
  }
#endif
}

TEST_F(FileHazards, DescriptorsOpenedWithODirectHashAsAnyOther) {
#ifndef O_DIRECT
  GTEST_SKIP() << "no O_DIRECT here (Windows' unbuffered handles are not the C runtime's)";
#else
  random_source rng(test_seed() + 63);
  const std::vector<std::byte> data = rng.bytes((33u << 20) + 1000);
  const fs::path p = write("direct", data);
  const int probe = ::open(p.c_str(), O_RDONLY | O_DIRECT);
  if (probe < 0 && errno == EINVAL) GTEST_SKIP() << "this file system refuses O_DIRECT";
  ASSERT_GE(probe, 0) << std::strerror(errno);
  ::close(probe);
  thread_pool pool(2);
  const std::size_t sizes[] = {0, 100, (64u << 10) + 3, (4u << 20) + 4096, data.size()};
  for (const std::size_t n : sizes) {
    const std::span<const std::byte> content = std::span(data).first(n);
    const fs::path file = write("direct-" + std::to_string(n), content);
    const std::uint64_t offsets[] = {0, 12345};
    const std::uint64_t limits[] = {~std::uint64_t{0}, (3u << 20) + 1};
    // Each range's digest once, not once per way (33 MiB each time, slow under qemu).
    b3::digest expected[2][2];
    for (std::size_t o = 0; o < 2; ++o) {
      for (std::size_t l = 0; l < 2; ++l) {
        if (offsets[o] > n) continue;
        expected[o][l] = b3::hash(content.subspan(
            offsets[o],
            static_cast<std::size_t>(std::min<std::uint64_t>(n - offsets[o], limits[l]))));
      }
    }
    for (way w : every_way) {
      const windows_forced forced(w.window);
      for (std::size_t o = 0; o < 2; ++o) {
        for (std::size_t l = 0; l < 2; ++l) {
          const std::uint64_t offset = offsets[o];
          const std::uint64_t limit = limits[l];
          if (offset > n) continue;
          SCOPED_TRACE(std::string(w.name) + ", " + std::to_string(n) + " bytes from " +
                       std::to_string(offset) + " up to " + std::to_string(limit));
          const int fd = ::open(file.c_str(), O_RDONLY | O_DIRECT);
          ASSERT_GE(fd, 0);
          ASSERT_EQ(::lseek(fd, static_cast<off_t>(offset), SEEK_SET), static_cast<off_t>(offset));
          b3::file_options options;
          options.strategy = w.strategy;
          options.pool = &pool;
          options.max_length = limit;
          b3::hasher h;
          std::error_code ec;
          b3::update_from_fd(h, fd, options, ec);
          EXPECT_FALSE(ec) << ec.message();
          EXPECT_EQ(h.finalize(), expected[o][l]);
          ::close(fd);
        }
      }
    }
    // A stream reads with read(2) from the descriptor's offset, which O_DIRECT wants aligned.
    for (const auto algorithm : {b2::algorithm::blake2b, b2::algorithm::blake2sp}) {
      SCOPED_TRACE("BLAKE2 stream of " + std::to_string(n) + " bytes");
      const int fd = ::open(file.c_str(), O_RDONLY | O_DIRECT);
      ASSERT_GE(fd, 0);
      b3::file_options options;
      options.strategy = b3::file_strategy::stream;
      options.pool = &pool;
      b2::hasher h(algorithm);
      std::error_code ec;
      b2::update_from_fd(h, fd, options, ec);
      EXPECT_FALSE(ec) << ec.message();
      EXPECT_EQ(h.finalize(), b2::hasher(algorithm).update(content).finalize());
      ::close(fd);
    }
    const int fd = ::open(file.c_str(), O_RDONLY | O_DIRECT);
    ASSERT_GE(fd, 0);
    b3::file_options options;
    options.strategy = b3::file_strategy::stream;
    b3::hasher h;
    std::error_code ec;
    b3::update_from_fd(h, fd, options, ec);
    EXPECT_FALSE(ec) << ec.message();
    EXPECT_EQ(h.finalize(), b3::hash(content));
    ::close(fd);
  }
#endif
}

}  // namespace
}  // namespace fastblake::test
