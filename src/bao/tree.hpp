// What Bao's encoder, decoder and slicer share: the tree's shape for a length and group size,
// and the chaining values of its leaves and parents, computed with the active kernels.
#pragma once

#include <array>
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
  /// Its size in an encoding: parents, and the input too where combined.
  std::uint64_t subtree_size(std::uint64_t len, bool outboard) const noexcept {
    return parents(len) * parent_size + (outboard ? 0 : len);
  }
};

/// The chaining value, or where is_root the root hash, of the leaf of len bytes at input
/// byte offset `offset` (a chunk, or a group of chunks hashed with the SIMD kernels).
cv_bytes leaf_cv(const std::byte* data, std::uint64_t len, std::uint64_t offset, bool is_root);

/// The same for a parent whose two children's chaining values are the 64 bytes at children.
cv_bytes parent_cv(const std::byte* children, bool is_root);

/// The input bytes [first, end) whose nodes a slice of [start, start + count) holds: a count of
/// 0 counts as 1, and a start at or past the end means the last byte (Bao's rules).
std::pair<std::uint64_t, std::uint64_t> slice_region(std::uint64_t content_len, std::uint64_t start,
                                                     std::uint64_t count) noexcept;

std::uint64_t read_header(const std::byte* header) noexcept;
void write_header(std::uint64_t content_len, std::byte* out) noexcept;

[[noreturn]] void fail(errc e, std::uint64_t offset);

}  // namespace fastblake::internal::bao
