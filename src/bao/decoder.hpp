// The decoder of Bao's tree in memory (whole encodings, slices, and the reader's subtrees):
// every node is checked against the chaining value its parent gave for it (the root against
// the hash) before anything under it is used.
#pragma once

#include <algorithm>
#include <vector>

#include <fastblake/thread_pool.hpp>

#include "bao/tree.hpp"

namespace fastblake::internal::bao {

// Where a decoder puts the bytes it hands out: the end of a vector, or a buffer the caller sized
// (the parallel decoder's part of its output).
class sink {
 public:
  sink(std::vector<std::byte>& v) : vector_(&v) {}  // NOLINT: a vector is a sink
  /// around_cache: the bytes go around the caches (copy_around_cache), for an output that
  /// outgrows them.
  explicit sink(std::byte* to, bool around_cache = false) : to_(to), around_cache_(around_cache) {}

  void append(const std::byte* p, std::size_t n) {
    if (vector_ != nullptr) {
      vector_->insert(vector_->end(), p, p + n);
    } else {
      if (around_cache_) {
        copy_around_cache(to_ + written_, p, n);
      } else {
        std::copy_n(p, n, to_ + written_);
      }
      written_ += n;
    }
  }
  /// Whether bytes put at the end by extend() are written once, and stay in the cache.
  bool extends_in_cache() const { return vector_ == nullptr && !around_cache_; }
  // n more bytes at the end, for the caller to fill.
  std::byte* extend(std::size_t n) {
    if (vector_ == nullptr) {
      written_ += n;
      return to_ + (written_ - n);
    }
    const std::size_t at = vector_->size();
    vector_->resize(at + n);
    return vector_->data() + at;
  }

 private:
  std::vector<std::byte>* vector_ = nullptr;
  std::byte* to_ = nullptr;
  std::size_t written_ = 0;
  bool around_cache_ = false;
};

// Reads nodes in pre-order from a combined encoding or a slice (tree), or parents from an
// outboard encoding and chunks from its input (data), and appends the input bytes of
// [want_from, want_to) to out. Subtrees wholly outside [start, end) are not visited; in a
// combined encoding or outboard they are skipped over, a slice leaves them out.
// The spans may hold a part only: tree_base and data_base are the offsets, in the encoding and
// in the input, of their first bytes (the reader decodes one subtree at a time).
class decoder {
 public:
  struct source {
    std::span<const std::byte> tree;
    std::span<const std::byte> data;  // outboard: the input; else empty
    bool outboard = false;
    bool slice = false;
    std::uint64_t tree_base = 0;
    std::uint64_t data_base = 0;
  };

  /// batches: check subtrees of up to 256 chunks at once (else node by node, which appends
  /// every checked leaf before a failure to out, as Bao's own decoder hands them out).
  decoder(const source& src, const geometry& g, std::uint64_t start, std::uint64_t end,
          std::uint64_t want_from, std::uint64_t want_to, sink out, bool batches = true)
      : src_(src),
        g_(g),
        start_(start),
        end_(end),
        want_from_(want_from),
        want_to_(want_to),
        out_(out),
        batches_(batches) {}

  void run(const fastblake::blake3::digest& hash) {
    cv_bytes root;
    std::copy_n(hash.data(), root.size(), root.begin());
    subtree(0, g_.content_len, root, true);
  }

  /// Wanted subtrees the bytes given hold whole, larger than two batches, checked on the
  /// pool's threads (decode_on_pool) from now on: for large slices.
  void use_pool(fastblake::thread_pool& pool) noexcept { pool_ = &pool; }

  /// The subtree of len input bytes at offset, whose nodes start at byte `at` of the encoding.
  void run_subtree(std::uint64_t offset, std::uint64_t len, std::uint64_t at,
                   const cv_bytes& expected, bool is_root) {
    at_ = at;
    subtree(offset, len, expected, is_root);
  }

