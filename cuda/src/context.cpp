// The CUDA backend's public context (include/fastblake/cuda.hpp) over the host driver
// (driver.hpp). Every CUDA call goes through runtime.hpp's table, so the unit tests run this
// code against a fake device.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <new>

#include <fastblake/file.hpp>

#include "driver.hpp"

namespace fastblake::cuda {
namespace {

class category : public std::error_category {
 public:
  const char* name() const noexcept override { return "cuda"; }
  std::string message(int code) const override {
    return cudaGetErrorString(static_cast<cudaError_t>(code));
  }
};

// Reads `bytes` at `offset` into `to`; what is past the end of a file that shrank, or past an
// error, becomes zeros. Returns 0 or the error (EIO for a short file).
int read_fully(int fd, std::byte* to, std::uint64_t bytes, std::uint64_t offset) {
  std::uint64_t done = 0;
  while (done < bytes) {
    const ssize_t n = ::pread(fd, to + done, bytes - done, static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      std::memset(to + done, 0, bytes - done);
      return n < 0 ? errno : EIO;
    }
    done += static_cast<std::uint64_t>(n);
  }
  return 0;
}

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
  if (name == "default") {
    impl_->resident = impl::default_resident;
    impl_->batch = impl::default_batch;
    return;
  }
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
  std::atomic<int> first_error{0};
  const auto [left, right] =
      impl_->pipeline(size, 0, m, [&](std::uint64_t p, std::uint64_t bytes, std::byte* staging) {
        impl::in_parts(bytes, [&](std::uint64_t at, std::uint64_t n) {
          const int error = read_fully(fd, staging + at, n, p * piece + at);
          int none = 0;
          if (error != 0) first_error.compare_exchange_strong(none, error);
        });
        return static_cast<const std::byte*>(staging);
      });
  if (const int error = first_error.load(); error != 0 && !ec) {
    ec.assign(error, std::generic_category());
  }
  return ec ? blake3::hasher(m).finalize_xof() : hazmat::merge_subtrees_root_xof(left, right, m);
}

}  // namespace fastblake::cuda
