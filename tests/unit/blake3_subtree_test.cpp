// The subtree API: an input cut into pieces along the BLAKE3 tree, hashed piece by piece and
// merged, gives exactly the one-pass digest and extendable output. Misuse throws.
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <fastblake/blake3.hpp>

#include "kernel_fixture.hpp"
#include "test_support.hpp"

namespace fastblake::test {
namespace {

namespace b3 = fastblake::blake3;

struct tree_mode {
  b3::hasher initial;
  b3::hazmat::mode mode;
};

tree_mode pick_tree_mode(random_source& rng) {
  switch (rng.below(3)) {
    case 0:
      return {b3::hasher(), b3::hazmat::mode::hash()};
    case 1: {
      const b3::key_type key = rng.key();
      return {b3::hasher::keyed(key), b3::hazmat::mode::keyed(key)};
    }
    default: {
      const std::string context = rng.text(rng.below(40));
      return {b3::hasher::derive_key(context), b3::hazmat::mode::derive_key(context)};
    }
  }
}

// The chaining value of the tree node covering input[offset, offset + len): either one hasher
// over the whole piece (fed in random pieces) or, at random, the merge of its two children.
b3::hazmat::chaining_value node_cv(const tree_mode& m, std::span<const std::byte> input,
                                   std::uint64_t offset, std::uint64_t len, random_source& rng) {
  if (len <= b3::chunk_size || rng.below(3) == 0) {
    b3::hasher h = m.initial;
    b3::hazmat::set_input_offset(h, offset);
    update_in_pieces(h, input.subspan(offset, len), rng.split_points(len));
    return b3::hazmat::finalize_non_root(h);
  }
  const std::uint64_t left = b3::hazmat::left_subtree_len(len);
  return b3::hazmat::merge_subtrees_non_root(node_cv(m, input, offset, left, rng),
                                             node_cv(m, input, offset + left, len - left, rng),
                                             m.mode);
}

class Blake3Subtree : public kernel_test {};

TEST_P(Blake3Subtree, RandomSplitsMergeToTheOnePassOutput) {
  random_source rng(test_seed() + 3);
  for (int round = 0; round < 120; ++round) {
    const std::size_t len = std::max<std::size_t>(b3::chunk_size + 1, rng.interesting_length(40));
    const auto input = rng.bytes(len);
    const tree_mode m = pick_tree_mode(rng);
    SCOPED_TRACE("length " + std::to_string(len) + ", seed " + std::to_string(test_seed()));
    b3::hasher whole = m.initial;
    whole.update(input);

    const std::uint64_t left = b3::hazmat::left_subtree_len(len);
    const b3::hazmat::chaining_value l = node_cv(m, input, 0, left, rng);
    const b3::hazmat::chaining_value r = node_cv(m, input, left, len - left, rng);
    EXPECT_EQ(b3::hazmat::merge_subtrees_root(l, r, m.mode), whole.finalize());

    std::vector<std::byte> expected(300), got(300);
    const std::uint64_t seek = rng.below(1000);
    b3::output_reader one_pass = whole.finalize_xof();
    one_pass.seek(seek);
    one_pass.fill(expected);
    b3::output_reader merged = b3::hazmat::merge_subtrees_root_xof(l, r, m.mode);
    merged.seek(seek);
    merged.fill(got);
    EXPECT_EQ(to_hex(got), to_hex(expected));
  }
}

// Equal-size groups hashed separately, then merged layer by layer (the Rust crate's
// hazmat example): the groups are valid subtrees when their size is a power of two chunks.
TEST_P(Blake3Subtree, GroupsMergedLayerByLayer) {
  const auto input = vector_input(31 * b3::chunk_size + 77);
  const b3::digest expected = b3::hash(input);
  for (std::size_t group_chunks : {1u, 2u, 4u, 8u, 16u}) {
    SCOPED_TRACE("group of " + std::to_string(group_chunks) + " chunks");
    const std::size_t group = group_chunks * b3::chunk_size;
    EXPECT_EQ(b3::hazmat::max_subtree_len(group), group);
    std::vector<b3::hazmat::chaining_value> row;
    for (std::size_t at = 0; at < input.size(); at += group) {
      b3::hasher h;
      b3::hazmat::set_input_offset(h, at);
      h.update(std::span(input).subspan(at, std::min(group, input.size() - at)));
      row.push_back(b3::hazmat::finalize_non_root(h));
    }
    while (row.size() > 2) {
      std::vector<b3::hazmat::chaining_value> up;
      for (std::size_t i = 0; i + 1 < row.size(); i += 2)
        up.push_back(
            b3::hazmat::merge_subtrees_non_root(row[i], row[i + 1], b3::hazmat::mode::hash()));
      if (row.size() % 2 != 0) up.push_back(row.back());
      row = up;
    }
    EXPECT_EQ(b3::hazmat::merge_subtrees_root(row[0], row[1], b3::hazmat::mode::hash()), expected);
  }
}

TEST_P(Blake3Subtree, LeftSubtreeLength) {
  EXPECT_EQ(b3::hazmat::left_subtree_len(1025), 1024u);
  EXPECT_EQ(b3::hazmat::left_subtree_len(2048), 1024u);
  EXPECT_EQ(b3::hazmat::left_subtree_len(2049), 2048u);
  EXPECT_EQ(b3::hazmat::left_subtree_len(4096), 2048u);
  EXPECT_EQ(b3::hazmat::left_subtree_len(4097), 4096u);
  EXPECT_EQ(b3::hazmat::left_subtree_len(std::uint64_t{1} << 40), std::uint64_t{1} << 39);
  EXPECT_EQ(b3::hazmat::left_subtree_len(~std::uint64_t{0}), std::uint64_t{1} << 63);
  EXPECT_THROW(b3::hazmat::left_subtree_len(1024), std::logic_error);
  EXPECT_THROW(b3::hazmat::left_subtree_len(0), std::logic_error);
}

TEST_P(Blake3Subtree, MaxSubtreeLength) {
  EXPECT_EQ(b3::hazmat::max_subtree_len(0), std::nullopt);
  // (chunk index, most chunks)
  const std::pair<std::uint64_t, std::uint64_t> cases[] = {{1, 1}, {2, 2}, {3, 1}, {4, 4},  {5, 1},
                                                           {6, 2}, {7, 1}, {8, 8}, {96, 32}};
  for (auto [chunk, most] : cases)
    EXPECT_EQ(b3::hazmat::max_subtree_len(chunk * b3::chunk_size), most * b3::chunk_size) << chunk;
  EXPECT_EQ(b3::hazmat::max_subtree_len(std::uint64_t{1} << 63), std::uint64_t{1} << 63);
  EXPECT_THROW(b3::hazmat::max_subtree_len(1), std::logic_error);
  EXPECT_THROW(b3::hazmat::max_subtree_len(1023), std::logic_error);
}

TEST_P(Blake3Subtree, MisuseThrows) {
  b3::hasher fresh;
  EXPECT_THROW(b3::hazmat::set_input_offset(fresh, 1), std::logic_error);
  b3::hasher fed;
  fed.update("x");
  EXPECT_THROW(b3::hazmat::set_input_offset(fed, 0), std::logic_error);
  EXPECT_THROW(b3::hazmat::finalize_non_root(b3::hasher()), std::logic_error);
  b3::hasher at_second_chunk;
  EXPECT_THROW(b3::hazmat::finalize_non_root(b3::hazmat::set_input_offset(at_second_chunk, 1024)),
               std::logic_error);

  b3::hasher subtree;
  b3::hazmat::set_input_offset(subtree, 2048);
  subtree.update(vector_input(1000));
  EXPECT_THROW(subtree.finalize(), std::logic_error);
  std::vector<std::byte> out(40);
  EXPECT_THROW(subtree.finalize(out), std::logic_error);
  EXPECT_THROW(subtree.finalize_xof(), std::logic_error);
  try {
    subtree.finalize();
  } catch (const std::logic_error& e) {
    EXPECT_NE(std::string(e.what()).find("finalize_non_root"), std::string::npos) << e.what();
  }

  // Too much input for the subtree: refused whole, and the hasher carries on unharmed.
  const auto input = vector_input(4 * b3::chunk_size);
  b3::hasher right;
  b3::hazmat::set_input_offset(right, 2 * b3::chunk_size);
  right.update(std::span(input).subspan(2 * b3::chunk_size, 500));
  EXPECT_THROW(right.update(std::span(input).first(1600)), std::logic_error);
  EXPECT_EQ(right.count(), 500u);
  right.update(std::span(input).subspan(2 * b3::chunk_size + 500));
  b3::hasher left;
  left.update(std::span(input).first(2 * b3::chunk_size));
  EXPECT_EQ(b3::hazmat::merge_subtrees_root(b3::hazmat::finalize_non_root(left),
                                            b3::hazmat::finalize_non_root(right),
                                            b3::hazmat::mode::hash()),
            b3::hash(input));
}

TEST_P(Blake3Subtree, OffsetZeroMayFinalize) {
  const auto input = vector_input(5000);
  b3::hasher h;
  b3::hazmat::set_input_offset(h, 0);
  h.update(input);
  EXPECT_EQ(h.finalize(), b3::hash(input));
}

// hazmat::mode::of gives the mode a hasher was made in, whatever it has absorbed since.
TEST(Blake3SubtreeMode, OfAHasherIsTheModeItWasMadeIn) {
  random_source rng(test_seed() + 71);
  for (int round = 0; round < 20; ++round) {
    tree_mode m = pick_tree_mode(rng);
    m.initial.update(vector_input(rng.below(3000)));
    const b3::hazmat::mode of = b3::hazmat::mode::of(m.initial);
    EXPECT_EQ(of.key_words(), m.mode.key_words());
    EXPECT_EQ(of.flags(), m.mode.flags());
  }
}

FASTBLAKE_INSTANTIATE_FOR_KERNELS(Blake3Subtree);

}  // namespace
}  // namespace fastblake::test
