// The CUDA backend's host driver, shared by the public context (context.cpp) and the plug-in
// the CPU library offloads to (automatic.cpp): device memory, streams and the device scope as
// RAII types, the lanes of the host pipeline, and context::impl, which owns them.
//
// Streams: each context has its own, and one a lane of the host pipeline; nothing runs on the
// legacy default stream, and no call waits for the whole device. With a caller's stream
// (set_stream), resident and batch work runs on that stream, and the lanes wait for it first.
#pragma once

#include <algorithm>
#include <array>
#include <cstring>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include <fastblake/cuda.hpp>
#include <fastblake/thread_pool.hpp>

#include "blake3_core.hpp"
#include "plan.hpp"
#include "runtime.hpp"

namespace fastblake::cuda {

namespace detail {

namespace hazmat = blake3::hazmat;

inline const runtime& rt() noexcept { return active_runtime(); }

inline void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess) {
    rt().take_error();  // clears a non-sticky error, so that the context stays usable
    throw std::system_error(static_cast<int>(status), cuda_category(), what);
  }
}

inline kernel_mode words_of(const hazmat::mode& m) {
  kernel_mode w{};
  for (int i = 0; i < 8; ++i) w.key[i] = m.key_words()[static_cast<std::size_t>(i)];
  w.flags = m.flags();
  return w;
}

inline hazmat::chaining_value bytes_of(const std::uint32_t words[8]) {
  hazmat::chaining_value cv;
  for (std::size_t i = 0; i < 32; ++i) {
    cv[i] = static_cast<std::uint8_t>(words[i / 4] >> (8 * (i % 4)));
  }
  return cv;
}

template <class T>
struct device_deleter {
  void operator()(T* p) const noexcept { rt().free(p); }
};
template <class T>
using device_ptr = std::unique_ptr<T, device_deleter<T>>;

template <class T>
inline device_ptr<T> device_alloc(std::size_t count) {
  void* p = nullptr;
  check(rt().malloc(&p, count * sizeof(T)), "cudaMalloc");
  return device_ptr<T>(static_cast<T*>(p));
}

struct host_deleter {
  void operator()(std::byte* p) const noexcept { rt().free_host(p); }
};

struct stream_deleter {
  void operator()(CUstream_st* s) const noexcept { rt().stream_destroy(s); }
};
using stream_ptr = std::unique_ptr<CUstream_st, stream_deleter>;

inline stream_ptr make_stream() {
  cudaStream_t s = nullptr;
  check(rt().stream_create(&s), "cudaStreamCreate");
  return stream_ptr(s);
}

inline void synchronize(cudaStream_t s) {
  check(rt().stream_synchronize(s), "cudaStreamSynchronize");
}

// Makes `device` current for the scope, and gives the calling thread its previous one back
// afterwards: a context never changes which device its caller's own CUDA calls go to.
class device_scope {
 public:
  explicit device_scope(int device) {
    if (rt().get_device(&previous_) != cudaSuccess) {
      rt().take_error();
      previous_ = -1;
    }
    if (previous_ != device) check(rt().set_device(device), "cudaSetDevice");
  }
  ~device_scope() {
    int now = -1;
    if (previous_ >= 0 && rt().get_device(&now) == cudaSuccess && now != previous_) {
      rt().set_device(previous_);
    }
  }
  device_scope(const device_scope&) = delete;
  device_scope& operator=(const device_scope&) = delete;

 private:
  int previous_ = -1;
};

// A stream of the pipeline and what it owns: a device buffer for one piece, a pinned host
// buffer to stage it in, and scratch for its levels.
struct lane {
  stream_ptr stream;
  device_ptr<std::uint8_t> input;
  std::unique_ptr<std::byte, host_deleter> staging;
  device_ptr<std::uint32_t> scratch;
};

}  // namespace detail

namespace core = detail;
using detail::bytes_of;
using detail::check;
using detail::device_alloc;
using detail::device_ptr;
using detail::device_scope;
using detail::lane;
using detail::make_stream;
using detail::rt;
using detail::stream_ptr;
using detail::synchronize;
using detail::words_of;
namespace hazmat = blake3::hazmat;

struct context::impl {
  // The fastest on an H200 (cuda/README.md, "Kernel variants").
  static constexpr detail::resident_variant default_resident =
      detail::resident_variant::rolled_compact;
  static constexpr detail::batch_variant default_batch = detail::batch_variant::vector;
  int device = 0;
  std::uint64_t piece = 64u << 20;
  detail::resident_variant resident = default_resident;
  detail::batch_variant batch = default_batch;
  stream_ptr own;  // resident and batch work, unless the caller gave a stream
  bool has_caller_stream = false;
  cudaStream_t caller_stream = nullptr;
  std::vector<lane> lanes;
  // Chaining values of a resident hash's levels: two buffers used in turn.
  device_ptr<std::uint32_t> levels[2];
  std::uint64_t level_capacity = 0;  // nodes each
  device_ptr<std::uint32_t> piece_cvs;
  std::uint64_t piece_cv_capacity = 0;
  device_ptr<std::uint8_t> root;
  device_ptr<std::uint64_t> batch_tables;
  std::uint64_t batch_capacity = 0;
  device_ptr<std::uint8_t> batch_digests;

