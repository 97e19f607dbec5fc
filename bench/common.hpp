// Shared by the benchmark sources of fastblake-bench.
#pragma once

#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstddef>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <benchmark/benchmark.h>

#include <fastblake/backend.hpp>

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

/// The backend detected at start-up (main() asks first): rows that do not compare backends run
/// on it, whatever backend the row before them chose.
inline const std::string& detected_backend() {
  static const std::string name(active_backend());
  return name;
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

/// The timing classes a row can belong to (docs/benchmarks.md#rows).
inline constexpr const char* timing_classes[] = {"serial",
                                                 "parallel",
                                                 "auto",
                                                 "batch",
                                                 "xof",
                                                 "serial-idle",
                                                 "auto-idle",
                                                 "parallel-idle",
                                                 "file-read",
                                                 "file-mmap",
                                                 "file-mmap-parallel",
                                                 "file-auto",
                                                 "file-read-cold",
                                                 "file-mmap-cold",
                                                 "file-mmap-parallel-cold",
                                                 "file-auto-cold",
                                                 "cli",
                                                 "cli-cold",
                                                 "gpu-resident",
                                                 "gpu-end-to-end",
                                                 "gpu-batch",
                                                 "gpu-file",
                                                 "encode",
                                                 "encode-outboard",
                                                 "decode",
                                                 "decode-outboard"};

/// A row's name: `<family>/<class>/<implementation>[/<threads>t][/x<count>]/<bytes>`, where
/// bytes is what one call hashes (all `count` inputs together), threads is named only where
/// the row sets it, and count only for many inputs. report.py, plot.py and --validate read it.
inline std::string row_name(std::string_view family, std::string_view timing_class,
                            std::string_view implementation, std::size_t bytes,
                            std::size_t threads = 0, std::size_t count = 0) {
  // Appends, not operator+ chains: GCC 12 warns falsely about those (-Wrestrict).
  std::string name(family);
  name.append("/").append(timing_class).append("/").append(implementation);
  if (threads != 0) name.append("/").append(std::to_string(threads)).append("t");
  if (count != 0) name.append("/x").append(std::to_string(count));
  name.append("/").append(std::to_string(bytes));
  return name;
}

/// Why `name` (as Google Benchmark reports it, with any /real_time or /iterations:N suffix)
/// does not follow row_name's scheme, or empty if it does (validate.cpp).
std::string row_name_problem(std::string_view name);

/// Registers a row as benchmark::RegisterBenchmark(name, fn, args...) does, timed by the wall
/// clock (the calling thread's CPU time would leave out other threads' and processes' work),
/// with what every row of fastblake-bench reports: min, max and p95 of its repetitions next to
/// Google Benchmark's mean, median and standard deviation, and the process's peak resident set
/// (MiB) once the row has run.
template <class Fn, class... Args>
benchmark::internal::Benchmark* add_row(const std::string& name, Fn fn, Args... args) {
  const std::string problem = row_name_problem(name);
  auto* b = benchmark::RegisterBenchmark(name.c_str(), [=](benchmark::State& state) {
    if (!problem.empty()) {
      fail(state, problem.c_str());
      return;
    }
    fn(state, args...);
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    state.counters["peak_rss_MiB"] = static_cast<double>(usage.ru_maxrss) / 1024.0;
  });
  b->UseRealTime();
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

/// Registers the Bao rows (bao_bench.cpp).
void register_bao();

/// Registers the file-hashing rows (file_bench.cpp, POSIX only).
void register_files();

/// Registers the `cli` rows, whole tools started on files (cli_bench.cpp, POSIX only).
void register_cli();

/// Registers the gpu-* rows when a CUDA device is present (gpu_bench.cpp, with FASTBLAKE_CUDA).
void register_gpu();

/// A file holding input(size), written on first use to $TMPDIR (or /tmp) and removed at exit
/// (file_bench.cpp).
const std::filesystem::path& bench_file(std::size_t size);

/// `count` files of `size` bytes in a folder of their own, made as bench_file is (file_bench.cpp).
std::vector<std::filesystem::path> bench_files(std::size_t count, std::size_t size);

/// Drops the file's pages from the page cache (posix_fadvise DONTNEED after fdatasync); false
/// where the kernel refuses (file_bench.cpp).
bool drop_cache(const std::filesystem::path& path);

/// Whether drop_cache works where the bench files are (not on tmpfs, say): a probe file's pages
/// must leave the page cache (file_bench.cpp).
bool cold_cache_possible();

}  // namespace fastblake::bench
