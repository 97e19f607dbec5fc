// The CUDA backend's kernels, and the launchers of runtime.hpp's table.
//
// A resident reduction hashes the chunks, one thread each (blake3_core.hpp: sixteen
// compressions with the state and message in registers), and each block of 256 threads reduces
// its chaining values up to 8 levels in shared memory (adjacent pairs, an odd last node carried
// up), writing what is left; further launches reduce those nodes the same way (plan.hpp).
// resident_variant names the alternatives that one device run times against each other.
// The root is one more compression: on the CPU (context.cpp) or, for output to the device,
// make_root and root_output here. hash_batch hashes one whole input a thread. The launchers
// at the end are what runtime.cpp's table calls.
#include <cuda_pipeline.h>
#include <cuda_runtime.h>

#include <cstdint>

#include "blake3_core.hpp"
#include "plan.hpp"
#include "runtime.hpp"

namespace fastblake::cuda::detail {
namespace {

namespace core = detail;

static_assert(sizeof(core::output_node) == output_node_bytes);

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
  __device__ void operator()(const std::uint8_t* p, std::uint32_t m[16]) const {
    core::load_block_words(p, m);
  }
};

__host__ __device__ bool aligned16(const void* p) {
  return reinterpret_cast<std::uintptr_t>(p) % 16 == 0;
}

unsigned grid_for(std::uint64_t threads, unsigned block) {
  return static_cast<unsigned>((threads + block - 1) / block);
}

using cv_table = std::uint32_t (*)[block_threads];

// Reduces `count` chaining values in shared memory (cv[word][node]) by `levels` levels, node t
// at thread t, and writes the nodes left: node t >> levels of block `block`'s output. Pairs
// (t, t + step) combine at thread t, so the active threads spread out level by level.
__device__ void reduce_block_strided(cv_table cv, unsigned count, unsigned levels,
                                     const kernel_mode& mode, std::uint64_t block,
                                     std::uint32_t* out) {
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
    const std::uint64_t node = (block * block_threads + t) >> levels;
#pragma unroll
    for (int w = 0; w < 8; ++w) out[node * 8 + w] = cv[w][t];
  }
}

// As reduce_block_strided, with the nodes of each level packed at the front: thread t makes
// node t of the next level, so the active threads stay contiguous, whole warps idle, and the
// busy ones do not diverge.
__device__ void reduce_block_compact(cv_table cv, unsigned count, unsigned levels,
                                     const kernel_mode& mode, std::uint64_t block,
                                     std::uint32_t* out) {
  const unsigned t = threadIdx.x;
  unsigned nodes = count;
  for (unsigned level = 0; level < levels; ++level) {
    __syncthreads();
    std::uint32_t next[8];
    const bool pair = 2 * t + 1 < nodes;
    const bool carried = 2 * t + 1 == nodes;  // the odd last node goes up unchanged
    if (pair) {
      std::uint32_t left[8], right[8];
#pragma unroll
      for (int w = 0; w < 8; ++w) {
        left[w] = cv[w][2 * t];
        right[w] = cv[w][2 * t + 1];
      }
      core::chaining_value(core::parent_node(left, right, mode.key, mode.flags), next);
    } else if (carried) {
#pragma unroll
      for (int w = 0; w < 8; ++w) next[w] = cv[w][2 * t];
    }
    __syncthreads();
    if (pair || carried) {
#pragma unroll
      for (int w = 0; w < 8; ++w) cv[w][t] = next[w];
    }
    nodes = (nodes + 1) / 2;
  }
  __syncthreads();
  if (t < nodes) {
    const std::uint64_t node = ((block * block_threads) >> levels) + t;
#pragma unroll
    for (int w = 0; w < 8; ++w) out[node * 8 + w] = cv[w][t];
  }
}

template <resident_variant V>
__device__ void reduce_block(cv_table cv, unsigned count, unsigned levels, const kernel_mode& mode,
                             std::uint64_t block, std::uint32_t* out) {
  if constexpr (V == resident_variant::compact || V == resident_variant::rolled_compact) {
    reduce_block_compact(cv, count, levels, mode, block, out);
  } else {
    reduce_block_strided(cv, count, levels, mode, block, out);
  }
}

