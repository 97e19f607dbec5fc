// The CUDA backend's chunk, parent and root code (cuda/src/blake3_core.hpp), built for the CPU
// and held to the library, which the official vectors and the official C hold: every mode,
// lengths around block, chunk and subtree boundaries, the GPU's level-by-level reduction, and
// the batch kernel's one-thread-per-input hashing. Runs without a GPU (and without CUDA).
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <fastblake/blake3.hpp>

#include "blake3_core.hpp"
#include "plan.hpp"

namespace {

namespace b3 = fastblake::blake3;
namespace core = fastblake::cuda::detail;

struct named_mode {
  std::string name;
  b3::hazmat::mode mode;
};

std::vector<named_mode> modes() {
  b3::key_type key;
  for (std::size_t i = 0; i < key.size(); ++i) key[i] = static_cast<std::uint8_t>(7 * i + 1);
  return {{"hash", b3::hazmat::mode::hash()},
          {"keyed", b3::hazmat::mode::keyed(key)},
          {"derive_key", b3::hazmat::mode::derive_key("fastblake cuda core test")}};
}

std::vector<std::uint8_t> random_bytes(std::size_t n, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<std::uint8_t> v(n);
  for (auto& b : v) b = static_cast<std::uint8_t>(rng());
  return v;
}

const auto load = [](const std::uint8_t* p, std::uint32_t m[16]) { core::load_block_words(p, m); };

// `size` bytes of the root's extendable output from position `seek`.
std::vector<std::uint8_t> output_of(const core::output_node& root, std::uint64_t seek,
                                    std::size_t size) {
  std::vector<std::uint8_t> out;
  for (std::uint64_t block = seek / 64; out.size() < size + seek % 64; ++block) {
    std::uint32_t words[16];
    core::root_output_block(root, block, words);
    for (std::uint32_t w : words) {
      for (int i = 0; i < 4; ++i) out.push_back(static_cast<std::uint8_t>(w >> (8 * i)));
    }
  }
  return {out.begin() + static_cast<std::ptrdiff_t>(seek % 64),
          out.begin() + static_cast<std::ptrdiff_t>(seek % 64 + size)};
}

std::vector<std::uint8_t> library_output(const b3::hazmat::mode& m,
                                         const std::vector<std::uint8_t>& in, std::uint64_t seek,
                                         std::size_t size) {
  b3::hasher h(m);
  h.update(std::span<const std::uint8_t>(in));
  b3::output_reader r = h.finalize_xof();
  r.seek(seek);
  std::vector<std::uint8_t> out(size);
  r.fill(std::span<std::uint8_t>(out));
  return out;
}

// The GPU's way to the root of an input of more than one chunk: chaining values of every
// chunk, then levels of parents (adjacent pairs, an odd last node carried up) as the launch
// plan groups them, until two are left: the root's children.
core::output_node reduced_root(const std::vector<std::uint8_t>& in, const b3::hazmat::mode& m) {
  const std::uint32_t* key = m.key_words().data();
  const std::uint64_t chunks = (in.size() + core::chunk_len - 1) / core::chunk_len;
  std::vector<std::array<std::uint32_t, 8>> level(chunks);
  for (std::uint64_t c = 0; c < chunks; ++c) {
    const auto len = static_cast<std::uint32_t>(
        std::min<std::uint64_t>(core::chunk_len, in.size() - c * core::chunk_len));
    if (len == core::chunk_len) {
      core::full_chunk_cv(in.data() + c * core::chunk_len, c, key, m.flags(), load,
                          level[c].data());
    } else {
      core::chaining_value(
          core::chunk_node(in.data() + c * core::chunk_len, len, c, key, m.flags(), load),
          level[c].data());
    }
  }
  const fastblake::cuda::detail::launch_plan plan =
      fastblake::cuda::detail::plan_reduction(chunks, 2);
  std::uint64_t nodes = chunks;
  for (unsigned levels : plan.levels) {
    for (unsigned l = 0; l < levels; ++l) {
      std::vector<std::array<std::uint32_t, 8>> up((nodes + 1) / 2);
      for (std::uint64_t i = 0; i < up.size(); ++i) {
        if (2 * i + 1 < nodes) {
          core::chaining_value(
              core::parent_node(level[2 * i].data(), level[2 * i + 1].data(), key, m.flags()),
              up[i].data());
        } else {
          up[i] = level[2 * i];
        }
      }
      level = up;
      nodes = up.size();
    }
  }
  EXPECT_EQ(nodes, 2u);
  EXPECT_EQ(nodes, plan.final_nodes);
  return core::parent_node(level[0].data(), level[1].data(), key, m.flags());
}

TEST(CudaCore, SingleChunkRootsMatchTheLibrary) {
  for (const auto& [name, m] : modes()) {
    for (std::size_t len : {0, 1, 63, 64, 65, 127, 128, 129, 512, 1000, 1023, 1024}) {
      const auto in = random_bytes(len, static_cast<std::uint32_t>(len));
      const core::output_node root = core::chunk_node(in.data(), static_cast<std::uint32_t>(len), 0,
                                                      m.key_words().data(), m.flags(), load);
      EXPECT_EQ(output_of(root, 0, 32), library_output(m, in, 0, 32)) << name << " " << len;
      EXPECT_EQ(output_of(root, 100, 200), library_output(m, in, 100, 200)) << name << " " << len;
    }
  }
}

TEST(CudaCore, WholeChunksMatchTheGeneralPath) {
  for (const auto& [name, m] : modes()) {
    const auto in = random_bytes(core::chunk_len, 99);
    for (std::uint64_t index : {0ull, 1ull, 5ull, (1ull << 32) + 3}) {
      std::uint32_t fast[8], rolled[8], imad[8], general[8];
      core::full_chunk_cv(in.data(), index, m.key_words().data(), m.flags(), load, fast);
      core::full_chunk_cv_rolled(in.data(), index, m.key_words().data(), m.flags(), load, rolled);
      core::full_chunk_cv(in.data(), index, m.key_words().data(), m.flags(), load, imad,
                          core::imad_adds{1});
      core::chaining_value(core::chunk_node(in.data(), core::chunk_len, index, m.key_words().data(),
                                            m.flags(), load),
                           general);
      EXPECT_TRUE(std::equal(fast, fast + 8, general)) << name << " chunk " << index;
      EXPECT_TRUE(std::equal(rolled, rolled + 8, general)) << name << " rolled, chunk " << index;
      EXPECT_TRUE(std::equal(imad, imad + 8, general)) << name << " imad, chunk " << index;
    }
  }
}

// The batch kernel's path for inputs of a chunk or less: every length from 0 to 1024.
TEST(CudaCore, SmallInputDigestsMatchTheLibrary) {
  for (const auto& [name, m] : modes()) {
    const auto in = random_bytes(core::chunk_len, 7);
    for (std::uint32_t len = 0; len <= core::chunk_len; ++len) {
      const std::vector<std::uint8_t> input(in.begin(), in.begin() + len);
      std::uint32_t words[8];
      core::single_chunk_digest(input.data(), len, m.key_words().data(), m.flags(), load, words);
      std::vector<std::uint8_t> digest;
      for (std::uint32_t w : words) {
        for (int i = 0; i < 4; ++i) digest.push_back(static_cast<std::uint8_t>(w >> (8 * i)));
      }
      ASSERT_EQ(digest, library_output(m, input, 0, 32)) << name << " " << len;
    }
  }
}

TEST(CudaCore, LevelReductionMatchesTheLibrary) {
  for (const auto& [name, m] : modes()) {
    for (std::size_t len : {1025, 2048, 2049, 3072, 4097, 8191, 65535, 65536, 65537, 262143, 262145,
                            300000, 1048576 + 3}) {
      const auto in = random_bytes(len, static_cast<std::uint32_t>(len));
      const core::output_node root = reduced_root(in, m);
      EXPECT_EQ(output_of(root, 0, 32), library_output(m, in, 0, 32)) << name << " " << len;
      EXPECT_EQ(output_of(root, 12345, 131), library_output(m, in, 12345, 131))
          << name << " " << len;
    }
  }
}

TEST(CudaCore, SequentialRootMatchesTheLibrary) {
  for (const auto& [name, m] : modes()) {
    for (std::size_t len : {0, 1, 1024, 1025, 2048, 3073, 5120, 16384, 17409, 100000}) {
      const auto in = random_bytes(len, static_cast<std::uint32_t>(len + 1));
      const core::output_node root =
          core::root_node(in.data(), len, m.key_words().data(), m.flags(), load);
      EXPECT_EQ(output_of(root, 0, 32), library_output(m, in, 0, 32)) << name << " " << len;
    }
  }
}

TEST(CudaPlan, LevelsEndAtTheRootsChildren) {
  for (std::uint64_t chunks : {2ull, 3ull, 4ull, 5ull, 255ull, 256ull, 257ull, 511ull, 512ull,
                               513ull, 65536ull, 65537ull, 1ull << 20, (1ull << 22) + 1}) {
    // 9 levels at first where a thread merges two chunks itself (the "pairs" variant).
    for (unsigned first : {fastblake::cuda::detail::max_levels_per_launch, 9u}) {
      const auto plan = fastblake::cuda::detail::plan_reduction(chunks, 2, first);
      std::uint64_t nodes = chunks;
      for (std::size_t i = 0; i < plan.levels.size(); ++i) {
        EXPECT_LE(plan.levels[i], i == 0 ? first : fastblake::cuda::detail::max_levels_per_launch);
        nodes = (nodes + (1ull << plan.levels[i]) - 1) >> plan.levels[i];
      }
      EXPECT_EQ(nodes, 2u) << chunks;
      EXPECT_EQ(plan.final_nodes, 2u);
    }
  }
  // A piece of a larger input reduces to one node, its subtree's chaining value.
  for (std::uint64_t chunks : {1ull, 2ull, 3ull, 256ull, 65536ull}) {
    const auto plan = fastblake::cuda::detail::plan_reduction(chunks, 1);
    std::uint64_t nodes = chunks;
    for (unsigned levels : plan.levels) nodes = (nodes + (1ull << levels) - 1) >> levels;
    EXPECT_EQ(nodes, 1u) << chunks;
  }
}

// set_piece_size's rounding: every value, up to 2^64 - 1, gives a power of two from 1 KiB to
// 4 GiB at once (it used to loop forever from 2^63 on).
TEST(CudaPlan, PieceSizesAreBoundedPowersOfTwo) {
  namespace d = fastblake::cuda::detail;
  EXPECT_EQ(d::piece_size_for(0), 1024u);
  EXPECT_EQ(d::piece_size_for(1), 1024u);
  EXPECT_EQ(d::piece_size_for(2047), 1024u);
  EXPECT_EQ(d::piece_size_for(2048), 2048u);
  EXPECT_EQ(d::piece_size_for(64u << 20), 64u << 20);
  EXPECT_EQ(d::piece_size_for((64u << 20) + 1), 64u << 20);
  EXPECT_EQ(d::piece_size_for(d::max_piece_size), d::max_piece_size);
  for (int bit = 33; bit < 64; ++bit) {
    EXPECT_EQ(d::piece_size_for(std::uint64_t{1} << bit), d::max_piece_size) << bit;
  }
  EXPECT_EQ(d::piece_size_for(~std::uint64_t{0}), d::max_piece_size);
  for (std::uint64_t v = 1; v != 0; v = v * 3 + 1) {
    const std::uint64_t p = d::piece_size_for(v);
    EXPECT_EQ(p & (p - 1), 0u) << v;
    EXPECT_TRUE(p >= 1024 && p <= d::max_piece_size) << v;
    if (v > (~std::uint64_t{0} - 1) / 3) break;
  }
}

TEST(CudaPlan, PiecesMergeAsTheTreeDoes) {
  // Pieces of 4 chunks, reduced to one chaining value each, merged on the CPU: the same root as
  // the library's for every count of pieces, the last one short.
  const b3::hazmat::mode m = b3::hazmat::mode::hash();
  for (std::size_t len : {4096 + 1, 8192, 8193, 12288 + 1000, 5 * 4096 + 1, 7 * 4096}) {
    const auto in = random_bytes(len, static_cast<std::uint32_t>(len));
    std::vector<b3::hazmat::chaining_value> pieces;
    for (std::size_t off = 0; off < len; off += 4096) {
      b3::hasher h;
      b3::hazmat::set_input_offset(h, off);
      h.update(
          std::span<const std::uint8_t>(in.data() + off, std::min<std::size_t>(4096, len - off)));
      pieces.push_back(b3::hazmat::finalize_non_root(h));
    }
    const auto [left, right] = fastblake::cuda::detail::merge_to_children(pieces, m);
    EXPECT_EQ(b3::hazmat::merge_subtrees_root(left, right, m),
              b3::hash(std::span<const std::uint8_t>(in)))
        << len;
  }
}

}  // namespace
