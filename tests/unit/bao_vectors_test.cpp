// Bao (<fastblake/bao.hpp>): Bao's own test vectors (tests/vectors/bao_vectors.txt, from the bao
// repository's test_vectors.json), encodings into the caller's buffers and past the caches, and
// chunk groups by their properties and sizes.
#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <fastblake/bao.hpp>
#include <fastblake/blake3.hpp>

#include "bao_test_support.hpp"
#include "test_support.hpp"

namespace fastblake::test {
namespace {

namespace b3 = fastblake::blake3;

std::string blake3_hex(std::span<const std::byte> data) { return b3::hash(data).to_hex(); }

TEST(BaoVectors, Hash) {
  const auto lines = vector_lines("hash");
  ASSERT_EQ(lines.size(), 13u);
  for (const auto& v : lines) {
    const byte_vector input = bao_input(std::stoull(v[1]));
    EXPECT_EQ(bao::encode(input).hash.to_hex(), v[2]) << v[1];
    EXPECT_EQ(bao::encode_outboard(input).hash.to_hex(), v[2]) << v[1];
  }
}

TEST(BaoVectors, CombinedEncodingAndItsCorruptions) {
  const auto lines = vector_lines("encode");
  ASSERT_EQ(lines.size(), 13u);
  for (const auto& v : lines) {
    const byte_vector input = bao_input(std::stoull(v[1]));
    const bao::encoding e = bao::encode(input);
    ASSERT_EQ(e.bytes.size(), std::stoull(v[2])) << v[1];
    EXPECT_EQ(bao::encoded_size(input.size()), e.bytes.size());
    EXPECT_EQ(e.hash.to_hex(), v[3]);
    EXPECT_EQ(blake3_hex(e.bytes), v[4]) << v[1];
    EXPECT_EQ(bao::decode(e.hash, e.bytes), input) << v[1];
    for (std::uint64_t at : numbers(v[5])) {
      const std::uint64_t offset =
          bao_error_offset([&] { bao::decode(e.hash, flipped(e.bytes, at)); });
      // Each point is the first byte of a node (or of the header, which breaks the tree
      // elsewhere): the node itself is the one that fails.
      if (at != 0) {
        EXPECT_EQ(offset, at) << v[1] << " corrupted at " << at;
      }
    }
  }
}

TEST(BaoVectors, OutboardEncodingAndItsCorruptions) {
  const auto lines = vector_lines("outboard");
  ASSERT_EQ(lines.size(), 13u);
  for (const auto& v : lines) {
    const byte_vector input = bao_input(std::stoull(v[1]));
    const bao::encoding e = bao::encode_outboard(input);
    ASSERT_EQ(e.bytes.size(), std::stoull(v[2])) << v[1];
    EXPECT_EQ(bao::outboard_size(input.size()), e.bytes.size());
    EXPECT_EQ(e.hash.to_hex(), v[3]);
    EXPECT_EQ(blake3_hex(e.bytes), v[4]) << v[1];
    EXPECT_EQ(bao::decode_outboard(e.hash, e.bytes, input), input) << v[1];
    for (std::uint64_t at : numbers(v[5])) {
      const std::uint64_t offset =
          bao_error_offset([&] { bao::decode_outboard(e.hash, flipped(e.bytes, at), input); });
      if (at != 0) {
        EXPECT_EQ(offset, at) << v[1] << " outboard corrupted at " << at;
      }
    }
    for (std::uint64_t at : numbers(v[6])) {
      // A corrupted chunk is named by its offset in the input.
      EXPECT_EQ(
          bao_error_offset([&] { bao::decode_outboard(e.hash, e.bytes, flipped(input, at)); }), at)
          << v[1] << " input corrupted at " << at;
    }
  }
}

// A seek to each offset and a read to the end, as a slice from there.
TEST(BaoVectors, Seeks) {
  const auto lines = vector_lines("seek");
  ASSERT_EQ(lines.size(), 13u);
  for (const auto& v : lines) {
    const byte_vector input = bao_input(std::stoull(v[1]));
    const bao::encoding e = bao::encode(input);
    const bao::encoding outboard = bao::encode_outboard(input);
    for (std::uint64_t offset : numbers(v[2])) {
      const std::uint64_t rest = input.size() - std::min<std::uint64_t>(offset, input.size());
      const byte_vector slice = bao::extract_slice(e.bytes, offset, rest);
      EXPECT_EQ(bao::decode_slice(e.hash, slice, offset, rest), tail_of(input, offset, rest))
          << v[1] << " from " << offset;
      EXPECT_EQ(bao::extract_slice_outboard(outboard.bytes, input, offset, rest), slice);
    }
  }
}

TEST(BaoVectors, SlicesAndTheirCorruptions) {
  const auto lines = vector_lines("slice");
  ASSERT_EQ(lines.size(), 222u);
  for (const auto& v : lines) {
    const byte_vector input = bao_input(std::stoull(v[1]));
    const b3::digest hash = digest_of(v[2]);
    const std::uint64_t start = std::stoull(v[3]), count = std::stoull(v[4]);
    const std::string where = v[1] + " [" + v[3] + ", +" + v[4] + ")";
    const byte_vector slice = bao::extract_slice(bao::encode(input).bytes, start, count);
    ASSERT_EQ(slice.size(), std::stoull(v[5])) << where;
    EXPECT_EQ(blake3_hex(slice), v[6]) << where;
    EXPECT_EQ(bao::extract_slice_outboard(bao::encode_outboard(input).bytes, input, start, count),
              slice)
        << where;
    EXPECT_EQ(bao::decode_slice(hash, slice, start, count), tail_of(input, start, count)) << where;
    for (std::uint64_t at : numbers(v[7])) {
      const std::uint64_t offset =
          bao_error_offset([&] { bao::decode_slice(hash, flipped(slice, at), start, count); });
      if (at >= bao::header_size) {
        EXPECT_EQ(offset, at) << where << " corrupted at " << at;
      }
    }
  }
}

TEST(BaoEncode, OutputsLargerThanTheCachesAreTheSame) {
#if !defined(__x86_64__)
  GTEST_SKIP() << "stores around the caches are x86-64's only";
#endif
  // From 32 MiB on, the leaves go out with non-temporal stores: compared with the piece
  // encoder's output, which is assembled in ordinary buffers, for unaligned ends too.
  random_source rng(test_seed() + 92);
  const auto input = rng.bytes((33u << 20) + 1029);
  for (unsigned k : {0u, 3u}) {
    byte_vector encoded(bao::encoded_size(input.size(), k)),
        outboard(bao::outboard_size(input.size(), k));
    byte_vector pieces(encoded.size());
    const bao::write_at_function into_pieces = [&](std::uint64_t at, std::span<const std::byte> b) {
      std::copy(b.begin(), b.end(), pieces.begin() + static_cast<std::ptrdiff_t>(at));
    };
    const b3::digest hash = bao::encode(input, encoded, k);
    EXPECT_EQ(bao::encode(input.size(), bao::read_from(input), into_pieces, k), hash);
    EXPECT_EQ(encoded, pieces);
    EXPECT_EQ(bao::encode_outboard(input, outboard, k), hash);
    byte_vector out(input.size() + 1);
    EXPECT_EQ(bao::decode(hash, encoded, out, k), input.size());
    EXPECT_TRUE(std::equal(input.begin(), input.end(), out.begin()));
    std::fill(out.begin(), out.end(), std::byte{0});
    // Written from an odd address: the stores' unaligned ends.
    EXPECT_EQ(bao::decode_outboard(hash, outboard, input, std::span(out).subspan(1), k),
              input.size());
    EXPECT_TRUE(std::equal(input.begin(), input.end(), out.begin() + 1));
  }
}

TEST(BaoEncode, IntoABufferOfTheCallers) {
  random_source rng(test_seed() + 91);
  byte_vector buffer(bao::encoded_size(300000) + 10, std::byte{0x5A});
  for (std::size_t len : {0, 1, 1024, 2049, 17 * 1024, 300000}) {
    const auto input = rng.bytes(len);
    for (unsigned k : {0u, 2u}) {
      const bao::encoding combined = bao::encode(input, k),
                          outboard = bao::encode_outboard(input, k);
      EXPECT_EQ(bao::encode(input, buffer, k), combined.hash);
      EXPECT_TRUE(std::equal(combined.bytes.begin(), combined.bytes.end(), buffer.begin())) << len;
      EXPECT_EQ(bao::encode_outboard(input, buffer, k), outboard.hash);
      EXPECT_TRUE(std::equal(outboard.bytes.begin(), outboard.bytes.end(), buffer.begin())) << len;
      EXPECT_THROW(bao::encode(input, std::span(buffer).first(combined.bytes.size() - 1), k),
                   std::length_error);
      EXPECT_THROW(
          bao::encode_outboard(input, std::span(buffer).first(outboard.bytes.size() - 1), k),
          std::length_error);
    }
  }
}

// ---- chunk groups ----

// The group-k encoding made from the group-0 one: every parent of a subtree of at most 2^k
// chunks left out.
byte_vector without_parents_below(const byte_vector& encoded0, std::uint64_t len,
                                  unsigned group_log, bool outboard) {
  const std::uint64_t group = std::uint64_t{1024} << group_log;
  byte_vector out(encoded0.begin(), encoded0.begin() + bao::header_size);
  std::uint64_t at = bao::header_size;
  // Pre-order over the group-0 tree; each subtree's encoded size under group 0.
  const auto size0 = [&](std::uint64_t n) {
    return (n <= 1024 ? 0 : (n - 1) / 1024) * bao::parent_size + (outboard ? 0 : n);
  };
  const auto walk = [&](auto&& self, std::uint64_t n) -> void {
    if (n <= group) {
      // Its chunks, in order, without its parents.
      if (!outboard) {
        const auto copy_chunks = [&](auto&& inner, std::uint64_t m) -> void {
          if (m <= 1024) {
            out.insert(out.end(), encoded0.begin() + static_cast<std::ptrdiff_t>(at),
                       encoded0.begin() + static_cast<std::ptrdiff_t>(at + m));
            at += m;
            return;
          }
          at += bao::parent_size;
          const std::uint64_t left = std::bit_floor((m - 1) / 1024) * 1024;
          inner(inner, left);
          inner(inner, m - left);
        };
        copy_chunks(copy_chunks, n);
      } else {
        at += size0(n);
      }
      return;
    }
    out.insert(out.end(), encoded0.begin() + static_cast<std::ptrdiff_t>(at),
               encoded0.begin() + static_cast<std::ptrdiff_t>(at + bao::parent_size));
    at += bao::parent_size;
    const std::uint64_t left = std::bit_floor((n - 1) / 1024) * 1024;
    self(self, left);
    self(self, n - left);
  };
  walk(walk, len);
  return out;
}

TEST(BaoGroups, EveryGroupSizeKeepsTheHashAndDropsOnlyTheLowParents) {
  random_source rng(test_seed() + 90);
  for (std::size_t len :
       {std::size_t{0}, std::size_t{1}, std::size_t{1024}, std::size_t{1025}, std::size_t{4096},
        std::size_t{16384}, std::size_t{16385}, std::size_t{65536 + 3000}, std::size_t{300000}}) {
    const auto input = rng.bytes(len);
    const byte_vector in(input.begin(), input.end());
    const bao::encoding combined0 = bao::encode(in), outboard0 = bao::encode_outboard(in);
    for (unsigned k = 0; k <= 8; ++k) {
      const std::string where = std::to_string(len) + " bytes, group_log " + std::to_string(k);
      const bao::encoding combined = bao::encode(in, k), outboard = bao::encode_outboard(in, k);
      EXPECT_EQ(combined.hash, b3::hash(in)) << where;
      EXPECT_EQ(outboard.hash, b3::hash(in)) << where;
      EXPECT_EQ(combined.bytes, without_parents_below(combined0.bytes, len, k, false)) << where;
      EXPECT_EQ(outboard.bytes, without_parents_below(outboard0.bytes, len, k, true)) << where;
      EXPECT_EQ(combined.bytes.size(), bao::encoded_size(len, k)) << where;
      EXPECT_EQ(outboard.bytes.size(), bao::outboard_size(len, k)) << where;
      EXPECT_EQ(bao::decode(combined.hash, combined.bytes, k), in) << where;
      EXPECT_EQ(bao::decode_outboard(outboard.hash, outboard.bytes, in, k), in) << where;
      for (std::uint64_t start : {std::uint64_t{0}, std::uint64_t{1023}, std::uint64_t{5000},
                                  std::uint64_t{len / 2}, std::uint64_t{len}}) {
        for (std::uint64_t count : {std::uint64_t{0}, std::uint64_t{1}, std::uint64_t{3000}}) {
          const byte_vector slice = bao::extract_slice(combined.bytes, start, count, k);
          EXPECT_EQ(bao::extract_slice_outboard(outboard.bytes, in, start, count, k), slice);
          EXPECT_EQ(bao::decode_slice(combined.hash, slice, start, count, k),
                    tail_of(in, start, count))
              << where << " [" << start << ", +" << count << ")";
        }
      }
      if (k > 0) {
        // Decoded with the wrong group size it fails, unless the two encodings are one (the
        // input fits one group of either size); it never decodes to something else.
        const bool same = bao::encoded_size(len, k) == bao::encoded_size(len, k - 1);
        try {
          EXPECT_EQ(bao::decode(combined.hash, combined.bytes, k - 1), in) << where;
          EXPECT_TRUE(same) << where;
        } catch (const bao::error&) {
          EXPECT_FALSE(same) << where;
        }
      }
    }
  }
  EXPECT_THROW(bao::encode(byte_vector(10), bao::max_group_log + 1), bao::error);
  EXPECT_THROW(bao::encoded_size(10, bao::max_group_log + 1), bao::error);
}

// A size past 2^64 - 1 is refused, never wrapped: at every group size, the largest length whose
// encoding fits has its exact size, and the next one throws.
TEST(BaoGroups, SizesPast64BitsAreRefusedNotWrapped) {
  constexpr std::uint64_t max = ~std::uint64_t{0};
  for (unsigned k = 0; k <= bao::max_group_log; ++k) {
    SCOPED_TRACE(k);
    const std::uint64_t group = std::uint64_t{1024} << k;
    // The exact size (none past 2^64 - 1): the header, a parent per leaf but one, the input.
    auto exact = [&](std::uint64_t n, bool outboard) -> std::optional<std::uint64_t> {
      const std::uint64_t leaves = n == 0 ? 1 : (n - 1) / group + 1;
      const std::uint64_t tree = 8 + (leaves - 1) * 64;
      if (outboard) return tree;
      if (n > max - tree) return std::nullopt;
      return tree + n;
    };
    // Outboards always fit (their parents are below 2^60 bytes).
    for (const std::uint64_t n : {max, max - 1, max - group, std::uint64_t{1} << 63}) {
      EXPECT_EQ(bao::outboard_size(n, k), exact(n, true));
    }
    // The largest length whose combined encoding fits, bisected.
    std::uint64_t lo = std::uint64_t{1} << 62, hi = max;
    while (lo < hi) {
      const std::uint64_t mid = lo + (hi - lo + 1) / 2;
      if (exact(mid, false)) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    EXPECT_EQ(bao::encoded_size(lo, k), exact(lo, false));
    for (const std::uint64_t n : {lo + 1, lo + std::min(group, max - lo), max - 1, max}) {
      EXPECT_THROW(bao::encoded_size(n, k), std::overflow_error) << n;
    }
  }
}

}  // namespace
}  // namespace fastblake::test