// The chaining value of chunk `index`, `len` (1..1024) bytes at p, as variant V hashes it.
template <class Load, resident_variant V>
__device__ void chunk_cv(const std::uint8_t* p, std::uint32_t len, std::uint64_t index,
                         const kernel_mode& mode, std::uint32_t one, std::uint32_t cv[8]) {
  if (len != core::chunk_len) {
    core::chaining_value(core::chunk_node(p, len, index, mode.key, mode.flags, Load{}), cv);
  } else if constexpr (V == resident_variant::rolled || V == resident_variant::rolled_compact) {
    core::full_chunk_cv_rolled(p, index, mode.key, mode.flags, Load{}, cv);
  } else if constexpr (V == resident_variant::imad) {
    core::full_chunk_cv(p, index, mode.key, mode.flags, Load{}, cv, core::imad_adds{one});
  } else {
    core::full_chunk_cv(p, index, mode.key, mode.flags, Load{}, cv);
  }
}

__host__ __device__ std::uint64_t chunks_of(std::uint64_t size) {
  return (size + core::chunk_len - 1) / core::chunk_len;
}

// Chunk base + t (of `chunks`) of the input, hashed into cv[.][t]; returns how many of the
// block's chunks exist.
template <class Load, resident_variant V>
__device__ unsigned hash_block_chunks(const std::uint8_t* input, std::uint64_t size,
                                      std::uint64_t first_chunk, const kernel_mode& mode,
                                      std::uint32_t one, std::uint64_t base, cv_table cv) {
  const std::uint64_t chunks = chunks_of(size);
  const std::uint64_t chunk = base + threadIdx.x;
  if (chunk < chunks) {
    const std::uint64_t offset = chunk * core::chunk_len;
    const auto len = static_cast<std::uint32_t>(size - offset < core::chunk_len ? size - offset
                                                                                : core::chunk_len);
    std::uint32_t value[8];
    chunk_cv<Load, V>(input + offset, len, first_chunk + chunk, mode, one, value);
#pragma unroll
    for (int w = 0; w < 8; ++w) cv[w][threadIdx.x] = value[w];
  }
  const std::uint64_t left = chunks - base;
  return left < block_threads ? static_cast<unsigned>(left) : block_threads;
}

template <class Load, resident_variant V>
__global__ void __launch_bounds__(block_threads)
    reduce_chunks(const std::uint8_t* input, std::uint64_t size, std::uint64_t first_chunk,
                  kernel_mode mode, std::uint32_t one, unsigned levels, std::uint32_t* out) {
  __shared__ std::uint32_t cv[8][block_threads];
  const unsigned count =
      hash_block_chunks<Load, V>(input, size, first_chunk, mode, one,
                                 static_cast<std::uint64_t>(blockIdx.x) * block_threads, cv);
  reduce_block<V>(cv, count, levels, mode, blockIdx.x, out);
}

// Two chunks a thread, 512 a block: the first level is merged in registers, so that half the
// threads are not left idle at it. levels >= 1.
template <class Load>
__global__ void __launch_bounds__(block_threads)
    reduce_chunk_pairs(const std::uint8_t* input, std::uint64_t size, std::uint64_t first_chunk,
                       kernel_mode mode, unsigned levels, std::uint32_t* out) {
  __shared__ std::uint32_t cv[8][block_threads];
  const std::uint64_t chunks = chunks_of(size);
  const std::uint64_t base = static_cast<std::uint64_t>(blockIdx.x) * 2 * block_threads;
  const std::uint64_t chunk = base + 2 * threadIdx.x;
  if (chunk < chunks) {
    std::uint32_t left[8];
    const std::uint64_t offset = chunk * core::chunk_len;
    const auto len = static_cast<std::uint32_t>(size - offset < core::chunk_len ? size - offset
                                                                                : core::chunk_len);
    chunk_cv<Load, resident_variant::unrolled>(input + offset, len, first_chunk + chunk, mode, 1,
                                               left);
    if (chunk + 1 < chunks) {
      std::uint32_t right[8];
      const std::uint64_t next = offset + core::chunk_len;
      const auto next_len =
          static_cast<std::uint32_t>(size - next < core::chunk_len ? size - next : core::chunk_len);
      chunk_cv<Load, resident_variant::unrolled>(input + next, next_len, first_chunk + chunk + 1,
                                                 mode, 1, right);
      core::chaining_value(core::parent_node(left, right, mode.key, mode.flags), left);
    }
#pragma unroll
    for (int w = 0; w < 8; ++w) cv[w][threadIdx.x] = left[w];
  }
  const std::uint64_t pairs = (chunks - base + 1) / 2;
  reduce_block_strided(cv, pairs < block_threads ? static_cast<unsigned>(pairs) : block_threads,
                       levels - 1, mode, blockIdx.x, out);
}

