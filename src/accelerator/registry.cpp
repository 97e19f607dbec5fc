// The accelerator registry (registry.hpp) and the public register_plugin().
#include "accelerator/registry.hpp"

#include <mutex>
#include <new>

#include "os/fork_safe_mutex.hpp"

namespace fastblake::internal::accelerator {

std::atomic<std::uint64_t> generation{0};

namespace {

// Each registration is a node of its own, never changed or freed once published (they are a
// handful in a process's life), so that current() reads one pointer, without a lock: a caller
// that holds a lock of its own may ask (the offload policy does). Each node keeps the one before
// it, so all stay reachable.
struct node {
  registration current;
  const node* before = nullptr;
};

struct store {
  fork_safe_mutex lock;  // serializes replace()
  const node first{};
  std::atomic<const node*> latest{&first};
};

store& the_store() noexcept {
  static store s;
  return s;
}

bool acceptable(const fastblake::accelerator::plugin& p) noexcept {
  return p.version == fastblake::accelerator::interface_version && !p.name.empty() &&
         p.prepare != nullptr && p.subtree_children != nullptr;
}

}  // namespace

registration current() noexcept {
  return the_store().latest.load(std::memory_order_acquire)->current;
}

bool replace(const fastblake::accelerator::plugin* p) noexcept {
  if (p != nullptr && !acceptable(*p)) return false;
  store& s = the_store();
  const std::lock_guard guard(s.lock);
  const node* before = s.latest.load(std::memory_order_relaxed);
  const node* added = new (std::nothrow) node{{p, before->current.generation + 1}, before};
  if (added == nullptr) return false;
  s.latest.store(added, std::memory_order_release);
  generation.store(added->current.generation, std::memory_order_relaxed);
  return true;
}

}  // namespace fastblake::internal::accelerator

namespace fastblake::accelerator {

bool register_plugin(const plugin* p) noexcept { return internal::accelerator::replace(p); }

std::string_view registered_plugin_name() noexcept {
  const plugin* p = internal::accelerator::current().plugin;
  return p != nullptr ? p->name : std::string_view();
}

}  // namespace fastblake::accelerator
