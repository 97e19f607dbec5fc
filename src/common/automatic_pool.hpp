// When the automatic (pool-less) hashing functions use the default thread pool.
#pragma once

#include <cstddef>

#include <fastblake/thread_pool.hpp>

namespace fastblake::internal {

/// The default pool when `bytes` bytes of work (at least `threshold`) are worth spreading
/// across threads, else nullptr.
thread_pool* automatic_pool(std::size_t bytes, std::size_t threshold) noexcept;

}  // namespace fastblake::internal
