// The offload policy and its public controls (offload.hpp, backend.hpp).
#include "blake3/offload.hpp"

#include <atomic>
#include <chrono>
#include <mutex>

#include <fastblake/backend.hpp>

#include "backend/backend.hpp"
#include "os/fork_safe_mutex.hpp"

namespace fastblake::internal::blake3 {

std::atomic<std::uint64_t> offload_floor{~std::uint64_t{0}};
std::atomic<std::uint64_t> floor_generation{0};

namespace {

// FASTBLAKE_BACKEND's mode for the plug-in registered (nullptr: none).
offload_mode mode_from_environment(const fastblake::accelerator::plugin* registered) noexcept {
  switch (requested_offload(registered != nullptr ? registered->name : std::string_view())) {
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
// lock a subtree costs nothing. The lock is never held while the plug-in runs, so that its
// functions may call the library (current_offload(), offload_min_size(), hashing); `busy`
// keeps it to one call at a time instead, and any other subtree meanwhile goes to the CPU.
// `busy` outlives registrations: a call of the plug-in registered before (the same plug-in,
// registered again) may still be running when a new one comes, and the promise of one call at
// a time is the functions', whatever table they were reached through.
struct state {
  fork_safe_mutex lock;
  // The registration all the rest belongs to; another one starts afresh (synced).
  accelerator::registration registered;
  offload_mode mode = mode_from_environment(nullptr);
  // set_offload_mode was called: the environment's mode is no longer asked for.
  bool mode_set = false;
  std::uint64_t min_size = 16u << 20;
  bool prepared = false;
  bool busy = false;
  std::uint64_t offloaded = 0;
  std::uint64_t kept = 0;
  std::error_code error;
  offload_policy policy;
};

state& the_state() noexcept {
  static state s;
  return s;
}

// Called with the lock held after any change of what the accelerator would accept.
void update_floor(const state& s) noexcept {
  std::uint64_t floor = ~std::uint64_t{0};
  if (s.registered.plugin != nullptr && !s.error) {
    if (s.mode == offload_mode::forced) floor = 0;
    if (s.mode == offload_mode::automatic) floor = s.min_size;
  }
  offload_floor.store(floor, std::memory_order_relaxed);
  floor_generation.store(s.registered.generation, std::memory_order_relaxed);
}

// With the lock held: s as of the current registration.
state& synced(state& s) noexcept {
  if (accelerator::generation.load(std::memory_order_relaxed) != s.registered.generation) {
    s.registered = accelerator::current();
    if (!s.mode_set) s.mode = mode_from_environment(s.registered.plugin);
    s.prepared = false;
    s.offloaded = 0;
    s.kept = 0;
    s.error.clear();
    s.policy = offload_policy();
    update_floor(s);
  }
  return s;
}

double seconds_since(std::chrono::steady_clock::time_point start) noexcept {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// With the lock held: whether a subtree of `size` bytes may go to the accelerator now.
bool eligible(const state& s, std::uint64_t size) noexcept {
  return s.registered.plugin != nullptr && !s.error && !s.busy &&
         s.mode != offload_mode::disabled &&
         (s.mode != offload_mode::automatic || size >= s.min_size);
}

// With the lock held, after a call of the plug-in made without it: false when a registration
// came meanwhile (the state is the new one's now, and the call's outcome is nobody's).
bool still_registered(state& s, std::uint64_t generation) noexcept {
  return synced(s).registered.generation == generation;
}

// With the lock held after a failed call: the error, kept, and the accelerator not used again.
void record_failure(state& s, const std::error_code& error, std::errc otherwise) noexcept {
  s.error = error ? error : std::make_error_code(otherwise);
  update_floor(s);
}

enum class verdict { cpu, cpu_measured, done };

// Hashes the subtree on the accelerator if the policy says so; `lock` is held on entry and on
// return, released around the plug-in's functions.
verdict try_accelerator(state& s, std::unique_lock<fork_safe_mutex>& lock,
                        std::span<const std::byte> input, std::uint64_t chunk_counter,
                        const fastblake::blake3::hazmat::mode& m,
                        std::span<std::uint8_t, 64> children) noexcept {
  if (!eligible(synced(s), input.size())) return verdict::cpu;
  const fastblake::accelerator::plugin* p = s.registered.plugin;
  const std::uint64_t generation = s.registered.generation;
  s.busy = true;
  std::error_code error;
  if (!s.prepared) {
    lock.unlock();
    const bool ready = p->prepare(error);
    lock.lock();
    s.busy = false;  // the call has ended, whichever registration is current now
    if (!still_registered(s, generation)) return verdict::cpu;
    if (!ready) {
      record_failure(s, error, std::errc::no_such_device);
      return verdict::cpu;
    }
    s.prepared = true;
    // prepare() may have changed the mode or the minimum size.
    if (!eligible(s, input.size())) return verdict::cpu;
    s.busy = true;
  }
  if (s.mode == offload_mode::automatic && s.policy.choose() == offload_policy::side::cpu) {
    ++s.kept;
    s.busy = false;
    return verdict::cpu_measured;
  }
  lock.unlock();
  const auto start = std::chrono::steady_clock::now();
  const bool hashed = p->subtree_children(input, chunk_counter, m, children, error);
  const double seconds = seconds_since(start);
  lock.lock();
  s.busy = false;
  if (!still_registered(s, generation)) return hashed ? verdict::done : verdict::cpu;
  if (!hashed) {
    record_failure(s, error, std::errc::io_error);
    return verdict::cpu;
  }
  s.policy.record(offload_policy::side::accelerator, input.size(), seconds);
  ++s.offloaded;
  return verdict::done;
}

}  // namespace

void subtree_children(std::span<const std::byte> input, std::uint64_t chunk_counter,
                      const fastblake::blake3::hazmat::mode& m,
                      std::span<std::uint8_t, 64> children, cpu_work on_cpu) noexcept {
  state& s = the_state();
  std::unique_lock lock(s.lock);
  const verdict v = try_accelerator(s, lock, input, chunk_counter, m, children);
  const std::uint64_t generation = s.registered.generation;
  lock.unlock();
  if (v == verdict::done) return;
  if (v == verdict::cpu) {
    on_cpu();
    return;
  }
  const auto start = std::chrono::steady_clock::now();
  on_cpu();
  const double seconds = seconds_since(start);
  lock.lock();
  if (still_registered(s, generation)) {
    s.policy.record(offload_policy::side::cpu, input.size(), seconds);
  }
}

}  // namespace fastblake::internal::blake3

namespace fastblake {

namespace k3 = internal::blake3;

offload_status current_offload() noexcept {
  k3::state& s = k3::the_state();
  const std::lock_guard guard(s.lock);
  k3::synced(s);
  offload_status status;
  if (s.registered.plugin != nullptr) status.name = s.registered.plugin->name;
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
  s.mode_set = true;
  k3::update_floor(k3::synced(s));
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
  k3::update_floor(k3::synced(s));
}

}  // namespace fastblake
