// Bao's tree: its shape, and the chaining values of its nodes.
#include "bao/tree.hpp"

#if defined(__x86_64__)
#include <emmintrin.h>
#endif

#include <algorithm>
#include <string>

namespace fastblake::internal::bao {
namespace {

using k3::tree::key_words;

cv_bytes node_value(const k3::kernels& k, const k3::tree::output_node& node, bool is_root) {
  cv_bytes out;
  if (is_root) {
    const auto digest = k3::tree::root_digest(k, node);
    std::memcpy(out.data(), digest.data(), out.size());
  } else {
    k3::tree::node_chaining_value(k, node, out.data());
  }
  return out;
}

class bao_category : public std::error_category {
 public:
  const char* name() const noexcept override { return "bao"; }
  std::string message(int value) const override {
    switch (static_cast<errc>(value)) {
      case errc::hash_mismatch:
        return "a node of the encoding does not match the hash";
      case errc::truncated:
        return "the encoding ends before the node to be read";
      case errc::invalid_group:
        return "chunk groups larger than 2^32 chunks";
    }
    return "unknown Bao error";
  }
};

}  // namespace

const key_words& plain_key() noexcept {
  static const key_words key = [] {
    key_words k;
    std::memcpy(k.data(), k3::iv, sizeof k3::iv);
    return k;
  }();
  return key;
}

geometry::geometry(std::uint64_t content, unsigned group_log) : content_len(content) {
  if (group_log > fastblake::bao::max_group_log) fail(errc::invalid_group, 0);
  group_len = std::uint64_t{k3::chunk_len} << group_log;
}

void subtree_levels::hash(const std::byte* data, std::uint64_t len, std::uint64_t offset) noexcept {
  const k3::kernels& k = k3::active_kernels();
  const auto* bytes = reinterpret_cast<const std::uint8_t*>(data);
  const std::uint64_t counter = offset / k3::chunk_len;
  const auto whole = static_cast<std::size_t>(len / k3::chunk_len);
  std::uint8_t* level = storage_.data();
  k.hash_chunks(bytes, whole, plain_key().data(), counter, 0, level);
  std::size_t n = whole;
  if (const auto rest = static_cast<std::size_t>(len % k3::chunk_len); rest != 0) {
    auto state = k3::tree::make_chunk_state(plain_key(), counter + whole, 0);
    k3::tree::chunk_update(k, state, bytes + whole * k3::chunk_len, rest);
    k3::tree::node_chaining_value(k, k3::tree::chunk_output(state), level + n * k3::out_len);
    ++n;
  }
  level_at_[0] = 0;
  for (std::size_t j = 1; n > 1; ++j) {
    std::uint8_t* next = level + n * k3::out_len;
    const std::size_t pairs = n / 2;
    k.hash_parents(level, pairs, plain_key().data(), 0, next);
    if (n % 2 != 0)
      std::memcpy(next + pairs * k3::out_len, level + (n - 1) * k3::out_len, k3::out_len);
    level = next;
    n = pairs + n % 2;
    level_at_[j] = static_cast<std::size_t>(level - storage_.data());
  }
}

cv_bytes leaf_cv(const std::byte* data, std::uint64_t len, std::uint64_t offset, bool is_root) {
  const k3::kernels& k = k3::active_kernels();
  const auto* bytes = reinterpret_cast<const std::uint8_t*>(data);
  const std::uint64_t counter = offset / k3::chunk_len;
  if (len <= k3::chunk_len) {
    auto state = k3::tree::make_chunk_state(plain_key(), counter, 0);
    k3::tree::chunk_update(k, state, bytes, static_cast<std::size_t>(len));
    return node_value(k, k3::tree::chunk_output(state), is_root);
  }
  std::uint8_t children[k3::block_len];
  k3::tree::hash_subtree_to_children(k, bytes, static_cast<std::size_t>(len), plain_key(), counter,
                                     0, children, nullptr, false);
  return node_value(k, k3::tree::parent_output(children, plain_key(), 0), is_root);
}

cv_bytes parent_cv(const std::byte* children, bool is_root) {
  const k3::kernels& k = k3::active_kernels();
  return node_value(
      k, k3::tree::parent_output(reinterpret_cast<const std::uint8_t*>(children), plain_key(), 0),
      is_root);
}

std::uint64_t read_header(const std::byte* header) noexcept {
  std::uint64_t n = 0;
  for (std::size_t i = header_size; i-- > 0;)
    n = n << 8 | std::to_integer<std::uint64_t>(header[i]);
  return n;
}

void copy_around_cache(std::byte* to, const std::byte* from, std::size_t n) noexcept {
#if defined(__x86_64__)
  const std::size_t head =
      std::min(n, (64 - reinterpret_cast<std::uintptr_t>(to) % 64) % std::size_t{64});
  std::memcpy(to, from, head);
  std::size_t i = head;
  for (; i + 64 <= n; i += 64) {
    const auto* s = reinterpret_cast<const __m128i*>(from + i);
    auto* d = reinterpret_cast<__m128i*>(to + i);
    const __m128i a = _mm_loadu_si128(s), b = _mm_loadu_si128(s + 1), c = _mm_loadu_si128(s + 2),
                  e = _mm_loadu_si128(s + 3);
    _mm_stream_si128(d, a);
    _mm_stream_si128(d + 1, b);
    _mm_stream_si128(d + 2, c);
    _mm_stream_si128(d + 3, e);
  }
  std::memcpy(to + i, from + i, n - i);
  _mm_sfence();
#else
  std::memcpy(to, from, n);
#endif
}

void write_header(std::uint64_t content_len, std::byte* out) noexcept {
  for (std::size_t i = 0; i < header_size; ++i) out[i] = std::byte(content_len >> (8 * i));
}

void fail(errc e, std::uint64_t offset) { throw fastblake::bao::error(e, offset); }

}  // namespace fastblake::internal::bao

namespace fastblake::bao {

const std::error_category& category() noexcept {
  static const internal::bao::bao_category instance;
  return instance;
}

std::error_code make_error_code(errc e) noexcept { return {static_cast<int>(e), category()}; }

error::error(errc e, std::uint64_t offset)
    : std::system_error(make_error_code(e), "at byte " + std::to_string(offset)), offset_(offset) {}

}  // namespace fastblake::bao
