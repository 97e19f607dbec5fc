// The official BLAKE3 test vectors (tests/vectors/blake3_vectors.txt, made with the official
// b3sum), checked one-shot, with one update, byte by byte and at random split points, under
// every kernel configuration.
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <fastblake/blake3.hpp>

#include "kernel_fixture.hpp"
#include "test_support.hpp"

namespace fastblake::test {
namespace {

namespace b3 = fastblake::blake3;

constexpr std::string_view vector_key = "whats the Elvish word for friend";
constexpr std::string_view vector_context = "BLAKE3 2019-12-27 16:29:52 test vectors context";
constexpr std::size_t vector_out_len = 131;

struct test_vector {
  std::size_t input_len;
  std::string hash, keyed_hash, derive_key;
};

std::vector<test_vector> load_vectors() {
  std::ifstream in(FASTBLAKE_BLAKE3_VECTORS);
  std::vector<test_vector> vectors;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    test_vector v;
    fields >> v.input_len >> v.hash >> v.keyed_hash >> v.derive_key;
    vectors.push_back(v);
  }
  return vectors;
}

const std::vector<test_vector>& vectors() {
  static const std::vector<test_vector> v = load_vectors();
  return v;
}

b3::key_type vector_key_bytes() {
  b3::key_type key;
  std::copy(vector_key.begin(), vector_key.end(), key.begin());
  return key;
}

// The extended output of h, read three ways: finalize(span), and an output reader in one read
// and in uneven pieces. All three must agree; the first is returned.
std::string output_of(const b3::hasher& h) {
  std::vector<std::byte> whole(vector_out_len), pieces(vector_out_len);
  h.finalize(whole);
  b3::output_reader reader = h.finalize_xof();
  std::size_t at = 0;
  for (std::size_t step : {1u, 63u, 64u, 3u}) {
    reader.fill(std::span(pieces).subspan(at, step));
    at += step;
  }
  EXPECT_EQ(reader.position(), at);
  std::vector<std::byte> one_read(vector_out_len);
  b3::output_reader again = h.finalize_xof();
  again.fill(one_read);
  EXPECT_EQ(to_hex(one_read), to_hex(whole));
  EXPECT_EQ(to_hex(std::span(pieces).first(at)), to_hex(std::span(whole).first(at)));
  EXPECT_EQ(h.finalize().to_hex(), to_hex(std::span(whole).first(b3::out_size)));
  return to_hex(whole);
}

// Every way of feeding input to a fresh copy of `initial` must give `expected`.
void check_streaming(const b3::hasher& initial, std::span<const std::byte> input,
                     const std::string& expected) {
  b3::hasher one = initial;
  one.update(input);
  EXPECT_EQ(one.count(), input.size());
  EXPECT_EQ(output_of(one), expected) << "one update";

  b3::hasher bytewise = initial;
  for (std::byte b : input) bytewise.update(std::span(&b, 1));
  EXPECT_EQ(output_of(bytewise), expected) << "byte by byte";

  random_source rng(test_seed() ^ input.size());
  b3::hasher pieces = initial;
  update_in_pieces(pieces, input, rng.split_points(input.size()));
  EXPECT_EQ(output_of(pieces), expected) << "random pieces";
}

class Blake3Vectors : public kernel_test {};

TEST_P(Blake3Vectors, FileIsComplete) {
  ASSERT_EQ(vectors().size(), 35u) << "could not read " << FASTBLAKE_BLAKE3_VECTORS;
  EXPECT_EQ(vectors().back().input_len, 102400u);
}

TEST_P(Blake3Vectors, Hash) {
  for (const test_vector& v : vectors()) {
    SCOPED_TRACE("input length " + std::to_string(v.input_len));
    const auto input = vector_input(v.input_len);
    EXPECT_EQ(b3::hash(input).to_hex(), v.hash.substr(0, 64));
    check_streaming(b3::hasher(), input, v.hash);
  }
}

TEST_P(Blake3Vectors, KeyedHash) {
  const b3::key_type key = vector_key_bytes();
  for (const test_vector& v : vectors()) {
    SCOPED_TRACE("input length " + std::to_string(v.input_len));
    const auto input = vector_input(v.input_len);
    EXPECT_EQ(b3::keyed_hash(key, input).to_hex(), v.keyed_hash.substr(0, 64));
    check_streaming(b3::hasher::keyed(key), input, v.keyed_hash);
  }
}

TEST_P(Blake3Vectors, DeriveKey) {
  for (const test_vector& v : vectors()) {
    SCOPED_TRACE("input length " + std::to_string(v.input_len));
    const auto input = vector_input(v.input_len);
    EXPECT_EQ(b3::derive_key(vector_context, input).to_hex(), v.derive_key.substr(0, 64));
    std::vector<std::byte> out(vector_out_len);
    b3::derive_key(vector_context, input, out);
    EXPECT_EQ(to_hex(out), v.derive_key);
    check_streaming(b3::hasher::derive_key(vector_context), input, v.derive_key);
  }
}

FASTBLAKE_INSTANTIATE_FOR_KERNELS(Blake3Vectors);

}  // namespace
}  // namespace fastblake::test
