// How many threads the tools start for a count given on their command line.
#pragma once

#include <algorithm>
#include <cstdint>
#include <thread>

namespace tools {

/// A thread or job count is a maximum: more than four threads per CPU (at least 64, at most
/// 1024) only costs memory, and a count near 2^64 must neither start that many threads nor
/// overflow a product.
inline std::size_t usable_threads(std::uint64_t asked) {
  const std::uint64_t cpus = std::max(1u, std::thread::hardware_concurrency());
  const std::uint64_t cap = std::clamp<std::uint64_t>(4 * cpus, 64, 1024);
  return static_cast<std::size_t>(std::min(asked, cap));
}

}  // namespace tools
