// Hexadecimal text for digests.
#include <ostream>

#include <fastblake/blake3.hpp>

namespace fastblake::blake3 {

std::string digest::to_hex() const { return fastblake::detail::to_hex(bytes_.data(), out_size); }

std::optional<digest> digest::from_hex(std::string_view hex) noexcept {
  bytes_type bytes;
  if (!fastblake::detail::from_hex(hex, bytes.data(), out_size)) return std::nullopt;
  return digest(bytes);
}

std::ostream& operator<<(std::ostream& os, const digest& d) { return os << d.to_hex(); }

}  // namespace fastblake::blake3
