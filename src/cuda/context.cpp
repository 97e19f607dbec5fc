// The CUDA backend's host driver (include/fastblake/cuda.hpp): buffers, streams, the pieces of
// host input, and the CPU's part of the tree. Every CUDA call goes through runtime.hpp's table,
// so the unit tests run this code against a fake device.
//
// Streams: each context has its own, and one a lane of the host pipeline; nothing runs on the
// legacy default stream, and no call waits for the whole device. With a caller's stream
// (set_stream), resident and batch work runs on that stream, and the lanes wait for it first.
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
#include "cuda/runtime.hpp"

namespace fastblake::cuda {
namespace {

namespace core = detail;
namespace hazmat = blake3::hazmat;

const detail::runtime& rt() noexcept { return detail::active_runtime(); }

class category : public std::error_category {
 public:
  const char* name() const noexcept override { return "cuda"; }
  std::string message(int code) const override {
    return cudaGetErrorString(static_cast<cudaError_t>(code));
  }
};

void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess) {
    rt().take_error();  // clears a non-sticky error, so that the context stays usable
    throw std::system_error(static_cast<int>(status), cuda_category(), what);
  }
}

detail::kernel_mode words_of(const hazmat::mode& m) {
  detail::kernel_mode w{};
  for (int i = 0; i < 8; ++i) w.key[i] = m.key_words()[static_cast<std::size_t>(i)];
  w.flags = m.flags();
  return w;
}

