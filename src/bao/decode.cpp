// Decoding Bao encodings and slices in memory: every node is checked against the chaining value
// its parent gave for it (the root against the hash) before anything under it is used.
#include <algorithm>
#include <stdexcept>

#include "bao/decoder.hpp"

namespace fastblake::internal::bao {

// The subtree of len bytes at `offset`, its nodes from `at`, checked into out, which holds
// input bytes from out_base on: the
// parents above pieces of `piece` bytes here, top-down, and the pieces on the pool's threads,
// each by a decoder of its own. Where both halves fail, pool.join rethrows the left one's
// error: the node the one-thread decoder, going in pre-order, would name.
void decode_on_pool(const decoder::source& src, const geometry& g, std::uint64_t offset,
                    std::uint64_t len, std::uint64_t at, const cv_bytes& expected, bool is_root,
                    std::byte* out, std::uint64_t out_base, fastblake::thread_pool& pool,
                    std::uint64_t piece, bool around_cache) {
  if (len <= piece || g.is_leaf(len)) {
    decoder(src, g, offset, offset + len, offset, offset + len,
            sink(out + (offset - out_base), around_cache))
        .run_subtree(offset, len, at, expected, is_root);
    return;
  }
  const std::byte* parent = src.tree.data() + (at - src.tree_base);
  if (parent_cv(parent, is_root) != expected) fail(errc::hash_mismatch, at);
  cv_bytes left_cv, right_cv;
  std::memcpy(left_cv.data(), parent, left_cv.size());
  std::memcpy(right_cv.data(), parent + left_cv.size(), right_cv.size());
  const std::uint64_t left = geometry::left_len(len);
  const std::uint64_t right_at = at + parent_size + g.subtree_size(left, src.outboard);
  pool.join(
      [&] {
        decode_on_pool(src, g, offset, left, at + parent_size, left_cv, false, out, out_base, pool,
                       piece, around_cache);
      },
      [&] {
        decode_on_pool(src, g, offset + left, len - left, right_at, right_cv, false, out, out_base,
                       pool, piece, around_cache);
      });
}

bool decoder::on_pool(std::uint64_t offset, std::uint64_t len, const cv_bytes& expected) {
  const std::uint64_t size = g_.subtree_size(len, src_.outboard);
  if (!holds(src_.tree, src_.tree_base, at_, size) ||
      (src_.outboard && !holds(src_.data, src_.data_base, offset, len))) {
    return false;
  }
  std::byte* to = out_.extend(static_cast<std::size_t>(len));
  const std::uint64_t piece =
      std::max<std::uint64_t>(subtree_levels::max_len, len / (2 * pool_->size()));
  decode_on_pool(src_, g_, offset, len, at_, expected, false, to, offset, *pool_, piece);
  at_ += size;
  return true;
}

namespace {

std::uint64_t decode_into(const fastblake::blake3::digest& hash, const decoder::source& src,
                          std::span<std::byte> out, unsigned group_log,
                          fastblake::thread_pool* pool, bool automatic);

// Whether the bytes given hold the whole encoding of content_len bytes (the input too, beside
// an outboard): only then may the header size an output, or the work be split.
bool holds_whole_encoding(const decoder::source& src, const geometry& g,
                          std::uint64_t content_len) {
  return src.tree.size() - header_size >= g.subtree_size(content_len, src.outboard) &&
         (!src.outboard || src.data.size() >= content_len);
}

std::vector<std::byte> decode_any(const fastblake::blake3::digest& hash, const decoder::source& src,
                                  std::uint64_t start, std::uint64_t count, bool whole,
                                  unsigned group_log, fastblake::thread_pool* slice_pool = nullptr,
                                  bool automatic = true) {
  if (src.tree.size() < header_size) fail(errc::truncated, src.tree.size());
  const std::uint64_t content_len = read_header(src.tree.data());
  const geometry g(content_len, group_log);
  std::vector<std::byte> out;
  // Room for the output at once, but never more than the bytes given hold: the header is not
  // to be trusted with an allocation.
  const std::uint64_t given = src.outboard ? src.data.size() : src.tree.size();
  out.reserve(
      static_cast<std::size_t>(std::min({content_len, given, whole ? content_len : count})));
  if (whole && holds_whole_encoding(src, g, content_len) && content_len > subtree_levels::max_len) {
    // Every byte is there, so the header may size the output: the threads write into it.
    out.resize(static_cast<std::size_t>(content_len));
    decode_into(hash, src, out, group_log, nullptr, true);
  } else if (whole) {
    decoder(src, g, 0, content_len, 0, content_len, out).run(hash);
  } else {
    const auto [from, to] = slice_region(content_len, start, count);
    const std::uint64_t want_to = count > ~start ? ~std::uint64_t{0} : start + count;
    decoder d(src, g, from, to, start, want_to, out);
    // The pool hash() would take for the bytes wanted (given bytes, not the header, size it).
    if (automatic) {
      slice_pool = k3::tree::automatic_input_pool(
          static_cast<std::size_t>(std::min<std::uint64_t>({count, content_len, src.tree.size()})));
    }
    if (slice_pool != nullptr && slice_pool->size() > 1) d.use_pool(*slice_pool);
    d.run(hash);
  }
  return out;
}

// decode() into a caller's buffer, on `pool` (or the default pool where hash() would take it,
// when automatic) once the bytes given hold the whole encoding the header describes; else on
// this thread, where the decoder names the place the bytes end.
std::uint64_t decode_into(const fastblake::blake3::digest& hash, const decoder::source& src,
                          std::span<std::byte> out, unsigned group_log,
                          fastblake::thread_pool* pool, bool automatic) {
  if (src.tree.size() < header_size) fail(errc::truncated, src.tree.size());
  const std::uint64_t content_len = read_header(src.tree.data());
  const geometry g(content_len, group_log);
  if (out.size() < content_len) {
    throw std::length_error("fastblake::bao: the output is smaller than the encoded input");
  }
  if (automatic)
    pool = k3::tree::automatic_input_pool(
        static_cast<std::size_t>(std::min<std::uint64_t>(content_len, ~std::size_t{0})));
  const bool whole = holds_whole_encoding(src, g, content_len);
  const bool around_cache = content_len >= around_cache_from;
  cv_bytes root;
  std::copy_n(hash.data(), root.size(), root.begin());
  if (pool != nullptr && pool->size() > 1 && whole && content_len > subtree_levels::max_len) {
    const std::uint64_t piece =
        std::max<std::uint64_t>(subtree_levels::max_len, content_len / (2 * pool->size()));
    decode_on_pool(src, g, 0, content_len, header_size, root, true, out.data(), 0, *pool, piece,
                   around_cache);
  } else {
    decoder(src, g, 0, content_len, 0, content_len, sink(out.data(), around_cache)).run(hash);
  }
  return content_len;
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

std::uint64_t decode(const blake3::digest& hash, std::span<const std::byte> encoded,
                     std::span<std::byte> out, unsigned group_log) {
  return internal::bao::decode_into(hash, decoder::source{encoded, {}, false, false}, out,
                                    group_log, nullptr, true);
}

std::uint64_t decode_outboard(const blake3::digest& hash, std::span<const std::byte> outboard,
                              std::span<const std::byte> data, std::span<std::byte> out,
                              unsigned group_log) {
  return internal::bao::decode_into(hash, decoder::source{outboard, data, true, false}, out,
                                    group_log, nullptr, true);
}

std::uint64_t decode(const blake3::digest& hash, std::span<const std::byte> encoded,
                     std::span<std::byte> out, thread_pool& pool, unsigned group_log) {
  return internal::bao::decode_into(hash, decoder::source{encoded, {}, false, false}, out,
                                    group_log, &pool, false);
}

std::uint64_t decode_outboard(const blake3::digest& hash, std::span<const std::byte> outboard,
                              std::span<const std::byte> data, std::span<std::byte> out,
                              thread_pool& pool, unsigned group_log) {
  return internal::bao::decode_into(hash, decoder::source{outboard, data, true, false}, out,
                                    group_log, &pool, false);
}

std::vector<std::byte> decode_slice(const blake3::digest& hash, std::span<const std::byte> slice,
                                    std::uint64_t start, std::uint64_t count, unsigned group_log) {
  return internal::bao::decode_any(hash, decoder::source{slice, {}, false, true}, start, count,
                                   false, group_log);
}

std::vector<std::byte> decode_slice(const blake3::digest& hash, std::span<const std::byte> slice,
                                    std::uint64_t start, std::uint64_t count, thread_pool& pool,
                                    unsigned group_log) {
  return internal::bao::decode_any(hash, decoder::source{slice, {}, false, true}, start, count,
                                   false, group_log, &pool, false);
}

}  // namespace fastblake::bao
