// Hexadecimal text for digests.
#include <ostream>

#include <fastblake/blake3.hpp>

namespace fastblake::blake3 {
namespace {

constexpr char hex_digits[] = "0123456789abcdef";

int hex_value(char c) noexcept {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

std::string digest::to_hex() const {
  std::string hex(2 * out_size, '\0');
  for (std::size_t i = 0; i < out_size; ++i) {
    hex[2 * i] = hex_digits[bytes_[i] >> 4];
    hex[2 * i + 1] = hex_digits[bytes_[i] & 0xf];
  }
  return hex;
}

std::optional<digest> digest::from_hex(std::string_view hex) noexcept {
  if (hex.size() != 2 * out_size) return std::nullopt;
  bytes_type bytes;
  for (std::size_t i = 0; i < out_size; ++i) {
    const int hi = hex_value(hex[2 * i]);
    const int lo = hex_value(hex[2 * i + 1]);
    if (hi < 0 || lo < 0) return std::nullopt;
    bytes[i] = static_cast<std::uint8_t>(hi << 4 | lo);
  }
  return digest(bytes);
}

std::ostream& operator<<(std::ostream& os, const digest& d) { return os << d.to_hex(); }

}  // namespace fastblake::blake3
