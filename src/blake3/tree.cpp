// The BLAKE3 tree: chunk state, the chaining-value stack, subtrees and output.
//
// Everything here is independent of the instruction set: compression goes through the
// kernels struct (kernels.hpp), loaded once per call.
#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>

#include <fastblake/blake3.hpp>
#include <fastblake/thread_pool.hpp>

#include "backend/backend.hpp"
#include "blake3/kernels.hpp"
#include "blake3/offload.hpp"
#include "common/automatic_pool.hpp"
#include "common/endian.hpp"

namespace fastblake::blake3 {

using hazmat::chaining_value;
using hazmat::mode;

namespace {

namespace k3 = fastblake::internal::blake3;
using detail::chunk_state;
using detail::output_node;
using key_words = std::array<std::uint32_t, 8>;

static_assert(k3::chunk_len == chunk_size && k3::block_len == block_size);

// A subtree hashed in one go yields at most this many chaining values (see hash_subtree).
constexpr std::size_t max_subtree_cvs = std::max<std::size_t>(2, k3::max_simd_degree);

key_words words_from_key(const std::uint8_t* key) noexcept {
  key_words w;
  fastblake::internal::load_le32_words(key, w.data(), 8);
  return w;
}

// ---- chunk state ----

chunk_state make_chunk_state(const key_words& key, std::uint64_t counter,
                             std::uint8_t flags) noexcept {
  chunk_state cs;
  cs.cv = key;
  cs.chunk_counter = counter;
  cs.buf_len = 0;
  cs.blocks_compressed = 0;
  cs.flags = flags;
  return cs;
}

std::size_t absorbed(const chunk_state& cs) noexcept {
  return cs.blocks_compressed * k3::block_len + cs.buf_len;
}

std::uint8_t start_flag(const chunk_state& cs) noexcept {
  return cs.blocks_compressed == 0 ? k3::chunk_start : 0;
}

// Absorbs n bytes, n no more than the room left in the chunk. A full block stays buffered
// until more input arrives: if it is the chunk's last block it needs the CHUNK_END flag.
void chunk_update(const k3::kernels& k, chunk_state& cs, const std::uint8_t* in,
                  std::size_t n) noexcept {
  while (n > 0) {
    if (cs.buf_len == k3::block_len) {
      k.compress_in_place(cs.cv.data(), cs.buf.data(), k3::block_len, cs.chunk_counter,
                          cs.flags | start_flag(cs));
      ++cs.blocks_compressed;
      cs.buf_len = 0;
    }
    if (cs.buf_len == 0 && n > k3::block_len) {
      // Whole blocks straight from the input, all but the last byte's block.
      const std::size_t blocks = (n - 1) / k3::block_len;
      k.compress_blocks(cs.cv.data(), in, blocks, cs.chunk_counter,
                        static_cast<std::uint8_t>(cs.flags | start_flag(cs)), cs.flags);
      cs.blocks_compressed = static_cast<std::uint8_t>(cs.blocks_compressed + blocks);
      in += blocks * k3::block_len;
      n -= blocks * k3::block_len;
    }
    const std::size_t take = std::min(k3::block_len - cs.buf_len, n);
    std::memcpy(cs.buf.data() + cs.buf_len, in, take);
    cs.buf_len = static_cast<std::uint8_t>(cs.buf_len + take);
    in += take;
    n -= take;
  }
}

output_node chunk_output(const chunk_state& cs) noexcept {
  output_node node;
  node.input_cv = cs.cv;
  std::memcpy(node.block.data(), cs.buf.data(), cs.buf_len);
  std::memset(node.block.data() + cs.buf_len, 0, k3::block_len - cs.buf_len);
  node.counter = cs.chunk_counter;
  node.block_len = cs.buf_len;
  node.flags = static_cast<std::uint8_t>(cs.flags | start_flag(cs) | k3::chunk_end);
  return node;
}

// ---- nodes ----

output_node parent_output(const std::uint8_t children[k3::block_len], const key_words& key,
                          std::uint8_t flags) noexcept {
  output_node node;
  node.input_cv = key;
  std::memcpy(node.block.data(), children, k3::block_len);
  node.counter = 0;
  node.block_len = k3::block_len;
  node.flags = flags | k3::parent;
  return node;
}

void node_chaining_value(const k3::kernels& k, const output_node& node,
                         std::uint8_t out[k3::out_len]) noexcept {
  key_words cv = node.input_cv;
  k.compress_in_place(cv.data(), node.block.data(), node.block_len, node.counter, node.flags);
  fastblake::internal::store_le32_words(cv.data(), out, 8);
}

digest root_digest(const k3::kernels& k, const output_node& node) noexcept {
  digest::bytes_type bytes;
  key_words cv = node.input_cv;
  k.compress_in_place(cv.data(), node.block.data(), node.block_len, 0, node.flags | k3::root);
  fastblake::internal::store_le32_words(cv.data(), bytes.data(), 8);
  return digest(bytes);
}

// Writes n bytes of the root's extendable output from byte `position` on. Output block i is
// the root compressed with counter i; whole blocks go straight to out through xof_many.
// Output bytes from `skip` bytes into block number `block` on. Counting blocks, not bytes,
// lets the output run on past byte 2^64 - 1 as the official implementations' does.
void root_output_serial(const k3::kernels& k, const output_node& node, std::uint64_t block,
                        std::size_t skip, std::uint8_t* out, std::size_t n) noexcept {
  const auto flags = static_cast<std::uint8_t>(node.flags | k3::root);
  std::uint8_t bytes[k3::block_len];
  if (skip != 0 && n > 0) {
    k.xof_many(node.input_cv.data(), node.block.data(), node.block_len, block, flags, bytes, 1);
    const std::size_t take = std::min(k3::block_len - skip, n);
    std::memcpy(out, bytes + skip, take);
    out += take;
    n -= take;
    ++block;
  }
  if (const std::size_t whole = n / k3::block_len; whole > 0) {
    k.xof_many(node.input_cv.data(), node.block.data(), node.block_len, block, flags, out, whole);
    out += whole * k3::block_len;
    n -= whole * k3::block_len;
    block += whole;
  }
  if (n > 0) {
    k.xof_many(node.input_cv.data(), node.block.data(), node.block_len, block, flags, bytes, 1);
    std::memcpy(out, bytes, n);
  }
}

// How small the pieces of n bytes of work get when split across `threads` threads: a couple
// of pieces per thread, so that a thread that finishes early finds more to take, but none
// smaller than min_parallel_piece, where a fork costs more than it saves (measured:
// docs/benchmarks.md, "Threads").
constexpr std::size_t min_parallel_piece = 16 * 1024;
constexpr std::size_t pieces_per_thread = 2;

std::size_t parallel_piece(std::size_t n, std::size_t threads) noexcept {
  return std::max(min_parallel_piece, n / (threads * pieces_per_thread));
}

// root_output_serial, split in halves across the pool down to pieces of `piece` bytes.
void root_output_split(const k3::kernels& k, const output_node& node, std::uint64_t block,
                       std::size_t skip, std::uint8_t* out, std::size_t n, thread_pool& pool,
                       std::size_t piece) noexcept {
  if (n <= piece) {
    root_output_serial(k, node, block, skip, out, n);
    return;
  }
  // Split at a block boundary so that neither half recomputes a shared block.
  const std::size_t left_blocks = (skip + n / 2) / k3::block_len;
  const std::size_t left = left_blocks * k3::block_len - skip;
  pool.join([&] { root_output_split(k, node, block, skip, out, left, pool, piece); },
            [&] {
              root_output_split(k, node, block + left_blocks, 0, out + left, n - left, pool, piece);
            });
}

void root_output(const k3::kernels& k, const output_node& node, std::uint64_t block,
                 std::size_t skip, std::uint8_t* out, std::size_t n, thread_pool* pool) noexcept {
  if (pool == nullptr || pool->size() == 1) {
    root_output_serial(k, node, block, skip, out, n);
  } else {
    root_output_split(k, node, block, skip, out, n, *pool, parallel_piece(n, pool->size()));
  }
}

thread_pool* automatic_input_pool(std::size_t bytes) noexcept {
  return fastblake::internal::automatic_pool(bytes, auto_parallel_min_size);
}

thread_pool* automatic_output_pool(std::size_t bytes) noexcept {
  return fastblake::internal::automatic_pool(bytes, auto_parallel_output_min_size);
}

// ---- subtrees ----

std::uint64_t left_len_unchecked(std::uint64_t len) noexcept {
  // Whole chunks before the last byte; the left child takes the largest power of two of them.
  return std::bit_floor((len - 1) / k3::chunk_len) * k3::chunk_len;
}

// Hashes pairs of chaining values into their parents. An odd one out moves up unchanged.
std::size_t merge_pairs(const k3::kernels& k, const std::uint8_t* cvs, std::size_t n,
                        const key_words& key, std::uint8_t flags, std::uint8_t* out) noexcept {
  const std::size_t pairs = n / 2;
  k.hash_parents(cvs, pairs, key.data(), flags, out);
  if (n % 2 != 0) std::memcpy(out + pairs * k3::out_len, cvs + (n - 1) * k3::out_len, k3::out_len);
  return pairs + n % 2;
}

// Hashes a subtree of len > 0 bytes that starts at chunk `counter` down to a row of at most
// max_subtree_cvs chaining values, and returns how many it wrote to out.
//
// Up to simd_degree chunks go to the kernel at once. Above that, the two children are hashed
// recursively (at once on two threads when a pool is given and the subtree is large) and their
// rows merged one level: the left child is a complete power-of-two tree, so its row has an even
// count (or is a single chunk) and no pair straddles the two children. This keeps every kernel
// call at full width until the top of the subtree; the official implementation's
// compress_subtree_wide works the same way.
std::size_t hash_subtree(const k3::kernels& k, const std::uint8_t* input, std::size_t len,
                         const key_words& key, std::uint64_t counter, std::uint8_t flags,
                         std::uint8_t* out, thread_pool* pool, std::size_t piece) noexcept {
  if (len <= k.simd_degree * k3::chunk_len) {
    const std::size_t whole = len / k3::chunk_len;
    k.hash_chunks(input, whole, key.data(), counter, flags, out);
    if (const std::size_t rest = len % k3::chunk_len; rest != 0) {
      chunk_state cs = make_chunk_state(key, counter + whole, flags);
      chunk_update(k, cs, input + whole * k3::chunk_len, rest);
      node_chaining_value(k, chunk_output(cs), out + whole * k3::out_len);
      return whole + 1;
    }
    return whole;
  }
  const auto left = static_cast<std::size_t>(left_len_unchecked(len));
  const std::uint64_t right_counter = counter + left / k3::chunk_len;
  std::uint8_t row[2 * max_subtree_cvs * k3::out_len];
  std::size_t left_n = 0;
  std::size_t right_n = 0;
  if (pool != nullptr && len > piece) {
    // The right row is written after the left one's slot of max_subtree_cvs values and moved
    // down once both are done.
    std::uint8_t* right_row = row + max_subtree_cvs * k3::out_len;
    pool->join(
        [&] { left_n = hash_subtree(k, input, left, key, counter, flags, row, pool, piece); },
        [&] {
          right_n = hash_subtree(k, input + left, len - left, key, right_counter, flags, right_row,
                                 pool, piece);
        });
    std::memmove(row + left_n * k3::out_len, right_row, right_n * k3::out_len);
  } else {
    left_n = hash_subtree(k, input, left, key, counter, flags, row, nullptr, 0);
    right_n = hash_subtree(k, input + left, len - left, key, right_counter, flags,
                           row + left_n * k3::out_len, nullptr, 0);
  }
  // A one-lane kernel returns a lone left chunk as one value: hand the pair up unmerged so
  // that the caller always has at least two.
  if (left_n == 1) {
    std::memcpy(out, row, 2 * k3::out_len);
    return 2;
  }
  return merge_pairs(k, row, left_n + right_n, key, flags, out);
}

void hash_subtree_to_children_on_cpu(const k3::kernels& k, const std::uint8_t* input,
                                     std::size_t len, const key_words& key, std::uint64_t counter,
                                     std::uint8_t flags, std::uint8_t children[k3::block_len],
                                     thread_pool* pool) noexcept {
  std::uint8_t row[2][max_subtree_cvs * k3::out_len];
  if (pool != nullptr && pool->size() == 1) pool = nullptr;
  const std::size_t piece = pool != nullptr ? parallel_piece(len, pool->size()) : 0;
  std::size_t n = hash_subtree(k, input, len, key, counter, flags, row[0], pool, piece);
  int current = 0;
  while (n > 2) {
    n = merge_pairs(k, row[current], n, key, flags, row[1 - current]);
    current = 1 - current;
  }
  std::memcpy(children, row[current], k3::block_len);
}

// Hashes a subtree of more than one chunk down to the two chaining values of its top node:
// on an accelerator, when the caller is an automatic function and offload.hpp's policy says
// so, else on this CPU.
void hash_subtree_to_children(const k3::kernels& k, const std::uint8_t* input, std::size_t len,
                              const key_words& key, std::uint64_t counter, std::uint8_t flags,
                              std::uint8_t children[k3::block_len], thread_pool* pool,
                              bool may_offload) noexcept {
  if (may_offload && k3::may_take(len)) {
    const k3::offload_attempt attempt =
        k3::try_offload(reinterpret_cast<const std::byte*>(input), len, counter,
                        detail::internal_access::make_mode(key, flags), children);
    if (attempt.done) return;
    if (attempt.measure) {
      const auto start = std::chrono::steady_clock::now();
      hash_subtree_to_children_on_cpu(k, input, len, key, counter, flags, children, pool);
      k3::record_cpu(
          len, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
      return;
    }
  }
  hash_subtree_to_children_on_cpu(k, input, len, key, counter, flags, children, pool);
}

// The root node of a whole input hashed in one go.
output_node one_shot_root(const k3::kernels& k, std::span<const std::byte> input,
                          const key_words& key, std::uint8_t flags, thread_pool* pool,
                          bool may_offload) noexcept {
  const auto* bytes = reinterpret_cast<const std::uint8_t*>(input.data());
  if (input.size() <= k3::chunk_len) {
    chunk_state cs = make_chunk_state(key, 0, flags);
    chunk_update(k, cs, bytes, input.size());
    return chunk_output(cs);
  }
  std::uint8_t children[k3::block_len];
  hash_subtree_to_children(k, bytes, input.size(), key, 0, flags, children, pool, may_offload);
  return parent_output(children, key, flags);
}

key_words context_key(std::string_view context) noexcept {
  const k3::kernels& k = k3::active_kernels();
  const digest d = root_digest(
      k, one_shot_root(k, std::as_bytes(std::span<const char>(context.data(), context.size())),
                       std::to_array(k3::iv), k3::derive_key_context, nullptr, false));
  return words_from_key(d.data());
}

std::array<std::uint8_t, k3::block_len> siblings(const chaining_value& left,
                                                 const chaining_value& right) noexcept {
  std::array<std::uint8_t, k3::block_len> block;
  std::memcpy(block.data(), left.data(), out_size);
  std::memcpy(block.data() + out_size, right.data(), out_size);
  return block;
}

[[noreturn]] void misuse(const std::string& message) {
  throw std::logic_error("fastblake::blake3: " + message);
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

// ---- one-shot functions ----

namespace {

// The automatic functions (no pool named) choose threads, and may offload, by size.
struct automatic_t {};
constexpr automatic_t automatic;

// The digest of one chunk or less straight from the input: its whole blocks but the last in
// one compress_blocks call, the last one padded and compressed as the root. No chunk state, no
// copies but the last block's: at 64 B this is most of the time a hash takes besides the
// compression. The kernels' hash_roots does the same for one input, but through its dispatch
// over vector widths: 64 B took 0.71 GB/s that way against 0.95 here (avx512, Intel Xeon).
digest small_digest(const k3::kernels& k, std::span<const std::byte> input, const key_words& key,
                    std::uint8_t flags) noexcept {
  const auto* bytes = reinterpret_cast<const std::uint8_t*>(input.data());
  const std::size_t full = input.empty() ? 0 : (input.size() - 1) / k3::block_len;
  key_words cv = key;
  k.compress_blocks(cv.data(), bytes, full, 0, static_cast<std::uint8_t>(flags | k3::chunk_start),
                    flags);
  std::uint8_t last[k3::block_len] = {};
  const std::size_t rest = input.size() - full * k3::block_len;
  if (rest != 0) std::memcpy(last, bytes + full * k3::block_len, rest);
  k.compress_in_place(cv.data(), last, static_cast<std::uint8_t>(rest), 0,
                      static_cast<std::uint8_t>(flags | (full == 0 ? k3::chunk_start : 0) |
                                                k3::chunk_end | k3::root));
  digest::bytes_type out;
  fastblake::internal::store_le32_words(cv.data(), out.data(), 8);
  return digest(out);
}

digest one_shot(std::span<const std::byte> input, const key_words& key, std::uint8_t flags,
                thread_pool* pool) noexcept {
  const k3::kernels& k = k3::active_kernels();
  if (input.size() <= k3::chunk_len) return small_digest(k, input, key, flags);
  return root_digest(k, one_shot_root(k, input, key, flags, pool, false));
}

digest one_shot(std::span<const std::byte> input, const key_words& key, std::uint8_t flags,
                automatic_t) noexcept {
  const k3::kernels& k = k3::active_kernels();
  if (input.size() <= k3::chunk_len) return small_digest(k, input, key, flags);
  return root_digest(k,
                     one_shot_root(k, input, key, flags, automatic_input_pool(input.size()), true));
}

}  // namespace

digest hash(std::span<const std::byte> input) noexcept {
  return one_shot(input, std::to_array(k3::iv), 0, automatic);
}

digest hash_serial(std::span<const std::byte> input) noexcept {
  return one_shot(input, std::to_array(k3::iv), 0, nullptr);
}

digest hash_parallel(std::span<const std::byte> input, thread_pool& pool) noexcept {
  return one_shot(input, std::to_array(k3::iv), 0, &pool);
}

digest keyed_hash(const key_type& key, std::span<const std::byte> input) noexcept {
  return one_shot(input, words_from_key(key.data()), k3::keyed_hash, automatic);
}

digest keyed_hash_serial(const key_type& key, std::span<const std::byte> input) noexcept {
  return one_shot(input, words_from_key(key.data()), k3::keyed_hash, nullptr);
}

digest keyed_hash_parallel(const key_type& key, std::span<const std::byte> input,
                           thread_pool& pool) noexcept {
  return one_shot(input, words_from_key(key.data()), k3::keyed_hash, &pool);
}

digest derive_key(std::string_view context, std::span<const std::byte> material) noexcept {
  return one_shot(material, context_key(context), k3::derive_key_material, automatic);
}

digest derive_key_serial(std::string_view context, std::span<const std::byte> material) noexcept {
  return one_shot(material, context_key(context), k3::derive_key_material, nullptr);
}

digest derive_key_parallel(std::string_view context, std::span<const std::byte> material,
                           thread_pool& pool) noexcept {
  return one_shot(material, context_key(context), k3::derive_key_material, &pool);
}

void derive_key(std::string_view context, std::span<const std::byte> material,
                std::span<std::byte> out) noexcept {
  const k3::kernels& k = k3::active_kernels();
  const output_node root = one_shot_root(k, material, context_key(context), k3::derive_key_material,
                                         automatic_input_pool(material.size()), true);
  root_output(k, root, 0, 0, reinterpret_cast<std::uint8_t*>(out.data()), out.size(),
              automatic_output_pool(out.size()));
}

// ---- many independent inputs ----

namespace {

// Hashes inputs in windows of a bounded size (no allocation). In each window the inputs of at
// most one chunk are ordered by block count, a counting sort over 0..16 blocks, so that each
// SIMD group of hash_roots runs about as long as its own inputs; larger inputs go one by one.
// hash_many_in_mode writes a window's digests into outputs as bytes.
static_assert(sizeof(digest) == out_size && std::is_trivially_copyable_v<digest>);

void hash_many_in_mode(std::span<const std::span<const std::byte>> inputs,
                       std::span<digest> outputs, const key_words& key, std::uint8_t flags) {
  if (inputs.size() != outputs.size()) {
    throw std::invalid_argument("fastblake::blake3::hash_many: " + std::to_string(inputs.size()) +
                                " inputs but " + std::to_string(outputs.size()) + " outputs");
  }
  const k3::kernels& k = k3::active_kernels();
  constexpr std::size_t window = 256;
  constexpr std::size_t buckets = k3::blocks_per_chunk + 1;
  for (std::size_t start = 0; start < inputs.size(); start += window) {
    const std::size_t end = std::min(inputs.size(), start + window);
    // A window whose inputs all have one block count (a batch of equal sizes) needs no sort:
    // the digests go straight to outputs, in order.
    const std::size_t blocks_of_first = (inputs[start].size() + k3::block_len - 1) / k3::block_len;
    bool uniform = inputs[start].size() <= k3::chunk_len;
    for (std::size_t i = start + 1; uniform && i < end; ++i) {
      uniform = (inputs[i].size() + k3::block_len - 1) / k3::block_len == blocks_of_first;
    }
    if (uniform) {
      const std::uint8_t* pointers[window];
      std::size_t lengths[window];
      for (std::size_t i = start; i < end; ++i) {
        pointers[i - start] = reinterpret_cast<const std::uint8_t*>(inputs[i].data());
        lengths[i - start] = inputs[i].size();
      }
      k.hash_roots(pointers, lengths, end - start, key.data(), flags,
                   reinterpret_cast<std::uint8_t*>(outputs.data() + start));
      continue;
    }
    std::size_t first[buckets + 1] = {};
    for (std::size_t i = start; i < end; ++i) {
      const std::size_t len = inputs[i].size();
      if (len <= k3::chunk_len) {
        ++first[(len + k3::block_len - 1) / k3::block_len + 1];
      } else {
        outputs[i] = root_digest(k, one_shot_root(k, inputs[i], key, flags, nullptr, false));
      }
    }
    for (std::size_t b = 1; b <= buckets; ++b) first[b] += first[b - 1];
    const std::size_t small = first[buckets];
    const std::uint8_t* pointers[window];
    std::size_t lengths[window];
    std::uint16_t index[window];
    for (std::size_t i = start; i < end; ++i) {
      const std::size_t len = inputs[i].size();
      if (len > k3::chunk_len) continue;
      const std::size_t slot = first[(len + k3::block_len - 1) / k3::block_len]++;
      pointers[slot] = reinterpret_cast<const std::uint8_t*>(inputs[i].data());
      lengths[slot] = len;
      index[slot] = static_cast<std::uint16_t>(i - start);
    }
    std::uint8_t digests[window][out_size];
    k.hash_roots(pointers, lengths, small, key.data(), flags, &digests[0][0]);
    for (std::size_t slot = 0; slot < small; ++slot) {
      digest::bytes_type bytes;
      std::memcpy(bytes.data(), digests[slot], out_size);
      outputs[start + index[slot]] = digest(bytes);
    }
  }
}

}  // namespace

void hash_many(std::span<const std::span<const std::byte>> inputs, std::span<digest> outputs) {
  hash_many_in_mode(inputs, outputs, std::to_array(k3::iv), 0);
}

void keyed_hash_many(const key_type& key, std::span<const std::span<const std::byte>> inputs,
                     std::span<digest> outputs) {
  hash_many_in_mode(inputs, outputs, words_from_key(key.data()), k3::keyed_hash);
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
