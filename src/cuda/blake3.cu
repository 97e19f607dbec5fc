// The CUDA backend (include/fastblake/cuda.hpp): kernels and their host driver.
//
// Kernels:
// - reduce_chunks: one thread hashes one chunk (blake3_core.hpp, sixteen compressions with the
//   state and message in registers, 16-byte loads), then each block of 256 threads reduces its
//   chaining values up to `levels` levels in shared memory (adjacent pairs, an odd last node
//   carried up), and writes what is left.
// - reduce_parents: the same reduction over chaining values from an earlier launch.
// - root_output: the root's extendable output, one 64-byte block a thread.
// - hash_batch: one thread hashes one whole input sequentially.
// plan.hpp decides the launches; the CPU does the last compression (the root) through
// blake3::hazmat::merge_subtrees_root_xof, except for hash_resident_to_device.
#include <cuda_runtime.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <new>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <fastblake/cuda.hpp>
#include <fastblake/file.hpp>

#include "blake3/offload.hpp"
#include "cuda/blake3_core.hpp"
#include "cuda/plan.hpp"

namespace fastblake::cuda {
namespace {

namespace core = detail;
namespace hazmat = blake3::hazmat;
using detail::block_threads;

class category : public std::error_category {
 public:
  const char* name() const noexcept override { return "cuda"; }
  std::string message(int code) const override {
    return cudaGetErrorString(static_cast<cudaError_t>(code));
  }
};

void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess) {
    cudaGetLastError();  // clears a non-sticky error, so that the context stays usable
    throw std::system_error(static_cast<int>(status), cuda_category(), what);
  }
}

// Kernel arguments: the mode, by value.
struct mode_words {
  std::uint32_t key[8];
  std::uint32_t flags;
};

mode_words words_of(const hazmat::mode& m) {
  mode_words w{};
  for (int i = 0; i < 8; ++i) w.key[i] = m.key_words()[static_cast<std::size_t>(i)];
  w.flags = m.flags();
  return w;
}

// A 64-byte block of a 16-byte-aligned chunk: four 16-byte loads through the read-only path.
struct aligned_load {
  __device__ void operator()(const std::uint8_t* p, std::uint32_t m[16]) const {
    const uint4* q = reinterpret_cast<const uint4*>(p);
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      const uint4 v = __ldg(q + i);
      m[4 * i] = v.x;
      m[4 * i + 1] = v.y;
      m[4 * i + 2] = v.z;
      m[4 * i + 3] = v.w;
    }
  }
};

struct byte_load {
  __host__ __device__ void operator()(const std::uint8_t* p, std::uint32_t m[16]) const {
    core::load_block_words(p, m);
  }
};

// Reduces the block's `count` chaining values in shared memory (cv[word][thread]) by `levels`
// levels and writes the nodes left, node t >> levels of the block's output.
__device__ void reduce_block(std::uint32_t (*cv)[block_threads], unsigned count, unsigned levels,
                             const mode_words& mode, std::uint32_t* out) {
  const unsigned t = threadIdx.x;
  for (unsigned level = 0; level < levels; ++level) {
    __syncthreads();
    const unsigned step = 1u << level;
    if ((t & (2 * step - 1)) == 0 && t + step < count) {
      std::uint32_t left[8], right[8], parent[8];
#pragma unroll
      for (int w = 0; w < 8; ++w) {
        left[w] = cv[w][t];
        right[w] = cv[w][t + step];
      }
      core::chaining_value(core::parent_node(left, right, mode.key, mode.flags), parent);
#pragma unroll
      for (int w = 0; w < 8; ++w) cv[w][t] = parent[w];
    }
  }
  __syncthreads();
  if ((t & ((1u << levels) - 1)) == 0 && t < count) {
    const std::uint64_t node = (static_cast<std::uint64_t>(blockIdx.x) * block_threads + t) >> levels;
#pragma unroll
    for (int w = 0; w < 8; ++w) out[node * 8 + w] = cv[w][t];
  }
}

