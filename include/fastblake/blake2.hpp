// BLAKE2b, BLAKE2s, BLAKE2bp, BLAKE2sp, BLAKE2Xb and BLAKE2Xs (RFC 7693, the BLAKE2 and BLAKE2X
// papers), with every parameter of the parameter block.
//
// Each variant has its namespace: fastblake::blake2b, blake2s, blake2bp, blake2sp, blake2xb,
// blake2xs, holding `params`, `state`, `digest` and `hash`. The types are shared templates
// over the word size (fastblake::blake2::family); the namespaces only name them.
//
//   auto d = fastblake::blake2b::hash("abc");                       // 64-byte BLAKE2b-512
//   auto p = fastblake::blake2s::params().hash_length(16).key(k).personal("myapp");
//   auto s = p.to_state(); s.update(a); s.update(b); auto d2 = s.finalize();
//
// Thread safety as in blake3.hpp: distinct objects may be used from distinct threads.
#pragma once

#include <fastblake/detail/require_cxx20.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <fastblake/config.hpp>
#include <fastblake/detail/bytes.hpp>
#include <fastblake/thread_pool.hpp>

namespace fastblake::blake2 {

/// BLAKE2b works on 64-bit words and 128-byte blocks; BLAKE2s on 32-bit words and 64-byte
/// blocks.
enum class family : std::uint8_t { b, s };

template <family F>
struct traits;

template <>
struct traits<family::b> {
  using word = std::uint64_t;
  static constexpr std::size_t block_size = 128;
  static constexpr std::size_t max_hash_length = 64;
  static constexpr std::size_t max_key_length = 64;
  static constexpr std::size_t salt_length = 16;
  static constexpr std::size_t personal_length = 16;
  static constexpr std::uint64_t max_node_offset = ~std::uint64_t{0};
  /// BLAKE2bp hashes four leaves; BLAKE2Xb outputs up to 2^32 - 2 bytes.
  static constexpr std::size_t parallel_leaves = 4;
  static constexpr std::uint64_t max_xof_length = 0xFFFFFFFEu;
};

template <>
struct traits<family::s> {
  using word = std::uint32_t;
  static constexpr std::size_t block_size = 64;
  static constexpr std::size_t max_hash_length = 32;
  static constexpr std::size_t max_key_length = 32;
  static constexpr std::size_t salt_length = 8;
  static constexpr std::size_t personal_length = 8;
  /// BLAKE2s stores the node offset in 48 bits.
  static constexpr std::uint64_t max_node_offset = (std::uint64_t{1} << 48) - 1;
  static constexpr std::size_t parallel_leaves = 8;
  static constexpr std::uint64_t max_xof_length = 0xFFFEu;
};

/// A BLAKE2 hash of 1 to traits<F>::max_hash_length bytes. Comparison with == takes the same
/// time wherever the bytes differ (digests of different lengths are never equal).
template <family F>
class FASTBLAKE_API digest {
 public:
  static constexpr std::size_t max_size = traits<F>::max_hash_length;

  /// Empty.
  constexpr digest() noexcept = default;
  /// The first min(bytes.size(), max_size) bytes.
  explicit digest(std::span<const std::uint8_t> bytes) noexcept;

  const std::uint8_t* data() const noexcept { return bytes_.data(); }
  std::size_t size() const noexcept { return size_; }
  std::span<const std::byte> as_bytes() const noexcept {
    return std::as_bytes(std::span<const std::uint8_t>(bytes_.data(), size_));
  }
  /// Lowercase hexadecimal, two characters a byte.
  std::string to_hex() const { return fastblake::detail::to_hex(bytes_.data(), size_); }

  friend bool operator==(const digest& a, const digest& b) noexcept {
    return a.size_ == b.size_ &&
           fastblake::detail::constant_time_equal(a.data(), b.data(), a.size_);
  }

