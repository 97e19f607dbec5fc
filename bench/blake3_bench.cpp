// fastblake-bench: main(), and the BLAKE3 rows. Every row is named
// <family>/<class>/<implementation>[/<threads>t][/x<count>]/<bytes> (common.hpp). BLAKE3 has
// serial hashing per backend next to the official C and the official Rust crate; hash_many
// (batch) against a loop of one-shot hashes; parallel hashing on 1..N threads of a pool next to
// the Rust crate's update_rayon; automatic hashing; extendable output on threads; and single
// calls after the pool has gone idle. blake2_bench.cpp, bao_bench.cpp, file_bench.cpp and
// cli_bench.cpp add theirs.
//
// Every row's digest is checked against the portable backend before it is timed; a row that
// fails skips and makes the run exit with status 1. `fastblake-bench --validate FILE` checks
// a JSON artifact (validate.cpp). Run with
// --benchmark_repetitions and --benchmark_enable_random_interleaving so that the rows being
// compared are measured interleaved (scripts/bench does); report medians and their ratios.
#include <benchmark/benchmark.h>

#include <sys/utsname.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <fastblake/backend.hpp>
#include <fastblake/blake3.hpp>
#include <fastblake/thread_pool.hpp>

#include "common.hpp"
#include "official.hpp"
#if defined(FASTBLAKE_BENCH_RUST)
#include "rust_refs.hpp"
#endif

namespace {

namespace b3 = fastblake::blake3;

// 8 KiB: eight chunks, the widest group below sixteen (the avx512 backend's 256-bit path).
constexpr std::size_t one_shot_sizes[] = {64,    256,   1024,     4096,      8192,
                                          16384, 65536, 1u << 20, 16u << 20, 256u << 20};
constexpr std::size_t many_item_sizes[] = {64, 256, 1024};
constexpr std::size_t many_items = 1000;
constexpr std::size_t thread_sizes[] = {16u << 10, 64u << 10, 128u << 10, 256u << 10, 1u << 20,
                                        4u << 20,  16u << 20, 256u << 20, 1u << 30};

using fastblake::bench::add_row;
using fastblake::bench::fail;
using fastblake::bench::input;
using fastblake::bench::official_hash;

b3::digest portable_hash(std::span<const std::byte> in) {
  const std::string saved(fastblake::active_backend());
  fastblake::use_backend("portable");
  const b3::digest d = b3::hash_serial(in);
  fastblake::use_backend(saved);
  return d;
}

void one_shot(benchmark::State& state, std::string backend, std::size_t size) {
  const auto in = input(size);
  // One thread, as the official C: the automatic hash() would use the pool from 128 KiB on.
  if (!fastblake::use_backend(backend) || b3::hash_serial(in) != portable_hash(in)) {
    fail(state, "digest differs from the portable backend's");
    return;
  }
  for (auto _ : state) benchmark::DoNotOptimize(b3::hash_serial(in));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * size));
}

// A backend's variant (kernels.hpp) against its others: the rows blake3/serial/<backend>-<variant>.
// The variant this CPU chose is restored after the row, for the rows that follow.
void one_shot_variant(benchmark::State& state, std::string backend, std::string variant,
                      std::string chosen, std::size_t size) {
  if (!fastblake::use_backend(backend) || !fastblake::use_variant(variant)) {
    fail(state, "no such variant");
    return;
  }
  one_shot(state, backend, size);
  fastblake::use_variant(chosen);
}

void official(benchmark::State& state, std::size_t size) {
  const auto in = input(size);
  if (official_hash(in) != portable_hash(in)) {
    fail(state, "official digest differs from the portable backend's");
    return;
  }
  for (auto _ : state) benchmark::DoNotOptimize(official_hash(in));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * size));
}

// The official C with only one x86 level's kernels, next to fastblake's backend of that level.
void official_at_level(benchmark::State& state, const fastblake::bench::official_level* level,
                       std::size_t size) {
  const auto in = input(size);
  if (level->simd_degree() != level->expected_degree) {
    fail(state, "the official build fell back below its level on this CPU");
    return;
  }
  if (level->hash(in) != portable_hash(in)) {
    fail(state, "official digest differs from the portable backend's");
    return;
  }
  for (auto _ : state) benchmark::DoNotOptimize(level->hash(in));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * size));
}

