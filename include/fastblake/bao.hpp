// Bao: verified streaming over BLAKE3's tree (the format of the Rust crate `bao` 0.13 and its
// spec, docs/bao.md). An encoding holds the input's length and the tree's parent nodes (its
// chaining values), so that a reader holding only the 32-byte root hash can check any part of
// the input as it arrives, or a slice of it, without the rest.
//
//   combined: the 8-byte little-endian length, then parents and chunks in pre-order;
//   outboard: the same without the chunks, beside the input itself;
//   slice: the nodes a reader of [start, start + count) meets, chunks included.
//
// Chunk groups (iroh's bao-tree): with group_log k the leaves are groups of 2^k chunks and
// only the parents above them are stored (k = 0 is Bao itself); the root hash is the input's
// BLAKE3 hash whatever k is. A decoder must be given the k the encoder used.
//
// Decoding never returns a byte before it and every node above it have been checked against
// the root hash; a failure throws bao::error, which names the byte offset, in the encoding or
// slice, of the node that failed or of the place where the input ended too soon.
#pragma once

#include <fastblake/detail/require_cxx20.hpp>

#include <cstddef>
#include <cstdint>
#include <span>
#include <system_error>
#include <vector>

#include <fastblake/blake3.hpp>
#include <fastblake/config.hpp>

namespace fastblake::bao {

/// The length header.
inline constexpr std::size_t header_size = 8;
/// A parent node: its two children's chaining values.
inline constexpr std::size_t parent_size = 64;
/// The largest chunk-group exponent: groups of 2^32 chunks (4 TiB).
inline constexpr unsigned max_group_log = 32;

/// Why a decode failed.
enum class errc {
  /// A node (a parent, or a chunk or group of the input) does not hash to the chaining value
  /// its parent, or the root hash, gives for it.
  hash_mismatch = 1,
  /// The encoding, slice, outboard or data ended before the node that was to be read.
  truncated,
  /// group_log above max_group_log.
  invalid_group,
};

FASTBLAKE_API const std::error_category& category() noexcept;
FASTBLAKE_API std::error_code make_error_code(errc e) noexcept;

/// A failed decode: what (code(), in category()) and where (offset(): the byte offset, in the
/// encoding, slice or outboard read, of the node that failed or of the point it ran out).
class FASTBLAKE_API error : public std::system_error {
 public:
  error(errc e, std::uint64_t offset);
  std::uint64_t offset() const noexcept { return offset_; }

 private:
  std::uint64_t offset_;
};

/// Sizes of the encodings of content_len input bytes: header, parents and (combined) the input.
FASTBLAKE_API std::uint64_t encoded_size(std::uint64_t content_len, unsigned group_log = 0);
FASTBLAKE_API std::uint64_t outboard_size(std::uint64_t content_len, unsigned group_log = 0);

/// An encoding and the root hash it is checked against (the input's BLAKE3 hash).
struct encoding {
  std::vector<std::byte> bytes;
  blake3::digest hash;
};

/// The combined encoding of input. Throws bao::error (invalid_group) for a group_log above
/// max_group_log, std::bad_alloc where the encoding does not fit in memory.
FASTBLAKE_API encoding encode(std::span<const std::byte> input, unsigned group_log = 0);
/// The outboard encoding of input.
FASTBLAKE_API encoding encode_outboard(std::span<const std::byte> input, unsigned group_log = 0);
/// The same into the first encoded_size() (outboard_size()) bytes of out, which the caller may
/// reuse from one input to the next; returns the root hash. Throws std::length_error where out
/// is smaller.
FASTBLAKE_API blake3::digest encode(std::span<const std::byte> input, std::span<std::byte> out,
                                    unsigned group_log = 0);
FASTBLAKE_API blake3::digest encode_outboard(std::span<const std::byte> input,
                                             std::span<std::byte> out, unsigned group_log = 0);

/// The input a combined encoding holds, checked against hash. Bytes after the encoding's end
/// are ignored, as every Bao decoder ignores them.
FASTBLAKE_API std::vector<std::byte> decode(const blake3::digest& hash,
                                            std::span<const std::byte> encoded,
                                            unsigned group_log = 0);
/// The input, read from data and checked against hash with the outboard encoding.
FASTBLAKE_API std::vector<std::byte> decode_outboard(const blake3::digest& hash,
                                                     std::span<const std::byte> outboard,
                                                     std::span<const std::byte> data,
                                                     unsigned group_log = 0);

/// The slice of a combined encoding for input bytes [start, start + count): the header and the
/// nodes a reader of those bytes meets. A count of 0 counts as 1; a start at or past the end
/// gives the path to the last chunk (Bao's rules). Throws bao::error (truncated) where the
/// encoding is shorter than its header says; it checks no hashes (decode_slice does).
FASTBLAKE_API std::vector<std::byte> extract_slice(std::span<const std::byte> encoded,
                                                   std::uint64_t start, std::uint64_t count,
                                                   unsigned group_log = 0);
/// The same slice from an outboard encoding and the input it describes.
FASTBLAKE_API std::vector<std::byte> extract_slice_outboard(std::span<const std::byte> outboard,
                                                            std::span<const std::byte> data,
                                                            std::uint64_t start,
                                                            std::uint64_t count,
                                                            unsigned group_log = 0);
/// The input bytes [start, start + count) a slice holds, checked against hash: fewer where the
/// input ends before start + count, none where it ends before start (its last chunk is still
/// checked, so the length is proven).
FASTBLAKE_API std::vector<std::byte> decode_slice(const blake3::digest& hash,
                                                  std::span<const std::byte> slice,
                                                  std::uint64_t start, std::uint64_t count,
                                                  unsigned group_log = 0);

}  // namespace fastblake::bao

template <>
struct std::is_error_code_enum<fastblake::bao::errc> : std::true_type {};
