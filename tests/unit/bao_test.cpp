// Bao (<fastblake/bao.hpp>): Bao's own test vectors (tests/vectors/bao_vectors.txt, from the bao
// repository's test_vectors.json), chunk groups by their properties, and hostile encodings:
// every single-byte corruption, every truncation, lying length headers.
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include <fastblake/bao.hpp>
#include <fastblake/blake3.hpp>
#include <fastblake/file.hpp>

#include "test_support.hpp"

namespace fastblake::test {
namespace {

namespace b3 = fastblake::blake3;
using byte_vector = std::vector<std::byte>;

// Bao's vector input: the little-endian 32-bit integers 1, 2, 3, ... cut to len bytes.
byte_vector bao_input(std::size_t len) {
  byte_vector out(len);
  for (std::size_t i = 0; i < len; ++i) {
    out[i] = std::byte(static_cast<std::uint32_t>(i / 4 + 1) >> (8 * (i % 4)));
  }
  return out;
}

std::vector<std::uint64_t> numbers(const std::string& list) {
  std::vector<std::uint64_t> out;
  if (list == "-") return out;
  std::istringstream in(list);
  std::string item;
  while (std::getline(in, item, ',')) out.push_back(std::stoull(item));
  return out;
}

std::string blake3_hex(std::span<const std::byte> data) { return b3::hash(data).to_hex(); }

b3::digest digest_of(const std::string& hex) { return *b3::digest::from_hex(hex); }

byte_vector flipped(byte_vector b, std::uint64_t at) {
  b[at] ^= std::byte{1};
  return b;
}

byte_vector tail_of(const byte_vector& input, std::uint64_t from, std::uint64_t count) {
  const std::uint64_t begin = std::min<std::uint64_t>(from, input.size());
  const std::uint64_t end =
      std::min<std::uint64_t>(input.size(), begin + std::min(count, input.size() - begin));
  return byte_vector(input.begin() + static_cast<std::ptrdiff_t>(begin),
                     input.begin() + static_cast<std::ptrdiff_t>(end));
}

// Each line of the vectors file whose first word is kind, split into words.
std::vector<std::vector<std::string>> vector_lines(std::string_view kind) {
  std::ifstream in(FASTBLAKE_BAO_VECTORS);
  std::vector<std::vector<std::string>> lines;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::vector<std::string> words;
    for (std::string w; fields >> w;) words.push_back(w);
    if (!words.empty() && words[0] == kind) lines.push_back(words);
  }
  return lines;
}

// Runs f, which must throw bao::error; returns its offset.
template <class F>
std::uint64_t bao_error_offset(F&& f) {
  try {
    f();
  } catch (const bao::error& e) {
    EXPECT_EQ(&e.code().category(), &bao::category());
    return e.offset();
  }
  ADD_FAILURE() << "no bao::error";
  return ~std::uint64_t{0};
}

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

// On threads: the encoders give what one thread gives, and the decoder into a buffer hands out
// the input, or fails where the one-thread decoder fails, whatever the pool.
TEST(BaoThreads, EncodeAndDecodeOnAnyPoolAsOnOneThread) {
  random_source rng(test_seed() + 97);
  const auto random = rng.bytes((2u << 20) + 1025);
  thread_pool one(1), two(2), three(3), four(4);
  // Damaged encodings, each with the error the one-thread decoder gives, made once per input.
  struct damaged {
    byte_vector bytes;
    bool outboard_data;  // the input is damaged, under the outboard encoding
    std::uint64_t offset;
  };
  for (std::size_t len :
       {std::size_t{0}, std::size_t{1}, std::size_t{1025}, std::size_t{262145}, random.size()}) {
    const std::span<const std::byte> input(random.data(), len);
    for (unsigned k : {0u, 4u}) {
      SCOPED_TRACE("length " + std::to_string(len) + ", group_log " + std::to_string(k));
      const bao::encoding combined = bao::encode(input, one, k);
      const bao::encoding outboard = bao::encode_outboard(input, one, k);
      EXPECT_EQ(combined.hash, b3::hash(input));
      EXPECT_EQ(bao::encode(input, k).bytes, combined.bytes);
      EXPECT_EQ(bao::encode_outboard(input, k).bytes, outboard.bytes);
      std::vector<damaged> cases;
      // Past the header (a header that claims more than out holds is a std::length_error), a
      // length off by one either way, a cut: where the one-thread decoder fails.
      for (int trial = 0; trial < 4 && len > 0; ++trial) {
        const std::uint64_t at =
            bao::header_size + rng.below(combined.bytes.size() - bao::header_size);
        byte_vector bad = flipped(combined.bytes, at);
        const std::uint64_t offset = bao_error_offset([&] { bao::decode(combined.hash, bad, k); });
        cases.push_back({std::move(bad), false, offset});
        byte_vector bad_data = flipped(byte_vector(input.begin(), input.end()), rng.below(len));
        const std::uint64_t data_offset = bao_error_offset(
            [&] { bao::decode_outboard(outboard.hash, outboard.bytes, bad_data, k); });
        cases.push_back({std::move(bad_data), true, data_offset});
      }
      for (byte_vector bad : {flipped(combined.bytes, 0),
                              byte_vector(combined.bytes.begin(), combined.bytes.end() - 1)}) {
        const std::uint64_t offset = bao_error_offset([&] { bao::decode(combined.hash, bad, k); });
        cases.push_back({std::move(bad), false, offset});
      }
      byte_vector out(len + 3, std::byte{0xee});
      for (thread_pool* pool : {&one, &two, &three, &four}) {
        SCOPED_TRACE(std::to_string(pool->size()) + " threads");
        EXPECT_EQ(bao::encode(input, *pool, k).bytes, combined.bytes);
        EXPECT_EQ(bao::encode_outboard(input, *pool, k).bytes, outboard.bytes);
        std::fill(out.begin(), out.end(), std::byte{0xee});
        EXPECT_EQ(bao::decode(combined.hash, combined.bytes, out, *pool, k), len);
        EXPECT_TRUE(std::equal(input.begin(), input.end(), out.begin()));
        EXPECT_EQ(out[len], std::byte{0xee});
        std::fill(out.begin(), out.end(), std::byte{0xee});
        EXPECT_EQ(bao::decode_outboard(outboard.hash, outboard.bytes, input, out, *pool, k), len);
        EXPECT_TRUE(std::equal(input.begin(), input.end(), out.begin()));
        for (const damaged& d : cases) {
          const std::uint64_t got = bao_error_offset([&] {
            if (d.outboard_data) {
              bao::decode_outboard(outboard.hash, outboard.bytes, d.bytes, out, *pool, k);
            } else {
              bao::decode(combined.hash, d.bytes, out, *pool, k);
            }
          });
          EXPECT_EQ(got, d.offset) << (d.outboard_data ? "input" : "encoding") << " damaged";
        }
        if (len > 0) {
          EXPECT_THROW(
              bao::decode(combined.hash, combined.bytes, std::span(out).first(len - 1), *pool, k),
              std::length_error);
        }
      }
      std::fill(out.begin(), out.end(), std::byte{0xee});
      EXPECT_EQ(bao::decode(combined.hash, combined.bytes, out, k), len);
      EXPECT_TRUE(std::equal(input.begin(), input.end(), out.begin()));
      EXPECT_EQ(bao::decode_outboard(outboard.hash, outboard.bytes, input, out, k), len);
      EXPECT_TRUE(std::equal(input.begin(), input.end(), out.begin()));
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

// ---- hostile encodings ----

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

// Reads everything from r in pieces of random sizes (1 to max_piece bytes).
byte_vector read_all(bao::reader& r, random_source& rng, std::size_t max_piece) {
  byte_vector out;
  for (;;) {
    byte_vector piece(1 + rng.below(max_piece));
    const std::size_t n = r.read(piece);
    if (n == 0) return out;
    out.insert(out.end(), piece.begin(), piece.begin() + static_cast<std::ptrdiff_t>(n));
  }
}

// A read function that records what it was asked for.
struct recorded_reads {
  std::span<const std::byte> bytes;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> asked;  // [offset, offset + size)

  bao::read_at_function function() {
    return [this](std::uint64_t offset, std::span<std::byte> out) {
      asked.emplace_back(offset, offset + out.size());
      return bao::read_from(bytes)(offset, out);
    };
  }
  // Whether the requests went forward only, never over a byte twice.
  bool forward_once() const {
    for (std::size_t i = 1; i < asked.size(); ++i) {
      if (asked[i].first < asked[i - 1].second) return false;
    }
    return true;
  }
};

// Lengths around the reader's batches (256 KiB), the encoder's pieces (4 MiB) and chunk groups.
std::vector<std::size_t> streaming_lengths() {
  return {0,
          1,
          1023,
          1024,
          1025,
          4096,
          65537,
          262143,
          262144,
          262145,
          3 * 262144 + 7,
          (4u << 20) - 1,
          (4u << 20),
          (4u << 20) + 1,
          (9u << 20) + 1025};
}

TEST(BaoReader, ReadsEveryLengthWholeAndFromAnyPosition) {
  random_source rng(test_seed() + 93);
  const auto random = rng.bytes((9u << 20) + 1025);
  for (std::size_t len : streaming_lengths()) {
    const std::span<const std::byte> input(random.data(), len);
    for (unsigned k : {0u, 4u}) {
      SCOPED_TRACE("length " + std::to_string(len) + ", group_log " + std::to_string(k));
      const bao::encoding combined = bao::encode(input, k);
      const bao::encoding outboard = bao::encode_outboard(input, k);
      recorded_reads reads{combined.bytes, {}};
      bao::reader whole(combined.hash, reads.function(), k);
      EXPECT_EQ(read_all(whole, rng, 1 + rng.below(300000)),
                byte_vector(input.begin(), input.end()));
      EXPECT_TRUE(reads.forward_once());
      EXPECT_EQ(whole.length(), len);
      bao::reader beside(outboard.hash, bao::read_from(outboard.bytes), bao::read_from(input), k);
      EXPECT_EQ(beside.length(), len);
      EXPECT_EQ(read_all(beside, rng, 70000), byte_vector(input.begin(), input.end()));
      for (int seek = 0; seek < 6; ++seek) {
        const std::uint64_t at = rng.below(len + 2);
        const std::size_t count = rng.below(300000);
        SCOPED_TRACE("from " + std::to_string(at) + ", " + std::to_string(count) + " bytes");
        byte_vector got(count), got_beside(count);
        whole.seek(at);
        beside.seek(at);
        got.resize(whole.read(got));
        got_beside.resize(beside.read(got_beside));
        EXPECT_EQ(got, tail_of(byte_vector(input.begin(), input.end()), at, count));
        EXPECT_EQ(got_beside, got);
        EXPECT_EQ(whole.position(),
                  std::max<std::uint64_t>(at, std::min<std::uint64_t>(at + count, len)));
      }
    }
  }
}

// The reader meets a corrupted node where decode() meets it, having handed out every byte
// before it; a lying length is found by length() and by a read at the end.
TEST(BaoReader, StopsAtTheFirstBadNodeWithTheBytesBeforeIt) {
  random_source rng(test_seed() + 94);
  const auto random = rng.bytes(700 * 1024 + 5);
  const byte_vector input(random.begin(), random.end());
  const bao::encoding e = bao::encode(input);
  // Every byte of the two parents above the batches (at 8 and 72), then random places.
  for (int trial = 0; trial < 168; ++trial) {
    const std::uint64_t at = trial < 128
                                 ? bao::header_size + static_cast<std::uint64_t>(trial)
                                 : bao::header_size + rng.below(e.bytes.size() - bao::header_size);
    const byte_vector bad = flipped(e.bytes, at);
    const std::uint64_t expected = bao_error_offset([&] { bao::decode(e.hash, bad); });
    bao::reader r(e.hash, bao::read_from(bad));
    byte_vector got;
    std::uint64_t offset = ~std::uint64_t{0};
    try {
      got = read_all(r, rng, 100000);
      ADD_FAILURE() << "no error for a corruption at " << at;
    } catch (const bao::error& error) {
      EXPECT_EQ(error.code(), bao::errc::hash_mismatch);
      offset = error.offset();
    }
    EXPECT_EQ(offset, expected) << "corrupted at " << at;
    // What it handed out before the failure is the input's start.
    bao::reader again(e.hash, bao::read_from(bad));
    byte_vector before(input.size());
    std::size_t n = 0;
    try {
      for (std::size_t m; (m = again.read(std::span(before).subspan(n))) != 0;) n += m;
    } catch (const bao::error&) {
    }
    EXPECT_TRUE(
        std::equal(before.begin(), before.begin() + static_cast<std::ptrdiff_t>(n), input.begin()));
  }
  for (std::uint64_t lie : {std::uint64_t{700 * 1024}, std::uint64_t{700 * 1024 + 6},
                            std::uint64_t{1} << 40, ~std::uint64_t{0}}) {
    byte_vector bad = e.bytes;
    for (std::size_t i = 0; i < bao::header_size; ++i) bad[i] = std::byte(lie >> (8 * i));
    bao::reader r(e.hash, bao::read_from(bad));
    EXPECT_THROW(r.length(), bao::error) << lie;
    r.seek(~std::uint64_t{0});
    byte_vector one(1);
    EXPECT_THROW(r.read(one), bao::error) << lie;
  }
  bao::reader short_header(e.hash, bao::read_from(std::span(e.bytes).first(5)));
  EXPECT_EQ(bao_error_offset([&] { short_header.length(); }), 5u);
  byte_vector all(input.size());
  const byte_vector other = flipped(input, 0);
  bao::reader wrong_hash(b3::hash(other), bao::read_from(e.bytes));
  EXPECT_EQ(bao_error_offset([&] { wrong_hash.read(all); }), bao::header_size);
  EXPECT_EQ(bao_error_offset([&] { wrong_hash.length(); }), bao::header_size);
}

// Runs decode, returning its bytes or its error's code and offset.
template <class F>
std::pair<std::string, byte_vector> outcome_of(F&& decode) {
  try {
    return {"", decode()};
  } catch (const bao::error& e) {
    return {e.code().message() + " at " + std::to_string(e.offset()), {}};
  }
}

// A slice decoded on a pool gives what one on this thread gives: the same bytes, or the same
// error at the same node, for corruptions anywhere in the slice and cuts.
TEST(BaoThreads, SlicesOnAnyPoolAsOnOneThread) {
  random_source rng(test_seed() + 101);
  thread_pool one(1), three(3);
  // Subtrees of 1 and 2 MiB inside the slices go to the pool (more than two batches).
  const auto input = rng.bytes((3u << 20) + 1025);
  const b3::digest hash = b3::hash(input);
  for (unsigned k : {0u, 4u}) {
    const byte_vector encoded = bao::encode(input, k).bytes;
    for (const auto& range : {std::pair<std::uint64_t, std::uint64_t>{0, input.size()},
                              {100000, 2u << 20},
                              {(3u << 20) - 5, 100u << 20}}) {
      // (Named, not bound: clang 14's lambdas cannot capture structured bindings.)
      const std::uint64_t start = range.first, count = range.second;
      SCOPED_TRACE("group_log " + std::to_string(k) + ", slice " + std::to_string(start) + "+" +
                   std::to_string(count));
      const byte_vector slice = bao::extract_slice(encoded, start, count, k);
      const byte_vector want = tail_of(input, start, count);
      EXPECT_EQ(bao::decode_slice(hash, slice, start, count, three, k), want);
      EXPECT_EQ(bao::decode_slice(hash, slice, start, count, k), want);
      for (int i = 0; i < 9; ++i) {
        // A corrupted byte, or the slice cut short.
        const std::size_t at = rng.below(slice.size());
        const byte_vector bad =
            i % 3 == 2 ? byte_vector(slice.begin(), slice.begin() + static_cast<std::ptrdiff_t>(at))
                       : flipped(slice, at);
        const auto serial =
            outcome_of([&] { return bao::decode_slice(hash, bad, start, count, one, k); });
        EXPECT_FALSE(serial.first.empty()) << at;
        EXPECT_EQ(outcome_of([&] { return bao::decode_slice(hash, bad, start, count, three, k); }),
                  serial)
            << at;
        EXPECT_EQ(outcome_of([&] { return bao::decode_slice(hash, bad, start, count, k); }), serial)
            << at;
      }
    }
  }
}

// Everything a reader over a slice hands out, in pieces of random sizes, with the failure that
// ended it (as outcome_of gives it), and the bytes before the failure.
std::pair<std::string, byte_vector> read_slice(bao::reader& r, random_source& rng) {
  byte_vector got;
  try {
    for (;;) {
      byte_vector piece(1 + rng.below(100000));
      const std::size_t n = r.read(piece);
      if (n == 0) return {"", got};
      got.insert(got.end(), piece.begin(), piece.begin() + static_cast<std::ptrdiff_t>(n));
    }
  } catch (const bao::error& e) {
    return {e.code().message() + " at " + std::to_string(e.offset()), got};
  }
}

// A reader over a slice hands out what decode_slice returns, reading the slice once from its
// start; where decode_slice fails, it fails at the same node, having handed out only bytes of
// the input before it. extract_slice into a write function writes the slice in order.
TEST(BaoReader, OverASliceReadsWhatDecodeSliceReturns) {
  random_source rng(test_seed() + 102);
  thread_pool pool(2);
  const auto random = rng.bytes((1u << 20) + 3000);
  for (std::size_t len : {std::size_t{0}, std::size_t{1}, std::size_t{1024}, std::size_t{5000},
                          std::size_t{262144 + 1}, random.size()}) {
    const byte_vector input(random.begin(), random.begin() + static_cast<std::ptrdiff_t>(len));
    const b3::digest hash = b3::hash(input);
    for (unsigned k : {0u, 2u, 4u}) {
      const bao::encoding combined = bao::encode(input, k);
      for (int trial = 0; trial < 12; ++trial) {
        const std::uint64_t start = trial == 0 ? 0 : rng.below(len + 3000);
        const std::uint64_t count = trial == 1   ? 0
                                    : trial == 2 ? ~std::uint64_t{0}
                                                 : rng.below(len / 2 + 2000);
        SCOPED_TRACE("length " + std::to_string(len) + ", group_log " + std::to_string(k) +
                     ", slice " + std::to_string(start) + "+" + std::to_string(count));
        const byte_vector slice = bao::extract_slice(combined.bytes, start, count, k);
        byte_vector written;
        const std::uint64_t size = bao::extract_slice(
            bao::read_from(combined.bytes), start, count,
            [&](std::uint64_t at, std::span<const std::byte> bytes) {
              EXPECT_EQ(at, written.size());
              written.insert(written.end(), bytes.begin(), bytes.end());
            },
            k);
        EXPECT_EQ(size, slice.size());
        EXPECT_EQ(written, slice);
        recorded_reads reads{slice, {}};
        bao::reader r = bao::reader::over_slice(hash, reads.function(), start, count, k);
        // Whole subtrees of up to 4 MiB read from their start are decoded on the pool's threads.
        if (trial % 2 == 1) r.use_pool(pool);
        EXPECT_EQ(r.position(), start);
        EXPECT_EQ(read_slice(r, rng), std::make_pair(std::string(), tail_of(input, start, count)));
        EXPECT_TRUE(reads.forward_once());
        if (start + count >= len || count == ~std::uint64_t{0}) {
          EXPECT_EQ(r.length(), len);
        } else {
          EXPECT_THROW(r.length(), std::out_of_range);
        }
        r.seek(start == 0 ? 0 : start - 1);
        byte_vector one(1);
        if (start > 0) {
          EXPECT_THROW(r.read(one), std::out_of_range);
        }
        for (int i = 0; i < 6; ++i) {
          // A corrupted byte, or the slice cut short.
          const std::size_t at = rng.below(slice.size());
          const byte_vector bad =
              i % 3 == 2
                  ? byte_vector(slice.begin(), slice.begin() + static_cast<std::ptrdiff_t>(at))
                  : flipped(slice, at);
          const auto whole =
              outcome_of([&] { return bao::decode_slice(hash, bad, start, count, k); });
          bao::reader over = bao::reader::over_slice(hash, bao::read_from(bad), start, count, k);
          const auto [failure, before] = read_slice(over, rng);
          EXPECT_EQ(failure, whole.first) << "at " << at;
          const byte_vector wanted = tail_of(input, start, count);
          ASSERT_LE(before.size(), wanted.size());
          EXPECT_TRUE(std::equal(before.begin(), before.end(), wanted.begin()));
        }
      }
    }
  }
}

// Bao's slice vectors, read through a reader over each slice: the bytes, and each corruption
// named where decode_slice names it.
TEST(BaoReader, OverEachSliceOfTheVectors) {
  random_source rng(test_seed() + 103);
  for (const auto& v : vector_lines("slice")) {
    const byte_vector input = bao_input(std::stoull(v[1]));
    const b3::digest hash = digest_of(v[2]);
    const std::uint64_t start = std::stoull(v[3]), count = std::stoull(v[4]);
    const std::string where = v[1] + " [" + v[3] + ", +" + v[4] + ")";
    const byte_vector slice = bao::extract_slice(bao::encode(input).bytes, start, count);
    bao::reader r = bao::reader::over_slice(hash, bao::read_from(slice), start, count);
    EXPECT_EQ(read_slice(r, rng), std::make_pair(std::string(), tail_of(input, start, count)))
        << where;
    for (std::uint64_t at : numbers(v[7])) {
      const byte_vector bad = flipped(slice, at);
      bao::reader over = bao::reader::over_slice(hash, bao::read_from(bad), start, count);
      EXPECT_EQ(read_slice(over, rng).first,
                outcome_of([&] { return bao::decode_slice(hash, bad, start, count); }).first)
          << where << " corrupted at " << at;
    }
  }
}

// A reader on a pool hands out what one on this thread hands out: the same bytes from any
// position, the same bytes before a failure and the same failing node, for combined and
// outboard encodings, groups, corruptions and cuts.
TEST(BaoThreads, AReaderOnAPoolReadsAsOnOneThread) {
  random_source rng(test_seed() + 99);
  thread_pool pool(3);
  const auto random = rng.bytes((9u << 20) + 1025);
  // Everything read, or what was read before the error, and the error's offset.
  struct outcome {
    byte_vector bytes;
    std::uint64_t error_at = ~std::uint64_t{0};
    bool operator==(const outcome&) const = default;
  };
  auto read_from_position = [](bao::reader& r, std::uint64_t position) {
    outcome o;
    r.seek(position);
    byte_vector piece(1u << 20);
    try {
      for (std::size_t n; (n = r.read(piece)) != 0;) {
        o.bytes.insert(o.bytes.end(), piece.begin(),
                       piece.begin() + static_cast<std::ptrdiff_t>(n));
      }
    } catch (const bao::error& e) {
      o.error_at = e.offset();
    }
    return o;
  };
  for (std::size_t len : {std::size_t{300000}, random.size()}) {
    const std::span<const std::byte> input(random.data(), len);
    for (unsigned k : {0u, 4u}) {
      const bao::encoding combined = bao::encode(input, k);
      const bao::encoding outboard = bao::encode_outboard(input, k);
      for (int trial = 0; trial < 6; ++trial) {
        // Intact, a flipped byte of the encoding (or of the data beside an outboard), a cut.
        byte_vector tree = trial % 2 == 0 ? combined.bytes : outboard.bytes;
        byte_vector data(input.begin(), input.end());
        if (trial / 2 == 1) {
          if (trial % 2 == 0) {
            tree = flipped(tree, bao::header_size + rng.below(tree.size() - bao::header_size));
          } else {
            data = flipped(data, rng.below(data.size()));
          }
        } else if (trial / 2 == 2) {
          tree.resize(bao::header_size + rng.below(tree.size() - bao::header_size));
        }
        const std::uint64_t position = trial == 0 ? 0 : rng.below(len);
        SCOPED_TRACE("length " + std::to_string(len) + ", group_log " + std::to_string(k) +
                     ", trial " + std::to_string(trial) + ", from " + std::to_string(position));
        auto make = [&] {
          return trial % 2 == 0
                     ? bao::reader(combined.hash, bao::read_from(tree), k)
                     : bao::reader(outboard.hash, bao::read_from(tree), bao::read_from(data), k);
        };
        bao::reader alone = make();
        bao::reader on_pool = make();
        on_pool.use_pool(pool);
        const outcome want = read_from_position(alone, position);
        EXPECT_EQ(read_from_position(on_pool, position), want);
        if (trial == 0) {
          EXPECT_EQ(want.bytes, byte_vector(input.begin(), input.end()));
        }
      }
    }
  }
}

// The ranges an encoder wrote, from any thread. "Each byte once" is checked on them rather than
// with a count per byte, which took most of this test's time under an emulator.
class write_ranges {
 public:
  void add(std::uint64_t at, std::uint64_t size) {
    const std::lock_guard lock(mutex_);
    ranges_.emplace_back(at, size);
  }
  bool tile(std::uint64_t size) {
    std::sort(ranges_.begin(), ranges_.end());
    std::uint64_t next = 0;
    for (const auto& [at, n] : ranges_) {
      if (at != next) return false;
      next += n;
    }
    ranges_.clear();
    return next == size;
  }

 private:
  std::mutex mutex_;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> ranges_;
};

TEST(BaoEncodePieces, WritesWhatEncodeMakesEachByteOnce) {
  random_source rng(test_seed() + 95);
  thread_pool pool(3);
  const auto random = rng.bytes((9u << 20) + 1025);
  for (std::size_t len : streaming_lengths()) {
    const std::span<const std::byte> input(random.data(), len);
    for (unsigned k : {0u, 4u, 13u}) {
      for (bool outboard : {false, true}) {
        SCOPED_TRACE("length " + std::to_string(len) + ", group_log " + std::to_string(k) +
                     (outboard ? ", outboard" : ""));
        const bao::encoding want =
            outboard ? bao::encode_outboard(input, k) : bao::encode(input, k);
        byte_vector got(want.bytes.size(), std::byte{0xee});
        write_ranges written;
        const bao::write_at_function out = [&](std::uint64_t at, std::span<const std::byte> bytes) {
          ASSERT_LE(at + bytes.size(), got.size());
          std::copy(bytes.begin(), bytes.end(), got.begin() + static_cast<std::ptrdiff_t>(at));
          written.add(at, bytes.size());
        };
        const b3::digest hash = outboard ? bao::encode_outboard(len, bao::read_from(input), out, k)
                                         : bao::encode(len, bao::read_from(input), out, k);
        EXPECT_EQ(hash, want.hash);
        EXPECT_EQ(got, want.bytes);
        EXPECT_TRUE(written.tile(got.size()));
        // On threads: each piece written by whichever thread made it, once.
        std::fill(got.begin(), got.end(), std::byte{0xee});
        const b3::digest on_pool =
            outboard ? bao::encode_outboard(len, bao::read_from(input), out, pool, k)
                     : bao::encode(len, bao::read_from(input), out, pool, k);
        EXPECT_EQ(on_pool, want.hash);
        EXPECT_EQ(got, want.bytes);
        EXPECT_TRUE(written.tile(got.size()));
      }
    }
  }
  // An input that ends before the length given.
  const std::span<const std::byte> input(random.data(), 5u << 20);
  byte_vector sink(bao::encoded_size(6u << 20));
  const bao::write_at_function out = [&](std::uint64_t at, std::span<const std::byte> bytes) {
    std::copy(bytes.begin(), bytes.end(), sink.begin() + static_cast<std::ptrdiff_t>(at));
  };
  EXPECT_EQ(bao_error_offset([&] { bao::encode(6u << 20, bao::read_from(input), out); }), 5u << 20);
}

// Files through the file functions' ways (encode_file, encode_fd): what the in-memory
// encoders make, byte for byte, each byte written once, whatever the strategy, the windows
// (a progress step under 16 MiB makes them smaller), the group size and the pool.
TEST(BaoEncodePieces, FilesOnEveryWayOfTheFileFunctions) {
  random_source rng(test_seed() + 97);
  thread_pool pool(3);
  const auto random = rng.bytes((9u << 20) + 1025);
  const std::string path = ::testing::TempDir() + "/bao-file-in";
  auto write_input = [&](std::span<const std::byte> bytes) {
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    f.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
  };
  const file_strategy strategies[] = {file_strategy::automatic, file_strategy::read,
                                      file_strategy::mmap, file_strategy::mmap_parallel,
                                      file_strategy::stream};
  // Around a chunk, a subtree_levels batch, the 1 MiB reads, the 1 MiB and 4 MiB windows and
  // the 8 MiB groups of k = 13.
  for (std::size_t len : {std::size_t{0}, std::size_t{1}, std::size_t{1025}, std::size_t{262145},
                          std::size_t{(1u << 20) + 1}, std::size_t{3 * 262144 + 7},
                          std::size_t{4u << 20}, std::size_t{(9u << 20) + 1025}}) {
    const std::span<const std::byte> input(random.data(), len);
    write_input(input);
    for (unsigned k : {0u, 4u, 13u}) {
      for (bool outboard : {false, true}) {
        const bao::encoding want =
            outboard ? bao::encode_outboard(input, k) : bao::encode(input, k);
        for (file_strategy strategy : strategies) {
          for (std::uint64_t step : {std::uint64_t{64} << 20, std::uint64_t{1} << 20}) {
            SCOPED_TRACE("length " + std::to_string(len) + ", group_log " + std::to_string(k) +
                         (outboard ? ", outboard" : "") + ", strategy " +
                         std::to_string(static_cast<int>(strategy)) + ", step " +
                         std::to_string(step));
            byte_vector got(want.bytes.size(), std::byte{0xee});
            write_ranges written;
            const bao::write_at_function out = [&](std::uint64_t at,
                                                   std::span<const std::byte> bytes) {
              ASSERT_LE(at + bytes.size(), got.size());
              std::copy(bytes.begin(), bytes.end(), got.begin() + static_cast<std::ptrdiff_t>(at));
              written.add(at, bytes.size());
            };
            file_options options;
            options.strategy = strategy;
            options.progress_step = step;
            options.pool = step == (1u << 20) ? &pool : nullptr;
            const b3::digest hash = outboard ? bao::encode_outboard_file(path, out, options, k)
                                             : bao::encode_file(path, out, options, k);
            EXPECT_EQ(hash, want.hash);
            EXPECT_EQ(got, want.bytes);
            EXPECT_TRUE(written.tile(got.size()));
          }
        }
      }
    }
  }

  // A descriptor from its offset, a length limit, and progress to the end.
  write_input(random);
  const int fd = ::open(path.c_str(), O_RDONLY);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::lseek(fd, 12345, SEEK_SET), 12345);
  for (std::uint64_t limit : {std::uint64_t{5} << 20, ~std::uint64_t{0}}) {
    const std::size_t len =
        static_cast<std::size_t>(std::min<std::uint64_t>(random.size() - 12345, limit));
    const bao::encoding want = bao::encode_outboard(std::span(random).subspan(12345, len));
    byte_vector got(want.bytes.size());
    std::vector<std::pair<std::uint64_t, std::uint64_t>> reports;
    file_options options;
    options.max_length = limit;
    options.progress_step = 1u << 20;
    options.progress = [&](std::uint64_t done, std::uint64_t total) {
      reports.emplace_back(done, total);
      return true;
    };
    EXPECT_EQ(bao::encode_outboard_fd(
                  fd,
                  [&](std::uint64_t at, std::span<const std::byte> bytes) {
                    std::copy(bytes.begin(), bytes.end(),
                              got.begin() + static_cast<std::ptrdiff_t>(at));
                  },
                  options),
              want.hash);
    EXPECT_EQ(got, want.bytes);
    ASSERT_FALSE(reports.empty());
    EXPECT_EQ(reports.back(), std::make_pair(std::uint64_t{len}, std::uint64_t{len}));
  }
  ::close(fd);
}

// What encode_file refuses, and what it lets through: the file's errors name it; a file that
// shrinks while it is encoded fails whatever the way; the output's exceptions go through as
// they are thrown; progress may stop it.
TEST(BaoFiles, EncodeFileErrors) {
  random_source rng(test_seed() + 98);
  const std::string dir = ::testing::TempDir();
  const bao::write_at_function nowhere = [](std::uint64_t, std::span<const std::byte>) {};
  auto code_of = [](auto&& f) -> std::error_code {
    try {
      f();
    } catch (const std::system_error& e) {
      return e.code();
    }
    return {};
  };
  EXPECT_EQ(code_of([&] { bao::encode_file(dir + "/no-such-file", nowhere); }),
            std::errc::no_such_file_or_directory);
  EXPECT_EQ(code_of([&] { bao::encode_outboard_file(dir, nowhere); }), std::errc::is_a_directory);
  int pipe_ends[2];
  ASSERT_EQ(::pipe(pipe_ends), 0);
  EXPECT_EQ(code_of([&] { bao::encode_fd(pipe_ends[0], nowhere); }), std::errc::invalid_argument);
  ::close(pipe_ends[0]);
  ::close(pipe_ends[1]);
  try {
    bao::encode_file(dir + "/no-such-file", nowhere);
  } catch (const std::system_error& e) {
    EXPECT_NE(std::string(e.what()).find("no-such-file"), std::string::npos) << e.what();
  }

  const auto input = rng.bytes((6u << 20) + 77);
  const std::string path = dir + "/bao-shrinks";
  // (Under an emulator that delivers no SIGBUS for a shrunk mapped file, qemu-user on
  // big-endian guests, reads only.)
  const bool mapped_sigbus = std::getenv("FASTBLAKE_TEST_NO_MAPPED_SIGBUS") == nullptr;
  for (file_strategy strategy : {file_strategy::read, file_strategy::mmap,
                                 file_strategy::mmap_parallel, file_strategy::stream}) {
    const bool mapped = strategy == file_strategy::mmap || strategy == file_strategy::mmap_parallel;
    if (mapped && !mapped_sigbus) continue;
    SCOPED_TRACE(static_cast<int>(strategy));
    {
      std::ofstream f(path, std::ios::binary | std::ios::trunc);
      f.write(reinterpret_cast<const char*>(input.data()),
              static_cast<std::streamsize>(input.size()));
    }
    file_options options;
    options.strategy = strategy;
    options.progress_step = 1u << 20;
    // The first node written cuts the file to 2 MiB + 5: mapped, the loads past its new last
    // page fault with SIGBUS, which the guard turns into the error.
    bool cut = false;
    const bao::write_at_function shrink = [&](std::uint64_t at, std::span<const std::byte>) {
      if (at != 0 && !cut) {
        cut = true;
        ASSERT_EQ(::truncate(path.c_str(), (2 << 20) + 5), 0);
      }
    };
    EXPECT_EQ(code_of([&] { bao::encode_outboard_file(path, shrink, options); }),
              file_errc::truncated);
    EXPECT_TRUE(cut);
  }

  struct refused {};
  {
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    f.write(reinterpret_cast<const char*>(input.data()),
            static_cast<std::streamsize>(input.size()));
  }
  EXPECT_THROW(bao::encode_file(path,
                                [](std::uint64_t at, std::span<const std::byte>) {
                                  if (at != 0) throw refused{};
                                }),
               refused);
  file_options stop;
  stop.progress_step = 1u << 20;
  stop.progress = [](std::uint64_t done, std::uint64_t) { return done < (2u << 20); };
  EXPECT_EQ(code_of([&] { bao::encode_file(path, nowhere, stop); }), std::errc::operation_canceled);
  EXPECT_THROW(bao::encode_file(path, nowhere, {}, bao::max_group_log + 1), bao::error);
  std::remove(path.c_str());
}

// Through files: encoded from a descriptor into a descriptor, read back through one.
TEST(BaoFiles, EncodeAndReadThroughDescriptors) {
  random_source rng(test_seed() + 96);
  const auto input = rng.bytes((5u << 20) + 333);
  const std::string dir = ::testing::TempDir();
  const std::string in_path = dir + "/bao-in", out_path = dir + "/bao-out";
  {
    std::ofstream f(in_path, std::ios::binary);
    f.write(reinterpret_cast<const char*>(input.data()),
            static_cast<std::streamsize>(input.size()));
  }
  const int in = ::open(in_path.c_str(), O_RDONLY);
  const int out = ::open(out_path.c_str(), O_RDWR | O_CREAT | O_TRUNC, 0600);
  ASSERT_GE(in, 0);
  ASSERT_GE(out, 0);
  const b3::digest hash =
      bao::encode_outboard(input.size(), bao::read_from_fd(in), bao::write_to_fd(out));
  EXPECT_EQ(hash, b3::hash(input));
  bao::reader r(hash, bao::read_from_fd(out), bao::read_from_fd(in));
  EXPECT_EQ(read_all(r, rng, 1u << 20), input);
  ::close(in);
  ::close(out);
  std::byte one[1];
  EXPECT_THROW(bao::read_from_fd(-1)(0, one), std::system_error);
  std::remove(in_path.c_str());
  std::remove(out_path.c_str());
}

// An output in memory that the stream encoder writes and reads back, counting both.
struct memory_output {
  byte_vector bytes;
  std::uint64_t written = 0, read = 0;
  bao::write_at_function writer() {
    return [this](std::uint64_t at, std::span<const std::byte> b) {
      if (at + b.size() > bytes.size()) bytes.resize(at + b.size(), std::byte{0xee});
      std::copy(b.begin(), b.end(), bytes.begin() + static_cast<std::ptrdiff_t>(at));
      written += b.size();
    };
  }
  bao::read_at_function reader() {
    return [this](std::uint64_t at, std::span<std::byte> out) {
      const std::size_t n = bao::read_from(bytes)(at, out);
      read += n;
      return n;
    };
  }
};

const char* name_of(bao::format f) {
  switch (f) {
    case bao::format::combined:
      return "combined";
    case bao::format::outboard:
      return "outboard";
    case bao::format::post_order_outboard:
      return "post-order outboard";
  }
  return "?";
}

bao::encoding one_shot(std::span<const std::byte> input, bao::format f, unsigned k) {
  switch (f) {
    case bao::format::combined:
      return bao::encode(input, k);
    case bao::format::outboard:
      return bao::encode_outboard(input, k);
    case bao::format::post_order_outboard:
      return bao::encode_post_order_outboard(input, k);
  }
  return {};
}

TEST(BaoStream, EncodesInAnyPartsWhatTheOneShotEncodersMake) {
  random_source rng(test_seed() + 99);
  thread_pool pool(3);
  const auto random = rng.bytes((13u << 20) + 1025);
  std::vector<std::size_t> lengths = streaming_lengths();
  // Pieces of 4 MiB merged two by two, and an 8 MiB group's (k = 13) pieces.
  for (std::size_t len : {std::size_t{8u << 20}, std::size_t{(8u << 20) + 1},
                          std::size_t{(12u << 20) + 5}, std::size_t{(13u << 20) + 1025}}) {
    lengths.push_back(len);
  }
  for (std::size_t len : lengths) {
    const std::span<const std::byte> input(random.data(), len);
    for (unsigned k : {0u, 4u, 13u}) {
      for (bao::format f :
           {bao::format::combined, bao::format::outboard, bao::format::post_order_outboard}) {
        SCOPED_TRACE("length " + std::to_string(len) + ", group_log " + std::to_string(k) + ", " +
                     name_of(f));
        const bao::encoding want = one_shot(input, f, k);
        // Each way for the small lengths; one of them in turn for the larger (sanitizers).
        for (int way = 0; way < 3; ++way) {
          if (len > (1u << 20) && static_cast<std::size_t>(way) != (len + k) % 3) continue;
          memory_output out;
          bao::encoder e(out.reader(), out.writer(), f, k);
          if (way == 2) e.use_pool(pool);
          std::size_t done = 0;
          while (done < len) {
            // All at once, or random parts from a byte to 2 MiB.
            const std::size_t n =
                way == 0 ? len - done
                         : std::min<std::size_t>(len - done, rng.below(std::size_t{2} << 20) + 1);
            e.update(input.subspan(done, n));
            done += n;
            EXPECT_EQ(e.count(), done);
          }
          EXPECT_EQ(e.finalize(), want.hash);
          EXPECT_EQ(out.bytes, want.bytes);
          // Each byte written once as the input came and once more where it moved; read once.
          EXPECT_LE(out.written, 2 * want.bytes.size());
          EXPECT_LE(out.read, want.bytes.size());
        }
      }
    }
  }
}

TEST(BaoStream, PostOrderOutboardsAreParentsInPostOrderThenTheLength) {
  // Three chunks: the root over (the parent of chunks 0 and 1) and chunk 2.
  const byte_vector input = bao_input(3 * 1024);
  const bao::encoding pre = bao::encode_outboard(input);
  const bao::encoding post = bao::encode_post_order_outboard(input);
  ASSERT_EQ(pre.bytes.size(), 8u + 128u);
  ASSERT_EQ(post.bytes.size(), pre.bytes.size());
  EXPECT_EQ(post.hash, pre.hash);
  EXPECT_TRUE(std::equal(post.bytes.begin(), post.bytes.begin() + 64, pre.bytes.begin() + 72));
  EXPECT_TRUE(std::equal(post.bytes.begin() + 64, post.bytes.begin() + 128, pre.bytes.begin() + 8));
  EXPECT_TRUE(std::equal(post.bytes.begin() + 128, post.bytes.end(), pre.bytes.begin()));

  // The parents of a prefix's whole subtrees keep their places as the input grows: those of the
  // subtrees of its f whole groups are f - popcount(f) parents, first in post-order.
  random_source rng(test_seed() + 100);
  const auto random = rng.bytes((1u << 20) + 5);
  for (unsigned k : {0u, 2u, 5u}) {
    const std::uint64_t group = std::uint64_t{1024} << k;
    const byte_vector whole = bao::encode_post_order_outboard(random, k).bytes;
    EXPECT_EQ(bao::pre_order_outboard(whole, k), bao::encode_outboard(random, k).bytes);
    EXPECT_EQ(bao::post_order_outboard(bao::encode_outboard(random, k).bytes, k), whole);
    for (int i = 0; i < 25; ++i) {
      const std::size_t n = rng.below(random.size());
      const std::span<const std::byte> prefix(random.data(), n);
      const byte_vector part = bao::encode_post_order_outboard(prefix, k).bytes;
      const std::uint64_t groups = n / group;
      const auto stable = static_cast<std::ptrdiff_t>(
          bao::parent_size * (groups - static_cast<std::uint64_t>(std::popcount(groups))));
      SCOPED_TRACE("prefix " + std::to_string(n) + ", group_log " + std::to_string(k));
      ASSERT_LE(stable + 8, static_cast<std::ptrdiff_t>(part.size()));
      EXPECT_TRUE(std::equal(part.begin(), part.begin() + stable, whole.begin()));
      EXPECT_EQ(bao::pre_order_outboard(part, k), bao::encode_outboard(prefix, k).bytes);
      EXPECT_EQ(bao::decode_outboard(b3::hash(prefix), bao::pre_order_outboard(part, k), prefix, k),
                byte_vector(prefix.begin(), prefix.end()));
    }
  }

  // Sizes that do not match the length in them.
  const byte_vector post_bytes = post.bytes;
  for (std::size_t cut : {std::size_t{0}, std::size_t{7}, std::size_t{100}}) {
    EXPECT_EQ(bao_error_offset([&] { bao::pre_order_outboard(std::span(post_bytes).first(cut)); }),
              cut);
  }
  byte_vector longer = post_bytes;
  longer.insert(longer.begin(), std::byte{0});
  EXPECT_EQ(bao_error_offset([&] { bao::pre_order_outboard(longer); }), longer.size());
  EXPECT_EQ(bao_error_offset([&] {
              bao::post_order_outboard(std::span(pre.bytes).first(pre.bytes.size() - 1));
            }),
            pre.bytes.size() - 1);
}

TEST(BaoStream, APostOrderOutboardIsReadAsAPreOrderOne) {
  random_source rng(test_seed() + 102);
  const auto random = rng.bytes((3u << 20) + 77);
  for (std::size_t len : {std::size_t{0}, std::size_t{1}, std::size_t{1025}, std::size_t{5000},
                          std::size_t{300000}, random.size()}) {
    const std::span<const std::byte> input(random.data(), len);
    for (unsigned k : {0u, 2u}) {
      SCOPED_TRACE("length " + std::to_string(len) + ", group_log " + std::to_string(k));
      const byte_vector post = bao::encode_post_order_outboard(input, k).bytes;
      const byte_vector pre = bao::encode_outboard(input, k).bytes;
      const bao::read_at_function view = bao::pre_order_view(bao::read_from(post), post.size(), k);
      // Reads of any place and size, past the end too.
      for (int i = 0; i < 40; ++i) {
        const std::uint64_t at = rng.below(pre.size() + 10);
        byte_vector got(rng.below(std::min<std::size_t>(pre.size(), 70000)) + 1);
        const std::size_t n = view(at, got);
        ASSERT_EQ(n, at >= pre.size() ? 0 : std::min<std::size_t>(got.size(), pre.size() - at));
        EXPECT_TRUE(std::equal(
            got.begin(), got.begin() + static_cast<std::ptrdiff_t>(n),
            pre.begin() + static_cast<std::ptrdiff_t>(std::min<std::uint64_t>(at, pre.size()))));
      }
      // The reader and the slicer over it.
      bao::reader r(b3::hash(input), view, bao::read_from(input), k);
      byte_vector out(len + 1);
      std::size_t n = 0;
      while (std::size_t more = r.read(std::span(out).subspan(n))) n += more;
      EXPECT_EQ(n, len);
      EXPECT_TRUE(std::equal(input.begin(), input.end(), out.begin()));
      EXPECT_EQ(bao::extract_slice_outboard(view, bao::read_from(input), len / 3, 70000, k),
                bao::extract_slice_outboard(pre, input, len / 3, 70000, k));
    }
  }
  // A post-order outboard cut short: the reader fails, nothing unchecked comes out.
  const std::span<const std::byte> input(random.data(), 300000);
  const byte_vector post = bao::encode_post_order_outboard(input).bytes;
  for (std::size_t cut : {std::size_t{0}, std::size_t{5}, post.size() / 2, post.size() - 1}) {
    bao::reader r(b3::hash(input),
                  bao::pre_order_view(bao::read_from(std::span(post).first(cut)), cut),
                  bao::read_from(input));
    byte_vector out(input.size());
    EXPECT_THROW(
        {
          std::size_t n = 0;
          while (std::size_t more = r.read(std::span(out).subspan(n))) n += more;
        },
        bao::error)
        << cut;
  }
}

// An encoder resumed from the post-order outboard of a prefix, given the rest, makes the
// post-order outboard of the whole, reading a few nodes and at most a piece of the prefix; an
// outboard, input or hash that do not agree are refused before anything is written.
TEST(BaoStream, ResumesAPostOrderOutboardOfAPrefix) {
  random_source rng(test_seed() + 104);
  const auto random = rng.bytes((13u << 20) + 1025);
  const std::uint64_t piece = 4u << 20;
  for (unsigned k : {0u, 2u, 4u, 13u}) {
    for (std::uint64_t prefix :
         {std::uint64_t{0}, std::uint64_t{1}, std::uint64_t{1024}, std::uint64_t{5000}, piece - 1,
          piece, piece + 1, 2 * piece, 3 * piece + 7, rng.below(random.size())}) {
      const std::uint64_t len =
          k == 13 || prefix > piece + 1 ? random.size() : prefix + 1 + rng.below(piece + 5000);
      SCOPED_TRACE("group_log " + std::to_string(k) + ", " + std::to_string(prefix) + " then " +
                   std::to_string(len));
      const std::span<const std::byte> before(random.data(), prefix), whole(random.data(), len);
      const bao::encoding want = bao::encode_post_order_outboard(whole, k);
      memory_output out;
      const bao::encoding old = bao::encode_post_order_outboard(before, k);
      out.bytes = old.bytes;
      std::uint64_t input_read = 0;
      const bao::read_at_function input = [&](std::uint64_t at, std::span<std::byte> to) {
        const std::size_t n = bao::read_from(before)(at, to);
        input_read += n;
        return n;
      };
      bao::encoder e = bao::encoder::resume(out.reader(), out.writer(), prefix, input, old.hash, k);
      EXPECT_EQ(e.count(), prefix);
      EXPECT_EQ(out.written, 0u);
      EXPECT_LE(out.read, 64 * bao::parent_size + bao::header_size);
      // (Where a piece is one group, a finished piece alone is a leaf, read again too.)
      EXPECT_LE(input_read, 2 * std::max<std::uint64_t>(piece, std::uint64_t{1024} << k));
      for (std::uint64_t done = prefix; done < len;) {
        const std::uint64_t n = std::min<std::uint64_t>(len - done, 1 + rng.below(3u << 20));
        e.update(whole.subspan(done, n));
        done += n;
      }
      EXPECT_EQ(e.finalize(), want.hash);
      EXPECT_EQ(out.bytes, want.bytes);
      if (prefix == 0) continue;
      // Refused, nothing written: another hash, the input's last piece (what is read again)
      // changed, the top node of the largest finished subtree corrupted, the wrong length, an
      // input cut short.
      const std::uint64_t piece_len = std::max(piece, std::uint64_t{1024} << k);
      const std::uint64_t last_piece = (prefix - 1) % piece_len + 1;
      const std::uint64_t pieces = (prefix - last_piece) / piece_len;
      byte_vector changed(before.begin(), before.end());
      changed[prefix - 1 - rng.below(last_piece)] ^= std::byte{1};
      const auto refused = [&](const byte_vector& outboard, std::uint64_t content_len,
                               std::span<const std::byte> from, const b3::digest& hash) {
        memory_output o;
        o.bytes = outboard;
        try {
          bao::encoder::resume(o.reader(), o.writer(), content_len, bao::read_from(from), hash, k);
        } catch (const bao::error& error) {
          EXPECT_EQ(o.written, 0u);
          return std::string(error.code() == bao::errc::hash_mismatch ? "mismatch" : "truncated");
        } catch (const std::invalid_argument&) {
          EXPECT_EQ(o.written, 0u);
          return std::string("length");
        }
        return std::string("accepted");
      };
      EXPECT_EQ(refused(old.bytes, prefix, before, b3::hash(changed)), "mismatch");
      EXPECT_EQ(refused(old.bytes, prefix, changed, old.hash), "mismatch");
      if (pieces > 0 && piece_len > (std::uint64_t{1024} << k)) {
        const std::uint64_t top = (std::bit_floor(pieces) * piece_len >> (10 + k)) - 1;
        EXPECT_EQ(refused(flipped(old.bytes, top * bao::parent_size - 1), prefix, before, old.hash),
                  "mismatch");
      }
      EXPECT_EQ(refused(old.bytes, prefix - 1, before, old.hash), "length");
      EXPECT_EQ(refused(old.bytes, prefix, before.first(prefix - 1), old.hash), "truncated");
    }
  }
}

TEST(BaoStream, FailuresLeaveTheEncoderUnusable) {
  const byte_vector input = bao_input(9u << 20);
  EXPECT_THROW(bao::encoder(
                   bao::read_from({}), [](std::uint64_t, std::span<const std::byte>) {},
                   bao::format::combined, bao::max_group_log + 1),
               bao::error);
  {
    // A write that fails: the update that met it throws it, and every later call refuses.
    int writes = 0;
    bao::encoder e(bao::read_from({}), [&](std::uint64_t, std::span<const std::byte>) {
      if (++writes == 2) throw std::runtime_error("disk full");
    });
    EXPECT_THROW(e.update(input), std::runtime_error);
    EXPECT_THROW(e.update(input), std::logic_error);
    EXPECT_THROW(e.finalize(), std::logic_error);
  }
  {
    // An output that cannot be read back: nothing there, or a descriptor open for writing only.
    memory_output out;
    bao::encoder e(bao::read_from({}), out.writer());
    e.update(input);
    EXPECT_THROW(e.finalize(), std::runtime_error);
    EXPECT_THROW(e.finalize(), std::logic_error);
  }
  {
    const std::string path = ::testing::TempDir() + "/bao-stream-write-only";
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    ASSERT_GE(fd, 0);
    bao::encoder e(bao::read_from_fd(fd), bao::write_to_fd(fd));
    e.update(input);
    try {
      e.finalize();
      ADD_FAILURE() << "expected EBADF";
    } catch (const std::system_error& error) {
      EXPECT_EQ(error.code(), std::errc::bad_file_descriptor);
    }
    ::close(fd);
    std::remove(path.c_str());
  }
  {
    memory_output out;
    bao::encoder e(out.reader(), out.writer(), bao::format::outboard);
    e.update(input);
    e.update({});
    EXPECT_EQ(e.finalize(), b3::hash(input));
    EXPECT_THROW(e.finalize(), std::logic_error);
  }
  {
    memory_output out;
    bao::encoder e(out.reader(), out.writer());
    e.update(std::span(input).first(100));
    EXPECT_EQ(e.finalize(), b3::hash(std::span(input).first(100)));
    EXPECT_THROW(e.update(input), std::logic_error);
    EXPECT_THROW(e.finalize(), std::logic_error);
  }
}

TEST(BaoStream, EncodesIntoAFileThatTheReaderChecks) {
  const std::string path = ::testing::TempDir() + "/bao-stream-out";
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_TRUNC, 0600);
  ASSERT_GE(fd, 0);
  const byte_vector input = bao_input((9u << 20) + 3);
  bao::encoder e(bao::read_from_fd(fd), bao::write_to_fd(fd));
  for (std::size_t done = 0; done < input.size(); done += 65536) {
    e.update(std::span(input).subspan(done, std::min<std::size_t>(65536, input.size() - done)));
  }
  const b3::digest hash = e.finalize();
  EXPECT_EQ(hash, b3::hash(input));
  bao::reader r(hash, bao::read_from_fd(fd));
  byte_vector got(input.size() + 1);
  std::size_t n = 0;
  while (std::size_t more = r.read(std::span(got).subspan(n))) n += more;
  EXPECT_EQ(n, input.size());
  got.resize(n);
  EXPECT_EQ(got, input);
  ::close(fd);
  std::remove(path.c_str());
}

}  // namespace
}  // namespace fastblake::test
