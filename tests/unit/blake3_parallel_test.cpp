// Parallel BLAKE3: every thread count and every way of splitting gives the serial result, in
// every mode, for one-shot hashing, update_parallel, subtrees and extendable output.
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <fastblake/blake3.hpp>
#include <fastblake/thread_pool.hpp>

#include "test_support.hpp"

namespace fastblake::test {
namespace {

namespace b3 = fastblake::blake3;

// Lengths where the parallel split changes shape: around the smallest parallel piece, chunk
// and power-of-two subtree boundaries, and powers of two times three.
std::vector<std::size_t> parallel_lengths(random_source& rng) {
  std::vector<std::size_t> lengths = {
      0, 1, 1024, 1025, 16 * 1024, 16 * 1024 + 1, 32 * 1024 - 1, 32 * 1024 + 1, 48 * 1024 + 7};
  // (Up to 512 KiB under ThreadSanitizer, where the larger took most of its minute.)
  const std::size_t largest = under_thread_sanitizer ? (512u << 10) : (2u << 20);
  for (std::size_t p = 64 * 1024; p <= largest; p *= 2) {
    for (std::size_t n : {p - 1024, p - 1, p, p + 1, p + 1024, 3 * p / 2 + 64})
      lengths.push_back(n);
  }
  for (int i = 0; i < 12; ++i) lengths.push_back(rng.interesting_length(3 * 1024));
  return lengths;
}

class Blake3Parallel : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    random_source rng(test_seed());
    input_ = std::make_unique<std::vector<std::byte>>(rng.bytes((4u << 20) + 4096));
  }
  static void TearDownTestSuite() { input_.reset(); }
  static std::span<const std::byte> input(std::size_t n) { return {input_->data(), n}; }

  static std::unique_ptr<std::vector<std::byte>> input_;
};

std::unique_ptr<std::vector<std::byte>> Blake3Parallel::input_;

TEST_F(Blake3Parallel, OneShotMatchesSerialForEveryThreadCount) {
  random_source rng(test_seed());
  const b3::key_type key = rng.key();
  const std::string context = "fastblake parallel test 2026-11-30";
  std::vector<std::unique_ptr<thread_pool>> pools;
  for (std::size_t threads = 1; threads <= 16; ++threads)
    pools.push_back(std::make_unique<thread_pool>(threads));
  std::size_t pair = 0;
  for (std::size_t n : parallel_lengths(rng)) {
    const auto in = input(n);
    const b3::digest plain = b3::hash_serial(in);
    const b3::digest keyed = b3::keyed_hash_serial(key, in);
    const b3::digest derived = b3::derive_key_serial(context, in);
    SCOPED_TRACE("length " + std::to_string(n) + ", seed " + std::to_string(test_seed()));
    // The serial functions against the streaming hasher, and the automatic choice.
    EXPECT_EQ(b3::hasher().update(in).finalize(), plain);
    EXPECT_EQ(b3::hasher::keyed(key).update(in).finalize(), keyed);
    EXPECT_EQ(b3::hasher::derive_key(context).update(in).finalize(), derived);
    EXPECT_EQ(b3::hash(in), plain);
    EXPECT_EQ(b3::keyed_hash(key, in), keyed);
    EXPECT_EQ(b3::derive_key(context, in), derived);
    for (const auto& pool : pools) {
      // Every thread count up to 512 KiB; above, a few, to bound the test's time.
      const std::size_t threads = pool->size();
      if (n > (512u << 10) && threads > 4 && threads != 7 && threads != 16) continue;
      SCOPED_TRACE("threads " + std::to_string(threads));
      // The split depends on the length and the pool, never on the mode: each pair of them
      // is hashed in one mode, the three in turn, so that every mode meets every length and
      // every thread count (three modes at each pair took three times as long, 50 s under
      // ThreadSanitizer, to check nothing more).
      switch (pair++ % 3) {
        case 0:
          EXPECT_EQ(b3::hash_parallel(in, *pool), plain);
          break;
        case 1:
          EXPECT_EQ(b3::keyed_hash_parallel(key, in, *pool), keyed);
          break;
        default:
          EXPECT_EQ(b3::derive_key_parallel(context, in, *pool), derived);
      }
    }
  }
}

