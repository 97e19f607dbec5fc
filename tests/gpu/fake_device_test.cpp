// The CUDA backend's host driver (src/cuda/driver.hpp, context.cpp) on a fake device, without a
// GPU: the runtime table (src/cuda/runtime.hpp) replaced by host memory, streams that defer their
// work until synchronized, kernels emulated on the CPU with the GPU's own chunk and parent code
// (blake3_core.hpp), and a failure injected at any chosen call. Every device access is checked
// against the buffers allocated, so a write past a buffer or through a null one fails here.
//
// What it holds the driver to: the results of every API against the CPU library; a failure at
// any call throws std::system_error, leaves no work in flight, and leaves the context usable
// and correct afterwards; nothing leaks; nothing runs on the legacy default stream; work is
// ordered after a caller's stream; the caller's current device is given back.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <deque>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <fastblake/blake3.hpp>
#include <fastblake/cuda.hpp>

#include "cuda/blake3_core.hpp"
#include "cuda/runtime.hpp"

namespace {

namespace b3 = fastblake::blake3;
namespace gpu = fastblake::cuda;
namespace core = fastblake::cuda::detail;

struct fake_stream {
  std::deque<std::function<void()>> pending;
  std::uint64_t enqueued = 0;
  std::uint64_t executed = 0;

  void run_one() {
    auto op = std::move(pending.front());
    pending.pop_front();
    ++executed;
    op();
  }
  void run_all() {
    while (!pending.empty()) run_one();
  }
};

struct launch_record {
  cudaStream_t stream;
  core::resident_variant variant;
};

// The fake device. One at a time (the runtime table holds plain function pointers). Device
// memory comes from an arena of its own, never reused, so that any pointer into the arena
// outside a live buffer is known to be a device access gone wrong.
struct fake_device {
  static constexpr std::size_t arena_bytes = std::size_t{1}
                                             << 36;  // virtual: pages are touched only as used
  std::uint8_t* arena =
      static_cast<std::uint8_t*>(::mmap(nullptr, arena_bytes, PROT_READ | PROT_WRITE,
                                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0));
  std::size_t arena_used = 0;
  int devices = 1;
  int current = 0;
  std::map<const std::uint8_t*, std::size_t> device_blocks, host_blocks;
  std::set<fake_stream*> streams;
  int calls = 0;    // fallible calls so far
  int fail_at = 0;  // the fallible call that fails, counting from 1; 0: none
  bool legacy_stream_used = false;
  std::vector<launch_record> reductions;
  std::vector<bool> batches_all_small;
  std::vector<std::string> violations;

  fake_device() = default;
  fake_device(const fake_device&) = delete;
  fake_device& operator=(const fake_device&) = delete;
  ~fake_device() { ::munmap(arena, arena_bytes); }

  bool in_arena(const void* p) const {
    const auto* b = static_cast<const std::uint8_t*>(p);
    return b >= arena && b < arena + arena_bytes;
  }

  static fake_device*& active() {
    static fake_device* d = nullptr;
    return d;
  }

  bool fails() { return fail_at != 0 && ++calls == fail_at; }

  // Whether [p, p + n) lies in one of `blocks`.
  static bool inside(const std::map<const std::uint8_t*, std::size_t>& blocks, const void* p,
                     std::size_t n) {
    const auto* b = static_cast<const std::uint8_t*>(p);
    auto it = blocks.upper_bound(b);
    if (it == blocks.begin()) return false;
    --it;
    return b + n <= it->first + it->second;
  }
  // A copy's side that starts in a device buffer must end in it.
  bool within_if_device(const void* p, std::size_t n, const char* what) {
    if (!in_arena(p) || inside(device_blocks, p, n)) return true;
    violations.push_back(std::string(what) + " past the end of a device buffer");
    return false;
  }
  bool expect_device(const void* p, std::size_t n, const char* what) {
    if (inside(device_blocks, p, n)) return true;
    violations.push_back(std::string(what) + " outside device memory");
    return false;
  }

