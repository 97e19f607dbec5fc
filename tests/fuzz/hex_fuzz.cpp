// Hex parsing under a fuzzer: blake3::digest::from_hex accepts exactly 64 hexadecimal digits of
// either case, decodes them as a plain loop does, and to_hex gives them back in lowercase.
#include <cstdint>
#include <string>
#include <string_view>

#include <fastblake/blake3.hpp>

#include "fuzz_check.hpp"

namespace {

int digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto parsed = fastblake::blake3::digest::from_hex(text);
  bool valid = text.size() == 64;
  fastblake::blake3::digest::bytes_type want{};
  for (std::size_t i = 0; valid && i < 32; ++i) {
    const int h = digit(text[2 * i]), l = digit(text[2 * i + 1]);
    valid = h >= 0 && l >= 0;
    if (valid) want[i] = static_cast<std::uint8_t>(16 * h + l);
  }
  FUZZ_CHECK(parsed.has_value() == valid);
  if (!valid) return 0;
  FUZZ_CHECK(parsed->bytes() == want);
  std::string lower(text);
  for (char& c : lower) {
    if (c >= 'A' && c <= 'F') c = static_cast<char>(c - 'A' + 'a');
  }
  FUZZ_CHECK(parsed->to_hex() == lower);
  return 0;
}