 private:
  void subtree(std::uint64_t offset, std::uint64_t len, const cv_bytes& expected, bool is_root) {
    if (!is_root && (offset + len <= start_ || offset >= end_)) {
      if (!src_.slice) at_ += g_.subtree_size(len, src_.outboard);
      return;
    }
    if (batches_ && !is_root && !g_.is_leaf(len) && len <= subtree_levels::max_len &&
        offset >= want_from_ && offset + len <= want_to_ && whole_subtree(offset, len, expected)) {
      return;
    }
    if (pool_ != nullptr && !is_root && len > 2 * subtree_levels::max_len && offset >= want_from_ &&
        offset + len <= want_to_ && on_pool(offset, len, expected)) {
      return;
    }
    if (g_.is_leaf(len)) {
      const std::uint64_t node_at = src_.outboard ? offset : at_;
      const std::byte* leaf = src_.outboard ? read(src_.data, src_.data_base, offset, len)
                                            : read(src_.tree, src_.tree_base, at_, len);
      if (!src_.outboard) at_ += len;
      if (leaf_cv(leaf, len, offset, is_root) != expected) fail(errc::hash_mismatch, node_at);
      const std::uint64_t from = std::max(offset, want_from_);
      const std::uint64_t to = std::min(offset + len, want_to_);
      if (from < to) out_.append(leaf + (from - offset), static_cast<std::size_t>(to - from));
      return;
    }
    const std::uint64_t node_at = at_;
    const std::byte* parent = read(src_.tree, src_.tree_base, at_, parent_size);
    at_ += parent_size;
    if (parent_cv(parent, is_root) != expected) fail(errc::hash_mismatch, node_at);
    cv_bytes left_cv, right_cv;
    std::memcpy(left_cv.data(), parent, left_cv.size());
    std::memcpy(right_cv.data(), parent + left_cv.size(), right_cv.size());
    const std::uint64_t left = geometry::left_len(len);
    subtree(offset, left, left_cv, false);
    subtree(offset + left, len - left, right_cv, false);
  }

  // A wanted subtree on the pool's threads (decode.cpp); false, having read nothing, where
  // the bytes end inside it.
  bool on_pool(std::uint64_t offset, std::uint64_t len, const cv_bytes& expected);

  // A subtree of at most subtree_levels::max_len bytes, all of them wanted, checked at once:
  // its leaves hashed on the SIMD kernels, every node above them too (subtree_levels), then
  // compared top-down in pre-order, as subtree() compares them one by one, so that a failure
  // names the same node. False, having read nothing, where the bytes end inside it: subtree()
  // then names the place.
  bool whole_subtree(std::uint64_t offset, std::uint64_t len, const cv_bytes& expected) {
    const std::uint64_t size = g_.subtree_size(len, src_.outboard);
    if (!holds(src_.tree, src_.tree_base, at_, size)) return false;
    if (src_.outboard && !holds(src_.data, src_.data_base, offset, len)) return false;
    // The leaves of a combined encoding or slice go after out's end and are hashed there, in
    // the cache, so written with ordinary stores whatever out is (staging them in a row of
    // their own to stream them out cost more than it saved: docs/bao.md). An outboard's input
    // is copied out first where out keeps it in the cache, and hashed there too (1 MiB, one
    // thread: 0.80x hash() against 0.77x hashing it, then copying it).
    const bool copy_first = src_.outboard && out_.extends_in_cache();
    parents_.clear();
    const std::byte* leaves = nullptr;
    if (src_.outboard) {
      gather(0, len, at_, nullptr);
      leaves = src_.data.data() + (offset - src_.data_base);
      if (copy_first) {
        std::byte* copied = out_.extend(static_cast<std::size_t>(len));
        std::copy_n(leaves, len, copied);
        leaves = copied;
      }
    } else {
      std::byte* gathered = out_.extend(static_cast<std::size_t>(len));
      gather(0, len, at_, gathered);
      leaves = gathered;
    }
    levels_.hash(leaves, len, offset);
    std::size_t next_parent = 0;
    check(offset, 0, len, expected.data(), at_, next_parent);
    at_ += size;
    if (src_.outboard && !copy_first) out_.append(leaves, static_cast<std::size_t>(len));
    return true;
  }

