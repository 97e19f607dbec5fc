// BLAKE2 throughput: BLAKE2b, BLAKE2s, BLAKE2bp and BLAKE2sp on every backend, next to
// OpenSSL, libsodium, libb2 and the Rust blake2b_simd / blake2s_simd crates; many messages at
// once against blake2b_simd's and blake2s_simd's hash_many; OpenSSL's SHA-256 for scale. Same
// buffers, one process.
//
// Every row's digest, fastblake's and the references', is checked against fastblake's portable
// backend before it is timed (the tests check that one against libb2 and the official vectors).
#include <benchmark/benchmark.h>
#include <blake2.h>
#include <openssl/evp.h>
#include <sodium.h>

#include <array>
#include <cstring>
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
  return fastblake::detail::to_hex(out, n);
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

std::string portable_hex(variant v, std::span<const std::byte> in) {
  const std::string saved(active_backend());
  use_backend("portable");
  std::string hex = ours_hex(v, in, nullptr);
  use_backend(saved);
  return hex;
}

// Fails the row unless `hex` is the portable backend's digest of `in`.
bool check(benchmark::State& state, variant v, std::span<const std::byte> in,
           const std::string& hex) {
  if (hex == portable_hex(v, in)) return true;
  fail(state, "digest differs from the portable backend's");
  return false;
}

void ours(benchmark::State& state, variant v, std::string backend, std::size_t threads,
          std::size_t size) {
  const auto in = input(size);
  std::unique_ptr<thread_pool> pool;
  if (threads > 1) pool = std::make_unique<thread_pool>(threads);
  if (!use_backend(backend)) {
    fail(state, "backend not available");
    return;
  }
  if (!check(state, v, in, ours_hex(v, in, pool.get()))) return;
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
  if (!check(state, v, in, libb2_hex(v, in))) return;
  for (auto _ : state) benchmark::DoNotOptimize(libb2_hex(v, in));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * size));
}

void openssl(benchmark::State& state, variant v, std::size_t size) {
  const auto in = input(size);
  const EVP_MD* md = v == variant::b ? EVP_blake2b512() : EVP_blake2s256();
  std::uint8_t out[64];
  unsigned int n = 0;
  EVP_Digest(in.data(), in.size(), out, &n, md, nullptr);
  if (!check(state, v, in, fastblake::detail::to_hex(out, n))) return;
  for (auto _ : state) {
    EVP_Digest(in.data(), in.size(), out, &n, md, nullptr);
    benchmark::DoNotOptimize(out);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * size));
}

void libsodium(benchmark::State& state, std::size_t size) {
  const auto in = input(size);
  std::uint8_t out[64];
  crypto_generichash(out, 64, bytes(in), in.size(), nullptr, 0);
  if (!check(state, variant::b, in, fastblake::detail::to_hex(out, 64))) return;
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
    if (!check(state, v, in.subspan(i * item, item), out[i].to_hex())) return;
  }
  for (auto _ : state) {
    blake2::hash_many<F>(jobs);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * total));
}

// SHA-256 for scale: OpenSSL's, with SHA-NI where the CPU has it, checked against libsodium's.
void sha256(benchmark::State& state, std::size_t size) {
  const auto in = input(size);
  std::uint8_t out[32];
  std::uint8_t expected[crypto_hash_sha256_BYTES];
  unsigned int n = 0;
  EVP_Digest(in.data(), in.size(), out, &n, EVP_sha256(), nullptr);
  crypto_hash_sha256(expected, bytes(in), in.size());
  if (n != sizeof expected || std::memcmp(out, expected, n) != 0) {
    fail(state, "OpenSSL's SHA-256 differs from libsodium's");
    return;
  }
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
  const bool b = v == variant::b || v == variant::bp;
  const auto run = [&] {
    if (b) {
      fastblake_rust_blake2b(bytes(in), in.size(), v == variant::bp, out);
    } else {
      fastblake_rust_blake2s(bytes(in), in.size(), v == variant::sp, out);
    }
  };
  run();
  if (!check(state, v, in, fastblake::detail::to_hex(out, b ? 64 : 32))) return;
  for (auto _ : state) {
    run();
    benchmark::DoNotOptimize(out);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * size));
}

void rust_many(benchmark::State& state, bool b, std::size_t count, std::size_t total) {
  const auto in = input(total);
  const std::size_t item = total / count;
  const std::size_t digest_size = b ? 64 : 32;
  std::vector<std::uint8_t> out(64 * count);
  const auto run = [&] {
    if (b) {
      fastblake_rust_blake2b_many(bytes(in), item, count, out.data());
    } else {
      fastblake_rust_blake2s_many(bytes(in), item, count, out.data());
    }
  };
  run();
  for (std::size_t i = 0; i < count; ++i) {
    const std::string hex = fastblake::detail::to_hex(out.data() + i * digest_size, digest_size);
    if (!check(state, b ? variant::b : variant::s, in.subspan(i * item, item), hex)) return;
  }
  for (auto _ : state) {
    run();
    benchmark::DoNotOptimize(out.data());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * total));
}
#endif

}  // namespace

void register_blake2() {
  for (std::size_t size : sizes) {
    add_row(row_name("sha256", "serial", "openssl", size), sha256, size);
    for (variant v : {variant::b, variant::s, variant::bp, variant::sp}) {
      const char* family = name_of(v);
      const bool leaves = v == variant::bp || v == variant::sp;
      for (std::string_view backend : available_backends()) {
        add_row(row_name(family, "serial", backend, size), ours, v, std::string(backend), 1, size);
        // Two threads split the leaves where the kernels cannot run them all at once.
        if (leaves) {
          add_row(row_name(family, "parallel", backend, size, 2), ours, v, std::string(backend), 2,
                  size);
        }
      }
      // libb2 runs BLAKE2bp/sp leaves on as many OpenMP threads as it chooses.
      add_row(row_name(family, leaves ? "auto" : "serial", "libb2", size), libb2, v, size);
      if (!leaves) add_row(row_name(family, "serial", "openssl", size), openssl, v, size);
      if (v == variant::b) add_row(row_name(family, "serial", "libsodium", size), libsodium, size);
#if defined(FASTBLAKE_BENCH_RUST)
      add_row(row_name(family, "serial", "rust", size), rust, v, size);
#endif
    }
  }
  // fastblake's hash_many spreads enough messages over the default pool's threads; the Rust
  // crates' hash_many runs on the calling thread.
  for (std::size_t total : many_totals) {
    for (std::size_t count : many_counts) {
      for (std::string_view backend : available_backends()) {
        add_row(row_name("blake2b", "batch", backend, total, 0, count), many<blake2::family::b>,
                std::string(backend), count, total);
        add_row(row_name("blake2s", "batch", backend, total, 0, count), many<blake2::family::s>,
                std::string(backend), count, total);
      }
#if defined(FASTBLAKE_BENCH_RUST)
      add_row(row_name("blake2b", "batch", "rust", total, 0, count), rust_many, true, count, total);
      add_row(row_name("blake2s", "batch", "rust", total, 0, count), rust_many, false, count,
              total);
#endif
    }
  }
}

}  // namespace fastblake::bench
