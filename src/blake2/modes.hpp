// What the BLAKE2 modes (params.cpp, state.cpp, many.cpp, parallel.cpp, xof.cpp) share: word
// types and sizes, range checks with their messages, the kernel of a family, and the
// parameter block.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <stdexcept>
#include <string>

#include <fastblake/blake2.hpp>

#include "backend/backend.hpp"
#include "common/endian.hpp"
#include "kernels/blake2/kernels.hpp"

namespace fastblake::internal::blake2 {

using fastblake::blake2::family;
using fastblake::blake2::traits;

template <family F>
using word_t = typename traits<F>::word;
template <family F>
constexpr std::size_t block_size = traits<F>::block_size;
template <family F>
constexpr std::size_t word_size = sizeof(word_t<F>);

template <family F>
constexpr const char* family_name() {
  return F == family::b ? "blake2b" : "blake2s";
}

template <family F>
[[noreturn]] inline void out_of_range(const char* field, std::uint64_t low, std::uint64_t high,
                                      std::uint64_t value) {
  // Appends, not operator+ chains: GCC 12 warns falsely about those (-Wrestrict).
  std::string message = family_name<F>();
  message.append(": ").append(field).append(" must be ");
  if (low == high) {
    message.append(std::to_string(low));
  } else {
    message.append(std::to_string(low)).append(" to ").append(std::to_string(high));
  }
  message.append(", not ").append(std::to_string(value));
  throw std::invalid_argument(message);
}

template <family F>
inline void check_range(const char* field, std::uint64_t value, std::uint64_t low,
                        std::uint64_t high) {
  if (value < low || value > high) out_of_range<F>(field, low, high, value);
}

// Copies a byte string of at most N bytes into a zero-padded field.
template <family F, std::size_t N>
inline void set_field(std::array<std::uint8_t, N>& field, const char* name,
                      std::span<const std::byte> value) {
  if (value.size() > N) out_of_range<F>(name, 0, N, value.size());
  field.fill(0);
  if (!value.empty()) std::memcpy(field.data(), value.data(), value.size());
}

template <family F>
compress_fn<word_t<F>> compressor(const kernels& k) {
  if constexpr (F == family::b) {
    return k.compress_b;
  } else {
    return k.compress_s;
  }
}

template <family F>
inline word_t<F> load_word(const std::uint8_t* p) {
  if constexpr (F == family::b) {
    return fastblake::internal::load_le64(p);
  } else {
    return fastblake::internal::load_le32(p);
  }
}

template <family F>
inline void store_word(std::uint8_t* p, word_t<F> w) {
  if constexpr (F == family::b) {
    fastblake::internal::store_le64(p, w);
  } else {
    fastblake::internal::store_le32(p, w);
  }
}

template <family F>
constexpr const word_t<F>* initial_words() {
  if constexpr (F == family::b) {
    return iv_b;
  } else {
    return iv_s;
  }
}

// The fields of the parameter block, as both families lay them out.
struct block_fields {
  std::uint8_t digest_length;
  std::uint8_t key_length;
  std::uint8_t fanout;
  std::uint8_t depth;
  std::uint32_t leaf_length;
  // BLAKE2X keeps its output length in the node offset's upper bits.
  std::uint64_t node_offset;
  std::uint8_t node_depth;
  std::uint8_t inner_length;
  const std::uint8_t* salt;
  const std::uint8_t* personal;
};

// h = IV xor the parameter block (RFC 7693, section 2.5; the BLAKE2 paper, section 2.8).
template <family F>
inline void initial_state(const block_fields& p, word_t<F> h[8]) {
  constexpr std::size_t size = 8 * word_size<F>;
  std::uint8_t block[size] = {};
  block[0] = p.digest_length;
  block[1] = p.key_length;
  block[2] = p.fanout;
  block[3] = p.depth;
  fastblake::internal::store_le32(block + 4, p.leaf_length);
  if constexpr (F == family::b) {
    fastblake::internal::store_le64(block + 8, p.node_offset);
    block[16] = p.node_depth;
    block[17] = p.inner_length;
  } else {
    // Six bytes of node offset.
    for (int i = 0; i < 6; ++i) block[8 + i] = static_cast<std::uint8_t>(p.node_offset >> (8 * i));
    block[14] = p.node_depth;
    block[15] = p.inner_length;
  }
  std::memcpy(block + size / 2, p.salt, traits<F>::salt_length);
  std::memcpy(block + size / 2 + traits<F>::salt_length, p.personal, traits<F>::personal_length);
  for (int w = 0; w < 8; ++w) h[w] = initial_words<F>()[w] ^ load_word<F>(block + w * word_size<F>);
}

inline constexpr std::uint8_t zero_field[16] = {};

}  // namespace fastblake::internal::blake2
