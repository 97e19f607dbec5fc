// File hashing, as it goes: progress reports at their steps, cancellation, a file that shrinks
// while it is mapped and one that grows, the automatic strategy's windows read in parts, the
// choice between its two ways, and read-ahead of a mapped file out of the page cache.
#include <fcntl.h>
#ifndef _WIN32
#include <sys/mman.h>
#include <unistd.h>
#endif

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include <fastblake/file.hpp>

#include "common/faster_of_two.hpp"
#include "file/engine.hpp"
#include "file_test_support.hpp"
#include "os_support.hpp"
#include "test_support.hpp"

namespace fastblake::test {
namespace {

namespace b3 = fastblake::blake3;
namespace fs = std::filesystem;

TEST_F(FileHashing, ProgressStepsAtTheirLimits) {
  random_source rng(test_seed() + 9);
  const std::vector<std::byte> data = rng.bytes((40u << 20) + 5);
  const fs::path p = write("steps", data);
  const b3::digest expected = b3::hash(data);
  constexpr std::uint64_t max = std::numeric_limits<std::uint64_t>::max();
  for (const std::uint64_t step :
       {std::uint64_t{0}, std::uint64_t{1}, (std::uint64_t{1} << 63) + 1, max - 1, max}) {
    for (b3::file_strategy s : all_file_strategies) {
      SCOPED_TRACE(strategy_name(s) + ", step " + std::to_string(step));
      std::size_t calls = 0;
      b3::file_options options;
      options.strategy = s;
      options.progress_step = step;
      options.progress = [&](std::uint64_t, std::uint64_t) { return ++calls, true; };
      EXPECT_EQ(b3::hash_file(p, options), expected);
      // A step past the size reports the end only; small steps report once per buffer or
      // window of at least 1 MiB, never per byte.
      if (step > data.size()) {
        EXPECT_EQ(calls, 1u);
      } else {
        EXPECT_LE(calls, data.size() / (1u << 20) + 2);
      }
    }
  }
}

// Cancelled at the first report: an error, and the hasher untouched.
void expect_cancelled_at_the_first_report(const fs::path& p, b3::file_options options) {
  options.progress = [](std::uint64_t, std::uint64_t) { return false; };
  b3::hasher h;
  std::error_code ec;
  b3::update_from_file(h, p, options, ec);
  EXPECT_EQ(ec, std::errc::operation_canceled);
  EXPECT_EQ(h.count(), 0u);
}

TEST_F(FileHashing, ProgressIsReportedAndCanCancel) {
  random_source rng(test_seed() + 3);
  const std::vector<std::byte> data = rng.bytes((5u << 20) + 3);
  const fs::path p = write("p", data);
  for (b3::file_strategy s : all_file_strategies) {
    SCOPED_TRACE(strategy_name(s));
    std::vector<std::pair<std::uint64_t, std::uint64_t>> calls;
    b3::file_options options;
    options.strategy = s;
    options.progress_step = 1u << 20;
    options.progress = [&](std::uint64_t done, std::uint64_t total) {
      calls.emplace_back(done, total);
      return true;
    };
    EXPECT_EQ(b3::hash_file(p, options), b3::hash(data));
    ASSERT_GE(calls.size(), 4u);
    EXPECT_EQ(calls.back().first, data.size());
    for (std::size_t i = 0; i < calls.size(); ++i) {
      EXPECT_EQ(calls[i].second, data.size());
      if (i > 0) {
        EXPECT_GT(calls[i].first, calls[i - 1].first);
      }
    }
    expect_cancelled_at_the_first_report(p, options);
  }
}

TEST_F(FileHashing, AFileThatShrinksWhileHashedIsAnErrorNotACrash) {
  const bool sigbus = std::getenv("FASTBLAKE_TEST_NO_MAPPED_SIGBUS") == nullptr;
  random_source rng(test_seed() + 4);
  const std::vector<std::byte> data = rng.bytes(8u << 20);
  for (b3::file_strategy s : all_file_strategies) {
    // Under an emulator that does not deliver SIGBUS for a shrunk mapped file, reading only.
    if (!sigbus && s != b3::file_strategy::read) continue;
    // A stream reads to whatever end it finds, as a tool reads standard input.
    if (s == b3::file_strategy::stream) continue;
    SCOPED_TRACE(strategy_name(s));
    const fs::path p = write("shrinks", data);
    b3::file_options options;
    options.strategy = s;
    options.progress_step = 1u << 20;  // hashed in 1 MiB windows, reported after each
    bool truncated = false;
    options.progress = [&](std::uint64_t, std::uint64_t) {
      if (!truncated) {
        EXPECT_TRUE(shrink_file(p, 1u << 20));
        truncated = true;
      }
      return true;
    };
    std::error_code ec;
    b3::hash_file(p, options, ec);
    EXPECT_TRUE(truncated);
    EXPECT_EQ(ec, b3::file_errc::truncated) << ec.message();
    EXPECT_EQ(ec.message(), "the file shrank while it was being hashed");
    // The guard is scoped: the next hash of the (now shorter) file works.
    EXPECT_EQ(b3::hash_file(p, {}), b3::hash(std::span(data).first(1u << 20)));
  }
}

// The automatic strategy's windows, hashed the other way: each thread reading its parts of a
// subtree into a buffer of its own.
class read_in_parts {
 public:
  read_in_parts() { internal::force_window_way(internal::window_way::read_parts); }
  ~read_in_parts() { internal::force_window_way(std::nullopt); }
  read_in_parts(const read_in_parts&) = delete;
  read_in_parts& operator=(const read_in_parts&) = delete;
};

TEST_F(FileHashing, WindowsReadInPartsMatchTheInMemoryHash) {
  const read_in_parts forced;
  random_source rng(test_seed() + 20);
  const std::vector<std::byte> data = rng.bytes((5u << 20) + 4097);
  const b3::key_type key = rng.key();
  std::vector<std::size_t> sizes = {64u << 10, (64u << 10) + 1,   (128u << 10) - 1, (1u << 20) - 1,
                                    1u << 20,  (1u << 20) + 1024, (3u << 20) + 5,   data.size()};
  for (int i = 0; i < 4; ++i) sizes.push_back((64u << 10) + rng.interesting_length(1024));
  for (const std::size_t threads : {1u, 2u, 3u}) {
    thread_pool pool(threads);
    for (const std::uint64_t step : {std::uint64_t{1} << 20, std::uint64_t{64} << 20}) {
      for (const std::size_t n : sizes) {
        SCOPED_TRACE(std::to_string(threads) + " threads, windows of " + std::to_string(step) +
                     ", size " + std::to_string(n));
        const std::span<const std::byte> content(data.data(), n);
        const fs::path p = write("parts", content);
        b3::file_options options;
        options.pool = &pool;
        options.progress_step = step;
        const std::uint64_t read_before = internal::bytes_read_in_parts();
        EXPECT_EQ(b3::hash_file(p, options), b3::hash(content));
        // Whole subtrees of two chunks or more were read in parts: all but under two chunks.
        EXPECT_GT(internal::bytes_read_in_parts() - read_before, n - 2048) << "not in parts";
        b3::hasher keyed = b3::hasher::keyed(key);
        b3::update_from_file(keyed, p, options);
        EXPECT_EQ(keyed.finalize(), b3::keyed_hash(key, content));
        // A hasher part-way through a chunk takes the file from the mapping.
        b3::hasher after = b3::hasher::derive_key("parts");
        after.update("a partial chunk");
        b3::update_from_file(after, p, options);
        EXPECT_EQ(
            after.finalize(),
            b3::hasher::derive_key("parts").update("a partial chunk").update(content).finalize());
        // From a descriptor's offset, and up to a limit.
        const int fd = open_read(p);
        ASSERT_GE(fd, 0);
        ASSERT_EQ(::lseek(fd, 4096 + 3, SEEK_SET), 4096 + 3);
        options.max_length = n / 2;
        b3::hasher from_offset;
        b3::update_from_fd(from_offset, fd, options);
        EXPECT_EQ(from_offset.finalize(), b3::hash(content.subspan(4096 + 3, n / 2)));
        ::close(fd);
      }
    }
    // Subtrees of a file, each hashed by itself from its offset, merge into the whole hash.
    const fs::path p = write("subtrees", data);
    const auto subtree = [&](std::uint64_t offset, std::uint64_t length) {
      return file_subtree(p, offset, length, &pool);
    };
    const std::uint64_t left = b3::hazmat::left_subtree_len(data.size());
    const std::uint64_t left_left = b3::hazmat::left_subtree_len(left);
    const b3::hazmat::mode mode = b3::hazmat::mode::hash();
    EXPECT_EQ(b3::hazmat::merge_subtrees_root(
                  b3::hazmat::merge_subtrees_non_root(subtree(0, left_left),
                                                      subtree(left_left, left - left_left), mode),
                  subtree(left, data.size() - left), mode),
              b3::hash(data));
  }
}

TEST_F(FileHashing, WindowsReadInPartsReportProgressCancelAndSeeAFileShrink) {
  const read_in_parts forced;
  random_source rng(test_seed() + 21);
  const std::vector<std::byte> data = rng.bytes((5u << 20) + 3);
  const fs::path p = write("p", data);
  thread_pool pool(2);
  std::vector<std::uint64_t> reports;
  b3::file_options options;
  options.pool = &pool;
  options.progress_step = 1u << 20;
  options.progress = [&](std::uint64_t done, std::uint64_t total) {
    EXPECT_EQ(total, data.size());
    reports.push_back(done);
    return true;
  };
  EXPECT_EQ(b3::hash_file(p, options), b3::hash(data));
  EXPECT_EQ(reports, (std::vector<std::uint64_t>{1u << 20, 2u << 20, 3u << 20, 4u << 20, 5u << 20,
                                                 data.size()}));
  expect_cancelled_at_the_first_report(p, options);
  b3::hasher h;
  std::error_code ec;
  // Shrunk after the first window: the next part's read comes up short.
  bool truncated = false;
  options.progress = [&](std::uint64_t, std::uint64_t) {
    if (!truncated) {
      EXPECT_TRUE(shrink_file(p, 1u << 20));
    }
    truncated = true;
    return true;
  };
  b3::update_from_file(h, p, options, ec);
  EXPECT_TRUE(truncated);
  EXPECT_EQ(ec, b3::file_errc::truncated) << ec.message();
  EXPECT_EQ(h.count(), 0u);
}

TEST(FasterOfTwo, TriesEachWayThenKeepsTheFasterAndRetriesTheOther) {
  using way = internal::faster_of_two::way;
  internal::faster_of_two p(4);
  EXPECT_EQ(p.choose(), way::first);
  p.record(way::first, 1000, 1.0);
  EXPECT_EQ(p.choose(), way::second);
  p.record(way::second, 1000, 1.0);
  EXPECT_EQ(p.rate(way::second), 1000);
  // A tie goes to the second way; choice 4 of every 4 is the slower way's.
  EXPECT_EQ(p.choose(), way::second);
  EXPECT_EQ(p.choose(), way::first);
  p.record(way::first, 5000, 1.0);  // the average of the last two: 3000
  EXPECT_DOUBLE_EQ(p.rate(way::first), 3000);
  for (int i = 5; i <= 11; ++i) EXPECT_EQ(p.choose(), i % 4 == 0 ? way::second : way::first) << i;
  p.record(way::second, 1000, 0.0);
  EXPECT_DOUBLE_EQ(p.rate(way::second), 1000) << "a zero duration is no measure";
}

#if defined(__linux__)
// Whether the page at `offset` of the file is in the page cache.
bool page_is_cached(const fs::path& p, std::size_t offset) {
  const int fd = open_read(p);
  if (fd < 0) return false;
  const auto page = static_cast<std::size_t>(page_size());
  const off_t at = static_cast<off_t>(offset / page * page);
  void* map = ::mmap(nullptr, page, PROT_READ, MAP_SHARED, fd, at);
  ::close(fd);
  if (map == MAP_FAILED) return false;
  unsigned char state = 0;
  const bool cached = ::mincore(map, page, &state) == 0 && (state & 1) != 0;
  ::munmap(map, page);
  return cached;
}

// Drops the file from the page cache; false where the kernel keeps it (tmpfs, say) or where
// the cache cannot be observed.
bool drop_from_page_cache(const fs::path& p, std::size_t probe_offset) {
  const int fd = open_read(p);
  if (fd < 0) return false;
  // The probe page must show as cached once read, or mincore() says nothing here (Node.js's
  // file layer under emscripten, say).
  char byte = 0;
  const bool observable = ::pread(fd, &byte, 1, static_cast<off_t>(probe_offset)) == 1 &&
                          page_is_cached(p, probe_offset);
  const bool dropped =
      observable && ::fdatasync(fd) == 0 && ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED) == 0;
  ::close(fd);
  return dropped && !page_is_cached(p, probe_offset);
}
#endif

// A mapped file that is not in the page cache is asked for ahead of the window being hashed,
// further than the kernel's own read-ahead goes, and never past the end of what is hashed.
TEST_F(FileHashing, AMappedFileOutOfThePageCacheIsReadAheadOfTheHashing) {
#if !defined(__linux__)
  GTEST_SKIP() << "only Linux here both shows whether a page is cached (mincore) and drops a "
                  "file from its cache (posix_fadvise)";
#else
  random_source rng(test_seed() + 9);
  constexpr std::size_t window = 16u << 20;
  const std::vector<std::byte> data = rng.bytes(3 * window);
  const fs::path p = write("cold", data);
  const std::size_t far = 3 * window - 4096;  // 31 MiB past the first window
  if (!drop_from_page_cache(p, far)) GTEST_SKIP() << "this file system keeps files cached";
  for (b3::file_strategy s : {b3::file_strategy::mmap, b3::file_strategy::mmap_parallel}) {
    SCOPED_TRACE(strategy_name(s));
    ASSERT_TRUE(drop_from_page_cache(p, far));
    b3::file_options options;
    options.strategy = s;
    options.progress_step = window;
    bool far_page_read = false;
    bool reported = false;
    options.progress = [&](std::uint64_t done, std::uint64_t) {
      if (!reported && done == window) {
        reported = true;
        // The request is asynchronous: give the device time.
        for (int i = 0; i < 500 && !far_page_read; ++i) {
          far_page_read = page_is_cached(p, far);
          if (!far_page_read) std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
      }
      return true;
    };
    EXPECT_EQ(b3::hash_file(p, options), b3::hash(data));
    EXPECT_TRUE(reported);
    EXPECT_TRUE(far_page_read);
    // A length limit: nothing past it is read.
    ASSERT_TRUE(drop_from_page_cache(p, far));
    b3::file_options limited;
    limited.strategy = s;
    limited.max_length = window + 5;
    EXPECT_EQ(b3::hash_file(p, limited), b3::hash(std::span(data).first(window + 5)));
    EXPECT_FALSE(page_is_cached(p, far));
  }
#endif
}

// A mapped file is held a window at a time: each window's pages leave the process once it is
// hashed (on Windows each window is a view of its own, unmapped after it).
TEST_F(FileHashing, AMappedFileIsResidentAWindowAtATime) {
  if (under_thread_sanitizer)
    GTEST_SKIP() << "ThreadSanitizer's shadow of each page read stays resident";
#ifndef _WIN32
  if (std::getenv("FASTBLAKE_TEST_EMULATED") != nullptr ||
      std::getenv("FASTBLAKE_TEST_NO_MAPPED_SIGBUS") != nullptr) {
    GTEST_SKIP() << "an emulator's resident set is its own";
  }
#endif
  if (resident_bytes() == 0) GTEST_SKIP() << "no resident set to read here";
  constexpr std::size_t window = 1u << 20;
  constexpr std::size_t windows = 32;
  random_source rng(test_seed() + 12);
  const std::vector<std::byte> piece = rng.bytes(window);
  const fs::path p = dir_ / "resident";
  b3::hasher whole;
  {
    std::ofstream out(p, std::ios::binary);
    for (std::size_t i = 0; i < windows; ++i) {
      out.write(reinterpret_cast<const char*>(piece.data()),
                static_cast<std::streamsize>(piece.size()));
      whole.update(piece);
    }
  }
  const b3::digest expected = whole.finalize();
  for (b3::file_strategy s : {b3::file_strategy::mmap, b3::file_strategy::mmap_parallel}) {
    SCOPED_TRACE(strategy_name(s));
    b3::file_options options;
    options.strategy = s;
    options.progress_step = window;
    const std::uint64_t before = resident_bytes();
    std::uint64_t most = before;
    options.progress = [&](std::uint64_t, std::uint64_t) {
      most = std::max(most, resident_bytes());
      return true;
    };
    EXPECT_EQ(b3::hash_file(p, options), expected);
    // Held whole, the file would add 32 MiB by the end.
    EXPECT_LT(most - before, 8 * window) << "resident before: " << before << ", at most " << most;
  }
}

TEST_F(FileHashing, AFileThatGrowsIsHashedToItsSizeAtTheStart) {
  random_source rng(test_seed() + 5);
  const std::vector<std::byte> data = rng.bytes((5u << 20) + 7);
  const std::vector<std::byte> more = rng.bytes(3u << 20);
  for (b3::file_strategy s : all_file_strategies) {
    // A stream reads to whatever end it finds, as a tool reads standard input.
    if (s == b3::file_strategy::stream) continue;
    SCOPED_TRACE(strategy_name(s));
    const fs::path p = write("grows", data);
    b3::file_options options;
    options.strategy = s;
    options.progress_step = 1u << 20;
    bool grown = false;
    options.progress = [&](std::uint64_t, std::uint64_t) {
      if (!grown) {
        std::ofstream out(p, std::ios::binary | std::ios::app);
        out.write(reinterpret_cast<const char*>(more.data()),
                  static_cast<std::streamsize>(more.size()));
        grown = true;
      }
      return true;
    };
    EXPECT_EQ(b3::hash_file(p, options), b3::hash(data));
    EXPECT_TRUE(grown);
  }
}

}  // namespace
}  // namespace fastblake::test
