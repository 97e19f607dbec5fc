// BLAKE3: hash, keyed hash, key derivation, extendable output, and the subtree API (hazmat).
//
// Every function here is thread-safe in the usual sense: distinct objects may be used from
// distinct threads; one object must not be mutated from two threads at once.
#pragma once

#include <fastblake/detail/require_cxx20.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include <fastblake/config.hpp>
#include <fastblake/detail/bytes.hpp>
#include <fastblake/thread_pool.hpp>

namespace fastblake::blake3 {

inline constexpr std::size_t key_size = 32;
inline constexpr std::size_t out_size = 32;
inline constexpr std::size_t block_size = 64;
inline constexpr std::size_t chunk_size = 1024;

/// hash(), keyed_hash() and derive_key() use the default thread pool (thread_pool.hpp) for
/// inputs of at least this many bytes, and the output functions for outputs of at least
/// auto_parallel_output_min_size; below, threads cost more than they save (measured on AMD
/// Zen 5, 2 cores: docs/benchmarks.md, "Threads").
inline constexpr std::size_t auto_parallel_min_size = 128 * 1024;
inline constexpr std::size_t auto_parallel_output_min_size = 64 * 1024;

using key_type = std::array<std::uint8_t, key_size>;

class hasher;
class output_reader;

/// The subtree API, as the official Rust crate's blake3::hazmat: hash pieces of one input
/// separately (on threads, processes or machines) and merge them. For those who split inputs
/// themselves; everyone else wants hash(), the hasher and the file API, which split them
/// already.
///
/// The pieces must follow the BLAKE3 tree: a piece starting at byte offset o (a multiple of
/// chunk_size) holds at most max_subtree_len(o) bytes, and two chaining values may be merged
/// only if their subtrees are the left and right children of one node of the tree; the split
/// of n bytes into children is left_subtree_len(n). Merging is not checked: compare your
/// result against hash() in tests.
namespace hazmat {

/// The 32-byte chaining value of a subtree that is not the root of its tree. It is never a
/// valid hash of anything: only the merge functions below take it.
using chaining_value = std::array<std::uint8_t, out_size>;

class mode;

}  // namespace hazmat

namespace detail {

/// An output node: everything needed to compute a node's chaining value or, for the root,
/// any number of output bytes. Internal; exposed only so that the types below are values.
struct output_node {
  std::array<std::uint32_t, 8> input_cv;
  std::array<std::uint8_t, block_size> block;
  std::uint64_t counter;
  std::uint8_t block_len;
  std::uint8_t flags;
};

/// The state of the chunk being absorbed. Internal.
struct chunk_state {
  std::array<std::uint32_t, 8> cv;
  std::uint64_t chunk_counter;
  std::array<std::uint8_t, block_size> buf;
  std::uint8_t buf_len;
  std::uint8_t blocks_compressed;
  std::uint8_t flags;
};

/// 2^64 bytes are 2^54 chunks, so the tree is at most 54 levels deep; the lazy merge keeps
/// one extra chaining value on the stack.
inline constexpr std::size_t max_tree_depth = 54;

/// The library's own way into mode and hasher. Internal.
struct internal_access;

}  // namespace detail

/// A 32-byte BLAKE3 hash. Comparison with == takes the same time wherever the digests differ.
class FASTBLAKE_API digest {
 public:
  using bytes_type = std::array<std::uint8_t, out_size>;

  /// All zero bytes.
  constexpr digest() noexcept : bytes_{} {}
  constexpr explicit digest(const bytes_type& bytes) noexcept : bytes_(bytes) {}

  const std::uint8_t* data() const noexcept { return bytes_.data(); }
  static constexpr std::size_t size() noexcept { return out_size; }
  const bytes_type& bytes() const noexcept { return bytes_; }
  std::span<const std::byte, out_size> as_bytes() const noexcept {
    return std::as_bytes(std::span<const std::uint8_t, out_size>(bytes_));
  }

  /// Lowercase hexadecimal, 64 characters.
  std::string to_hex() const;

  /// Parses exactly 64 hexadecimal digits of either case; anything else gives std::nullopt.
  static std::optional<digest> from_hex(std::string_view hex) noexcept;

  /// Constant time in the contents: it never stops at the first difference.
  friend bool operator==(const digest& a, const digest& b) noexcept {
    return fastblake::detail::constant_time_equal(a.data(), b.data(), out_size);
  }

