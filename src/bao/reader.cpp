// The verifying reader: the path of nodes from the root to the position, each checked when it
// was read, and the last subtree decoded, whose bytes read() hands out.
#include <algorithm>
#include <array>
#include <exception>
#include <new>
#include <optional>
#include <stdexcept>
#include <tuple>
#include <utility>

#include "bao/decoder.hpp"

namespace fastblake::bao {
namespace {

namespace ib = fastblake::internal::bao;

// A subtree this size or smaller is read and checked at once, with the SIMD kernels; on a
// pool, one this size read from its start, in pieces on its threads.
constexpr std::uint64_t batch_len = ib::subtree_levels::max_len;
constexpr std::uint64_t pool_batch_len = std::uint64_t{4} << 20;

// A node on the path: input bytes [offset, offset + len), whose nodes start at byte `at` of the
// encoding or outboard, with the chaining value its parent gave for it; once its own parent node
// has been read and checked, its children's chaining values.
struct path_node {
  std::uint64_t offset;
  std::uint64_t len;
  std::uint64_t at;
  ib::cv_bytes cv;
  bool is_root;
  bool children_read = false;
  ib::cv_bytes left{};
  ib::cv_bytes right{};

  bool holds(std::uint64_t p) const noexcept { return p >= offset && p - offset < len; }
};

// As many bytes at `at` as the function gives, up to out.size(): fewer only at their end.
std::size_t read_fully(const read_at_function& read, std::uint64_t at, std::span<std::byte> out) {
  std::size_t got = 0;
  while (got < out.size()) {
    const std::size_t n = std::min(read(at + got, out.subspan(got)), out.size() - got);
    if (n == 0) break;
    got += n;
  }
  return got;
}

// The bytes at `at`, up to `want` of them, read into v (replacing what it held), which grows
// with the bytes that arrive: never sized by a length the header claimed, which the bytes may
// not back (a 108-byte file whose header says 16 GiB with groups of 2^32 chunks). Memory stays
// within twice the bytes read, past the first few MiB.
void read_growing(const read_at_function& read, std::uint64_t at, std::uint64_t want,
                  std::vector<std::byte>& v) {
  // (A whole pool batch of a combined encoding, its parents too, in the first read.)
  constexpr std::uint64_t first_step = pool_batch_len + pool_batch_len / 16;
  v.clear();
  while (v.size() < want) {
    const std::uint64_t have = v.size();
    const std::uint64_t step = std::max(first_step, have);
    const std::uint64_t size = have + std::min(want - have, step);
    if (size > v.max_size()) throw std::bad_alloc();
    v.resize(static_cast<std::size_t>(size));
    const std::size_t got =
        read_fully(read, at + have, std::span(v).subspan(static_cast<std::size_t>(have)));
    v.resize(static_cast<std::size_t>(have) + got);
    if (v.size() < size) break;
  }
}

}  // namespace

struct reader::state {
  blake3::digest hash;
  read_at_function tree;  // the combined encoding, or the outboard
  read_at_function data;  // beside an outboard: the input
  bool outboard;
  unsigned group_log;
  thread_pool* pool = nullptr;
  std::optional<ib::geometry> shape;
  bool length_checked = false;
  std::uint64_t position = 0;
  std::vector<path_node> path;
  // Checked input bytes [decoded_at, decoded_at + decoded.size()).
  std::vector<std::byte> decoded;
  std::uint64_t decoded_at = 0;
  // A subtree's bytes as read, and its decoding before it replaces `decoded`.
  std::vector<std::byte> region, data_region, scratch;
  // A failure met after a read had checked bytes to return: the next read's, without reading
  // again (a pipe cannot go back).
  std::exception_ptr pending;
  // The failure met right after `decoded`, which holds the bytes checked before it.
  std::exception_ptr failure_after_decoded;
  // Over a slice: the input bytes it hands out, [slice_start, slice_end), and once the header
  // is read, those whose leaves it holds, [region_from, region_to) (slice_region's).
  bool slice = false;
  std::uint64_t slice_start = 0, slice_count = 0, slice_end = 0;
  std::uint64_t region_from = 0, region_to = 0;
  bool slice_checked = false;

  state(const blake3::digest& h, read_at_function t, read_at_function d, bool is_outboard,
        unsigned group)
      : hash(h), tree(std::move(t)), data(std::move(d)), outboard(is_outboard), group_log(group) {}

