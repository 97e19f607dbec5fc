// The digest type: hex text both ways, comparison, streaming.
#include <sstream>

#include <gtest/gtest.h>

#include <fastblake/blake3.hpp>

namespace fastblake::test {
namespace {

namespace b3 = fastblake::blake3;

constexpr std::string_view empty_hash =
    "af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262";

TEST(Digest, HexRoundTrip) {
  const b3::digest d = b3::hash(std::string_view());
  EXPECT_EQ(d.to_hex(), empty_hash);
  EXPECT_EQ(b3::digest::from_hex(empty_hash), d);
  std::string upper(empty_hash);
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  EXPECT_EQ(b3::digest::from_hex(upper), d);
  std::ostringstream os;
  os << d;
  EXPECT_EQ(os.str(), empty_hash);
}

TEST(Digest, FromHexRejectsAnythingElse) {
  const std::string good(empty_hash);
  EXPECT_EQ(b3::digest::from_hex(""), std::nullopt);
  EXPECT_EQ(b3::digest::from_hex(good.substr(0, 63)), std::nullopt);
  EXPECT_EQ(b3::digest::from_hex(good + "0"), std::nullopt);
  EXPECT_EQ(b3::digest::from_hex(good.substr(0, 62) + "0g"), std::nullopt);
  for (std::string_view prefix : {" ", "0x", "+"}) {
    std::string prefixed = good;
    prefixed.replace(0, prefix.size(), prefix);
    EXPECT_EQ(b3::digest::from_hex(prefixed), std::nullopt) << prefixed;
  }
  EXPECT_EQ(b3::digest::from_hex(std::string(64, '\0')), std::nullopt);
}

TEST(Digest, ComparesEveryByte) {
  const b3::digest d = b3::hash(std::string_view("abc"));
  for (std::size_t i = 0; i < b3::out_size; ++i) {
    b3::digest::bytes_type bytes = d.bytes();
    bytes[i] ^= 0x80;
    EXPECT_FALSE(b3::digest(bytes) == d) << i;
    EXPECT_TRUE(b3::digest(bytes) != d) << i;
  }
  EXPECT_EQ(b3::digest(d.bytes()), d);
  EXPECT_EQ(b3::digest(), b3::digest(b3::digest::bytes_type{}));
}

TEST(Digest, ByteViews) {
  const b3::digest d = b3::hash(std::string_view("abc"));
  EXPECT_EQ(d.size(), 32u);
  EXPECT_EQ(d.as_bytes().size(), 32u);
  EXPECT_EQ(static_cast<const void*>(d.as_bytes().data()), static_cast<const void*>(d.data()));
  EXPECT_EQ(d.data()[0], d.bytes()[0]);
}

}  // namespace
}  // namespace fastblake::test