 private:
  bytes_type bytes_;
};

/// Writes to_hex().
FASTBLAKE_API std::ostream& operator<<(std::ostream& os, const digest& d);

namespace hazmat {

/// Merges the chaining values of two sibling subtrees into their parent's chaining value.
FASTBLAKE_API chaining_value merge_subtrees_non_root(const chaining_value& left,
                                                     const chaining_value& right,
                                                     const mode& m) noexcept;
/// Merges the two children of the root into the hash of the whole input.
FASTBLAKE_API digest merge_subtrees_root(const chaining_value& left, const chaining_value& right,
                                         const mode& m) noexcept;
/// Merges the two children of the root into a reader over the whole extendable output.
FASTBLAKE_API output_reader merge_subtrees_root_xof(const chaining_value& left,
                                                    const chaining_value& right,
                                                    const mode& m) noexcept;

/// Declares that h hashes the subtree starting at byte `offset` of the whole input: its
/// count() restarts from 0 and finalize() is refused. Throws std::logic_error if input was
/// already absorbed or offset is not a multiple of chunk_size.
FASTBLAKE_API hasher& set_input_offset(hasher& h, std::uint64_t offset);

/// The chaining value of the subtree h absorbed so far. Throws std::logic_error if nothing was
/// absorbed: an empty subtree is never valid.
FASTBLAKE_API chaining_value finalize_non_root(const hasher& h);

/// The number of bytes in the left child of a tree (or subtree) of input_len bytes: the largest
/// power-of-two number of whole chunks that leaves at least one byte for the right child.
/// Throws std::logic_error if input_len <= chunk_size: a single chunk has no children.
FASTBLAKE_API std::uint64_t left_subtree_len(std::uint64_t input_len);

/// The most bytes a subtree starting at byte `offset` may hold; std::nullopt for offset 0,
/// where there is no limit. Throws std::logic_error if offset is not a multiple of chunk_size.
FASTBLAKE_API std::optional<std::uint64_t> max_subtree_len(std::uint64_t offset);

/// The mode a tree is hashed in, for the subtree merge functions: it must match the mode of
/// the hashers that produced the chaining values.
class FASTBLAKE_API mode {
 public:
  /// Plain hashing, as hash() and a default-constructed hasher.
  static mode hash() noexcept;
  /// Keyed hashing, as keyed_hash() and hasher::keyed(key).
  static mode keyed(const key_type& key) noexcept;
  /// Key derivation, as derive_key() and hasher::derive_key(context). Hashes the context.
  static mode derive_key(std::string_view context) noexcept;
  /// The mode h hashes in (the C interface's hashers carry their mode).
  static mode of(const blake3::hasher& h) noexcept;

  /// The key every node is compressed with (the IV, the key, or the context's key), as
  /// little-endian words, and the mode's flags: what a backend outside the library, such as
  /// fastblake::cuda, needs to hash in this mode.
  const std::array<std::uint32_t, 8>& key_words() const noexcept { return key_words_; }
  std::uint8_t flags() const noexcept { return flags_; }

 private:
  friend class blake3::hasher;
  friend struct detail::internal_access;
  friend chaining_value merge_subtrees_non_root(const chaining_value&, const chaining_value&,
                                                const mode&) noexcept;
  friend digest merge_subtrees_root(const chaining_value&, const chaining_value&,
                                    const mode&) noexcept;
  friend output_reader merge_subtrees_root_xof(const chaining_value&, const chaining_value&,
                                               const mode&) noexcept;
  mode(const std::array<std::uint32_t, 8>& key_words, std::uint8_t flags) noexcept
      : key_words_(key_words), flags_(flags) {}

  std::array<std::uint32_t, 8> key_words_;
  std::uint8_t flags_;
};

}  // namespace hazmat

/// Reads the extendable output of a finished hash from any position. Bytes [0, 32) are the
/// digest. BLAKE3 defines 2^64 output bytes; reads past byte 2^64 - 1 go on as the official
/// implementations' do (output blocks numbered from 2^58 on), and position() then counts
/// modulo 2^64.
class FASTBLAKE_API output_reader {
 public:
  /// Writes the next out.size() output bytes and advances the position by as many.
  /// From auto_parallel_output_min_size bytes on, the default thread pool writes them.
  void fill(std::span<std::byte> out);
  void fill(std::span<std::uint8_t> out) { fill(std::as_writable_bytes(out)); }
  /// As fill(out), with the threads of `pool` for large outputs.
  void fill(std::span<std::byte> out, thread_pool& pool);

  /// Moves to any position; the next fill starts there.
  void seek(std::uint64_t position) noexcept {
    block_ = position / 64;
    offset_ = static_cast<std::uint8_t>(position % 64);
  }
  std::uint64_t position() const noexcept { return block_ * 64 + offset_; }

 private:
  friend class hasher;
  friend output_reader hazmat::merge_subtrees_root_xof(const hazmat::chaining_value&,
                                                       const hazmat::chaining_value&,
                                                       const hazmat::mode&) noexcept;
  explicit output_reader(const detail::output_node& root) noexcept : root_(root) {}
  void fill(std::span<std::byte> out, thread_pool* pool);

