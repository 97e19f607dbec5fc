// BLAKE3 on NVIDIA GPUs: the optional fastblake::cuda library (-DFASTBLAKE_CUDA=ON, or AUTO
// where a CUDA compiler is found). The CPU library never depends on it.
//
// The GPU hashes the chunks, one thread each, and reduces the tree inside each block of
// threads, in a few launches, down to the root's two children; the root (a single
// compression) and its extendable output are the CPU library's output_reader, so every result
// reads, seeks and compares as the CPU library's does. Results equal the CPU library's bit for
// bit, in every mode.
//
// Errors of the CUDA runtime throw std::system_error with cuda_category(); a context is then
// still usable, unless the error was a fault of the device itself (the CUDA runtime's
// "sticky" errors), which every later call reports again.
#pragma once

#include <fastblake/detail/require_cxx20.hpp>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include <fastblake/blake3.hpp>

// The CUDA runtime's stream type: cudaStream_t is CUstream_st*.
struct CUstream_st;

namespace fastblake::cuda {

namespace detail {
struct automatic_use;
}

/// The CUDA runtime's errors: error codes are cudaError_t values; message() is the runtime's
/// description.
const std::error_category& cuda_category() noexcept;

/// How many CUDA devices this process can use: 0 without a driver or a device. Never throws.
int device_count() noexcept;

/// The digest: the first 32 bytes of a reader's output, from position 0.
inline blake3::digest digest_of(blake3::output_reader reader) {
  blake3::digest::bytes_type bytes;
  reader.seek(0);
  reader.fill(std::span<std::uint8_t>(bytes));
  return blake3::digest(bytes);
}

// Linking this library also lets the CPU library's automatic functions (blake3::hash(),
// keyed_hash(), derive_key(), and the file API with file_strategy::automatic) hand subtrees of
// 16 MiB and more to device 0, in a context of their own, when that is measured to be faster
// than the CPU's threads; FASTBLAKE_BACKEND=cuda sends them every subtree, and =cpu none.
// fastblake::current_offload() (<fastblake/backend.hpp>) tells what happened.

/// One device, its streams and the buffers they reuse: device scratch for chaining values,
/// device input buffers and pinned host staging buffers for end-to-end and file hashing, all
/// made on first use and kept. One context per host thread at a time: a context is not
/// thread-safe. Every call makes the context's device current for its duration and gives the
/// calling thread its previous current device back. A buffer that cannot be allocated, or a
/// stream that cannot be made, throws std::system_error and leaves the context as it was;
/// an error in the middle of hash_host or hash_file waits for the copies already started from
/// the caller's memory before it is thrown.
///
/// Streams and ordering. A context has streams of its own; it never uses the legacy default
/// stream and never waits for the whole device, so contexts, and the caller's own work, run
/// independently. By default every call returns once its work is done. set_stream(s) orders a
/// context's work after the caller's stream s instead:
/// - resident and batch work (hash_resident*, hash_batch*) is enqueued on s, after whatever s
///   already holds; hash_resident_to_device and hash_batch_resident then return at once, their
///   output ready for work enqueued on s later (synchronize s before reading it on the host,
///   and errors of the kernels themselves show there); the others wait for their result;
/// - end-to-end and file hashing (hash_host*, hash_file) waits for the work on s before its
///   first copy, and returns when done.
class context {
 public:
  /// Uses device `device` (0 .. device_count() - 1). Throws std::system_error.
  explicit context(int device = 0);
  ~context();
  context(context&&) noexcept;
  context& operator=(context&&) noexcept;
  context(const context&) = delete;
  context& operator=(const context&) = delete;

  int device() const noexcept;
  /// The device's name, as the runtime reports it ("NVIDIA H200").
  std::string device_name() const;

  // ---- Resident: the input is already in device memory. ----

  /// BLAKE3 in mode m of `size` bytes at `input`, a device pointer (any alignment; 16-byte
  /// aligned is faster). The returned reader gives the digest and any output from any
  /// position, on the CPU.
  blake3::output_reader hash_resident(const std::byte* input, std::uint64_t size,
                                      const blake3::hazmat::mode& m = blake3::hazmat::mode::hash());

  /// As hash_resident, and the root's output is computed on the GPU: output_size bytes of
  /// extendable output from position `seek` written to `output`, a device pointer, for later
  /// GPU passes. The 32-byte digest is output_size 32 from seek 0.
  void hash_resident_to_device(const std::byte* input, std::uint64_t size, std::byte* output,
                               std::uint64_t output_size, std::uint64_t seek = 0,
                               const blake3::hazmat::mode& m = blake3::hazmat::mode::hash());

  // ---- End-to-end: the input is in host memory. ----