void many(benchmark::State& state, std::string backend, std::size_t item, bool batched) {
  std::vector<std::span<const std::byte>> items;
  for (std::size_t i = 0; i < many_items; ++i)
    items.push_back(input((i + 1) * item).subspan(i * item));
  std::vector<b3::digest> out(many_items);
  if (!fastblake::use_backend(backend)) {
    fail(state, "backend not available");
    return;
  }
  b3::hash_many(items, out);
  for (std::size_t i = 0; i < many_items; ++i) {
    if (out[i] != portable_hash(items[i])) {
      fail(state, "hash_many digest differs from the portable backend's");
      return;
    }
  }
  for (auto _ : state) {
    if (batched) {
      b3::hash_many(items, out);
    } else {
      for (std::size_t i = 0; i < many_items; ++i) out[i] = b3::hash(items[i]);
    }
    benchmark::DoNotOptimize(out.data());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * many_items * item));
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * many_items));
}

enum class threading { serial, parallel, automatic };

// cold: every iteration starts after 2 ms without work (untimed), when the pool's workers have
// gone to sleep: what one isolated hash costs, as against a loop of them.
void threaded(benchmark::State& state, threading how, std::size_t threads, std::size_t size,
              bool cold) {
  const auto in = input(size);
  fastblake::use_backend(fastblake::bench::detected_backend());
  std::unique_ptr<fastblake::thread_pool> pool;
  if (how == threading::parallel) pool = std::make_unique<fastblake::thread_pool>(threads);
  const auto run = [&] {
    switch (how) {
      case threading::serial:
        return b3::hash_serial(in);
      case threading::parallel:
        return b3::hash_parallel(in, *pool);
      case threading::automatic:
        break;
    }
    return b3::hash(in);
  };
  if (run() != portable_hash(in)) {
    fail(state, "digest differs from the portable backend's");
    return;
  }
  for (auto _ : state) {
    if (cold) {
      state.PauseTiming();
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
      state.ResumeTiming();
    }
    benchmark::DoNotOptimize(run());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * size));
}

// Extendable output: `size` bytes from one reader, on a pool of `threads`.
void output(benchmark::State& state, std::size_t threads, std::size_t size) {
  fastblake::use_backend(fastblake::bench::detected_backend());
  fastblake::thread_pool pool(threads);
  std::vector<std::byte> out(size), expected(size);
  b3::output_reader reader = b3::hasher().update("fastblake").finalize_xof();
  fastblake::thread_pool one(1);
  reader.fill(expected, one);
  reader.seek(0);
  reader.fill(out, pool);
  if (out != expected) {
    fail(state, "parallel output differs from the serial output");
    return;
  }
  for (auto _ : state) {
    reader.seek(0);
    reader.fill(out, pool);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * size));
}

#if defined(FASTBLAKE_BENCH_RUST)
// threads == 0: the crate's serial blake3::hash.
void rust(benchmark::State& state, std::size_t threads, std::size_t size) {
  const auto in = input(size);
  const auto* bytes = reinterpret_cast<const std::uint8_t*>(in.data());
  const std::unique_ptr<fastblake_rust_pool, decltype(&fastblake_rust_pool_free)> pool(
      threads == 0 ? nullptr : fastblake_rust_pool_new(threads), &fastblake_rust_pool_free);
  if (threads != 0 && !pool) {
    fail(state, "rayon could not start its threads");
    return;
  }
  b3::digest::bytes_type out;
  const auto run = [&] {
    if (threads == 0) {
      fastblake_rust_hash(bytes, in.size(), out.data());
    } else {
      fastblake_rust_hash_rayon(pool.get(), bytes, in.size(), out.data());
    }
  };
  run();
  if (b3::digest(out) != portable_hash(in)) {
    fail(state, "Rust digest differs from the portable backend's");
    return;
  }
  for (auto _ : state) {
    run();
    benchmark::DoNotOptimize(out.data());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * size));
}
#endif