  detail::output_node root_;
  std::uint64_t block_ = 0;  // the output block the next byte is in
  std::uint8_t offset_ = 0;  // and its place there
};

/// Incremental hashing. A value type that never allocates: copy it to fork a hash.
class FASTBLAKE_API hasher {
 public:
  /// Plain hashing.
  hasher() noexcept;
  /// Keyed hashing (a MAC or PRF) with a 32-byte key.
  static hasher keyed(const key_type& key) noexcept;
  /// Key derivation: the context should be a hard-coded, globally unique, application-specific
  /// string; the key material goes through update().
  static hasher derive_key(std::string_view context) noexcept;
  /// A hasher in the mode `m`: plain, keyed or key derivation with the context `m` was made
  /// with.
  explicit hasher(const hazmat::mode& m) noexcept : hasher(m.key_words(), m.flags()) {}

  /// Absorbs more input. Throws std::logic_error, absorbing nothing, only when a subtree
  /// started with hazmat::set_input_offset() would grow past hazmat::max_subtree_len().
  hasher& update(std::span<const std::byte> input);
  hasher& update(std::span<const unsigned char> input) { return update(std::as_bytes(input)); }
  hasher& update(std::string_view input) {
    return update(std::as_bytes(std::span<const char>(input.data(), input.size())));
  }

  /// As update(), hashing large inputs on several threads: those of `pool`, or of the default
  /// pool. The official Rust crate's update_rayon. Worth it from about
  /// auto_parallel_min_size bytes per call; the result is the same as update()'s.
  hasher& update_parallel(std::span<const std::byte> input);
  hasher& update_parallel(std::span<const std::byte> input, thread_pool& pool);

  /// The 32-byte hash of everything absorbed so far. The state is left alone: updates may
  /// continue. Throws std::logic_error after hazmat::set_input_offset() with a non-zero offset
  /// (a subtree has no root hash; use hazmat::finalize_non_root()).
  digest finalize() const;
  /// Fills out with that many output bytes (the first 32 are finalize()); the default thread
  /// pool writes large outputs, as output_reader::fill. Throws as finalize().
  void finalize(std::span<std::byte> out) const;
  void finalize(std::span<std::uint8_t> out) const { finalize(std::as_writable_bytes(out)); }
  /// A reader over the whole extendable output. Throws as finalize().
  output_reader finalize_xof() const;

  /// Back to the state right after construction, in the same mode, offset 0.
  void reset() noexcept;

  /// Bytes absorbed since construction, reset() or hazmat::set_input_offset().
  std::uint64_t count() const noexcept;

 private:
  friend struct detail::internal_access;
  friend hasher& hazmat::set_input_offset(hasher& h, std::uint64_t offset);
  friend hazmat::chaining_value hazmat::finalize_non_root(const hasher& h);
  hasher(const std::array<std::uint32_t, 8>& key_words, std::uint8_t flags) noexcept;
  void push_chaining_value(const std::uint8_t cv[out_size], std::uint64_t chunk_counter) noexcept;
  void merge_stack_to(std::uint64_t chunks_done) noexcept;
  // may_offload: the caller is an automatic function, which may hand subtrees to an
  // accelerator (backend.hpp).
  hasher& update_with(std::span<const std::byte> input, thread_pool* pool,
                      bool may_offload = false);
  detail::output_node final_node() const noexcept;
  void require_root(const char* what) const;

