// The offload registry, its policy and its public controls (offload.hpp, backend.hpp).
#include "blake3/offload.hpp"

#include <atomic>
#include <chrono>
#include <mutex>

#include "backend/backend.hpp"

namespace fastblake::internal::blake3 {

std::atomic<std::uint64_t> offload_floor{~std::uint64_t{0}};

namespace {

offload_mode mode_from_environment() noexcept {
  switch (requested_offload()) {
    case offload_request::forced:
      return offload_mode::forced;
    case offload_request::disabled:
      return offload_mode::disabled;
    case offload_request::automatic:
      break;
  }
  return offload_mode::automatic;
}

// Everything below is read and written under `lock`: eligible subtrees are megabytes, so one
// lock a subtree costs nothing, and the accelerator's context is not thread-safe anyway.
struct state {
  std::mutex lock;
  const offload* registered = nullptr;
  offload_mode mode = mode_from_environment();
  std::uint64_t min_size = 16u << 20;
  bool prepared = false;
  std::uint64_t offloaded = 0;
  std::uint64_t kept = 0;
  std::error_code error;
  offload_policy policy;
};

state& the_state() noexcept {
  static state s;
  return s;
}

// Called with the lock held after any change of what try_offload would accept.
void update_floor(const state& s) noexcept {
  std::uint64_t floor = ~std::uint64_t{0};
  if (s.registered != nullptr && !s.error) {
    if (s.mode == offload_mode::forced) floor = 0;
    if (s.mode == offload_mode::automatic) floor = s.min_size;
  }
  offload_floor.store(floor, std::memory_order_relaxed);
}

double seconds_since(std::chrono::steady_clock::time_point start) noexcept {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

void register_offload(const offload* o) noexcept {
  state& s = the_state();
  const std::lock_guard guard(s.lock);
  s.registered = o;
  note_accelerator_name(o != nullptr ? o->name : std::string_view());
  s.prepared = false;
  s.offloaded = 0;
  s.kept = 0;
  s.error.clear();
  s.policy = offload_policy();
  update_floor(s);
}

const offload* registered_offload() noexcept {
  state& s = the_state();
  const std::lock_guard guard(s.lock);
  return s.registered;
}

offload_attempt try_offload(const std::byte* input, std::uint64_t size, std::uint64_t chunk_counter,
                            const fastblake::blake3::hazmat::mode& m,
                            std::uint8_t children[64]) noexcept {
  state& s = the_state();
  // A second thread finds the accelerator busy and hashes on the CPU instead of waiting.
  std::unique_lock guard(s.lock, std::try_to_lock);
  if (!guard.owns_lock()) return {};
  if (s.registered == nullptr || s.error || s.mode == offload_mode::disabled) return {};
  if (s.mode == offload_mode::automatic && size < s.min_size) return {};
  if (!s.prepared) {
    if (!s.registered->prepare(s.error)) {
      update_floor(s);
      return {};
    }
    s.prepared = true;
  }
  if (s.mode == offload_mode::automatic && s.policy.choose() == offload_policy::side::cpu) {
    ++s.kept;
    return {false, true};
  }
  const auto start = std::chrono::steady_clock::now();
  if (!s.registered->subtree_children(input, size, chunk_counter, m, children, s.error)) {
    if (!s.error) s.error = std::make_error_code(std::errc::io_error);
    update_floor(s);
    return {};
  }
  s.policy.record(offload_policy::side::accelerator, size, seconds_since(start));
  ++s.offloaded;
  return {true, false};
}

void record_cpu(std::uint64_t size, double seconds) noexcept {
  state& s = the_state();
  const std::lock_guard guard(s.lock);
  s.policy.record(offload_policy::side::cpu, size, seconds);
}

}  // namespace fastblake::internal::blake3

namespace fastblake {

namespace k3 = internal::blake3;

offload_status current_offload() noexcept {
  k3::state& s = k3::the_state();
  const std::lock_guard guard(s.lock);
  offload_status status;
  if (s.registered != nullptr) status.name = s.registered->name;
  status.mode = s.mode;
  status.offloaded = s.offloaded;
  status.kept = s.kept;
  status.accelerator_rate = s.policy.accelerator_rate();
  status.cpu_rate = s.policy.cpu_rate();
  status.error = s.error;
  return status;
}

void set_offload_mode(offload_mode mode) noexcept {
  k3::state& s = k3::the_state();
  const std::lock_guard guard(s.lock);
  const bool known = mode == offload_mode::automatic || mode == offload_mode::forced ||
                     mode == offload_mode::disabled;
  s.mode = known ? mode : offload_mode::disabled;
  k3::update_floor(s);
}

std::uint64_t offload_min_size() noexcept {
  k3::state& s = k3::the_state();
  const std::lock_guard guard(s.lock);
  return s.min_size;
}

void set_offload_min_size(std::uint64_t bytes) noexcept {
  k3::state& s = k3::the_state();
  const std::lock_guard guard(s.lock);
  s.min_size = bytes;
  k3::update_floor(s);
}

}  // namespace fastblake
