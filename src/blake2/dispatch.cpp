// Chooses the BLAKE2 kernels: those of the backend BLAKE3 uses (one choice, one override for
// both hashes), or the portable ones where that backend has none for BLAKE2.
#include <array>
#include <atomic>

#include <fastblake/backend.hpp>

#include "blake2/kernels.hpp"
#include "blake3/kernels.hpp"

namespace fastblake::detail::blake2 {
namespace {

constexpr std::array compiled = {
#if defined(FASTBLAKE_HAVE_AVX512)
    &avx512,
#endif
#if defined(FASTBLAKE_HAVE_AVX2)
    &avx2,
#endif
#if defined(FASTBLAKE_HAVE_SSE41)
    &sse41,
#endif
#if defined(FASTBLAKE_HAVE_NEON)
    &neon,
#endif
    &portable,
};

const kernels& for_backend(std::string_view name) noexcept {
  for (const kernels* k : compiled) {
    if (k->name == name) return *k;
  }
  return portable;
}

// The last answer, keyed by the BLAKE3 kernels it was found for: the backend changes only
// when a test or benchmark switches it.
struct choice {
  const detail::blake3::kernels* backend;
  const kernels* blake2;
};
std::atomic<const choice*> g_choice{nullptr};

}  // namespace

const kernels& active_kernels() noexcept {
  const detail::blake3::kernels& backend = detail::blake3::active_kernels();
  const choice* c = g_choice.load(std::memory_order_acquire);
  if (c != nullptr && c->backend == &backend) return *c->blake2;
  // One entry per backend, made once; the pointer swaps between them.
  static std::array<choice, 8> choices = [] {
    std::array<choice, 8> all{};
    std::size_t i = 0;
    for (const detail::blake3::kernels* b : detail::blake3::available_kernels()) {
      if (i < all.size()) all[i++] = {b, &for_backend(b->name)};
    }
    return all;
  }();
  for (const choice& entry : choices) {
    if (entry.backend == &backend) {
      g_choice.store(&entry, std::memory_order_release);
      return *entry.blake2;
    }
  }
  return for_backend(backend.name);
}

}  // namespace fastblake::detail::blake2

namespace fastblake {

std::string_view active_blake2_kernels() noexcept { return detail::blake2::active_kernels().name; }

}  // namespace fastblake
