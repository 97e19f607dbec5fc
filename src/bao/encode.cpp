// Bao encodings (combined and outboard) of an input in memory, and slices cut from them.
#include <algorithm>
#include <limits>
#include <memory>
#include <mutex>
#include <new>
#include <stdexcept>

#include "bao/tree.hpp"

namespace fastblake::internal::bao {
namespace {

// Writes the subtree of len bytes at input offset `offset` to out at `at` (pre-order: its
// parent, its left subtree, its right subtree; the input too unless outboard), and returns its
// chaining value, or the root hash where is_root. The input may start at input byte in_base and
// out at encoding byte out_base (a part of each, when encoding in pieces).
// Given a pool, subtrees larger than `piece` bytes encode their halves on two of its threads.
class encoder {
 public:
  encoder(std::span<const std::byte> input, const geometry& g, bool outboard, std::byte* out,
          std::uint64_t in_base = 0, std::uint64_t out_base = 0,
          fastblake::thread_pool* pool = nullptr, std::uint64_t piece = 0)
      : input_(input),
        g_(g),
        outboard_(outboard),
        out_(out),
        in_base_(in_base),
        out_base_(out_base),
        pool_(pool),
        piece_(piece) {}

  cv_bytes subtree(std::uint64_t offset, std::uint64_t len, std::uint64_t at, bool is_root) {
    const std::byte* data = in(offset);
    if (g_.is_leaf(len)) {
      if (!outboard_) std::copy_n(data, len, out(at));
      return leaf_cv(data, len, offset, is_root);
    }
    if (len <= subtree_levels::max_len) {
      // Every node at once, on the SIMD kernels, then written out in pre-order.
      levels_.hash(data, len, offset);
      write_nodes(offset, 0, len, at);
      if (is_root) return parent_cv(out(at), true);
      cv_bytes top;
      std::memcpy(top.data(), levels_.cv(0, chunks_in(len)), top.size());
      return top;
    }
    const std::uint64_t left = geometry::left_len(len);
    const std::uint64_t right_at = at + parent_size + g_.subtree_size(left, outboard_);
    cv_bytes l, r;
    if (pool_ != nullptr && len > piece_) {
      encoder right_side(input_, g_, outboard_, out_, in_base_, out_base_, pool_, piece_);
      pool_->join([&] { l = subtree(offset, left, at + parent_size, false); },
                  [&] { r = right_side.subtree(offset + left, len - left, right_at, false); });
    } else {
      l = subtree(offset, left, at + parent_size, false);
      r = subtree(offset + left, len - left, right_at, false);
    }
    std::byte* parent = out(at);
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
    std::memcpy(out(at), levels_.cv(chunk, left_chunks), k3::out_len);
    std::memcpy(out(at) + k3::out_len, levels_.cv(chunk + left_chunks, chunks_in(len - left)),
                k3::out_len);
    write_nodes(base, first, left, at + parent_size);
    write_nodes(base, first + left, len - left,
                at + parent_size + g_.subtree_size(left, outboard_));
  }

  const std::byte* in(std::uint64_t offset) const { return input_.data() + (offset - in_base_); }
  std::byte* out(std::uint64_t at) const { return out_ + (at - out_base_); }

  std::span<const std::byte> input_;
  const geometry& g_;
  bool outboard_;
  std::byte* out_;
  std::uint64_t in_base_, out_base_;
  fastblake::thread_pool* pool_;
  std::uint64_t piece_;
  subtree_levels levels_;
};

// The same from an input read piece by piece and into an output written piece by piece: each
// subtree of at most piece_len bytes is read, encoded in memory and written at its place, the
// two halves above them on two threads of the pool where there is one, and the parents above
// the pieces written one by one. Memory stays at about twice piece_len a thread.
class piece_encoder {
 public:
  static constexpr std::uint64_t piece_len = std::uint64_t{4} << 20;

  piece_encoder(const fastblake::bao::read_at_function& input,
                const fastblake::bao::write_at_function& output, const geometry& g, bool outboard,
                fastblake::thread_pool* pool)
      : input_(input), output_(output), g_(g), outboard_(outboard), pool_(pool) {}

