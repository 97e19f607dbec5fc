// Differential tests against the official BLAKE3 C implementation (built from Debian's
// librust-blake3-dev at configure time): random inputs, keys, contexts, output lengths and
// seeks, under every kernel configuration.
#include <array>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <fastblake/blake3.hpp>
#include <fastblake/thread_pool.hpp>

#include "blake3.h"
#include "kernel_fixture.hpp"
#include "test_support.hpp"

// The official library's compression function: exported (blake3_impl.h), not in blake3.h.
extern "C" void blake3_compress_in_place(std::uint32_t cv[8], const std::uint8_t block[64],
                                         std::uint8_t block_len, std::uint64_t counter,
                                         std::uint8_t flags);

namespace fastblake::test {
namespace {

namespace b3 = fastblake::blake3;

struct case_mode {
  enum { hash, keyed, derive } kind;
  b3::key_type key;
  std::string context;

  b3::hasher ours() const {
    switch (kind) {
      case hash:
        return b3::hasher();
      case keyed:
        return b3::hasher::keyed(key);
      default:
        return b3::hasher::derive_key(context);
    }
  }
  blake3_hasher official() const {
    blake3_hasher h;
    switch (kind) {
      case hash:
        blake3_hasher_init(&h);
        break;
      case keyed:
        blake3_hasher_init_keyed(&h, key.data());
        break;
      default:
        blake3_hasher_init_derive_key_raw(&h, context.data(), context.size());
    }
    return h;
  }
  b3::digest one_shot(std::span<const std::byte> input) const {
    switch (kind) {
      case hash:
        return b3::hash(input);
      case keyed:
        return b3::keyed_hash(key, input);
      default:
        return b3::derive_key(context, input);
    }
  }
};

case_mode random_case_mode(random_source& rng) {
  case_mode m{static_cast<decltype(case_mode::hash)>(rng.below(3)), rng.key(), {}};
  // Contexts of any bytes, NUL included, and of any length around block boundaries.
  m.context = rng.text(rng.below(4) == 0 ? rng.below(200) : rng.below(40));
  return m;
}

std::uint64_t random_seek(random_source& rng) {
  switch (rng.below(5)) {
    case 0:
      return 0;
    case 4:
      // Reads that pass byte 2^64 - 1, where the official output goes on.
      return std::numeric_limits<std::uint64_t>::max() - rng.below(3000);
    case 1:
      return rng.below(2000);
    case 2:
      return rng.below(std::uint64_t{1} << 40);
    default:
      return (std::uint64_t{1} << 63) + rng.below(std::uint64_t{1} << 62);
  }
}

void update_in_pieces_official(blake3_hasher& h, std::span<const std::byte> input,
                               const std::vector<std::size_t>& cuts) {
  std::size_t from = 0;
  for (std::size_t to : cuts) {
    blake3_hasher_update(&h, input.data() + from, to - from);
    from = to;
  }
}

class Blake3Differential : public kernel_test {};

TEST_P(Blake3Differential, RandomCasesMatchTheOfficialImplementation) {
  random_source rng(test_seed() + 4);
  const int rounds = is_native(GetParam()) ? 1500 : 150;
  for (int round = 0; round < rounds; ++round) {
    const std::size_t len = rng.interesting_length(rng.below(50) == 0 ? 600 : 70);
    const auto input = rng.bytes(len);
    const case_mode m = random_case_mode(rng);
    const std::size_t out_len = rng.below(4) == 0 ? rng.below(2000) : rng.below(100);
    const std::uint64_t seek = random_seek(rng);
    SCOPED_TRACE("round " + std::to_string(round) + ", mode " + std::to_string(m.kind) +
                 ", length " + std::to_string(len) + ", output " + std::to_string(out_len) +
                 " at " + std::to_string(seek) + ", seed " + std::to_string(test_seed()));

    blake3_hasher official = m.official();
    update_in_pieces_official(official, input, rng.split_points(len));
    b3::digest::bytes_type official_digest;
    blake3_hasher_finalize(&official, official_digest.data(), official_digest.size());
    std::vector<std::byte> official_out(out_len);
    blake3_hasher_finalize_seek(&official, seek,
                                reinterpret_cast<std::uint8_t*>(official_out.data()), out_len);

    EXPECT_EQ(m.one_shot(input), b3::digest(official_digest));
    b3::hasher ours = m.ours();
    update_in_pieces(ours, input, rng.split_points(len));
    EXPECT_EQ(ours.finalize(), b3::digest(official_digest));
    b3::output_reader reader = ours.finalize_xof();
    reader.seek(seek);
    std::vector<std::byte> our_out(out_len);
    reader.fill(our_out);
    EXPECT_EQ(to_hex(our_out), to_hex(official_out));
  }
}

TEST_P(Blake3Differential, ALargeReadAcrossByte2To64OnThreads) {
  const std::vector<std::byte> input(3000, std::byte{7});
  blake3_hasher official;
  blake3_hasher_init(&official);
  blake3_hasher_update(&official, input.data(), input.size());
  const std::uint64_t seek = std::numeric_limits<std::uint64_t>::max() - (300 << 10) + 5;
  std::vector<std::byte> want(1 << 20), got(1 << 20);
  blake3_hasher_finalize_seek(&official, seek, reinterpret_cast<std::uint8_t*>(want.data()),
                              want.size());
  thread_pool pool(4);
  b3::output_reader reader = b3::hasher().update(input).finalize_xof();
  reader.seek(seek);
  reader.fill(got, pool);
  EXPECT_EQ(to_hex(got), to_hex(want));
  EXPECT_EQ(reader.position(), seek + got.size()) << "positions count modulo 2^64";
}

TEST_P(Blake3Differential, LargeInputs) {
  random_source rng(test_seed() + 5);
  for (std::size_t len : {std::size_t{1} << 20, (std::size_t{3} << 20) + 1234}) {
    const auto input = rng.bytes(len);
    blake3_hasher official;
    blake3_hasher_init(&official);
    blake3_hasher_update(&official, input.data(), input.size());
    b3::digest::bytes_type expected;
    blake3_hasher_finalize(&official, expected.data(), expected.size());
    EXPECT_EQ(b3::hash(input), b3::digest(expected)) << len;
    b3::hasher h;
    update_in_pieces(h, input, rng.split_points(len));
    EXPECT_EQ(h.finalize(), b3::digest(expected)) << len;
  }
}

// A subtree's chaining value computed from the official compression function alone: the
// reference tree for chunk counters that one-pass hashing cannot reach (above 2^32).
std::array<std::uint32_t, 8> official_subtree_cv(const std::array<std::uint32_t, 8>& key,
                                                 std::uint8_t mode_flags, const std::byte* input,
                                                 std::uint64_t chunk, std::size_t len) {
  constexpr std::uint8_t chunk_start = 1, chunk_end = 2, parent = 4;
  std::array<std::uint32_t, 8> cv = key;
  if (len <= b3::chunk_size) {
    for (std::size_t at = 0; at < len || at == 0; at += b3::block_size) {
      std::uint8_t block[64] = {};
      const std::size_t n = std::min(b3::block_size, len - at);
      std::memcpy(block, input + at, n);
      std::uint8_t flags = mode_flags;
      if (at == 0) flags |= chunk_start;
      if (at + b3::block_size >= len) flags |= chunk_end;
      blake3_compress_in_place(cv.data(), block, static_cast<std::uint8_t>(n), chunk, flags);
    }
    return cv;
  }
  std::uint64_t left_chunks = 1;
  while (2 * left_chunks * b3::chunk_size < len) left_chunks *= 2;
  const std::size_t left = left_chunks * b3::chunk_size;
  const auto l = official_subtree_cv(key, mode_flags, input, chunk, left);
  const auto r =
      official_subtree_cv(key, mode_flags, input + left, chunk + left_chunks, len - left);
  std::uint8_t block[64];
  for (int i = 0; i < 8; ++i) {
    for (int j = 0; j < 4; ++j) {
      block[4 * i + j] = static_cast<std::uint8_t>(l[i] >> 8 * j);
      block[32 + 4 * i + j] = static_cast<std::uint8_t>(r[i] >> 8 * j);
    }
  }
  blake3_compress_in_place(cv.data(), block, 64, 0, mode_flags | parent);
  return cv;
}

TEST_P(Blake3Differential, SubtreesAtFarOffsetsMatchTheOfficialCompression) {
  random_source rng(test_seed() + 6);
  constexpr std::array<std::uint32_t, 8> iv = {0x6A09E667, 0xBB67AE85, 0x3C6EF372, 0xA54FF53A,
                                               0x510E527F, 0x9B05688C, 0x1F83D9AB, 0x5BE0CD19};
  constexpr std::uint64_t max_chunk = (std::uint64_t{1} << 54) - 1;
  for (int round = 0; round < 200; ++round) {
    // A subtree of up to 2^levels chunks at a chunk index of 33 to 54 bits.
    const unsigned levels = static_cast<unsigned>(rng.below(5));
    const std::uint64_t most = std::uint64_t{1} << levels;
    std::uint64_t chunk = (std::uint64_t{1} << 32) + rng.below(max_chunk - (1ull << 32));
    chunk = round % 10 == 0 ? max_chunk & ~(most - 1) : chunk & ~(most - 1);
    const std::size_t len =
        levels == 0 ? 1 + rng.below(b3::chunk_size)
                    : (most / 2) * b3::chunk_size + 1 + rng.below((most / 2) * b3::chunk_size);
    const auto input = rng.bytes(len);
    const bool keyed = rng.below(2) == 0;
    const b3::key_type key = rng.key();
    std::array<std::uint32_t, 8> key_words = iv;
    if (keyed) {
      for (int i = 0; i < 8; ++i) {
        key_words[i] = static_cast<std::uint32_t>(key[4 * i]) | key[4 * i + 1] << 8 |
                       key[4 * i + 2] << 16 | static_cast<std::uint32_t>(key[4 * i + 3]) << 24;
      }
    }
    SCOPED_TRACE("chunk " + std::to_string(chunk) + ", length " + std::to_string(len));

    b3::hasher h = keyed ? b3::hasher::keyed(key) : b3::hasher();
    b3::hazmat::set_input_offset(h, chunk * b3::chunk_size);
    update_in_pieces(h, input, rng.split_points(len));
    const b3::hazmat::chaining_value ours = b3::hazmat::finalize_non_root(h);
    const auto expected =
        official_subtree_cv(key_words, keyed ? 16 : 0, input.data(), chunk, input.size());
    b3::hazmat::chaining_value expected_bytes;
    for (int i = 0; i < 8; ++i)
      for (int j = 0; j < 4; ++j)
        expected_bytes[4 * i + j] = static_cast<std::uint8_t>(expected[i] >> 8 * j);
    EXPECT_EQ(to_hex(std::as_bytes(std::span(ours))),
              to_hex(std::as_bytes(std::span(expected_bytes))));
  }
}

FASTBLAKE_INSTANTIATE_FOR_KERNELS(Blake3Differential);

}  // namespace
}  // namespace fastblake::test
