// The official BLAKE3 C implementation as a one-shot function, for the benchmark programs.
#pragma once

#include <span>

#include <fastblake/blake3.hpp>

#include "blake3.h"

namespace fastblake::bench {

/// One official build's one-shot hash, through its init/update/finalize functions (the
/// official library, or its portable-only build under renamed symbols).
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

}  // namespace fastblake::bench
