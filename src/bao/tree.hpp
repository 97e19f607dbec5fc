// What Bao's encoder, decoder and slicer share: the tree's shape for a length and group size,
// and the chaining values of its leaves and parents, computed with the active kernels.
#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <utility>

#include <fastblake/bao.hpp>

#include "backend/backend.hpp"
#include "blake3/tree.hpp"

namespace fastblake::internal::bao {

namespace k3 = fastblake::internal::blake3;
using fastblake::bao::errc;
using fastblake::bao::header_size;
using fastblake::bao::parent_size;
using cv_bytes = std::array<std::uint8_t, k3::out_len>;

/// The tree of content_len bytes with leaves of 2^group_log chunks.
struct geometry {
  std::uint64_t content_len;
  std::uint64_t group_len;

  geometry(std::uint64_t content, unsigned group_log);

  bool is_leaf(std::uint64_t len) const noexcept { return len <= group_len; }
  /// Bytes in the left child of a subtree of len > group_len bytes.
  static std::uint64_t left_len(std::uint64_t len) noexcept {
    return k3::tree::left_len_unchecked(len);
  }
  /// The parents of a subtree of len bytes: one fewer than its leaves.
  std::uint64_t parents(std::uint64_t len) const noexcept {
    return is_leaf(len) ? 0 : (len - 1) / group_len;
  }
  /// Its size in an encoding: parents, and the input too where combined. Saturated at
  /// 2^64 - 1 where larger (a combined encoding of nearly 2^64 bytes, as a hostile header may
  /// claim): no bytes that many can be given, so the size is never held. (The parents alone
  /// are below 2^60 bytes.)
  std::uint64_t subtree_size(std::uint64_t len, bool outboard) const noexcept {
    const std::uint64_t tree = parents(len) * parent_size;
    if (outboard) return tree;
    return len > ~std::uint64_t{0} - tree ? ~std::uint64_t{0} : tree + len;
  }
};

/// Where a subtree's parent and its two children go in an encoding that puts the subtree at
/// `at`: pre-order (Bao's: the parent, then the children) or post-order (bao-tree's outboards:
/// the children, then the parent, so that finished subtrees never move as the input grows).
struct node_places {
  std::uint64_t parent, left, right;

  node_places(const geometry& g, std::uint64_t len, std::uint64_t at, bool outboard,
              bool post_order) noexcept {
    const std::uint64_t left_size = g.subtree_size(geometry::left_len(len), outboard);
    if (post_order) {
      left = at;
      right = at + left_size;
      parent = right + g.subtree_size(len - geometry::left_len(len), outboard);
    } else {
      parent = at;
      left = at + parent_size;
      right = left + left_size;
    }
  }
};

/// Every node's chaining value in a subtree of at most max_chunks chunks, level by level, hashed
/// with the SIMD kernels as hash() hashes: level 0 holds the chunks', level j those of the
/// subtrees of 2^j chunks (an odd last one moves up as it is). So the nodes of a Bao tree over
/// the subtree, whatever its group size, are looked up instead of hashed one by one.
class subtree_levels {
 public:
  static constexpr std::size_t max_chunks = 256;
  static constexpr std::uint64_t max_len = max_chunks * k3::chunk_len;

  /// Hashes the len bytes (0 < len <= max_len) at data, input bytes [offset, offset + len).
  void hash(const std::byte* data, std::uint64_t len, std::uint64_t offset) noexcept;

  /// The chaining value of the node over the subtree's chunks [first, first + count).
  const std::uint8_t* cv(std::uint64_t first, std::uint64_t count) const noexcept {
    const auto level = static_cast<std::size_t>(count <= 1 ? 0 : std::bit_width(count - 1));
    return storage_.data() + level_at_[level] + (first >> level) * k3::out_len;
  }

 private:
  // Level j starts at byte level_at_[j]; the levels together hold fewer than 2 * max_chunks.
  std::array<std::uint8_t, 2 * max_chunks * k3::out_len> storage_;
  std::array<std::size_t, 10> level_at_{};
};

/// Chunks in len bytes, a partial last one counted: the span of a node in subtree_levels.
inline std::uint64_t chunks_in(std::uint64_t len) noexcept {
  return len == 0 ? 1 : (len + k3::chunk_len - 1) / k3::chunk_len;
}

/// Plain hashing's key: the IV.
const k3::tree::key_words& plain_key() noexcept;

/// The chaining value, or where is_root the root hash, of the leaf of len bytes at input
/// byte offset `offset` (a chunk, or a group of chunks hashed with the SIMD kernels).
cv_bytes leaf_cv(const std::byte* data, std::uint64_t len, std::uint64_t offset, bool is_root);

/// The same for a parent whose two children's chaining values are the 64 bytes at children.
cv_bytes parent_cv(const std::byte* children, bool is_root);

/// The input bytes [first, end) whose nodes a slice of [start, start + count) holds: a count of
/// 0 counts as 1, and a start at or past the end means the last byte (Bao's rules).
std::pair<std::uint64_t, std::uint64_t> slice_region(std::uint64_t content_len, std::uint64_t start,
                                                     std::uint64_t count) noexcept;

/// Output from this size on is written with stores that go around the caches.
inline constexpr std::uint64_t around_cache_from = std::uint64_t{32} << 20;

/// Copies n bytes to `to` with non-temporal stores where the processor has them (x86-64: the
/// whole cache lines; the ends as memcpy), else as memcpy; then fences them.
void copy_around_cache(std::byte* to, const std::byte* from, std::size_t n) noexcept;

std::uint64_t read_header(const std::byte* header) noexcept;
void write_header(std::uint64_t content_len, std::byte* out) noexcept;

[[noreturn]] void fail(errc e, std::uint64_t offset);

}  // namespace fastblake::internal::bao
