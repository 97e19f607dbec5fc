// The automatic strategy's choice of way for each window of a big file: mapped, or read in
// parts, whichever has been faster in this process.
#include <mutex>
#include <optional>

#include "common/faster_of_two.hpp"
#include "file/engine.hpp"
#include "os/fork_safe_mutex.hpp"

namespace fastblake::internal {

// Mapping a file costs page faults and page-table work; reading it costs a copy, but into a
// buffer that stays in the core's caches while it is hashed. Which is faster depends on the
// page cache as much as on the machine: on an AMD EPYC Zen 4, b3sum reading in parts hashed a
// 1 GiB file cached in small folios (written 4 KiB at a time) 1.24x as fast as mapping it, and
// one cached in large folios (written 64 MiB at a time, or read in by the kernel's read-ahead)
// about 0.95x (docs/blake3-tree.md, "Files"). So it is measured, window by window, across the
// process's files; 16 windows of 16 MiB between two tries of the slower way cost at most 1/16
// of the difference.
namespace {
fork_safe_mutex window_ways_mutex;
faster_of_two window_ways{16};
std::optional<window_way> forced_window_way;
}  // namespace

window_way choose_window_way() noexcept {
  const std::lock_guard lock(window_ways_mutex);
  if (forced_window_way) return *forced_window_way;
  return window_ways.choose() == faster_of_two::way::first ? window_way::map
                                                           : window_way::read_parts;
}

void record_window_way(window_way way, std::uint64_t bytes, double seconds) noexcept {
  const std::lock_guard lock(window_ways_mutex);
  if (forced_window_way) return;
  window_ways.record(
      way == window_way::map ? faster_of_two::way::first : faster_of_two::way::second, bytes,
      seconds);
}

void force_window_way(std::optional<window_way> way) noexcept {
  const std::lock_guard lock(window_ways_mutex);
  forced_window_way = way;
}

}  // namespace fastblake::internal