  // Copies the stored parents of the subtree's bytes [first, first + len), at `at` in the
  // tree, to parents_, and (combined) its leaves to `leaves` + first.
  void gather(std::uint64_t first, std::uint64_t len, std::uint64_t at, std::byte* leaves) {
    if (g_.is_leaf(len)) {
      if (!src_.outboard)
        std::copy_n(src_.tree.data() + (at - src_.tree_base), len, leaves + first);
      return;
    }
    const std::byte* parent = src_.tree.data() + (at - src_.tree_base);
    parents_.insert(parents_.end(), parent, parent + parent_size);
    const std::uint64_t left = geometry::left_len(len);
    gather(first, left, at + parent_size, leaves);
    gather(first + left, len - left, at + parent_size + g_.subtree_size(left, src_.outboard),
           leaves);
  }

  // The node of the subtree's bytes [first, first + len), at `at` in the tree, against the
  // chaining value expected for it. A stored parent that holds its children's values as
  // subtree_levels computed them hashes to the value computed for the node, so it is compared
  // and not hashed again; only one that differs is hashed, to tell which node fails.
  void check(std::uint64_t base, std::uint64_t first, std::uint64_t len,
             const std::uint8_t* expected, std::uint64_t at, std::size_t& next_parent) {
    if (g_.is_leaf(len)) {
      const std::uint8_t* cv = levels_.cv(first / k3::chunk_len, chunks_in(len));
      if (std::memcmp(cv, expected, k3::out_len) != 0) {
        fail(errc::hash_mismatch, src_.outboard ? base + first : at);
      }
      return;
    }
    const auto* stored =
        reinterpret_cast<const std::uint8_t*>(parents_.data()) + next_parent++ * parent_size;
    const std::uint64_t left = geometry::left_len(len);
    const bool as_computed =
        std::memcmp(stored, levels_.cv(first / k3::chunk_len, chunks_in(left)), k3::out_len) == 0 &&
        std::memcmp(stored + k3::out_len,
                    levels_.cv((first + left) / k3::chunk_len, chunks_in(len - left)),
                    k3::out_len) == 0;
    const cv_bytes node =
        as_computed ? cv_bytes{} : parent_cv(reinterpret_cast<const std::byte*>(stored), false);
    const std::uint8_t* node_cv =
        as_computed ? levels_.cv(first / k3::chunk_len, chunks_in(len)) : node.data();
    if (std::memcmp(node_cv, expected, k3::out_len) != 0) fail(errc::hash_mismatch, at);
    check(base, first, left, stored, at + parent_size, next_parent);
    check(base, first + left, len - left, stored + k3::out_len,
          at + parent_size + g_.subtree_size(left, src_.outboard), next_parent);
  }

  // Whether from, which starts at byte base, holds bytes [at, at + n).
  static bool holds(std::span<const std::byte> from, std::uint64_t base, std::uint64_t at,
                    std::uint64_t n) {
    return at >= base && at - base <= from.size() && n <= from.size() - (at - base);
  }

  static const std::byte* read(std::span<const std::byte> from, std::uint64_t base,
                               std::uint64_t at, std::uint64_t n) {
    if (!holds(from, base, at, n))
      fail(errc::truncated, base + std::min<std::uint64_t>(at - base, from.size()));
    return from.data() + (at - base);
  }

  const source& src_;
  const geometry& g_;
  std::uint64_t start_, end_, want_from_, want_to_;
  sink out_;
  bool batches_;
  fastblake::thread_pool* pool_ = nullptr;
  std::uint64_t at_ = header_size;
  // whole_subtree's stored parents, and its nodes computed from its leaves.
  std::vector<std::byte> parents_;
  subtree_levels levels_;
};

/// The subtree of len bytes at input `offset`, its nodes from encoding byte `at` (the whole
/// subtree's bytes in src), checked into out, which holds input bytes from out_base on: the
/// parents above pieces of `piece` bytes on this thread, top-down, the pieces on the pool's
/// threads. Throws the error of the failing node the one-thread decoder would name.
/// around_cache: out is written around the caches (sink).
void decode_on_pool(const decoder::source& src, const geometry& g, std::uint64_t offset,
                    std::uint64_t len, std::uint64_t at, const cv_bytes& expected, bool is_root,
                    std::byte* out, std::uint64_t out_base, fastblake::thread_pool& pool,
                    std::uint64_t piece, bool around_cache = false);

}  // namespace fastblake::internal::bao