 private:
  std::array<std::uint8_t, max_size> bytes_{};
  std::size_t size_ = 0;
};

template <family F>
class state;

/// The parameter block of BLAKE2b or BLAKE2s, every field. Defaults: the longest hash, no
/// key, zero salt and personalization, sequential mode (fanout 1, depth 1, everything else 0).
/// Setters chain and throw std::invalid_argument, naming the field, for a value out of range:
/// a length of 0 or above the maximum, a key, salt or personalization that is too long (shorter
/// salts and personalizations are padded with zeros), a node offset beyond 48 bits for BLAKE2s.
template <family F>
class FASTBLAKE_API params {
 public:
  using traits_type = traits<F>;

  params& hash_length(std::size_t bytes);
  params& key(std::span<const std::byte> key);
  params& key(std::string_view key) { return this->key(as_span(key)); }
  params& salt(std::span<const std::byte> salt);
  params& salt(std::string_view salt) { return this->salt(as_span(salt)); }
  params& personal(std::span<const std::byte> personal);
  params& personal(std::string_view personal) { return this->personal(as_span(personal)); }
  /// 0 means unlimited.
  params& fanout(unsigned fanout);
  /// 1 to 255; 255 means unlimited.
  params& max_depth(unsigned depth);
  /// 0 means unlimited.
  params& max_leaf_length(std::uint32_t bytes);
  params& node_offset(std::uint64_t offset);
  params& node_depth(unsigned depth);
  /// 0 to the maximum hash length.
  params& inner_hash_length(std::size_t bytes);
  /// Whether this is the last node of its level (the f1 flag of the final compression).
  params& last_node(bool last = true) noexcept;

  std::size_t hash_length() const noexcept { return hash_length_; }
  std::span<const std::uint8_t> key() const noexcept { return {key_.data(), key_length_}; }
  const std::array<std::uint8_t, traits<F>::salt_length>& salt() const noexcept { return salt_; }
  const std::array<std::uint8_t, traits<F>::personal_length>& personal() const noexcept {
    return personal_;
  }
  unsigned fanout() const noexcept { return fanout_; }
  unsigned max_depth() const noexcept { return max_depth_; }
  std::uint32_t max_leaf_length() const noexcept { return max_leaf_length_; }
  std::uint64_t node_offset() const noexcept { return node_offset_; }
  unsigned node_depth() const noexcept { return node_depth_; }
  std::size_t inner_hash_length() const noexcept { return inner_hash_length_; }
  bool last_node() const noexcept { return last_node_; }

  /// The state these parameters start (with the key block absorbed, if there is a key).
  state<F> to_state() const noexcept;
  digest<F> hash(std::span<const std::byte> input) const noexcept;
  digest<F> hash(std::string_view input) const noexcept { return hash(as_span(input)); }

 private:
  template <family>
  friend class state;
  template <family>
  friend class xof_state;
  template <family>
  friend struct many_access;
  // IV xor the parameter block.
  void initial_words(typename traits<F>::word h[8]) const noexcept;
  static std::span<const std::byte> as_span(std::string_view s) noexcept {
    return std::as_bytes(std::span<const char>(s.data(), s.size()));
  }
  std::size_t hash_length_ = traits<F>::max_hash_length;
  std::array<std::uint8_t, traits<F>::max_key_length> key_{};
  std::size_t key_length_ = 0;
  std::array<std::uint8_t, traits<F>::salt_length> salt_{};
  std::array<std::uint8_t, traits<F>::personal_length> personal_{};
  std::uint8_t fanout_ = 1;
  std::uint8_t max_depth_ = 1;
  std::uint32_t max_leaf_length_ = 0;
  std::uint64_t node_offset_ = 0;
  std::uint8_t node_depth_ = 0;
  std::uint8_t inner_hash_length_ = 0;
  bool last_node_ = false;
  // BLAKE2X's field, in the bytes the others leave: the xof states set it.
  std::uint32_t xof_length_ = 0;
};

/// A streaming BLAKE2b or BLAKE2s hash.
template <family F>
class FASTBLAKE_API state {
 public:
  using word = typename traits<F>::word;

  /// BLAKE2b-512 or BLAKE2s-256, unkeyed.
  state() noexcept;
  explicit state(const params<F>& p) noexcept;

