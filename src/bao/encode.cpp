// Bao encodings (combined and outboard) of an input in memory, and slices cut from them.
#include <algorithm>
#include <limits>
#include <new>
#include <stdexcept>

#include "bao/tree.hpp"

namespace fastblake::internal::bao {
namespace {

// Writes the subtree of len bytes at input offset `offset` to out at `at` (pre-order: its
// parent, its left subtree, its right subtree; the input too unless outboard), and returns its
// chaining value, or the root hash where is_root.
class encoder {
 public:
  encoder(std::span<const std::byte> input, const geometry& g, bool outboard, std::byte* out)
      : input_(input), g_(g), outboard_(outboard), out_(out) {}

  cv_bytes subtree(std::uint64_t offset, std::uint64_t len, std::uint64_t at, bool is_root) {
    const std::byte* data = input_.data() + offset;
    if (g_.is_leaf(len)) {
      if (!outboard_) std::copy_n(data, len, out_ + at);
      return leaf_cv(data, len, offset, is_root);
    }
    if (len <= subtree_levels::max_len) {
      // Every node at once, on the SIMD kernels, then written out in pre-order.
      levels_.hash(data, len, offset);
      write_nodes(offset, 0, len, at);
      if (is_root) return parent_cv(out_ + at, true);
      cv_bytes top;
      std::memcpy(top.data(), levels_.cv(0, chunks_in(len)), top.size());
      return top;
    }
    const std::uint64_t left = geometry::left_len(len);
    const cv_bytes l = subtree(offset, left, at + parent_size, false);
    const cv_bytes r = subtree(offset + left, len - left,
                               at + parent_size + g_.subtree_size(left, outboard_), false);
    std::byte* parent = out_ + at;
    std::memcpy(parent, l.data(), l.size());
    std::memcpy(parent + l.size(), r.data(), r.size());
    return parent_cv(parent, is_root);
  }

 private:
  // The nodes of the subtree levels_ holds (input bytes [base, base + ...)) over its bytes
  // [first, first + len), from `at` on.
  void write_nodes(std::uint64_t base, std::uint64_t first, std::uint64_t len, std::uint64_t at) {
    if (g_.is_leaf(len)) {
      if (!outboard_) std::copy_n(input_.data() + base + first, len, out_ + at);
      return;
    }
    const std::uint64_t left = geometry::left_len(len);
    const std::uint64_t chunk = first / k3::chunk_len, left_chunks = left / k3::chunk_len;
    std::memcpy(out_ + at, levels_.cv(chunk, left_chunks), k3::out_len);
    std::memcpy(out_ + at + k3::out_len, levels_.cv(chunk + left_chunks, chunks_in(len - left)),
                k3::out_len);
    write_nodes(base, first, left, at + parent_size);
    write_nodes(base, first + left, len - left,
                at + parent_size + g_.subtree_size(left, outboard_));
  }

  std::span<const std::byte> input_;
  const geometry& g_;
  bool outboard_;
  std::byte* out_;
  subtree_levels levels_;
};

fastblake::blake3::digest encode_into(std::span<const std::byte> input, std::span<std::byte> out,
                                      unsigned group_log, bool outboard) {
  const geometry g(input.size(), group_log);
  if (out.size() < header_size + g.subtree_size(input.size(), outboard)) {
    throw std::length_error("fastblake::bao: the output is smaller than the encoding");
  }
  write_header(input.size(), out.data());
  return fastblake::blake3::digest(
      encoder(input, g, outboard, out.data()).subtree(0, input.size(), header_size, true));
}

fastblake::bao::encoding encode_any(std::span<const std::byte> input, unsigned group_log,
                                    bool outboard) {
  const std::uint64_t size =
      header_size + geometry(input.size(), group_log).subtree_size(input.size(), outboard);
  if (size > std::numeric_limits<std::size_t>::max()) throw std::bad_alloc();
  fastblake::bao::encoding e;
  e.bytes.resize(static_cast<std::size_t>(size));
  e.hash = encode_into(input, e.bytes, group_log, outboard);
  return e;
}

// The nodes a reader of [start, end) meets, copied from a combined encoding (data: null) or
// from an outboard encoding and its input.
class slicer {
 public:
  slicer(std::span<const std::byte> tree, std::span<const std::byte> data, bool outboard,
         const geometry& g, std::uint64_t start, std::uint64_t end, std::vector<std::byte>& out)
      : tree_(tree), data_(data), outboard_(outboard), g_(g), start_(start), end_(end), out_(out) {}

