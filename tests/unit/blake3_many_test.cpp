// hash_many and keyed_hash_many: every output equals the one-shot hash of its input, for any
// mix of lengths (empty, partial blocks, whole chunks, beyond a chunk) and any count.
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <fastblake/blake3.hpp>

#include "kernel_fixture.hpp"
#include "test_support.hpp"

namespace fastblake::test {
namespace {

namespace b3 = fastblake::blake3;

struct batch {
  std::vector<std::vector<std::byte>> storage;
  std::vector<std::span<const std::byte>> spans;
};

batch random_batch(random_source& rng, std::size_t n) {
  batch b;
  const std::size_t common = rng.below(b3::chunk_size + 1);
  for (std::size_t i = 0; i < n; ++i) {
    std::size_t len;
    switch (rng.below(5)) {
      case 0:
        len = common;
        break;  // runs of equal lengths, as a store's fixed-size records
      case 1:
        len = rng.below(65);
        break;
      case 2:
        len = b3::chunk_size - rng.below(3);
        break;
      case 3:
        len = b3::chunk_size + 1 + rng.below(3000);
        break;
      default:
        len = rng.below(b3::chunk_size + 1);
        break;
    }
    b.storage.push_back(rng.bytes(len));
  }
  for (const auto& s : b.storage) b.spans.emplace_back(s);
  return b;
}

class Blake3Many : public kernel_test {};

TEST_P(Blake3Many, EachOutputIsTheOneShotHash) {
  random_source rng(test_seed() + 20);
  for (std::size_t n :
       {0u, 1u, 2u, 3u, 5u, 8u, 15u, 16u, 17u, 31u, 33u, 64u, 255u, 256u, 257u, 600u}) {
    const batch b = random_batch(rng, n);
    const b3::key_type key = rng.key();
    std::vector<b3::digest> plain(n), keyed(n);
    b3::hash_many(b.spans, plain);
    b3::keyed_hash_many(key, b.spans, keyed);
    for (std::size_t i = 0; i < n; ++i) {
      ASSERT_EQ(plain[i], b3::hash(b.spans[i]))
          << "input " << i << " of " << n << ", length " << b.spans[i].size();
      ASSERT_EQ(keyed[i], b3::keyed_hash(key, b.spans[i])) << "input " << i << " of " << n;
    }
  }
}

// Windows whose inputs share one block count take a path of their own (no sort, digests written
// in place): equal lengths, and lengths that differ within one block count.
TEST_P(Blake3Many, BatchesOfOneBlockCount) {
  random_source rng(test_seed() + 21);
  for (std::size_t len : {0u, 1u, 63u, 64u, 65u, 128u, 1000u, 1023u, 1024u}) {
    for (std::size_t n : {1u, 2u, 7u, 16u, 17u, 256u, 300u, 600u}) {
      for (const bool vary : {false, true}) {
        batch b;
        for (std::size_t i = 0; i < n; ++i) {
          // Shorter by up to a block's worth, never below the previous block count.
          const std::size_t floor = len == 0 ? 0 : (len - 1) / b3::block_size * b3::block_size + 1;
          b.storage.push_back(
              rng.bytes(vary && len > floor ? floor + rng.below(len - floor + 1) : len));
        }
        for (const auto& st : b.storage) b.spans.emplace_back(st);
        std::vector<b3::digest> out(n);
        b3::hash_many(b.spans, out);
        for (std::size_t i = 0; i < n; ++i) {
          ASSERT_EQ(out[i], b3::hash(b.spans[i]))
              << "input " << i << " of " << n << ", length " << b.spans[i].size();
        }
      }
    }
  }
}

TEST_P(Blake3Many, MismatchedSizesThrowAndWriteNothing) {
  const auto input = vector_input(10);
  const std::vector<std::span<const std::byte>> inputs(3, std::span<const std::byte>(input));
  std::vector<b3::digest> outputs(2);
  EXPECT_THROW(b3::hash_many(inputs, outputs), std::invalid_argument);
  EXPECT_THROW(b3::keyed_hash_many(b3::key_type{}, inputs, outputs), std::invalid_argument);
  EXPECT_EQ(outputs[0], b3::digest());
  EXPECT_EQ(outputs[1], b3::digest());
}

FASTBLAKE_INSTANTIATE_FOR_KERNELS(Blake3Many);

}  // namespace
}  // namespace fastblake::test