  state& update(std::span<const std::byte> input) noexcept;
  state& update(std::span<const unsigned char> input) noexcept {
    return update(std::as_bytes(input));
  }
  state& update(std::string_view input) noexcept {
    return update(std::as_bytes(std::span<const char>(input.data(), input.size())));
  }
  /// The hash of everything absorbed so far; the state is left as it was, so more input may
  /// follow.
  digest<F> finalize() const noexcept;
  /// Marks (or unmarks) this node as the last of its level, as params::last_node.
  state& set_last_node(bool last = true) noexcept;
  /// Bytes absorbed by update(), modulo 2^64 (a key block does not count).
  std::uint64_t count() const noexcept { return count_; }
  /// The length of the hash finalize() gives.
  std::size_t hash_length() const noexcept { return hash_length_; }

 private:
  template <family>
  friend class parallel_state;
  template <family>
  friend class xof_state;
  template <family>
  friend struct many_access;
  template <family G>
  friend digest<G> hash(std::span<const std::byte> input) noexcept;
  // BLAKE2X's output nodes have a key length in their parameters but absorb no key block.
  state(const params<F>& p, bool absorb_key) noexcept;
  void finalize_into(std::uint8_t* out) const noexcept;

  std::array<word, 8> h_{};
  std::array<word, 2> t_{};
  std::array<std::uint8_t, traits<F>::block_size> buffer_{};
  std::size_t buffered_ = 0;
  std::uint64_t count_ = 0;
  std::uint8_t hash_length_ = 0;
  bool last_node_ = false;
};

/// One-shot hash with default parameters: BLAKE2b-512 or BLAKE2s-256.
template <family F>
FASTBLAKE_API digest<F> hash(std::span<const std::byte> input) noexcept;

/// One input of hash_many: its bytes, where its digest goes, and its parameters (nullptr: the
/// defaults). Jobs may have different lengths and parameters.
template <family F>
struct job {
  std::span<const std::byte> input;
  digest<F>* out = nullptr;
  const params<F>* with = nullptr;
};

/// Hashes many independent inputs at once, several per SIMD register: each lane takes the
/// next job as soon as its current one ends, so the lanes stay full when lengths differ. Many
/// large jobs are spread over the default thread pool's threads as well.
template <family F>
FASTBLAKE_API void hash_many(std::span<const job<F>> jobs) noexcept;
/// As hash_many(jobs), on `pool`'s threads when there are enough jobs to fill their lanes.
template <family F>
FASTBLAKE_API void hash_many(std::span<const job<F>> jobs, thread_pool& pool) noexcept;

/// Absorbs inputs[i] into *states[i] for every i, as states[i]->update(inputs[i]) but several
/// states per SIMD register (and thread, as hash_many). The pointers must be distinct. Throws
/// std::invalid_argument, touching no state, if the spans differ in size.
template <family F>
FASTBLAKE_API void update_many(std::span<state<F>* const> states,
                               std::span<const std::span<const std::byte>> inputs);
template <family F>
FASTBLAKE_API void update_many(std::span<state<F>* const> states,
                               std::span<const std::span<const std::byte>> inputs,
                               thread_pool& pool);

// ---------------------------------------------------------------------------------------------
// BLAKE2bp and BLAKE2sp.

template <family F>
class parallel_state;

/// BLAKE2bp / BLAKE2sp parameters: the hash length and the key; the tree parameters are fixed
/// by the construction.
template <family F>
class FASTBLAKE_API parallel_params {
 public:
  parallel_params& hash_length(std::size_t bytes) {
    fields_.hash_length(bytes);
    return *this;
  }
  parallel_params& key(std::span<const std::byte> key) {
    fields_.key(key);
    return *this;
  }
  parallel_params& key(std::string_view key) {
    fields_.key(key);
    return *this;
  }
  std::size_t hash_length() const noexcept { return fields_.hash_length(); }
  std::span<const std::uint8_t> key() const noexcept { return fields_.key(); }