// The block's 256 chunks staged in shared memory one 64-byte block at a time, by coalesced
// asynchronous copies (four threads copy one chunk's block, a warp eight whole blocks), the
// next block in flight while this one is compressed. Rows of 80 bytes keep each quarter
// warp's 16-byte reads on distinct banks. Needs a 16-byte-aligned input.
constexpr unsigned staged_row_words = 20;

__global__ void __launch_bounds__(block_threads)
    reduce_chunks_staged(const std::uint8_t* input, std::uint64_t size, std::uint64_t first_chunk,
                         kernel_mode mode, unsigned levels, std::uint32_t* out) {
  // Two stages of rows; the chaining values reuse the space once the chunks are hashed.
  __shared__ alignas(16) std::uint32_t shared[2 * block_threads * staged_row_words];
  const unsigned t = threadIdx.x;
  const std::uint64_t base = static_cast<std::uint64_t>(blockIdx.x) * block_threads;
  const std::uint64_t chunks = chunks_of(size);
  const std::uint64_t whole = size / core::chunk_len;
  const unsigned in_block =
      chunks - base < block_threads ? static_cast<unsigned>(chunks - base) : block_threads;
  const unsigned whole_in_block =
      whole <= base
          ? 0u
          : (whole - base < block_threads ? static_cast<unsigned>(whole - base) : block_threads);
  const auto stage = [&](unsigned b) {
    std::uint32_t* rows = shared + (b & 1) * block_threads * staged_row_words;
#pragma unroll
    for (unsigned k = 0; k < 4; ++k) {
      const unsigned segment = k * block_threads + t;
      const unsigned c = segment / 4, part = segment % 4;
      if (c < whole_in_block) {
        __pipeline_memcpy_async(
            rows + c * staged_row_words + part * 4,
            input + (base + c) * core::chunk_len + b * core::block_len + part * 16, 16);
      }
    }
    __pipeline_commit();
  };
  std::uint32_t state[8];
#pragma unroll
  for (int i = 0; i < 8; ++i) state[i] = mode.key[i];
  stage(0);
#pragma unroll 1
  for (unsigned b = 0; b < core::chunk_len / core::block_len; ++b) {
    if (b + 1 < core::chunk_len / core::block_len) {
      stage(b + 1);
      __pipeline_wait_prior(1);
    } else {
      __pipeline_wait_prior(0);
    }
    __syncthreads();
    if (t < whole_in_block) {
      const uint4* row = reinterpret_cast<const uint4*>(
          shared + (b & 1) * block_threads * staged_row_words + t * staged_row_words);
      std::uint32_t m[16];
#pragma unroll
      for (int i = 0; i < 4; ++i) {
        const uint4 v = row[i];
        m[4 * i] = v.x;
        m[4 * i + 1] = v.y;
        m[4 * i + 2] = v.z;
        m[4 * i + 3] = v.w;
      }
      const std::uint32_t flags =
          mode.flags | (b == 0 ? core::chunk_start : 0u) |
          (b + 1 == core::chunk_len / core::block_len ? core::chunk_end : 0u);
      core::compress_in_place(state, m, first_chunk + base + t, core::block_len, flags);
    }
    __syncthreads();  // every thread is done with the rows before they are staged again
  }
  if (t >= whole_in_block && t < in_block) {
    // The input's last, partial chunk: straight from global memory.
    const std::uint64_t offset = (base + t) * core::chunk_len;
    core::chaining_value(
        core::chunk_node(input + offset, static_cast<std::uint32_t>(size - offset),
                         first_chunk + base + t, mode.key, mode.flags, aligned_load{}),
        state);
  }
  cv_table cv = reinterpret_cast<cv_table>(shared);
  if (t < in_block) {
#pragma unroll
    for (int w = 0; w < 8; ++w) cv[w][t] = state[w];
  }
  reduce_block_strided(cv, in_block, levels, mode, blockIdx.x, out);
}

