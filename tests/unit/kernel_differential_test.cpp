// Each backend's kernels against the portable kernel, function by function: every count from 1
// to past twice the SIMD width (full groups, narrower groups and padded leftovers), counters
// whose lanes straddle a 2^32 carry, and every flag combination the tree uses.
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "kernel_fixture.hpp"
#include "test_support.hpp"

namespace fastblake::test {
namespace {

constexpr std::uint64_t carry_counters[] = {0, 1, (std::uint64_t{1} << 32) - 3,
                                            (std::uint64_t{1} << 54) - 40};

std::array<std::uint32_t, 8> random_key(random_source& rng) {
  std::array<std::uint32_t, 8> key;
  for (auto& w : key) w = static_cast<std::uint32_t>(rng.below(std::uint64_t{1} << 32));
  return key;
}

class KernelDifferential : public kernel_test {
 protected:
  const k3::kernels& k() const { return *GetParam()->blake3; }
  std::size_t max_count() const { return 2 * std::max<std::size_t>(k().simd_degree, 16) + 3; }
};

TEST_P(KernelDifferential, HashChunks) {
  random_source rng(test_seed() + 10);
  for (std::size_t n = 0; n <= max_count(); ++n) {
    const auto input = rng.bytes(n * k3::chunk_len);
    const auto* in = reinterpret_cast<const std::uint8_t*>(input.data());
    const auto key = random_key(rng);
    for (std::uint64_t counter : carry_counters) {
      for (std::uint8_t flags : {std::uint8_t{0}, std::uint8_t{k3::keyed_hash}}) {
        std::vector<std::uint8_t> ours(n * k3::out_len + 1, 0xAA),
            expected(n * k3::out_len + 1, 0xAA);
        k().hash_chunks(in, n, key.data(), counter, flags, ours.data());
        k3::portable.hash_chunks(in, n, key.data(), counter, flags, expected.data());
        ASSERT_EQ(ours, expected) << n << " chunks at counter " << counter;
      }
    }
  }
}

// Every variant of every kernel set that has several, called directly, whichever this CPU
// would choose: 1 to 40 chunks (the variants differ in the last three or four).
TEST(KernelVariants, EveryVariantHashesChunksAsPortable) {
  random_source rng(test_seed() + 19);
  std::size_t sets = 0;
  for (const backend* b : internal::available_backends()) {
    if (b->blake3->variants == nullptr) continue;
    ++sets;
    EXPECT_GE(b->blake3->variants->variants().size(), 2u) << b->name;
    for (const k3::kernel_variant& variant : b->blake3->variants->variants()) {
      for (std::size_t n = 1; n <= 40; ++n) {
        const auto input = rng.bytes(n * k3::chunk_len);
        const auto* in = reinterpret_cast<const std::uint8_t*>(input.data());
        const auto key = random_key(rng);
        std::vector<std::uint8_t> ours(n * k3::out_len), expected(n * k3::out_len);
        variant.hash_chunks(in, n, key.data(), carry_counters[2], 0, ours.data());
        k3::portable.hash_chunks(in, n, key.data(), carry_counters[2], 0, expected.data());
        EXPECT_EQ(ours, expected) << b->name << " " << variant.name << ", " << n << " chunks";
      }
    }
  }
  if (sets == 0) GTEST_SKIP() << "no backend with variants on this CPU or build";
}

TEST_P(KernelDifferential, HashParents) {
  random_source rng(test_seed() + 11);
  for (std::size_t n = 0; n <= max_count(); ++n) {
    const auto input = rng.bytes(n * k3::block_len);
    const auto* in = reinterpret_cast<const std::uint8_t*>(input.data());
    const auto key = random_key(rng);
    for (std::uint8_t flags : {std::uint8_t{0}, std::uint8_t{k3::derive_key_material}}) {
      std::vector<std::uint8_t> ours(n * k3::out_len + 1, 0xAA),
          expected(n * k3::out_len + 1, 0xAA);
      k().hash_parents(in, n, key.data(), flags, ours.data());
      k3::portable.hash_parents(in, n, key.data(), flags, expected.data());
      ASSERT_EQ(ours, expected) << n << " parents";
    }
  }
}

TEST_P(KernelDifferential, XofMany) {
  random_source rng(test_seed() + 12);
  for (std::size_t n = 0; n <= max_count(); ++n) {
    const auto key = random_key(rng);
    const auto block = rng.bytes(k3::block_len);
    const auto* b = reinterpret_cast<const std::uint8_t*>(block.data());
    const auto len = static_cast<std::uint8_t>(rng.below(k3::block_len + 1));
    for (std::uint64_t counter : carry_counters) {
      const auto flags = static_cast<std::uint8_t>(k3::root | rng.below(8));
      std::vector<std::uint8_t> ours(n * k3::block_len + 1, 0xAA),
          expected(n * k3::block_len + 1, 0xAA);
      k().xof_many(key.data(), b, len, counter, flags, ours.data(), n);
      k3::portable.xof_many(key.data(), b, len, counter, flags, expected.data(), n);
      ASSERT_EQ(ours, expected) << n << " blocks at counter " << counter;
    }
  }
}

TEST_P(KernelDifferential, HashRootsOfMixedLengths) {
  random_source rng(test_seed() + 14);
  for (std::size_t n = 0; n <= max_count(); ++n) {
    std::vector<std::vector<std::byte>> inputs;
    std::vector<const std::uint8_t*> pointers;
    std::vector<std::size_t> lengths;
    for (std::size_t i = 0; i < n; ++i) {
      inputs.push_back(rng.bytes(rng.below(2) ? rng.below(k3::chunk_len + 1) : rng.below(130)));
      lengths.push_back(inputs.back().size());
    }
    for (const auto& in : inputs)
      pointers.push_back(reinterpret_cast<const std::uint8_t*>(in.data()));
    const auto key = random_key(rng);
    for (std::uint8_t flags : {std::uint8_t{0}, std::uint8_t{k3::keyed_hash}}) {
      std::vector<std::uint8_t> ours(n * k3::out_len + 1, 0xAA),
          expected(n * k3::out_len + 1, 0xAA);
      k().hash_roots(pointers.data(), lengths.data(), n, key.data(), flags, ours.data());
      k3::portable.hash_roots(pointers.data(), lengths.data(), n, key.data(), flags,
                              expected.data());
      ASSERT_EQ(ours, expected) << n << " inputs";
    }
  }
}

TEST_P(KernelDifferential, CompressBlocks) {
  random_source rng(test_seed() + 15);
  for (std::size_t n = 0; n <= k3::blocks_per_chunk; ++n) {
    auto cv = random_key(rng);
    auto expected = cv;
    const auto blocks = rng.bytes(n * k3::block_len);
    const auto* b = reinterpret_cast<const std::uint8_t*>(blocks.data());
    const std::uint64_t counter = rng.below(~std::uint64_t{0});
    k().compress_blocks(cv.data(), b, n, counter, k3::chunk_start | k3::keyed_hash, k3::keyed_hash);
    k3::portable.compress_blocks(expected.data(), b, n, counter, k3::chunk_start | k3::keyed_hash,
                                 k3::keyed_hash);
    ASSERT_EQ(cv, expected) << n << " blocks";
  }
}

TEST_P(KernelDifferential, CompressInPlace) {
  random_source rng(test_seed() + 13);
  for (int round = 0; round < 500; ++round) {
    auto cv = random_key(rng);
    auto expected = cv;
    const auto block = rng.bytes(k3::block_len);
    const auto* b = reinterpret_cast<const std::uint8_t*>(block.data());
    const auto len = static_cast<std::uint8_t>(rng.below(k3::block_len + 1));
    const std::uint64_t counter = rng.below(2) ? rng.below(100) : rng.below(~std::uint64_t{0});
    const auto flags = static_cast<std::uint8_t>(rng.below(128));
    k().compress_in_place(cv.data(), b, len, counter, flags);
    k3::portable.compress_in_place(expected.data(), b, len, counter, flags);
    ASSERT_EQ(cv, expected) << "round " << round;
  }
}

FASTBLAKE_INSTANTIATE_FOR_KERNELS(KernelDifferential);

}  // namespace
}  // namespace fastblake::test