  fake_stream* stream_of(cudaStream_t s) {
    auto* f = reinterpret_cast<fake_stream*>(s);
    if (s == nullptr || streams.count(f) == 0) {
      legacy_stream_used = legacy_stream_used || s == nullptr;
      if (s != nullptr) violations.push_back("an unknown stream");
      return nullptr;
    }
    return f;
  }
  void enqueue(cudaStream_t s, std::function<void()> op) {
    fake_stream* f = stream_of(s);
    if (f == nullptr) {
      op();  // the legacy stream: at once
      return;
    }
    f->pending.push_back(std::move(op));
    ++f->enqueued;
  }
  std::size_t pending() const {
    std::size_t n = 0;
    for (const fake_stream* s : streams) n += s->pending.size();
    return n;
  }
};

fake_device& dev() { return *fake_device::active(); }

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

// ---- Fixture and helpers ----

class FakeDevice : public ::testing::Test {
 protected:
  void SetUp() override {
    fake_device::active() = &device_;
    core::set_runtime_for_testing(&fake_runtime);
  }
  void TearDown() override {
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

  // A device buffer holding `bytes` (freed by the fixture's caller through free_device).
  std::uint8_t* to_device(const std::vector<std::uint8_t>& bytes) {
    void* p = nullptr;
    fake_malloc(&p, bytes.size());
    if (!bytes.empty()) std::memcpy(p, bytes.data(), bytes.size());
    return static_cast<std::uint8_t*>(p);
  }
  void free_device(void* p) { fake_free(p); }

  fake_device device_;
};

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
                                     std::size_t n,
                                     const b3::hazmat::mode& m = b3::hazmat::mode::hash()) {
  return output(b3::hasher(m).update(bytes_of(in)).finalize_xof(), seek, n);
}

b3::hazmat::mode keyed() {
  b3::key_type key;
  for (std::size_t i = 0; i < key.size(); ++i) key[i] = static_cast<std::uint8_t>(3 * i + 5);
  return b3::hazmat::mode::keyed(key);
}

// ---- Results ----

TEST_F(FakeDevice, EveryApiMatchesTheCpu) {
  gpu::context ctx;
  EXPECT_EQ(ctx.device_name(), "fake device");
  ctx.set_piece_size(4096);
  for (std::uint64_t size : {0ull, 1ull, 1024ull, 1025ull, 4096ull, 4097ull, 8192ull, 12289ull,
                             65536ull + 3, 100000ull}) {
    const auto in = random_bytes(size, static_cast<std::uint32_t>(size));
    for (const auto& m : {b3::hazmat::mode::hash(), keyed()}) {
      EXPECT_EQ(output(ctx.hash_host(bytes_of(in), m), 0, 80), cpu_output(in, 0, 80, m))
          << "hash_host " << size;
      std::uint8_t* d = to_device(in);
      EXPECT_EQ(output(ctx.hash_resident(reinterpret_cast<const std::byte*>(d), size, m), 5, 70),
                cpu_output(in, 5, 70, m))
          << "hash_resident " << size;
      void* out = nullptr;
      fake_malloc(&out, 100);
      ctx.hash_resident_to_device(reinterpret_cast<const std::byte*>(d), size,
                                  static_cast<std::byte*>(out), 100, 63, m);
      EXPECT_EQ(std::vector<std::uint8_t>(static_cast<std::uint8_t*>(out),
                                          static_cast<std::uint8_t*>(out) + 100),
                cpu_output(in, 63, 100, m))
          << "hash_resident_to_device " << size;
      free_device(out);
      free_device(d);
    }
  }
}

TEST_F(FakeDevice, SubtreesAtAnyOffsetMatchTheSubtreeApi) {
  gpu::context ctx;
  ctx.set_piece_size(2048);
  const auto in = random_bytes(8192, 9);
  for (std::uint64_t offset : {0ull, 8192ull, 3ull << 13, 1ull << 42}) {
    b3::hasher h;
    b3::hazmat::set_input_offset(h, offset);
    h.update(bytes_of(in));
    EXPECT_EQ(ctx.hash_host_subtree(bytes_of(in), offset), b3::hazmat::finalize_non_root(h))
        << offset;
  }
}

TEST_F(FakeDevice, BatchesAndFilesMatchTheCpu) {
  gpu::context ctx;
  const auto data = random_bytes(20000, 4);
  std::vector<std::uint64_t> offsets, lengths;
  for (std::uint64_t i = 0, at = 0; at < 18000; ++i) {
    offsets.push_back(at);
    lengths.push_back(i * 97 % 3000);
    at += lengths.back() + i % 3;
  }
  std::uint8_t* d = to_device(data);
  const auto digests = ctx.hash_batch(reinterpret_cast<const std::byte*>(d), offsets, lengths);
  ASSERT_EQ(digests.size(), offsets.size());
  for (std::size_t i = 0; i < offsets.size(); ++i) {
    EXPECT_EQ(digests[i], b3::hash(bytes_of(data).subspan(offsets[i], lengths[i]))) << i;
  }
  free_device(d);

  ctx.set_piece_size(4096);
  const auto path = std::filesystem::temp_directory_path() /
                    ("fastblake_fake_device_" + std::to_string(::getpid()));
  const auto contents = random_bytes(3 * 4096 + 77, 5);
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(contents.data()),
             static_cast<std::streamsize>(contents.size()));
  std::error_code ec;
  EXPECT_EQ(output(ctx.hash_file(path, ec), 0, 32), cpu_output(contents, 0, 32));
  EXPECT_FALSE(ec);
  std::filesystem::remove(path);
}

