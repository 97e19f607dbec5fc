// The official BLAKE3 C implementation as a one-shot function, for the benchmark programs.
#pragma once

#include <cstddef>
#include <span>
#include <string_view>

#include <fastblake/blake3.hpp>

#include "blake3.h"

// The official library built with one x86 level's kernels only, every symbol renamed
// official_<level>_* (cmake/OfficialBlake3.cmake), where FASTBLAKE_OFFICIAL_LEVELS is defined.
#define FASTBLAKE_DECLARE_OFFICIAL_BUILD(build)                                           \
  extern "C" {                                                                            \
  void official_##build##_blake3_hasher_init(blake3_hasher* self);                        \
  void official_##build##_blake3_hasher_update(blake3_hasher* self, const void* input,    \
                                               size_t len);                               \
  void official_##build##_blake3_hasher_finalize(const blake3_hasher* self, uint8_t* out, \
                                                 size_t out_len);                         \
  size_t official_##build##_blake3_simd_degree(void);                                     \
  }

namespace fastblake::bench {

/// One official build's one-shot hash, through its init/update/finalize functions (the
/// official library, or a build of it under renamed symbols).
template <auto init = blake3_hasher_init, auto update = blake3_hasher_update,
          auto finalize = blake3_hasher_finalize>
blake3::digest official_hash(std::span<const std::byte> input) {
  blake3_hasher h;
  init(&h);
  update(&h, input.data(), input.size());
  blake3::digest::bytes_type out;
  finalize(&h, out.data(), out.size());
  return blake3::digest(out);
}

/// An official build restricted to one x86 level.
struct official_level {
  /// The level, named as fastblake's backend for it: sse2, sse41, avx2, avx512.
  std::string_view name;
  blake3::digest (*hash)(std::span<const std::byte>);
  /// The SIMD degree the build reports where the CPU has its level; any other value means it
  /// fell back to a lower one (its portable kernel).
  std::size_t (*simd_degree)();
  std::size_t expected_degree;
};

/// The per-level builds linked into this program (empty where none are built).
std::span<const official_level> official_levels();

}  // namespace fastblake::bench
