// BLAKE3's hasher, output reader and subtree API (hazmat) over the tree (tree.hpp).
#include <bit>
#include <cstring>
#include <string>

#include <fastblake/blake3.hpp>
#include <fastblake/thread_pool.hpp>

#include "backend/backend.hpp"
#include "blake3/hasher_access.hpp"
#include "blake3/tree.hpp"

namespace fastblake::blake3 {

using hazmat::chaining_value;
using hazmat::mode;

namespace {

namespace k3 = fastblake::internal::blake3;
using namespace k3::tree;

std::array<std::uint8_t, k3::block_len> siblings(const chaining_value& left,
                                                 const chaining_value& right) noexcept {
  std::array<std::uint8_t, k3::block_len> block;
  std::memcpy(block.data(), left.data(), out_size);
  std::memcpy(block.data() + out_size, right.data(), out_size);
  return block;
}

}  // namespace

// ---- mode ----

mode hazmat::mode::hash() noexcept { return mode(std::to_array(k3::iv), 0); }

mode hazmat::mode::keyed(const key_type& key) noexcept {
  return mode(words_from_key(key.data()), k3::keyed_hash);
}

mode hazmat::mode::derive_key(std::string_view context) noexcept {
  return mode(context_key(context), k3::derive_key_material);
}

mode hazmat::mode::of(const hasher& h) noexcept { return detail::internal_access::mode_of(h); }

// ---- output_reader ----

void output_reader::fill(std::span<std::byte> out, thread_pool* pool) {
  root_output(k3::active_kernels(), root_, block_, offset_,
              reinterpret_cast<std::uint8_t*>(out.data()), out.size(), pool);
  const std::size_t end = offset_ + out.size() % k3::block_len;
  block_ += out.size() / k3::block_len + end / k3::block_len;
  offset_ = static_cast<std::uint8_t>(end % k3::block_len);
}

void output_reader::fill(std::span<std::byte> out) { fill(out, automatic_output_pool(out.size())); }

void output_reader::fill(std::span<std::byte> out, thread_pool& pool) { fill(out, &pool); }

// ---- hasher ----

hasher::hasher(const key_words& key, std::uint8_t flags) noexcept
    : key_words_(key), chunk_(make_chunk_state(key, 0, flags)) {}

hasher::hasher() noexcept : hasher(std::to_array(k3::iv), 0) {}

hasher hasher::keyed(const key_type& key) noexcept {
  return hasher(words_from_key(key.data()), k3::keyed_hash);
}

hasher hasher::derive_key(std::string_view context) noexcept {
  return hasher(context_key(context), k3::derive_key_material);
}

void hasher::reset() noexcept {
  chunk_ = make_chunk_state(key_words_, 0, chunk_.flags);
  initial_chunk_counter_ = 0;
  stack_len_ = 0;
}

std::uint64_t hasher::count() const noexcept {
  return (chunk_.chunk_counter - initial_chunk_counter_) * k3::chunk_len + absorbed(chunk_);
}

// The stack holds the chaining values of complete subtrees, largest first. After
// `chunks_done` chunks of this (sub)tree there is one per set bit of chunks_done; merging is
// lazy, only once more input proves that the top entries are not the root's children.
void hasher::merge_stack_to(std::uint64_t chunks_done) noexcept {
  const auto target = static_cast<std::size_t>(std::popcount(chunks_done));
  const k3::kernels& k = k3::active_kernels();
  while (stack_len_ > target) {
    std::uint8_t* children = stack_.data() + (stack_len_ - 2) * out_size;
    node_chaining_value(k, parent_output(children, key_words_, chunk_.flags), children);
    --stack_len_;
  }
}

void hasher::push_chaining_value(const std::uint8_t cv[out_size],
                                 std::uint64_t chunk_counter) noexcept {
  merge_stack_to(chunk_counter - initial_chunk_counter_);
  std::memcpy(stack_.data() + stack_len_ * out_size, cv, out_size);
  ++stack_len_;
}

hasher& hasher::update(std::span<const std::byte> input) { return update_with(input, nullptr); }

hasher& hasher::update_parallel(std::span<const std::byte> input) {
  thread_pool* pool = nullptr;
  try {
    pool = &thread_pool::default_pool();
  } catch (...) {
    // No threads to be had: hash on this one.
  }
  return update_with(input, pool);
}

hasher& hasher::update_parallel(std::span<const std::byte> input, thread_pool& pool) {
  return update_with(input, &pool);
}

hasher& hasher::update_with(std::span<const std::byte> input, thread_pool* pool, bool may_offload) {
  if (initial_chunk_counter_ != 0) {
    const std::uint64_t limit = *hazmat::max_subtree_len(initial_chunk_counter_ * k3::chunk_len);
    if (input.size() > limit - count()) {
      misuse("the subtree starting at byte " +
             std::to_string(initial_chunk_counter_ * k3::chunk_len) + " holds at most " +
             std::to_string(limit) + " bytes");
    }
  }
  const k3::kernels& k = k3::active_kernels();
  const auto* in = reinterpret_cast<const std::uint8_t*>(input.data());
  std::size_t n = input.size();

  if (absorbed(chunk_) > 0) {
    const std::size_t take = std::min(k3::chunk_len - absorbed(chunk_), n);
    chunk_update(k, chunk_, in, take);
    in += take;
    n -= take;
    if (n == 0) return *this;
    // The chunk is full and more input follows, so it is not the root.
    std::uint8_t cv[out_size];
    node_chaining_value(k, chunk_output(chunk_), cv);
    push_chaining_value(cv, chunk_.chunk_counter);
    chunk_ = make_chunk_state(key_words_, chunk_.chunk_counter + 1, chunk_.flags);
  }

  // Hash whole subtrees straight from the input while more than a chunk is left: each is the
  // largest power of two of chunks that fits and starts at a multiple of its own size, so it
  // is a node of the final tree. The last chunk always goes to the chunk state: it may be the
  // root.
  while (n > k3::chunk_len) {
    std::size_t subtree = std::bit_floor(n);
    const std::uint64_t done = chunk_.chunk_counter * k3::chunk_len;
    while ((done & (subtree - 1)) != 0) subtree /= 2;
    const std::uint64_t chunks = subtree / k3::chunk_len;
    if (chunks == 1) {
      std::uint8_t cv[out_size];
      k.hash_chunks(in, 1, key_words_.data(), chunk_.chunk_counter, chunk_.flags, cv);
      push_chaining_value(cv, chunk_.chunk_counter);
    } else {
      std::uint8_t children[block_size];
      hash_subtree_to_children(k, in, subtree, key_words_, chunk_.chunk_counter, chunk_.flags,
                               children, pool, may_offload);
      push_chaining_value(children, chunk_.chunk_counter);
      push_chaining_value(children + out_size, chunk_.chunk_counter + chunks / 2);
    }
    chunk_.chunk_counter += chunks;
    in += subtree;
    n -= subtree;
  }

  if (n > 0) {
    chunk_update(k, chunk_, in, n);
    merge_stack_to(chunk_.chunk_counter - initial_chunk_counter_);
  }
  return *this;
}

// The node that would be the root if no more input came: the current chunk (or the last two
// stacked values when the input ended on a subtree boundary) folded into every stacked
// subtree from the right.
detail::internal_access::subtree_place detail::internal_access::next_subtree(
    const hasher& h, std::uint64_t most) noexcept {
  if (absorbed(h.chunk_) != 0 || most < 2 * k3::chunk_len) return {0, 0};
  if (h.initial_chunk_counter_ != 0) {
    const std::uint64_t limit = *hazmat::max_subtree_len(h.initial_chunk_counter_ * k3::chunk_len);
    most = std::min(most, limit - h.count());
  }
  const std::uint64_t start = h.chunk_.chunk_counter * k3::chunk_len;
  std::uint64_t size = most < 2 * k3::chunk_len ? 0 : std::bit_floor(most);
  while (size >= 2 * k3::chunk_len && start % size != 0) size /= 2;
  if (size < 2 * k3::chunk_len) return {0, 0};
  return {size, start};
}

void detail::internal_access::push_subtree(hasher& h, const hazmat::chaining_value& left,
                                           const hazmat::chaining_value& right,
                                           std::uint64_t size) noexcept {
  const std::uint64_t chunks = size / k3::chunk_len;
  h.push_chaining_value(left.data(), h.chunk_.chunk_counter);
  h.push_chaining_value(right.data(), h.chunk_.chunk_counter + chunks / 2);
  h.chunk_ = make_chunk_state(h.key_words_, h.chunk_.chunk_counter + chunks, h.chunk_.flags);
}

output_node hasher::final_node() const noexcept {
  if (stack_len_ == 0) return chunk_output(chunk_);
  const k3::kernels& k = k3::active_kernels();
  std::size_t remaining = stack_len_;
  output_node node;
  if (absorbed(chunk_) > 0) {
    node = chunk_output(chunk_);
  } else {
    remaining -= 2;
    node = parent_output(stack_.data() + remaining * out_size, key_words_, chunk_.flags);
  }
  while (remaining > 0) {
    --remaining;
    std::uint8_t children[block_size];
    std::memcpy(children, stack_.data() + remaining * out_size, out_size);
    node_chaining_value(k, node, children + out_size);
    node = parent_output(children, key_words_, chunk_.flags);
  }
  return node;
}

void hasher::require_root(const char* what) const {
  if (initial_chunk_counter_ != 0) {
    misuse(std::string(what) +
           " after set_input_offset() with a non-zero offset: a subtree has no root hash; use "
           "finalize_non_root()");
  }
}

digest hasher::finalize() const {
  require_root("finalize()");
  return root_digest(k3::active_kernels(), final_node());
}

void hasher::finalize(std::span<std::byte> out) const {
  require_root("finalize()");
  root_output(k3::active_kernels(), final_node(), 0, 0, reinterpret_cast<std::uint8_t*>(out.data()),
              out.size(), automatic_output_pool(out.size()));
}

output_reader hasher::finalize_xof() const {
  require_root("finalize_xof()");
  return output_reader(final_node());
}

hasher& hazmat::set_input_offset(hasher& h, std::uint64_t offset) {
  if (h.count() != 0) misuse("set_input_offset() after the hasher has absorbed input");
  if (offset % k3::chunk_len != 0) {
    misuse("set_input_offset(" + std::to_string(offset) +
           "): a subtree starts at a multiple of the chunk size, 1024");
  }
  h.initial_chunk_counter_ = offset / k3::chunk_len;
  h.chunk_.chunk_counter = h.initial_chunk_counter_;
  h.stack_len_ = 0;
  return h;
}

chaining_value hazmat::finalize_non_root(const hasher& h) {
  if (h.count() == 0) misuse("finalize_non_root() of an empty subtree, which is never valid");
  chaining_value cv;
  node_chaining_value(k3::active_kernels(), h.final_node(), cv.data());
  return cv;
}

// ---- subtree merging ----

chaining_value hazmat::merge_subtrees_non_root(const chaining_value& left,
                                               const chaining_value& right,
                                               const mode& m) noexcept {
  chaining_value cv;
  node_chaining_value(k3::active_kernels(),
                      parent_output(siblings(left, right).data(), m.key_words_, m.flags_),
                      cv.data());
  return cv;
}

digest hazmat::merge_subtrees_root(const chaining_value& left, const chaining_value& right,
                                   const mode& m) noexcept {
  return root_digest(k3::active_kernels(),
                     parent_output(siblings(left, right).data(), m.key_words_, m.flags_));
}

output_reader hazmat::merge_subtrees_root_xof(const chaining_value& left,
                                              const chaining_value& right, const mode& m) noexcept {
  return output_reader(parent_output(siblings(left, right).data(), m.key_words_, m.flags_));
}

std::uint64_t hazmat::left_subtree_len(std::uint64_t input_len) {
  if (input_len <= chunk_size) {
    misuse("left_subtree_len(" + std::to_string(input_len) +
           "): an input of at most one chunk has no left subtree");
  }
  return left_len_unchecked(input_len);
}

std::optional<std::uint64_t> hazmat::max_subtree_len(std::uint64_t offset) {
  if (offset % chunk_size != 0) {
    misuse("max_subtree_len(" + std::to_string(offset) +
           "): a subtree starts at a multiple of the chunk size, 1024");
  }
  if (offset == 0) return std::nullopt;
  // A subtree starting at chunk c holds at most 2^(trailing zeros of c) chunks.
  return (offset / chunk_size & -(offset / chunk_size)) * chunk_size;
}

}  // namespace fastblake::blake3
