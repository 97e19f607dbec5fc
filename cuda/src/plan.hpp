// How the CUDA backend walks the BLAKE3 tree, as host code the CPU tests run without a GPU.
//
// BLAKE3's tree, level by level, pairs adjacent nodes and carries an odd last node up
// unchanged. A block of the GPU reduces 2^levels neighbouring nodes at a time in shared memory,
// so a launch takes the tree up to max_levels_per_launch levels; launches repeat until the
// nodes wanted are left: the root's two children for a whole input, one chaining value for a
// piece of a larger one (whose pieces the CPU then merges).
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include <fastblake/blake3.hpp>

namespace fastblake::cuda::detail {

/// Threads a block: 2^8 nodes, reduced 8 levels at most per launch.
inline constexpr unsigned block_threads = 256;
inline constexpr unsigned max_levels_per_launch = 8;

struct launch_plan {
  /// Levels each launch reduces: the first launch hashes the chunks too.
  std::vector<unsigned> levels;
  /// Nodes left at the end: 2, or 1 for a single chunk or a piece.
  std::uint64_t final_nodes;
};

/// The largest piece: pinned staging and device buffers of more are unlikely to be granted, and
/// no transfer gains from them.
inline constexpr std::uint64_t max_piece_size = std::uint64_t{1} << 32;

/// A requested piece size as context::set_piece_size takes it: rounded down to a power of two,
/// at least one chunk (1 KiB), at most max_piece_size; any value, 2^64 - 1 included.
inline std::uint64_t piece_size_for(std::uint64_t bytes) {
  std::uint64_t p = 1024;
  while (p < max_piece_size && p * 2 <= bytes) p *= 2;
  return p;
}

/// ceil(log2(n)) for n >= 1.
inline unsigned ceil_log2(std::uint64_t n) {
  unsigned bits = 0;
  while ((1ull << bits) < n) ++bits;
  return bits;
}

/// The launches that reduce `chunks` (>= 1) chunks to `target` nodes: 2 (the root's children;
/// needs chunks >= 2) or 1 (a subtree's chaining value). The first launch is always there (it
/// hashes the chunks), even with no level to reduce; it reduces up to first_launch_levels
/// (9 where a thread merges two chunks itself), the others up to max_levels_per_launch.
inline launch_plan plan_reduction(std::uint64_t chunks, unsigned target,
                                  unsigned first_launch_levels = max_levels_per_launch) {
  // ceil(chunks / 2^k) == target first at k = ceil_log2(chunks) - (target == 2).
  unsigned total = ceil_log2(chunks);
  if (target == 2 && total > 0) --total;
  launch_plan plan{{}, 0};
  unsigned most = first_launch_levels;
  do {
    const unsigned now = total < most ? total : most;
    plan.levels.push_back(now);
    total -= now;
    most = max_levels_per_launch;
  } while (total > 0);
  std::uint64_t nodes = chunks;
  for (unsigned l : plan.levels) nodes = (nodes + (1ull << l) - 1) >> l;
  plan.final_nodes = nodes;
  return plan;
}

/// Merges the chaining values of consecutive pieces (all but the last the same power-of-two
/// number of chunks) level by level down to the root's two children. Needs two or more.
inline std::pair<blake3::hazmat::chaining_value, blake3::hazmat::chaining_value> merge_to_children(
    std::vector<blake3::hazmat::chaining_value> nodes, const blake3::hazmat::mode& m) {
  while (nodes.size() > 2) {
    std::vector<blake3::hazmat::chaining_value> up;
    for (std::size_t i = 0; i < nodes.size(); i += 2) {
      up.push_back(i + 1 < nodes.size()
                       ? blake3::hazmat::merge_subtrees_non_root(nodes[i], nodes[i + 1], m)
                       : nodes[i]);
    }
    nodes = std::move(up);
  }
  return {nodes[0], nodes[1]};
}

}  // namespace fastblake::cuda::detail