template <class Load>
__global__ void __launch_bounds__(block_threads)
    reduce_chunks(const std::uint8_t* input, std::uint64_t size, std::uint64_t first_chunk,
                  mode_words mode, unsigned levels, std::uint32_t* out) {
  __shared__ std::uint32_t cv[8][block_threads];
  const std::uint64_t chunks = (size + core::chunk_len - 1) / core::chunk_len;
  const std::uint64_t base = static_cast<std::uint64_t>(blockIdx.x) * block_threads;
  const std::uint64_t chunk = base + threadIdx.x;
  if (chunk < chunks) {
    const std::uint64_t offset = chunk * core::chunk_len;
    const auto len = static_cast<std::uint32_t>(
        size - offset < core::chunk_len ? size - offset : core::chunk_len);
    std::uint32_t value[8];
    if (len == core::chunk_len) {
      core::full_chunk_cv(input + offset, first_chunk + chunk, mode.key, mode.flags, Load{}, value);
    } else {
      core::chaining_value(
          core::chunk_node(input + offset, len, first_chunk + chunk, mode.key, mode.flags, Load{}),
          value);
    }
#pragma unroll
    for (int w = 0; w < 8; ++w) cv[w][threadIdx.x] = value[w];
  }
  const std::uint64_t left = chunks - base;
  reduce_block(cv, left < block_threads ? static_cast<unsigned>(left) : block_threads, levels,
               mode, out);
}

__global__ void __launch_bounds__(block_threads)
    reduce_parents(const std::uint32_t* input, std::uint64_t nodes, mode_words mode,
                   unsigned levels, std::uint32_t* out) {
  __shared__ std::uint32_t cv[8][block_threads];
  const std::uint64_t base = static_cast<std::uint64_t>(blockIdx.x) * block_threads;
  const std::uint64_t node = base + threadIdx.x;
  if (node < nodes) {
#pragma unroll
    for (int w = 0; w < 8; ++w) cv[w][threadIdx.x] = input[node * 8 + w];
  }
  const std::uint64_t left = nodes - base;
  reduce_block(cv, left < block_threads ? static_cast<unsigned>(left) : block_threads, levels,
               mode, out);
}

// The root's output node: from its two children's chaining values (children != nullptr), or
// the single chunk of `size` (<= 1024) bytes at `input`.
__global__ void make_root(const std::uint32_t* children, const std::uint8_t* input,
                          std::uint32_t size, mode_words mode, core::output_node* root) {
  if (children != nullptr) {
    *root = core::parent_node(children, children + 8, mode.key, mode.flags);
  } else {
    *root = core::chunk_node(input, size, 0, mode.key, mode.flags, byte_load{});
  }
}

// Output bytes [seek, seek + size) of the root, 64-byte block b = seek / 64 + thread.
__global__ void root_output(const core::output_node* root, std::uint64_t seek, std::uint64_t size,
                            std::uint8_t* out) {
  const std::uint64_t block = seek / 64 + static_cast<std::uint64_t>(blockIdx.x) * blockDim.x +
                              threadIdx.x;
  const std::uint64_t start = block * 64;
  if (start >= seek + size) return;
  std::uint32_t words[16];
  core::root_output_block(*root, block, words);
  for (int i = 0; i < 64; ++i) {
    const std::uint64_t position = start + static_cast<std::uint64_t>(i);
    if (position >= seek && position < seek + size) {
      out[position - seek] = static_cast<std::uint8_t>(words[i / 4] >> (8 * (i % 4)));
    }
  }
}

__global__ void hash_batch_kernel(const std::uint8_t* data, const std::uint64_t* offsets,
                                  const std::uint64_t* lengths, std::uint64_t count,
                                  mode_words mode, std::uint8_t* digests) {
  const std::uint64_t i = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= count) return;
  const core::output_node root =
      core::root_node(data + offsets[i], lengths[i], mode.key, mode.flags, byte_load{});
  std::uint32_t words[16];
  core::root_output_block(root, 0, words);
  for (int b = 0; b < 32; ++b) {
    digests[i * 32 + static_cast<std::uint64_t>(b)] =
        static_cast<std::uint8_t>(words[b / 4] >> (8 * (b % 4)));
  }
}

hazmat::chaining_value bytes_of(const std::uint32_t words[8]) {
  hazmat::chaining_value cv;
  for (std::size_t i = 0; i < 32; ++i) {
    cv[i] = static_cast<std::uint8_t>(words[i / 4] >> (8 * (i % 4)));
  }
  return cv;
}

unsigned grid_for(std::uint64_t threads, unsigned block) {
  return static_cast<unsigned>((threads + block - 1) / block);
}

template <class T>
struct device_deleter {
  void operator()(T* p) const noexcept { cudaFree(p); }
};
template <class T>
using device_ptr = std::unique_ptr<T, device_deleter<T>>;

