// What the fuzz targets share: a check that names what failed, then aborts, so that libFuzzer
// keeps the input as a crash; and feeding a hash its input in pieces the fuzzer chose.
#pragma once

#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <vector>

#define FUZZ_CHECK(condition)                                                            \
  do {                                                                                   \
    if (!(condition)) {                                                                  \
      std::fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #condition); \
      std::abort();                                                                      \
    }                                                                                    \
  } while (0)

namespace fastblake::fuzz {

/// Up to max_count piece lengths of up to max_piece bytes each.
inline std::vector<std::size_t> consume_pieces(FuzzedDataProvider& in, int max_count,
                                               std::size_t max_piece) {
  std::vector<std::size_t> pieces(in.ConsumeIntegralInRange(0, max_count));
  for (auto& p : pieces) p = in.ConsumeIntegralInRange<std::size_t>(0, max_piece);
  return pieces;
}

/// Feeds `input` to s.update() in those pieces (cut short at the input's end), then the rest.
template <class State>
State& fed(State& s, std::span<const std::byte> input, const std::vector<std::size_t>& pieces) {
  std::size_t at = 0;
  for (std::size_t piece : pieces) {
    const std::size_t n = std::min(piece, input.size() - at);
    s.update(input.subspan(at, n));
    at += n;
  }
  s.update(input.subspan(at));
  return s;
}

}  // namespace fastblake::fuzz