  parallel_state<F> to_state() const noexcept;
  /// Hashes on the default thread pool when the input is large enough to gain from it.
  digest<F> hash(std::span<const std::byte> input) const noexcept;
  digest<F> hash(std::string_view input) const noexcept {
    return hash(std::as_bytes(std::span<const char>(input.data(), input.size())));
  }

 private:
  // Only the hash length and key of these are used.
  params<F> fields_;
};

/// BLAKE2bp (four BLAKE2b leaves) or BLAKE2sp (eight BLAKE2s leaves) as the reference
/// implementation: the input's blocks go to the leaves in turn, the leaves' hashes (of the
/// maximum length) to a root. The leaves run in SIMD lanes; large inputs may use threads.
template <family F>
class FASTBLAKE_API parallel_state {
 public:
  using word = typename traits<F>::word;
  static constexpr std::size_t leaves = traits<F>::parallel_leaves;
  static constexpr std::size_t stripe_size = leaves * traits<F>::block_size;

  parallel_state() noexcept : parallel_state(parallel_params<F>()) {}
  explicit parallel_state(const parallel_params<F>& p) noexcept;

  parallel_state& update(std::span<const std::byte> input) noexcept;
  parallel_state& update(std::string_view input) noexcept {
    return update(std::as_bytes(std::span<const char>(input.data(), input.size())));
  }
  /// As update(), the leaves split between the pool's threads when the input is large.
  parallel_state& update(std::span<const std::byte> input, thread_pool& pool) noexcept;
  digest<F> finalize() const noexcept;
  std::uint64_t count() const noexcept { return count_; }
  /// The length of the hash finalize() gives.
  std::size_t hash_length() const noexcept { return hash_length_; }

 private:
  parallel_state& absorb(std::span<const std::byte> input, thread_pool* pool) noexcept;

  // The leaves' chaining words, transposed: word w of leaf i at h_[w * leaves + i].
  std::array<word, 8 * leaves> h_{};
  // Every leaf has absorbed the same number of whole blocks until finalization.
  std::array<word, 2> t_{};
  // Input not yet given to the leaves: never more than a stripe plus a block for each leaf but
  // one, because a leaf's last block is compressed only at finalization.
  std::array<std::uint8_t, 2 * stripe_size> buffer_{};
  std::size_t buffered_ = 0;
  std::uint64_t count_ = 0;
  std::uint8_t hash_length_ = 0;
  std::uint8_t key_length_ = 0;
};

// ---------------------------------------------------------------------------------------------
// BLAKE2Xb and BLAKE2Xs: extendable output.

template <family F>
class xof_state;

/// BLAKE2X parameters: the output length (1 to traits<F>::max_xof_length bytes), key, salt
/// and personalization.
template <family F>
class FASTBLAKE_API xof_params {
 public:
  xof_params& hash_length(std::uint64_t bytes);
  xof_params& key(std::span<const std::byte> key);
  xof_params& key(std::string_view key) { return this->key(as_span(key)); }
  xof_params& salt(std::span<const std::byte> salt);
  xof_params& salt(std::string_view salt) { return this->salt(as_span(salt)); }
  xof_params& personal(std::span<const std::byte> personal);
  xof_params& personal(std::string_view personal) { return this->personal(as_span(personal)); }
  std::uint64_t hash_length() const noexcept { return length_; }
  const params<F>& root() const noexcept { return root_; }

  xof_state<F> to_state() const noexcept;
  std::vector<std::uint8_t> hash(std::span<const std::byte> input) const;
  std::vector<std::uint8_t> hash(std::string_view input) const { return hash(as_span(input)); }

 private:
  static std::span<const std::byte> as_span(std::string_view s) noexcept {
    return std::as_bytes(std::span<const char>(s.data(), s.size()));
  }
  params<F> root_;
  std::uint64_t length_ = traits<F>::max_hash_length;
};

/// A streaming BLAKE2X hash. Every output block is an independent hash of the root's, so any
/// range of the output can be produced on its own.
template <family F>
class FASTBLAKE_API xof_state {
 public:
  explicit xof_state(const xof_params<F>& p) noexcept;