void register_all() {
  using fastblake::bench::row_name;
  const std::string best = fastblake::bench::detected_backend();
  const std::size_t max_threads = fastblake::thread_pool::default_threads();
  std::set<std::size_t> serial_sizes(std::begin(one_shot_sizes), std::end(one_shot_sizes));
  serial_sizes.insert(std::begin(thread_sizes), std::end(thread_sizes));
  for (std::size_t size : serial_sizes) {
    const bool every_backend = std::find(std::begin(one_shot_sizes), std::end(one_shot_sizes),
                                         size) != std::end(one_shot_sizes);
    for (std::string_view backend : fastblake::available_backends()) {
      if (every_backend || backend == best) {
        add_row(row_name("blake3", "serial", backend, size), one_shot, std::string(backend), size);
      }
    }
    add_row(row_name("blake3", "serial", "official_c", size), official, size);
    // Each level where this CPU runs fastblake's backend of the same name.
    for (const auto& level : fastblake::bench::official_levels()) {
      const auto backends = fastblake::available_backends();
      if (every_backend &&
          std::find(backends.begin(), backends.end(), level.name) != backends.end()) {
        std::string impl("official_c_");
        impl.append(level.name);
        add_row(row_name("blake3", "serial", impl, size), official_at_level, &level, size);
      }
    }
#if defined(FASTBLAKE_BENCH_RUST)
    add_row(row_name("blake3", "serial", "rust", size), rust, 0, size);
#endif
  }
  // Each variant where a backend has several: 3 and 4 chunks, where they differ, and 4 + 2 + 1
  // and 16 + 4 chunks, where they differ in the tail.
  for (std::string_view backend : fastblake::available_backends()) {
    const std::string saved(fastblake::active_backend());
    fastblake::use_backend(backend);
    const std::string chosen(fastblake::active_variant());
    for (std::string_view variant : fastblake::available_variants()) {
      for (std::size_t size : {3072, 4096, 7168, 20480}) {
        const std::string impl = std::string(backend) + "-" + std::string(variant);
        add_row(row_name("blake3", "serial", impl, size), one_shot_variant, std::string(backend),
                std::string(variant), chosen, size);
      }
    }
    fastblake::use_backend(saved);
  }
  for (std::size_t item : many_item_sizes) {
    for (std::string_view backend : fastblake::available_backends()) {
      const std::size_t total = many_items * item;
      add_row(row_name("blake3", "batch", backend, total, 0, many_items), many,
              std::string(backend), item, true);
      std::string loop(backend);
      loop.append("-loop");
      add_row(row_name("blake3", "batch", loop, total, 0, many_items), many, std::string(backend),
              item, false);
    }
  }
  for (std::size_t size : thread_sizes) {
    add_row(row_name("blake3", "auto", best, size), threaded, threading::automatic, 0, size, false);
    for (std::size_t t = 1; t <= max_threads; ++t) {
      add_row(row_name("blake3", "parallel", best, size, t), threaded, threading::parallel, t, size,
              false);
#if defined(FASTBLAKE_BENCH_RUST)
      add_row(row_name("blake3", "parallel", "rust_rayon", size, t), rust, t, size);
#endif
    }
    if (size <= (16u << 20)) {
      for (std::size_t t = 1; t <= max_threads; ++t) {
        add_row(row_name("blake3", "xof", best, size, t), output, t, size);
      }
    }
    if (size >= (64u << 10) && size <= (1u << 20)) {
      // A fixed count: each iteration also sleeps 2 ms, untimed.
      constexpr benchmark::IterationCount idle_iterations = 200;
      add_row(row_name("blake3", "serial-idle", best, size), threaded, threading::serial, 1, size,
              true)
          ->Iterations(idle_iterations);
      add_row(row_name("blake3", "auto-idle", best, size), threaded, threading::automatic, 0, size,
              true)
          ->Iterations(idle_iterations);
      add_row(row_name("blake3", "parallel-idle", best, size, max_threads), threaded,
              threading::parallel, max_threads, size, true)
          ->Iterations(idle_iterations);
    }
  }
}

}  // namespace