// The batch kernel's path without a stack frame is taken only when every input is a chunk
// or less, which only hash_batch (lengths on the host) knows.
TEST_F(FakeDevice, BatchesKnowWhenEveryInputIsSmall) {
  gpu::context ctx;
  const auto data = random_bytes(4096, 15);
  std::uint8_t* d = to_device(data);
  std::uint64_t* tables = nullptr;
  std::uint8_t* digests = nullptr;
  fake_malloc(reinterpret_cast<void**>(&tables), 32);
  fake_malloc(reinterpret_cast<void**>(&digests), 64);
  const std::vector<std::uint64_t> offsets = {0, 16}, small = {1024, 0}, large = {1025, 3};
  ctx.hash_batch(reinterpret_cast<const std::byte*>(d), offsets, small);
  ctx.hash_batch(reinterpret_cast<const std::byte*>(d), offsets, large);
  std::memcpy(tables, offsets.data(), 16);
  std::memcpy(tables + 2, small.data(), 16);
  ctx.hash_batch_resident(reinterpret_cast<const std::byte*>(d), tables, tables + 2, 2,
                          reinterpret_cast<std::byte*>(digests));
  EXPECT_EQ(device_.batches_all_small, (std::vector<bool>{true, false, false}));
  EXPECT_EQ(b3::digest(*reinterpret_cast<const b3::digest::bytes_type*>(digests)),
            b3::hash(bytes_of(data).first(1024)));
  free_device(digests);
  free_device(tables);
  free_device(d);
}

// ---- Failures ----

// Runs `act` on a context once per fallible call it makes, failing that call; each failure
// must throw std::system_error of cuda_category() and leave no work in flight, and the same
// context must then give `expected` once the fault is gone. `prepare` runs first, fault-free.
template <class Prepare, class Act>
void fail_every_call(fake_device& device, Prepare prepare, Act act,
                     const std::vector<std::uint8_t>& expected) {
  for (int n = 1;; ++n) {
    SCOPED_TRACE("failing fallible call " + std::to_string(n));
    device.fail_at = 0;
    gpu::context ctx;
    prepare(ctx);
    device.calls = 0;
    device.fail_at = n;
    try {
      const auto got = act(ctx);
      device.fail_at = 0;
      EXPECT_EQ(got, expected);
      ASSERT_GT(n, 1) << "no fallible call at all";
      return;  // call n was past the last fallible call
    } catch (const std::system_error& e) {
      EXPECT_EQ(e.code().category(), gpu::cuda_category()) << e.what();
    }
    device.fail_at = 0;
    EXPECT_EQ(device.pending(), 0u) << "work left in flight after the error";
    EXPECT_EQ(act(ctx), expected) << "the context after the error";
    ASSERT_LT(n, 500);
  }
}

TEST_F(FakeDevice, HostPipelineSurvivesAFailureAtEveryCall) {
  const auto small = random_bytes(3000, 1);
  const auto big = random_bytes(9 * 4096 + 5, 2);
  fail_every_call(
      device_,
      [&](gpu::context& ctx) {
        ctx.set_piece_size(4096);
        ctx.hash_host(bytes_of(small));  // lanes and a piece buffer for one piece
      },
      [&](gpu::context& ctx) { return output(ctx.hash_host(bytes_of(big)), 0, 64); },
      cpu_output(big, 0, 64));
}

TEST_F(FakeDevice, FirstUseSurvivesAFailureAtEveryCall) {
  const auto big = random_bytes(5 * 4096 + 1, 3);
  fail_every_call(
      device_, [](gpu::context& ctx) { ctx.set_piece_size(4096); },
      [&](gpu::context& ctx) { return output(ctx.hash_host(bytes_of(big)), 0, 64); },
      cpu_output(big, 0, 64));
}

