// The avx512 kernels' choice of four-chunk layout (kernels.hpp), kept apart from avx512.cpp so
// that tests may set it in any build.
#include <atomic>

#include "common/cpu_features.hpp"
#include "kernels/blake3/kernels.hpp"

namespace fastblake::internal::blake3 {
namespace {

// Read at every avx512 hash_chunks call; the first read decides from the CPU.
std::atomic<four_chunk_layout>& layout_choice() noexcept {
  static std::atomic<four_chunk_layout> choice{(cpu_features() & feature_half_rate_512) != 0
                                                   ? four_chunk_layout::pairs256
                                                   : four_chunk_layout::rows512};
  return choice;
}

}  // namespace

four_chunk_layout avx512_four_chunk_layout() noexcept {
  return layout_choice().load(std::memory_order_relaxed);
}

void set_avx512_four_chunk_layout(four_chunk_layout layout) noexcept {
  layout_choice().store(layout, std::memory_order_relaxed);
}

}  // namespace fastblake::internal::blake3
