// The fake CUDA device of the host driver's tests (fake_device.cpp): the runtime table
// (cuda/src/runtime.hpp) replaced by host memory, streams that defer their work until
// synchronized, kernels emulated on the CPU, a failure injected at any chosen call; the
// fixture that installs it, and the helpers the tests share.
#pragma once

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

#include "blake3_core.hpp"
#include "runtime.hpp"

namespace fastblake::test::fake_gpu {

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

inline fake_device& dev() { return *fake_device::active(); }

// The runtime table's functions the tests call themselves (fake_device.cpp has them all).
cudaError_t fake_malloc(void** p, std::size_t bytes);
cudaError_t fake_free(void* p);
cudaError_t fake_stream_create(cudaStream_t* s);
cudaError_t fake_stream_destroy(cudaStream_t s);
cudaError_t fake_stream_synchronize(cudaStream_t s);

class FakeDevice : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;

  // A device buffer holding `bytes` (freed by the fixture's caller through free_device).
  std::uint8_t* to_device(const std::vector<std::uint8_t>& bytes);
  void free_device(void* p);

  fake_device device_;
};

std::vector<std::uint8_t> random_bytes(std::size_t n, std::uint32_t seed);
std::span<const std::byte> bytes_of(const std::vector<std::uint8_t>& v);
std::vector<std::uint8_t> output(b3::output_reader r, std::uint64_t seek, std::size_t n);
std::vector<std::uint8_t> cpu_output(const std::vector<std::uint8_t>& in, std::uint64_t seek,
                                     std::size_t n,
                                     const b3::hazmat::mode& m = b3::hazmat::mode::hash());
b3::hazmat::mode keyed();

}  // namespace fastblake::test::fake_gpu
