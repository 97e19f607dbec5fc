// BLAKE2 throughput: BLAKE2b, BLAKE2s, BLAKE2bp and BLAKE2sp on every backend, next to
// OpenSSL, libsodium, libb2 and the Rust blake2b_simd / blake2s_simd crates; many messages at
// once against blake2b_simd's and blake2s_simd's hash_many; OpenSSL's SHA-256 for scale. Same
// buffers, one process.
//
// Every fastblake row's digest is checked against libb2's before it is timed.
#include <benchmark/benchmark.h>
#include <blake2.h>
#include <openssl/evp.h>
#include <sodium.h>

#include <array>
#include <string>
#include <vector>

#include <fastblake/backend.hpp>
#include <fastblake/blake2.hpp>
#include <fastblake/thread_pool.hpp>

#include "common.hpp"
#if defined(FASTBLAKE_BENCH_RUST)
#include "rust_refs.hpp"
#endif

namespace fastblake::bench {
namespace {

constexpr std::size_t sizes[] = {64, 1024, 16384, 1u << 20};
// hash_many rows: `count` inputs of total / count bytes each.
constexpr std::size_t many_totals[] = {1024, 16384, 1u << 20};
constexpr std::size_t many_counts[] = {4, 16};

enum class variant { b, s, bp, sp };

const char* name_of(variant v) {
  switch (v) {
    case variant::b:
      return "blake2b";
    case variant::s:
      return "blake2s";
    case variant::bp:
      return "blake2bp";
    case variant::sp:
      return "blake2sp";
  }
  return "?";
}

const std::uint8_t* bytes(std::span<const std::byte> s) {
  return reinterpret_cast<const std::uint8_t*>(s.data());
}

std::string libb2_hex(variant v, std::span<const std::byte> in) {
  std::uint8_t out[64];
  std::size_t n = v == variant::b || v == variant::bp ? 64 : 32;
  switch (v) {
    case variant::b:
      ::blake2b(out, bytes(in), nullptr, n, in.size(), 0);
      break;
    case variant::s:
      ::blake2s(out, bytes(in), nullptr, n, in.size(), 0);
      break;
    case variant::bp:
      ::blake2bp(out, bytes(in), nullptr, n, in.size(), 0);
      break;
    case variant::sp:
      ::blake2sp(out, bytes(in), nullptr, n, in.size(), 0);
      break;
  }
  return blake2::detail::to_hex(out, n);
}

// BLAKE2bp or BLAKE2sp on one thread, or with the leaves split between pool's threads.
template <class State>
auto parallel_hash(std::span<const std::byte> in, thread_pool* pool) {
  State s;
  if (pool != nullptr) {
    s.update(in, *pool);
  } else {
    s.update(in);
  }
  return s.finalize();
}

std::string ours_hex(variant v, std::span<const std::byte> in, thread_pool* pool) {
  switch (v) {
    case variant::b:
      return blake2b::hash(in).to_hex();
    case variant::s:
      return blake2s::hash(in).to_hex();
    case variant::bp:
      return parallel_hash<blake2bp::state>(in, pool).to_hex();
    case variant::sp:
      return parallel_hash<blake2sp::state>(in, pool).to_hex();
  }
  return {};
}

void ours(benchmark::State& state, variant v, std::string backend, std::size_t threads,
          std::size_t size) {
  const auto in = input(size);
  std::unique_ptr<thread_pool> pool;
  if (threads > 1) pool = std::make_unique<thread_pool>(threads);
  if (!use_backend(backend) || ours_hex(v, in, pool.get()) != libb2_hex(v, in)) {
    fail(state, "digest differs from libb2's");
    return;
  }
  for (auto _ : state) {
    switch (v) {
      case variant::b:
        benchmark::DoNotOptimize(blake2b::hash(in));
        break;
      case variant::s:
        benchmark::DoNotOptimize(blake2s::hash(in));
        break;
      case variant::bp:
        benchmark::DoNotOptimize(parallel_hash<blake2bp::state>(in, pool.get()));
        break;
      case variant::sp:
        benchmark::DoNotOptimize(parallel_hash<blake2sp::state>(in, pool.get()));
        break;
    }
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * size));
}

void libb2(benchmark::State& state, variant v, std::size_t size) {
  const auto in = input(size);
  for (auto _ : state) benchmark::DoNotOptimize(libb2_hex(v, in));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * size));
}

void openssl(benchmark::State& state, variant v, std::size_t size) {
  const auto in = input(size);
  const EVP_MD* md = v == variant::b ? EVP_blake2b512() : EVP_blake2s256();
  std::uint8_t out[64];
  unsigned int n = 0;
  EVP_Digest(in.data(), in.size(), out, &n, md, nullptr);
  if (blake2::detail::to_hex(out, n) != libb2_hex(v, in)) {
    fail(state, "OpenSSL's digest differs from libb2's");
    return;
  }
  for (auto _ : state) {
    EVP_Digest(in.data(), in.size(), out, &n, md, nullptr);
    benchmark::DoNotOptimize(out);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * size));
}