  // The tree's shape from the header, read once (its length not yet trusted).
  const ib::geometry& geometry() {
    if (!shape) {
      std::array<std::byte, header_size> header;
      const std::size_t n = read_fully(tree, 0, header);
      if (n < header.size()) ib::fail(errc::truncated, n);
      shape.emplace(ib::read_header(header.data()), group_log);
      if (slice) {
        std::tie(region_from, region_to) =
            ib::slice_region(shape->content_len, slice_start, slice_count);
      }
    }
    return *shape;
  }

  // The bytes of the subtree of len input bytes at offset where it is stored: all of them in an
  // encoding or outboard; in a slice, the nodes of its subtrees that meet the region only.
  std::uint64_t stored_size(std::uint64_t offset, std::uint64_t len) const {
    const ib::geometry& g = *shape;
    if (!slice) return g.subtree_size(len, outboard);
    if (offset + len <= region_from || offset >= region_to) return 0;
    if (g.is_leaf(len) || (offset >= region_from && offset + len <= region_to)) {
      return g.subtree_size(len, false);
    }
    const std::uint64_t left = ib::geometry::left_len(len);
    return parent_size + stored_size(offset, left) + stored_size(offset + left, len - left);
  }

  bool holds_end() { return !slice || region_to >= geometry().content_len; }

  // Checks the subtree that holds input byte p (p < the length, or 0 for an empty input) and
  // makes its bytes `decoded`: down the path from the deepest node that holds p, each parent
  // read and checked once, to a leaf or a subtree of at most batch_len bytes.
  void fill(std::uint64_t p) {
    const ib::geometry& g = geometry();
    if (path.empty()) {
      path_node root{0, g.content_len, header_size, {}, true};
      std::copy_n(hash.data(), root.cv.size(), root.cv.begin());
      path.push_back(root);
    }
    while (path.size() > 1 && !path.back().holds(p)) path.pop_back();
    for (;;) {
      path_node& top = path.back();
      // On a pool, a subtree read from its start is decoded whole: it checks no node before p
      // that one batch after another would not check before handing out p.
      if (g.is_leaf(top.len) || top.len <= batch_len ||
          (pool != nullptr && top.len <= pool_batch_len && p == top.offset)) {
        return decode(top);
      }
      if (!top.children_read) {
        std::array<std::byte, parent_size> parent;
        if (read_fully(tree, top.at, parent) < parent.size()) ib::fail(errc::truncated, top.at);
        if (ib::parent_cv(parent.data(), top.is_root) != top.cv) {
          ib::fail(errc::hash_mismatch, top.at);
        }
        std::memcpy(top.left.data(), parent.data(), top.left.size());
        std::memcpy(top.right.data(), parent.data() + top.left.size(), top.right.size());
        top.children_read = true;
      }
      const std::uint64_t left = ib::geometry::left_len(top.len);
      const path_node child =
          p - top.offset < left
              ? path_node{top.offset, left, top.at + parent_size, top.left, false}
              : path_node{top.offset + left, top.len - left,
                          top.at + parent_size + stored_size(top.offset, left), top.right, false};
      path.push_back(child);
    }
  }

  void decode(const path_node& node) {
    const ib::geometry& g = geometry();
    read_growing(tree, node.at, stored_size(node.offset, node.len), region);
    if (outboard) read_growing(data, node.offset, node.len, data_region);
    const ib::decoder::source source{.tree = region,
                                     .data = data_region,
                                     .outboard = outboard,
                                     .slice = slice,
                                     .tree_base = node.at,
                                     .data_base = node.offset};
    const std::uint64_t end = node.offset + node.len;
    // The input bytes decoded: the subtree's, those a slice holds of it.
    const std::uint64_t from = slice ? std::max(node.offset, region_from) : node.offset;
    const std::uint64_t to = slice ? std::min(end, region_to) : end;
    failure_after_decoded = nullptr;
    scratch.clear();
    // On the pool only where every byte of the subtree was read (else the one-thread decoder
    // names where they end).
    const bool whole = from == node.offset && to == end &&
                       region.size() == g.subtree_size(node.len, outboard) &&
                       (!outboard || data_region.size() == node.len);
    try {
      if (pool != nullptr && whole && node.len > batch_len) {
        scratch.resize(static_cast<std::size_t>(node.len));
        ib::decode_on_pool(source, g, node.offset, node.len, node.at, node.cv, node.is_root,
                           scratch.data(), node.offset, *pool,
                           std::max(batch_len, node.len / (2 * pool->size())));
      } else {
        ib::decoder(source, g, from, to, from, to, scratch)
            .run_subtree(node.offset, node.len, node.at, node.cv, node.is_root);
      }
    } catch (const error&) {
      // Node by node again, so that the leaves before the failing node are handed out first,
      // as Bao's own decoder hands them out.
      scratch.clear();
      try {
        ib::decoder(source, g, from, to, from, to, scratch, false)
            .run_subtree(node.offset, node.len, node.at, node.cv, node.is_root);
      } catch (const error&) {
        failure_after_decoded = std::current_exception();
      }
      if (!failure_after_decoded) throw;
    }
    decoded.swap(scratch);
    decoded_at = from;
    slice_checked = true;
    if (!failure_after_decoded && to >= g.content_len) length_checked = true;
  }

