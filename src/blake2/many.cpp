// Many BLAKE2b or BLAKE2s messages at once: one message per SIMD lane, split between threads.
#include <fastblake/blake2.hpp>

#include <algorithm>
#include <utility>

#include "blake2/modes.hpp"
#include "common/automatic_pool.hpp"

namespace fastblake::blake2 {

namespace k2 = fastblake::internal::blake2;
// The helpers of blake2/modes.hpp, unqualified.
using namespace fastblake::internal::blake2;

namespace {

// What one lane has to do for one message: an optional first block kept apart (a key block,
// or a block that completes a state's buffer), a run of whole blocks in place, and an optional
// last block (padded) that finalizes.
template <family F>
struct lane_task {
  std::array<word_t<F>, 8> h;
  std::array<word_t<F>, 2> t;
  std::array<std::uint8_t, block_size<F>> lead;
  bool has_lead = false;
  const std::uint8_t* run = nullptr;
  std::size_t run_blocks = 0;
  std::array<std::uint8_t, block_size<F>> last;
  bool has_last = false;
  word_t<F> last_length = 0;
  word_t<F> last_f1 = 0;
  std::size_t index = 0;
};

// The many-message kernel for `count` messages: the wide one when they fill its lanes.
template <family F>
std::pair<k2::lanes_fn<word_t<F>>, std::size_t> many_kernel(const k2::kernels& k,
                                                            std::size_t count) {
  if constexpr (F == family::b) {
    if (count >= k.b_many_wide_lanes) return {k.b_many_wide, k.b_many_wide_lanes};
    return {k.b_many, k.b_many_lanes};
  } else {
    if (count >= k.s_many_wide_lanes) return {k.s_many_wide, k.s_many_wide_lanes};
    return {k.s_many, k.s_many_lanes};
  }
}

// The narrow lanes: threads split messages while each part fills them.
template <family F>
std::size_t many_lanes(const k2::kernels& k) {
  return F == family::b ? k.b_many_lanes : k.s_many_lanes;
}

// Runs `count` tasks through the many-message kernel, a lane taking the next task (from
// next(task), false when there are none left) as soon as its own ends (done(task)). A lone task
// left runs on the single-message kernel.
template <family F, class Next, class Done>
void run_lanes(std::size_t count, Next&& next, Done&& done) noexcept {
  using W = word_t<F>;
  constexpr std::size_t B = block_size<F>;
  const k2::kernels& k = k2::active_kernels();
  const auto [kernel, n] = many_kernel<F>(k, count);
  static constexpr std::uint8_t idle_block[B] = {};
  lane_task<F> tasks[k2::max_lanes];
  bool active[k2::max_lanes] = {};
  bool more = true;
  alignas(64) W h[8 * k2::max_lanes];
  alignas(64) W t[2 * k2::max_lanes];
  alignas(64) W increment[k2::max_lanes];
  alignas(64) W f[2 * k2::max_lanes];
  const std::uint8_t* blocks[k2::max_lanes];
  const auto finish_alone = [&](lane_task<F>& task) {
    const auto compress = compressor<F>(k);
    if (task.has_lead) compress(task.h.data(), task.lead.data(), 1, task.t.data(), B, 0, 0);
    compress(task.h.data(), task.run, task.run_blocks, task.t.data(), B, 0, 0);
    if (task.has_last) {
      compress(task.h.data(), task.last.data(), 1, task.t.data(), task.last_length, ~W{0},
               task.last_f1);
    }
    done(task);
  };
  for (;;) {
    std::size_t live = 0;
    for (std::size_t i = 0; i < n; ++i) {
      while (!active[i] && more) {
        more = next(tasks[i]);
        if (!more) break;
        lane_task<F>& task = tasks[i];
        if (!task.has_lead && task.run_blocks == 0 && !task.has_last) {
          done(task);
          continue;
        }
        active[i] = true;
        for (int w = 0; w < 8; ++w) h[w * n + i] = task.h[w];
        t[i] = task.t[0];
        t[n + i] = task.t[1];
      }
      live += active[i] ? 1 : 0;
    }
    if (live == 0) return;
    if (live == 1 && !more) {
      for (std::size_t i = 0; i < n; ++i) {
        if (!active[i]) continue;
        for (int w = 0; w < 8; ++w) tasks[i].h[w] = h[w * n + i];
        tasks[i].t = {t[i], t[n + i]};
        finish_alone(tasks[i]);
        return;
      }
    }
    // Whole runs go many blocks at a time; a lane at a lead or last block makes it one step.
    std::size_t steps = ~std::size_t{0};
    for (std::size_t i = 0; i < n; ++i) {
      if (!active[i]) continue;
      const lane_task<F>& task = tasks[i];
      steps = std::min(steps, task.has_lead || task.run_blocks == 0 ? 1 : task.run_blocks);
    }
    for (std::size_t i = 0; i < n; ++i) {
      increment[i] = B;
      f[i] = 0;
      f[n + i] = 0;
      if (!active[i]) {
        blocks[i] = idle_block;
        continue;
      }
      lane_task<F>& task = tasks[i];
      if (task.has_lead) {
        blocks[i] = task.lead.data();
      } else if (task.run_blocks > 0) {
        blocks[i] = task.run;
      } else {
        blocks[i] = task.last.data();
        increment[i] = task.last_length;
        f[i] = ~W{0};
        f[n + i] = task.last_f1;
      }
    }
    // Idle lanes read their one block again and again when steps > 1: give them stride 0 by
    // pointing them at a lane that runs.
    if (steps > 1) {
      for (std::size_t i = 0; i < n; ++i) {
        if (active[i]) continue;
        for (std::size_t j = 0; j < n; ++j) {
          if (active[j]) {
            blocks[i] = blocks[j];
            break;
          }
        }
      }
    }
    kernel(h, blocks, B, steps, t, increment, f);
    for (std::size_t i = 0; i < n; ++i) {
      if (!active[i]) continue;
      lane_task<F>& task = tasks[i];
      bool finished = false;
      if (task.has_lead) {
        task.has_lead = false;
        finished = task.run_blocks == 0 && !task.has_last;
      } else if (task.run_blocks > 0) {
        task.run += steps * B;
        task.run_blocks -= steps;
        finished = task.run_blocks == 0 && !task.has_last;
      } else {
        finished = true;
      }
      if (finished) {
        for (int w = 0; w < 8; ++w) task.h[w] = h[w * n + i];
        task.t = {t[i], t[n + i]};
        active[i] = false;
        done(task);
      }
    }
  }
}

}  // namespace

template <family F>
struct many_access {
  using W = word_t<F>;
  static constexpr std::size_t B = block_size<F>;

