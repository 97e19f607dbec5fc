// Chooses the BLAKE3 kernels once per process and caches the choice. Compiled at baseline
// flags: it only compares feature bits and never runs a kernel.
#include <algorithm>
#include <array>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <string>

#include <fastblake/backend.hpp>

#include "blake3/kernels.hpp"
#include "blake3/offload.hpp"
#include "common/cpu_features.hpp"

namespace fastblake::detail::blake3 {
namespace {

// Every backend this build has, best first.
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
#if defined(FASTBLAKE_HAVE_SSE2)
    &sse2,
#endif
#if defined(FASTBLAKE_HAVE_NEON)
    &neon,
#endif
    &portable,
};

struct availability {
  std::array<const kernels*, compiled.size()> list{};
  std::size_t count = 0;
};

const availability& available() noexcept {
  static const availability a = [] {
    availability r;
    const std::uint32_t have = cpu_features();
    for (const kernels* k : compiled) {
      if ((k->required_features & have) == k->required_features) r.list[r.count++] = k;
    }
    return r;
  }();
  return a;
}

// Read at every avx512 hash_chunks call; the first read decides from the CPU.
std::atomic<four_chunk_layout>& layout_choice() noexcept {
  static std::atomic<four_chunk_layout> choice{(cpu_features() & feature_half_rate_512) != 0
                                                   ? four_chunk_layout::pairs256
                                                   : four_chunk_layout::rows512};
  return choice;
}

const kernels* find_available(std::string_view name) noexcept {
  for (std::size_t i = 0; i < available().count; ++i) {
    if (available().list[i]->name == name) return available().list[i];
  }
  return nullptr;
}

bool is_known(std::string_view name) noexcept {
  constexpr std::string_view known[] = {"portable", "sse2", "sse41", "avx2", "avx512", "neon"};
  return std::find(std::begin(known), std::end(known), name) != std::end(known);
}

// The first choice: FASTBLAKE_BACKEND if it names an available backend, else the best one.
// "cpu" and "cuda" keep the best one and decide only the offload (offload.cpp reads them
// too); "cuda" is refused where no accelerator of that name is linked.
// Why an override was refused is kept in a fixed buffer: this runs inside noexcept code.
struct initial_choice {
  const kernels* chosen = nullptr;
  char override_error[160] = {};
};

const initial_choice& initial() noexcept {
  static const initial_choice c = [] {
    initial_choice r;
    r.chosen = available().list[0];
    const char* env = std::getenv("FASTBLAKE_BACKEND");
    if (env == nullptr || *env == '\0') return r;
    const std::string_view name(env);
    const offload* accelerator = registered_offload();
    if (name == "cpu" || (accelerator != nullptr && name == accelerator->name)) return r;
    if (const kernels* k = find_available(name)) {
      r.chosen = k;
    } else if (name == "cuda") {
      std::snprintf(r.override_error, sizeof r.override_error,
                    "FASTBLAKE_BACKEND=cuda, but this program does not link fastblake::cuda; "
                    "using %.10s",
                    r.chosen->name.data());
    } else if (!is_known(name)) {
      std::snprintf(r.override_error, sizeof r.override_error,
                    "FASTBLAKE_BACKEND=%.40s is not a backend (portable, sse2, sse41, avx2, "
                    "avx512, neon, cpu, cuda); using %.10s",
                    env, r.chosen->name.data());
    } else {
      std::snprintf(r.override_error, sizeof r.override_error,
                    "FASTBLAKE_BACKEND=%.10s is not available in this build on this CPU; using "
                    "%.10s",
                    env, r.chosen->name.data());
    }
    return r;
  }();
  return c;
}

std::atomic<const kernels*> g_active{nullptr};

}  // namespace

std::span<const kernels* const> available_kernels() noexcept {
  return {available().list.data(), available().count};
}

const kernels& active_kernels() noexcept {
  const kernels* k = g_active.load(std::memory_order_acquire);
  if (k != nullptr) return *k;
  const kernels* expected = nullptr;
  k = initial().chosen;
  // A concurrent set_active_kernels wins over the default choice.
  if (!g_active.compare_exchange_strong(expected, k, std::memory_order_acq_rel)) k = expected;
  return *k;
}

void set_active_kernels(const kernels& k) noexcept {
  g_active.store(&k, std::memory_order_release);
}

four_chunk_layout avx512_four_chunk_layout() noexcept {
  return layout_choice().load(std::memory_order_relaxed);
}

void set_avx512_four_chunk_layout(four_chunk_layout layout) noexcept {
  layout_choice().store(layout, std::memory_order_relaxed);
}

}  // namespace fastblake::detail::blake3

namespace fastblake {

namespace k3 = detail::blake3;

std::string_view active_backend() noexcept { return k3::active_kernels().name; }

std::vector<std::string_view> available_backends() {
  std::vector<std::string_view> names;
  for (const k3::kernels* k : k3::available_kernels()) names.push_back(k->name);
  return names;
}

std::string_view backend_override_error() noexcept { return k3::initial().override_error; }

bool use_backend(std::string_view name) noexcept {
  const k3::kernels* k = k3::find_available(name);
  if (k == nullptr) return false;
  k3::set_active_kernels(*k);
  return true;
}

}  // namespace fastblake
