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
#include <filesystem>
#include <functional>
#include <memory>
#include <span>
#include <system_error>
#include <vector>

#include <fastblake/blake3.hpp>
#include <fastblake/config.hpp>
#include <fastblake/file.hpp>
#include <fastblake/thread_pool.hpp>

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
/// Throws std::overflow_error where the size is above 2^64 - 1, which no encoding can have (a
/// combined encoding of more than about 0.94 x 2^64 bytes with group_log 0).
FASTBLAKE_API std::uint64_t encoded_size(std::uint64_t content_len, unsigned group_log = 0);
FASTBLAKE_API std::uint64_t outboard_size(std::uint64_t content_len, unsigned group_log = 0);

/// An encoding and the root hash it is checked against (the input's BLAKE3 hash).
struct encoding {
  std::vector<std::byte> bytes;
  blake3::digest hash;
};

/// The combined encoding of input. Throws bao::error (invalid_group) for a group_log above
/// max_group_log, std::bad_alloc where the encoding does not fit in memory. Large inputs are
/// encoded on the default pool's threads, as blake3::hash() takes them (from the same size).
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
/// The four above on the threads of `pool` at any size (a pool of one: the calling thread).
FASTBLAKE_API encoding encode(std::span<const std::byte> input, thread_pool& pool,
                              unsigned group_log = 0);
FASTBLAKE_API encoding encode_outboard(std::span<const std::byte> input, thread_pool& pool,
                                       unsigned group_log = 0);
FASTBLAKE_API blake3::digest encode(std::span<const std::byte> input, std::span<std::byte> out,
                                    thread_pool& pool, unsigned group_log = 0);
FASTBLAKE_API blake3::digest encode_outboard(std::span<const std::byte> input,
                                             std::span<std::byte> out, thread_pool& pool,
                                             unsigned group_log = 0);

/// Where an encoder or reader reads: fills out with the bytes at offset and returns how many it
/// read, fewer than out.size() only where the bytes end. It may throw (the exception goes
/// through to the caller).
using read_at_function = std::function<std::size_t(std::uint64_t offset, std::span<std::byte> out)>;

/// Reads from bytes in memory, which must outlive the reader.
FASTBLAKE_API read_at_function read_from(std::span<const std::byte> bytes);
#if FASTBLAKE_FILES
/// Reads from an open file descriptor with pread(2); the descriptor must stay open while the
/// function is used. An I/O error throws std::system_error.
FASTBLAKE_API read_at_function read_from_fd(int fd);
#endif
/// Where an encoder writes: the bytes at offset of the encoding. It may throw.
using write_at_function =
    std::function<void(std::uint64_t offset, std::span<const std::byte> bytes)>;
#if FASTBLAKE_FILES
/// Writes to an open file descriptor with pwrite(2). An I/O error throws std::system_error.
FASTBLAKE_API write_at_function write_to_fd(int fd);
#endif

/// The combined encoding of content_len bytes read with input, written with out as it is made
/// (each byte once, pieces of up to 4 MiB, not in order), in about 10 MiB of memory whatever
/// the size (or a few chunk groups where groups are larger): for files and whatever does not
/// fit in memory. Throws bao::error (truncated, at the input's offset) where input ends
/// before content_len bytes, and what input and out throw.
FASTBLAKE_API blake3::digest encode(std::uint64_t content_len, const read_at_function& input,
                                    const write_at_function& out, unsigned group_log = 0);
/// The same for the outboard encoding.
FASTBLAKE_API blake3::digest encode_outboard(std::uint64_t content_len,
                                             const read_at_function& input,
                                             const write_at_function& out, unsigned group_log = 0);
/// The same on the pool's threads, pieces at once (memory: the pieces' on each thread): input
/// and out are then called from several threads at once (read_from_fd and write_to_fd may be).
FASTBLAKE_API blake3::digest encode(std::uint64_t content_len, const read_at_function& input,
                                    const write_at_function& out, thread_pool& pool,
                                    unsigned group_log = 0);
FASTBLAKE_API blake3::digest encode_outboard(std::uint64_t content_len,
                                             const read_at_function& input,
                                             const write_at_function& out, thread_pool& pool,
                                             unsigned group_log = 0);

