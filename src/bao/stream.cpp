// Encodings of inputs whose length is known only at their end (bao::encoder), and post-order
// outboards (bao-tree's): both rest on the same fact, that a tree written in post-order can be
// written as its input arrives, and moved to pre-order once the length is known.
#include <algorithm>
#include <limits>
#include <memory>
#include <new>
#include <stdexcept>
#include <utility>

#include "bao/encoder.hpp"

namespace fastblake::internal::bao {
namespace {

// The pieces the encoder encodes at once: whole subtrees of the final tree, whatever its length.
std::uint64_t piece_len_of(const geometry& g) {
  return std::max(piece_encoder::default_piece_len, g.group_len);
}

// The pool hash() would take for an input of len bytes; nullptr for the calling thread alone.
fastblake::thread_pool* automatic_pool(std::uint64_t len) {
  fastblake::thread_pool* pool = k3::tree::automatic_input_pool(static_cast<std::size_t>(
      std::min<std::uint64_t>(len, std::numeric_limits<std::size_t>::max())));
  return pool != nullptr && pool->size() >= 2 ? pool : nullptr;
}

// Copies every parent of the subtree of len bytes from one outboard layout to the other.
void move_parents(const geometry& g, std::uint64_t len, std::span<const std::byte> from,
                  std::uint64_t from_at, bool from_post, std::span<std::byte> to,
                  std::uint64_t to_at, bool to_post) {
  if (g.is_leaf(len)) return;
  const node_places f(g, len, from_at, true, from_post), t(g, len, to_at, true, to_post);
  std::copy_n(from.data() + f.parent, parent_size, to.data() + t.parent);
  const std::uint64_t left = geometry::left_len(len);
  move_parents(g, left, from, f.left, from_post, to, t.left, to_post);
  move_parents(g, len - left, from, f.right, from_post, to, t.right, to_post);
}

// Serves reads of a pre-order outboard from a post-order one (pre_order_view).
class pre_order_reader {
 public:
  pre_order_reader(fastblake::bao::read_at_function post_order, std::uint64_t size,
                   unsigned group_log)
      : post_order_(std::move(post_order)), size_(size), g_(0, group_log) {}

  std::size_t operator()(std::uint64_t offset, std::span<std::byte> out) {
    if (!length_known_) learn_length();
    const std::uint64_t view_size = header_size + tree_;
    if (offset >= view_size || out.empty()) return 0;
    const auto n =
        static_cast<std::size_t>(std::min<std::uint64_t>(out.size(), view_size - offset));
    const std::uint64_t lo = offset, hi = offset + n;
    for (std::uint64_t at = lo; at < std::min<std::uint64_t>(hi, header_size); ++at) {
      out[static_cast<std::size_t>(at - lo)] = length_bytes_[static_cast<std::size_t>(at)];
    }
    fill(g_.content_len, header_size, 0, lo, out.first(n));
    return n;
  }

 private:
  void learn_length() {
    if (size_ >= header_size) {
      read_exactly(size_ - header_size, length_bytes_, size_ - header_size);
    }
    g_.content_len = read_header(length_bytes_.data());
    tree_ = g_.subtree_size(g_.content_len, true);
    length_known_ = true;
  }

  // Bytes at post-order `at`, or bao::error naming `node` (its pre-order offset) if they lack.
  void read_exactly(std::uint64_t at, std::span<std::byte> into, std::uint64_t node) {
    std::size_t got = 0;
    while (got < into.size()) {
      const std::size_t more =
          at + got >= size_ ? 0
                            : std::min(post_order_(at + got, into.subspan(got)), into.size() - got);
      if (more == 0) fail(errc::truncated, node);
      got += more;
    }
  }

  // The parents of the subtree of len bytes, at pre_at (pre-order) and post_at (post-order),
  // that fall in the view's bytes [lo, lo + out.size()).
  void fill(std::uint64_t len, std::uint64_t pre_at, std::uint64_t post_at, std::uint64_t lo,
            std::span<std::byte> out) {
    const std::uint64_t size = g_.subtree_size(len, true);
    const std::uint64_t hi = lo + out.size();
    if (size == 0 || pre_at + size <= lo || pre_at >= hi) return;
    if (pre_at >= lo && pre_at + size <= hi && size > parent_size) {
      // Wholly wanted: its parents in one read, then put in pre-order.
      scratch_.resize(static_cast<std::size_t>(size));
      read_exactly(post_at, scratch_, pre_at);
      move_parents(g_, len, scratch_, 0, true, out.subspan(static_cast<std::size_t>(pre_at - lo)),
                   0, false);
      return;
    }
    const node_places pre(g_, len, pre_at, true, false), post(g_, len, post_at, true, true);
    std::array<std::byte, parent_size> parent;
    read_exactly(post.parent, parent, pre.parent);
    for (std::uint64_t at = std::max(lo, pre.parent); at < std::min(hi, pre.parent + parent_size);
         ++at) {
      out[static_cast<std::size_t>(at - lo)] = parent[static_cast<std::size_t>(at - pre.parent)];
    }
    const std::uint64_t left = geometry::left_len(len);
    fill(left, pre.left, post.left, lo, out);
    fill(len - left, pre.right, post.right, lo, out);
  }