  // A whole message from its parameters: the key block (if any), then the input, the last
  // block finalizing.
  static void message_task(const job<F>& j, lane_task<F>& task) {
    static const std::array<W, 8> default_words = state<F>().h_;
    std::size_t key_length = 0;
    if (j.with != nullptr) {
      j.with->initial_words(task.h.data());
      key_length = j.with->key_length_;
    } else {
      task.h = default_words;
    }
    task.t = {0, 0};
    const auto* in = reinterpret_cast<const std::uint8_t*>(j.input.data());
    const std::size_t n = j.input.size();
    // The key block comes first. The last block holds the input's last 1..B bytes; an empty
    // input with a key has none (the key block is the last), and one without a key finalizes
    // an empty block.
    std::array<std::uint8_t, B>& key_block = n == 0 ? task.last : task.lead;
    task.has_lead = key_length > 0 && n > 0;
    if (key_length > 0) {
      key_block.fill(0);
      std::memcpy(key_block.data(), j.with->key_.data(), key_length);
    }
    std::size_t last_length = n == 0 ? 0 : (n - 1) % B + 1;
    task.run = in;
    task.run_blocks = n == 0 ? 0 : (n - last_length) / B;
    task.has_last = true;
    if (n == 0 && key_length > 0) {
      last_length = B;
    } else {
      // An empty input may have no address at all: memcpy from nullptr is undefined.
      if (last_length != 0) std::memcpy(task.last.data(), in + n - last_length, last_length);
      std::memset(task.last.data() + last_length, 0, B - last_length);
    }
    task.last_length = static_cast<W>(last_length);
    task.last_f1 = j.with != nullptr && j.with->last_node() ? ~W{0} : 0;
  }

