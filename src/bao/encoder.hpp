// The encoders every Bao encoding runs on (encode.cpp, encode_file.cpp): one subtree of an input
// in memory, written in pre-order, its halves on a pool's threads; and the same piece by piece.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <span>
#include <vector>

#include <fastblake/thread_pool.hpp>

#include "bao/tree.hpp"

namespace fastblake::internal::bao {

// Writes the subtree of len bytes at input offset `offset` to out at `at` (pre-order: its
// parent, its left subtree, its right subtree; the input too unless outboard), and returns its
// chaining value, or the root hash where is_root. The input may start at input byte in_base and
// out at encoding byte out_base (a part of each, when encoding in pieces).
// Given a pool, subtrees larger than `piece` bytes encode their halves on two of its threads.
// post_order: the children before their parent (node_places), for post-order outboards.
class encoder {
 public:
  encoder(std::span<const std::byte> input, const geometry& g, bool outboard, std::byte* out,
          std::uint64_t in_base = 0, std::uint64_t out_base = 0,
          fastblake::thread_pool* pool = nullptr, std::uint64_t piece = 0, bool post_order = false)
      : input_(input),
        g_(g),
        outboard_(outboard),
        post_order_(post_order),
        out_(out),
        in_base_(in_base),
        out_base_(out_base),
        pool_(pool),
        piece_(piece) {}

  // Batches assembled in a buffer and streamed out around the caches: for an output in memory
  // that outgrows them.
  void write_around_cache() noexcept { around_cache_ = !outboard_; }

  cv_bytes subtree(std::uint64_t offset, std::uint64_t len, std::uint64_t at, bool is_root) {
    const std::byte* data = in(offset);
    if (g_.is_leaf(len)) {
      if (!outboard_) std::copy_n(data, len, out(at));
      return leaf_cv(data, len, offset, is_root);
    }
    if (len <= subtree_levels::max_len) {
      // Every node at once, on the SIMD kernels, then written out in pre-order.
      levels_.hash(data, len, offset);
      if (around_cache_) {
        // Assembled in the cache, then streamed out whole: every line written once, in full.
        const std::size_t size = static_cast<std::size_t>(g_.subtree_size(len, outboard_));
        staged_.resize(size);
        std::byte* const out = out_;
        const std::uint64_t out_base = out_base_;
        out_ = staged_.data();
        out_base_ = at;
        write_nodes(offset, 0, len, at);
        out_ = out;
        out_base_ = out_base;
        copy_around_cache(this->out(at), staged_.data(), size);
      } else {
        write_nodes(offset, 0, len, at);
      }
      if (is_root) return parent_cv(out(place(len, at).parent), true);
      cv_bytes top;
      std::memcpy(top.data(), levels_.cv(0, chunks_in(len)), top.size());
      return top;
    }
    const std::uint64_t left = geometry::left_len(len);
    const node_places p = place(len, at);
    cv_bytes l, r;
    if (pool_ != nullptr && len > piece_) {
      encoder right_side(input_, g_, outboard_, out_, in_base_, out_base_, pool_, piece_,
                         post_order_);
      right_side.around_cache_ = around_cache_;
      pool_->join([&] { l = subtree(offset, left, p.left, false); },
                  [&] { r = right_side.subtree(offset + left, len - left, p.right, false); });
    } else {
      l = subtree(offset, left, p.left, false);
      r = subtree(offset + left, len - left, p.right, false);
    }
    std::byte* parent = out(p.parent);
    std::memcpy(parent, l.data(), l.size());
    std::memcpy(parent + l.size(), r.data(), r.size());
    return parent_cv(parent, is_root);
  }

 private:
  // The nodes of the subtree levels_ holds (input bytes [base, base + ...)) over its bytes
  // [first, first + len), from `at` on.
  void write_nodes(std::uint64_t base, std::uint64_t first, std::uint64_t len, std::uint64_t at) {
    if (g_.is_leaf(len)) {
      if (!outboard_) std::copy_n(in(base + first), len, out(at));
      return;
    }
    const std::uint64_t left = geometry::left_len(len);
    const std::uint64_t chunk = first / k3::chunk_len, left_chunks = left / k3::chunk_len;
    const node_places p = place(len, at);
    std::memcpy(out(p.parent), levels_.cv(chunk, left_chunks), k3::out_len);
    std::memcpy(out(p.parent) + k3::out_len, levels_.cv(chunk + left_chunks, chunks_in(len - left)),
                k3::out_len);
    write_nodes(base, first, left, p.left);
    write_nodes(base, first + left, len - left, p.right);
  }

  node_places place(std::uint64_t len, std::uint64_t at) const noexcept {
    return node_places(g_, len, at, outboard_, post_order_);
  }

  const std::byte* in(std::uint64_t offset) const { return input_.data() + (offset - in_base_); }
  std::byte* out(std::uint64_t at) const { return out_ + (at - out_base_); }

