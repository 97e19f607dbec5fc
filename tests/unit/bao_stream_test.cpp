// Bao's stream encoder (bao::encoder): in any parts what the one-shot encoders make, post-order
// outboards and their pre-order view, resuming from a prefix's outboard, failures, and encoding
// into a file that the reader checks.
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <span>
#include <stdexcept>
#include <string>
#include <system_error>
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
