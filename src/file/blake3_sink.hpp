// BLAKE3's side of the file code: the sink over a hasher that the engine (engine.hpp) hashes a
// file into. blake3_file.cpp, the public API, hands it to the engine; the engine calls it; so a
// file's bytes run one way, API -> engine -> sink -> hasher.
#pragma once

#include <cstdint>
#include <memory>
#include <span>

#include <fastblake/blake3.hpp>

#include "file/engine.hpp"

namespace fastblake::internal::blake3 {

class hasher_sink final : public file_sink {
 public:
  explicit hasher_sink(fastblake::blake3::hasher& h) noexcept : h_(h) {}
  void update(std::span<const std::byte> bytes) override { h_.update(bytes); }
  void update_parallel(std::span<const std::byte> bytes, thread_pool* pool,
                       bool may_offload) override;
  std::unique_ptr<subtree_parts> split_next(std::uint64_t most, std::size_t parts,
                                            bool may_offload) override;

 private:
  fastblake::blake3::hasher& h_;
};

}  // namespace fastblake::internal::blake3
