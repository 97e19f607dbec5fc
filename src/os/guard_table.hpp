// The table of guarded views that the fault handlers of os/posix/ and os/windows/ read: blocks of
// slots that only ever grow (a block is never freed, so a handler can walk them at any moment
// without a lock), one block more each time every slot is busy.
#pragma once

#include <atomic>
#include <cstdint>

#include "os/file.hpp"

namespace fastblake::internal::os {

struct mapped_file::guard_slot {
  enum state : int { mapped, mending, zeros, lost };
  std::atomic<std::uintptr_t> begin{0};
  std::atomic<std::uintptr_t> end{0};
  // mapped until a fault; then (mending while the handler replaces the view) zeros, or lost
  // where it could not be replaced (the fault then goes where it would have gone without us).
  std::atomic<int> state{mapped};
};
using guard_slot = mapped_file::guard_slot;

/// A free slot taken for [begin, end); nullptr only when no memory is left for another block.
guard_slot* take_guard_slot(std::uintptr_t begin, std::uintptr_t end) noexcept;
/// The slot whose view holds `address`, or nullptr.
guard_slot* guard_slot_at(std::uintptr_t address) noexcept;
/// Frees the slot (the view is unmapped after).
inline void free_guard_slot(guard_slot& slot) noexcept {
  slot.end.store(0);
  slot.begin.store(0);
}

}  // namespace fastblake::internal::os
