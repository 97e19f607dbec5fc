// The streaming state of BLAKE2b and BLAKE2s, its digest, and the one-shot hash.
#include <fastblake/blake2.hpp>

#include "blake2/modes.hpp"

namespace fastblake::blake2 {

namespace k2 = fastblake::internal::blake2;
// The helpers of blake2/modes.hpp, unqualified.
using namespace fastblake::internal::blake2;

template <family F>
digest<F>::digest(std::span<const std::uint8_t> bytes) noexcept
    : size_(std::min(bytes.size(), max_size)) {
  std::memcpy(bytes_.data(), bytes.data(), size_);
}

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

template class digest<family::b>;
template class digest<family::s>;
template class state<family::b>;
template class state<family::s>;
template digest<family::b> hash<family::b>(std::span<const std::byte>) noexcept;
template digest<family::s> hash<family::s>(std::span<const std::byte>) noexcept;

}  // namespace fastblake::blake2
