// Shared by the benchmark sources of fastblake-bench.
#pragma once

#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstddef>
#include <cstdlib>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

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

/// Whether a row failed its check (a digest that differs from the reference's): the run then
/// ends with exit status 1.
inline std::atomic<bool> any_row_failed{false};

/// Skips the row with `why` and fails the run.
inline void fail(benchmark::State& state, const char* why) {
  any_row_failed = true;
  state.SkipWithError(why);
}

/// Checks a JSON artifact of fastblake-bench (validate.cpp): prints what is wrong, or a summary;
/// returns the exit status.
int validate_artifact(const char* path);

/// The p-th percentile (0..100) of a row's repetitions, nearest rank.
inline double percentile(const std::vector<double>& v, double p) {
  if (v.empty()) return 0.0;
  std::vector<double> sorted(v);
  std::sort(sorted.begin(), sorted.end());
  const auto rank =
      static_cast<std::size_t>(std::ceil(p / 100.0 * static_cast<double>(sorted.size())));
  return sorted[std::clamp<std::size_t>(rank, 1, sorted.size()) - 1];
}

/// Registers a row as benchmark::RegisterBenchmark(name, fn, args...) does, with what every row
/// of fastblake-bench reports: min, max and p95 of its repetitions next to Google Benchmark's
/// mean, median and standard deviation, and the process's peak resident set (MiB) once the row
/// has run.
template <class Fn, class... Args>
benchmark::internal::Benchmark* add_row(const std::string& name, Fn fn, Args... args) {
  auto* b = benchmark::RegisterBenchmark(name.c_str(), [=](benchmark::State& state) {
    fn(state, args...);
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    state.counters["peak_rss_MiB"] = static_cast<double>(usage.ru_maxrss) / 1024.0;
  });
  b->ComputeStatistics("min", [](const std::vector<double>& v) {
    return v.empty() ? 0.0 : *std::min_element(v.begin(), v.end());
  });
  b->ComputeStatistics("max", [](const std::vector<double>& v) {
    return v.empty() ? 0.0 : *std::max_element(v.begin(), v.end());
  });
  b->ComputeStatistics("p95", [](const std::vector<double>& v) { return percentile(v, 95); });
  return b;
}

/// Registers the BLAKE2 and SHA-256 rows (blake2_bench.cpp).
void register_blake2();

/// Registers the file-hashing rows (file_bench.cpp, POSIX only).
void register_files();

}  // namespace fastblake::bench