  void subtree(std::uint64_t offset, std::uint64_t len, std::uint64_t at, bool is_root) {
    if (!is_root && (offset + len <= start_ || offset >= end_)) return;
    if (g_.is_leaf(len)) {
      if (outboard_) {
        copy(data_, offset, len);
      } else {
        copy(tree_, at, len);
      }
      return;
    }
    copy(tree_, at, parent_size);
    const std::uint64_t left = geometry::left_len(len);
    subtree(offset, left, at + parent_size, false);
    subtree(offset + left, len - left, at + parent_size + g_.subtree_size(left, outboard_), false);
  }

 private:
  void copy(std::span<const std::byte> from, std::uint64_t at, std::uint64_t n) {
    if (at > from.size() || n > from.size() - at) {
      fail(errc::truncated, std::min<std::uint64_t>(at, from.size()));
    }
    if (n == 0) return;  // the empty input's one chunk (and from may be an empty span's null)
    const std::size_t old_size = out_.size();
    out_.resize(old_size + static_cast<std::size_t>(n));
    std::memcpy(out_.data() + old_size, from.data() + at, static_cast<std::size_t>(n));
  }

  std::span<const std::byte> tree_, data_;
  bool outboard_;
  const geometry& g_;
  std::uint64_t start_, end_;
  std::vector<std::byte>& out_;
};

std::vector<std::byte> slice_any(std::span<const std::byte> tree, std::span<const std::byte> data,
                                 bool outboard, std::uint64_t start, std::uint64_t count,
                                 unsigned group_log) {
  if (tree.size() < header_size) fail(errc::truncated, tree.size());
  const std::uint64_t content_len = read_header(tree.data());
  const geometry g(content_len, group_log);
  const auto [from, to] = slice_region(content_len, start, count);
  std::vector<std::byte> out(header_size);
  std::copy_n(tree.data(), header_size, out.data());
  slicer(tree, data, outboard, g, from, to, out).subtree(0, content_len, header_size, true);
  return out;
}

}  // namespace

std::pair<std::uint64_t, std::uint64_t> slice_region(std::uint64_t content_len, std::uint64_t start,
                                                     std::uint64_t count) noexcept {
  if (start >= content_len) start = content_len == 0 ? 0 : content_len - 1;
  count = std::max<std::uint64_t>(count, 1);
  const std::uint64_t end = count > ~start ? ~std::uint64_t{0} : start + count;
  return {start, end};
}

}  // namespace fastblake::internal::bao

namespace fastblake::bao {

using internal::bao::geometry;

std::uint64_t encoded_size(std::uint64_t content_len, unsigned group_log) {
  return header_size + geometry(content_len, group_log).subtree_size(content_len, false);
}

std::uint64_t outboard_size(std::uint64_t content_len, unsigned group_log) {
  return header_size + geometry(content_len, group_log).subtree_size(content_len, true);
}

encoding encode(std::span<const std::byte> input, unsigned group_log) {
  return internal::bao::encode_any(input, group_log, false);
}

encoding encode_outboard(std::span<const std::byte> input, unsigned group_log) {
  return internal::bao::encode_any(input, group_log, true);
}

blake3::digest encode(std::span<const std::byte> input, std::span<std::byte> out,
                      unsigned group_log) {
  return internal::bao::encode_into(input, out, group_log, false);
}

blake3::digest encode_outboard(std::span<const std::byte> input, std::span<std::byte> out,
                               unsigned group_log) {
  return internal::bao::encode_into(input, out, group_log, true);
}

std::vector<std::byte> extract_slice(std::span<const std::byte> encoded, std::uint64_t start,
                                     std::uint64_t count, unsigned group_log) {
  return internal::bao::slice_any(encoded, {}, false, start, count, group_log);
}

std::vector<std::byte> extract_slice_outboard(std::span<const std::byte> outboard,
                                              std::span<const std::byte> data, std::uint64_t start,
                                              std::uint64_t count, unsigned group_log) {
  return internal::bao::slice_any(outboard, data, true, start, count, group_log);
}

}  // namespace fastblake::bao
