// The fake device's runtime table and emulated kernels (fake_device.hpp), the fixture that
// installs it, and the tests' helpers.
#include "fake_device.hpp"

namespace fastblake::test::fake_gpu {

// ---- Emulated kernels ----

std::array<std::uint32_t, 8> cv_of(const core::output_node& node) {
  std::array<std::uint32_t, 8> cv;
  core::chaining_value(node, cv.data());
  return cv;
}

const auto load = [](const std::uint8_t* p, std::uint32_t m[16]) { core::load_block_words(p, m); };

void emulate_reduce(const core::reduce_args a) {
  const std::uint64_t chunks = (a.size + 1023) / 1024;
  std::vector<std::array<std::uint32_t, 8>> nodes;
  for (std::uint64_t c = 0; c < chunks; ++c) {
    const auto len = static_cast<std::uint32_t>(std::min<std::uint64_t>(1024, a.size - 1024 * c));
    nodes.push_back(cv_of(core::chunk_node(a.input + 1024 * c, len, a.first_chunk + c, a.mode.key,
                                           a.mode.flags, load)));
  }
  while (nodes.size() > a.target) {
    std::vector<std::array<std::uint32_t, 8>> up;
    for (std::size_t i = 0; i < nodes.size(); i += 2) {
      up.push_back(i + 1 < nodes.size()
                       ? cv_of(core::parent_node(nodes[i].data(), nodes[i + 1].data(), a.mode.key,
                                                 a.mode.flags))
                       : nodes[i]);
    }
    nodes = std::move(up);
  }
  for (std::size_t i = 0; i < nodes.size(); ++i) std::memcpy(a.a + 8 * i, nodes[i].data(), 32);
}

// ---- The runtime table ----

cudaError_t fake_device_count(int* n) {
  *n = dev().devices;
  return cudaSuccess;
}
cudaError_t fake_get_device(int* d) {
  *d = dev().current;
  return cudaSuccess;
}
cudaError_t fake_set_device(int d) {
  if (dev().fails()) return cudaErrorDevicesUnavailable;
  if (d < 0 || d >= dev().devices) return cudaErrorInvalidDevice;
  dev().current = d;
  return cudaSuccess;
}
cudaError_t fake_device_name(int, char name[256]) {
  std::strcpy(name, "fake device");
  return cudaSuccess;
}
cudaError_t fake_take_error() { return cudaSuccess; }

bool forget(std::map<const std::uint8_t*, std::size_t>& blocks, void* p) {
  if (blocks.erase(static_cast<std::uint8_t*>(p)) != 0) return true;
  dev().violations.push_back("a free of unknown memory");
  return false;
}

cudaError_t fake_malloc(void** p, std::size_t bytes) {
  fake_device& d = dev();
  if (d.fails()) return cudaErrorMemoryAllocation;
  // 256-byte aligned as cudaMalloc's, a page of gap between buffers.
  const std::size_t at = (d.arena_used + 255) / 256 * 256;
  if (at + bytes + 4096 > fake_device::arena_bytes) return cudaErrorMemoryAllocation;
  d.arena_used = at + bytes + 4096;
  d.device_blocks[d.arena + at] = bytes;
  *p = d.arena + at;
  return cudaSuccess;
}
cudaError_t fake_free(void* p) {
  if (p == nullptr) return cudaSuccess;
  // cudaFree waits for the device: work still reading the buffer ends first.
  for (fake_stream* s : dev().streams) s->run_all();
  return forget(dev().device_blocks, p) ? cudaSuccess : cudaErrorInvalidValue;
}
cudaError_t fake_host_alloc(void** p, std::size_t bytes) {
  if (dev().fails()) return cudaErrorMemoryAllocation;
  auto* b = new std::uint8_t[bytes == 0 ? 1 : bytes];
  dev().host_blocks[b] = bytes;
  *p = b;
  return cudaSuccess;
}
cudaError_t fake_free_host(void* p) {
  if (p == nullptr) return cudaSuccess;
  if (!forget(dev().host_blocks, p)) return cudaErrorInvalidValue;
  delete[] static_cast<std::uint8_t*>(p);
  return cudaSuccess;
}
cudaError_t fake_memory_type(const void* p, cudaMemoryType* type) {
  *type = fake_device::inside(dev().device_blocks, p, 1) ? cudaMemoryTypeDevice
          : fake_device::inside(dev().host_blocks, p, 1) ? cudaMemoryTypeHost
                                                         : cudaMemoryTypeUnregistered;
  return cudaSuccess;
}
cudaError_t fake_stream_create(cudaStream_t* s) {
  if (dev().fails()) return cudaErrorMemoryAllocation;
  auto* f = new fake_stream;
  dev().streams.insert(f);
  *s = reinterpret_cast<cudaStream_t>(f);
  return cudaSuccess;
}
cudaError_t fake_stream_destroy(cudaStream_t s) {
  fake_stream* f = dev().stream_of(s);
  if (f == nullptr) return cudaErrorInvalidResourceHandle;
  f->run_all();  // as the runtime does: the work finishes, then the stream goes
  dev().streams.erase(f);
  delete f;
  return cudaSuccess;
}
cudaError_t fake_stream_synchronize(cudaStream_t s) {
  if (fake_stream* f = dev().stream_of(s)) f->run_all();
  return dev().fails() ? cudaErrorLaunchFailure : cudaSuccess;
}
cudaError_t fake_stream_wait(cudaStream_t waiter, cudaStream_t on) {
  if (dev().fails()) return cudaErrorInvalidResourceHandle;
  fake_stream* o = dev().stream_of(on);
  if (o == nullptr) return cudaSuccess;  // the legacy stream ran at once
  const std::uint64_t until = o->enqueued;
  dev().enqueue(waiter, [o, until] {
    while (o->executed < until) o->run_one();
  });
  return cudaSuccess;
}
cudaError_t fake_copy(void* to, const void* from, std::size_t bytes, cudaStream_t s) {
  if (dev().fails()) return cudaErrorInvalidValue;
  // A bad copy is reported and not made, so that the test fails instead of crashing.
  if (to == nullptr || from == nullptr) {
    dev().violations.push_back("a copy through a null pointer");
  } else if (dev().within_if_device(to, bytes, "a copy's destination") &&
             dev().within_if_device(from, bytes, "a copy's source")) {
    dev().enqueue(s, [=] { std::memcpy(to, from, bytes); });
  }
  return cudaSuccess;
}
cudaError_t fake_memset(void* p, int value, std::size_t bytes, cudaStream_t s) {
  if (dev().fails()) return cudaErrorInvalidValue;
  if (!dev().expect_device(p, bytes, "a memset")) return cudaErrorInvalidValue;
  dev().enqueue(s, [=] { std::memset(p, value, bytes); });
  return cudaSuccess;
}
cudaError_t fake_reduce(const core::reduce_args& a, cudaStream_t s, const std::uint32_t** nodes) {
  if (dev().fails()) return cudaErrorLaunchOutOfResources;
  const std::uint64_t chunks = (a.size + 1023) / 1024;
  // A bad launch is reported and not run, so that the test fails instead of crashing.
  if (!dev().expect_device(a.input, a.size, "a reduction's input") ||
      !dev().expect_device(a.a, 32 * ((chunks + 1) / 2 + 1), "a reduction's first scratch") ||
      !dev().expect_device(a.b, 32 * ((chunks + 1) / 2 + 1), "a reduction's second scratch"))
    return cudaErrorInvalidValue;
  dev().reductions.push_back({s, a.variant});
  dev().enqueue(s, [a] { emulate_reduce(a); });
  *nodes = a.a;
  return cudaSuccess;
}
cudaError_t fake_root_output(const core::root_args& a, cudaStream_t s) {
  if (dev().fails()) return cudaErrorLaunchOutOfResources;
  if (!dev().expect_device(a.root, core::output_node_bytes, "the root's scratch") ||
      (a.children && !dev().expect_device(a.children, 64, "the root's children")) ||
      (!a.children && a.size && !dev().expect_device(a.input, a.size, "a one-chunk input")) ||
      (a.output_size && !dev().expect_device(a.output, a.output_size, "the output")))
    return cudaErrorInvalidValue;
  dev().enqueue(s, [a] {
    const core::output_node root =
        a.children ? core::parent_node(a.children, a.children + 8, a.mode.key, a.mode.flags)
                   : core::chunk_node(a.input, a.size, 0, a.mode.key, a.mode.flags, load);
    std::memcpy(a.root, &root, sizeof root);
    for (std::uint64_t i = 0; i < a.output_size; ++i) {
      const std::uint64_t position = a.seek + i;
      std::uint32_t words[16];
      core::root_output_block(root, position / 64, words);
      a.output[i] = static_cast<std::uint8_t>(words[position % 64 / 4] >> (8 * (position % 4)));
    }
  });
  return cudaSuccess;
}
cudaError_t fake_hash_batch(const core::batch_args& a, cudaStream_t s) {
  if (dev().fails()) return cudaErrorLaunchOutOfResources;
  if (!dev().expect_device(a.offsets, 8 * a.count, "the offsets") ||
      !dev().expect_device(a.lengths, 8 * a.count, "the lengths") ||
      !dev().expect_device(a.digests, 32 * a.count, "the digests"))
    return cudaErrorInvalidValue;
  dev().batches_all_small.push_back(a.all_small);
  dev().enqueue(s, [a] {
    for (std::uint64_t i = 0; i < a.count; ++i) {
      const core::output_node root =
          core::root_node(a.data + a.offsets[i], a.lengths[i], a.mode.key, a.mode.flags, load);
      std::uint32_t words[16];
      core::root_output_block(root, 0, words);
      std::memcpy(a.digests + 32 * i, words, 32);
    }
  });
  return cudaSuccess;
}

constexpr core::runtime fake_runtime{fake_device_count,
                                     fake_get_device,
                                     fake_set_device,
                                     fake_device_name,
                                     fake_take_error,
                                     fake_malloc,
                                     fake_free,
                                     fake_host_alloc,
                                     fake_free_host,
                                     fake_memory_type,
                                     fake_stream_create,
                                     fake_stream_destroy,
                                     fake_stream_synchronize,
                                     fake_stream_wait,
                                     fake_copy,
                                     fake_memset,
                                     fake_reduce,
                                     fake_root_output,
                                     fake_hash_batch};

void FakeDevice::SetUp() {
  fake_device::active() = &device_;
  core::set_runtime_for_testing(&fake_runtime);
}

void FakeDevice::TearDown() {
  core::set_runtime_for_testing(nullptr);
  EXPECT_TRUE(device_.device_blocks.empty())
      << device_.device_blocks.size() << " device buffers leaked";
  EXPECT_TRUE(device_.host_blocks.empty())
      << device_.host_blocks.size() << " pinned buffers leaked";
  EXPECT_TRUE(device_.streams.empty()) << device_.streams.size() << " streams leaked";
  EXPECT_EQ(device_.violations, std::vector<std::string>{});
  for (fake_stream* s : device_.streams) delete s;
  for (auto& [p, n] : device_.host_blocks) delete[] p;
  fake_device::active() = nullptr;
}

std::uint8_t* FakeDevice::to_device(const std::vector<std::uint8_t>& bytes) {
  void* p = nullptr;
  fake_malloc(&p, bytes.size());
  if (!bytes.empty()) std::memcpy(p, bytes.data(), bytes.size());
  return static_cast<std::uint8_t*>(p);
}

void FakeDevice::free_device(void* p) { fake_free(p); }

std::vector<std::uint8_t> random_bytes(std::size_t n, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<std::uint8_t> v(n);
  for (auto& b : v) b = static_cast<std::uint8_t>(rng());
  return v;
}

std::span<const std::byte> bytes_of(const std::vector<std::uint8_t>& v) {
  return std::as_bytes(std::span(v));
}

std::vector<std::uint8_t> output(b3::output_reader r, std::uint64_t seek, std::size_t n) {
  std::vector<std::uint8_t> out(n);
  r.seek(seek);
  r.fill(std::span<std::uint8_t>(out));
  return out;
}

std::vector<std::uint8_t> cpu_output(const std::vector<std::uint8_t>& in, std::uint64_t seek,
                                     std::size_t n, const b3::hazmat::mode& m) {
  return output(b3::hasher(m).update(bytes_of(in)).finalize_xof(), seek, n);
}

b3::hazmat::mode keyed() {
  b3::key_type key;
  for (std::size_t i = 0; i < key.size(); ++i) key[i] = static_cast<std::uint8_t>(3 * i + 5);
  return b3::hazmat::mode::keyed(key);
}

}  // namespace fastblake::test::fake_gpu