hazmat::chaining_value bytes_of(const std::uint32_t words[8]) {
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
device_ptr<T> device_alloc(std::size_t count) {
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

stream_ptr make_stream() {
  cudaStream_t s = nullptr;
  check(rt().stream_create(&s), "cudaStreamCreate");
  return stream_ptr(s);
}

void synchronize(cudaStream_t s) { check(rt().stream_synchronize(s), "cudaStreamSynchronize"); }

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

}  // namespace

const std::error_category& cuda_category() noexcept {
  static const category instance;
  return instance;
}

int device_count() noexcept {
  int n = 0;
  if (rt().device_count(&n) != cudaSuccess) {
    rt().take_error();
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
  detail::resident_variant resident = detail::resident_variant::unrolled;
  detail::batch_variant batch = detail::batch_variant::bytewise;
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

  // The children of a subtree of host memory.
  std::pair<hazmat::chaining_value, hazmat::chaining_value> host_children(
      std::span<const std::byte> input, std::uint64_t first_chunk, const hazmat::mode& m) {
    const bool pinned = pinned_host_memory(input.data());
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
  impl_->own = make_stream();
  impl_->root = device_alloc<std::uint8_t>(detail::output_node_bytes);
}

context::~context() {
  if (impl_) {
    try {
      const device_scope scope(impl_->device);
      impl_.reset();
    } catch (...) {
      impl_.reset();  // the device could not be made current: free what can be freed
    }
  }
}
context::context(context&&) noexcept = default;
context& context::operator=(context&& other) noexcept {
  if (this != &other) {
    const context old(std::move(*this));  // freed with its own device current
    impl_ = std::move(other.impl_);
  }
  return *this;
}

int context::device() const noexcept { return impl_->device; }

std::string context::device_name() const {
  char name[256] = {};
  check(rt().device_name(impl_->device, name), "cudaGetDeviceProperties");
  return name;
}

void context::set_stream(std::optional<stream_handle> stream) {
  const device_scope scope(impl_->device);
  // Work still enqueued on the old stream uses the scratch buffers the new one will use.
  synchronize(impl_->work_stream());
  impl_->has_caller_stream = stream.has_value();
  impl_->caller_stream = stream.value_or(nullptr);
}

std::optional<context::stream_handle> context::stream() const noexcept {
  if (!impl_->has_caller_stream) return std::nullopt;
  return impl_->caller_stream;
}

std::uint64_t context::piece_size() const noexcept { return impl_->piece; }

void context::set_piece_size(std::uint64_t bytes) {
  const std::uint64_t p = detail::piece_size_for(bytes);
  if (p == impl_->piece) return;
  const device_scope scope(impl_->device);
  for (lane& l : impl_->lanes) synchronize(l.stream.get());
  impl_->lanes.clear();  // streams and buffers freed with them
  impl_->piece = p;
}

std::vector<std::string> context::kernel_variants() {
  std::vector<std::string> names;
  for (const auto v : detail::resident_variants) names.emplace_back(detail::name_of(v));
  for (const auto v : detail::batch_variants) names.emplace_back(detail::name_of(v));
  return names;
}

void context::set_kernel_variant(std::string_view name) {
  for (const auto v : detail::resident_variants) {
    if (detail::name_of(v) == name) {
      impl_->resident = v;
      return;
    }
  }
  for (const auto v : detail::batch_variants) {
    if (detail::name_of(v) == name) {
      impl_->batch = v;
      return;
    }
  }
  throw std::invalid_argument("fastblake::cuda: no kernel variant \"" + std::string(name) +
                              "\" (context::kernel_variants() lists them)");
}

std::vector<std::string> context::kernel_variants_in_use() const {
  return {std::string(detail::name_of(impl_->resident)),
          std::string(detail::name_of(impl_->batch))};
}

// Inputs of one chunk or less are copied back and hashed on the CPU: one compression chain
// is not worth a launch.
blake3::output_reader context::hash_resident(const std::byte* input, std::uint64_t size,
                                             const hazmat::mode& m) {
  const device_scope scope(impl_->device);
  return impl_->guarded([&] {
    const cudaStream_t stream = impl_->work_stream();
    if (size <= core::chunk_len) {
      std::array<std::byte, core::chunk_len> bytes;
      if (size != 0) check(rt().copy(bytes.data(), input, size, stream), "cudaMemcpyAsync");
      synchronize(stream);
      return blake3::hasher(m).update(std::span(bytes.data(), size)).finalize_xof();
    }
    const std::uint32_t* children = impl_->children(input, size, words_of(m));
    std::uint32_t words[16];
    check(rt().copy(words, children, sizeof words, stream), "cudaMemcpyAsync");
    synchronize(stream);
    return hazmat::merge_subtrees_root_xof(bytes_of(words), bytes_of(words + 8), m);
  });
}

void context::hash_resident_to_device(const std::byte* input, std::uint64_t size, std::byte* output,
                                      std::uint64_t output_size, std::uint64_t seek,
                                      const hazmat::mode& m) {
  if (output_size > ~std::uint64_t{0} - seek) {
    throw std::out_of_range("fastblake::cuda: the output ends at position 2^64 - 1");
  }
  const device_scope scope(impl_->device);
  return impl_->guarded([&] {
    const detail::kernel_mode mode = words_of(m);
    const auto* bytes = reinterpret_cast<const std::uint8_t*>(input);
    const bool one_chunk = size <= core::chunk_len;
    const detail::root_args args{one_chunk ? nullptr : impl_->children(input, size, mode),
                                 one_chunk ? bytes : nullptr,
                                 one_chunk ? static_cast<std::uint32_t>(size) : 0u,
                                 mode,
                                 impl_->root.get(),
                                 seek,
                                 output_size,
                                 reinterpret_cast<std::uint8_t*>(output)};
    check(rt().root_output(args, impl_->work_stream()), "kernel launch");
    if (impl_->on_own_stream()) synchronize(impl_->work_stream());
  });
}

blake3::output_reader context::hash_host(std::span<const std::byte> input, const hazmat::mode& m) {
  const device_scope scope(impl_->device);
  if (input.size() <= core::chunk_len) {
    impl::pinned_host_memory(input.data());  // throws for device memory
    return blake3::hasher(m).update(input).finalize_xof();
  }
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
  const device_scope scope(impl_->device);
  if (input.size() <= core::chunk_len) {
    impl::pinned_host_memory(input.data());  // throws for device memory
    return hazmat::finalize_non_root(check.update(input));
  }
  const auto [left, right] = impl_->host_children(input, offset / core::chunk_len, m);
  return hazmat::merge_subtrees_non_root(left, right, m);
}

void context::hash_batch_resident(const std::byte* data, const std::uint64_t* offsets,
                                  const std::uint64_t* lengths, std::uint64_t count,
                                  std::byte* digests, const hazmat::mode& m) {
  if (count == 0) return;
  const device_scope scope(impl_->device);
  return impl_->guarded([&] {
    const detail::batch_args args{reinterpret_cast<const std::uint8_t*>(data),
                                  offsets,
                                  lengths,
                                  count,
                                  words_of(m),
                                  impl_->batch,
                                  reinterpret_cast<std::uint8_t*>(digests),
                                  false};
    check(rt().hash_batch(args, impl_->work_stream()), "kernel launch");
    if (impl_->on_own_stream()) synchronize(impl_->work_stream());
  });
}

std::vector<blake3::digest> context::hash_batch(const std::byte* data,
                                                std::span<const std::uint64_t> offsets,
                                                std::span<const std::uint64_t> lengths,
                                                const hazmat::mode& m) {
  if (offsets.size() != lengths.size()) {
    throw std::invalid_argument("fastblake::cuda::hash_batch: offsets and lengths differ in size");
  }
  const std::uint64_t count = offsets.size();
  std::vector<blake3::digest> out(count);
  if (count == 0) return out;
  const device_scope scope(impl_->device);
  return impl_->guarded([&] {
    impl_->ensure_batch(count);
    const cudaStream_t stream = impl_->work_stream();
    std::uint64_t* tables = impl_->batch_tables.get();
    check(rt().copy(tables, offsets.data(), 8 * count, stream), "cudaMemcpyAsync");
    check(rt().copy(tables + count, lengths.data(), 8 * count, stream), "cudaMemcpyAsync");
    const detail::batch_args args{reinterpret_cast<const std::uint8_t*>(data),
                                  tables,
                                  tables + count,
                                  count,
                                  words_of(m),
                                  impl_->batch,
                                  impl_->batch_digests.get(),
                                  std::all_of(lengths.begin(), lengths.end(), [](std::uint64_t n) {
                                    return n <= core::chunk_len;
                                  })};
    check(rt().hash_batch(args, stream), "kernel launch");
    std::vector<std::uint8_t> bytes(32 * count);
    check(rt().copy(bytes.data(), impl_->batch_digests.get(), bytes.size(), stream),
          "cudaMemcpyAsync");
    synchronize(stream);
    for (std::uint64_t i = 0; i < count; ++i) {
      blake3::digest::bytes_type d;
      std::memcpy(d.data(), bytes.data() + 32 * i, 32);
      out[i] = blake3::digest(d);
    }
    return out;
  });
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
          const ssize_t n =
              ::pread(fd, staging + done, bytes - done, static_cast<off_t>(p * piece + done));
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