void libsodium(benchmark::State& state, std::size_t size) {
  const auto in = input(size);
  std::uint8_t out[64];
  for (auto _ : state) {
    crypto_generichash(out, 64, bytes(in), in.size(), nullptr, 0);
    benchmark::DoNotOptimize(out);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * size));
}

template <blake2::family F>
void many(benchmark::State& state, std::string backend, std::size_t count, std::size_t total) {
  const std::size_t item = total / count;
  const auto in = input(total);
  std::vector<blake2::digest<F>> out(count);
  std::vector<blake2::job<F>> jobs;
  for (std::size_t i = 0; i < count; ++i) jobs.push_back({in.subspan(i * item, item), &out[i]});
  if (!use_backend(backend)) {
    fail(state, "backend unavailable");
    return;
  }
  blake2::hash_many<F>(jobs);
  for (std::size_t i = 0; i < count; ++i) {
    const variant v = F == blake2::family::b ? variant::b : variant::s;
    if (out[i].to_hex() != libb2_hex(v, in.subspan(i * item, item))) {
      fail(state, "digest differs from libb2's");
      return;
    }
  }
  for (auto _ : state) {
    blake2::hash_many<F>(jobs);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * total));
}

// SHA-256 for scale: OpenSSL's, with SHA-NI where the CPU has it.
void sha256(benchmark::State& state, std::size_t size) {
  const auto in = input(size);
  std::uint8_t out[32];
  unsigned int n = 0;
  for (auto _ : state) {
    EVP_Digest(in.data(), in.size(), out, &n, EVP_sha256(), nullptr);
    benchmark::DoNotOptimize(out);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * size));
}

#if defined(FASTBLAKE_BENCH_RUST)
void rust(benchmark::State& state, variant v, std::size_t size) {
  const auto in = input(size);
  std::uint8_t out[64];
  for (auto _ : state) {
    if (v == variant::b || v == variant::bp) {
      fastblake_rust_blake2b(bytes(in), in.size(), v == variant::bp, out);
    } else {
      fastblake_rust_blake2s(bytes(in), in.size(), v == variant::sp, out);
    }
    benchmark::DoNotOptimize(out);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * size));
}

void rust_many(benchmark::State& state, bool b, std::size_t count, std::size_t total) {
  const auto in = input(total);
  std::vector<std::uint8_t> out(64 * count);
  for (auto _ : state) {
    if (b) {
      fastblake_rust_blake2b_many(bytes(in), total / count, count, out.data());
    } else {
      fastblake_rust_blake2s_many(bytes(in), total / count, count, out.data());
    }
    benchmark::DoNotOptimize(out.data());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * total));
}
#endif

}  // namespace

void register_blake2() {
  // Appends, not operator+ chains: GCC 12 warns falsely about those (-Wrestrict).
  const auto row = [](std::string_view group, std::string_view impl, const std::string& shape) {
    std::string name(group);
    name.append("/").append(impl).append("/").append(shape);
    return name;
  };
  for (std::size_t size : sizes) {
    add_row(row("sha256", "openssl", std::to_string(size)), sha256, size);
    for (variant v : {variant::b, variant::s, variant::bp, variant::sp}) {
      for (std::string_view backend : available_backends()) {
        add_row(row(name_of(v), backend, std::to_string(size)), ours, v, std::string(backend), 1,
                size);
      }
      // Two threads split the leaves where the kernels cannot run them all at once.
      for (std::string_view backend : available_backends()) {
        if (v != variant::bp && v != variant::sp) break;
        std::string threaded(backend);
        threaded.append("_2threads");
        add_row(row(name_of(v), threaded, std::to_string(size)), ours, v, std::string(backend), 2,
                size)
            ->UseRealTime();
      }
      // libb2 runs BLAKE2bp/sp leaves on OpenMP threads: wall-clock time.
      add_row(row(name_of(v), "libb2", std::to_string(size)), libb2, v, size)->UseRealTime();
      if (v == variant::b || v == variant::s) {
        add_row(row(name_of(v), "openssl", std::to_string(size)), openssl, v, size);
      }
      if (v == variant::b) {
        add_row(row(name_of(v), "libsodium", std::to_string(size)), libsodium, size);
      }
#if defined(FASTBLAKE_BENCH_RUST)
      add_row(row(name_of(v), "rust", std::to_string(size)), rust, v, size);
#endif
    }
  }
  for (std::size_t total : many_totals) {
    for (std::size_t count : many_counts) {
      std::string shape = "x";
      shape.append(std::to_string(count)).append("/").append(std::to_string(total));
      for (std::string_view backend : available_backends()) {
        // hash_many may use the default pool's threads: wall-clock time.
        add_row(row("blake2b_many", backend, shape), many<blake2::family::b>, std::string(backend),
                count, total)
            ->UseRealTime();
        add_row(row("blake2s_many", backend, shape), many<blake2::family::s>, std::string(backend),
                count, total)
            ->UseRealTime();
      }
#if defined(FASTBLAKE_BENCH_RUST)
      add_row(row("blake2b_many", "rust", shape), rust_many, true, count, total)->UseRealTime();
      add_row(row("blake2s_many", "rust", shape), rust_many, false, count, total)->UseRealTime();
#endif
    }
  }
}

}  // namespace fastblake::bench
