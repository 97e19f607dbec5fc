// How many threads the tools start for a count given on their command line.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <system_error>
#include <thread>

#include <fastblake/thread_pool.hpp>

namespace tools {

/// A thread or job count is a maximum: more than four threads per CPU (at least 64, at most
/// 1024) only costs memory, and a count near 2^64 must neither start that many threads nor
/// overflow a product.
inline std::size_t usable_threads(std::uint64_t asked) {
  const std::uint64_t cpus = std::max(1u, std::thread::hardware_concurrency());
  const std::uint64_t cap = std::clamp<std::uint64_t>(4 * cpus, 64, 1024);
  return static_cast<std::size_t>(std::min(asked, cap));
}

/// A pool of `threads` threads, or of as many as the system gives (halving down to the calling
/// thread alone): a thread that cannot be had (under a small RLIMIT_AS, or a limit on
/// processes) slows the work, and need not stop it.
inline std::unique_ptr<fastblake::thread_pool> pool_of_at_most(std::size_t threads) {
  for (std::size_t n = std::max<std::size_t>(threads, 1);; n = std::max<std::size_t>(n / 2, 1)) {
    try {
      return std::make_unique<fastblake::thread_pool>(n);
    } catch (const std::system_error&) {
      if (n == 1) throw;
    }
  }
}

}  // namespace tools