  fastblake::bao::read_at_function post_order_;
  std::uint64_t size_;
  geometry g_;
  bool length_known_ = false;
  std::array<std::byte, header_size> length_bytes_{};
  std::uint64_t tree_ = 0;
  std::vector<std::byte> scratch_;
};

}  // namespace
}  // namespace fastblake::internal::bao

namespace fastblake::bao {

read_at_function pre_order_view(read_at_function post_order, std::uint64_t size,
                                unsigned group_log) {
  // Shared: a read_at_function is copied about, and the view keeps what it learned.
  auto view =
      std::make_shared<internal::bao::pre_order_reader>(std::move(post_order), size, group_log);
  return [view](std::uint64_t offset, std::span<std::byte> out) { return (*view)(offset, out); };
}

namespace ib = internal::bao;

struct encoder::state {
  read_at_function output_in;
  write_at_function output;
  bool outboard, post_order;
  ib::geometry g;
  std::uint64_t piece_len;
  // Where the tree starts in the output: after the header, which is written last (pre-order);
  // at 0 where the length goes after it (post-order).
  std::uint64_t base;
  std::vector<std::byte> pending;  // input not yet encoded: at most one piece
  std::uint64_t encoded = 0;       // input bytes before pending
  std::uint64_t written = 0;       // tree bytes written from base on
  // The chaining values of the finished subtrees and their lengths, largest first: siblings of
  // one length are merged at once, so there is at most one a length.
  std::vector<std::pair<ib::cv_bytes, std::uint64_t>> finished;
  std::vector<std::byte> scratch;
  thread_pool* pool = nullptr;
  bool ended = false;

  state(read_at_function in, write_at_function out, format f, unsigned group_log)
      : output_in(std::move(in)),
        output(std::move(out)),
        outboard(f != format::combined),
        post_order(f == format::post_order_outboard),
        g(0, group_log),
        piece_len(ib::piece_len_of(g)),
        base(post_order ? 0 : header_size) {}

  // Encodes input bytes [offset, offset + data.size()), a subtree, at the end of the output
  // (write false: its chaining value only).
  ib::cv_bytes encode_subtree(std::span<const std::byte> data, std::uint64_t offset, bool is_root,
                              bool write = true) {
    const std::uint64_t len = data.size();
    scratch.resize(static_cast<std::size_t>(g.subtree_size(len, outboard)));
    thread_pool* threads = pool != nullptr ? pool : ib::automatic_pool(len);
    if (threads != nullptr && threads->size() < 2) threads = nullptr;
    const std::uint64_t at = base + written;
    const ib::cv_bytes cv =
        ib::encoder(data, g, outboard, scratch.data(), offset, at, threads,
                    threads != nullptr ? ib::piece_for(len, *threads) : 0, post_order)
            .subtree(offset, len, at, is_root);
    if (!write) return cv;
    if (!scratch.empty()) output(at, scratch);
    written += scratch.size();
    return cv;
  }

  // Appends the parent of two finished subtrees (post-order: after them) and returns its value.
  ib::cv_bytes append_parent(const ib::cv_bytes& left, const ib::cv_bytes& right, bool is_root) {
    std::array<std::byte, parent_size> parent;
    std::memcpy(parent.data(), left.data(), left.size());
    std::memcpy(parent.data() + left.size(), right.data(), right.size());
    output(base + written, parent);
    written += parent_size;
    return ib::parent_cv(parent.data(), is_root);
  }

  void encode_pending_piece() {
    ib::cv_bytes cv = encode_subtree(pending, encoded, false);
    encoded += pending.size();
    pending.clear();
    std::uint64_t len = piece_len;
    while (!finished.empty() && finished.back().second == len) {
      cv = append_parent(finished.back().first, cv, false);
      finished.pop_back();
      len *= 2;
    }
    finished.emplace_back(cv, len);
  }

  void read_back(std::uint64_t at, std::span<std::byte> into) {
    std::size_t got = 0;
    while (got < into.size()) {
      const std::size_t n = std::min(output_in(at + got, into.subspan(got)), into.size() - got);
      if (n == 0) {
        throw std::runtime_error(
            "fastblake::bao::encoder: the output ended before what was written to it");
      }
      got += n;
    }
  }

