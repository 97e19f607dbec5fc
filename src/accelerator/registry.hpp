// The registered accelerator plug-in (fastblake/accelerator.hpp), below everything that asks
// for it: the backend chooser reads its name, BLAKE3's offload policy (blake3/offload.*) uses
// it. Registration only records the plug-in; what uses it notices a new one by its generation.
#pragma once

#include <atomic>
#include <cstdint>

#include <fastblake/accelerator.hpp>

namespace fastblake::internal::accelerator {

struct registration {
  const fastblake::accelerator::plugin* plugin = nullptr;
  /// Counts registrations (and unregistrations): a user of the plug-in that saw another
  /// generation starts afresh.
  std::uint64_t generation = 0;
};

/// The current registration: one atomic load, no lock (a caller may hold a lock of its own).
registration current() noexcept;

/// Registers p (nullptr: none); false, changing nothing, when p is refused (register_plugin).
bool replace(const fastblake::accelerator::plugin* p) noexcept;

/// current().generation, as one relaxed load: for checks on every hash that must not lock.
extern std::atomic<std::uint64_t> generation;

}  // namespace fastblake::internal::accelerator