template <class T>
device_ptr<T> device_alloc(std::size_t count) {
  void* p = nullptr;
  check(cudaMalloc(&p, count * sizeof(T)), "cudaMalloc");
  return device_ptr<T>(static_cast<T*>(p));
}

struct host_deleter {
  void operator()(std::byte* p) const noexcept { cudaFreeHost(p); }
};

struct stream_deleter {
  void operator()(CUstream_st* s) const noexcept { cudaStreamDestroy(s); }
};
using stream_ptr = std::unique_ptr<CUstream_st, stream_deleter>;

stream_ptr make_stream() {
  cudaStream_t s = nullptr;
  check(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "cudaStreamCreate");
  return stream_ptr(s);
}

// Makes `device` current for the scope, and gives the calling thread its previous one back
// afterwards: a context never changes which device its caller's own CUDA calls go to.
class device_scope {
 public:
  explicit device_scope(int device) {
    if (cudaGetDevice(&previous_) != cudaSuccess) {
      cudaGetLastError();
      previous_ = -1;
    }
    if (previous_ != device) check(cudaSetDevice(device), "cudaSetDevice");
  }
  ~device_scope() {
    int now = -1;
    if (previous_ >= 0 && cudaGetDevice(&now) == cudaSuccess && now != previous_) {
      cudaSetDevice(previous_);
    }
  }
  device_scope(const device_scope&) = delete;
  device_scope& operator=(const device_scope&) = delete;

 private:
  int previous_ = -1;
};

}  // namespace

const std::error_category& cuda_category() noexcept {
  static const category instance;
  return instance;
}

int device_count() noexcept {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  return n;
}

// A stream of the pipeline and what it owns: a device buffer for one piece, a pinned host
// buffer to stage it in, and scratch for its levels.
struct lane {
  stream_ptr stream;
  device_ptr<std::uint8_t> input;
  std::unique_ptr<std::byte, host_deleter> staging;
  device_ptr<std::uint32_t> scratch;
};

struct context::impl {
  int device = 0;
  std::uint64_t piece = 64u << 20;
  std::vector<lane> lanes;
  // Chaining values of a resident hash's levels: two buffers used in turn.
  device_ptr<std::uint32_t> levels[2];
  std::uint64_t level_capacity = 0;  // nodes each
  device_ptr<std::uint32_t> piece_cvs;
  std::uint64_t piece_cv_capacity = 0;
  device_ptr<core::output_node> root;
  device_ptr<std::uint64_t> batch_tables;
  std::uint64_t batch_capacity = 0;
  device_ptr<std::uint8_t> batch_digests;

  // Buffers grow only once both new ones exist: a failed allocation leaves the old ones and
  // their capacity as they were.
  void ensure_levels(std::uint64_t nodes) {
    if (nodes <= level_capacity) return;
    auto first = device_alloc<std::uint32_t>(nodes * 8);
    auto second = device_alloc<std::uint32_t>(nodes * 8);
    levels[0] = std::move(first);
    levels[1] = std::move(second);
    level_capacity = nodes;
  }

  // Three streams: a piece being staged, one copied and one hashed at a time. Built apart and
  // kept only when every stream and buffer exists, so a failure leaves no half-built lane.
  void ensure_lanes() {
    if (!lanes.empty()) return;
    std::vector<lane> built(3);
    for (lane& l : built) {
      l.stream = make_stream();
      l.input = device_alloc<std::uint8_t>(piece);
      const std::uint64_t chunks = piece / core::chunk_len;
      l.scratch = device_alloc<std::uint32_t>(2 * 8 * ((chunks + 1) / 2 + 1));
    }
    lanes = std::move(built);
  }

  // Waits for every lane, ignoring errors: what an exception leaves in flight (copies from the
  // caller's memory, above all) must end before the caller may free or reuse that memory.
  void drain() noexcept {
    for (lane& l : lanes) cudaStreamSynchronize(l.stream.get());
    cudaGetLastError();
  }

  std::byte* staging(lane& l) {
    if (!l.staging) {
      void* p = nullptr;
      check(cudaHostAlloc(&p, piece, cudaHostAllocDefault), "cudaHostAlloc");
      l.staging.reset(static_cast<std::byte*>(p));
    }
    return l.staging.get();
  }

