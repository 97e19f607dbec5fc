// BLAKE2X (BLAKE2Xb and BLAKE2Xs): a root hash, then output nodes from any offset.
#include <fastblake/blake2.hpp>

#include <algorithm>
#include <limits>
#include <new>
#include <vector>
#include "blake2/modes.hpp"

namespace fastblake::blake2 {

// The helpers of blake2/modes.hpp, unqualified.
using namespace fastblake::internal::blake2;

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
  // On a 32-bit target an output of 4 GiB or more cannot be one vector.
  if (length_ > std::numeric_limits<std::size_t>::max()) throw std::bad_alloc();
  std::vector<std::uint8_t> out(static_cast<std::size_t>(length_));
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

template class xof_params<family::b>;
template class xof_params<family::s>;
template class xof_state<family::b>;
template class xof_state<family::s>;

}  // namespace fastblake::blake2
