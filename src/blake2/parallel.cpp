// BLAKE2bp and BLAKE2sp: leaves in SIMD lanes (and threads, where the lanes wait), then the root.
#include <fastblake/blake2.hpp>

#include <algorithm>

#include "blake2/modes.hpp"
#include "common/automatic_pool.hpp"

namespace fastblake::blake2 {

namespace k2 = fastblake::internal::blake2;
// The helpers of blake2/modes.hpp, unqualified.
using namespace fastblake::internal::blake2;

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
  thread_pool* pool = leaves_wait<F>() ? fastblake::internal::automatic_pool(
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

template class parallel_params<family::b>;
template class parallel_params<family::s>;
template class parallel_state<family::b>;
template class parallel_state<family::s>;

}  // namespace fastblake::blake2
