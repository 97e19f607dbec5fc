// Many inputs hashed in batches, reported in their order: what -j does in both tools.
#pragma once

#include <cstddef>

namespace tools {

/// Goes through inputs [0, count) in order: those for which alone(i) holds (standard input,
/// which a batch cannot open, or an input already known to fail) one at a time with
/// single(i), the others in runs of at most `limit` neighbours with batch(first, last), which
/// hashes them at once and reports them in order.
template <class Alone, class Single, class Batch>
void in_ordered_batches(std::size_t count, std::size_t limit, Alone&& alone, Single&& single,
                        Batch&& batch) {
  std::size_t i = 0;
  while (i < count) {
    if (alone(i)) {
      single(i);
      ++i;
      continue;
    }
    std::size_t end = i;
    while (end < count && !alone(end) && end - i < limit) ++end;
    batch(i, end);
    i = end;
  }
}

}  // namespace tools