  cv_bytes subtree(std::uint64_t offset, std::uint64_t len, std::uint64_t at, bool is_root) {
    if (len <= std::max(piece_len, g_.group_len)) return piece(offset, len, at, is_root);
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
    b->data.resize(static_cast<std::size_t>(len));
    std::size_t got = 0;
    while (got < len) {
      const std::size_t n =
          std::min(input_(offset + got, std::span(b->data).subspan(got)), b->data.size() - got);
      if (n == 0) fail(errc::truncated, offset + got);
      got += n;
    }
    b->out.resize(static_cast<std::size_t>(g_.subtree_size(len, outboard_)));
    const cv_bytes cv = encoder(b->data, g_, outboard_, b->out.data(), offset, at)
                            .subtree(offset, len, at, is_root);
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

  const fastblake::bao::read_at_function& input_;
  const fastblake::bao::write_at_function& output_;
  const geometry& g_;
  bool outboard_;
  fastblake::thread_pool* pool_;
  std::mutex mutex_;
  std::vector<std::unique_ptr<buffers>> free_;
};

fastblake::blake3::digest encode_pieces(std::uint64_t content_len,
                                        const fastblake::bao::read_at_function& input,
                                        const fastblake::bao::write_at_function& output,
                                        unsigned group_log, bool outboard,
                                        fastblake::thread_pool* pool) {
  const geometry g(content_len, group_log);
  std::array<std::byte, header_size> header;
  write_header(content_len, header.data());
  output(0, header);
  return fastblake::blake3::digest(
      piece_encoder(input, output, g, outboard, pool).subtree(0, content_len, header_size, true));
}

// The pool an in-memory encoding of `bytes` runs on: the one given, else the default pool where
// hash() would take it for that size (nullptr: the calling thread alone).
struct threads {
  fastblake::thread_pool* pool;
  bool automatic;
  fastblake::thread_pool* for_size(std::size_t bytes) const {
    return automatic ? k3::tree::automatic_input_pool(bytes) : pool;
  }
};

// The pieces a pool's threads take: two a thread, never below one batch of subtree_levels.
std::uint64_t piece_for(std::uint64_t len, const fastblake::thread_pool& pool) {
  return std::max<std::uint64_t>(subtree_levels::max_len, len / (2 * pool.size()));
}

fastblake::blake3::digest encode_into(std::span<const std::byte> input, std::span<std::byte> out,
                                      unsigned group_log, bool outboard, threads t) {
  const geometry g(input.size(), group_log);
  if (out.size() < header_size + g.subtree_size(input.size(), outboard)) {
    throw std::length_error("fastblake::bao: the output is smaller than the encoding");
  }
  write_header(input.size(), out.data());
  fastblake::thread_pool* pool = t.for_size(input.size());
  if (pool != nullptr && pool->size() < 2) pool = nullptr;
  return fastblake::blake3::digest(encoder(input, g, outboard, out.data(), 0, 0, pool,
                                           pool != nullptr ? piece_for(input.size(), *pool) : 0)
                                       .subtree(0, input.size(), header_size, true));
}

fastblake::bao::encoding encode_any(std::span<const std::byte> input, unsigned group_log,
                                    bool outboard, threads t) {
  const std::uint64_t size =
      header_size + geometry(input.size(), group_log).subtree_size(input.size(), outboard);
  if (size > std::numeric_limits<std::size_t>::max()) throw std::bad_alloc();
  fastblake::bao::encoding e;
  e.bytes.resize(static_cast<std::size_t>(size));
  e.hash = encode_into(input, e.bytes, group_log, outboard, t);
  return e;
}

// The nodes a reader of [start, end) meets, copied from a combined encoding, or from an outboard
// encoding (tree) and its input (data).
class slicer {
 public:
  slicer(const fastblake::bao::read_at_function& tree, const fastblake::bao::read_at_function* data,
         const geometry& g, std::uint64_t start, std::uint64_t end, std::vector<std::byte>& out)
      : tree_(tree), data_(data), g_(g), start_(start), end_(end), out_(out) {}

  void subtree(std::uint64_t offset, std::uint64_t len, std::uint64_t at, bool is_root) {
    if (!is_root && (offset + len <= start_ || offset >= end_)) return;
    if (g_.is_leaf(len)) {
      if (data_ != nullptr) {
        copy(*data_, offset, len);
      } else {
        copy(tree_, at, len);
      }
      return;
    }
    copy(tree_, at, parent_size);
    const std::uint64_t left = geometry::left_len(len);
    subtree(offset, left, at + parent_size, false);
    subtree(offset + left, len - left, at + parent_size + g_.subtree_size(left, data_ != nullptr),
            false);
  }

 private:
  void copy(const fastblake::bao::read_at_function& from, std::uint64_t at, std::uint64_t n) {
    const std::size_t old_size = out_.size();
    out_.resize(old_size + static_cast<std::size_t>(n));
    const std::span<std::byte> into(out_.data() + old_size, static_cast<std::size_t>(n));
    std::size_t got = 0;
    while (got < n) {
      const std::size_t more = std::min(from(at + got, into.subspan(got)), into.size() - got);
      if (more == 0) fail(errc::truncated, at);
      got += more;
    }
  }

