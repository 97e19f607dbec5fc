// Handing large subtrees to an accelerator library (fastblake::cuda) that registers itself at
// load time, so that the CPU library reaches it without linking it.
//
// Only the automatic functions offload: hash(), keyed_hash(), derive_key() and the file API
// with file_strategy::automatic. Which side hashes an eligible subtree is measured, not
// assumed: offload_policy tries both and keeps the faster (whether a GPU behind a host link
// beats every core of this CPU depends on the machine).
#pragma once

#include <atomic>
#include <cstdint>
#include <span>
#include <string_view>
#include <system_error>

#include <fastblake/backend.hpp>
#include <fastblake/blake3.hpp>
#include <fastblake/config.hpp>

#include "common/faster_of_two.hpp"

namespace fastblake::internal::blake3 {

/// What an accelerator gives the CPU library. Both functions are called with the offload
/// lock held, never concurrently.
struct offload {
  std::string_view name;
  /// Makes the accelerator ready (device, buffers), untimed, before its first subtree; false
  /// with `error` set when it cannot be used (no device).
  bool (*prepare)(std::error_code& error) noexcept;
  /// The two children (left then right chaining value, 64 bytes) of the subtree of `size`
  /// bytes, more than one chunk, that starts at chunk `chunk_counter`, in mode m; false with
  /// `error` set on failure, and then `children` is not used.
  bool (*subtree_children)(const std::byte* input, std::uint64_t size, std::uint64_t chunk_counter,
                           const fastblake::blake3::hazmat::mode& m, std::uint8_t children[64],
                           std::error_code& error) noexcept;
};

/// Called once by the accelerator library's static initialiser; the last registration wins
/// and starts afresh (no error, nothing measured). nullptr unregisters.
FASTBLAKE_API void register_offload(const offload* o) noexcept;

/// The registered accelerator, or nullptr.
const offload* registered_offload() noexcept;

/// The smallest subtree try_offload could take: the maximum while no accelerator is registered
/// or it is disabled or failed, 0 when forced. A relaxed load on every subtree keeps the lock
/// off the path of ordinary hashes.
extern std::atomic<std::uint64_t> offload_floor;
inline bool may_take(std::uint64_t size) noexcept {
  return size >= offload_floor.load(std::memory_order_relaxed);
}

/// Hashes the children of a subtree on the accelerator when it is registered, usable, free
/// and chosen for `size` bytes; returns false to leave the subtree to the CPU, which then
/// calls cpu_done(size, seconds) with its own timing if `measure` was set.
struct offload_attempt {
  bool done = false;     // children were written
  bool measure = false;  // the CPU's time for this subtree is wanted
};
offload_attempt try_offload(const std::byte* input, std::uint64_t size, std::uint64_t chunk_counter,
                            const fastblake::blake3::hazmat::mode& m,
                            std::uint8_t children[64]) noexcept;
void record_cpu(std::uint64_t size, double seconds) noexcept;

/// Which side hashes an eligible subtree: the accelerator is tried first (faster_of_two).
class offload_policy {
 public:
  enum class side { cpu, accelerator };
  static constexpr std::uint64_t refresh_interval = 32;

  side choose() noexcept {
    return policy_.choose() == faster_of_two::way::first ? side::accelerator : side::cpu;
  }
  void record(side s, std::uint64_t bytes, double seconds) noexcept {
    policy_.record(way_of(s), bytes, seconds);
  }
  double cpu_rate() const noexcept { return policy_.rate(way_of(side::cpu)); }
  double accelerator_rate() const noexcept { return policy_.rate(way_of(side::accelerator)); }

 private:
  static faster_of_two::way way_of(side s) noexcept {
    return s == side::accelerator ? faster_of_two::way::first : faster_of_two::way::second;
  }
  faster_of_two policy_{refresh_interval};
};

}  // namespace fastblake::internal::blake3

namespace fastblake::blake3::detail {

struct internal_access {
  static hazmat::mode make_mode(const std::array<std::uint32_t, 8>& key_words,
                                std::uint8_t flags) noexcept {
    return hazmat::mode(key_words, flags);
  }
  /// The mode h hashes in (for the C interface, whose hashers carry their mode).
  static hazmat::mode mode_of(const hasher& h) noexcept {
    return hazmat::mode(h.key_words_, h.chunk_.flags);
  }
  /// hasher::update_parallel for the automatic functions: may offload.
  static void update_automatic(hasher& h, std::span<const std::byte> input, thread_pool* pool) {
    h.update_with(input, pool, true);
  }
  /// The largest power of two of at most `most` bytes, two chunks or more, that h's next bytes
  /// can be as one subtree of its tree (h holds no partial chunk and is at a multiple of it,
  /// and may take that much more), and where that subtree starts in the whole input; {0, 0}
  /// if none.
  struct subtree_place {
    std::uint64_t size;
    std::uint64_t start;
  };
  static subtree_place next_subtree(const hasher& h, std::uint64_t most) noexcept;
  /// Adds to h the subtree that next_subtree(h, size) placed, given its top node's children.
  static void push_subtree(hasher& h, const hazmat::chaining_value& left,
                           const hazmat::chaining_value& right, std::uint64_t size) noexcept;
};

}  // namespace fastblake::blake3::detail
