// BLAKE2 modes over the compression kernels: the parameter block, streaming states, BLAKE2bp
// and BLAKE2sp, BLAKE2X, and many messages at once.
#include <fastblake/blake2.hpp>

#include <algorithm>
#include <array>
#include <cstring>
#include <stdexcept>
#include <string>
#include <utility>

#include "blake2/kernels.hpp"
#include "common/automatic_pool.hpp"
#include "common/endian.hpp"

namespace fastblake::blake2 {

namespace k2 = fastblake::detail::blake2;

namespace {

template <family F>
using word_t = typename traits<F>::word;
template <family F>
constexpr std::size_t block_size = traits<F>::block_size;
template <family F>
constexpr std::size_t word_size = sizeof(word_t<F>);

template <family F>
constexpr const char* family_name() {
  return F == family::b ? "blake2b" : "blake2s";
}

template <family F>
[[noreturn]] void out_of_range(const char* field, std::uint64_t low, std::uint64_t high,
                               std::uint64_t value) {
  // Appends, not operator+ chains: GCC 12 warns falsely about those (-Wrestrict).
  std::string message = family_name<F>();
  message.append(": ").append(field).append(" must be ");
  if (low == high) {
    message.append(std::to_string(low));
  } else {
    message.append(std::to_string(low)).append(" to ").append(std::to_string(high));
  }
  message.append(", not ").append(std::to_string(value));
  throw std::invalid_argument(message);
}

template <family F>
void check_range(const char* field, std::uint64_t value, std::uint64_t low, std::uint64_t high) {
  if (value < low || value > high) out_of_range<F>(field, low, high, value);
}

// Copies a byte string of at most N bytes into a zero-padded field.
template <family F, std::size_t N>
void set_field(std::array<std::uint8_t, N>& field, const char* name,
               std::span<const std::byte> value) {
  if (value.size() > N) out_of_range<F>(name, 0, N, value.size());
  field.fill(0);
  if (!value.empty()) std::memcpy(field.data(), value.data(), value.size());
}

template <family F>
k2::compress_fn<word_t<F>> compressor(const k2::kernels& k) {
  if constexpr (F == family::b) {
    return k.compress_b;
  } else {
    return k.compress_s;
  }
}

template <family F>
word_t<F> load_word(const std::uint8_t* p) {
  if constexpr (F == family::b) {
    return fastblake::detail::load_le64(p);
  } else {
    return fastblake::detail::load_le32(p);
  }
}

template <family F>
void store_word(std::uint8_t* p, word_t<F> w) {
  if constexpr (F == family::b) {
    fastblake::detail::store_le64(p, w);
  } else {
    fastblake::detail::store_le32(p, w);
  }
}

template <family F>
constexpr const word_t<F>* initial_words() {
  if constexpr (F == family::b) {
    return k2::iv_b;
  } else {
    return k2::iv_s;
  }
}

// The fields of the parameter block, as both families lay them out.
struct block_fields {
  std::uint8_t digest_length;
  std::uint8_t key_length;
  std::uint8_t fanout;
  std::uint8_t depth;
  std::uint32_t leaf_length;
  // BLAKE2X keeps its output length in the node offset's upper bits.
  std::uint64_t node_offset;
  std::uint8_t node_depth;
  std::uint8_t inner_length;
  const std::uint8_t* salt;
  const std::uint8_t* personal;
};

// h = IV xor the parameter block (RFC 7693, section 2.5; the BLAKE2 paper, section 2.8).
template <family F>
void initial_state(const block_fields& p, word_t<F> h[8]) {
  constexpr std::size_t size = 8 * word_size<F>;
  std::uint8_t block[size] = {};
  block[0] = p.digest_length;
  block[1] = p.key_length;
  block[2] = p.fanout;
  block[3] = p.depth;
  fastblake::detail::store_le32(block + 4, p.leaf_length);
  if constexpr (F == family::b) {
    fastblake::detail::store_le64(block + 8, p.node_offset);
    block[16] = p.node_depth;
    block[17] = p.inner_length;
  } else {
    // Six bytes of node offset.
    for (int i = 0; i < 6; ++i) block[8 + i] = static_cast<std::uint8_t>(p.node_offset >> (8 * i));
    block[14] = p.node_depth;
    block[15] = p.inner_length;
  }
  std::memcpy(block + size / 2, p.salt, traits<F>::salt_length);
  std::memcpy(block + size / 2 + traits<F>::salt_length, p.personal, traits<F>::personal_length);
  for (int w = 0; w < 8; ++w) h[w] = initial_words<F>()[w] ^ load_word<F>(block + w * word_size<F>);
}

constexpr std::uint8_t zero_field[16] = {};

}  // namespace

// ---- digest ----

template <family F>
digest<F>::digest(std::span<const std::uint8_t> bytes) noexcept
    : size_(std::min(bytes.size(), max_size)) {
  std::memcpy(bytes_.data(), bytes.data(), size_);
}

// ---- params ----

template <family F>
params<F>& params<F>::hash_length(std::size_t bytes) {
  check_range<F>("hash_length", bytes, 1, traits<F>::max_hash_length);
  hash_length_ = bytes;
  return *this;
}

template <family F>
params<F>& params<F>::key(std::span<const std::byte> key) {
  if (key.size() > traits<F>::max_key_length) {
    out_of_range<F>("key length", 0, traits<F>::max_key_length, key.size());
  }
  key_.fill(0);
  if (!key.empty()) std::memcpy(key_.data(), key.data(), key.size());
  key_length_ = key.size();
  return *this;
}

template <family F>
params<F>& params<F>::salt(std::span<const std::byte> salt) {
  set_field<F>(salt_, "salt length", salt);
  return *this;
}

template <family F>
params<F>& params<F>::personal(std::span<const std::byte> personal) {
  set_field<F>(personal_, "personal length", personal);
  return *this;
}

template <family F>
params<F>& params<F>::fanout(unsigned fanout) {
  check_range<F>("fanout", fanout, 0, 255);
  fanout_ = static_cast<std::uint8_t>(fanout);
  return *this;
}

template <family F>
params<F>& params<F>::max_depth(unsigned depth) {
  check_range<F>("max_depth", depth, 1, 255);
  max_depth_ = static_cast<std::uint8_t>(depth);
  return *this;
}

template <family F>
params<F>& params<F>::max_leaf_length(std::uint32_t bytes) {
  max_leaf_length_ = bytes;
  return *this;
}

template <family F>
params<F>& params<F>::node_offset(std::uint64_t offset) {
  check_range<F>("node_offset", offset, 0, traits<F>::max_node_offset);
  node_offset_ = offset;
  return *this;
}

template <family F>
params<F>& params<F>::node_depth(unsigned depth) {
  check_range<F>("node_depth", depth, 0, 255);
  node_depth_ = static_cast<std::uint8_t>(depth);
  return *this;
}

template <family F>
params<F>& params<F>::inner_hash_length(std::size_t bytes) {
  check_range<F>("inner_hash_length", bytes, 0, traits<F>::max_hash_length);
  inner_hash_length_ = static_cast<std::uint8_t>(bytes);
  return *this;
}

template <family F>
params<F>& params<F>::last_node(bool last) noexcept {
  last_node_ = last;
  return *this;
}

template <family F>
state<F> params<F>::to_state() const noexcept {
  return state<F>(*this);
}

template <family F>
digest<F> params<F>::hash(std::span<const std::byte> input) const noexcept {
  return state<F>(*this).update(input).finalize();
}

// ---- state ----

template <family F>
state<F>::state() noexcept : hash_length_(traits<F>::max_hash_length), last_node_(false) {
  // The default parameters' starting words (BLAKE2b-512, BLAKE2s-256, unkeyed), worked out once.
  static const std::array<word, 8> words = [] {
    std::array<word, 8> h;
    params<F>().initial_words(h.data());
    return h;
  }();
  h_ = words;
}

template <family F>
state<F>::state(const params<F>& p) noexcept : state(p, true) {}

template <family F>
void params<F>::initial_words(typename traits<F>::word h[8]) const noexcept {
  const block_fields fields{
      .digest_length = static_cast<std::uint8_t>(hash_length_),
      .key_length = static_cast<std::uint8_t>(key_length_),
      .fanout = fanout_,
      .depth = max_depth_,
      .leaf_length = max_leaf_length_,
      .node_offset = node_offset_ | (std::uint64_t{xof_length_} << 32),
      .node_depth = node_depth_,
      .inner_length = inner_hash_length_,
      .salt = salt_.data(),
      .personal = personal_.data(),
  };
  initial_state<F>(fields, h);
}

template <family F>
state<F>::state(const params<F>& p, bool absorb_key) noexcept
    : hash_length_(static_cast<std::uint8_t>(p.hash_length_)), last_node_(p.last_node_) {
  p.initial_words(h_.data());
  // The key, zero-padded to a block, is the first block; it stays buffered like any last block.
  if (p.key_length_ > 0 && absorb_key) {
    std::memcpy(buffer_.data(), p.key_.data(), p.key_length_);
    buffered_ = block_size<F>;
  }
}

template <family F>
state<F>& state<F>::update(std::span<const std::byte> input) noexcept {
  constexpr std::size_t B = block_size<F>;
  const auto* in = reinterpret_cast<const std::uint8_t*>(input.data());
  std::size_t n = input.size();
  count_ += n;
  // The last block (even a whole one) stays buffered: only finalization knows it is last.
  if (buffered_ + n <= B) {
    if (n > 0) std::memcpy(buffer_.data() + buffered_, in, n);
    buffered_ += n;
    return *this;
  }
  const auto compress = compressor<F>(k2::active_kernels());
  if (buffered_ > 0) {
    const std::size_t take = B - buffered_;
    std::memcpy(buffer_.data() + buffered_, in, take);
    compress(h_.data(), buffer_.data(), 1, t_.data(), B, 0, 0);
    in += take;
    n -= take;
    buffered_ = 0;
  }
  if (n > B) {
    const std::size_t blocks = (n - 1) / B;
    compress(h_.data(), in, blocks, t_.data(), B, 0, 0);
    in += blocks * B;
    n -= blocks * B;
  }
  std::memcpy(buffer_.data(), in, n);
  buffered_ = n;
  return *this;
}

template <family F>
void state<F>::finalize_into(std::uint8_t* out) const noexcept {
  std::array<word_t<F>, 8> h = h_;
  std::array<word_t<F>, 2> t = t_;
  std::array<std::uint8_t, block_size<F>> last{};
  std::memcpy(last.data(), buffer_.data(), buffered_);
  compressor<F>(k2::active_kernels())(h.data(), last.data(), 1, t.data(),
                                      static_cast<word_t<F>>(buffered_), ~word_t<F>{0},
                                      last_node_ ? ~word_t<F>{0} : 0);
  std::uint8_t bytes[8 * sizeof(word_t<F>)];
  for (int w = 0; w < 8; ++w) store_word<F>(bytes + w * word_size<F>, h[w]);
  std::memcpy(out, bytes, hash_length_);
}

template <family F>
digest<F> state<F>::finalize() const noexcept {
  std::uint8_t bytes[traits<F>::max_hash_length];
  finalize_into(bytes);
  return digest<F>(std::span<const std::uint8_t>(bytes, hash_length_));
}

template <family F>
state<F>& state<F>::set_last_node(bool last) noexcept {
  last_node_ = last;
  return *this;
}

template <family F>
digest<F> hash(std::span<const std::byte> input) noexcept {
  constexpr std::size_t B = block_size<F>;
  if (input.size() > B) return state<F>().update(input).finalize();
  // One block: one compression from the default starting words, without a state.
  std::array<word_t<F>, 8> h = state<F>().h_;
  word_t<F> t[2] = {0, 0};
  std::uint8_t block[B] = {};
  if (!input.empty()) std::memcpy(block, input.data(), input.size());
  compressor<F>(k2::active_kernels())(h.data(), block, 1, t, static_cast<word_t<F>>(input.size()),
                                      ~word_t<F>{0}, 0);
  std::uint8_t bytes[8 * sizeof(word_t<F>)];
  for (int w = 0; w < 8; ++w) store_word<F>(bytes + w * word_size<F>, h[w]);
  return digest<F>(std::span<const std::uint8_t>(bytes, traits<F>::max_hash_length));
}

// ---- many messages ----

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
             ? fastblake::detail::automatic_pool(bytes, many_parallel_min_size)
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

// ---- BLAKE2bp and BLAKE2sp ----

namespace {

template <family F>
block_fields parallel_fields(std::size_t hash_length, std::size_t key_length, std::uint64_t offset,
                             std::uint8_t node_depth) {
  return {
      .digest_length = static_cast<std::uint8_t>(hash_length),
      .key_length = static_cast<std::uint8_t>(key_length),
      .fanout = static_cast<std::uint8_t>(traits<F>::parallel_leaves),
      .depth = 2,
      .leaf_length = 0,
      .node_offset = offset,
      .node_depth = node_depth,
      .inner_length = static_cast<std::uint8_t>(traits<F>::max_hash_length),
      .salt = zero_field,
      .personal = zero_field,
  };
}

template <family F, std::size_t Lanes>
k2::lanes_fn<word_t<F>> leaves_kernel(const k2::kernels& k) {
  if constexpr (F == family::b) {
    return Lanes == 2 ? k.b_x2 : k.b_x4;
  } else {
    return Lanes == 4 ? k.s_x4 : k.s_x8;
  }
}

// Compresses `stripes` stripes at `in` into leaves [first, first + Lanes) of the transposed
// states h (of all `leaves` leaves), each leaf's blocks `leaves` blocks apart.
template <family F, std::size_t Lanes, std::size_t Leaves>
void compress_stripes(word_t<F>* h, word_t<F> counter[2], std::size_t first, const std::uint8_t* in,
                      std::size_t stripes) {
  using W = word_t<F>;
  constexpr std::size_t B = block_size<F>;
  alignas(64) W lane_h[8 * Lanes];
  alignas(64) W t[2 * Lanes];
  alignas(64) W increment[Lanes];
  alignas(64) W f[2 * Lanes] = {};
  const std::uint8_t* blocks[Lanes];
  for (std::size_t i = 0; i < Lanes; ++i) {
    for (std::size_t w = 0; w < 8; ++w) lane_h[w * Lanes + i] = h[w * Leaves + first + i];
    t[i] = counter[0];
    t[Lanes + i] = counter[1];
    increment[i] = B;
    blocks[i] = in + (first + i) * B;
  }
  leaves_kernel<F, Lanes>(k2::active_kernels())(lane_h, blocks, Leaves * B, stripes, t, increment,
                                                f);
  for (std::size_t i = 0; i < Lanes; ++i) {
    for (std::size_t w = 0; w < 8; ++w) h[w * Leaves + first + i] = lane_h[w * Lanes + i];
  }
  if (first == 0) {
    counter[0] = t[0];
    counter[1] = t[Lanes];
  }
}

// Below this many bytes of whole stripes, splitting the leaves between two threads costs more
// than it saves.
constexpr std::size_t parallel_leaves_min_size = 64u << 10;

// Whether the kernels run fewer lanes at once than there are leaves, so that a second thread
// would run the others. Where all of them run at once, each leaf's chain of dependent
// operations is what bounds the speed and a second thread only adds work (docs/benchmarks.md).
template <family F>
bool leaves_wait() {
  const k2::kernels& k = k2::active_kernels();
  return (F == family::b ? k.b_simultaneous_lanes : k.s_simultaneous_lanes) <
         traits<F>::parallel_leaves;
}

}  // namespace

template <family F>
parallel_state<F> parallel_params<F>::to_state() const noexcept {
  return parallel_state<F>(*this);
}

template <family F>
digest<F> parallel_params<F>::hash(std::span<const std::byte> input) const noexcept {
  parallel_state<F> s(*this);
  thread_pool* pool = leaves_wait<F>() ? fastblake::detail::automatic_pool(
                                             input.size(), 2 * parallel_leaves_min_size)
                                       : nullptr;
  if (pool != nullptr) {
    s.update(input, *pool);
  } else {
    s.update(input);
  }
  return s.finalize();
}

template <family F>
parallel_state<F>::parallel_state(const parallel_params<F>& p) noexcept
    : hash_length_(static_cast<std::uint8_t>(p.hash_length())),
      key_length_(static_cast<std::uint8_t>(p.key().size())) {
  for (std::size_t i = 0; i < leaves; ++i) {
    word_t<F> leaf[8];
    initial_state<F>(parallel_fields<F>(hash_length_, key_length_, i, 0), leaf);
    for (std::size_t w = 0; w < 8; ++w) h_[w * leaves + i] = leaf[w];
  }
  // Every leaf's first block is the key block: a stripe of them, buffered like input.
  if (key_length_ > 0) {
    for (std::size_t i = 0; i < leaves; ++i) {
      std::memcpy(buffer_.data() + i * traits<F>::block_size, p.key().data(), key_length_);
    }
    buffered_ = stripe_size;
  }
}

template <family F>
parallel_state<F>& parallel_state<F>::update(std::span<const std::byte> input) noexcept {
  return absorb(input, nullptr);
}

template <family F>
parallel_state<F>& parallel_state<F>::update(std::span<const std::byte> input,
                                             thread_pool& pool) noexcept {
  return absorb(input, &pool);
}

template <family F>
parallel_state<F>& parallel_state<F>::absorb(std::span<const std::byte> input,
                                             thread_pool* pool) noexcept {
  constexpr std::size_t B = traits<F>::block_size;
  // A stripe may be compressed only when every leaf has input after it: a leaf's last block
  // is compressed with the finalization flag. So up to `keep` bytes stay buffered.
  constexpr std::size_t tail = (leaves - 1) * B;
  constexpr std::size_t keep = stripe_size + tail;
  const auto* in = reinterpret_cast<const std::uint8_t*>(input.data());
  std::size_t n = input.size();
  count_ += n;
  const auto stripes_into_leaves = [&](const std::uint8_t* from, std::size_t stripes) {
    if (pool != nullptr && pool->size() > 1 && leaves_wait<F>() &&
        stripes * stripe_size >= parallel_leaves_min_size) {
      word_t<F> other[2] = {t_[0], t_[1]};
      pool->join(
          [&] { compress_stripes<F, leaves / 2, leaves>(h_.data(), t_.data(), 0, from, stripes); },
          [&] {
            compress_stripes<F, leaves / 2, leaves>(h_.data(), other, leaves / 2, from, stripes);
          });
    } else {
      compress_stripes<F, leaves, leaves>(h_.data(), t_.data(), 0, from, stripes);
    }
  };
  while (buffered_ + n > keep) {
    if (buffered_ == 0) {
      const std::size_t stripes = (n - tail - 1) / stripe_size;
      stripes_into_leaves(in, stripes);
      in += stripes * stripe_size;
      n -= stripes * stripe_size;
      break;
    }
    if (buffered_ >= stripe_size) {
      stripes_into_leaves(buffer_.data(), 1);
      std::memmove(buffer_.data(), buffer_.data() + stripe_size, buffered_ - stripe_size);
      buffered_ -= stripe_size;
      continue;
    }
    const std::size_t take = stripe_size - buffered_;
    std::memcpy(buffer_.data() + buffered_, in, take);
    buffered_ += take;
    in += take;
    n -= take;
  }
  if (n > 0) std::memcpy(buffer_.data() + buffered_, in, n);
  buffered_ += n;
  return *this;
}

template <family F>
digest<F> parallel_state<F>::finalize() const noexcept {
  using W = word_t<F>;
  constexpr std::size_t B = traits<F>::block_size;
  constexpr std::size_t inner = traits<F>::max_hash_length;
  const k2::kernels& k = k2::active_kernels();
  const auto lanes = leaves_kernel<F, leaves>(k);
  alignas(64) W h[8 * leaves];
  alignas(64) W t[2 * leaves];
  alignas(64) W increment[leaves];
  alignas(64) W f[2 * leaves] = {};
  const std::uint8_t* blocks[leaves];
  std::copy(h_.begin(), h_.end(), h);
  for (std::size_t i = 0; i < leaves; ++i) {
    t[i] = t_[0];
    t[leaves + i] = t_[1];
    increment[i] = B;
    blocks[i] = buffer_.data() + i * B;
  }
  // Each leaf has one or two blocks left in the buffer (two when a stripe's worth follows its
  // first). The first blocks of those with two go through the lanes together; the lanes of the
  // others run on a copy that is thrown away.
  if (buffered_ > stripe_size) {
    alignas(64) W before[8 * leaves];
    std::copy(h, h + 8 * leaves, before);
    lanes(h, blocks, 0, 1, t, increment, f);
    for (std::size_t i = 0; i < leaves; ++i) {
      if (buffered_ > stripe_size + i * B) continue;
      for (std::size_t w = 0; w < 8; ++w) h[w * leaves + i] = before[w * leaves + i];
      t[i] = t_[0];
      t[leaves + i] = t_[1];
    }
  }
  // The last blocks, zero-padded, finalize every leaf at once; the last leaf is the last node.
  alignas(64) std::uint8_t last[leaves * B] = {};
  for (std::size_t i = 0; i < leaves; ++i) {
    const std::size_t at = buffered_ > stripe_size + i * B ? stripe_size + i * B : i * B;
    const std::size_t length = buffered_ > at ? std::min(buffered_ - at, B) : 0;
    std::memcpy(last + i * B, buffer_.data() + at, length);
    blocks[i] = last + i * B;
    increment[i] = static_cast<W>(length);
    f[i] = ~W{0};
    f[leaves + i] = i == leaves - 1 ? ~W{0} : 0;
  }
  lanes(h, blocks, 0, 1, t, increment, f);
  std::uint8_t leaf_hashes[leaves * inner];
  for (std::size_t i = 0; i < leaves; ++i) {
    for (std::size_t w = 0; w < 8; ++w) {
      store_word<F>(leaf_hashes + i * inner + w * sizeof(W), h[w * leaves + i]);
    }
  }
  const auto compress = compressor<F>(k);
  W root[8];
  initial_state<F>(parallel_fields<F>(hash_length_, key_length_, 0, 1), root);
  W counter[2] = {0, 0};
  compress(root, leaf_hashes, leaves * inner / B - 1, counter, B, 0, 0);
  compress(root, leaf_hashes + leaves * inner - B, 1, counter, B, ~W{0}, ~W{0});
  std::uint8_t bytes[8 * sizeof(W)];
  for (std::size_t w = 0; w < 8; ++w) store_word<F>(bytes + w * sizeof(W), root[w]);
  return digest<F>(std::span<const std::uint8_t>(bytes, hash_length_));
}

// ---- BLAKE2X ----

template <family F>
xof_params<F>& xof_params<F>::hash_length(std::uint64_t bytes) {
  check_range<F>("xof hash_length", bytes, 1, traits<F>::max_xof_length);
  length_ = bytes;
  return *this;
}

template <family F>
xof_params<F>& xof_params<F>::key(std::span<const std::byte> key) {
  root_.key(key);
  return *this;
}

template <family F>
xof_params<F>& xof_params<F>::salt(std::span<const std::byte> salt) {
  root_.salt(salt);
  return *this;
}

template <family F>
xof_params<F>& xof_params<F>::personal(std::span<const std::byte> personal) {
  root_.personal(personal);
  return *this;
}

template <family F>
xof_state<F> xof_params<F>::to_state() const noexcept {
  return xof_state<F>(*this);
}

template <family F>
std::vector<std::uint8_t> xof_params<F>::hash(std::span<const std::byte> input) const {
  return xof_state<F>(*this).update(input).finalize();
}

template <family F>
xof_state<F>::xof_state(const xof_params<F>& p) noexcept
    : root_([&] {
        params<F> root = p.root();
        root.xof_length_ = static_cast<std::uint32_t>(p.hash_length());
        return state<F>(root);
      }()),
      block_params_(p.root()),
      length_(p.hash_length()) {
  // The output blocks, as the reference implementation: the root's key length, salt and
  // personalization; fanout and depth 0, leaf and inner length the maximum hash length.
  block_params_.xof_length_ = static_cast<std::uint32_t>(length_);
  block_params_.fanout_ = 0;
  block_params_.max_depth_ = 0;
  block_params_.max_leaf_length_ = traits<F>::max_hash_length;
  block_params_.inner_hash_length_ = traits<F>::max_hash_length;
  block_params_.node_depth_ = 0;
}

template <family F>
std::vector<std::uint8_t> xof_state<F>::finalize() const {
  std::vector<std::uint8_t> out(length_);
  finalize(std::as_writable_bytes(std::span<std::uint8_t>(out)), 0);
  return out;
}

template <family F>
void xof_state<F>::finalize(std::span<std::byte> out, std::uint64_t offset) const {
  constexpr std::size_t H = traits<F>::max_hash_length;
  if (offset > length_ || out.size() > length_ - offset) {
    throw std::out_of_range(std::string(family_name<F>()) +
                            "x: output range past the output length");
  }
  std::uint8_t root_hash[H];
  root_.finalize_into(root_hash);
  auto* dest = reinterpret_cast<std::uint8_t*>(out.data());
  std::uint64_t position = offset;
  const std::uint64_t end = offset + out.size();
  while (position < end) {
    const std::uint64_t index = position / H;
    const std::size_t block_length =
        static_cast<std::size_t>(std::min<std::uint64_t>(H, length_ - index * H));
    params<F> p = block_params_;
    p.hash_length_ = block_length;
    p.node_offset_ = index;
    // The node hashes the root's hash, unkeyed: only the key length is in its parameters.
    state<F> node(p, false);
    node.update(std::span<const std::byte>(reinterpret_cast<const std::byte*>(root_hash), H));
    std::uint8_t block[H];
    node.finalize_into(block);
    const std::size_t from = static_cast<std::size_t>(position - index * H);
    const std::size_t take =
        static_cast<std::size_t>(std::min<std::uint64_t>(block_length - from, end - position));
    std::memcpy(dest, block + from, take);
    dest += take;
    position += take;
  }
}

template class digest<family::b>;
template class digest<family::s>;
template class params<family::b>;
template class params<family::s>;
template class state<family::b>;
template class state<family::s>;
template class parallel_params<family::b>;
template class parallel_params<family::s>;
template class parallel_state<family::b>;
template class parallel_state<family::s>;
template class xof_params<family::b>;
template class xof_params<family::s>;
template class xof_state<family::b>;
template class xof_state<family::s>;
template digest<family::b> hash<family::b>(std::span<const std::byte>) noexcept;
template digest<family::s> hash<family::s>(std::span<const std::byte>) noexcept;
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