TEST_F(FakeDevice, ResidentWorkSurvivesAFailureAtEveryCall) {
  const auto in = random_bytes(300000, 6);
  std::uint8_t* d = to_device(in);
  std::uint8_t* out = to_device(std::vector<std::uint8_t>(40));
  std::vector<std::uint8_t> expected = cpu_output(in, 0, 64);
  const auto more = cpu_output(in, 7, 40);
  expected.insert(expected.end(), more.begin(), more.end());
  fail_every_call(
      device_,
      [&](gpu::context& ctx) { ctx.hash_resident(reinterpret_cast<const std::byte*>(d), 5000); },
      [&](gpu::context& ctx) {
        auto got =
            output(ctx.hash_resident(reinterpret_cast<const std::byte*>(d), in.size()), 0, 64);
        ctx.hash_resident_to_device(reinterpret_cast<const std::byte*>(d), in.size(),
                                    reinterpret_cast<std::byte*>(out), 40, 7);
        got.insert(got.end(), out, out + 40);
        return got;
      },
      expected);
  free_device(out);
  free_device(d);
}

TEST_F(FakeDevice, BatchSurvivesAFailureAtEveryCall) {
  const auto data = random_bytes(5000, 7);
  std::uint8_t* d = to_device(data);
  const std::vector<std::uint64_t> offsets = {0, 1, 100, 2000}, lengths = {0, 99, 1900, 3000};
  std::vector<std::uint8_t> expected;
  for (std::size_t i = 0; i < offsets.size(); ++i) {
    const auto h = b3::hash(bytes_of(data).subspan(offsets[i], lengths[i]));
    expected.insert(expected.end(), h.bytes().begin(), h.bytes().end());
  }
  fail_every_call(
      device_,
      [&](gpu::context& ctx) {
        ctx.hash_batch(reinterpret_cast<const std::byte*>(d), std::span(offsets).first(1),
                       std::span(lengths).first(1));
      },
      [&](gpu::context& ctx) {
        std::vector<std::uint8_t> got;
        for (const auto& h :
             ctx.hash_batch(reinterpret_cast<const std::byte*>(d), offsets, lengths))
          got.insert(got.end(), h.bytes().begin(), h.bytes().end());
        return got;
      },
      expected);
  free_device(d);
}

TEST_F(FakeDevice, AFailedContextLeavesNothingBehind) {
  for (int n = 1; n <= 3; ++n) {
    device_.calls = 0;
    device_.fail_at = n;
    try {
      gpu::context ctx;
    } catch (const std::system_error& e) {
      EXPECT_EQ(e.code().category(), gpu::cuda_category());
    }
  }
  device_.fail_at = 0;
  // The fixture's teardown finds no buffer or stream left.
}

// ---- Misuse, streams and the caller's device ----

TEST_F(FakeDevice, DeviceMemoryGivenAsHostMemoryIsAnError) {
  gpu::context ctx;
  for (std::size_t size : {1u, 1024u, 5000u}) {
    std::uint8_t* d = to_device(random_bytes(size, 8));
    const std::span input(reinterpret_cast<const std::byte*>(d), size);
    try {
      ctx.hash_host(input);
      ADD_FAILURE() << "hash_host of device memory returned, size " << size;
    } catch (const std::system_error& e) {
      EXPECT_EQ(e.code(), std::error_code(cudaErrorInvalidValue, gpu::cuda_category()));
    }
    EXPECT_THROW(ctx.hash_host_subtree(input, 0), std::system_error) << size;
    free_device(d);
  }
}

// Pieces of several MiB are staged in parts on the default pool's threads, pageable memory
// and files alike; a length that is no multiple of the parts' 4 KiB alignment included.
TEST_F(FakeDevice, LargePiecesAreStagedInParts) {
  gpu::context ctx;
  ctx.set_piece_size(8u << 20);
  const auto in = random_bytes((20u << 20) + 77, 16);
  EXPECT_EQ(output(ctx.hash_host(bytes_of(in)), 0, 32), cpu_output(in, 0, 32));
  const auto path = std::filesystem::temp_directory_path() /
                    ("fastblake_fake_device_parts_" + std::to_string(::getpid()));
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(in.data()), static_cast<std::streamsize>(in.size()));
  std::error_code ec;
  EXPECT_EQ(output(ctx.hash_file(path, ec), 0, 32), cpu_output(in, 0, 32));
  EXPECT_FALSE(ec);
  std::filesystem::remove(path);
}

TEST_F(FakeDevice, PieceSizesOfAnyValueFreeTheOldLanes) {
  gpu::context ctx;
  const auto in = random_bytes(10000, 10);
  for (std::uint64_t p : {0ull, 1ull, 3000ull, 1ull << 63, ~0ull, 4096ull}) {
    ctx.set_piece_size(p);
    EXPECT_EQ(output(ctx.hash_host(bytes_of(in)), 0, 32), cpu_output(in, 0, 32)) << p;
    EXPECT_EQ(device_.streams.size(), 1u + 3u) << "the context's stream and three lanes";
  }
  EXPECT_EQ(ctx.piece_size(), 4096u);
}

