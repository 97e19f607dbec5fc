// Bao (<fastblake/bao.hpp>) against hostile encodings: every single-byte corruption of small
// encodings, a corrupted node of a large one named where it is, every truncation, lying length
// headers and the wrong hash.
#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include <gtest/gtest.h>

#include <fastblake/bao.hpp>
#include <fastblake/blake3.hpp>

#include "bao_test_support.hpp"
#include "test_support.hpp"

namespace fastblake::test {
namespace {

namespace b3 = fastblake::blake3;

TEST(BaoHostile, EverySingleByteCorruptionOfSmallEncodingsFails) {
  for (std::size_t len : {0, 1, 1023, 1024, 1025, 2049, 3 * 1024 + 1, 5 * 1024}) {
    const byte_vector input = bao_input(len);
    for (unsigned k : {0u, 1u}) {
      const bao::encoding combined = bao::encode(input, k),
                          outboard = bao::encode_outboard(input, k);
      for (std::size_t at = 0; at < combined.bytes.size(); ++at) {
        for (std::byte bit : {std::byte{1}, std::byte{0x80}}) {
          byte_vector bad = combined.bytes;
          bad[at] ^= bit;
          EXPECT_THROW(bao::decode(combined.hash, bad, k), bao::error) << len << " at " << at;
        }
      }
      for (std::size_t at = 0; at < outboard.bytes.size(); ++at) {
        EXPECT_THROW(bao::decode_outboard(outboard.hash, flipped(outboard.bytes, at), input, k),
                     bao::error)
            << len << " outboard at " << at;
      }
      for (std::size_t at = 0; at < input.size(); at += 97) {
        EXPECT_THROW(bao::decode_outboard(outboard.hash, outboard.bytes, flipped(input, at), k),
                     bao::error)
            << len << " input at " << at;
      }
    }
  }
}

// The offset of each node (parents, and leaves unless outboard) of an encoding, in pre-order:
// Bao's own corruption points, for any size and group.
void node_offsets(std::uint64_t len, std::uint64_t group, bool outboard, std::uint64_t at,
                  std::vector<std::uint64_t>& out) {
  const auto size = [&](std::uint64_t n) {
    return (n <= group ? 0 : (n - 1) / group) * bao::parent_size + (outboard ? 0 : n);
  };
  if (len <= group) {
    if (!outboard && len > 0) out.push_back(at);
    return;
  }
  out.push_back(at);
  const std::uint64_t left = std::bit_floor((len - 1) / 1024) * 1024;
  node_offsets(left, group, outboard, at + bao::parent_size, out);
  node_offsets(len - left, group, outboard, at + bao::parent_size + size(left), out);
}

// Larger than one batch of the decoder (256 chunks checked at once): a corrupted node is named
// as the one-by-one decoder names it, in either format; a corrupted chunk of an outboard's
// input by its offset in the input.
TEST(BaoHostile, ACorruptedNodeOfALargeEncodingIsNamed) {
  random_source rng(test_seed() + 92);
  const auto random = rng.bytes(700 * 1024 + 5);
  const byte_vector input(random.begin(), random.end());
  for (unsigned k : {0u, 2u}) {
    const std::uint64_t group = std::uint64_t{1024} << k;
    const bao::encoding combined = bao::encode(input, k), outboard = bao::encode_outboard(input, k);
    std::vector<std::uint64_t> points;
    node_offsets(input.size(), group, false, bao::header_size, points);
    for (std::size_t i = 0; i < points.size(); i += k == 0 ? 7 : 1) {
      EXPECT_EQ(bao_error_offset(
                    [&] { bao::decode(combined.hash, flipped(combined.bytes, points[i]), k); }),
                points[i])
          << "group_log " << k;
    }
    points.clear();
    node_offsets(input.size(), group, true, bao::header_size, points);
    for (std::size_t i = 0; i < points.size(); i += k == 0 ? 7 : 1) {
      EXPECT_EQ(bao_error_offset([&] {
                  bao::decode_outboard(outboard.hash, flipped(outboard.bytes, points[i]), input, k);
                }),
                points[i])
          << "group_log " << k;
    }
    for (std::uint64_t at = 0; at < input.size(); at += 37 * group + 11) {
      EXPECT_EQ(bao_error_offset([&] {
                  bao::decode_outboard(outboard.hash, outboard.bytes, flipped(input, at), k);
                }),
                at / group * group)
          << "group_log " << k;
    }
    // Slices through the middle of the batches.
    const byte_vector slice = bao::extract_slice(combined.bytes, 300000, 200000, k);
    EXPECT_EQ(bao::decode_slice(combined.hash, slice, 300000, 200000, k),
              tail_of(input, 300000, 200000));
  }
}

TEST(BaoHostile, EveryTruncationFails) {
  for (std::size_t len : {0, 1, 1024, 1025, 4097}) {
    const byte_vector input = bao_input(len);
    const bao::encoding combined = bao::encode(input), outboard = bao::encode_outboard(input);
    for (std::size_t cut = 0; cut < combined.bytes.size(); ++cut) {
      const std::span<const std::byte> part(combined.bytes.data(), cut);
      EXPECT_EQ(bao_error_offset([&] { bao::decode(combined.hash, part); }) <= cut, true) << cut;
      EXPECT_THROW(bao::extract_slice(part, 0, len), bao::error) << cut;
    }
    for (std::size_t cut = 0; cut < outboard.bytes.size(); ++cut) {
      EXPECT_THROW(bao::decode_outboard(outboard.hash, std::span(outboard.bytes).first(cut), input),
                   bao::error)
          << cut;
    }
    for (std::size_t cut = 0; cut < input.size(); cut += 61) {
      EXPECT_THROW(bao::decode_outboard(outboard.hash, outboard.bytes, std::span(input).first(cut)),
                   bao::error)
          << cut;
    }
    // Bytes after the end are ignored, as Bao's decoders ignore them.
    byte_vector longer = combined.bytes;
    longer.resize(longer.size() + 100, std::byte{7});
    EXPECT_EQ(bao::decode(combined.hash, longer), input);
  }
}

TEST(BaoHostile, ALyingLengthHeaderFails) {
  const byte_vector input = bao_input(5000);
  const bao::encoding e = bao::encode(input);
  for (std::uint64_t lie :
       {std::uint64_t{0}, std::uint64_t{1}, std::uint64_t{4999}, std::uint64_t{5001},
        std::uint64_t{8192}, std::uint64_t{1} << 40, ~std::uint64_t{0}}) {
    byte_vector bad = e.bytes;
    for (std::size_t i = 0; i < bao::header_size; ++i) bad[i] = std::byte(lie >> (8 * i));
    EXPECT_THROW(bao::decode(e.hash, bad), bao::error) << lie;
    // A slice away from the end need not meet the lie (its nodes are the same under either
    // length), but what it returns is the input's.
    try {
      EXPECT_EQ(bao::decode_slice(e.hash, bao::extract_slice(bad, 4000, 10), 4000, 10),
                tail_of(input, 4000, 10))
          << lie;
    } catch (const bao::error&) {
    }
    // One that reaches the end meets it.
    EXPECT_THROW(bao::decode_slice(e.hash, bao::extract_slice(bad, 4990, 20), 4990, 20), bao::error)
        << lie;
  }
  // The wrong hash.
  EXPECT_THROW(bao::decode(b3::hash(std::span(input).first(10)), e.bytes), bao::error);
  EXPECT_THROW(bao::decode(e.hash, std::span(e.bytes).first(7)), bao::error);
}

}  // namespace
}  // namespace fastblake::test