/// What an encoder writes.
enum class format {
  /// Bao's combined encoding: the length, then parents and input in pre-order.
  combined,
  /// Bao's outboard encoding: the same without the input.
  outboard,
  /// bao-tree's post-order outboard: the parents in post-order (a subtree's children before it,
  /// so that the parents of the finished part of a growing input keep their places), then the
  /// length as 8 bytes little-endian (its PostOrderMemOutboard with the size suffix). Its size
  /// is outboard_size()'s.
  post_order_outboard,
};

/// An input of a length not known before its end (a pipe, a socket, data being made), encoded
/// as it arrives, as the Rust crate's Encoder does: update() with each part, finalize() after
/// the last. The output is written, and read back, through the two functions (on one file:
/// read_from_fd and write_to_fd of a descriptor open for reading and writing). The encoding is
/// written in post-order while the input comes, each 4 MiB of input encoded at once (on the
/// default pool's threads, or use_pool's); finalize() then moves every node to its pre-order
/// place in the same bytes, reading each byte once and writing it once (a post_order_outboard
/// is left as it is). Memory stays at about 10 MiB (or a few chunk groups where groups are
/// larger) whatever the length.
///
/// Anything thrown (by the functions, or std::bad_alloc) leaves the encoder failed: a later
/// update() or finalize() throws std::logic_error, as one after finalize() does.
class FASTBLAKE_API encoder {
 public:
  /// Throws bao::error (invalid_group) for a group_log above max_group_log.
  encoder(read_at_function output_in, write_at_function output, format f = format::combined,
          unsigned group_log = 0);
  /// An encoder of a post-order outboard that goes on from an existing one: the outboard of the
  /// content_len bytes that input reads (a file before the bytes appended to it), read and
  /// written with output_in and output, as if those bytes had been given to update(). Only the
  /// top parents of its finished subtrees are read (a few dozen nodes) and the input after the
  /// last whole 4 MiB piece (or group); they are checked against hash, the root of those
  /// content_len bytes, before anything is written. update() then takes the appended bytes,
  /// and finalize() writes over the old right edge and length, making exactly the post-order
  /// outboard of the whole. Throws bao::error (hash_mismatch, at 0) where outboard, input and
  /// hash do not agree, bao::error (truncated) where either ends too soon,
  /// std::invalid_argument where the outboard's length is not content_len, and what the
  /// functions throw.
  static encoder resume(read_at_function output_in, write_at_function output,
                        std::uint64_t content_len, const read_at_function& input,
                        const blake3::digest& hash, unsigned group_log = 0);
  encoder(encoder&&) noexcept;
  encoder& operator=(encoder&&) noexcept;
  ~encoder();

  void update(std::span<const std::byte> input);
  /// Writes the rest of the encoding and returns the root hash.
  blake3::digest finalize();
  /// Input bytes taken so far.
  std::uint64_t count() const noexcept;
  /// Encodes on the pool's threads from now on (the pool must outlive the encoder's use of it).
  void use_pool(thread_pool& pool) noexcept;

 private:
  struct state;
  std::unique_ptr<state> state_;
};

/// The post-order outboard of input (format::post_order_outboard), on the default pool's
/// threads as encode_outboard() runs.
FASTBLAKE_API encoding encode_post_order_outboard(std::span<const std::byte> input,
                                                  unsigned group_log = 0);
/// The same into the first outboard_size() bytes of out; returns the root hash. Throws
/// std::length_error where out is smaller.
FASTBLAKE_API blake3::digest encode_post_order_outboard(std::span<const std::byte> input,
                                                        std::span<std::byte> out,
                                                        unsigned group_log = 0);
/// A post-order outboard as Bao's pre-order one, and back: the same parents, moved (nothing
/// hashed or checked: decode the result). Throws bao::error (truncated) where the bytes are
/// shorter than the length in them needs; bytes past that are ignored.
FASTBLAKE_API std::vector<std::byte> pre_order_outboard(std::span<const std::byte> post_order,
                                                        unsigned group_log = 0);
FASTBLAKE_API std::vector<std::byte> post_order_outboard(std::span<const std::byte> pre_order,
                                                         unsigned group_log = 0);
