// Decoding Bao encodings and slices in memory: every node is checked against the chaining value
// its parent gave for it (the root against the hash) before anything under it is used.
#include <algorithm>

#include "bao/decoder.hpp"

namespace fastblake::internal::bao {
namespace {

std::vector<std::byte> decode_any(const fastblake::blake3::digest& hash, const decoder::source& src,
                                  std::uint64_t start, std::uint64_t count, bool whole,
                                  unsigned group_log) {
  if (src.tree.size() < header_size) fail(errc::truncated, src.tree.size());
  const std::uint64_t content_len = read_header(src.tree.data());
  const geometry g(content_len, group_log);
  std::vector<std::byte> out;
  // Room for the output at once, but never more than the bytes given hold: the header is not
  // to be trusted with an allocation.
  const std::uint64_t given = src.outboard ? src.data.size() : src.tree.size();
  out.reserve(
      static_cast<std::size_t>(std::min({content_len, given, whole ? content_len : count})));
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