__global__ void __launch_bounds__(block_threads)
    reduce_parents(const std::uint32_t* input, std::uint64_t nodes, kernel_mode mode,
                   unsigned levels, std::uint32_t* out) {
  __shared__ std::uint32_t cv[8][block_threads];
  const std::uint64_t base = static_cast<std::uint64_t>(blockIdx.x) * block_threads;
  const std::uint64_t node = base + threadIdx.x;
  if (node < nodes) {
#pragma unroll
    for (int w = 0; w < 8; ++w) cv[w][threadIdx.x] = input[node * 8 + w];
  }
  const std::uint64_t left = nodes - base;
  reduce_block_strided(cv, left < block_threads ? static_cast<unsigned>(left) : block_threads,
                       levels, mode, blockIdx.x, out);
}

// The whole reduction in one launch. Every stage of the plan but the last reduces 8 levels,
// so each block of a stage leaves one node; the block that completes a group of 256 such nodes
// (the last to bump the group's counter) goes on to reduce the group as a block of the next
// stage. Stage s's nodes are at out[s]; counters start at zero.
struct tree_stages {
  unsigned count;
  unsigned levels[8];
  std::uint64_t nodes[8];  // nodes each stage reduces: nodes[0] the chunks
  std::uint32_t* out[8];
  unsigned* counters[8];  // counters[s]: one per block of stage s (s >= 1)
};

template <class Load>
__global__ void __launch_bounds__(block_threads)
    reduce_tree(const std::uint8_t* input, std::uint64_t size, std::uint64_t first_chunk,
                kernel_mode mode, tree_stages stages) {
  __shared__ std::uint32_t cv[8][block_threads];
  __shared__ bool last;
  std::uint64_t block = blockIdx.x;
  const unsigned count = hash_block_chunks<Load, resident_variant::unrolled>(
      input, size, first_chunk, mode, 1, block * block_threads, cv);
  reduce_block_strided(cv, count, stages.levels[0], mode, block, stages.out[0]);
  for (unsigned s = 1; s < stages.count; ++s) {
    // Publish this block's node before counting it.
    __threadfence();
    __syncthreads();
    const std::uint64_t group = block / block_threads;
    const std::uint64_t first = group * block_threads;
    const unsigned expected = stages.nodes[s] - first < block_threads
                                  ? static_cast<unsigned>(stages.nodes[s] - first)
                                  : block_threads;
    if (threadIdx.x == 0) last = atomicAdd(&stages.counters[s][group], 1u) == expected - 1;
    __syncthreads();
    if (!last) return;
    __threadfence();
    if (threadIdx.x < expected) {
      const std::uint32_t* node = stages.out[s - 1] + (first + threadIdx.x) * 8;
#pragma unroll
      for (int w = 0; w < 8; ++w) cv[w][threadIdx.x] = __ldcg(node + w);  // from L2: fresh
    }
    block = group;
    reduce_block_strided(cv, expected, stages.levels[s], mode, block, stages.out[s]);
  }
}

__global__ void make_root(const std::uint32_t* children, const std::uint8_t* input,
                          std::uint32_t size, kernel_mode mode, core::output_node* root) {
  if (children != nullptr) {
    *root = core::parent_node(children, children + 8, mode.key, mode.flags);
  } else {
    *root = core::chunk_node(input, size, 0, mode.key, mode.flags, byte_load{});
  }
}

// Output bytes [seek, seek + size) of the root, 64-byte block b = seek / 64 + thread.
__global__ void root_output(const core::output_node* root, std::uint64_t seek, std::uint64_t size,
                            std::uint8_t* out) {
  const std::uint64_t block =
      seek / 64 + static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
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

__device__ void store_digest(const std::uint32_t words[8], std::uint8_t* out) {
  if (aligned16(out)) {
    uint4* q = reinterpret_cast<uint4*>(out);
    q[0] = make_uint4(words[0], words[1], words[2], words[3]);
    q[1] = make_uint4(words[4], words[5], words[6], words[7]);
  } else {
    for (int b = 0; b < 32; ++b) out[b] = static_cast<std::uint8_t>(words[b / 4] >> (8 * (b % 4)));
  }
}

__global__ void hash_batch_bytewise(batch_args args) {
  const std::uint64_t i = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= args.count) return;
  const core::output_node root = core::root_node(args.data + args.offsets[i], args.lengths[i],
                                                 args.mode.key, args.mode.flags, byte_load{});
  std::uint32_t words[16];
  core::root_output_block(root, 0, words);
  for (int b = 0; b < 32; ++b) {
    args.digests[i * 32 + static_cast<std::uint64_t>(b)] =
        static_cast<std::uint8_t>(words[b / 4] >> (8 * (b % 4)));
  }
}

