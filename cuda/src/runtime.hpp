// The CUDA backend's seam between its host driver (driver.hpp, context.cpp) and the device: every
// CUDA runtime call and every kernel launch of the driver goes through one table of function
// pointers. kernels.cu fills it with the CUDA runtime and the kernels; the unit tests put a fake
// device in its place (host memory, failures on demand, launches emulated on the CPU), so that
// the driver's buffers, streams and failure paths are tested on machines without a GPU.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace fastblake::cuda::detail {

/// A mode as the kernels take it, by value.
struct kernel_mode {
  std::uint32_t key[8];
  std::uint32_t flags;
};

/// How the chunks of a resident reduction are hashed and reduced: kernels.cu has one kernel for
/// each, so that one device run can time them against each other (fastblake-gpu-bench
/// --variants). Each differs from `unrolled`, the first written, in one respect, but
/// `rolled_compact`, the default: the two single changes that won on an H200 (cuda/README.md).
enum class resident_variant : std::uint8_t {
  unrolled,        // the sixteen compressions of a chunk fully unrolled, 16-byte loads
  rolled,          // a rolled loop over the blocks, the next block prefetched into registers
  imad,            // additions split between the integer ALU and the multiply-add pipe
  compact,         // in-block reduction with the active threads contiguous
  pairs,           // two chunks a thread, merged in registers before the in-block reduction
  one_launch,      // the whole reduction in one launch: the last block of a group goes on up
  staged,          // each block's input staged through shared memory by coalesced async copies
  rolled_compact,  // rolled and compact together
};
inline constexpr resident_variant resident_variants[] = {
    resident_variant::unrolled, resident_variant::rolled,        resident_variant::imad,
    resident_variant::compact,  resident_variant::pairs,         resident_variant::one_launch,
    resident_variant::staged,   resident_variant::rolled_compact};

/// How hash_batch hashes one input a thread.
enum class batch_variant : std::uint8_t {
  bytewise,  // one byte load at a time, the general sequential tree hash
  vector,    // 16-byte loads where the input is aligned, and inputs of one chunk or less on
             // a path of their own that keeps everything in registers
};
inline constexpr batch_variant batch_variants[] = {batch_variant::bytewise, batch_variant::vector};

std::string_view name_of(resident_variant v) noexcept;
std::string_view name_of(batch_variant v) noexcept;

/// A reduction of `size` (>= 1) bytes at device `input`, chunks numbered from first_chunk,
/// down to `target` nodes (plan.hpp), with a and b as scratch: each holds (chunks + 1) / 2 + 1
/// chaining values.
struct reduce_args {
  const std::uint8_t* input;
  std::uint64_t size;
  std::uint64_t first_chunk;
  unsigned target;
  kernel_mode mode;
  resident_variant variant;
  std::uint32_t* a;
  std::uint32_t* b;
};

/// The root's output node from its two children's chaining values (children != nullptr), or
/// from the single chunk of `size` (<= 1024) bytes at `input`, written to `root`; then
/// output_size bytes of its extendable output from position seek to `output`.
struct root_args {
  const std::uint32_t* children;
  const std::uint8_t* input;
  std::uint32_t size;
  kernel_mode mode;
  void* root;  // one output node of device scratch
  std::uint64_t seek;
  std::uint64_t output_size;
  std::uint8_t* output;
};

/// count inputs, input i being lengths[i] bytes at data + offsets[i]; their digests to
/// `digests`. All device pointers.
struct batch_args {
  const std::uint8_t* data;
  const std::uint64_t* offsets;
  const std::uint64_t* lengths;
  std::uint64_t count;
  kernel_mode mode;
  batch_variant variant;
  std::uint8_t* digests;
  bool all_small;  // every input is a chunk or less (known where the lengths are on the host)
};

/// Bytes of device scratch for one output node (root_args::root).
inline constexpr std::size_t output_node_bytes = 4 * 8 + 4 * 16 + 8 + 4 + 4;

struct runtime {
  cudaError_t (*device_count)(int* count);
  cudaError_t (*get_device)(int* device);
  cudaError_t (*set_device)(int device);
  cudaError_t (*device_name)(int device, char name[256]);
  /// The error of the last call, cleared unless it was a fault of the device.
  cudaError_t (*take_error)();
  cudaError_t (*malloc)(void** p, std::size_t bytes);
  cudaError_t (*free)(void* p);
  cudaError_t (*host_alloc)(void** p, std::size_t bytes);  // pinned
  cudaError_t (*free_host)(void* p);
  /// What memory p is: cudaMemoryTypeDevice, cudaMemoryTypeHost (pinned), cudaMemoryTypeManaged,
  /// or cudaMemoryTypeUnregistered for memory the runtime does not know.
  cudaError_t (*memory_type)(const void* p, cudaMemoryType* type);
  /// A stream that does not synchronize with the legacy default stream.
  cudaError_t (*stream_create)(cudaStream_t* stream);
  cudaError_t (*stream_destroy)(cudaStream_t stream);
  cudaError_t (*stream_synchronize)(cudaStream_t stream);
  /// Makes later work on `waiter` wait for the work enqueued on `on` so far.
  cudaError_t (*stream_wait)(cudaStream_t waiter, cudaStream_t on);
  /// An asynchronous copy in any direction.
  cudaError_t (*copy)(void* to, const void* from, std::size_t bytes, cudaStream_t stream);
  cudaError_t (*memset)(void* p, int value, std::size_t bytes, cudaStream_t stream);
  /// Enqueues the reduction; *nodes is where its `target` nodes will be (in a or b).
  cudaError_t (*reduce)(const reduce_args& args, cudaStream_t stream, const std::uint32_t** nodes);
  cudaError_t (*root_output)(const root_args& args, cudaStream_t stream);
  cudaError_t (*hash_batch)(const batch_args& args, cudaStream_t stream);
};

/// The kernels' launchers (kernels.cu), the table's last three entries.
cudaError_t launch_reduce(const reduce_args& args, cudaStream_t stream,
                          const std::uint32_t** nodes);
cudaError_t launch_root_output(const root_args& args, cudaStream_t stream);
cudaError_t launch_batch(const batch_args& args, cudaStream_t stream);

/// The CUDA runtime and the kernels (runtime.cpp, kernels.cu).
const runtime& cuda_runtime() noexcept;
/// What the CUDA backend calls: cuda_runtime() unless a test replaced it.
const runtime& active_runtime() noexcept;
/// Replaces the runtime for tests (nullptr: the CUDA runtime again). Not thread-safe: call it
/// while no context exists.
void set_runtime_for_testing(const runtime* r) noexcept;

}  // namespace fastblake::cuda::detail
