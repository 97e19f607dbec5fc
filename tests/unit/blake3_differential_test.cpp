// Differential tests against the official BLAKE3 C implementation (built from Debian's
// librust-blake3-dev at configure time): random inputs, keys, contexts, output lengths and
// seeks, under every kernel configuration.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <fastblake/blake3.hpp>

#include "blake3.h"
#include "kernel_fixture.hpp"
#include "test_support.hpp"

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
  switch (rng.below(4)) {
    case 0:
      return 0;
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
  const int rounds = GetParam()->simd_degree == 1 || GetParam()->simd_degree == 16 ? 1500 : 300;
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

FASTBLAKE_INSTANTIATE_FOR_KERNELS(Blake3Differential);

}  // namespace
}  // namespace fastblake::test
