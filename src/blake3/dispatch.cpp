// Chooses the BLAKE3 kernels once per process and caches the choice.
#include <atomic>

#include "blake3/kernels.hpp"

namespace fastblake::detail::blake3 {
namespace {

// Only the portable kernel exists so far; CPU detection lands with the SIMD kernels.
std::atomic<const kernels*> g_active{&portable};

}  // namespace

const kernels& active_kernels() noexcept { return *g_active.load(std::memory_order_acquire); }

void set_active_kernels(const kernels& k) noexcept {
  g_active.store(&k, std::memory_order_release);
}

}  // namespace fastblake::detail::blake3
