// The per-core choice among a kernel set's variants (kernels.hpp, variant_selector): the table
// of cores we have measured, and the one-time measurement for the others. Compiled at baseline
// flags; the variants it times run only where their kernel set was chosen, so the CPU has them.
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <limits>
#include <thread>

#include "common/cpu_features.hpp"
#include "kernels/blake3/kernels.hpp"

namespace fastblake::internal::blake3 {
namespace {

struct core_entry {
  std::string_view kernels;
  cpu_vendor vendor;
  std::uint32_t family, first_model, last_model;
  std::string_view variant;
};

// What was measured on each core, 4 KiB one-shot hashes, one process, interleaved (the figures
// and the bench rows that give them are in docs/blake3-kernels.md, "Per-core variants"). A
// core not listed is measured at first use: the llvm-mca models of the others disagree with
// the one Intel core we measured, so they do not decide.
constexpr core_entry measured_cores[] = {
    // AMD Zen 4 (EPYC 9004, Ryzen 7000) and Zen 5: 512-bit operations at half the 256-bit rate.
    {"avx512", cpu_vendor::amd, 0x19, 0x00, 0xFF, "pairs256"},
    {"avx512", cpu_vendor::amd, 0x1A, 0x00, 0xFF, "pairs256"},
    // A Sapphire Rapids-class Xeon under KVM, which reports model 0xA7.
    {"avx512", cpu_vendor::intel, 0x6, 0xA7, 0xA7, "rows512"},
};

int index_of(std::span<const kernel_variant> variants, std::string_view name) noexcept {
  for (std::size_t i = 0; i < variants.size(); ++i)
    if (std::string_view(variants[i].name) == name) return static_cast<int>(i);
  return -1;
}

int from_table(std::string_view kernels_name, std::span<const kernel_variant> variants) noexcept {
  const cpu_identity cpu = this_cpu();
  for (const core_entry& e : measured_cores) {
    if (e.kernels == kernels_name && e.vendor == cpu.vendor && e.family == cpu.family &&
        cpu.model >= e.first_model && cpu.model <= e.last_model) {
      return index_of(variants, e.variant);
    }
  }
  return -1;
}

// Four chunks, the case the variants differ in, hashed by each variant in turn; each keeps its
// best of several rounds, so that a preemption or a slow first call (cold caches, a core
// waking its wide units) counts against neither. About 50 µs on a 3 GHz core.
std::size_t measure(std::span<const kernel_variant> variants, std::span<double> best_ns) noexcept {
  constexpr std::size_t chunks = 4, rounds = 12, calls = 2;
  alignas(64) static constexpr std::uint8_t input[chunks * chunk_len] = {};
  alignas(64) std::uint8_t out[chunks * out_len];
  std::fill(best_ns.begin(), best_ns.end(), std::numeric_limits<double>::infinity());
  for (std::size_t round = 0; round < rounds; ++round) {
    for (std::size_t v = 0; v < variants.size(); ++v) {
      const auto start = std::chrono::steady_clock::now();
      for (std::size_t c = 0; c < calls; ++c) {
        variants[v].hash_chunks(input, chunks, iv, c, 0, out);
      }
      const double ns =
          std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start)
              .count() /
          calls;
      // The first round only warms up.
      if (round > 0) best_ns[v] = std::min(best_ns[v], ns);
    }
  }
  return static_cast<std::size_t>(std::min_element(best_ns.begin(), best_ns.end()) -
                                  best_ns.begin());
}

}  // namespace

std::size_t variant_selector::decide() noexcept {
  int expected = undecided;
  if (!chosen_.compare_exchange_strong(expected, deciding, std::memory_order_acq_rel)) {
    // Another thread decides (for tens of microseconds at most), or has decided.
    while ((expected = chosen_.load(std::memory_order_acquire)) < 0) std::this_thread::yield();
    return static_cast<std::size_t>(expected);
  }
  basis how = basis::environment;
  int chosen = -1;
  const char* env = std::getenv("FASTBLAKE_VARIANT");
  const bool measure_anyway = env != nullptr && std::string_view(env) == "measure";
  if (env != nullptr && *env != '\0' && !measure_anyway) {
    chosen = index_of(variants(), env);
    environment_refused_.store(chosen < 0, std::memory_order_release);
  }
  if (chosen < 0 && !measure_anyway) {
    how = basis::table;
    chosen = from_table(kernels_name(), variants());
  }
  if (chosen < 0) {
    how = basis::measured;
    chosen = static_cast<int>(measure(variants(), {measured_ns_, variant_count_}));
  }
  basis_.store(how, std::memory_order_relaxed);
  // choose() may have set one meanwhile: it wins.
  expected = deciding;
  if (!chosen_.compare_exchange_strong(expected, chosen, std::memory_order_acq_rel)) {
    basis_.store(basis::program, std::memory_order_relaxed);
    return static_cast<std::size_t>(expected);
  }
  return static_cast<std::size_t>(chosen);
}

bool variant_selector::choose(std::string_view name) noexcept {
  const int index = index_of(variants(), name);
  if (index < 0) return false;
  basis_.store(basis::program, std::memory_order_relaxed);
  chosen_.store(index, std::memory_order_release);
  return true;
}

variant_selector::basis variant_selector::how_chosen() noexcept {
  current();
  return basis_.load(std::memory_order_relaxed);
}

}  // namespace fastblake::internal::blake3