  /// BLAKE3 in mode m of host memory: copied to the device a piece at a time on several
  /// streams, copies overlapping hashing. Memory pinned by the caller (cudaHostAlloc,
  /// cudaHostRegister) is copied directly; other memory goes through pinned staging buffers.
  /// Device memory throws std::system_error (cudaErrorInvalidValue): use hash_resident.
  blake3::output_reader hash_host(std::span<const std::byte> input,
                                  const blake3::hazmat::mode& m = blake3::hazmat::mode::hash());

  /// The chaining value of the subtree `input` that starts at byte `offset` of a larger
  /// input: what blake3::hasher(m).set_input_offset(offset).update(input).finalize_non_root()
  /// gives, hashed as hash_host does. Merge the values with blake3::hazmat::merge_subtrees_*, for
  /// example to spread one input over several GPUs. Throws std::logic_error as the hasher
  /// does for input that is empty or too long for a subtree at `offset`, or an offset that is
  /// not a multiple of the chunk size.
  blake3::hazmat::chaining_value hash_host_subtree(
      std::span<const std::byte> input, std::uint64_t offset,
      const blake3::hazmat::mode& m = blake3::hazmat::mode::hash());

  // ---- Batch: many independent inputs in one device buffer. ----

  /// Hashes `count` inputs, input i being lengths[i] bytes at data + offsets[i], and writes
  /// their 32-byte digests back to back at `digests`. All four are device pointers. One GPU
  /// thread hashes one input: meant for many small inputs (a few KiB each at most).
  void hash_batch_resident(const std::byte* data, const std::uint64_t* offsets,
                           const std::uint64_t* lengths, std::uint64_t count, std::byte* digests,
                           const blake3::hazmat::mode& m = blake3::hazmat::mode::hash());

  /// As hash_batch_resident, with the offsets and lengths in host memory and the digests
  /// returned to the host.
  std::vector<blake3::digest> hash_batch(
      const std::byte* data, std::span<const std::uint64_t> offsets,
      std::span<const std::uint64_t> lengths,
      const blake3::hazmat::mode& m = blake3::hazmat::mode::hash());

  // ---- Files. ----

  /// BLAKE3 in mode m of a file: read a piece at a time into pinned buffers, each piece
  /// hashed on the GPU while the next is read; the CPU merges the pieces' chaining values.
  /// Regular files are hashed up to the size they had when hashing started; files that are
  /// not regular or report size 0 (pipes, /proc) go to the CPU library's hash_file. On error,
  /// sets ec (errno values) and returns a reader of the empty input's output.
  blake3::output_reader hash_file(const std::filesystem::path& path, std::error_code& ec,
                                  const blake3::hazmat::mode& m = blake3::hazmat::mode::hash());

  // ---- Streams (see above) ----

  /// The CUDA runtime's cudaStream_t.
  using stream_handle = ::CUstream_st*;
  /// Orders this context's work after the caller's stream (a cudaStream_t, the legacy default
  /// stream 0 included), or, with std::nullopt, on the context's own streams again. Waits for
  /// the work this context enqueued on its previous stream first.
  void set_stream(std::optional<stream_handle> stream);
  /// The caller's stream, or std::nullopt for the context's own.
  std::optional<stream_handle> stream() const noexcept;

  // ---- Tuning ----

  /// The kernel variants of this build, so that one device run can time them against each
  /// other (fastblake-gpu-bench --variants): resident variants (hash_resident, hash_host and
  /// hash_file): "unrolled", "rolled", "imad", "compact", "pairs", "one-launch", "staged",
  /// "rolled-compact" (the default); batch variants (hash_batch*): "batch-bytewise" and
  /// "batch-vector" (the default). cuda/README.md says what each does and how fast each ran.
  /// All give the same results.
  static std::vector<std::string> kernel_variants();
  /// Uses the variant `name` (one of kernel_variants()) for this context's work of its kind,
  /// or both defaults again for "default"; throws std::invalid_argument for any other name.
  void set_kernel_variant(std::string_view name);
  /// The resident and the batch variant in use, in that order.
  std::vector<std::string> kernel_variants_in_use() const;

  /// The bytes of each piece of hash_host and hash_file: a power of two of at least one chunk.
  /// 64 MiB by default.
  std::uint64_t piece_size() const noexcept;
  /// Sets piece_size (rounded down to a power of two, at least 1 KiB and at most 4 GiB, for any
  /// value); frees the streams and buffers of the old size. For tests and tuning.
  void set_piece_size(std::uint64_t bytes);

 private:
  friend struct detail::automatic_use;
  struct impl;
  std::unique_ptr<impl> impl_;
};

}  // namespace fastblake::cuda