TEST_F(FakeDevice, NothingRunsOnTheLegacyStreamAndContextsAreApart) {
  gpu::context a, b;
  const auto in = random_bytes(70000, 11);
  std::uint8_t* d = to_device(in);
  a.hash_resident(reinterpret_cast<const std::byte*>(d), in.size());
  b.hash_resident(reinterpret_cast<const std::byte*>(d), in.size());
  a.hash_host(bytes_of(in));
  ASSERT_EQ(device_.reductions.size(), 3u);
  EXPECT_NE(device_.reductions[0].stream, device_.reductions[1].stream);
  EXPECT_NE(device_.reductions[0].stream, nullptr);
  EXPECT_FALSE(device_.legacy_stream_used);
  free_device(d);
}

TEST_F(FakeDevice, WorkIsOrderedAfterTheCallersStream) {
  gpu::context ctx;
  cudaStream_t caller = nullptr;
  ASSERT_EQ(fake_stream_create(&caller), cudaSuccess);
  const auto in = random_bytes(50000, 12);
  std::uint8_t* d = to_device(std::vector<std::uint8_t>(in.size()));
  std::uint8_t* out = to_device(std::vector<std::uint8_t>(32));
  // The caller's own pending work writes the input: the context must run after it.
  dev().enqueue(caller, [&] { std::memcpy(d, in.data(), in.size()); });
  ctx.set_stream(caller);
  EXPECT_EQ(ctx.stream(), std::optional<gpu::context::stream_handle>(caller));
  EXPECT_EQ(output(ctx.hash_resident(reinterpret_cast<const std::byte*>(d), in.size()), 0, 32),
            cpu_output(in, 0, 32));

  // To the device: enqueued on the caller's stream, and done once the caller synchronizes.
  std::memset(d, 0, in.size());
  dev().enqueue(caller, [&] { std::memcpy(d, in.data(), in.size()); });
  ctx.hash_resident_to_device(reinterpret_cast<const std::byte*>(d), in.size(),
                              reinterpret_cast<std::byte*>(out), 32);
  EXPECT_GT(device_.pending(), 0u) << "returned only after the work was done";
  ASSERT_EQ(fake_stream_synchronize(caller), cudaSuccess);
  EXPECT_EQ(std::vector<std::uint8_t>(out, out + 32), cpu_output(in, 0, 32));

  // Host input: the lanes wait for the caller's stream first.
  bool ran = false;
  dev().enqueue(caller, [&] { ran = true; });
  ctx.set_piece_size(8192);
  ctx.hash_host(bytes_of(in));
  EXPECT_TRUE(ran);

  ctx.set_stream(std::nullopt);
  EXPECT_EQ(ctx.stream(), std::nullopt);
  EXPECT_FALSE(device_.legacy_stream_used);
  free_device(out);
  free_device(d);
  fake_stream_destroy(caller);
}

TEST_F(FakeDevice, EveryCallGivesTheCallersDeviceBack) {
  device_.devices = 2;
  device_.current = 1;
  gpu::context ctx(0);
  EXPECT_EQ(device_.current, 1);
  const auto in = random_bytes(5000, 13);
  ctx.hash_host(bytes_of(in));
  EXPECT_EQ(device_.current, 1);
  ctx.set_piece_size(1 << 20);
  EXPECT_EQ(device_.current, 1);
  EXPECT_THROW(gpu::context(2), std::system_error);
}

TEST_F(FakeDevice, KernelVariantsAreSelectable) {
  gpu::context ctx;
  const std::vector<std::string> defaults{"rolled-compact", "batch-vector"};
  EXPECT_EQ(ctx.kernel_variants_in_use(), defaults);
  const auto in = random_bytes(3000, 14);
  std::uint8_t* d = to_device(in);
  for (const std::string& name : gpu::context::kernel_variants()) {
    ctx.set_kernel_variant(name);
    const auto in_use = ctx.kernel_variants_in_use();
    EXPECT_TRUE(in_use[0] == name || in_use[1] == name) << name;
    ctx.hash_resident(reinterpret_cast<const std::byte*>(d), in.size());
    EXPECT_EQ(core::name_of(device_.reductions.back().variant), in_use[0]);
  }
  EXPECT_EQ(gpu::context::kernel_variants().size(), 10u);
  ctx.set_kernel_variant("default");
  EXPECT_EQ(ctx.kernel_variants_in_use(), defaults);
  EXPECT_THROW(ctx.set_kernel_variant("fastest"), std::invalid_argument);
  free_device(d);
}

}  // namespace