  // At a slice's end: where no read checked a leaf of it (a count of 0), the leaf at its
  // start, as decode_slice checks it.
  void check_slice() {
    if (slice_checked) return;
    fill(region_from);
    if (failure_after_decoded) std::rethrow_exception(failure_after_decoded);
  }

  // Whether position is past the checked bytes of `decoded`, at the failure after them.
  void throw_failure_at(std::uint64_t p) const {
    if (failure_after_decoded && p >= decoded_at && p - decoded_at >= decoded.size()) {
      std::rethrow_exception(failure_after_decoded);
    }
  }
};

reader::reader(const blake3::digest& hash, read_at_function encoded, unsigned group_log)
    : state_(std::make_unique<state>(hash, std::move(encoded), nullptr, false, group_log)) {}

reader::reader(const blake3::digest& hash, read_at_function outboard, read_at_function data,
               unsigned group_log)
    : state_(std::make_unique<state>(hash, std::move(outboard), std::move(data), true, group_log)) {
}

reader reader::over_slice(const blake3::digest& hash, read_at_function slice, std::uint64_t start,
                          std::uint64_t count, unsigned group_log) {
  auto s = std::make_unique<state>(hash, std::move(slice), nullptr, false, group_log);
  s->slice = true;
  s->slice_start = start;
  s->slice_count = count;
  s->slice_end = count > ~start ? ~std::uint64_t{0} : start + count;
  s->position = start;
  return reader(std::move(s));
}

reader::reader(std::unique_ptr<state> s) noexcept : state_(std::move(s)) {}

reader::reader(reader&&) noexcept = default;
reader& reader::operator=(reader&&) noexcept = default;
reader::~reader() = default;

std::size_t reader::read(std::span<std::byte> out) {
  state& s = *state_;
  if (s.pending) std::rethrow_exception(std::exchange(s.pending, nullptr));
  std::size_t done = 0;
  try {
    while (done < out.size()) {
      if (s.slice && s.position < s.slice_start) {
        throw std::out_of_range("fastblake::bao: a position before the slice's start");
      }
      if (s.slice && s.position >= s.slice_end) {
        s.geometry();
        s.check_slice();
        break;
      }
      if (s.position >= s.geometry().content_len) {
        length();
        break;
      }
      if (s.position < s.decoded_at || s.position - s.decoded_at >= s.decoded.size()) {
        s.throw_failure_at(s.position);
        s.fill(s.position);
        s.throw_failure_at(s.position);
      }
      const auto from = static_cast<std::size_t>(s.position - s.decoded_at);
      const std::size_t n = std::min(out.size() - done, s.decoded.size() - from);
      std::copy_n(s.decoded.data() + from, n, out.data() + done);
      done += n;
      s.position += n;
    }
  } catch (...) {
    // The bytes checked before the failure are the caller's; the next read throws.
    if (done == 0) throw;
    s.pending = std::current_exception();
  }
  return done;
}

void reader::seek(std::uint64_t position) noexcept {
  state_->pending = nullptr;
  state_->position = position;
}

std::uint64_t reader::position() const noexcept { return state_->position; }

void reader::use_pool(thread_pool& pool) noexcept {
  state_->pool = pool.size() > 1 ? &pool : nullptr;
}

std::uint64_t reader::unchecked_length() { return state_->geometry().content_len; }

std::uint64_t reader::length() {
  state& s = *state_;
  const std::uint64_t len = s.geometry().content_len;
  if (!s.holds_end()) {
    throw std::out_of_range("fastblake::bao: the slice does not hold the input's end");
  }
  if (!s.length_checked) {
    const std::uint64_t last = len == 0 ? 0 : len - 1;
    s.fill(last);
    s.throw_failure_at(last);
    // (The last subtree failed before its last byte.)
    if (!s.length_checked && s.failure_after_decoded) {
      std::rethrow_exception(s.failure_after_decoded);
    }
  }
  return len;
}

}  // namespace fastblake::bao