/// A post-order outboard of `size` bytes, read with post_order, seen as Bao's pre-order one:
/// for the reader and the slicers of read functions, without converting it. Each read is
/// served from the nodes' post-order places (a whole subtree's parents in one read); the
/// length comes from its last 8 bytes, and nothing is checked here (the reader checks).
/// A read past the end returns fewer bytes; one that needs bytes the post-order outboard lacks
/// throws bao::error (truncated, at the pre-order offset of the node).
FASTBLAKE_API read_at_function pre_order_view(read_at_function post_order, std::uint64_t size,
                                              unsigned group_log = 0);

#if FASTBLAKE_FILES
/// The combined encoding of the regular file at path, or open as fd (from its offset on),
/// written with out as it is made: read as the file functions of <fastblake/file.hpp> read
/// (the options' strategy, pool, progress and max_length), by default mapped in windows of
/// 16 MiB, each encoded on the pool's threads straight from the mapping, in bounded memory (a
/// window's encoding, or a few chunk groups where groups are larger). Their guarantees hold: a
/// file that shrinks while it is encoded fails with file_errc::truncated, one that grows is
/// encoded at the length it had when encoding began. Throws std::system_error whose message
/// names the file (std::errc::invalid_argument for a file that is not regular, whose length is
/// not known before its end: encode it from a copy), bao::error (invalid_group), and what out
/// throws; out may then hold part of an encoding.
FASTBLAKE_API blake3::digest encode_file(const std::filesystem::path& path,
                                         const write_at_function& out,
                                         const file_options& options = {}, unsigned group_log = 0);
FASTBLAKE_API blake3::digest encode_fd(int fd, const write_at_function& out,
                                       const file_options& options = {}, unsigned group_log = 0);
/// The same for the outboard encoding.
FASTBLAKE_API blake3::digest encode_outboard_file(const std::filesystem::path& path,
                                                  const write_at_function& out,
                                                  const file_options& options = {},
                                                  unsigned group_log = 0);
FASTBLAKE_API blake3::digest encode_outboard_fd(int fd, const write_at_function& out,
                                                const file_options& options = {},
                                                unsigned group_log = 0);
#endif

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
/// The same into the caller's buffer, whose first content-length bytes it fills; returns that
/// length. Large inputs are checked on the default pool's threads (on `pool`'s, at any size,
/// in the overloads that take one), each part of out written by one thread; on any error out
/// holds no promise. Throws bao::error as decode() does, std::length_error where out is smaller
/// than the length the encoding gives.
FASTBLAKE_API std::uint64_t decode(const blake3::digest& hash, std::span<const std::byte> encoded,
                                   std::span<std::byte> out, unsigned group_log = 0);
FASTBLAKE_API std::uint64_t decode_outboard(const blake3::digest& hash,
                                            std::span<const std::byte> outboard,
                                            std::span<const std::byte> data,
                                            std::span<std::byte> out, unsigned group_log = 0);
FASTBLAKE_API std::uint64_t decode(const blake3::digest& hash, std::span<const std::byte> encoded,
                                   std::span<std::byte> out, thread_pool& pool,
                                   unsigned group_log = 0);
