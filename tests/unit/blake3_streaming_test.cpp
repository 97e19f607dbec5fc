// Streaming: every way of feeding the same input gives the same output, finalize leaves the
// state alone, reset starts over, and extendable output can be read from anywhere.
#include <functional>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include <gtest/gtest.h>

#include <fastblake/blake3.hpp>
#include <fastblake/thread_pool.hpp>

#include "kernel_fixture.hpp"
#include "test_support.hpp"

namespace fastblake::test {
namespace {

namespace b3 = fastblake::blake3;

// A hasher in a random mode, with the matching one-shot function.
struct random_mode {
  b3::hasher initial;
  std::function<b3::digest(std::span<const std::byte>)> one_shot;
  std::string name;
};

random_mode pick_mode(random_source& rng) {
  switch (rng.below(3)) {
    case 0:
      return {b3::hasher(), [](auto in) { return b3::hash(in); }, "hash"};
    case 1: {
      const b3::key_type key = rng.key();
      return {b3::hasher::keyed(key), [key](auto in) { return b3::keyed_hash(key, in); }, "keyed"};
    }
    default: {
      const std::string context = rng.text(rng.below(80));
      return {b3::hasher::derive_key(context),
              [context](auto in) { return b3::derive_key(context, in); }, "derive_key"};
    }
  }
}

// A hasher is a plain value: copying forks it, and it owns no heap memory.
static_assert(std::is_trivially_copyable_v<b3::hasher>);
static_assert(std::is_nothrow_default_constructible_v<b3::hasher>);
static_assert(std::is_trivially_copyable_v<b3::output_reader>);

class Blake3Streaming : public kernel_test {};

TEST_P(Blake3Streaming, EveryFeedingGivesTheOneShotDigest) {
  random_source rng(test_seed());
  for (int round = 0; round < 150; ++round) {
    const std::size_t len = rng.interesting_length(40);
    const auto input = rng.bytes(len);
    random_mode m = pick_mode(rng);
    SCOPED_TRACE(m.name + ", length " + std::to_string(len) + ", seed " +
                 std::to_string(test_seed()));
    const b3::digest expected = m.one_shot(input);

    b3::hasher one = m.initial;
    EXPECT_EQ(one.update(input).finalize(), expected);

    b3::hasher pieces = m.initial;
    update_in_pieces(pieces, input, rng.split_points(len));
    EXPECT_EQ(pieces.finalize(), expected);
    EXPECT_EQ(pieces.count(), len);

    if (len <= 3 * b3::chunk_size) {
      b3::hasher bytewise = m.initial;
      for (std::byte b : input) bytewise.update(std::span(&b, 1));
      EXPECT_EQ(bytewise.finalize(), expected);
    }
  }
}

TEST_P(Blake3Streaming, FinalizeLeavesTheStateAlone) {
  random_source rng(test_seed() + 1);
  for (int round = 0; round < 40; ++round) {
    const auto a = rng.bytes(rng.interesting_length(20));
    const auto b = rng.bytes(rng.interesting_length(20));
    std::vector<std::byte> ab = a;
    ab.insert(ab.end(), b.begin(), b.end());

    b3::hasher h;
    h.update(a);
    const b3::digest first = h.finalize();
    EXPECT_EQ(h.finalize(), first);
    EXPECT_EQ(first, b3::hash(a));
    h.update(b);
    EXPECT_EQ(h.finalize(), b3::hash(ab));
    EXPECT_EQ(h.count(), ab.size());
  }
}

TEST_P(Blake3Streaming, CopiesForkTheHash) {
  const auto input = vector_input(5000);
  b3::hasher h;
  h.update(std::span(input).first(3000));
  b3::hasher fork = h;
  h.update(std::span(input).subspan(3000));
  fork.update(std::span(input).subspan(3000, 100));
  EXPECT_EQ(h.finalize(), b3::hash(input));
  EXPECT_EQ(fork.finalize(), b3::hash(std::span(input).first(3100)));
}

TEST_P(Blake3Streaming, ResetKeepsTheMode) {
  const b3::key_type key = random_source(7).key();
  const auto input = vector_input(4097);
  b3::hasher keyed = b3::hasher::keyed(key);
  keyed.update(vector_input(10000));
  keyed.reset();
  EXPECT_EQ(keyed.count(), 0u);
  keyed.update(input);
  EXPECT_EQ(keyed.finalize(), b3::keyed_hash(key, input));

  b3::hasher derive = b3::hasher::derive_key("ctx");
  derive.update(vector_input(3));
  derive.reset();
  derive.update(input);
  EXPECT_EQ(derive.finalize(), b3::derive_key("ctx", input));

  b3::hasher plain;
  b3::hazmat::set_input_offset(plain, 4096);
  plain.update(vector_input(10));
  plain.reset();
  plain.update(input);
  EXPECT_EQ(plain.finalize(), b3::hash(input)) << "reset clears the input offset";
}

TEST_P(Blake3Streaming, SeeksReadSlicesOfOneLongRead) {
  random_source rng(test_seed() + 2);
  for (int round = 0; round < 20; ++round) {
    const auto input = rng.bytes(rng.interesting_length(8));
    b3::hasher h;
    h.update(input);
    std::vector<std::byte> all(5000);
    h.finalize(all);
    b3::output_reader reader = h.finalize_xof();
    for (int read = 0; read < 30; ++read) {
      const std::size_t at = rng.below(all.size());
      const std::size_t n = rng.below(all.size() - at + 1);
      std::vector<std::byte> got(n);
      reader.seek(at);
      reader.fill(got);
      EXPECT_EQ(reader.position(), at + n);
      EXPECT_EQ(to_hex(got), to_hex(std::span(all).subspan(at, n)))
          << "seek " << at << ", length " << n;
    }
  }
}

TEST_P(Blake3Streaming, OutputGoesOnPastTheLastPosition) {
  b3::output_reader reader = b3::hasher().finalize_xof();
  constexpr std::uint64_t last = std::numeric_limits<std::uint64_t>::max();
  reader.seek(last - 10);
  std::vector<std::byte> whole(200);
  reader.fill(whole);
  EXPECT_EQ(reader.position(), 189u) << "positions count modulo 2^64";

  // In pieces that end inside blocks and on the last byte.
  reader.seek(last - 10);
  std::vector<std::byte> pieces(200);
  reader.fill(std::span(pieces).first(11));
  EXPECT_EQ(reader.position(), 0u);
  reader.fill(std::span(pieces).subspan(11, 70));
  reader.fill(std::span(pieces).subspan(81));
  EXPECT_EQ(to_hex(pieces), to_hex(whole));
  // And they are not the output's first bytes again.
  std::vector<std::byte> first(189);
  reader.seek(0);
  reader.fill(first);
  EXPECT_NE(to_hex(std::span(whole).subspan(11)), to_hex(first));
}

TEST_P(Blake3Streaming, ConvenienceOverloadsAgree) {
  const std::string text = "The quick brown fox jumps over the lazy dog";
  const auto bytes = std::as_bytes(std::span(text));
  const std::vector<std::uint8_t> u8(text.begin(), text.end());
  const std::vector<unsigned char> uc(text.begin(), text.end());
  const b3::digest expected = b3::hash(bytes);
  EXPECT_EQ(b3::hash(text), expected);
  EXPECT_EQ(b3::hash(u8), expected);
  EXPECT_EQ(b3::hash(std::span<const unsigned char>(uc)), expected);
  EXPECT_EQ(b3::hasher().update(text).finalize(), expected);
  EXPECT_EQ(b3::hasher().update(u8).finalize(), expected);
  const b3::key_type key{};
  EXPECT_EQ(b3::keyed_hash(key, text), b3::keyed_hash(key, bytes));
  EXPECT_EQ(b3::keyed_hash(key, u8), b3::keyed_hash(key, bytes));
  EXPECT_EQ(b3::derive_key("ctx", text), b3::derive_key("ctx", bytes));
  EXPECT_EQ(b3::derive_key("ctx", u8), b3::derive_key("ctx", bytes));
  // Every one-shot function takes the same three forms of input.
  thread_pool pool(2);
  for (const b3::digest& d : {b3::hash_serial(text), b3::hash_serial(u8), b3::hash_serial(bytes),
                              b3::hash_parallel(text, pool), b3::hash_parallel(u8, pool),
                              b3::hash_parallel(bytes, pool)}) {
    EXPECT_EQ(d, expected);
  }
  const b3::digest keyed = b3::keyed_hash(key, bytes);
  for (const b3::digest& d :
       {b3::keyed_hash_serial(key, text), b3::keyed_hash_serial(key, u8),
        b3::keyed_hash_serial(key, bytes), b3::keyed_hash_parallel(key, text, pool),
        b3::keyed_hash_parallel(key, u8, pool), b3::keyed_hash_parallel(key, bytes, pool)}) {
    EXPECT_EQ(d, keyed);
  }
  const b3::digest derived = b3::derive_key("ctx", bytes);
  for (const b3::digest& d :
       {b3::derive_key_serial("ctx", text), b3::derive_key_serial("ctx", u8),
        b3::derive_key_serial("ctx", bytes), b3::derive_key_parallel("ctx", text, pool),
        b3::derive_key_parallel("ctx", u8, pool), b3::derive_key_parallel("ctx", bytes, pool)}) {
    EXPECT_EQ(d, derived);
  }
  std::vector<std::byte> long_a(100), long_b(100), long_c(100);
  b3::derive_key("ctx", text, long_a);
  b3::derive_key("ctx", u8, long_b);
  b3::derive_key("ctx", bytes, long_c);
  EXPECT_EQ(long_a, long_c);
  EXPECT_EQ(long_b, long_c);
}

FASTBLAKE_INSTANTIATE_FOR_KERNELS(Blake3Streaming);

}  // namespace
}  // namespace fastblake::test