TEST_F(Blake3Parallel, UpdateParallelMatchesUpdateInAnyPieces) {
  random_source rng(test_seed() + 1);
  const std::size_t longest = under_thread_sanitizer ? (1u << 20) : (4u << 20);
  for (int round = 0; round < 40; ++round) {
    const std::size_t threads = 1 + rng.below(16);
    thread_pool pool(threads);
    const std::size_t n = rng.below(2) == 0 ? rng.interesting_length(4096) : rng.below(longest);
    const auto in = input(n);
    SCOPED_TRACE("threads " + std::to_string(threads) + ", length " + std::to_string(n) +
                 ", seed " + std::to_string(test_seed()));
    b3::hasher serial = rng.below(2) == 0 ? b3::hasher() : b3::hasher::keyed(rng.key());
    b3::hasher parallel = serial;
    b3::hasher on_default_pool = serial;
    // Pieces from a few bytes to megabytes, so that subtrees of every size go to the pool.
    std::size_t at = 0;
    while (at < n) {
      const std::size_t step = std::min(
          n - at,
          static_cast<std::size_t>(rng.below(3) == 0 ? rng.below(5000) : rng.below(1u << 21)));
      serial.update(in.subspan(at, step));
      parallel.update_parallel(in.subspan(at, step), pool);
      on_default_pool.update_parallel(in.subspan(at, step));
      at += step;
    }
    EXPECT_EQ(parallel.finalize(), serial.finalize());
    EXPECT_EQ(on_default_pool.finalize(), serial.finalize());
    EXPECT_EQ(parallel.count(), n);
  }
}

TEST_F(Blake3Parallel, SubtreesHashedInParallelMerge) {
  // Two halves of the input hashed as subtrees with update_parallel, merged at the root.
  random_source rng(test_seed() + 2);
  thread_pool pool(3);
  for (std::size_t n : {(64u << 10) + 1, (1u << 20) + 5000, (3u << 20) + 1}) {
    SCOPED_TRACE("length " + std::to_string(n));
    const auto in = input(n);
    const std::size_t left = b3::hazmat::left_subtree_len(n);
    b3::hasher left_hasher;
    left_hasher.update_parallel(in.first(left), pool);
    b3::hasher right_hasher;
    b3::hazmat::set_input_offset(right_hasher, left);
    right_hasher.update_parallel(in.subspan(left), pool);
    EXPECT_EQ(b3::hazmat::merge_subtrees_root(b3::hazmat::finalize_non_root(left_hasher),
                                              b3::hazmat::finalize_non_root(right_hasher),
                                              b3::hazmat::mode::hash()),
              b3::hash_serial(in));
  }
}

TEST_F(Blake3Parallel, ExtendableOutputMatchesSerialFromAnyPosition) {
  random_source rng(test_seed() + 3);
  const b3::output_reader root = b3::hasher().update(input(3000)).finalize_xof();
  thread_pool one(1);
  const std::size_t longest = under_thread_sanitizer ? (1u << 20) : (3u << 20);
  for (int round = 0; round < 60; ++round) {
    const std::size_t threads = 1 + rng.below(16);
    thread_pool pool(threads);
    const std::uint64_t position =
        rng.below(2) == 0 ? rng.below(1u << 20) : (std::uint64_t{1} << 62) + rng.below(4096);
    const std::size_t n = rng.below(3) == 0 ? rng.below(4096) : rng.below(longest);
    SCOPED_TRACE("threads " + std::to_string(threads) + ", position " + std::to_string(position) +
                 ", length " + std::to_string(n));
    std::vector<std::byte> expected(n), parallel(n), automatic(n);
    b3::output_reader r = root;
    r.seek(position);
    r.fill(expected, one);
    EXPECT_EQ(r.position(), position + n);
    r.seek(position);
    r.fill(parallel, pool);
    r.seek(position);
    r.fill(automatic);
    EXPECT_TRUE(parallel == expected);
    EXPECT_TRUE(automatic == expected);
  }
}

TEST_F(Blake3Parallel, LongOutputsOfFinalizeAndDeriveKeyMatchTheReader) {
  const auto in = input(5000);
  for (std::size_t n : {64u << 10, (1u << 20) + 33}) {
    std::vector<std::byte> from_reader(n), from_finalize(n), derived(n), derived_reader(n);
    b3::hasher().update(in).finalize_xof().fill(from_reader);
    b3::hasher().update(in).finalize(from_finalize);
    EXPECT_TRUE(from_finalize == from_reader);
    b3::derive_key("context", in, derived);
    b3::hasher::derive_key("context").update(in).finalize_xof().fill(derived_reader);
    EXPECT_TRUE(derived == derived_reader);
  }
}

}  // namespace
}  // namespace fastblake::test
