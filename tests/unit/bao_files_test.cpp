// Bao's encoders into write functions and from files (bao::encode_file, encode_fd and the
// outboard ones): what the in-memory encoders make, each byte written once, on every strategy of
// the file functions; their errors; descriptors in and out.
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <ios>
#include <mutex>
#include <span>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include <fastblake/bao.hpp>
#include <fastblake/blake3.hpp>
#include <fastblake/file.hpp>
#include <fastblake/thread_pool.hpp>

#include "bao_test_support.hpp"
#include "os_support.hpp"
#include "test_support.hpp"

namespace fastblake::test {
namespace {

namespace b3 = fastblake::blake3;

// The ranges an encoder wrote, from any thread. "Each byte once" is checked on them rather than
// with a count per byte, which took most of this test's time under an emulator.
class write_ranges {
 public:
  void add(std::uint64_t at, std::uint64_t size) {
    const std::lock_guard lock(mutex_);
    ranges_.emplace_back(at, size);
  }
  bool tile(std::uint64_t size) {
    std::sort(ranges_.begin(), ranges_.end());
    std::uint64_t next = 0;
    for (const auto& [at, n] : ranges_) {
      if (at != next) return false;
      next += n;
    }
    ranges_.clear();
    return next == size;
  }

 private:
  std::mutex mutex_;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> ranges_;
};

TEST(BaoEncodePieces, WritesWhatEncodeMakesEachByteOnce) {
  random_source rng(test_seed() + 95);
  thread_pool pool(3);
  const auto random = rng.bytes((9u << 20) + 1025);
  for (std::size_t len : streaming_lengths()) {
    const std::span<const std::byte> input(random.data(), len);
    for (unsigned k : {0u, 4u, 13u}) {
      for (bool outboard : {false, true}) {
        SCOPED_TRACE("length " + std::to_string(len) + ", group_log " + std::to_string(k) +
                     (outboard ? ", outboard" : ""));
        const bao::encoding want =
            outboard ? bao::encode_outboard(input, k) : bao::encode(input, k);
        byte_vector got(want.bytes.size(), std::byte{0xee});
        write_ranges written;
        const bao::write_at_function out = [&](std::uint64_t at, std::span<const std::byte> bytes) {
          ASSERT_LE(at + bytes.size(), got.size());
          std::copy(bytes.begin(), bytes.end(), got.begin() + static_cast<std::ptrdiff_t>(at));
          written.add(at, bytes.size());
        };
        const b3::digest hash = outboard ? bao::encode_outboard(len, bao::read_from(input), out, k)
                                         : bao::encode(len, bao::read_from(input), out, k);
        EXPECT_EQ(hash, want.hash);
        EXPECT_EQ(got, want.bytes);
        EXPECT_TRUE(written.tile(got.size()));
        // On threads: each piece written by whichever thread made it, once.
        std::fill(got.begin(), got.end(), std::byte{0xee});
        const b3::digest on_pool =
            outboard ? bao::encode_outboard(len, bao::read_from(input), out, pool, k)
                     : bao::encode(len, bao::read_from(input), out, pool, k);
        EXPECT_EQ(on_pool, want.hash);
        EXPECT_EQ(got, want.bytes);
        EXPECT_TRUE(written.tile(got.size()));
      }
    }
  }
  // An input that ends before the length given.
  const std::span<const std::byte> input(random.data(), 5u << 20);
  byte_vector sink(bao::encoded_size(6u << 20));
  const bao::write_at_function out = [&](std::uint64_t at, std::span<const std::byte> bytes) {
    std::copy(bytes.begin(), bytes.end(), sink.begin() + static_cast<std::ptrdiff_t>(at));
  };
  EXPECT_EQ(bao_error_offset([&] { bao::encode(6u << 20, bao::read_from(input), out); }), 5u << 20);
}

// Files through the file functions' ways (encode_file, encode_fd): what the in-memory
// encoders make, byte for byte, each byte written once, whatever the strategy, the windows
// (a progress step under 16 MiB makes them smaller), the group size and the pool.
TEST(BaoEncodePieces, FilesOnEveryWayOfTheFileFunctions) {
  random_source rng(test_seed() + 97);
  thread_pool pool(3);
  const auto random = rng.bytes((9u << 20) + 1025);
  const std::string path = ::testing::TempDir() + "/bao-file-in";
  auto write_input = [&](std::span<const std::byte> bytes) {
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    f.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
  };
  const file_strategy strategies[] = {file_strategy::automatic, file_strategy::read,
                                      file_strategy::mmap, file_strategy::mmap_parallel,
                                      file_strategy::stream};
  // Around a chunk, a subtree_levels batch, the 1 MiB reads, the 1 MiB and 4 MiB windows and
  // the 8 MiB groups of k = 13.
  for (std::size_t len : {std::size_t{0}, std::size_t{1}, std::size_t{1025}, std::size_t{262145},
                          std::size_t{(1u << 20) + 1}, std::size_t{3 * 262144 + 7},
                          std::size_t{4u << 20}, std::size_t{(9u << 20) + 1025}}) {
    const std::span<const std::byte> input(random.data(), len);
    write_input(input);
    for (unsigned k : {0u, 4u, 13u}) {
      for (bool outboard : {false, true}) {
        const bao::encoding want =
            outboard ? bao::encode_outboard(input, k) : bao::encode(input, k);
        for (file_strategy strategy : strategies) {
          for (std::uint64_t step : {std::uint64_t{64} << 20, std::uint64_t{1} << 20}) {
            SCOPED_TRACE("length " + std::to_string(len) + ", group_log " + std::to_string(k) +
                         (outboard ? ", outboard" : "") + ", strategy " +
                         std::to_string(static_cast<int>(strategy)) + ", step " +
                         std::to_string(step));
            byte_vector got(want.bytes.size(), std::byte{0xee});
            write_ranges written;
            const bao::write_at_function out = [&](std::uint64_t at,
                                                   std::span<const std::byte> bytes) {
              ASSERT_LE(at + bytes.size(), got.size());
              std::copy(bytes.begin(), bytes.end(), got.begin() + static_cast<std::ptrdiff_t>(at));
              written.add(at, bytes.size());
            };
            file_options options;
            options.strategy = strategy;
            options.progress_step = step;
            options.pool = step == (1u << 20) ? &pool : nullptr;
            const b3::digest hash = outboard ? bao::encode_outboard_file(path, out, options, k)
                                             : bao::encode_file(path, out, options, k);
            EXPECT_EQ(hash, want.hash);
            EXPECT_EQ(got, want.bytes);
            EXPECT_TRUE(written.tile(got.size()));
          }
        }
      }
    }
  }

  // A descriptor from its offset, a length limit, and progress to the end.
  write_input(random);
  const int fd = open_read(path);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::lseek(fd, 12345, SEEK_SET), 12345);
  for (std::uint64_t limit : {std::uint64_t{5} << 20, ~std::uint64_t{0}}) {
    const std::size_t len =
        static_cast<std::size_t>(std::min<std::uint64_t>(random.size() - 12345, limit));
    const bao::encoding want = bao::encode_outboard(std::span(random).subspan(12345, len));
    byte_vector got(want.bytes.size());
    std::vector<std::pair<std::uint64_t, std::uint64_t>> reports;
    file_options options;
    options.max_length = limit;
    options.progress_step = 1u << 20;
    options.progress = [&](std::uint64_t done, std::uint64_t total) {
      reports.emplace_back(done, total);
      return true;
    };
    EXPECT_EQ(bao::encode_outboard_fd(
                  fd,
                  [&](std::uint64_t at, std::span<const std::byte> bytes) {
                    std::copy(bytes.begin(), bytes.end(),
                              got.begin() + static_cast<std::ptrdiff_t>(at));
                  },
                  options),
              want.hash);
    EXPECT_EQ(got, want.bytes);
    ASSERT_FALSE(reports.empty());
    EXPECT_EQ(reports.back(), std::make_pair(std::uint64_t{len}, std::uint64_t{len}));
  }
  ::close(fd);
}

// What encode_file refuses, and what it lets through: the file's errors name it; a file that
// shrinks while it is encoded fails whatever the way; the output's exceptions go through as
// they are thrown; progress may stop it.
TEST(BaoFiles, EncodeFileErrors) {
  random_source rng(test_seed() + 98);
  const std::string dir = ::testing::TempDir();
  const bao::write_at_function nowhere = [](std::uint64_t, std::span<const std::byte>) {};
  auto code_of = [](auto&& f) -> std::error_code {
    try {
      f();
    } catch (const std::system_error& e) {
      return e.code();
    }
    return {};
  };
  EXPECT_EQ(code_of([&] { bao::encode_file(dir + "/no-such-file", nowhere); }),
            std::errc::no_such_file_or_directory);
  EXPECT_EQ(code_of([&] { bao::encode_outboard_file(dir, nowhere); }), std::errc::is_a_directory);
  int pipe_ends[2];
  ASSERT_TRUE(make_pipe(pipe_ends));
  EXPECT_EQ(code_of([&] { bao::encode_fd(pipe_ends[0], nowhere); }), std::errc::invalid_argument);
  ::close(pipe_ends[0]);
  ::close(pipe_ends[1]);
  try {
    bao::encode_file(dir + "/no-such-file", nowhere);
  } catch (const std::system_error& e) {
    EXPECT_NE(std::string(e.what()).find("no-such-file"), std::string::npos) << e.what();
  }

  const auto input = rng.bytes((6u << 20) + 77);
  const std::string path = dir + "/bao-shrinks";
  // (Under an emulator that delivers no SIGBUS for a shrunk mapped file, qemu-user on
  // big-endian guests, reads only.)
  const bool mapped_sigbus = std::getenv("FASTBLAKE_TEST_NO_MAPPED_SIGBUS") == nullptr;
  for (file_strategy strategy : {file_strategy::read, file_strategy::mmap,
                                 file_strategy::mmap_parallel, file_strategy::stream}) {
    const bool mapped = strategy == file_strategy::mmap || strategy == file_strategy::mmap_parallel;
    if (mapped && !mapped_sigbus) continue;
    SCOPED_TRACE(static_cast<int>(strategy));
    {
      std::ofstream f(path, std::ios::binary | std::ios::trunc);
      f.write(reinterpret_cast<const char*>(input.data()),
              static_cast<std::streamsize>(input.size()));
    }
    file_options options;
    options.strategy = strategy;
    options.progress_step = 1u << 20;
    // The first node written cuts the file to 2 MiB + 5: mapped, the loads past its new last
    // page fault with SIGBUS, which the guard turns into the error.
    bool cut = false;
    const bao::write_at_function shrink = [&](std::uint64_t at, std::span<const std::byte>) {
      if (at != 0 && !cut) {
        cut = true;
        ASSERT_TRUE(shrink_file(path, (2 << 20) + 5));
      }
    };
    EXPECT_EQ(code_of([&] { bao::encode_outboard_file(path, shrink, options); }),
              file_errc::truncated);
    EXPECT_TRUE(cut);
  }

  struct refused {};
  {
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    f.write(reinterpret_cast<const char*>(input.data()),
            static_cast<std::streamsize>(input.size()));
  }
  EXPECT_THROW(bao::encode_file(path,
                                [](std::uint64_t at, std::span<const std::byte>) {
                                  if (at != 0) throw refused{};
                                }),
               refused);
  file_options stop;
  stop.progress_step = 1u << 20;
  stop.progress = [](std::uint64_t done, std::uint64_t) { return done < (2u << 20); };
  EXPECT_EQ(code_of([&] { bao::encode_file(path, nowhere, stop); }), std::errc::operation_canceled);
  EXPECT_THROW(bao::encode_file(path, nowhere, {}, bao::max_group_log + 1), bao::error);
  std::remove(path.c_str());
}

// Through files: encoded from a descriptor into a descriptor, read back through one.
TEST(BaoFiles, EncodeAndReadThroughDescriptors) {
  random_source rng(test_seed() + 96);
  const auto input = rng.bytes((5u << 20) + 333);
  const std::string dir = ::testing::TempDir();
  const std::string in_path = dir + "/bao-in", out_path = dir + "/bao-out";
  {
    std::ofstream f(in_path, std::ios::binary);
    f.write(reinterpret_cast<const char*>(input.data()),
            static_cast<std::streamsize>(input.size()));
  }
  const int in = open_read(in_path);
  const int out = ::open(out_path.c_str(), O_RDWR | O_CREAT | O_TRUNC, 0600);
  ASSERT_GE(in, 0);
  ASSERT_GE(out, 0);
  const b3::digest hash =
      bao::encode_outboard(input.size(), bao::read_from_fd(in), bao::write_to_fd(out));
  EXPECT_EQ(hash, b3::hash(input));
  bao::reader r(hash, bao::read_from_fd(out), bao::read_from_fd(in));
  EXPECT_EQ(read_all(r, rng, 1u << 20), input);
  ::close(in);
  ::close(out);
  std::byte one[1];
  EXPECT_THROW(bao::read_from_fd(-1)(0, one), std::system_error);
  std::remove(in_path.c_str());
  std::remove(out_path.c_str());
}

}  // namespace
}  // namespace fastblake::test
