// Bao's reader (bao::reader): whole encodings, outboards and slices read in pieces and from any
// position, stopping at the first bad node; and the encoders, decoders and readers on thread
// pools, which give what one thread gives.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include <fastblake/bao.hpp>
#include <fastblake/blake3.hpp>
#include <fastblake/thread_pool.hpp>

#include "bao_test_support.hpp"
#include "test_support.hpp"

namespace fastblake::test {
namespace {

namespace b3 = fastblake::blake3;

// On threads: the encoders give what one thread gives, and the decoder into a buffer hands out
// the input, or fails where the one-thread decoder fails, whatever the pool.
TEST(BaoThreads, EncodeAndDecodeOnAnyPoolAsOnOneThread) {
  random_source rng(test_seed() + 97);
  // (The largest 1 MiB and a bit under ThreadSanitizer: still subtrees on every pool.)
  const auto random = rng.bytes((under_thread_sanitizer ? (1u << 20) : (2u << 20)) + 1025);
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

}  // namespace
}  // namespace fastblake::test