  // Launches the reduction of `size` (>= 1) bytes at device `input`, chunks numbered from
  // first_chunk, down to `target` nodes (plan.hpp), on `stream`, with a and b as the two level
  // buffers; returns where the nodes are.
  const std::uint32_t* reduce(const std::uint8_t* input, std::uint64_t size,
                              std::uint64_t first_chunk, unsigned target, const mode_words& mode,
                              cudaStream_t stream, std::uint32_t* a, std::uint32_t* b) {
    const std::uint64_t chunks = (size + core::chunk_len - 1) / core::chunk_len;
    const detail::launch_plan plan = detail::plan_reduction(chunks, target);
    std::uint64_t nodes = chunks;
    std::uint32_t* out = a;
    const std::uint32_t* in = nullptr;
    for (std::size_t i = 0; i < plan.levels.size(); ++i) {
      const unsigned levels = plan.levels[i];
      const unsigned grid = grid_for(nodes, block_threads);
      if (i == 0) {
        if (reinterpret_cast<std::uintptr_t>(input) % 16 == 0) {
          reduce_chunks<aligned_load><<<grid, block_threads, 0, stream>>>(
              input, size, first_chunk, mode, levels, out);
        } else {
          reduce_chunks<byte_load><<<grid, block_threads, 0, stream>>>(input, size, first_chunk,
                                                                       mode, levels, out);
        }
      } else {
        reduce_parents<<<grid, block_threads, 0, stream>>>(in, nodes, mode, levels, out);
      }
      check(cudaGetLastError(), "kernel launch");
      nodes = (nodes + (1ull << levels) - 1) >> levels;
      in = out;
      out = out == a ? b : a;
    }
    return in;
  }

  // The root's two children of a resident input of more than one chunk, in levels[].
  const std::uint32_t* children(const std::byte* input, std::uint64_t size,
                                const mode_words& mode) {
    const std::uint64_t chunks = (size + core::chunk_len - 1) / core::chunk_len;
    ensure_levels((chunks + 1) / 2 + 1);
    return reduce(reinterpret_cast<const std::uint8_t*>(input), size, 0, 2, mode, nullptr,
                  levels[0].get(), levels[1].get());
  }

  // The two children of the subtree of `size` bytes (more than one chunk) starting at chunk
  // first_chunk: its pieces, each staged by fill(piece index, bytes, destination) (which
  // returns the host memory to copy from: the destination or the caller's own), copied and
  // reduced on the lanes in turn, and the pieces' chaining values merged on the CPU. A
  // subtree starts at a multiple of its own power-of-two size, so each piece but the last is
  // a whole subtree too.
  template <class Fill>
  std::pair<hazmat::chaining_value, hazmat::chaining_value> pipeline(std::uint64_t size,
                                                                     std::uint64_t first_chunk,
                                                                     const hazmat::mode& m,
                                                                     Fill fill) {
    const mode_words mode = words_of(m);
    ensure_lanes();
    const std::uint64_t pieces = (size + piece - 1) / piece;
    const unsigned target = pieces == 1 ? 2 : 1;
    // The capacity is raised only once the bigger buffer exists.
    if (const std::uint64_t need = std::max<std::uint64_t>(pieces, 2); need > piece_cv_capacity) {
      piece_cvs = device_alloc<std::uint32_t>(need * 8);
      piece_cv_capacity = need;
    }
    try {
      return run_pipeline(size, first_chunk, m, mode, pieces, target, fill);
    } catch (...) {
      drain();
      throw;
    }
  }

