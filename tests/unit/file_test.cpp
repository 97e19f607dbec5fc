// File hashing, what is hashed: every strategy gives the in-memory digest around chunk, page and
// buffer boundaries; descriptors from their offsets, length limits, pipes, read errors and
// other errors, files in /proc, and many files at once. Progress, cancellation and files that
// change while hashed are in file_progress_test.cpp.
#include <fcntl.h>
#include <sys/stat.h>
#ifndef _WIN32
#include <sys/mman.h>
#include <unistd.h>
#endif

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include <fastblake/file.hpp>

#include "file_test_support.hpp"
#include "os_support.hpp"
#include "test_support.hpp"

namespace fastblake::test {
namespace {

namespace b3 = fastblake::blake3;
namespace fs = std::filesystem;

TEST_F(FileHashing, EveryStrategyMatchesTheInMemoryHash) {
  random_source rng(test_seed());
  const auto page = static_cast<std::size_t>(page_size());
  std::vector<std::size_t> sizes = {0,
                                    1,
                                    1023,
                                    1024,
                                    1025,
                                    page - 1,
                                    page,
                                    page + 1,
                                    (64u << 10) - 1,
                                    64u << 10,
                                    (1u << 20) - 1,
                                    1u << 20,
                                    (1u << 20) + 1,
                                    (2u << 20) + 5,
                                    (3u << 20) + 1024};
  for (int i = 0; i < 6; ++i) sizes.push_back(rng.interesting_length(4096));
  const std::vector<std::byte> data = rng.bytes(4u << 20);
  const b3::key_type key = rng.key();
  thread_pool pool(3);
  for (std::size_t n : sizes) {
    const std::span<const std::byte> content(data.data(), n);
    const fs::path p = write("f" + std::to_string(n), content);
    for (b3::file_strategy s : all_file_strategies) {
      SCOPED_TRACE("size " + std::to_string(n) + ", " + strategy_name(s));
      b3::file_options options;
      options.strategy = s;
      options.pool = &pool;
      EXPECT_EQ(b3::hash_file(p, options), b3::hash(content));
      b3::hasher keyed = b3::hasher::keyed(key);
      b3::update_from_file(keyed, p, options);
      EXPECT_EQ(keyed.finalize(), b3::keyed_hash(key, content));
      // Extendable output from an offset, in derive-key mode.
      b3::hasher derived = b3::hasher::derive_key("file test");
      b3::update_from_file(derived, p, options);
      std::array<std::byte, 100> got{}, expected{};
      b3::output_reader r = derived.finalize_xof();
      r.seek(1000);
      r.fill(got);
      b3::output_reader e = b3::hasher::derive_key("file test").update(content).finalize_xof();
      e.seek(1000);
      e.fill(expected);
      EXPECT_EQ(got, expected);
    }
  }
}

TEST_F(FileHashing, DescriptorsFromTheirCurrentOffset) {
  random_source rng(test_seed() + 1);
  const std::vector<std::byte> data = rng.bytes((1u << 20) + 777);
  const fs::path p = write("d", data);
  for (b3::file_strategy s : all_file_strategies) {
    SCOPED_TRACE(strategy_name(s));
    const int fd = open_read(p);
    ASSERT_GE(fd, 0);
    ASSERT_EQ(::lseek(fd, 4096 + 3, SEEK_SET), 4096 + 3);
    b3::file_options options;
    options.strategy = s;
    b3::hasher h;
    b3::update_from_fd(h, fd, options);
    EXPECT_EQ(h.finalize(), b3::hash(std::span(data).subspan(4096 + 3)));
    // A regular file's offset stays, but for a stream, which consumes what it read.
    EXPECT_EQ(::lseek(fd, 0, SEEK_CUR),
              s == b3::file_strategy::stream ? static_cast<off_t>(data.size()) : 4096 + 3);
    ::close(fd);
  }
}

// A caller's descriptor may be over a handle opened for overlapped I/O, whose reads may finish
// after the call that starts them: each is waited for. Such a handle keeps no offset, so the
// stream strategy, which reads on from the descriptor's, refuses it.
TEST_F(FileHashing, DescriptorsOverHandlesOpenedForOverlappedIo) {
#ifndef _WIN32
  GTEST_SKIP() << "overlapped handles are Windows'";
#else
  random_source rng(test_seed() + 11);
  const std::vector<std::byte> data = rng.bytes((5u << 20) + 777);
  const fs::path p = write("overlapped", data);
  thread_pool pool(3);
  for (b3::file_strategy s : all_file_strategies) {
    SCOPED_TRACE(strategy_name(s));
    const HANDLE h = ::CreateFileW(p.c_str(), GENERIC_READ, FILE_SHARE_READ, nullptr, OPEN_EXISTING,
                                   FILE_FLAG_OVERLAPPED, nullptr);
    ASSERT_NE(h, INVALID_HANDLE_VALUE);
    const int fd = ::_open_osfhandle(reinterpret_cast<intptr_t>(h), _O_RDONLY | _O_BINARY);
    ASSERT_GE(fd, 0);
    b3::file_options options;
    options.strategy = s;
    options.pool = &pool;
    b3::hasher h3;
    h3.update("kept");
    std::error_code ec;
    b3::update_from_fd(h3, fd, options, ec);
    close_fd(fd);
    if (s == b3::file_strategy::stream) {
      // Such a handle has no offset to read on from: refused, and nothing hashed.
      EXPECT_EQ(ec, std::errc::invalid_argument) << ec.message();
      EXPECT_EQ(h3.finalize(), b3::hash("kept"));
      continue;
    }
    EXPECT_FALSE(ec) << ec.message();
    std::vector<std::byte> expected(4);
    std::memcpy(expected.data(), "kept", 4);
    expected.insert(expected.end(), data.begin(), data.end());
    EXPECT_EQ(h3.finalize(), b3::hash(expected));
  }
#endif
}

TEST_F(FileHashing, ALengthLimitHashesOneRangeAndOneSubtree) {
  random_source rng(test_seed() + 2);
  const std::vector<std::byte> data = rng.bytes((3u << 20) + 999);
  const fs::path p = write("r", data);
  thread_pool pool(2);
  // Ranges from descriptor offsets, with limits under, at and past the file's end.
  const std::pair<std::size_t, std::uint64_t> ranges[] = {{0, 0},
                                                          {0, 1},
                                                          {0, 1025},
                                                          {4096 + 3, 65536},
                                                          {1u << 20, 1u << 20},
                                                          {(3u << 20) - 5, 100},
                                                          {0, data.size()},
                                                          {7, ~std::uint64_t{0}}};
  for (b3::file_strategy s : all_file_strategies) {
    for (const auto& [offset, limit] : ranges) {
      SCOPED_TRACE(strategy_name(s) + " from " + std::to_string(offset) + ", at most " +
                   std::to_string(limit));
      const int fd = open_read(p);
      ASSERT_GE(fd, 0);
      ASSERT_EQ(::lseek(fd, static_cast<off_t>(offset), SEEK_SET), static_cast<off_t>(offset));
      b3::file_options options;
      options.strategy = s;
      options.pool = &pool;
      options.max_length = limit;
      b3::hasher h;
      b3::update_from_fd(h, fd, options);
      // A stream reads to its end whatever the limit.
      const std::size_t expected_length =
          s == b3::file_strategy::stream
              ? data.size() - offset
              : static_cast<std::size_t>(std::min<std::uint64_t>(limit, data.size() - offset));
      EXPECT_EQ(h.finalize(), b3::hash(std::span(data).subspan(offset, expected_length)));
      ::close(fd);
    }
  }
  // One subtree of the file, by path and offset, merges into the whole file's hash.
  const std::uint64_t left = b3::hazmat::left_subtree_len(data.size());
  EXPECT_EQ(b3::hazmat::merge_subtrees_root(file_subtree(p, 0, left, &pool),
                                            file_subtree(p, left, data.size() - left, &pool),
                                            b3::hazmat::mode::hash()),
            b3::hash(data));
}

TEST_F(FileHashing, AStrategyOutsideTheEnumerationIsAnError) {
  const fs::path p = write("any", std::vector<std::byte>(100, std::byte{1}));
  for (const int value : {-1, 5, 1000}) {
    b3::file_options options;
    options.strategy = static_cast<b3::file_strategy>(value);
    b3::hasher h;
    std::error_code ec;
    b3::update_from_file(h, p, options, ec);
    EXPECT_EQ(ec, std::errc::invalid_argument) << value;
    EXPECT_EQ(h.count(), 0u);
    const auto results = b3::hash_files(std::vector<fs::path>{p}, b3::hasher(), options);
    ASSERT_EQ(results.size(), 1u);
    EXPECT_EQ(results[0].error, std::errc::invalid_argument) << value;
  }
}

TEST_F(FileHashing, PipesAreRead) {
  random_source rng(test_seed() + 2);
  const std::vector<std::byte> data = rng.bytes((3u << 20) + 5);
  int fds[2];
  ASSERT_TRUE(make_pipe(fds));
  std::thread writer([&] {
    std::size_t at = 0;
    while (at < data.size()) {
      const auto n = ::write(fds[1], data.data() + at,
                             static_cast<unsigned>(std::min<std::size_t>(65536, data.size() - at)));
      if (n <= 0) break;
      at += static_cast<std::size_t>(n);
    }
    ::close(fds[1]);
  });
  b3::file_options options;
  options.strategy = b3::file_strategy::mmap_parallel;  // falls back to reading
  b3::hasher h;
  b3::update_from_fd(h, fds[0], options);
  writer.join();
  ::close(fds[0]);
  EXPECT_EQ(h.finalize(), b3::hash(data));
}

TEST_F(FileHashing, NamedPipesAreReadByPath) {
  random_source rng(test_seed() + 7);
  const std::vector<std::byte> data = rng.bytes((1u << 20) + 3);
#ifdef _WIN32
  GTEST_SKIP() << "Windows has no named pipes in the file system (mkfifo)";
#else
  const fs::path fifo = dir_ / "fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  for (b3::file_strategy s : all_file_strategies) {
    SCOPED_TRACE(strategy_name(s));
    std::thread writer([&] {
      std::ofstream out(fifo, std::ios::binary);
      out.write(reinterpret_cast<const char*>(data.data()),
                static_cast<std::streamsize>(data.size()));
    });
    b3::file_options options;
    options.strategy = s;
    std::error_code ec;
    const b3::digest got = b3::hash_file(fifo, options, ec);
    writer.join();
    EXPECT_FALSE(ec) << ec.message();
    EXPECT_EQ(got, b3::hash(data));
  }
#endif
}

// /proc/self/mem read from a page whose successor is unmapped: the first read succeeds, the
// next fails with EIO, as a disk's bad sector would.
TEST_F(FileHashing, AReadErrorInTheMiddleIsReportedAndLosesNothing) {
#ifdef _WIN32
  GTEST_SKIP() << "Windows has no /proc/self/mem to make a read error with";
#else
  if (std::getenv("FASTBLAKE_TEST_EMULATED") != nullptr ||
      std::getenv("FASTBLAKE_TEST_NO_MAPPED_SIGBUS") != nullptr) {
    GTEST_SKIP() << "an emulator's /proc/self/mem is not the guest's memory";
  }
  const auto page = static_cast<std::size_t>(page_size());
  void* map = ::mmap(nullptr, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(map, MAP_FAILED);
  std::memset(map, 7, page);
  ASSERT_EQ(::munmap(static_cast<char*>(map) + page, page), 0);
  const int fd = ::open("/proc/self/mem", O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    ::munmap(map, page);
    GTEST_SKIP() << "no /proc/self/mem";
  }
  b3::hasher h;
  h.update("kept");
  const b3::hasher before = h;
  for (b3::file_strategy s : all_file_strategies) {
    SCOPED_TRACE(strategy_name(s));
    ASSERT_EQ(::lseek(fd, static_cast<off_t>(reinterpret_cast<std::uintptr_t>(map)), SEEK_SET),
              static_cast<off_t>(reinterpret_cast<std::uintptr_t>(map)));
    b3::file_options options;
    options.strategy = s;
    std::error_code ec;
    b3::update_from_fd(h, fd, options, ec);
    EXPECT_EQ(ec, std::errc::io_error) << ec.message();
    EXPECT_EQ(h.finalize(), before.finalize());
    EXPECT_EQ(h.count(), before.count());
  }
  ::close(fd);
  ::munmap(map, page);
#endif
}

TEST_F(FileHashing, ErrorsNameTheFileAndLeaveTheHasherAlone) {
  b3::hasher h;
  h.update("kept");
  const b3::digest before = h.finalize();
  std::error_code ec;
  b3::update_from_file(h, dir_ / "missing", {}, ec);
  EXPECT_EQ(ec, std::errc::no_such_file_or_directory);
  b3::update_from_file(h, dir_, {}, ec);
  EXPECT_EQ(ec, std::errc::is_a_directory);
  // Streamed, a directory is read as any input is, and its read says why it cannot be, on
  // every system (Windows' ReadFile says ERROR_INVALID_FUNCTION).
  b3::file_options stream;
  stream.strategy = b3::file_strategy::stream;
  b3::update_from_file(h, dir_, stream, ec);
  EXPECT_EQ(ec, std::errc::is_a_directory);
  EXPECT_EQ(h.finalize(), before);
  try {
    b3::hash_file(dir_ / "missing");
    ADD_FAILURE() << "no exception";
  } catch (const std::system_error& e) {
    EXPECT_EQ(e.code(), std::errc::no_such_file_or_directory);
    EXPECT_NE(std::string(e.what()).find("missing'"), std::string::npos) << e.what();
  }
  EXPECT_THROW(b3::update_from_fd(h, -1), std::system_error);
#ifdef _WIN32
  // (Windows' permissions are access lists, which std::filesystem::permissions does not set.)
  b3::hash_file("NUL", {}, ec);
#else
  if (::geteuid() != 0) {
    const fs::path locked = write("locked", std::vector<std::byte>(10));
    fs::permissions(locked, fs::perms::none);
    b3::hash_file(locked, {}, ec);
    EXPECT_EQ(ec, std::errc::permission_denied);
  }
  b3::hash_file("/dev/null", {}, ec);
#endif
  EXPECT_FALSE(ec);
}

// Files in /proc report a size of 0 whatever their contents: they are read to their end.
TEST_F(FileHashing, ProcFilesAreReadToTheirEnd) {
  const fs::path p = "/proc/version";
  std::ifstream in(p, std::ios::binary);
  if (!in) GTEST_SKIP() << "no " << p;
  const std::string contents((std::istreambuf_iterator<char>(in)), {});
  ASSERT_FALSE(contents.empty());
  for (b3::file_strategy s : all_file_strategies) {
    SCOPED_TRACE(strategy_name(s));
    b3::file_options options;
    options.strategy = s;
    EXPECT_EQ(b3::hash_file(p, options), b3::hash(std::as_bytes(std::span(contents))));
  }
}

TEST_F(FileHashing, ManyFilesInTheCallersOrder) {
  random_source rng(test_seed() + 5);
  std::vector<fs::path> paths;
  std::vector<std::vector<std::byte>> contents;
  for (int i = 0; i < 40; ++i) {
    const std::size_t n = i == 7 ? (5u << 20) : rng.interesting_length(40);
    contents.push_back(rng.bytes(n));
    paths.push_back(write(std::to_string(i) + ".m", contents.back()));
  }
  paths.insert(paths.begin() + 3, dir_ / "missing");
  contents.insert(contents.begin() + 3, std::vector<std::byte>());
  const b3::key_type key = rng.key();
  for (std::size_t threads : {1, 2, 5}) {
    thread_pool pool(threads);
    b3::file_options options;
    options.pool = &pool;
    std::atomic<int> in_progress{0};
    std::atomic<bool> overlapped{false};
    options.progress = [&](std::uint64_t, std::uint64_t) {
      if (++in_progress > 1) overlapped = true;
      --in_progress;
      return true;
    };
    const std::vector<b3::file_result> results =
        b3::hash_files(paths, b3::hasher::keyed(key), options);
    ASSERT_EQ(results.size(), paths.size());
    for (std::size_t i = 0; i < paths.size(); ++i) {
      SCOPED_TRACE("threads " + std::to_string(threads) + ", file " + std::to_string(i));
      if (i == 3) {
        EXPECT_EQ(results[i].error, std::errc::no_such_file_or_directory);
      } else {
        EXPECT_FALSE(results[i].error);
        EXPECT_EQ(results[i].hash(), b3::keyed_hash(key, contents[i]));
      }
    }
    EXPECT_FALSE(overlapped.load());
  }
}

}  // namespace
}  // namespace fastblake::test
