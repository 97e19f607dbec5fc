// A consumer of the installed package (Conan's test package, and scripts/vcpkg's): BLAKE3 of
// "abc" through the C++ and the C interfaces, against its published value.
#include <fastblake/fastblake.h>
#include <fastblake/blake3.hpp>

#include <cstdint>
#include <cstdio>
#include <string>

namespace {

std::string hex(const unsigned char* bytes, std::size_t n) {
  static const char digits[] = "0123456789abcdef";
  std::string out;
  for (std::size_t i = 0; i < n; ++i) {
    out += digits[bytes[i] >> 4];
    out += digits[bytes[i] & 15];
  }
  return out;
}

}  // namespace

int main() {
  const std::string blake3_abc = "6437b3ac38465133ffb63b75273a8db548c558465d79db03fd359c6cd5bd9d85";
  const auto d = fastblake::blake3::hash("abc");
  const std::string cpp = hex(reinterpret_cast<const unsigned char*>(d.data()), d.size());
  std::uint8_t c_digest[32];
  fastblake_blake3_hash("abc", 3, c_digest);
  const std::string c = hex(c_digest, sizeof c_digest);
  std::printf("fastblake %s: BLAKE3(abc) = %s\n", FASTBLAKE_VERSION_STRING, cpp.c_str());
  return cpp == blake3_abc && c == blake3_abc ? 0 : 1;
}