  template <class Fill>
  std::pair<hazmat::chaining_value, hazmat::chaining_value> run_pipeline(
      std::uint64_t size, std::uint64_t first_chunk, const hazmat::mode& m,
      const mode_words& mode, std::uint64_t pieces, unsigned target, Fill& fill) {
    for (std::uint64_t p = 0; p < pieces; ++p) {
      lane& l = lanes[p % lanes.size()];
      // The lane's buffers are free once its previous piece was copied and hashed.
      check(cudaStreamSynchronize(l.stream.get()), "cudaStreamSynchronize");
      const std::uint64_t bytes = std::min(piece, size - p * piece);
      const std::byte* source = fill(p, bytes, staging(l));
      check(cudaMemcpyAsync(l.input.get(), source, bytes, cudaMemcpyHostToDevice, l.stream.get()),
            "cudaMemcpyAsync");
      const std::uint32_t* nodes =
          reduce(l.input.get(), bytes, first_chunk + p * (piece / core::chunk_len), target, mode,
                 l.stream.get(),
                 l.scratch.get(), l.scratch.get() + 8 * ((piece / core::chunk_len + 1) / 2 + 1));
      check(cudaMemcpyAsync(piece_cvs.get() + 8 * p * target, nodes, 32 * target,
                            cudaMemcpyDeviceToDevice, l.stream.get()),
            "cudaMemcpyAsync");
    }
    for (lane& l : lanes) check(cudaStreamSynchronize(l.stream.get()), "cudaStreamSynchronize");
    std::vector<std::uint32_t> words(pieces * 8 * target);
    check(cudaMemcpy(words.data(), piece_cvs.get(), words.size() * 4, cudaMemcpyDeviceToHost),
          "cudaMemcpy");
    std::vector<hazmat::chaining_value> cvs;
    for (std::size_t i = 0; i < words.size(); i += 8) cvs.push_back(bytes_of(&words[i]));
    return detail::merge_to_children(std::move(cvs), m);
  }

  // The children of a subtree of host memory.
  std::pair<hazmat::chaining_value, hazmat::chaining_value> host_children(
      std::span<const std::byte> input, std::uint64_t first_chunk, const hazmat::mode& m) {
    cudaPointerAttributes attributes{};
    const bool known = cudaPointerGetAttributes(&attributes, input.data()) == cudaSuccess;
    cudaGetLastError();
    // Device memory cannot be read here (the CPU would fault copying it): hash_resident is for
    // that. Managed memory is host memory to this code.
    if (known && attributes.type == cudaMemoryTypeDevice) {
      throw std::system_error(static_cast<int>(cudaErrorInvalidValue), cuda_category(),
                              "fastblake::cuda: hash_host of device memory (use hash_resident)");
    }
    const bool pinned = known && attributes.type == cudaMemoryTypeHost;
    return pipeline(input.size(), first_chunk, m,
                    [&](std::uint64_t p, std::uint64_t bytes, std::byte* staging) {
                      const std::byte* source = input.data() + p * piece;
                      if (pinned) return source;
                      std::memcpy(staging, source, bytes);
                      return static_cast<const std::byte*>(staging);
                    });
  }
};

context::context(int device) : impl_(std::make_unique<impl>()) {
  if (device < 0 || device >= device_count()) {
    throw std::system_error(static_cast<int>(cudaErrorInvalidDevice), cuda_category(),
                            "fastblake::cuda::context: no device " + std::to_string(device));
  }
  impl_->device = device;
  const device_scope scope(impl_->device);
  impl_->root = device_alloc<core::output_node>(1);
}

context::~context() = default;
context::context(context&&) noexcept = default;
context& context::operator=(context&&) noexcept = default;

int context::device() const noexcept { return impl_->device; }

std::string context::device_name() const {
  cudaDeviceProp properties{};
  check(cudaGetDeviceProperties(&properties, impl_->device), "cudaGetDeviceProperties");
  return properties.name;
}

std::uint64_t context::piece_size() const noexcept { return impl_->piece; }

void context::set_piece_size(std::uint64_t bytes) {
  const std::uint64_t p = detail::piece_size_for(bytes);
  if (p == impl_->piece) return;
  const device_scope scope(impl_->device);
  for (lane& l : impl_->lanes) {
    check(cudaStreamSynchronize(l.stream.get()), "cudaStreamSynchronize");
  }
  impl_->lanes.clear();  // streams and buffers freed with them
  impl_->piece = p;
}

// Inputs of one chunk or less are copied back and hashed on the CPU: one compression chain
// is not worth a launch.
blake3::output_reader context::hash_resident(const std::byte* input, std::uint64_t size,
                                             const hazmat::mode& m) {
  const device_scope scope(impl_->device);
  if (size <= core::chunk_len) {
    std::array<std::byte, core::chunk_len> bytes;
    if (size != 0) check(cudaMemcpy(bytes.data(), input, size, cudaMemcpyDeviceToHost), "cudaMemcpy");
    return blake3::hasher(m).update(std::span(bytes.data(), size)).finalize_xof();
  }
  const std::uint32_t* children = impl_->children(input, size, words_of(m));
  std::uint32_t words[16];
  check(cudaMemcpy(words, children, sizeof words, cudaMemcpyDeviceToHost), "cudaMemcpy");
  return hazmat::merge_subtrees_root_xof(bytes_of(words), bytes_of(words + 8), m);
}

