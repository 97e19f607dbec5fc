// Byte helpers (fastblake/detail/bytes.hpp).
#include <fastblake/detail/bytes.hpp>

namespace fastblake::detail {

bool constant_time_equal(const std::uint8_t* a, const std::uint8_t* b, std::size_t n) noexcept {
  std::uint8_t difference = 0;
  for (std::size_t i = 0; i < n; ++i) difference |= static_cast<std::uint8_t>(a[i] ^ b[i]);
  // Through a volatile, so that the compiler cannot stop at the first difference.
  volatile std::uint8_t result = difference;
  return result == 0;
}

void write_hex(const std::uint8_t* bytes, std::size_t n, char* out) noexcept {
  static constexpr char digits[] = "0123456789abcdef";
  for (std::size_t i = 0; i < n; ++i) {
    out[2 * i] = digits[bytes[i] >> 4];
    out[2 * i + 1] = digits[bytes[i] & 15];
  }
}

std::string to_hex(const std::uint8_t* bytes, std::size_t n) {
  std::string hex(2 * n, '\0');
  write_hex(bytes, n, hex.data());
  return hex;
}

bool from_hex(std::string_view hex, std::uint8_t* out, std::size_t n) noexcept {
  if (hex.size() != 2 * n) return false;
  for (std::size_t i = 0; i < n; ++i) {
    const int high = hex_digit_value(hex[2 * i]);
    const int low = hex_digit_value(hex[2 * i + 1]);
    if (high < 0 || low < 0) return false;
    out[i] = static_cast<std::uint8_t>(high << 4 | low);
  }
  return true;
}

}  // namespace fastblake::detail
