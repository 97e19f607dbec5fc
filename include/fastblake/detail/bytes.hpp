// Byte helpers behind the digests of both families and the tools. Not part of the API.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <fastblake/config.hpp>

namespace fastblake::detail {

/// Compares n bytes in time independent of their contents.
FASTBLAKE_API bool constant_time_equal(const std::uint8_t* a, const std::uint8_t* b,
                                       std::size_t n) noexcept;

/// n bytes as 2n lowercase hex digits, into out (room for 2n characters).
FASTBLAKE_API void write_hex(const std::uint8_t* bytes, std::size_t n, char* out) noexcept;
/// n bytes as 2n lowercase hex digits.
FASTBLAKE_API std::string to_hex(const std::uint8_t* bytes, std::size_t n);

/// The value of a hex digit (either case), or -1.
constexpr int hex_digit_value(char c) noexcept {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/// Decodes exactly 2n hex digits (either case) into out; false, with out partly written, on
/// anything else.
FASTBLAKE_API bool from_hex(std::string_view hex, std::uint8_t* out, std::size_t n) noexcept;

}  // namespace fastblake::detail
