// The table of guarded views (guard_table.hpp).
#include "os/guard_table.hpp"

#include <new>

namespace fastblake::internal::os {
namespace {

struct guard_block {
  static constexpr std::size_t slots = 64;
  guard_slot ranges[slots];
  std::atomic<guard_block*> next{nullptr};
};
guard_block first_block;

guard_slot* take_slot(guard_block& block, std::uintptr_t begin, std::uintptr_t end) noexcept {
  for (guard_slot& r : block.ranges) {
    std::uintptr_t expected = 0;
    if (r.begin.compare_exchange_strong(expected, begin)) {
      r.state.store(guard_slot::mapped);
      r.end.store(end);
      return &r;
    }
  }
  return nullptr;
}

}  // namespace

guard_slot* take_guard_slot(std::uintptr_t begin, std::uintptr_t end) noexcept {
  for (guard_block* block = &first_block;;) {
    if (guard_slot* slot = take_slot(*block, begin, end)) return slot;
    guard_block* next = block->next.load();
    if (next == nullptr) {
      auto* added = new (std::nothrow) guard_block;
      if (added == nullptr) return nullptr;
      // Another thread may have added one meanwhile: then that one is next, and ours goes.
      if (!block->next.compare_exchange_strong(next, added)) {
        delete added;
      } else {
        next = added;
      }
    }
    block = next;
  }
}

guard_slot* guard_slot_at(std::uintptr_t address) noexcept {
  for (guard_block* block = &first_block; block != nullptr; block = block->next.load()) {
    for (guard_slot& r : block->ranges) {
      if (address >= r.begin.load() && address < r.end.load()) return &r;
    }
  }
  return nullptr;
}

}  // namespace fastblake::internal::os
