// Bao encodings (combined and outboard) of an input in memory, and slices cut from them.
#include <algorithm>
#include <limits>
#include <memory>
#include <mutex>
#include <new>
#include <stdexcept>

#include "bao/encoder.hpp"

namespace fastblake::internal::bao {
namespace {

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

fastblake::blake3::digest encode_into(std::span<const std::byte> input, std::span<std::byte> out,
                                      unsigned group_log, bool outboard, threads t) {
  const geometry g(input.size(), group_log);
  if (out.size() < header_size + g.subtree_size(input.size(), outboard)) {
    throw std::length_error("fastblake::bao: the output is smaller than the encoding");
  }
  write_header(input.size(), out.data());
  fastblake::thread_pool* pool = t.for_size(input.size());
  if (pool != nullptr && pool->size() < 2) pool = nullptr;
  encoder e(input, g, outboard, out.data(), 0, 0, pool,
            pool != nullptr ? piece_for(input.size(), *pool) : 0);
  if (input.size() >= around_cache_from) e.write_around_cache();
  return fastblake::blake3::digest(e.subtree(0, input.size(), header_size, true));
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
// encoding (tree) and its input (data), to out in order through a buffer of buffer_size bytes:
// a slice of any size in bounded memory. A subtree wholly inside [start, end) of a combined
// encoding is one run of its bytes, copied in reads of up to the buffer's size.
class slicer {
 public:
  static constexpr std::size_t buffer_size = std::size_t{1} << 20;

  slicer(const fastblake::bao::read_at_function& tree, const fastblake::bao::read_at_function* data,
         const geometry& g, std::uint64_t start, std::uint64_t end,
         const fastblake::bao::write_at_function& out)
      : tree_(tree), data_(data), g_(g), start_(start), end_(end), out_(out) {
    buffer_.reserve(buffer_size);
  }

  void subtree(std::uint64_t offset, std::uint64_t len, std::uint64_t at, bool is_root) {
    if (!is_root && (offset + len <= start_ || offset >= end_)) return;
    if (data_ == nullptr && (g_.is_leaf(len) || (offset >= start_ && offset + len <= end_))) {
      copy(tree_, at, g_.subtree_size(len, false));
      return;
    }
    if (g_.is_leaf(len)) {
      copy(*data_, offset, len);
      return;
    }
    copy(tree_, at, parent_size);
    const std::uint64_t left = geometry::left_len(len);
    subtree(offset, left, at + parent_size, false);
    subtree(offset + left, len - left, at + parent_size + g_.subtree_size(left, data_ != nullptr),
            false);
  }

  /// Writes what the buffer holds; returns the slice's size so far.
  std::uint64_t flush() {
    if (!buffer_.empty()) out_(written_, buffer_);
    written_ += buffer_.size();
    buffer_.clear();
    return written_;
  }

 private:
  void copy(const fastblake::bao::read_at_function& from, std::uint64_t at, std::uint64_t n) {
    while (n > 0) {
      if (buffer_.size() == buffer_size) flush();
      const std::size_t old_size = buffer_.size();
      const auto step =
          static_cast<std::size_t>(std::min<std::uint64_t>(n, buffer_size - old_size));
      buffer_.resize(old_size + step);
      const std::span<std::byte> into(buffer_.data() + old_size, step);
      std::size_t got = 0;
      while (got < step) {
        const std::size_t more = std::min(from(at + got, into.subspan(got)), step - got);
        if (more == 0) fail(errc::truncated, at + got);
        got += more;
      }
      at += step;
      n -= step;
    }
  }

  const fastblake::bao::read_at_function& tree_;
  const fastblake::bao::read_at_function* data_;
  const geometry& g_;
  std::uint64_t start_, end_;
  const fastblake::bao::write_at_function& out_;
  std::vector<std::byte> buffer_;
  std::uint64_t written_ = 0;
};

std::uint64_t slice_any(const fastblake::bao::read_at_function& tree,
                        const fastblake::bao::read_at_function* data, std::uint64_t start,
                        std::uint64_t count, const fastblake::bao::write_at_function& out,
                        unsigned group_log) {
  std::array<std::byte, header_size> header;
  std::size_t got = 0;
  while (got < header_size) {
    const std::size_t n = std::min(tree(got, std::span(header).subspan(got)), header_size - got);
    if (n == 0) fail(errc::truncated, got);
    got += n;
  }
  const std::uint64_t content_len = read_header(header.data());
  const geometry g(content_len, group_log);
  const auto [from, to] = slice_region(content_len, start, count);
  out(0, header);
  const fastblake::bao::write_at_function after_header = [&](std::uint64_t offset,
                                                             std::span<const std::byte> bytes) {
    out(header_size + offset, bytes);
  };
  slicer s(tree, data, g, from, to, after_header);
  s.subtree(0, content_len, header_size, true);
  return header_size + s.flush();
}

std::vector<std::byte> slice_any(const fastblake::bao::read_at_function& tree,
                                 const fastblake::bao::read_at_function* data, std::uint64_t start,
                                 std::uint64_t count, unsigned group_log) {
  std::vector<std::byte> out;
  slice_any(
      tree, data, start, count,
      [&](std::uint64_t, std::span<const std::byte> bytes) {
        out.insert(out.end(), bytes.begin(), bytes.end());
      },
      group_log);
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

namespace {
std::uint64_t size_of_encoding(std::uint64_t content_len, unsigned group_log, bool outboard) {
  const std::uint64_t tree = geometry(content_len, group_log).subtree_size(content_len, outboard);
  if (tree > ~std::uint64_t{0} - header_size) {
    throw std::overflow_error("fastblake::bao: the encoding's size is more than 2^64 - 1 bytes");
  }
  return header_size + tree;
}
}  // namespace

std::uint64_t encoded_size(std::uint64_t content_len, unsigned group_log) {
  return size_of_encoding(content_len, group_log, false);
}

std::uint64_t outboard_size(std::uint64_t content_len, unsigned group_log) {
  return size_of_encoding(content_len, group_log, true);
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

std::uint64_t extract_slice(const read_at_function& encoded, std::uint64_t start,
                            std::uint64_t count, const write_at_function& out, unsigned group_log) {
  return internal::bao::slice_any(encoded, nullptr, start, count, out, group_log);
}

std::uint64_t extract_slice_outboard(const read_at_function& outboard, const read_at_function& data,
                                     std::uint64_t start, std::uint64_t count,
                                     const write_at_function& out, unsigned group_log) {
  return internal::bao::slice_any(outboard, &data, start, count, out, group_log);
}

}  // namespace fastblake::bao
