// What BLAKE3's tree, hasher and one-shot functions share (tree.cpp, hasher.cpp, one_shot.cpp):
// the chunk state, nodes, output, and subtrees hashed down to their children.
//
// Everything here is independent of the instruction set: compression goes through the
// kernels struct (kernels.hpp), loaded once per call. The small pieces are inline: the hasher
// and the one-shot functions call them on every chunk.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>

#include <fastblake/blake3.hpp>
#include <fastblake/thread_pool.hpp>

#include "common/automatic_pool.hpp"
#include "common/endian.hpp"
#include "kernels/blake3/kernels.hpp"

namespace fastblake::internal::blake3::tree {

using fastblake::blake3::digest;
using fastblake::blake3::detail::chunk_state;
using fastblake::blake3::detail::output_node;
using key_words = std::array<std::uint32_t, 8>;

static_assert(chunk_len == fastblake::blake3::chunk_size &&
              block_len == fastblake::blake3::block_size);

inline key_words words_from_key(const std::uint8_t* key) noexcept {
  key_words w;
  load_le32_words(key, w.data(), 8);
  return w;
}

// ---- chunk state ----

inline chunk_state make_chunk_state(const key_words& key, std::uint64_t counter,
                                    std::uint8_t flags) noexcept {
  chunk_state cs;
  cs.cv = key;
  cs.chunk_counter = counter;
  cs.buf_len = 0;
  cs.blocks_compressed = 0;
  cs.flags = flags;
  return cs;
}

inline std::size_t absorbed(const chunk_state& cs) noexcept {
  return cs.blocks_compressed * block_len + cs.buf_len;
}

inline std::uint8_t start_flag(const chunk_state& cs) noexcept {
  return cs.blocks_compressed == 0 ? chunk_start : 0;
}

// Absorbs n bytes, n no more than the room left in the chunk. A full block stays buffered
// until more input arrives: if it is the chunk's last block it needs the CHUNK_END flag.
inline void chunk_update(const kernels& k, chunk_state& cs, const std::uint8_t* in,
                         std::size_t n) noexcept {
  while (n > 0) {
    if (cs.buf_len == block_len) {
      k.compress_in_place(cs.cv.data(), cs.buf.data(), block_len, cs.chunk_counter,
                          cs.flags | start_flag(cs));
      ++cs.blocks_compressed;
      cs.buf_len = 0;
    }
    if (cs.buf_len == 0 && n > block_len) {
      // Whole blocks straight from the input, all but the last byte's block.
      const std::size_t blocks = (n - 1) / block_len;
      k.compress_blocks(cs.cv.data(), in, blocks, cs.chunk_counter,
                        static_cast<std::uint8_t>(cs.flags | start_flag(cs)), cs.flags);
      cs.blocks_compressed = static_cast<std::uint8_t>(cs.blocks_compressed + blocks);
      in += blocks * block_len;
      n -= blocks * block_len;
    }
    const std::size_t take = std::min(block_len - cs.buf_len, n);
    std::memcpy(cs.buf.data() + cs.buf_len, in, take);
    cs.buf_len = static_cast<std::uint8_t>(cs.buf_len + take);
    in += take;
    n -= take;
  }
}

inline output_node chunk_output(const chunk_state& cs) noexcept {
  output_node node;
  node.input_cv = cs.cv;
  std::memcpy(node.block.data(), cs.buf.data(), cs.buf_len);
  std::memset(node.block.data() + cs.buf_len, 0, block_len - cs.buf_len);
  node.counter = cs.chunk_counter;
  node.block_len = cs.buf_len;
  node.flags = static_cast<std::uint8_t>(cs.flags | start_flag(cs) | chunk_end);
  return node;
}

// ---- nodes ----

inline output_node parent_output(const std::uint8_t children[block_len], const key_words& key,
                                 std::uint8_t flags) noexcept {
  output_node node;
  node.input_cv = key;
  std::memcpy(node.block.data(), children, block_len);
  node.counter = 0;
  node.block_len = block_len;
  node.flags = flags | parent;
  return node;
}

inline void node_chaining_value(const kernels& k, const output_node& node,
                                std::uint8_t out[out_len]) noexcept {
  key_words cv = node.input_cv;
  k.compress_in_place(cv.data(), node.block.data(), node.block_len, node.counter, node.flags);
  store_le32_words(cv.data(), out, 8);
}

inline digest root_digest(const kernels& k, const output_node& node) noexcept {
  digest::bytes_type bytes;
  key_words cv = node.input_cv;
  k.compress_in_place(cv.data(), node.block.data(), node.block_len, 0, node.flags | root);
  store_le32_words(cv.data(), bytes.data(), 8);
  return digest(bytes);
}

inline thread_pool* automatic_input_pool(std::size_t bytes) noexcept {
  return automatic_pool(bytes, fastblake::blake3::auto_parallel_min_size);
}

inline thread_pool* automatic_output_pool(std::size_t bytes) noexcept {
  return automatic_pool(bytes, fastblake::blake3::auto_parallel_output_min_size);
}

inline std::uint64_t left_len_unchecked(std::uint64_t len) noexcept {
  // Whole chunks before the last byte; the left child takes the largest power of two of them.
  return std::bit_floor((len - 1) / chunk_len) * chunk_len;
}

// Writes n bytes of the root's extendable output, from `skip` bytes into output block `block`
// on; on the pool's threads when one of more than one thread is given.
void root_output(const kernels& k, const output_node& node, std::uint64_t block, std::size_t skip,
                 std::uint8_t* out, std::size_t n, thread_pool* pool) noexcept;

// Hashes a subtree of more than one chunk down to the two chaining values of its top node:
// on an accelerator, when the caller is an automatic function (may_offload) and offload.hpp's
// policy says so, else on this CPU (on the pool's threads, when one is given).
void hash_subtree_to_children(const kernels& k, const std::uint8_t* input, std::size_t len,
                              const key_words& key, std::uint64_t counter, std::uint8_t flags,
                              std::uint8_t children[block_len], thread_pool* pool,
                              bool may_offload) noexcept;

// The root node of a whole input hashed in one go.
output_node one_shot_root(const kernels& k, std::span<const std::byte> input, const key_words& key,
                          std::uint8_t flags, thread_pool* pool, bool may_offload) noexcept;

// The key of derive_key's context.
key_words context_key(std::string_view context) noexcept;

// Refuses a misuse of the hasher or the subtree API (std::logic_error).
[[noreturn]] void misuse(const std::string& message);

}  // namespace fastblake::internal::blake3::tree
