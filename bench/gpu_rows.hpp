// The gpu-* rows' inputs, shared by fastblake-bench (gpu_bench.cpp) and the device check's
// fastblake-gpu-bench (cuda/tests/check/), so that both time the same rows.
#pragma once

#include <cstddef>

namespace fastblake::bench::gpu_rows {

inline constexpr std::size_t sizes[] = {1u << 20, 16u << 20, 256u << 20, 1u << 30};
inline constexpr std::size_t batch_count = 1000000;
inline constexpr std::size_t batch_item = 1024;

}  // namespace fastblake::bench::gpu_rows
