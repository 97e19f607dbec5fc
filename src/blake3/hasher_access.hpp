// The library's own way into BLAKE3's hasher and mode (their friend detail::internal_access),
// for the tree code and the file API's windows read in parts. Nothing outside src/blake3/ and
// src/file/blake3_file.cpp includes this; the C interface and the accelerators use only the
// public and hazmat API.
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include <fastblake/blake3.hpp>
#include <fastblake/thread_pool.hpp>

namespace fastblake::blake3::detail {

struct internal_access {
  static hazmat::mode make_mode(const std::array<std::uint32_t, 8>& key_words,
                                std::uint8_t flags) noexcept {
    return hazmat::mode(key_words, flags);
  }
  static hazmat::mode mode_of(const hasher& h) noexcept {
    return hazmat::mode(h.key_words_, h.chunk_.flags);
  }
  /// hasher::update_parallel for the automatic functions: may offload.
  static void update_automatic(hasher& h, std::span<const std::byte> input, thread_pool* pool) {
    h.update_with(input, pool, true);
  }
  /// The largest power of two of at most `most` bytes, two chunks or more, that h's next bytes
  /// can be as one subtree of its tree (h holds no partial chunk and is at a multiple of it,
  /// and may take that much more), and where that subtree starts in the whole input; {0, 0}
  /// if none.
  struct subtree_place {
    std::uint64_t size;
    std::uint64_t start;
  };
  static subtree_place next_subtree(const hasher& h, std::uint64_t most) noexcept;
  /// Adds to h the subtree that next_subtree(h, size) placed, given its top node's children.
  static void push_subtree(hasher& h, const hazmat::chaining_value& left,
                           const hazmat::chaining_value& right, std::uint64_t size) noexcept;
};

}  // namespace fastblake::blake3::detail
