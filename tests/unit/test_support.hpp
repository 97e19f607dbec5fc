// Helpers shared by the unit tests.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <random>
#include <span>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <fastblake/backend.hpp>
#include <fastblake/blake3.hpp>
#include <fastblake/file.hpp>

#include "backend/backend.hpp"
#include "fastblake_backends.hpp"
#include "kernels/blake2/kernels.hpp"

namespace fastblake::test {

/// std::latch's count_down and wait, over a mutex and a condition variable: MinGW-w64's
/// libstdc++ 12 loses std::latch's wake-ups (its atomic wait, without futexes, misses a
/// notify), and a waiter then sleeps for ever: 20,000 rounds of one waiter and one count_down
/// hung within the first 5,000 under Wine.
class latch {
 public:
  explicit latch(std::ptrdiff_t count) : count_(count) {}
  void count_down() {
    const std::lock_guard lock(mutex_);
    if (--count_ == 0) changed_.notify_all();
  }
  void wait() {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return count_ <= 0; });
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::ptrdiff_t count_;
};

/// The official test vectors' input: byte i is i % 251.
inline std::vector<std::byte> vector_input(std::size_t n) {
  std::vector<std::byte> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<std::byte>(i % 251);
  return v;
}

inline std::string to_hex(std::span<const std::byte> bytes) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string s;
  s.reserve(2 * bytes.size());
  for (std::byte b : bytes) {
    s += digits[std::to_integer<unsigned>(b) >> 4];
    s += digits[std::to_integer<unsigned>(b) & 0xf];
  }
  return s;
}

/// Whether ThreadSanitizer instruments this build: every memory access costs 5 to 15 times
/// more there, so the tests that hash megabytes on threads take smaller inputs under it (the
/// threads meet the same way; the split's shapes at every size run in the other builds).
#if defined(__SANITIZE_THREAD__)
inline constexpr bool under_thread_sanitizer = true;
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
inline constexpr bool under_thread_sanitizer = true;
#else
inline constexpr bool under_thread_sanitizer = false;
#endif
#else
inline constexpr bool under_thread_sanitizer = false;
#endif

/// The seed of every randomised test: FASTBLAKE_TEST_SEED when set, else a fixed one, so that
/// a failure can be replayed. Tests print it in their SCOPED_TRACE.
inline std::uint64_t test_seed() {
  if (const char* s = std::getenv("FASTBLAKE_TEST_SEED")) return std::strtoull(s, nullptr, 0);
  return 0x5eed'b1a4'e300'0001;
}

class random_source {
 public:
  explicit random_source(std::uint64_t seed) : engine_(seed) {}

  std::uint64_t below(std::uint64_t n) {
    return std::uniform_int_distribution<std::uint64_t>(0, n - 1)(engine_);
  }
  std::vector<std::byte> bytes(std::size_t n) {
    std::vector<std::byte> v(n);
    for (auto& b : v) b = static_cast<std::byte>(engine_());
    return v;
  }
  blake3::key_type key() {
    blake3::key_type k;
    for (auto& b : k) b = static_cast<std::uint8_t>(engine_());
    return k;
  }
  std::string text(std::size_t n) {
    std::string s(n, '\0');
    for (auto& c : s) c = static_cast<char>(engine_());
    return s;
  }
  /// Input lengths that favour the tree's edges: around block, chunk and power-of-two
  /// subtree boundaries, and anything in between.
  std::size_t interesting_length(std::size_t max_chunks) {
    switch (below(4)) {
      case 0:
        return below(max_chunks * blake3::chunk_size + 1);
      case 1: {
        const std::size_t blocks = below(max_chunks * 16 + 1);
        return blocks * blake3::block_size + below(3) - 1 + (blocks == 0);
      }
      case 2: {
        const std::size_t chunks = below(max_chunks + 1);
        return chunks * blake3::chunk_size + below(3) - 1 + (chunks == 0);
      }
      default: {
        std::size_t p = 1;
        while (2 * p <= max_chunks && below(3) != 0) p *= 2;
        return p * blake3::chunk_size + below(3) - 1;
      }
    }
  }
  /// Splits n into random pieces, some empty.
  std::vector<std::size_t> split_points(std::size_t n) {
    std::vector<std::size_t> cuts;
    std::size_t at = 0;
    while (at < n) {
      const std::size_t step = below(4) == 0 ? below(8) : below(3 * blake3::chunk_size);
      at = std::min(n, at + step);
      cuts.push_back(at);
    }
    return cuts;
  }

 private:
  std::mt19937_64 engine_;
};

/// Feeds input to h in the pieces that split_points describes.
inline void update_in_pieces(blake3::hasher& h, std::span<const std::byte> input,
                             const std::vector<std::size_t>& cuts) {
  std::size_t from = 0;
  for (std::size_t to : cuts) {
    h.update(input.subspan(from, to - from));
    from = to;
  }
}

/// The backends this build and CPU have, by name.
inline std::vector<std::string> backend_names() {
  std::vector<std::string> names;
  for (std::string_view n : available_backends()) names.emplace_back(n);
  return names;
}

/// The BLAKE2 kernel table of that level, by its own symbol.
inline const internal::blake2::kernels* blake2_kernels_of(std::string_view level) {
#define FASTBLAKE_FIND_KERNELS(name, features, blake2_level) \
  if (level == #blake2_level) return &internal::blake2::blake2_level;
  FASTBLAKE_FOR_EACH_BACKEND(FASTBLAKE_FIND_KERNELS)
#undef FASTBLAKE_FIND_KERNELS
  return nullptr;
}

/// A fixture whose tests run once per backend (INSTANTIATE_TEST_SUITE_P with backend_names()),
/// the backend switched on for the test's duration.
class per_backend : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    ASSERT_TRUE(use_backend(GetParam()));
    // Which BLAKE2 kernels run: the backend's own, or portable where it has none, as the
    // build's list says (cmake/Backends.cmake: src/blake2/<name>.cpp exists or not).
    std::string expected;
#define FASTBLAKE_EXPECT_LEVEL(name, features, blake2_level) \
  if (GetParam() == #name) expected = #blake2_level;
    FASTBLAKE_FOR_EACH_BACKEND(FASTBLAKE_EXPECT_LEVEL)
#undef FASTBLAKE_EXPECT_LEVEL
    ASSERT_EQ(active_blake2_kernels(), expected);
    ASSERT_EQ(&internal::blake2::active_kernels(), blake2_kernels_of(expected));
  }
  void TearDown() override { use_backend(available_backends().front()); }
};

inline std::string backend_test_name(const ::testing::TestParamInfo<std::string>& backend) {
  return backend.param;
}

inline constexpr file_strategy all_file_strategies[] = {
    file_strategy::automatic, file_strategy::read, file_strategy::mmap,
    file_strategy::mmap_parallel, file_strategy::stream};

inline std::string strategy_name(file_strategy s) {
  switch (s) {
    case file_strategy::automatic:
      return "automatic";
    case file_strategy::read:
      return "read";
    case file_strategy::mmap:
      return "mmap";
    case file_strategy::mmap_parallel:
      return "mmap_parallel";
    case file_strategy::stream:
      return "stream";
  }
  return "?";
}

}  // namespace fastblake::test
