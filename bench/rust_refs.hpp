// The official Rust BLAKE3 crate and the blake2b_simd / blake2s_simd crates, built from
// Debian's sources as a static library (bench/rust/), when FASTBLAKE_BENCH_RUST is on.
#pragma once

#include <cstddef>
#include <cstdint>

extern "C" {
struct fastblake_rust_pool;
fastblake_rust_pool* fastblake_rust_pool_new(std::size_t threads);
void fastblake_rust_pool_free(fastblake_rust_pool* pool);
void fastblake_rust_hash(const std::uint8_t* input, std::size_t len, std::uint8_t* out);
void fastblake_rust_hash_rayon(const fastblake_rust_pool* pool, const std::uint8_t* input,
                               std::size_t len, std::uint8_t* out);
void fastblake_rust_blake2b(const std::uint8_t* input, std::size_t len, bool bp, std::uint8_t* out);
void fastblake_rust_blake2s(const std::uint8_t* input, std::size_t len, bool sp, std::uint8_t* out);
void fastblake_rust_blake2b_many(const std::uint8_t* input, std::size_t len, std::size_t count,
                                 std::uint8_t* out);
void fastblake_rust_blake2s_many(const std::uint8_t* input, std::size_t len, std::size_t count,
                                 std::uint8_t* out);
}