// Inputs of more than a chunk: the sequential tree hash, whose stack of subtrees lives in
// local memory. Out of line, so that the kernel's path for small inputs has no stack frame.
__device__ __noinline__ void batch_tree_digest(const std::uint8_t* p, std::uint64_t len,
                                               kernel_mode mode, std::uint8_t* out) {
  const core::output_node root = aligned16(p)
                                     ? core::root_node(p, len, mode.key, mode.flags, aligned_load{})
                                     : core::root_node(p, len, mode.key, mode.flags, byte_load{});
  std::uint32_t words[16];
  core::root_output_block(root, 0, words);
  store_digest(words, out);
}

__device__ __forceinline__ void small_input_digest(const std::uint8_t* p, std::uint32_t len,
                                                   const kernel_mode& mode, std::uint8_t* out) {
  std::uint32_t digest[8];
  if (aligned16(p)) {
    core::single_chunk_digest(p, len, mode.key, mode.flags, aligned_load{}, digest);
  } else {
    core::single_chunk_digest(p, len, mode.key, mode.flags, byte_load{}, digest);
  }
  store_digest(digest, out);
}

__global__ void hash_batch_vector(batch_args args) {
  const std::uint64_t i = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= args.count) return;
  const std::uint8_t* p = args.data + args.offsets[i];
  const std::uint64_t len = args.lengths[i];
  if (len > core::chunk_len) {
    batch_tree_digest(p, len, args.mode, args.digests + 32 * i);
  } else {
    small_input_digest(p, static_cast<std::uint32_t>(len), args.mode, args.digests + 32 * i);
  }
}

// hash_batch_vector where every input is known to be a chunk or less: no stack frame at all.
__global__ void hash_batch_small(batch_args args) {
  const std::uint64_t i = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= args.count) return;
  small_input_digest(args.data + args.offsets[i], static_cast<std::uint32_t>(args.lengths[i]),
                     args.mode, args.digests + 32 * i);
}

// ---- Launching ----

template <class Load>
void launch_chunks(const reduce_args& a, unsigned levels, cudaStream_t s, std::uint32_t* out) {
  const unsigned grid = grid_for(chunks_of(a.size), block_threads);
  const auto launch = [&](auto kernel) {
    kernel<<<grid, block_threads, 0, s>>>(a.input, a.size, a.first_chunk, a.mode, 1, levels, out);
  };
  switch (a.variant) {
    case resident_variant::rolled:
      launch(reduce_chunks<Load, resident_variant::rolled>);
      break;
    case resident_variant::imad:
      launch(reduce_chunks<Load, resident_variant::imad>);
      break;
    case resident_variant::compact:
      launch(reduce_chunks<Load, resident_variant::compact>);
      break;
    case resident_variant::rolled_compact:
      launch(reduce_chunks<Load, resident_variant::rolled_compact>);
      break;
    default:
      launch(reduce_chunks<Load, resident_variant::unrolled>);
      break;
  }
}

