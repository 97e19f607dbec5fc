// The BLAKE3 tree (tree.hpp): the root's output, on threads when large, and subtrees hashed
// down to their children, on threads or an accelerator.
#include "blake3/tree.hpp"

#include <chrono>
#include <stdexcept>

#include "backend/backend.hpp"
#include "blake3/hasher_access.hpp"
#include "blake3/offload.hpp"

namespace fastblake::internal::blake3::tree {

namespace {

// A subtree hashed in one go yields at most this many chaining values (see hash_subtree).
constexpr std::size_t max_subtree_cvs = std::max<std::size_t>(2, max_simd_degree);

// ---- output ----

// Writes n bytes of the root's extendable output from byte `position` on. Output block i is
// the root compressed with counter i; whole blocks go straight to out through xof_many.
// Output bytes from `skip` bytes into block number `block` on. Counting blocks, not bytes,
// lets the output run on past byte 2^64 - 1 as the official implementations' does.
void root_output_serial(const kernels& k, const output_node& node, std::uint64_t block,
                        std::size_t skip, std::uint8_t* out, std::size_t n) noexcept {
  const auto flags = static_cast<std::uint8_t>(node.flags | root);
  std::uint8_t bytes[block_len];
  if (skip != 0 && n > 0) {
    k.xof_many(node.input_cv.data(), node.block.data(), node.block_len, block, flags, bytes, 1);
    const std::size_t take = std::min(block_len - skip, n);
    std::memcpy(out, bytes + skip, take);
    out += take;
    n -= take;
    ++block;
  }
  if (const std::size_t whole = n / block_len; whole > 0) {
    k.xof_many(node.input_cv.data(), node.block.data(), node.block_len, block, flags, out, whole);
    out += whole * block_len;
    n -= whole * block_len;
    block += whole;
  }
  if (n > 0) {
    k.xof_many(node.input_cv.data(), node.block.data(), node.block_len, block, flags, bytes, 1);
    std::memcpy(out, bytes, n);
  }
}

// How small the pieces of n bytes of work get when split across `threads` threads: a couple
// of pieces per thread, so that a thread that finishes early finds more to take, but none
// smaller than min_parallel_piece, where a fork costs more than it saves, and none larger than
// max_parallel_piece, so that a thread slowed by another process on its core holds the others
// back by at most one such piece at the end (measured: docs/benchmarks.md, "Threads").
constexpr std::size_t min_parallel_piece = 16 * 1024;
constexpr std::size_t pieces_per_thread = 2;
constexpr std::size_t max_parallel_piece = 4 * 1024 * 1024;

std::size_t parallel_piece(std::size_t n, std::size_t threads) noexcept {
  return std::max(min_parallel_piece,
                  std::min(max_parallel_piece, n / (threads * pieces_per_thread)));
}

// root_output_serial, split in halves across the pool down to pieces of `piece` bytes.
void root_output_split(const kernels& k, const output_node& node, std::uint64_t block,
                       std::size_t skip, std::uint8_t* out, std::size_t n, thread_pool& pool,
                       std::size_t piece) noexcept {
  if (n <= piece) {
    root_output_serial(k, node, block, skip, out, n);
    return;
  }
  // Split at a block boundary so that neither half recomputes a shared block.
  const std::size_t left_blocks = (skip + n / 2) / block_len;
  const std::size_t left = left_blocks * block_len - skip;
  pool.join([&] { root_output_split(k, node, block, skip, out, left, pool, piece); },
            [&] {
              root_output_split(k, node, block + left_blocks, 0, out + left, n - left, pool, piece);
            });
}

// ---- subtrees ----

// Hashes pairs of chaining values into their parents. An odd one out moves up unchanged.
std::size_t merge_pairs(const kernels& k, const std::uint8_t* cvs, std::size_t n,
                        const key_words& key, std::uint8_t flags, std::uint8_t* out) noexcept {
  const std::size_t pairs = n / 2;
  k.hash_parents(cvs, pairs, key.data(), flags, out);
  if (n % 2 != 0) std::memcpy(out + pairs * out_len, cvs + (n - 1) * out_len, out_len);
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
std::size_t hash_subtree(const kernels& k, const std::uint8_t* input, std::size_t len,
                         const key_words& key, std::uint64_t counter, std::uint8_t flags,
                         std::uint8_t* out, thread_pool* pool, std::size_t piece) noexcept {
  if (len <= k.simd_degree * chunk_len) {
    const std::size_t whole = len / chunk_len;
    k.hash_chunks(input, whole, key.data(), counter, flags, out);
    if (const std::size_t rest = len % chunk_len; rest != 0) {
      chunk_state cs = make_chunk_state(key, counter + whole, flags);
      chunk_update(k, cs, input + whole * chunk_len, rest);
      node_chaining_value(k, chunk_output(cs), out + whole * out_len);
      return whole + 1;
    }
    return whole;
  }
  const auto left = static_cast<std::size_t>(left_len_unchecked(len));
  const std::uint64_t right_counter = counter + left / chunk_len;
  std::uint8_t row[2 * max_subtree_cvs * out_len];
  std::size_t left_n = 0;
  std::size_t right_n = 0;
  if (pool != nullptr && len > piece) {
    // The right row is written after the left one's slot of max_subtree_cvs values and moved
    // down once both are done.
    std::uint8_t* right_row = row + max_subtree_cvs * out_len;
    pool->join(
        [&] { left_n = hash_subtree(k, input, left, key, counter, flags, row, pool, piece); },
        [&] {
          right_n = hash_subtree(k, input + left, len - left, key, right_counter, flags, right_row,
                                 pool, piece);
        });
    std::memmove(row + left_n * out_len, right_row, right_n * out_len);
  } else {
    left_n = hash_subtree(k, input, left, key, counter, flags, row, nullptr, 0);
    right_n = hash_subtree(k, input + left, len - left, key, right_counter, flags,
                           row + left_n * out_len, nullptr, 0);
  }
  // A one-lane kernel returns a lone left chunk as one value: hand the pair up unmerged so
  // that the caller always has at least two.
  if (left_n == 1) {
    std::memcpy(out, row, 2 * out_len);
    return 2;
  }
  return merge_pairs(k, row, left_n + right_n, key, flags, out);
}

void hash_subtree_to_children_on_cpu(const kernels& k, const std::uint8_t* input, std::size_t len,
                                     const key_words& key, std::uint64_t counter,
                                     std::uint8_t flags, std::uint8_t children[block_len],
                                     thread_pool* pool) noexcept {
  std::uint8_t row[2][max_subtree_cvs * out_len];
  if (pool != nullptr && pool->size() == 1) pool = nullptr;
  const std::size_t piece = pool != nullptr ? parallel_piece(len, pool->size()) : 0;
  std::size_t n = hash_subtree(k, input, len, key, counter, flags, row[0], pool, piece);
  int current = 0;
  while (n > 2) {
    n = merge_pairs(k, row[current], n, key, flags, row[1 - current]);
    current = 1 - current;
  }
  std::memcpy(children, row[current], block_len);
}

}  // namespace

void root_output(const kernels& k, const output_node& node, std::uint64_t block, std::size_t skip,
                 std::uint8_t* out, std::size_t n, thread_pool* pool) noexcept {
  if (pool == nullptr || pool->size() == 1) {
    root_output_serial(k, node, block, skip, out, n);
  } else {
    root_output_split(k, node, block, skip, out, n, *pool, parallel_piece(n, pool->size()));
  }
}

void hash_subtree_to_children(const kernels& k, const std::uint8_t* input, std::size_t len,
                              const key_words& key, std::uint64_t counter, std::uint8_t flags,
                              std::uint8_t children[block_len], thread_pool* pool,
                              bool may_offload) noexcept {
  auto on_cpu = [&] {
    hash_subtree_to_children_on_cpu(k, input, len, key, counter, flags, children, pool);
  };
  if (may_offload && may_take(len)) {
    subtree_children(std::span(reinterpret_cast<const std::byte*>(input), len), counter,
                     fastblake::blake3::detail::internal_access::make_mode(key, flags),
                     std::span<std::uint8_t, block_len>(children, block_len), cpu_work(on_cpu));
  } else {
    on_cpu();
  }
}

// The root node of a whole input hashed in one go.
output_node one_shot_root(const kernels& k, std::span<const std::byte> input, const key_words& key,
                          std::uint8_t flags, thread_pool* pool, bool may_offload) noexcept {
  const auto* bytes = reinterpret_cast<const std::uint8_t*>(input.data());
  if (input.size() <= chunk_len) {
    chunk_state cs = make_chunk_state(key, 0, flags);
    chunk_update(k, cs, bytes, input.size());
    return chunk_output(cs);
  }
  std::uint8_t children[block_len];
  hash_subtree_to_children(k, bytes, input.size(), key, 0, flags, children, pool, may_offload);
  return parent_output(children, key, flags);
}

key_words context_key(std::string_view context) noexcept {
  const kernels& k = active_kernels();
  const digest d = root_digest(
      k, one_shot_root(k, std::as_bytes(std::span<const char>(context.data(), context.size())),
                       std::to_array(iv), derive_key_context, nullptr, false));
  return words_from_key(d.data());
}

[[noreturn]] void misuse(const std::string& message) {
  throw std::logic_error("fastblake::blake3: " + message);
}

}  // namespace fastblake::internal::blake3::tree
