// BLAKE2 against the other implementations, on random inputs and parameters, on every backend:
// libb2 (every field of the parameter block, last node, BLAKE2bp/sp), libsodium (salt and
// personalization) and OpenSSL (the default digests).
#include <blake2.h>
#include <openssl/evp.h>
#include <sodium.h>

#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <fastblake/backend.hpp>
#include <fastblake/blake2.hpp>

#include "test_support.hpp"

namespace fastblake::test {
namespace {

using Blake2Differential = per_backend;

std::string hex(const std::uint8_t* p, std::size_t n) {
  return to_hex(std::as_bytes(std::span(p, n)));
}

const std::uint8_t* bytes_of(const std::vector<std::byte>& v) {
  return reinterpret_cast<const std::uint8_t*>(v.data());
}

// Feeds libb2 in random pieces too, so that both sides' buffering is exercised.
template <class State, class Update>
void update_in_pieces(State* s, Update update, const std::vector<std::byte>& data,
                      random_source& rng) {
  std::size_t at = 0;
  while (at < data.size()) {
    const std::size_t piece = std::min<std::size_t>(data.size() - at, rng.below(600));
    update(s, bytes_of(data) + at, piece);
    at += piece;
  }
}

std::size_t random_length(random_source& rng) {
  switch (rng.below(4)) {
    case 0:
      return rng.below(200);
    case 1:
      return rng.below(2000);
    case 2:
      return 128 * rng.below(40) + rng.below(3);
    default:
      return rng.below(20000);
  }
}

TEST_P(Blake2Differential, Libb2EveryParameterBlake2b) {
  random_source rng(test_seed() + 31);
  SCOPED_TRACE("seed " + std::to_string(test_seed()));
  for (int round = 0; round < 300; ++round) {
    SCOPED_TRACE("round " + std::to_string(round));
    const auto input = rng.bytes(random_length(rng));
    const auto key = rng.bytes(rng.below(3) == 0 ? 0 : 1 + rng.below(64));
    const auto salt = rng.bytes(16);
    const auto personal = rng.bytes(16);
    blake2b_param p{};
    p.digest_length = static_cast<std::uint8_t>(1 + rng.below(64));
    p.key_length = static_cast<std::uint8_t>(key.size());
    p.fanout = static_cast<std::uint8_t>(rng.below(256));
    p.depth = static_cast<std::uint8_t>(1 + rng.below(255));
    p.leaf_length = static_cast<std::uint32_t>(rng.below(1ull << 32));
    p.node_offset = rng.below(~0ull);
    p.node_depth = static_cast<std::uint8_t>(rng.below(256));
    p.inner_length = static_cast<std::uint8_t>(rng.below(65));
    std::memcpy(p.salt, salt.data(), 16);
    std::memcpy(p.personal, personal.data(), 16);
    const bool last = rng.below(2) == 0;
    blake2b_state s;
    ASSERT_EQ(blake2b_init_param(&s, &p), 0);
    if (!key.empty()) {
      std::uint8_t block[128] = {};
      std::memcpy(block, key.data(), key.size());
      blake2b_update(&s, block, 128);
    }
    s.last_node = last ? 1 : 0;
    update_in_pieces(&s, blake2b_update, input, rng);
    std::uint8_t want[64];
    blake2b_final(&s, want, p.digest_length);

    const auto ours = blake2b::params()
                          .hash_length(p.digest_length)
                          .key(key)
                          .fanout(p.fanout)
                          .max_depth(p.depth)
                          .max_leaf_length(p.leaf_length)
                          .node_offset(p.node_offset)
                          .node_depth(p.node_depth)
                          .inner_hash_length(p.inner_length)
                          .salt(salt)
                          .personal(personal)
                          .last_node(last)
                          .hash(input);
    EXPECT_EQ(ours.to_hex(), hex(want, p.digest_length));
  }
}

TEST_P(Blake2Differential, Libb2EveryParameterBlake2s) {
  random_source rng(test_seed() + 32);
  SCOPED_TRACE("seed " + std::to_string(test_seed()));
  for (int round = 0; round < 300; ++round) {
    SCOPED_TRACE("round " + std::to_string(round));
    const auto input = rng.bytes(random_length(rng));
    const auto key = rng.bytes(rng.below(3) == 0 ? 0 : 1 + rng.below(32));
    const auto salt = rng.bytes(8);
    const auto personal = rng.bytes(8);
    const std::uint64_t offset = rng.below(1ull << 48);
    blake2s_param p{};
    p.digest_length = static_cast<std::uint8_t>(1 + rng.below(32));
    p.key_length = static_cast<std::uint8_t>(key.size());
    p.fanout = static_cast<std::uint8_t>(rng.below(256));
    p.depth = static_cast<std::uint8_t>(1 + rng.below(255));
    p.leaf_length = static_cast<std::uint32_t>(rng.below(1ull << 32));
    for (int i = 0; i < 6; ++i) p.node_offset[i] = static_cast<std::uint8_t>(offset >> (8 * i));
    p.node_depth = static_cast<std::uint8_t>(rng.below(256));
    p.inner_length = static_cast<std::uint8_t>(rng.below(33));
    std::memcpy(p.salt, salt.data(), 8);
    std::memcpy(p.personal, personal.data(), 8);
    const bool last = rng.below(2) == 0;
    blake2s_state s;
    ASSERT_EQ(blake2s_init_param(&s, &p), 0);
    if (!key.empty()) {
      std::uint8_t block[64] = {};
      std::memcpy(block, key.data(), key.size());
      blake2s_update(&s, block, 64);
    }
    s.last_node = last ? 1 : 0;
    update_in_pieces(&s, blake2s_update, input, rng);
    std::uint8_t want[32];
    blake2s_final(&s, want, p.digest_length);

    const auto ours = blake2s::params()
                          .hash_length(p.digest_length)
                          .key(key)
                          .fanout(p.fanout)
                          .max_depth(p.depth)
                          .max_leaf_length(p.leaf_length)
                          .node_offset(offset)
                          .node_depth(p.node_depth)
                          .inner_hash_length(p.inner_length)
                          .salt(salt)
                          .personal(personal)
                          .last_node(last)
                          .hash(input);
    EXPECT_EQ(ours.to_hex(), hex(want, p.digest_length));
  }
}

TEST_P(Blake2Differential, Libb2ParallelVariants) {
  random_source rng(test_seed() + 33);
  SCOPED_TRACE("seed " + std::to_string(test_seed()));
  for (int round = 0; round < 200; ++round) {
    SCOPED_TRACE("round " + std::to_string(round));
    const auto input = rng.bytes(random_length(rng) + (round % 10 == 0 ? 300000 : 0));
    const auto key_b = rng.bytes(rng.below(2) == 0 ? 0 : 1 + rng.below(64));
    const auto key_s = rng.bytes(rng.below(2) == 0 ? 0 : 1 + rng.below(32));
    const std::size_t length_b = 1 + rng.below(64);
    const std::size_t length_s = 1 + rng.below(32);

    blake2bp_state bp;
    if (key_b.empty()) {
      blake2bp_init(&bp, length_b);
    } else {
      blake2bp_init_key(&bp, length_b, key_b.data(), key_b.size());
    }
    // The long inputs in one update: libb2 starts its OpenMP threads at each one, and in
    // pieces of under 600 bytes they took nine tenths of the test's time.
    if (input.size() < 300000) {
      update_in_pieces(&bp, blake2bp_update, input, rng);
    } else {
      blake2bp_update(&bp, bytes_of(input), input.size());
    }
    std::uint8_t want_b[64];
    blake2bp_final(&bp, want_b, length_b);
    EXPECT_EQ(blake2bp::params().hash_length(length_b).key(key_b).hash(input).to_hex(),
              hex(want_b, length_b));

    blake2sp_state sp;
    if (key_s.empty()) {
      blake2sp_init(&sp, length_s);
    } else {
      blake2sp_init_key(&sp, length_s, key_s.data(), key_s.size());
    }
    if (input.size() < 300000) {
      update_in_pieces(&sp, blake2sp_update, input, rng);
    } else {
      blake2sp_update(&sp, bytes_of(input), input.size());
    }
    std::uint8_t want_s[32];
    blake2sp_final(&sp, want_s, length_s);
    EXPECT_EQ(blake2sp::params().hash_length(length_s).key(key_s).hash(input).to_hex(),
              hex(want_s, length_s));
  }
}

TEST_P(Blake2Differential, LibsodiumSaltAndPersonal) {
  ASSERT_GE(sodium_init(), 0);
  random_source rng(test_seed() + 34);
  for (int round = 0; round < 200; ++round) {
    SCOPED_TRACE("round " + std::to_string(round));
    const auto input = rng.bytes(random_length(rng));
    const auto key = rng.bytes(rng.below(2) == 0 ? 0 : 16 + rng.below(49));
    const auto salt = rng.bytes(16);
    const auto personal = rng.bytes(16);
    const std::size_t length = 16 + rng.below(49);
    std::uint8_t want[64];
    ASSERT_EQ(
        crypto_generichash_blake2b_salt_personal(want, length, bytes_of(input), input.size(),
                                                 key.empty() ? nullptr : bytes_of(key), key.size(),
                                                 bytes_of(salt), bytes_of(personal)),
        0);
    EXPECT_EQ(blake2b::params()
                  .hash_length(length)
                  .key(key)
                  .salt(salt)
                  .personal(personal)
                  .hash(input)
                  .to_hex(),
              hex(want, length));
  }
}

TEST_P(Blake2Differential, OpenSslDefaultDigests) {
  random_source rng(test_seed() + 35);
  for (int round = 0; round < 100; ++round) {
    const auto input = rng.bytes(random_length(rng));
    std::uint8_t want[64];
    unsigned int n = 0;
    ASSERT_EQ(EVP_Digest(input.data(), input.size(), want, &n, EVP_blake2b512(), nullptr), 1);
    EXPECT_EQ(blake2b::hash(input).to_hex(), hex(want, n));
    ASSERT_EQ(EVP_Digest(input.data(), input.size(), want, &n, EVP_blake2s256(), nullptr), 1);
    EXPECT_EQ(blake2s::hash(input).to_hex(), hex(want, n));
  }
}

INSTANTIATE_TEST_SUITE_P(, Blake2Differential, ::testing::ValuesIn(backend_names()),
                         [](const ::testing::TestParamInfo<std::string>& backend) {
                           return backend.param;
                         });

}  // namespace
}  // namespace fastblake::test
