// Shared by the benchmark sources of fastblake-bench.
#pragma once

#include <cstddef>
#include <cstdlib>
#include <memory>
#include <span>

namespace fastblake::bench {

/// One buffer for every row, 64-byte aligned, filled with a fixed pattern; `size` up to 1 GiB.
inline std::span<const std::byte> input(std::size_t size) {
  static const std::unique_ptr<std::byte[], decltype(&std::free)> buffer = [] {
    constexpr std::size_t capacity = 1u << 30;
    auto* p = static_cast<std::byte*>(std::aligned_alloc(64, capacity));
    for (std::size_t i = 0; i < capacity; ++i) p[i] = static_cast<std::byte>(i * 131 % 251);
    return std::unique_ptr<std::byte[], decltype(&std::free)>(p, &std::free);
  }();
  return {buffer.get(), size};
}

/// Registers the BLAKE2 rows (blake2_bench.cpp).
void register_blake2();

}  // namespace fastblake::bench