void context::hash_resident_to_device(const std::byte* input, std::uint64_t size,
                                      std::byte* output, std::uint64_t output_size,
                                      std::uint64_t seek, const hazmat::mode& m) {
  if (output_size > ~std::uint64_t{0} - seek) {
    throw std::out_of_range("fastblake::cuda: the output ends at position 2^64 - 1");
  }
  const device_scope scope(impl_->device);
  const mode_words mode = words_of(m);
  const auto* bytes = reinterpret_cast<const std::uint8_t*>(input);
  if (size <= core::chunk_len) {
    make_root<<<1, 1>>>(nullptr, bytes, static_cast<std::uint32_t>(size), mode, impl_->root.get());
  } else {
    make_root<<<1, 1>>>(impl_->children(input, size, mode), nullptr, 0, mode, impl_->root.get());
  }
  check(cudaGetLastError(), "kernel launch");
  if (output_size != 0) {
    const std::uint64_t blocks = (seek % 64 + output_size + 63) / 64;
    root_output<<<grid_for(blocks, 256), 256>>>(impl_->root.get(), seek, output_size,
                                                reinterpret_cast<std::uint8_t*>(output));
    check(cudaGetLastError(), "kernel launch");
  }
  check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
}

blake3::output_reader context::hash_host(std::span<const std::byte> input,
                                         const hazmat::mode& m) {
  const device_scope scope(impl_->device);
  if (input.size() <= core::chunk_len) return blake3::hasher(m).update(input).finalize_xof();
  const auto [left, right] = impl_->host_children(input, 0, m);
  return hazmat::merge_subtrees_root_xof(left, right, m);
}

hazmat::chaining_value context::hash_host_subtree(std::span<const std::byte> input,
                                                  std::uint64_t offset, const hazmat::mode& m) {
  // The subtree API's own checks and messages: misplaced or oversized subtrees, empty input.
  blake3::hasher check(m);
  hazmat::set_input_offset(check, offset);
  if (const auto limit = hazmat::max_subtree_len(offset); limit && input.size() > *limit) {
    return hazmat::finalize_non_root(check.update(input));  // throws std::logic_error
  }
  if (input.size() <= core::chunk_len) return hazmat::finalize_non_root(check.update(input));
  const device_scope scope(impl_->device);
  const auto [left, right] = impl_->host_children(input, offset / core::chunk_len, m);
  return hazmat::merge_subtrees_non_root(left, right, m);
}

void context::hash_batch_resident(const std::byte* data, const std::uint64_t* offsets,
                                  const std::uint64_t* lengths, std::uint64_t count,
                                  std::byte* digests, const hazmat::mode& m) {
  const device_scope scope(impl_->device);
  if (count == 0) return;
  constexpr unsigned threads = 128;
  hash_batch_kernel<<<grid_for(count, threads), threads>>>(
      reinterpret_cast<const std::uint8_t*>(data), offsets, lengths, count, words_of(m),
      reinterpret_cast<std::uint8_t*>(digests));
  check(cudaGetLastError(), "kernel launch");
  check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
}

std::vector<blake3::digest> context::hash_batch(const std::byte* data,
                                                std::span<const std::uint64_t> offsets,
                                                std::span<const std::uint64_t> lengths,
                                                const hazmat::mode& m) {
  if (offsets.size() != lengths.size()) {
    throw std::invalid_argument("fastblake::cuda::hash_batch: offsets and lengths differ in size");
  }
  const device_scope scope(impl_->device);
  const std::uint64_t count = offsets.size();
  if (count > impl_->batch_capacity) {
    impl_->batch_tables = device_alloc<std::uint64_t>(2 * count);
    impl_->batch_digests = device_alloc<std::uint8_t>(32 * count);
    impl_->batch_capacity = count;
  }
  std::vector<blake3::digest> out(count);
  if (count == 0) return out;
  std::uint64_t* tables = impl_->batch_tables.get();
  check(cudaMemcpy(tables, offsets.data(), 8 * count, cudaMemcpyHostToDevice), "cudaMemcpy");
  check(cudaMemcpy(tables + count, lengths.data(), 8 * count, cudaMemcpyHostToDevice),
        "cudaMemcpy");
  hash_batch_resident(data, tables, tables + count, count,
                      reinterpret_cast<std::byte*>(impl_->batch_digests.get()), m);
  std::vector<std::uint8_t> bytes(32 * count);
  check(cudaMemcpy(bytes.data(), impl_->batch_digests.get(), bytes.size(), cudaMemcpyDeviceToHost),
        "cudaMemcpy");
  for (std::uint64_t i = 0; i < count; ++i) {
    blake3::digest::bytes_type d;
    std::memcpy(d.data(), bytes.data() + 32 * i, 32);
    out[i] = blake3::digest(d);
  }
  return out;
}