  xof_state& update(std::span<const std::byte> input) noexcept {
    root_.update(input);
    return *this;
  }
  xof_state& update(std::string_view input) noexcept {
    root_.update(input);
    return *this;
  }
  /// The whole output, hash_length() bytes.
  std::vector<std::uint8_t> finalize() const;
  /// Bytes [offset, offset + out.size()) of the output; throws std::out_of_range past its end.
  void finalize(std::span<std::byte> out, std::uint64_t offset = 0) const;
  std::uint64_t hash_length() const noexcept { return length_; }
  std::uint64_t count() const noexcept { return root_.count(); }

 private:
  state<F> root_;
  params<F> block_params_;
  std::uint64_t length_;
};

// ---------------------------------------------------------------------------------------------
// The algorithm chosen at run time.

/// The four algorithms of b2sum -a, by which hasher picks its state.
enum class algorithm : std::uint8_t { blake2b, blake2s, blake2bp, blake2sp };

/// "blake2b", "blake2s", "blake2bp" or "blake2sp"; empty for a value outside the enumeration.
FASTBLAKE_API std::string_view algorithm_name(algorithm a) noexcept;
/// The algorithm of that name (as algorithm_name spells it), or std::nullopt.
FASTBLAKE_API std::optional<algorithm> algorithm_from_name(std::string_view name) noexcept;
/// 64 for BLAKE2b and BLAKE2bp, 32 for BLAKE2s and BLAKE2sp: the longest hash and key.
FASTBLAKE_API std::size_t max_hash_length(algorithm a) noexcept;

/// Any BLAKE2 digest, of up to 64 bytes: what hasher gives whatever the algorithm.
using any_digest = digest<family::b>;

/// A streaming hash of any of the four algorithms, chosen at run time: what a tool or a
/// language binding holds where the algorithm is a user's choice. Its state is one of the four
/// (held in place: no allocation); a value type, copied to fork a hash.
class FASTBLAKE_API hasher {
 public:
  /// BLAKE2b-512, unkeyed.
  hasher() noexcept = default;
  /// `hash_length` bytes (0: the algorithm's longest) of `a`, keyed with `key` if it is not
  /// empty. Throws std::invalid_argument, as params does, for a length or key out of range or
  /// an algorithm outside the enumeration.
  explicit hasher(algorithm a, std::size_t hash_length = 0, std::span<const std::byte> key = {});
  /// Any parameters: the state that params::to_state() or parallel_params::to_state() made.
  hasher(const state<family::b>& s) noexcept : state_(s) {}
  hasher(const state<family::s>& s) noexcept : state_(s) {}
  hasher(const parallel_state<family::b>& s) noexcept : state_(s) {}
  hasher(const parallel_state<family::s>& s) noexcept : state_(s) {}

  algorithm algo() const noexcept { return static_cast<algorithm>(state_.index()); }
  /// The length of the hash finalize() gives.
  std::size_t hash_length() const noexcept;
  /// Bytes absorbed, modulo 2^64.
  std::uint64_t count() const noexcept;

  hasher& update(std::span<const std::byte> input) noexcept;
  hasher& update(std::span<const unsigned char> input) noexcept {
    return update(std::as_bytes(input));
  }
  hasher& update(std::string_view input) noexcept {
    return update(std::as_bytes(std::span<const char>(input.data(), input.size())));
  }
  /// As update(); BLAKE2bp and BLAKE2sp split their leaves between the pool's threads when the
  /// input is large enough to gain from it (the others have one chain of blocks: this thread).
  hasher& update(std::span<const std::byte> input, thread_pool& pool) noexcept;

  /// The hash of everything absorbed so far; more input may follow.
  any_digest finalize() const noexcept;

  /// The state, for those who want the algorithm's own type back.
  const std::variant<state<family::b>, state<family::s>, parallel_state<family::b>,
                     parallel_state<family::s>>&
  variant() const noexcept {
    return state_;
  }