  static void finish(const job<F>& j, const lane_task<F>& task) {
    const std::size_t length =
        j.with != nullptr ? j.with->hash_length() : traits<F>::max_hash_length;
    std::uint8_t bytes[8 * sizeof(W)];
    for (int w = 0; w < 8; ++w) store_word<F>(bytes + w * sizeof(W), task.h[w]);
    *j.out = digest<F>(std::span<const std::uint8_t>(bytes, length));
  }

  // The whole blocks an update would compress: a first block completing the buffer, then
  // blocks in place; what is left is buffered by apply().
  static void update_task(const state<F>& s, std::span<const std::byte> input, lane_task<F>& task) {
    task.h = s.h_;
    task.t = s.t_;
    task.has_last = false;
    task.has_lead = false;
    task.run_blocks = 0;
    const auto* in = reinterpret_cast<const std::uint8_t*>(input.data());
    std::size_t n = input.size();
    if (s.buffered_ + n <= B) return;
    if (s.buffered_ > 0) {
      const std::size_t take = B - s.buffered_;
      task.lead = s.buffer_;
      std::memcpy(task.lead.data() + s.buffered_, in, take);
      task.has_lead = true;
      in += take;
      n -= take;
    }
    task.run = in;
    task.run_blocks = n > B ? (n - 1) / B : 0;
  }