  std::array<std::uint32_t, 8> key_words_;
  detail::chunk_state chunk_;
  std::uint64_t initial_chunk_counter_ = 0;
  std::uint8_t stack_len_ = 0;
  std::array<std::uint8_t, (detail::max_tree_depth + 1) * out_size> stack_;
};

// One-shot functions. The plain ones (hash, keyed_hash, derive_key) use the default thread
// pool from auto_parallel_min_size bytes on; the _serial ones never use threads; the _parallel
// ones split the input across `pool` (on a pool of one, they are the _serial ones). All give
// the same result.

/// The BLAKE3 hash of input.
FASTBLAKE_API digest hash(std::span<const std::byte> input) noexcept;
inline digest hash(std::span<const unsigned char> input) noexcept {
  return hash(std::as_bytes(input));
}
inline digest hash(std::string_view input) noexcept {
  return hash(std::as_bytes(std::span<const char>(input.data(), input.size())));
}
FASTBLAKE_API digest hash_serial(std::span<const std::byte> input) noexcept;
inline digest hash_serial(std::span<const unsigned char> input) noexcept {
  return hash_serial(std::as_bytes(input));
}
inline digest hash_serial(std::string_view input) noexcept {
  return hash_serial(std::as_bytes(std::span<const char>(input.data(), input.size())));
}
FASTBLAKE_API digest hash_parallel(std::span<const std::byte> input, thread_pool& pool) noexcept;
inline digest hash_parallel(std::span<const unsigned char> input, thread_pool& pool) noexcept {
  return hash_parallel(std::as_bytes(input), pool);
}
inline digest hash_parallel(std::string_view input, thread_pool& pool) noexcept {
  return hash_parallel(std::as_bytes(std::span<const char>(input.data(), input.size())), pool);
}

/// The keyed hash (MAC or PRF) of input.
FASTBLAKE_API digest keyed_hash(const key_type& key, std::span<const std::byte> input) noexcept;
inline digest keyed_hash(const key_type& key, std::span<const unsigned char> input) noexcept {
  return keyed_hash(key, std::as_bytes(input));
}
inline digest keyed_hash(const key_type& key, std::string_view input) noexcept {
  return keyed_hash(key, std::as_bytes(std::span<const char>(input.data(), input.size())));
}
FASTBLAKE_API digest keyed_hash_serial(const key_type& key,
                                       std::span<const std::byte> input) noexcept;
inline digest keyed_hash_serial(const key_type& key,
                                std::span<const unsigned char> input) noexcept {
  return keyed_hash_serial(key, std::as_bytes(input));
}
inline digest keyed_hash_serial(const key_type& key, std::string_view input) noexcept {
  return keyed_hash_serial(key, std::as_bytes(std::span<const char>(input.data(), input.size())));
}
FASTBLAKE_API digest keyed_hash_parallel(const key_type& key, std::span<const std::byte> input,
                                         thread_pool& pool) noexcept;
inline digest keyed_hash_parallel(const key_type& key, std::span<const unsigned char> input,
                                  thread_pool& pool) noexcept {
  return keyed_hash_parallel(key, std::as_bytes(input), pool);
}
inline digest keyed_hash_parallel(const key_type& key, std::string_view input,
                                  thread_pool& pool) noexcept {
  return keyed_hash_parallel(key, std::as_bytes(std::span<const char>(input.data(), input.size())),
                             pool);
}

/// A 32-byte key derived from key material in the given context (see hasher::derive_key).
FASTBLAKE_API digest derive_key(std::string_view context,
                                std::span<const std::byte> material) noexcept;
inline digest derive_key(std::string_view context,
                         std::span<const unsigned char> material) noexcept {
  return derive_key(context, std::as_bytes(material));
}
inline digest derive_key(std::string_view context, std::string_view material) noexcept {
  return derive_key(context,
                    std::as_bytes(std::span<const char>(material.data(), material.size())));
}
FASTBLAKE_API digest derive_key_serial(std::string_view context,
                                       std::span<const std::byte> material) noexcept;
inline digest derive_key_serial(std::string_view context,
                                std::span<const unsigned char> material) noexcept {
  return derive_key_serial(context, std::as_bytes(material));
}
inline digest derive_key_serial(std::string_view context, std::string_view material) noexcept {
  return derive_key_serial(context,
                           std::as_bytes(std::span<const char>(material.data(), material.size())));
}
FASTBLAKE_API digest derive_key_parallel(std::string_view context,
                                         std::span<const std::byte> material,
                                         thread_pool& pool) noexcept;
inline digest derive_key_parallel(std::string_view context, std::span<const unsigned char> material,
                                  thread_pool& pool) noexcept {
  return derive_key_parallel(context, std::as_bytes(material), pool);
}
inline digest derive_key_parallel(std::string_view context, std::string_view material,
                                  thread_pool& pool) noexcept {
  return derive_key_parallel(
      context, std::as_bytes(std::span<const char>(material.data(), material.size())), pool);
}
/// A key of any length, out.size() bytes, derived from key material in the given context.
/// Large outputs are written by the default pool, as output_reader::fill.
FASTBLAKE_API void derive_key(std::string_view context, std::span<const std::byte> material,
                              std::span<std::byte> out) noexcept;
inline void derive_key(std::string_view context, std::span<const unsigned char> material,
                       std::span<std::byte> out) noexcept {
  derive_key(context, std::as_bytes(material), out);
}
inline void derive_key(std::string_view context, std::string_view material,
                       std::span<std::byte> out) noexcept {
  derive_key(context, std::as_bytes(std::span<const char>(material.data(), material.size())), out);
}

/// Hashes many independent inputs: outputs[i] = hash(inputs[i]). Inputs of up to one chunk
/// (1 KiB) are hashed side by side, one per SIMD lane, grouped by length; larger ones one after
/// another (each uses every lane by itself). Allocates nothing. Throws std::invalid_argument,
/// writing nothing, if the spans differ in size.
FASTBLAKE_API void hash_many(std::span<const std::span<const std::byte>> inputs,
                             std::span<digest> outputs);
/// keyed_hash for many inputs, as hash_many.
FASTBLAKE_API void keyed_hash_many(const key_type& key,
                                   std::span<const std::span<const std::byte>> inputs,
                                   std::span<digest> outputs);

}  // namespace fastblake::blake3