blake3::output_reader context::hash_file(const std::filesystem::path& path, std::error_code& ec,
                                         const hazmat::mode& m) {
  ec.clear();
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    ec.assign(errno, std::generic_category());
    return blake3::hasher(m).finalize_xof();
  }
  struct closer {
    int fd;
    ~closer() { ::close(fd); }
  } close_at_end{fd};
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    ec.assign(errno, std::generic_category());
    return blake3::hasher(m).finalize_xof();
  }
  const auto size = static_cast<std::uint64_t>(st.st_size);
  if (!S_ISREG(st.st_mode) || size <= core::chunk_len) {
    blake3::hasher h(m);
    blake3::update_from_fd(h, fd, {}, ec);
    return ec ? blake3::hasher(m).finalize_xof() : h.finalize_xof();
  }
  const device_scope scope(impl_->device);
  const std::uint64_t piece = impl_->piece;
  const auto [left, right] =
      impl_->pipeline(size, 0, m, [&](std::uint64_t p, std::uint64_t bytes, std::byte* staging) {
    std::uint64_t done = 0;
    while (done < bytes) {
      const ssize_t n = ::pread(fd, staging + done, bytes - done,
                                static_cast<off_t>(p * piece + done));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        // A file that shrank, or an error: hashed as zeros, and reported.
        if (!ec) ec.assign(n < 0 ? errno : EIO, std::generic_category());
        std::memset(staging + done, 0, bytes - done);
        break;
      }
      done += static_cast<std::uint64_t>(n);
    }
    return static_cast<const std::byte*>(staging);
  });
  return ec ? blake3::hasher(m).finalize_xof() : hazmat::merge_subtrees_root_xof(left, right, m);
}

// ---- Automatic use by the CPU library (src/blake3/offload.hpp) ----

// The CPU library calls these under its offload lock, one at a time, from any thread.
struct detail::automatic_use {
  // Made on first use and never destroyed: at exit the CUDA runtime may already be unloaded.
  static context*& shared() noexcept {
    static context* c = nullptr;
    return c;
  }

  // Runs f, turning what it throws into `error`.
  template <class F>
  static bool reporting(std::error_code& error, F&& f) noexcept {
    try {
      return f();
    } catch (const std::system_error& e) {
      error = e.code();
    } catch (const std::bad_alloc&) {
      error = std::make_error_code(std::errc::not_enough_memory);
    } catch (...) {
      error = std::make_error_code(std::errc::io_error);
    }
    return false;
  }

  static bool prepare(std::error_code& error) noexcept {
    if (device_count() == 0) {
      error.assign(static_cast<int>(cudaErrorNoDevice), cuda_category());
      return false;
    }
    return reporting(error, [] {
      if (shared() == nullptr) shared() = new context(0);
      return true;
    });
  }

  static bool children(const std::byte* input, std::uint64_t size, std::uint64_t chunk_counter,
                       const hazmat::mode& m, std::uint8_t out[64],
                       std::error_code& error) noexcept {
    return reporting(error, [&] {
      context::impl& c = *shared()->impl_;
      const device_scope scope(c.device);
      const auto [left, right] =
          c.host_children(std::span(input, static_cast<std::size_t>(size)), chunk_counter, m);
      std::memcpy(out, left.data(), 32);
      std::memcpy(out + 32, right.data(), 32);
      return true;
    });
  }
};

namespace {

constexpr fastblake::internal::blake3::offload automatic_offload{
    "cuda", detail::automatic_use::prepare, detail::automatic_use::children};

}  // namespace

namespace detail {

// Registers the backend with the CPU library when this object is linked in. The fastblake::cuda
// target passes --undefined for this symbol, so that a program that links the library keeps
// this object even if it calls nothing in it.
extern const int automatic_registration;
const int automatic_registration =
    (fastblake::internal::blake3::register_offload(&automatic_offload), 1);

}  // namespace detail

}  // namespace fastblake::cuda