  impl() = default;
  impl(const impl&) = delete;
  impl& operator=(const impl&) = delete;
  // Buffers are freed only once no work of this context can still use them.
  ~impl() {
    if (own) rt().stream_synchronize(work_stream());
    drain();
  }

  cudaStream_t work_stream() const { return has_caller_stream ? caller_stream : own.get(); }
  bool on_own_stream() const { return !has_caller_stream; }

  // Buffers grow only once both new ones exist: a failed allocation leaves the old ones and
  // their capacity as they were. Work already enqueued may still read the old ones.
  void ensure_levels(std::uint64_t nodes) {
    if (nodes <= level_capacity) return;
    synchronize(work_stream());
    auto first = device_alloc<std::uint32_t>(nodes * 8);
    auto second = device_alloc<std::uint32_t>(nodes * 8);
    levels[0] = std::move(first);
    levels[1] = std::move(second);
    level_capacity = nodes;
  }

  void ensure_batch(std::uint64_t count) {
    if (count <= batch_capacity) return;
    synchronize(work_stream());
    auto tables = device_alloc<std::uint64_t>(2 * count);
    auto digests = device_alloc<std::uint8_t>(32 * count);
    batch_tables = std::move(tables);
    batch_digests = std::move(digests);
    batch_capacity = count;
  }

  // Three streams: a piece being staged, one copied and one hashed at a time. Built apart and
  // kept only when every stream and buffer exists, so a failure leaves no half-built lane.
  void ensure_lanes() {
    if (!lanes.empty()) return;
    std::vector<lane> built(3);
    for (lane& l : built) {
      l.stream = make_stream();
      l.input = device_alloc<std::uint8_t>(piece);
      l.scratch = device_alloc<std::uint32_t>(2 * scratch_nodes(piece / core::chunk_len) * 8);
    }
    lanes = std::move(built);
  }

  // Nodes of each of the two scratch buffers of a reduction of `chunks` chunks.
  static std::uint64_t scratch_nodes(std::uint64_t chunks) { return (chunks + 1) / 2 + 1; }

  // Waits for every lane, ignoring errors: what an exception leaves in flight (copies from the
  // caller's memory, above all) must end before the caller may free or reuse that memory.
  void drain() noexcept {
    for (lane& l : lanes) rt().stream_synchronize(l.stream.get());
    rt().take_error();
  }

  // Waits for the work this context enqueued on its own streams, ignoring errors: when a call
  // throws, none of its work is left running.
  void quiesce() noexcept {
    if (own && on_own_stream()) rt().stream_synchronize(own.get());
    drain();
  }

  // f(), and quiesce() if it throws.
  template <class F>
  decltype(auto) guarded(F&& f) {
    try {
      return f();
    } catch (...) {
      quiesce();
      throw;
    }
  }

  std::byte* staging(lane& l) {
    if (!l.staging) {
      void* p = nullptr;
      check(rt().host_alloc(&p, piece), "cudaHostAlloc");
      l.staging.reset(static_cast<std::byte*>(p));
    }
    return l.staging.get();
  }

  // Enqueues the reduction of `size` (>= 1) bytes at device `input`, chunks numbered from
  // first_chunk, down to `target` nodes, on `stream` with scratch a and b; returns where the
  // nodes will be.
  const std::uint32_t* reduce(const std::uint8_t* input, std::uint64_t size,
                              std::uint64_t first_chunk, unsigned target,
                              const detail::kernel_mode& mode, cudaStream_t stream,
                              std::uint32_t* a, std::uint32_t* b) {
    const detail::reduce_args args{input, size, first_chunk, target, mode, resident, a, b};
    const std::uint32_t* nodes = nullptr;
    check(rt().reduce(args, stream, &nodes), "kernel launch");
    return nodes;
  }