// What the JSON artifact records of the machine, the build and the environment, beside Google
// Benchmark's own context (host, CPUs, caches, load, date).
void add_environment_context() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  std::string model;
  std::string flags;
  while (std::getline(cpuinfo, line) && (model.empty() || flags.empty())) {
    const auto value = [&] { return line.substr(line.find(':') + 2); };
    if (model.empty() && line.rfind("model name", 0) == 0) model = value();
    if (flags.empty() && (line.rfind("flags", 0) == 0 || line.rfind("Features", 0) == 0)) {
      flags = value();
    }
  }
  // The instruction-set flags that decide fastblake's kernels.
  std::string simd;
  std::istringstream words(flags);
  for (std::string w; words >> w;) {
    static const std::set<std::string> wanted = {"sse2",   "ssse3", "sse4_1",  "avx",
                                                 "avx2",   "bmi2",  "avx512f", "avx512vl",
                                                 "sha_ni", "asimd", "sha2",    "sve"};
    if (wanted.count(w) != 0) simd.append(simd.empty() ? "" : " ").append(w);
  }
  benchmark::AddCustomContext("cpu_model", model.empty() ? "unknown" : model);
  benchmark::AddCustomContext("cpu_flags", simd);
  utsname un{};
  if (uname(&un) == 0) {
    std::string kernel = un.sysname;
    kernel.append(" ").append(un.release).append(" ").append(un.machine);
    benchmark::AddCustomContext("kernel", kernel);
  }
  std::string backends;
  for (std::string_view b : fastblake::available_backends()) {
    backends.append(backends.empty() ? "" : " ").append(b);
  }
  benchmark::AddCustomContext("available_backends", backends);
  benchmark::AddCustomContext("default_threads",
                              std::to_string(fastblake::thread_pool::default_threads()));
  std::string overrides;
  for (const char* name : {"FASTBLAKE_BACKEND", "FASTBLAKE_VARIANT", "FASTBLAKE_THREADS"}) {
    if (const char* v = std::getenv(name)) {
      overrides.append(overrides.empty() ? "" : " ").append(name).append("=").append(v);
    }
  }
  benchmark::AddCustomContext("environment_overrides", overrides.empty() ? "none" : overrides);
#if defined(FASTBLAKE_BENCH_CXX_FLAGS)
  benchmark::AddCustomContext("compiler_flags", FASTBLAKE_BENCH_CXX_FLAGS);
#endif
}

int main(int argc, char** argv) {
  if (argc == 3 && std::string_view(argv[1]) == "--validate") {
    return fastblake::bench::validate_artifact(argv[2]);
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  fastblake::bench::detected_backend();
  register_all();
  fastblake::bench::register_blake2();
  fastblake::bench::register_bao();
#if defined(FASTBLAKE_BENCH_FILES)
  fastblake::bench::register_files();
#endif
#if defined(FASTBLAKE_BENCH_CLI)
  fastblake::bench::register_cli();
#endif
#if defined(FASTBLAKE_BENCH_CUDA)
  fastblake::bench::register_gpu();
#endif
  add_environment_context();
  benchmark::AddCustomContext("fastblake_version", FASTBLAKE_VERSION_STRING);
  benchmark::AddCustomContext("official_c_version", BLAKE3_VERSION_STRING);
  benchmark::AddCustomContext("detected_backend", fastblake::bench::detected_backend());
  if (!fastblake::active_variant().empty()) {
    benchmark::AddCustomContext("detected_variant", std::string(fastblake::active_variant()) +
                                                        " (" + fastblake::variant_choice() + ")");
  }
#if defined(__clang__)
  benchmark::AddCustomContext("compiler", "clang " __clang_version__);
#elif defined(__GNUC__)
  benchmark::AddCustomContext("compiler", "gcc " __VERSION__);
#endif
#if defined(FASTBLAKE_COMMIT)
  benchmark::AddCustomContext("commit", FASTBLAKE_COMMIT);
#endif
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  if (fastblake::bench::any_row_failed) {
    std::fprintf(stderr, "fastblake-bench: a row failed its check (see the rows marked ERROR)\n");
    return 1;
  }
  return 0;
}