  const fastblake::bao::read_at_function& tree_;
  const fastblake::bao::read_at_function* data_;
  const geometry& g_;
  std::uint64_t start_, end_;
  std::vector<std::byte>& out_;
};

std::vector<std::byte> slice_any(const fastblake::bao::read_at_function& tree,
                                 const fastblake::bao::read_at_function* data, std::uint64_t start,
                                 std::uint64_t count, unsigned group_log) {
  std::vector<std::byte> out(header_size);
  std::size_t got = 0;
  while (got < header_size) {
    const std::size_t n = std::min(tree(got, std::span(out).subspan(got)), header_size - got);
    if (n == 0) fail(errc::truncated, got);
    got += n;
  }
  const std::uint64_t content_len = read_header(out.data());
  const geometry g(content_len, group_log);
  const auto [from, to] = slice_region(content_len, start, count);
  slicer(tree, data, g, from, to, out).subtree(0, content_len, header_size, true);
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

namespace {
constexpr internal::bao::threads automatic{nullptr, true};
internal::bao::threads on(thread_pool& pool) { return {&pool, false}; }
}  // namespace

encoding encode(std::span<const std::byte> input, unsigned group_log) {
  return internal::bao::encode_any(input, group_log, false, automatic);
}

encoding encode_outboard(std::span<const std::byte> input, unsigned group_log) {
  return internal::bao::encode_any(input, group_log, true, automatic);
}

blake3::digest encode(std::span<const std::byte> input, std::span<std::byte> out,
                      unsigned group_log) {
  return internal::bao::encode_into(input, out, group_log, false, automatic);
}

blake3::digest encode_outboard(std::span<const std::byte> input, std::span<std::byte> out,
                               unsigned group_log) {
  return internal::bao::encode_into(input, out, group_log, true, automatic);
}

encoding encode(std::span<const std::byte> input, thread_pool& pool, unsigned group_log) {
  return internal::bao::encode_any(input, group_log, false, on(pool));
}

encoding encode_outboard(std::span<const std::byte> input, thread_pool& pool, unsigned group_log) {
  return internal::bao::encode_any(input, group_log, true, on(pool));
}

blake3::digest encode(std::span<const std::byte> input, std::span<std::byte> out, thread_pool& pool,
                      unsigned group_log) {
  return internal::bao::encode_into(input, out, group_log, false, on(pool));
}

blake3::digest encode_outboard(std::span<const std::byte> input, std::span<std::byte> out,
                               thread_pool& pool, unsigned group_log) {
  return internal::bao::encode_into(input, out, group_log, true, on(pool));
}

blake3::digest encode(std::uint64_t content_len, const read_at_function& input,
                      const write_at_function& out, unsigned group_log) {
  return internal::bao::encode_pieces(content_len, input, out, group_log, false, nullptr);
}

blake3::digest encode_outboard(std::uint64_t content_len, const read_at_function& input,
                               const write_at_function& out, unsigned group_log) {
  return internal::bao::encode_pieces(content_len, input, out, group_log, true, nullptr);
}

blake3::digest encode(std::uint64_t content_len, const read_at_function& input,
                      const write_at_function& out, thread_pool& pool, unsigned group_log) {
  return internal::bao::encode_pieces(content_len, input, out, group_log, false, &pool);
}

blake3::digest encode_outboard(std::uint64_t content_len, const read_at_function& input,
                               const write_at_function& out, thread_pool& pool,
                               unsigned group_log) {
  return internal::bao::encode_pieces(content_len, input, out, group_log, true, &pool);
}

std::vector<std::byte> extract_slice(std::span<const std::byte> encoded, std::uint64_t start,
                                     std::uint64_t count, unsigned group_log) {
  return extract_slice(read_from(encoded), start, count, group_log);
}

std::vector<std::byte> extract_slice_outboard(std::span<const std::byte> outboard,
                                              std::span<const std::byte> data, std::uint64_t start,
                                              std::uint64_t count, unsigned group_log) {
  return extract_slice_outboard(read_from(outboard), read_from(data), start, count, group_log);
}

std::vector<std::byte> extract_slice(const read_at_function& encoded, std::uint64_t start,
                                     std::uint64_t count, unsigned group_log) {
  return internal::bao::slice_any(encoded, nullptr, start, count, group_log);
}

std::vector<std::byte> extract_slice_outboard(const read_at_function& outboard,
                                              const read_at_function& data, std::uint64_t start,
                                              std::uint64_t count, unsigned group_log) {
  return internal::bao::slice_any(outboard, &data, start, count, group_log);
}

}  // namespace fastblake::bao
