// The BLAKE3 message schedule (paper, section 2.2): the order in which each of the seven
// rounds reads the sixteen message words. Data only, shared by every kernel.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace fastblake::internal::blake3 {

using round_schedule = std::array<std::uint8_t, 16>;

// Round 0 reads the words in order; every later round applies the fixed permutation once more.
constexpr std::array<round_schedule, 7> make_message_schedule() {
  constexpr round_schedule permutation = {2, 6, 3, 10, 7, 0, 4, 13, 1, 11, 12, 5, 9, 14, 15, 8};
  std::array<round_schedule, 7> schedule{};
  for (std::uint8_t i = 0; i < 16; ++i) schedule[0][i] = i;
  for (std::size_t r = 1; r < 7; ++r)
    for (std::size_t i = 0; i < 16; ++i) schedule[r][i] = schedule[r - 1][permutation[i]];
  return schedule;
}

inline constexpr std::array<round_schedule, 7> message_schedule = make_message_schedule();

}  // namespace fastblake::internal::blake3