  static void apply(state<F>& s, std::span<const std::byte> input, const lane_task<F>& task) {
    const auto* in = reinterpret_cast<const std::uint8_t*>(input.data());
    const std::size_t n = input.size();
    s.count_ += n;
    if (s.buffered_ + n <= B) {
      if (n > 0) std::memcpy(s.buffer_.data() + s.buffered_, in, n);
      s.buffered_ += n;
      return;
    }
    s.h_ = task.h;
    s.t_ = task.t;
    const std::uint8_t* rest = task.run + task.run_blocks * B;
    const std::size_t left = static_cast<std::size_t>(in + n - rest);
    std::memcpy(s.buffer_.data(), rest, left);
    s.buffered_ = left;
  }
};

namespace {

// Below this many bytes in all, many messages stay on one thread.
constexpr std::size_t many_parallel_min_size = 128u << 10;

template <family F>
std::size_t bytes_of(const job<F>& j) {
  return j.input.size();
}

inline std::size_t bytes_of(std::span<const std::byte> input) { return input.size(); }

// Runs run(first, last) over [first, last), split in two (at half the bytes) on the pool's
// threads while both halves have enough messages to fill the lanes: the wide kernel's where
// there are enough for it, else the narrow one's.
template <class Item, class Run>
void split_many(std::span<const Item> items, std::size_t first, std::size_t last,
                std::pair<std::size_t, std::size_t> narrow_and_wide, thread_pool* pool, Run&& run) {
  const auto [narrow, wide] = narrow_and_wide;
  const std::size_t lanes = last - first >= 2 * wide ? wide : narrow;
  std::size_t bytes = 0;
  for (std::size_t i = first; i < last; ++i) bytes += bytes_of(items[i]);
  if (pool == nullptr || last - first < 2 * lanes || bytes < many_parallel_min_size) {
    run(first, last);
    return;
  }
  std::size_t middle = first;
  for (std::size_t half = 0; middle < last && 2 * half < bytes; ++middle) {
    half += bytes_of(items[middle]);
  }
  middle = std::clamp(middle, first + lanes, last - lanes);
  pool->join([&] { split_many(items, first, middle, narrow_and_wide, pool, run); },
             [&] { split_many(items, middle, last, narrow_and_wide, pool, run); });
}

template <family F>
std::pair<std::size_t, std::size_t> lane_counts(const k2::kernels& k) {
  return F == family::b ? std::pair{k.b_many_lanes, k.b_many_wide_lanes}
                        : std::pair{k.s_many_lanes, k.s_many_wide_lanes};
}

// The default pool when `count` messages of `bytes` in all can use it.
template <family F, class Items>
thread_pool* automatic_many_pool(const Items& items) {
  std::size_t bytes = 0;
  for (const auto& item : items) bytes += bytes_of(item);
  return items.size() >= 2 * many_lanes<F>(k2::active_kernels())
             ? fastblake::internal::automatic_pool(bytes, many_parallel_min_size)
             : nullptr;
}

template <family F>
void hash_many_on(std::span<const job<F>> jobs, thread_pool* pool) noexcept {
  split_many(
      jobs, 0, jobs.size(), lane_counts<F>(k2::active_kernels()), pool,
      [&](std::size_t first, std::size_t last) {
        std::size_t next = first;
        run_lanes<F>(
            last - first,
            [&](lane_task<F>& task) {
              if (next == last) return false;
              many_access<F>::message_task(jobs[next], task);
              task.index = next++;
              return true;
            },
            [&](const lane_task<F>& task) { many_access<F>::finish(jobs[task.index], task); });
      });
}

template <family F>
void update_many_on(std::span<state<F>* const> states,
                    std::span<const std::span<const std::byte>> inputs, thread_pool* pool) {
  if (states.size() != inputs.size()) {
    throw std::invalid_argument(std::string(family_name<F>()) + ": update_many given " +
                                std::to_string(states.size()) + " states and " +
                                std::to_string(inputs.size()) + " inputs");
  }
  const std::size_t count = states.size();
  split_many(inputs, 0, count, lane_counts<F>(k2::active_kernels()), pool,
             [&](std::size_t first, std::size_t last) {
               std::size_t next = first;
               run_lanes<F>(
                   last - first,
                   [&](lane_task<F>& task) {
                     if (next == last) return false;
                     many_access<F>::update_task(*states[next], inputs[next], task);
                     task.index = next++;
                     return true;
                   },
                   [&](const lane_task<F>& task) {
                     many_access<F>::apply(*states[task.index], inputs[task.index], task);
                   });
             });
}

}  // namespace

template <family F>
void hash_many(std::span<const job<F>> jobs) noexcept {
  hash_many_on(jobs, automatic_many_pool<F>(jobs));
}

template <family F>
void hash_many(std::span<const job<F>> jobs, thread_pool& pool) noexcept {
  hash_many_on(jobs, &pool);
}

template <family F>
void update_many(std::span<state<F>* const> states,
                 std::span<const std::span<const std::byte>> inputs) {
  update_many_on(states, inputs,
                 automatic_many_pool<F>(inputs.first(std::min(states.size(), inputs.size()))));
}

template <family F>
void update_many(std::span<state<F>* const> states,
                 std::span<const std::span<const std::byte>> inputs, thread_pool& pool) {
  update_many_on(states, inputs, &pool);
}

template void hash_many<family::b>(std::span<const job<family::b>>) noexcept;
template void hash_many<family::s>(std::span<const job<family::s>>) noexcept;
template void hash_many<family::b>(std::span<const job<family::b>>, thread_pool&) noexcept;
template void hash_many<family::s>(std::span<const job<family::s>>, thread_pool&) noexcept;
template void update_many<family::b>(std::span<state<family::b>* const>,
                                     std::span<const std::span<const std::byte>>, thread_pool&);
template void update_many<family::s>(std::span<state<family::s>* const>,
                                     std::span<const std::span<const std::byte>>, thread_pool&);
template void update_many<family::b>(std::span<state<family::b>* const>,
                                     std::span<const std::span<const std::byte>>);
template void update_many<family::s>(std::span<state<family::s>* const>,
                                     std::span<const std::span<const std::byte>>);

}  // namespace fastblake::blake2