  // Moves the subtree of len bytes at post_at, in post-order above its pieces, to its pre-order
  // place pre_at. The nodes are taken last to first, and every node's pre-order place is at or
  // after its post-order one (only the parents before it differ, and they all come after it in
  // post-order), so a node is written only over bytes already read; a parent waits here until
  // its subtree has moved, and then goes to the subtree's first bytes.
  void flip(std::uint64_t len, std::uint64_t post_at, std::uint64_t pre_at) {
    if (len <= piece_len) {
      const std::uint64_t size = g.subtree_size(len, outboard);
      if (size == 0 || post_at == pre_at) return;
      scratch.resize(static_cast<std::size_t>(size));
      read_back(post_at, scratch);
      output(pre_at, scratch);
      return;
    }
    const ib::node_places post(g, len, post_at, outboard, true),
        pre(g, len, pre_at, outboard, false);
    std::array<std::byte, parent_size> parent;
    read_back(post.parent, parent);
    const std::uint64_t left = ib::geometry::left_len(len);
    flip(len - left, post.right, pre.right);
    flip(left, post.left, pre.left);
    output(pre.parent, parent);
  }

  blake3::digest finish() {
    const std::uint64_t content_len = encoded + pending.size();
    ib::cv_bytes root;
    if (finished.empty()) {
      root = encode_subtree(pending, 0, true);
    } else {
      ib::cv_bytes right = encode_subtree(pending, encoded, false);
      while (!finished.empty()) {
        const ib::cv_bytes left = finished.back().first;
        finished.pop_back();
        right = append_parent(left, right, finished.empty());
      }
      root = right;
      if (!post_order) flip(content_len, base, base);
    }
    std::array<std::byte, header_size> length;
    ib::write_header(content_len, length.data());
    output(post_order ? base + written : 0, length);
    return blake3::digest(root);
  }

  // Bytes at `at` of what `from` reads, or bao::error (truncated) naming where they end.
  static void read_exactly(const read_at_function& from, std::uint64_t at,
                           std::span<std::byte> into) {
    std::size_t got = 0;
    while (got < into.size()) {
      const std::size_t n = std::min(from(at + got, into.subspan(got)), into.size() - got);
      if (n == 0) ib::fail(errc::truncated, at + got);
      got += n;
    }
  }

  // The state update() would have reached with the content_len bytes that input reads, from
  // their post-order outboard: each finished subtree's chaining value from its top parent (the
  // last of its nodes) or, for a lone leaf, from its bytes; the last piece's bytes read again.
  // Nothing is written: the root these make must first be `hash`.
  void resume(std::uint64_t content_len, const read_at_function& input,
              const blake3::digest& hash) {
    const std::uint64_t tree = g.subtree_size(content_len, true);
    std::array<std::byte, header_size> length;
    read_exactly(output_in, tree, length);
    if (ib::read_header(length.data()) != content_len) {
      throw std::invalid_argument(
          "fastblake::bao::encoder: the outboard is of another length than the input given");
    }
    // As update() leaves it: a last piece, whole or not, waits in `pending`.
    const std::uint64_t pending_len = content_len == 0 ? 0 : (content_len - 1) % piece_len + 1;
    const std::uint64_t pieces = (content_len - pending_len) / piece_len;
    for (int bit = 63; bit >= 0; --bit) {
      if ((pieces >> bit & 1) == 0) continue;
      const std::uint64_t len = piece_len << bit;
      const std::uint64_t size = g.subtree_size(len, true);
      ib::cv_bytes cv;
      if (size == 0) {
        scratch.resize(static_cast<std::size_t>(len));
        read_exactly(input, encoded, scratch);
        cv = ib::leaf_cv(scratch.data(), len, encoded, false);
      } else {
        std::array<std::byte, parent_size> parent;
        read_exactly(output_in, written + size - parent_size, parent);
        cv = ib::parent_cv(parent.data(), false);
      }
      finished.emplace_back(cv, len);
      encoded += len;
      written += size;
    }
    pending.resize(static_cast<std::size_t>(pending_len));
    read_exactly(input, encoded, pending);
    ib::cv_bytes root = encode_subtree(pending, encoded, finished.empty(), false);
    for (auto it = finished.rbegin(); it != finished.rend(); ++it) {
      std::array<std::byte, parent_size> parent;
      std::memcpy(parent.data(), it->first.data(), it->first.size());
      std::memcpy(parent.data() + it->first.size(), root.data(), root.size());
      root = ib::parent_cv(parent.data(), it + 1 == finished.rend());
    }
    if (!std::equal(root.begin(), root.end(), hash.data())) ib::fail(errc::hash_mismatch, 0);
  }