// The launches of plan.hpp's plan: the chunks, then the parents, the level buffers in turn.
cudaError_t reduce_per_level(const reduce_args& a, cudaStream_t s, const std::uint32_t** nodes) {
  const bool aligned = aligned16(a.input);
  const std::uint64_t chunks = chunks_of(a.size);
  const bool pairs = a.variant == resident_variant::pairs;
  const launch_plan plan =
      plan_reduction(chunks, a.target, pairs ? max_levels_per_launch + 1 : max_levels_per_launch);
  std::uint64_t count = chunks;
  std::uint32_t* out = a.a;
  const std::uint32_t* in = nullptr;
  for (std::size_t i = 0; i < plan.levels.size(); ++i) {
    const unsigned levels = plan.levels[i];
    if (i > 0) {
      reduce_parents<<<grid_for(count, block_threads), block_threads, 0, s>>>(in, count, a.mode,
                                                                              levels, out);
    } else if (pairs && levels > 0) {
      const unsigned grid = grid_for(count, 2 * block_threads);
      if (aligned) {
        reduce_chunk_pairs<aligned_load>
            <<<grid, block_threads, 0, s>>>(a.input, a.size, a.first_chunk, a.mode, levels, out);
      } else {
        reduce_chunk_pairs<byte_load>
            <<<grid, block_threads, 0, s>>>(a.input, a.size, a.first_chunk, a.mode, levels, out);
      }
    } else if (a.variant == resident_variant::staged && aligned) {
      reduce_chunks_staged<<<grid_for(count, block_threads), block_threads, 0, s>>>(
          a.input, a.size, a.first_chunk, a.mode, levels, out);
    } else if (aligned) {
      launch_chunks<aligned_load>(a, levels, s, out);
    } else {
      launch_chunks<byte_load>(a, levels, s, out);
    }
    if (const cudaError_t e = cudaGetLastError(); e != cudaSuccess) return e;
    count = (count + (1ull << levels) - 1) >> levels;
    in = out;
    out = out == a.a ? a.b : a.a;
  }
  *nodes = in;
  return cudaSuccess;
}

// One launch for the whole plan: stage s's nodes one after another in a, counters in b.
cudaError_t reduce_one_launch(const reduce_args& a, cudaStream_t s, const std::uint32_t** nodes) {
  const std::uint64_t chunks = chunks_of(a.size);
  const launch_plan plan = plan_reduction(chunks, a.target);
  tree_stages stages{};
  stages.count = static_cast<unsigned>(plan.levels.size());
  std::uint64_t count = chunks;
  std::uint32_t* out = a.a;
  unsigned* counters = reinterpret_cast<unsigned*>(a.b);
  std::uint64_t counter_count = 0;
  for (unsigned i = 0; i < stages.count; ++i) {
    stages.levels[i] = plan.levels[i];
    stages.nodes[i] = count;
    stages.out[i] = out;
    if (i > 0) {
      stages.counters[i] = counters + counter_count;
      counter_count += grid_for(count, block_threads);
    }
    count = (count + (1ull << plan.levels[i]) - 1) >> plan.levels[i];
    out += 8 * count;
  }
  if (counter_count != 0) {
    if (const cudaError_t e = cudaMemsetAsync(counters, 0, 4 * counter_count, s); e != cudaSuccess)
      return e;
  }
  const unsigned grid = grid_for(chunks, block_threads);
  if (aligned16(a.input)) {
    reduce_tree<aligned_load>
        <<<grid, block_threads, 0, s>>>(a.input, a.size, a.first_chunk, a.mode, stages);
  } else {
    reduce_tree<byte_load>
        <<<grid, block_threads, 0, s>>>(a.input, a.size, a.first_chunk, a.mode, stages);
  }
  *nodes = stages.out[stages.count - 1];
  return cudaGetLastError();
}

}  // namespace

cudaError_t launch_reduce(const reduce_args& a, cudaStream_t s, const std::uint32_t** nodes) {
  return a.variant == resident_variant::one_launch ? reduce_one_launch(a, s, nodes)
                                                   : reduce_per_level(a, s, nodes);
}

cudaError_t launch_root_output(const root_args& a, cudaStream_t s) {
  auto* root = static_cast<core::output_node*>(a.root);
  make_root<<<1, 1, 0, s>>>(a.children, a.input, a.size, a.mode, root);
  if (const cudaError_t e = cudaGetLastError(); e != cudaSuccess) return e;
  if (a.output_size == 0) return cudaSuccess;
  const std::uint64_t blocks = (a.seek % 64 + a.output_size + 63) / 64;
  root_output<<<grid_for(blocks, 256), 256, 0, s>>>(root, a.seek, a.output_size, a.output);
  return cudaGetLastError();
}

cudaError_t launch_batch(const batch_args& a, cudaStream_t s) {
  constexpr unsigned threads = 128;
  if (a.variant == batch_variant::vector && a.all_small) {
    hash_batch_small<<<grid_for(a.count, threads), threads, 0, s>>>(a);
  } else if (a.variant == batch_variant::vector) {
    hash_batch_vector<<<grid_for(a.count, threads), threads, 0, s>>>(a);
  } else {
    hash_batch_bytewise<<<grid_for(a.count, threads), threads, 0, s>>>(a);
  }
  return cudaGetLastError();
}

}  // namespace fastblake::cuda::detail