  std::span<const std::byte> input_;
  const geometry& g_;
  bool outboard_;
  bool post_order_;
  std::byte* out_;
  std::uint64_t in_base_, out_base_;
  fastblake::thread_pool* pool_;
  std::uint64_t piece_;
  subtree_levels levels_;
  bool around_cache_ = false;
  std::vector<std::byte> staged_;
};

// Encodings from an input read piece by piece and into an output written piece by piece: each
// subtree of at most piece_len bytes is read, encoded in memory and written at its place, the
// two halves above them on two threads of the pool where there is one, and the parents above
// the pieces written one by one. Memory stays at about twice piece_len a thread.
class piece_encoder {
 public:
  static constexpr std::uint64_t default_piece_len = std::uint64_t{4} << 20;

  piece_encoder(const fastblake::bao::read_at_function& input,
                const fastblake::bao::write_at_function& output, const geometry& g, bool outboard,
                fastblake::thread_pool* pool)
      : input_(&input), output_(output), g_(g), outboard_(outboard), pool_(pool) {}
  /// Over input bytes in memory (a mapped file), from input offset `base` on: nothing copied,
  /// pieces of piece_len bytes.
  piece_encoder(std::span<const std::byte> view, std::uint64_t base,
                const fastblake::bao::write_at_function& output, const geometry& g, bool outboard,
                fastblake::thread_pool* pool, std::uint64_t piece_len)
      : view_(view),
        view_base_(base),
        output_(output),
        g_(g),
        outboard_(outboard),
        pool_(pool),
        piece_len_(piece_len) {}

  cv_bytes subtree(std::uint64_t offset, std::uint64_t len, std::uint64_t at, bool is_root) {
    if (len <= std::max(piece_len_, g_.group_len)) return piece(offset, len, at, is_root);
    const std::uint64_t left = geometry::left_len(len);
    const std::uint64_t right_at = at + parent_size + g_.subtree_size(left, outboard_);
    cv_bytes l, r;
    auto left_half = [&] { l = subtree(offset, left, at + parent_size, false); };
    auto right_half = [&] { r = subtree(offset + left, len - left, right_at, false); };
    if (pool_ != nullptr) {
      pool_->join(left_half, right_half);
    } else {
      left_half();
      right_half();
    }
    std::array<std::byte, parent_size> parent;
    std::memcpy(parent.data(), l.data(), l.size());
    std::memcpy(parent.data() + l.size(), r.data(), r.size());
    output_(at, parent);
    return parent_cv(parent.data(), is_root);
  }

 private:
  // A piece's input and encoding, kept for the next piece on any thread.
  struct buffers {
    std::vector<std::byte> data, out;
  };

  cv_bytes piece(std::uint64_t offset, std::uint64_t len, std::uint64_t at, bool is_root) {
    std::unique_ptr<buffers> b = take();
    std::span<const std::byte> data;
    std::uint64_t base = offset;
    if (input_ == nullptr) {
      data = view_;
      base = view_base_;
    } else {
      b->data.resize(static_cast<std::size_t>(len));
      std::size_t got = 0;
      while (got < len) {
        const std::size_t n = std::min((*input_)(offset + got, std::span(b->data).subspan(got)),
                                       b->data.size() - got);
        if (n == 0) fail(errc::truncated, offset + got);
        got += n;
      }
      data = b->data;
    }
    b->out.resize(static_cast<std::size_t>(g_.subtree_size(len, outboard_)));
    const cv_bytes cv =
        encoder(data, g_, outboard_, b->out.data(), base, at).subtree(offset, len, at, is_root);
    if (!b->out.empty()) output_(at, b->out);
    give_back(std::move(b));
    return cv;
  }

  std::unique_ptr<buffers> take() {
    const std::lock_guard lock(mutex_);
    if (free_.empty()) return std::make_unique<buffers>();
    std::unique_ptr<buffers> b = std::move(free_.back());
    free_.pop_back();
    return b;
  }

  void give_back(std::unique_ptr<buffers> b) {
    const std::lock_guard lock(mutex_);
    free_.push_back(std::move(b));
  }

  const fastblake::bao::read_at_function* input_ = nullptr;
  std::span<const std::byte> view_;
  std::uint64_t view_base_ = 0;
  const fastblake::bao::write_at_function& output_;
  const geometry& g_;
  bool outboard_;
  fastblake::thread_pool* pool_;
  std::uint64_t piece_len_ = default_piece_len;
  std::mutex mutex_;
  std::vector<std::unique_ptr<buffers>> free_;
};

// The pieces a pool's threads take: two a thread, never below one batch of subtree_levels.
inline std::uint64_t piece_for(std::uint64_t len, const fastblake::thread_pool& pool) {
  return std::max<std::uint64_t>(subtree_levels::max_len, len / (2 * pool.size()));
}

}  // namespace fastblake::internal::bao
