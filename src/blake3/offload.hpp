// BLAKE3's use of an accelerator plug-in (fastblake/accelerator.hpp, registered in
// accelerator/registry.*): which subtrees it may take, and the policy that decides, subtree by
// subtree, whether it or this CPU hashes one.
//
// Only the automatic functions offload: hash(), keyed_hash(), derive_key() and the file API
// with file_strategy::automatic. Which side hashes an eligible subtree is measured, not
// assumed: offload_policy tries both and keeps the faster (whether a GPU behind a host link
// beats every core of this CPU depends on the machine).
#pragma once

#include <atomic>
#include <cstdint>
#include <span>
#include <type_traits>

#include <fastblake/blake3.hpp>

#include "accelerator/registry.hpp"
#include "common/faster_of_two.hpp"

namespace fastblake::internal::blake3 {

/// The smallest subtree the accelerator could take (the maximum while none is registered, or
/// it is disabled or failed; 0 when forced), as worked out for registration `floor_generation`.
/// Two relaxed loads on every subtree keep the policy's lock off the path of ordinary hashes.
extern std::atomic<std::uint64_t> offload_floor;
extern std::atomic<std::uint64_t> floor_generation;
inline bool may_take(std::uint64_t size) noexcept {
  // A registration the policy has not seen yet: only the policy can tell.
  if (accelerator::generation.load(std::memory_order_relaxed) !=
      floor_generation.load(std::memory_order_relaxed)) {
    return true;
  }
  return size >= offload_floor.load(std::memory_order_relaxed);
}

/// The CPU's way of writing a subtree's children: a callable, not owned, called at most once.
class cpu_work {
 public:
  template <class F>
  requires(!std::is_same_v<std::remove_cvref_t<F>, cpu_work>) explicit cpu_work(F& f) noexcept
      : call_([](void* callable) noexcept { (*static_cast<F*>(callable))(); }), f_(&f) {}
  void operator()() const noexcept { call_(f_); }

 private:
  void (*call_)(void*) noexcept;
  void* f_;
};

/// Writes the two children of the subtree made of `input` (more than one chunk, from chunk
/// `chunk_counter`, in mode m): on the accelerator when one is registered, usable, free and
/// chosen for this size, else by calling on_cpu(), which is timed when the policy wants the
/// CPU's speed. The accelerator is asked under a lock; on_cpu runs outside it.
void subtree_children(std::span<const std::byte> input, std::uint64_t chunk_counter,
                      const fastblake::blake3::hazmat::mode& m,
                      std::span<std::uint8_t, 64> children, cpu_work on_cpu) noexcept;

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
