// Decoding Bao encodings and slices in memory: every node is checked against the chaining value
// its parent gave for it (the root against the hash) before anything under it is used.
#include <algorithm>

#include "bao/tree.hpp"

namespace fastblake::internal::bao {
namespace {

// Reads nodes in pre-order from a combined encoding or a slice (tree), or parents from an
// outboard encoding and chunks from its input (data), and appends the input bytes of
// [want_from, want_to) to out. Subtrees wholly outside [start, end) are not visited; in a
// combined encoding or outboard they are skipped over, a slice leaves them out.
class decoder {
 public:
  struct source {
    std::span<const std::byte> tree;
    std::span<const std::byte> data;  // outboard: the input; else empty
    bool outboard = false;
    bool slice = false;
  };

  decoder(const source& src, const geometry& g, std::uint64_t start, std::uint64_t end,
          std::uint64_t want_from, std::uint64_t want_to, std::vector<std::byte>& out)
      : src_(src),
        g_(g),
        start_(start),
        end_(end),
        want_from_(want_from),
        want_to_(want_to),
        out_(out) {}

  void run(const fastblake::blake3::digest& hash) {
    cv_bytes root;
    std::copy_n(hash.data(), root.size(), root.begin());
    subtree(0, g_.content_len, root, true);
  }

 private:
  void subtree(std::uint64_t offset, std::uint64_t len, const cv_bytes& expected, bool is_root) {
    if (!is_root && (offset + len <= start_ || offset >= end_)) {
      if (!src_.slice) at_ += g_.subtree_size(len, src_.outboard);
      return;
    }
    if (g_.is_leaf(len)) {
      const std::uint64_t node_at = src_.outboard ? offset : at_;
      const std::byte* leaf =
          src_.outboard ? read(src_.data, offset, len) : read(src_.tree, at_, len);
      if (!src_.outboard) at_ += len;
      if (leaf_cv(leaf, len, offset, is_root) != expected) fail(errc::hash_mismatch, node_at);
      const std::uint64_t from = std::max(offset, want_from_);
      const std::uint64_t to = std::min(offset + len, want_to_);
      if (from < to) out_.insert(out_.end(), leaf + (from - offset), leaf + (to - offset));
      return;
    }
    const std::uint64_t node_at = at_;
    const std::byte* parent = read(src_.tree, at_, parent_size);
    at_ += parent_size;
    if (parent_cv(parent, is_root) != expected) fail(errc::hash_mismatch, node_at);
    cv_bytes left_cv, right_cv;
    std::memcpy(left_cv.data(), parent, left_cv.size());
    std::memcpy(right_cv.data(), parent + left_cv.size(), right_cv.size());
    const std::uint64_t left = geometry::left_len(len);
    subtree(offset, left, left_cv, false);
    subtree(offset + left, len - left, right_cv, false);
  }

  static const std::byte* read(std::span<const std::byte> from, std::uint64_t at, std::uint64_t n) {
    if (at > from.size() || n > from.size() - at) {
      fail(errc::truncated, std::min<std::uint64_t>(at, from.size()));
    }
    return from.data() + at;
  }

  const source& src_;
  const geometry& g_;
  std::uint64_t start_, end_, want_from_, want_to_;
  std::vector<std::byte>& out_;
  std::uint64_t at_ = header_size;
};

std::vector<std::byte> decode_any(const fastblake::blake3::digest& hash, const decoder::source& src,
                                  std::uint64_t start, std::uint64_t count, bool whole,
                                  unsigned group_log) {
  if (src.tree.size() < header_size) fail(errc::truncated, src.tree.size());
  const std::uint64_t content_len = read_header(src.tree.data());
  const geometry g(content_len, group_log);
  std::vector<std::byte> out;
  if (whole) {
    decoder(src, g, 0, content_len, 0, content_len, out).run(hash);
  } else {
    const auto [from, to] = slice_region(content_len, start, count);
    const std::uint64_t want_to = count > ~start ? ~std::uint64_t{0} : start + count;
    decoder(src, g, from, to, start, want_to, out).run(hash);
  }
  return out;
}

}  // namespace
}  // namespace fastblake::internal::bao

namespace fastblake::bao {

using internal::bao::decoder;

std::vector<std::byte> decode(const blake3::digest& hash, std::span<const std::byte> encoded,
                              unsigned group_log) {
  return internal::bao::decode_any(hash, decoder::source{encoded, {}, false, false}, 0, 0, true,
                                   group_log);
}

std::vector<std::byte> decode_outboard(const blake3::digest& hash,
                                       std::span<const std::byte> outboard,
                                       std::span<const std::byte> data, unsigned group_log) {
  return internal::bao::decode_any(hash, decoder::source{outboard, data, true, false}, 0, 0, true,
                                   group_log);
}

std::vector<std::byte> decode_slice(const blake3::digest& hash, std::span<const std::byte> slice,
                                    std::uint64_t start, std::uint64_t count, unsigned group_log) {
  return internal::bao::decode_any(hash, decoder::source{slice, {}, false, true}, start, count,
                                   false, group_log);
}

}  // namespace fastblake::bao