  // The root's two children of a resident input of more than one chunk, in levels[], on the
  // work stream.
  const std::uint32_t* children(const std::byte* input, std::uint64_t size,
                                const detail::kernel_mode& mode) {
    ensure_levels(scratch_nodes((size + core::chunk_len - 1) / core::chunk_len));
    return reduce(reinterpret_cast<const std::uint8_t*>(input), size, 0, 2, mode, work_stream(),
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
    ensure_lanes();
    const std::uint64_t pieces = (size + piece - 1) / piece;
    // The capacity is raised only once the bigger buffer exists.
    if (const std::uint64_t need = std::max<std::uint64_t>(pieces, 2); need > piece_cv_capacity) {
      piece_cvs = device_alloc<std::uint32_t>(need * 8);
      piece_cv_capacity = need;
    }
    try {
      return run_pipeline(size, first_chunk, m, pieces, fill);
    } catch (...) {
      drain();
      throw;
    }
  }

  template <class Fill>
  std::pair<hazmat::chaining_value, hazmat::chaining_value> run_pipeline(std::uint64_t size,
                                                                         std::uint64_t first_chunk,
                                                                         const hazmat::mode& m,
                                                                         std::uint64_t pieces,
                                                                         Fill& fill) {
    const detail::kernel_mode mode = words_of(m);
    const unsigned target = pieces == 1 ? 2 : 1;
    if (has_caller_stream) {
      for (lane& l : lanes)
        check(rt().stream_wait(l.stream.get(), caller_stream), "cudaStreamWaitEvent");
    }
    const std::uint64_t chunks_per_piece = piece / core::chunk_len;
    for (std::uint64_t p = 0; p < pieces; ++p) {
      lane& l = lanes[p % lanes.size()];
      // The lane's buffers are free once its previous piece was copied and hashed.
      synchronize(l.stream.get());
      const std::uint64_t bytes = std::min(piece, size - p * piece);
      const std::byte* source = fill(p, bytes, staging(l));
      check(rt().copy(l.input.get(), source, bytes, l.stream.get()), "cudaMemcpyAsync");
      std::uint32_t* a = l.scratch.get();
      const std::uint32_t* nodes =
          reduce(l.input.get(), bytes, first_chunk + p * chunks_per_piece, target, mode,
                 l.stream.get(), a, a + 8 * scratch_nodes(chunks_per_piece));
      check(rt().copy(piece_cvs.get() + 8 * p * target, nodes, 32 * target, l.stream.get()),
            "cudaMemcpyAsync");
    }
    for (lane& l : lanes) synchronize(l.stream.get());
    std::vector<std::uint32_t> words(pieces * 8 * target);
    check(rt().copy(words.data(), piece_cvs.get(), words.size() * 4, lanes[0].stream.get()),
          "cudaMemcpyAsync");
    synchronize(lanes[0].stream.get());
    std::vector<hazmat::chaining_value> cvs;
    for (std::size_t i = 0; i < words.size(); i += 8) cvs.push_back(bytes_of(&words[i]));
    return detail::merge_to_children(std::move(cvs), m);
  }

  // Whether host memory at p was pinned by the caller. Device memory throws: the CPU would
  // fault reading it (hash_resident is for that). Managed memory is host memory to this code.
  static bool pinned_host_memory(const std::byte* p) {
    if (p == nullptr) return false;
    cudaMemoryType type = cudaMemoryTypeUnregistered;
    if (rt().memory_type(p, &type) != cudaSuccess) {
      rt().take_error();
      type = cudaMemoryTypeUnregistered;
    }
    if (type == cudaMemoryTypeDevice) {
      throw std::system_error(static_cast<int>(cudaErrorInvalidValue), cuda_category(),
                              "fastblake::cuda: hash_host of device memory (use hash_resident)");
    }
    return type == cudaMemoryTypeHost;
  }

  // One core copies pageable memory into pinned staging at 7 GB/s (the H200 machine's host),
  // an eighth of what the link takes, and reads files from the page cache no faster: staging
  // runs part(offset, bytes) over [0, size) in parts of at least 1 MiB, one per thread of the
  // default pool.
  template <class Part>
  static void in_parts(std::uint64_t size, const Part& part) {
    thread_pool& pool = thread_pool::default_pool();
    split_parts(pool, 0, size, std::min<std::uint64_t>(pool.size(), size >> 20), part);
  }

  template <class Part>
  static void split_parts(thread_pool& pool, std::uint64_t offset, std::uint64_t size,
                          std::uint64_t parts, const Part& part) {
    if (parts <= 1) {
      part(offset, size);
      return;
    }
    const std::uint64_t left_parts = parts / 2;
    const std::uint64_t left = size / parts * left_parts / 4096 * 4096;
    pool.join([&] { split_parts(pool, offset, left, left_parts, part); },
              [&] { split_parts(pool, offset + left, size - left, parts - left_parts, part); });
  }

  // The children of a subtree of host memory.
  std::pair<hazmat::chaining_value, hazmat::chaining_value> host_children(
      std::span<const std::byte> input, std::uint64_t first_chunk, const hazmat::mode& m) {
    const bool pinned = pinned_host_memory(input.data());
    return pipeline(input.size(), first_chunk, m,
                    [&](std::uint64_t p, std::uint64_t bytes, std::byte* staging) {
                      const std::byte* source = input.data() + p * piece;
                      if (pinned) return source;
                      in_parts(bytes, [&](std::uint64_t at, std::uint64_t n) {
                        std::memcpy(staging + at, source + at, n);
                      });
                      return static_cast<const std::byte*>(staging);
                    });
  }
};

}  // namespace fastblake::cuda