  void check_usable() const {
    if (ended) {
      throw std::logic_error("fastblake::bao::encoder: used after finalize() or a failure");
    }
  }
};

encoder::encoder(read_at_function output_in, write_at_function output, format f, unsigned group_log)
    : state_(std::make_unique<state>(std::move(output_in), std::move(output), f, group_log)) {
  state_->pending.reserve(static_cast<std::size_t>(
      std::min<std::uint64_t>(state_->piece_len, std::uint64_t{64} << 20)));
}

encoder encoder::resume(read_at_function output_in, write_at_function output,
                        std::uint64_t content_len, const read_at_function& input,
                        const blake3::digest& hash, unsigned group_log) {
  encoder e(std::move(output_in), std::move(output), format::post_order_outboard, group_log);
  e.state_->resume(content_len, input, hash);
  return e;
}

encoder::encoder(encoder&&) noexcept = default;
encoder& encoder::operator=(encoder&&) noexcept = default;
encoder::~encoder() = default;

void encoder::update(std::span<const std::byte> input) {
  state& s = *state_;
  s.check_usable();
  try {
    while (!input.empty()) {
      // A full piece is encoded only once more input comes: the last one may be the root.
      if (s.pending.size() == s.piece_len) s.encode_pending_piece();
      const auto take = static_cast<std::size_t>(
          std::min<std::uint64_t>(input.size(), s.piece_len - s.pending.size()));
      s.pending.insert(s.pending.end(), input.begin(), input.begin() + take);
      input = input.subspan(take);
    }
  } catch (...) {
    s.ended = true;
    throw;
  }
}

blake3::digest encoder::finalize() {
  state& s = *state_;
  s.check_usable();
  s.ended = true;
  return s.finish();
}

std::uint64_t encoder::count() const noexcept { return state_->encoded + state_->pending.size(); }

void encoder::use_pool(thread_pool& pool) noexcept { state_->pool = &pool; }

blake3::digest encode_post_order_outboard(std::span<const std::byte> input,
                                          std::span<std::byte> out, unsigned group_log) {
  const ib::geometry g(input.size(), group_log);
  const std::uint64_t tree = g.subtree_size(input.size(), true);
  if (out.size() < tree + header_size) {
    throw std::length_error("fastblake::bao: the output is smaller than the encoding");
  }
  thread_pool* pool = ib::automatic_pool(input.size());
  const blake3::digest hash(ib::encoder(input, g, true, out.data(), 0, 0, pool,
                                        pool != nullptr ? ib::piece_for(input.size(), *pool) : 0,
                                        true)
                                .subtree(0, input.size(), 0, true));
  ib::write_header(input.size(), out.data() + tree);
  return hash;
}

encoding encode_post_order_outboard(std::span<const std::byte> input, unsigned group_log) {
  encoding e;
  e.bytes.resize(static_cast<std::size_t>(outboard_size(input.size(), group_log)));
  e.hash = encode_post_order_outboard(input, e.bytes, group_log);
  return e;
}

std::vector<std::byte> pre_order_outboard(std::span<const std::byte> post_order,
                                          unsigned group_log) {
  if (post_order.size() < header_size) ib::fail(errc::truncated, post_order.size());
  const std::uint64_t content_len =
      ib::read_header(post_order.data() + post_order.size() - header_size);
  const ib::geometry g(content_len, group_log);
  const std::uint64_t tree = g.subtree_size(content_len, true);
  if (post_order.size() - header_size != tree) ib::fail(errc::truncated, post_order.size());
  std::vector<std::byte> out(static_cast<std::size_t>(tree + header_size));
  ib::write_header(content_len, out.data());
  ib::move_parents(g, content_len, post_order, 0, true, out, header_size, false);
  return out;
}

std::vector<std::byte> post_order_outboard(std::span<const std::byte> pre_order,
                                           unsigned group_log) {
  if (pre_order.size() < header_size) ib::fail(errc::truncated, pre_order.size());
  const std::uint64_t content_len = ib::read_header(pre_order.data());
  const ib::geometry g(content_len, group_log);
  const std::uint64_t tree = g.subtree_size(content_len, true);
  if (pre_order.size() - header_size < tree) ib::fail(errc::truncated, pre_order.size());
  std::vector<std::byte> out(static_cast<std::size_t>(tree + header_size));
  ib::move_parents(g, content_len, pre_order, header_size, false, out, 0, true);
  ib::write_header(content_len, out.data() + tree);
  return out;
}

}  // namespace fastblake::bao
