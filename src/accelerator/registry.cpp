// The accelerator registry (registry.hpp) and the public register_plugin().
#include "accelerator/registry.hpp"

#include <mutex>

namespace fastblake::internal::accelerator {

std::atomic<std::uint64_t> generation{0};

namespace {

struct store {
  std::mutex lock;
  registration current;
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
  store& s = the_store();
  const std::lock_guard guard(s.lock);
  return s.current;
}

bool replace(const fastblake::accelerator::plugin* p) noexcept {
  if (p != nullptr && !acceptable(*p)) return false;
  store& s = the_store();
  const std::lock_guard guard(s.lock);
  s.current.plugin = p;
  ++s.current.generation;
  generation.store(s.current.generation, std::memory_order_relaxed);
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
