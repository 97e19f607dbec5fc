// Helpers shared by the Bao tests (bao_*_test.cpp): Bao's vector input and the lines of its
// vectors file, corruptions and cuts of encodings, the offset of the bao::error a decode must
// throw, and reads through a bao::reader.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <fstream>
#include <span>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include <fastblake/bao.hpp>
#include <fastblake/blake3.hpp>

#include "test_support.hpp"

namespace fastblake::test {

using byte_vector = std::vector<std::byte>;

// Bao's vector input: the little-endian 32-bit integers 1, 2, 3, ... cut to len bytes.
inline byte_vector bao_input(std::size_t len) {
  byte_vector out(len);
  for (std::size_t i = 0; i < len; ++i) {
    out[i] = std::byte(static_cast<std::uint32_t>(i / 4 + 1) >> (8 * (i % 4)));
  }
  return out;
}

inline std::vector<std::uint64_t> numbers(const std::string& list) {
  std::vector<std::uint64_t> out;
  if (list == "-") return out;
  std::istringstream in(list);
  std::string item;
  while (std::getline(in, item, ',')) out.push_back(std::stoull(item));
  return out;
}

inline blake3::digest digest_of(const std::string& hex) { return *blake3::digest::from_hex(hex); }

inline byte_vector flipped(byte_vector b, std::uint64_t at) {
  b[at] ^= std::byte{1};
  return b;
}

inline byte_vector tail_of(const byte_vector& input, std::uint64_t from, std::uint64_t count) {
  const std::uint64_t begin = std::min<std::uint64_t>(from, input.size());
  const std::uint64_t end =
      std::min<std::uint64_t>(input.size(), begin + std::min(count, input.size() - begin));
  return byte_vector(input.begin() + static_cast<std::ptrdiff_t>(begin),
                     input.begin() + static_cast<std::ptrdiff_t>(end));
}

// Each line of the vectors file whose first word is kind, split into words.
inline std::vector<std::vector<std::string>> vector_lines(std::string_view kind) {
  std::ifstream in(FASTBLAKE_BAO_VECTORS);
  std::vector<std::vector<std::string>> lines;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::vector<std::string> words;
    for (std::string w; fields >> w;) words.push_back(w);
    if (!words.empty() && words[0] == kind) lines.push_back(words);
  }
  return lines;
}

// Runs f, which must throw bao::error; returns its offset.
template <class F>
std::uint64_t bao_error_offset(F&& f) {
  try {
    f();
  } catch (const bao::error& e) {
    EXPECT_EQ(&e.code().category(), &bao::category());
    return e.offset();
  }
  ADD_FAILURE() << "no bao::error";
  return ~std::uint64_t{0};
}

// Reads everything from r in pieces of random sizes (1 to max_piece bytes).
inline byte_vector read_all(bao::reader& r, random_source& rng, std::size_t max_piece) {
  byte_vector out;
  for (;;) {
    byte_vector piece(1 + rng.below(max_piece));
    const std::size_t n = r.read(piece);
    if (n == 0) return out;
    out.insert(out.end(), piece.begin(), piece.begin() + static_cast<std::ptrdiff_t>(n));
  }
}

// Lengths around the reader's batches (256 KiB), the encoder's pieces (4 MiB) and chunk groups.
inline std::vector<std::size_t> streaming_lengths() {
  return {0,
          1,
          1023,
          1024,
          1025,
          4096,
          65537,
          262143,
          262144,
          262145,
          3 * 262144 + 7,
          (4u << 20) - 1,
          (4u << 20),
          (4u << 20) + 1,
          (9u << 20) + 1025};
}

}  // namespace fastblake::test
