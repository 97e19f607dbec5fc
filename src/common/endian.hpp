// Little-endian word loads and stores: BLAKE2 and BLAKE3 read and write words little-endian
// whatever the host's byte order.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace fastblake::internal {

constexpr std::uint32_t byteswap32(std::uint32_t w) noexcept {
  return (w >> 24) | ((w >> 8) & 0xff00) | ((w << 8) & 0xff0000) | (w << 24);
}

inline std::uint32_t load_le32(const std::uint8_t* p) noexcept {
  std::uint32_t w;
  std::memcpy(&w, p, sizeof w);
  if constexpr (std::endian::native == std::endian::big) w = byteswap32(w);
  return w;
}

inline void store_le32(std::uint8_t* p, std::uint32_t w) noexcept {
  if constexpr (std::endian::native == std::endian::big) w = byteswap32(w);
  std::memcpy(p, &w, sizeof w);
}

constexpr std::uint64_t byteswap64(std::uint64_t w) noexcept {
  return (std::uint64_t{byteswap32(static_cast<std::uint32_t>(w))} << 32) |
         byteswap32(static_cast<std::uint32_t>(w >> 32));
}

inline std::uint64_t load_le64(const std::uint8_t* p) noexcept {
  std::uint64_t w;
  std::memcpy(&w, p, sizeof w);
  if constexpr (std::endian::native == std::endian::big) w = byteswap64(w);
  return w;
}

inline void store_le64(std::uint8_t* p, std::uint64_t w) noexcept {
  if constexpr (std::endian::native == std::endian::big) w = byteswap64(w);
  std::memcpy(p, &w, sizeof w);
}

inline void load_le32_words(const std::uint8_t* bytes, std::uint32_t* words,
                            std::size_t n) noexcept {
  if constexpr (std::endian::native == std::endian::little) {
    std::memcpy(words, bytes, n * 4);
  } else {
    for (std::size_t i = 0; i < n; ++i) words[i] = load_le32(bytes + 4 * i);
  }
}

inline void store_le32_words(const std::uint32_t* words, std::uint8_t* bytes,
                             std::size_t n) noexcept {
  if constexpr (std::endian::native == std::endian::little) {
    std::memcpy(bytes, words, n * 4);
  } else {
    for (std::size_t i = 0; i < n; ++i) store_le32(bytes + 4 * i, words[i]);
  }
}

}  // namespace fastblake::internal
