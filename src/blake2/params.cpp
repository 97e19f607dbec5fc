// The parameter block of BLAKE2b and BLAKE2s: every field, checked.
#include <fastblake/blake2.hpp>

#include "blake2/modes.hpp"

namespace fastblake::blake2 {

// The helpers of blake2/modes.hpp, unqualified.
using namespace fastblake::internal::blake2;

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

template class params<family::b>;
template class params<family::s>;

}  // namespace fastblake::blake2