 private:
  // In the order of `algorithm`.
  std::variant<state<family::b>, state<family::s>, parallel_state<family::b>,
               parallel_state<family::s>>
      state_;
};

}  // namespace fastblake::blake2

namespace fastblake::blake2b {
using digest = blake2::digest<blake2::family::b>;
using params = blake2::params<blake2::family::b>;
using state = blake2::state<blake2::family::b>;
using job = blake2::job<blake2::family::b>;
inline digest hash(std::span<const std::byte> input) noexcept {
  return blake2::hash<blake2::family::b>(input);
}
inline digest hash(std::string_view input) noexcept {
  return hash(std::as_bytes(std::span<const char>(input.data(), input.size())));
}
inline void hash_many(std::span<const job> jobs) noexcept { blake2::hash_many(jobs); }
inline void hash_many(std::span<const job> jobs, thread_pool& pool) noexcept {
  blake2::hash_many(jobs, pool);
}
inline void update_many(std::span<state* const> states,
                        std::span<const std::span<const std::byte>> inputs) {
  blake2::update_many(states, inputs);
}
inline void update_many(std::span<state* const> states,
                        std::span<const std::span<const std::byte>> inputs, thread_pool& pool) {
  blake2::update_many(states, inputs, pool);
}
}  // namespace fastblake::blake2b

namespace fastblake::blake2s {
using digest = blake2::digest<blake2::family::s>;
using params = blake2::params<blake2::family::s>;
using state = blake2::state<blake2::family::s>;
using job = blake2::job<blake2::family::s>;
inline digest hash(std::span<const std::byte> input) noexcept {
  return blake2::hash<blake2::family::s>(input);
}
inline digest hash(std::string_view input) noexcept {
  return hash(std::as_bytes(std::span<const char>(input.data(), input.size())));
}
inline void hash_many(std::span<const job> jobs) noexcept { blake2::hash_many(jobs); }
inline void hash_many(std::span<const job> jobs, thread_pool& pool) noexcept {
  blake2::hash_many(jobs, pool);
}
inline void update_many(std::span<state* const> states,
                        std::span<const std::span<const std::byte>> inputs) {
  blake2::update_many(states, inputs);
}
inline void update_many(std::span<state* const> states,
                        std::span<const std::span<const std::byte>> inputs, thread_pool& pool) {
  blake2::update_many(states, inputs, pool);
}
}  // namespace fastblake::blake2s

namespace fastblake::blake2bp {
using digest = blake2::digest<blake2::family::b>;
using params = blake2::parallel_params<blake2::family::b>;
using state = blake2::parallel_state<blake2::family::b>;
inline digest hash(std::span<const std::byte> input) noexcept { return params().hash(input); }
inline digest hash(std::string_view input) noexcept { return params().hash(input); }
}  // namespace fastblake::blake2bp

namespace fastblake::blake2sp {
using digest = blake2::digest<blake2::family::s>;
using params = blake2::parallel_params<blake2::family::s>;
using state = blake2::parallel_state<blake2::family::s>;
inline digest hash(std::span<const std::byte> input) noexcept { return params().hash(input); }
inline digest hash(std::string_view input) noexcept { return params().hash(input); }
}  // namespace fastblake::blake2sp

namespace fastblake::blake2xb {
using params = blake2::xof_params<blake2::family::b>;
using state = blake2::xof_state<blake2::family::b>;
/// `length` bytes of BLAKE2Xb output, unkeyed.
inline std::vector<std::uint8_t> hash(std::span<const std::byte> input, std::uint64_t length) {
  return params().hash_length(length).hash(input);
}
}  // namespace fastblake::blake2xb

namespace fastblake::blake2xs {
using params = blake2::xof_params<blake2::family::s>;
using state = blake2::xof_state<blake2::family::s>;
/// `length` bytes of BLAKE2Xs output, unkeyed.
inline std::vector<std::uint8_t> hash(std::span<const std::byte> input, std::uint64_t length) {
  return params().hash_length(length).hash(input);
}
}  // namespace fastblake::blake2xs