FASTBLAKE_API std::uint64_t decode_outboard(const blake3::digest& hash,
                                            std::span<const std::byte> outboard,
                                            std::span<const std::byte> data,
                                            std::span<std::byte> out, thread_pool& pool,
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
/// The same from an encoding, or an outboard and its input, read with read functions: a slice
/// of a file without reading the rest of it.
FASTBLAKE_API std::vector<std::byte> extract_slice(const read_at_function& encoded,
                                                   std::uint64_t start, std::uint64_t count,
                                                   unsigned group_log = 0);
FASTBLAKE_API std::vector<std::byte> extract_slice_outboard(const read_at_function& outboard,
                                                            const read_at_function& data,
                                                            std::uint64_t start,
                                                            std::uint64_t count,
                                                            unsigned group_log = 0);
/// The same slice written with out, in order from offset 0, as it is read (about 1 MiB of
/// memory whatever its size): a slice of a large range, or one sent as it is made. Returns the
/// slice's size.
FASTBLAKE_API std::uint64_t extract_slice(const read_at_function& encoded, std::uint64_t start,
                                          std::uint64_t count, const write_at_function& out,
                                          unsigned group_log = 0);
FASTBLAKE_API std::uint64_t extract_slice_outboard(const read_at_function& outboard,
                                                   const read_at_function& data,
                                                   std::uint64_t start, std::uint64_t count,
                                                   const write_at_function& out,
                                                   unsigned group_log = 0);
/// The input bytes [start, start + count) a slice holds, checked against hash: fewer where the
/// input ends before start + count, none where it ends before start (its last chunk is still
/// checked, so the length is proven).
FASTBLAKE_API std::vector<std::byte> decode_slice(const blake3::digest& hash,
                                                  std::span<const std::byte> slice,
                                                  std::uint64_t start, std::uint64_t count,
                                                  unsigned group_log = 0);
/// The same on the pool's threads (a pool of one: the calling thread). Without one, slices
/// whose bytes hash() would hash on the default pool are checked on it: the whole subtrees
/// they hold, in pieces at once. The bytes returned and the errors are the same either way.
FASTBLAKE_API std::vector<std::byte> decode_slice(const blake3::digest& hash,
                                                  std::span<const std::byte> slice,
                                                  std::uint64_t start, std::uint64_t count,
                                                  thread_pool& pool, unsigned group_log = 0);

/// A verifying reader of the input an encoding holds, with a position like a file's: read()
/// hands out only bytes that, with every node above them, have been checked against the hash;
/// seek() moves anywhere, and the next read checks the path to the new position only. Memory
/// stays about 1 MiB (or a few chunk groups where groups are larger) whatever the input's
/// size: the reader keeps the path from the root to the position, and decodes a subtree of up
/// to 256 KiB at a time with the SIMD kernels.
///
/// The length in the encoding's header is not trusted until the last leaf has been checked:
/// length() and a read at or past the end check it first. Reading from the start to the end
/// reads the encoding in order, once, so a read function over a pipe may refuse to go back.
/// Any failure throws bao::error (where the encoding or data does not match the hash or ends
/// too soon, with the node's offset) or what the read function threw. A read that meets one
/// after checking some bytes returns those, and the next read throws it; the position stays
/// at the first byte not returned, and a read after that (or after a seek) tries again.
class FASTBLAKE_API reader {
 public:
  /// Over a combined encoding.
  reader(const blake3::digest& hash, read_at_function encoded, unsigned group_log = 0);
  /// Over an outboard encoding and the input it describes.
  reader(const blake3::digest& hash, read_at_function outboard, read_at_function data,
         unsigned group_log = 0);
  /// Over a slice of [start, start + count) (extract_slice's): its bytes in bounded memory,
  /// read in order, as decode_slice checks them, the slice read once from its start. The
  /// position starts at `start`; read() returns 0 at start + count or the input's end (having
  /// checked its last leaf there, or the leaf at start where count is 0, as decode_slice does),
  /// and throws std::out_of_range at a position before start. length() is the input's length
  /// where the slice holds the input's end, else throws std::out_of_range.
  static reader over_slice(const blake3::digest& hash, read_at_function slice, std::uint64_t start,
                           std::uint64_t count, unsigned group_log = 0);
  reader(reader&&) noexcept;
  reader& operator=(reader&&) noexcept;
  ~reader();

  /// Checked bytes from the position into out, as many as fit or remain; the position moves
  /// past them. Returns 0 at or past the end.
  std::size_t read(std::span<std::byte> out);
  /// Moves the position to any offset, past the end included; reads nothing.
  void seek(std::uint64_t position) noexcept;
  std::uint64_t position() const noexcept;
  /// The input's length, checked (once: the path to the last leaf is read and checked).
  std::uint64_t length();
  /// The length the encoding's header claims (read if it was not yet), unchecked: not to be
  /// trusted with anything (a hostile header claims any length; length() checks it).
  std::uint64_t unchecked_length();
  /// From now on decodes subtrees of up to 4 MiB at a time, their pieces on the pool's threads
  /// (about 12 MiB of memory; the pool must outlive the reader's use of it): for reading far in
  /// order, as `bao decode` does. The bytes handed out and the errors are the same as without.
  void use_pool(thread_pool& pool) noexcept;

 private:
  struct state;
  explicit reader(std::unique_ptr<state> s) noexcept;
  std::unique_ptr<state> state_;
};

}  // namespace fastblake::bao

template <>
struct std::is_error_code_enum<fastblake::bao::errc> : std::true_type {};
