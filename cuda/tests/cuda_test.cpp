// The CUDA backend against the CPU library, on a GPU: every API, every mode, sizes from 0 to
// 4 GiB (2^k - 1, 2^k, 2^k + 1, and random ones), unaligned inputs, batches of mixed lengths,
// extendable output at many positions, pieces of several sizes. Fresh random data every run (the
// seed is printed); device outputs are poisoned before every call. Without a device every
// test is skipped (ctest shows them skipped, not passed).
//
// FASTBLAKE_GPU_TEST_MAX_BYTES caps the largest input (default 4 GiB + 1).
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include <fastblake/backend.hpp>
#include <fastblake/blake3.hpp>
#include <fastblake/cuda.hpp>
#include <fastblake/file.hpp>

namespace {

namespace b3 = fastblake::blake3;
namespace gpu = fastblake::cuda;

#define SKIP_WITHOUT_DEVICE() \
  if (gpu::device_count() == 0) GTEST_SKIP() << "no CUDA device here"

std::uint64_t max_bytes() {
  if (const char* v = std::getenv("FASTBLAKE_GPU_TEST_MAX_BYTES"))
    return std::strtoull(v, nullptr, 10);
  return (4ull << 30) + 1;
}

std::uint64_t seed() {
  static const std::uint64_t s = [] {
    const std::uint64_t value = std::random_device{}() * 0x100000001ull ^ std::random_device{}();
    std::printf("fastblake gpu tests: seed %llu\n", static_cast<unsigned long long>(value));
    return value;
  }();
  return s;
}

void fill_random(std::vector<std::uint8_t>& v, std::uint64_t state) {
  for (std::size_t i = 0; i < v.size(); i += 8) {
    // xorshift64*: fast enough for gigabytes.
    state ^= state >> 12;
    state ^= state << 25;
    state ^= state >> 27;
    const std::uint64_t word = state * 0x2545F4914F6CDD1Dull;
    for (std::size_t b = 0; b < 8 && i + b < v.size(); ++b) {
      v[i + b] = static_cast<std::uint8_t>(word >> (8 * b));
    }
  }
}

void check(cudaError_t e) { ASSERT_EQ(e, cudaSuccess) << cudaGetErrorString(e); }

// One random input of max_bytes() + 16, on the host and the device, shared by the tests.
struct shared_input {
  std::vector<std::uint8_t> host;
  std::uint8_t* device = nullptr;

  static shared_input& get() {
    static shared_input s = [] {
      shared_input in;
      in.host.resize(max_bytes() + 16);
      fill_random(in.host, seed());
      cudaMalloc(&in.device, in.host.size());
      cudaMemcpy(in.device, in.host.data(), in.host.size(), cudaMemcpyHostToDevice);
      return in;
    }();
    return s;
  }
};

struct named_mode {
  const char* name;
  b3::hazmat::mode mode;
};

std::vector<named_mode> modes() {
  b3::key_type key;
  for (std::size_t i = 0; i < key.size(); ++i)
    key[i] = static_cast<std::uint8_t>(seed() >> (i % 8) ^ i);
  return {{"hash", b3::hazmat::mode::hash()},
          {"keyed", b3::hazmat::mode::keyed(key)},
          {"derive_key", b3::hazmat::mode::derive_key("fastblake gpu tests")}};
}

std::vector<std::uint8_t> cpu_output(const b3::hazmat::mode& m, const std::uint8_t* in,
                                     std::uint64_t size, std::uint64_t seek, std::size_t n) {
  b3::hasher h(m);
  h.update_parallel(std::as_bytes(std::span(in, size)));
  b3::output_reader r = h.finalize_xof();
  r.seek(seek);
  std::vector<std::uint8_t> out(n);
  r.fill(std::span<std::uint8_t>(out));
  return out;
}

std::vector<std::uint64_t> sizes() {
  std::vector<std::uint64_t> s = {0, 1, 63, 64, 65, 1023, 1024, 1025, 2047, 2048, 2049, 3072};
  for (unsigned k = 11; (1ull << k) + 1 <= max_bytes(); ++k) {
    for (std::int64_t d : {-1, 0, 1}) s.push_back((1ull << k) + static_cast<std::uint64_t>(d));
  }
  std::mt19937_64 rng(seed());
  for (int i = 0; i < 20; ++i)
    s.push_back(rng() % std::min<std::uint64_t>(max_bytes(), 300u << 20));
  return s;
}

TEST(Gpu, ResidentMatchesTheCpu) {
  SKIP_WITHOUT_DEVICE();
  shared_input& in = shared_input::get();
  gpu::context ctx;
  for (std::uint64_t size : sizes()) {
    // Every mode on the smaller inputs; plain hashing from 64 MiB on, to stay within minutes.
    for (const auto& [name, m] : modes()) {
      if (size > (64u << 20) && std::string(name) != "hash") continue;
      for (std::uint64_t shift : {0, 1}) {  // aligned, and not
        const auto* p = reinterpret_cast<const std::byte*>(in.device + shift);
        b3::output_reader r = ctx.hash_resident(p, size, m);
        std::vector<std::uint8_t> got(96);
        r.fill(std::span<std::uint8_t>(got));
        EXPECT_EQ(got, cpu_output(m, in.host.data() + shift, size, 0, 96))
            << name << " size " << size << " shift " << shift;
      }
    }
  }
}

TEST(Gpu, OutputOnTheDeviceAtAnyPosition) {
  SKIP_WITHOUT_DEVICE();
  shared_input& in = shared_input::get();
  gpu::context ctx;
  std::uint8_t* out = nullptr;
  check(cudaMalloc(&out, 1u << 20));
  for (const auto& [name, m] : modes()) {
    for (std::uint64_t size : {0ull, 1ull, 1024ull, 1025ull, 65536ull, 1000000ull}) {
      for (std::uint64_t seek : {0ull, 1ull, 63ull, 64ull, 1000ull, (1ull << 32) + 5}) {
        for (std::uint64_t n : {1ull, 32ull, 64ull, 65ull, 1000ull, 4099ull}) {
          check(cudaMemset(out, 0xAA, n + 64));
          ctx.hash_resident_to_device(reinterpret_cast<const std::byte*>(in.device), size,
                                      reinterpret_cast<std::byte*>(out), n, seek, m);
          std::vector<std::uint8_t> got(n + 64);
          check(cudaMemcpy(got.data(), out, got.size(), cudaMemcpyDeviceToHost));
          const auto want = cpu_output(m, in.host.data(), size, seek, n);
          EXPECT_TRUE(std::equal(want.begin(), want.end(), got.begin()))
              << name << " size " << size << " seek " << seek << " n " << n;
          // Nothing past the output was written.
          EXPECT_EQ(got[n], 0xAA) << name << " size " << size << " seek " << seek << " n " << n;
        }
      }
    }
  }
  cudaFree(out);
}

TEST(Gpu, HostInputInPiecesMatchesTheCpu) {
  SKIP_WITHOUT_DEVICE();
  shared_input& in = shared_input::get();
  gpu::context ctx;
  const std::uint64_t limit = std::min<std::uint64_t>(max_bytes(), 1ull << 30);
  for (std::uint64_t piece : {1ull << 10, 1ull << 16, 64ull << 20}) {
    ctx.set_piece_size(piece);
    for (std::uint64_t size : sizes()) {
      if (size > limit || (piece < (1u << 16) && size > (16u << 20))) continue;
      for (const auto& [name, m] : modes()) {
        const auto span = std::as_bytes(std::span(in.host.data() + 1, size));
        EXPECT_EQ(gpu::digest_of(ctx.hash_host(span, m)),
                  b3::digest(*reinterpret_cast<const b3::digest::bytes_type*>(
                      cpu_output(m, in.host.data() + 1, size, 0, 32).data())))
            << name << " size " << size << " piece " << piece;
      }
    }
  }
  // Memory pinned by the caller is copied from directly.
  std::uint8_t* pinned = nullptr;
  const std::uint64_t size = std::min<std::uint64_t>(max_bytes(), (256u << 20) + 77);
  check(cudaHostAlloc(reinterpret_cast<void**>(&pinned), size, cudaHostAllocDefault));
  std::copy(in.host.begin(), in.host.begin() + static_cast<std::ptrdiff_t>(size), pinned);
  ctx.set_piece_size(16u << 20);
  EXPECT_EQ(gpu::digest_of(ctx.hash_host(std::as_bytes(std::span(pinned, size)))),
            b3::hash(std::as_bytes(std::span(in.host.data(), size))));
  cudaFreeHost(pinned);
}

TEST(Gpu, BatchOfMixedLengths) {
  SKIP_WITHOUT_DEVICE();
  shared_input& in = shared_input::get();
  gpu::context ctx;
  std::mt19937_64 rng(seed() + 1);
  for (const auto& [name, m] : modes()) {
    std::vector<std::uint64_t> offsets, lengths;
    for (int i = 0; i < 5000; ++i) {
      const std::uint64_t len = i < 2100 ? static_cast<std::uint64_t>(i) : rng() % 20000;
      offsets.push_back(rng() % (std::min<std::uint64_t>(max_bytes(), 1u << 26) - len));
      lengths.push_back(len);
    }
    const auto got =
        ctx.hash_batch(reinterpret_cast<const std::byte*>(in.device), offsets, lengths, m);
    ASSERT_EQ(got.size(), offsets.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
      b3::hasher h(m);
      h.update(std::as_bytes(std::span(in.host.data() + offsets[i], lengths[i])));
      EXPECT_EQ(got[i], h.finalize()) << name << " input " << i << " length " << lengths[i];
    }
  }
}

TEST(Gpu, FilesMatchTheCpu) {
  SKIP_WITHOUT_DEVICE();
  shared_input& in = shared_input::get();
  gpu::context ctx;
  ctx.set_piece_size(1u << 20);
  const auto dir = std::filesystem::temp_directory_path();
  for (std::uint64_t size : {0ull, 1ull, 1024ull, 1025ull, (1ull << 20) - 1, 1ull << 20,
                             (3ull << 20) + 5, 40000000ull}) {
    if (size > max_bytes()) continue;
    const auto path =
        dir / ("fastblake-gpu-test-" + std::to_string(::getpid()) + "-" + std::to_string(size));
    std::ofstream(path, std::ios::binary)
        .write(reinterpret_cast<const char*>(in.host.data()), static_cast<std::streamsize>(size));
    for (const auto& [name, m] : modes()) {
      std::error_code ec;
      const b3::digest got = gpu::digest_of(ctx.hash_file(path, ec, m));
      EXPECT_FALSE(ec) << ec.message();
      b3::hasher h(m);
      h.update(std::as_bytes(std::span(in.host.data(), size)));
      EXPECT_EQ(got, h.finalize()) << name << " size " << size;
    }
    std::filesystem::remove(path);
  }
  std::error_code ec;
  ctx.hash_file(dir / "fastblake-gpu-test-no-such-file", ec);
  EXPECT_EQ(ec, std::errc::no_such_file_or_directory);
}

TEST(Gpu, SubtreesMatchTheSubtreeApi) {
  SKIP_WITHOUT_DEVICE();
  shared_input& in = shared_input::get();
  gpu::context ctx;
  ctx.set_piece_size(1u << 20);
  const std::uint64_t limit = std::min<std::uint64_t>(max_bytes(), 64u << 20);
  for (const auto& [name, m] : modes()) {
    // Whole subtrees at offsets that allow them, and ragged last subtrees.
    for (std::uint64_t offset :
         std::initializer_list<std::uint64_t>{0, 1024, 3072, 1u << 20, 5u << 20, 32u << 20}) {
      const auto most = b3::hazmat::max_subtree_len(offset).value_or(limit);
      for (std::uint64_t size :
           std::initializer_list<std::uint64_t>{1, 1024, 1025, 4097, most - 1, most}) {
        if (size > most || size > limit || offset + size > in.host.size()) continue;
        const auto span = std::as_bytes(std::span(in.host.data() + offset, size));
        b3::hasher h(m);
        b3::hazmat::set_input_offset(h, offset);
        h.update(span);
        EXPECT_EQ(ctx.hash_host_subtree(span, offset, m), b3::hazmat::finalize_non_root(h))
            << name << " offset " << offset << " size " << size;
      }
    }
  }
  const auto two_chunks = std::as_bytes(std::span(in.host.data(), 2048));
  EXPECT_THROW(ctx.hash_host_subtree(two_chunks, 1024), std::logic_error) << "too long";
  EXPECT_THROW(ctx.hash_host_subtree(two_chunks, 100), std::logic_error) << "misplaced";
  EXPECT_THROW(ctx.hash_host_subtree({}, 0), std::logic_error) << "empty";
}

// A subtree far into a large input: chunk counters past 2^32, whose upper word every kernel
// must carry.
TEST(Gpu, SubtreeAtOffsetTwoToTheFortyTwo) {
  SKIP_WITHOUT_DEVICE();
  shared_input& in = shared_input::get();
  gpu::context ctx;
  ctx.set_piece_size(1u << 20);
  const std::uint64_t offset = std::uint64_t{1} << 42;
  const std::uint64_t size = std::min<std::uint64_t>(in.host.size() - 16, 9u << 20);
  for (const auto& [name, m] : modes()) {
    const auto span = std::as_bytes(std::span(in.host.data(), size));
    b3::hasher h(m);
    b3::hazmat::set_input_offset(h, offset);
    h.update(span);
    EXPECT_EQ(ctx.hash_host_subtree(span, offset, m), b3::hazmat::finalize_non_root(h)) << name;
  }
}

// Misuse and the caller's state: device memory to hash_host is an error, not a crash; piece
// sizes of any value return; the calling thread's current device is left as it was.
TEST(Gpu, MisuseAndTheCallersDevice) {
  SKIP_WITHOUT_DEVICE();
  shared_input& in = shared_input::get();
  gpu::context ctx;
  const auto on_device = std::as_bytes(std::span(in.device, 1u << 20));
  try {
    ctx.hash_host(on_device);
    ADD_FAILURE() << "hash_host read device memory";
  } catch (const std::system_error& e) {
    EXPECT_EQ(e.code().category(), gpu::cuda_category());
  }
  for (std::uint64_t bytes : {std::uint64_t{0}, std::uint64_t{1} << 63, ~std::uint64_t{0}}) {
    ctx.set_piece_size(bytes);
    EXPECT_TRUE(ctx.piece_size() >= 1024 && ctx.piece_size() <= (std::uint64_t{1} << 32));
  }
  ctx.set_piece_size(1u << 20);
  const auto span = std::as_bytes(std::span(in.host.data(), 3u << 20));
  EXPECT_EQ(gpu::digest_of(ctx.hash_host(span)), b3::hash(span));
  if (gpu::device_count() > 1) {
    check(cudaSetDevice(1));
    gpu::context first(0);
    EXPECT_EQ(gpu::digest_of(first.hash_host(span)), b3::hash(span));
    int now = -1;
    check(cudaGetDevice(&now));
    EXPECT_EQ(now, 1) << "a context changed the caller's current device";
    check(cudaSetDevice(0));
  }
}

// Every kernel variant gives the default's results: resident sizes around every launch
// boundary, aligned and not, pieces of host input, a subtree past 2^32 chunks, and batches
// of mixed and of small inputs.
TEST(Gpu, EveryKernelVariantMatchesTheCpu) {
  SKIP_WITHOUT_DEVICE();
  shared_input& in = shared_input::get();
  std::vector<std::uint64_t> resident_sizes = {1025,
                                               2048,
                                               2049,
                                               (256u << 10),
                                               (256u << 10) + 1,
                                               (1u << 20) + 5,
                                               (16u << 20) - 1,
                                               (64u << 20) + 1,
                                               (300u << 20) + 7};
  std::mt19937_64 rng(seed() + 2);
  for (int i = 0; i < 6; ++i) resident_sizes.push_back(1025 + rng() % (40u << 20));
  const b3::hazmat::mode keyed = modes()[1].mode;
  for (const std::string& variant : gpu::context::kernel_variants()) {
    gpu::context ctx;
    ctx.set_kernel_variant(variant);
    if (variant.rfind("batch-", 0) != 0) {
      for (std::uint64_t size : resident_sizes) {
        if (size > max_bytes()) continue;
        for (std::uint64_t shift : {0, 1}) {
          const auto* p = reinterpret_cast<const std::byte*>(in.device + shift);
          std::vector<std::uint8_t> got(64);
          ctx.hash_resident(p, size, keyed).fill(std::span<std::uint8_t>(got));
          EXPECT_EQ(got, cpu_output(keyed, in.host.data() + shift, size, 0, 64))
              << variant << " size " << size << " shift " << shift;
        }
      }
      ctx.set_piece_size(1u << 20);
      const auto span = std::as_bytes(
          std::span(in.host.data(), std::min<std::uint64_t>(max_bytes(), (5u << 20) + 3)));
      EXPECT_EQ(gpu::digest_of(ctx.hash_host(span)), b3::hash(span)) << variant;
      b3::hasher h;
      b3::hazmat::set_input_offset(h, std::uint64_t{1} << 42);
      h.update(span);
      EXPECT_EQ(ctx.hash_host_subtree(span, std::uint64_t{1} << 42),
                b3::hazmat::finalize_non_root(h))
          << variant;
      continue;
    }
    // Mixed lengths at any offset; then inputs of a chunk or less at aligned offsets.
    for (const bool small : {false, true}) {
      std::vector<std::uint64_t> offsets, lengths;
      for (int i = 0; i < 4000; ++i) {
        const std::uint64_t len = small ? static_cast<std::uint64_t>(i) % 1025 : rng() % 9000;
        const std::uint64_t at = rng() % ((std::min<std::uint64_t>(max_bytes(), 1u << 26) - len));
        offsets.push_back(small ? at / 16 * 16 : at);
        lengths.push_back(len);
      }
      const auto got =
          ctx.hash_batch(reinterpret_cast<const std::byte*>(in.device), offsets, lengths, keyed);
      for (std::size_t i = 0; i < got.size(); ++i) {
        b3::hasher h(keyed);
        h.update(std::as_bytes(std::span(in.host.data() + offsets[i], lengths[i])));
        EXPECT_EQ(got[i], h.finalize()) << variant << " input " << i << " length " << lengths[i];
      }
    }
  }
}

// Work ordered after the caller's stream: the input is copied to the device on that stream,
// still in flight when the context is called.
TEST(Gpu, WorkIsOrderedAfterTheCallersStream) {
  SKIP_WITHOUT_DEVICE();
  shared_input& in = shared_input::get();
  const std::size_t size = std::min<std::uint64_t>(max_bytes(), 64u << 20);
  std::uint8_t* pinned = nullptr;
  std::uint8_t* input = nullptr;
  std::uint8_t* out = nullptr;
  cudaStream_t stream = nullptr;
  check(cudaHostAlloc(reinterpret_cast<void**>(&pinned), size, cudaHostAllocDefault));
  check(cudaMalloc(&input, size));
  check(cudaMalloc(&out, 64));
  check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  std::copy(in.host.begin(), in.host.begin() + static_cast<std::ptrdiff_t>(size), pinned);
  const auto want = cpu_output(b3::hazmat::mode::hash(), in.host.data(), size, 0, 64);
  gpu::context ctx;
  ctx.set_stream(stream);
  for (int round = 0; round < 3; ++round) {
    check(cudaMemsetAsync(input, 0, size, stream));
    check(cudaMemcpyAsync(input, pinned, size, cudaMemcpyHostToDevice, stream));
    std::vector<std::uint8_t> got(64);
    ctx.hash_resident(reinterpret_cast<const std::byte*>(input), size)
        .fill(std::span<std::uint8_t>(got));
    EXPECT_EQ(got, want) << "round " << round;

    check(cudaMemsetAsync(input, 0, size, stream));
    check(cudaMemcpyAsync(input, pinned, size, cudaMemcpyHostToDevice, stream));
    check(cudaMemsetAsync(out, 0xA5, 64, stream));
    ctx.hash_resident_to_device(reinterpret_cast<const std::byte*>(input), size,
                                reinterpret_cast<std::byte*>(out), 64);
    std::vector<std::uint8_t> on_device(64);
    check(cudaMemcpyAsync(on_device.data(), out, 64, cudaMemcpyDeviceToHost, stream));
    check(cudaStreamSynchronize(stream));
    EXPECT_EQ(on_device, want) << "round " << round;
  }
  // The legacy default stream is a caller's stream too.
  ctx.set_stream(nullptr);
  EXPECT_EQ(gpu::digest_of(ctx.hash_host(std::as_bytes(std::span(pinned, size)))),
            b3::hash(std::as_bytes(std::span(in.host.data(), size))));
  ctx.set_stream(std::nullopt);
  cudaStreamDestroy(stream);
  cudaFree(out);
  cudaFree(input);
  cudaFreeHost(pinned);
}

// The automatic functions on the GPU: FASTBLAKE_BACKEND=cuda's mode, set in the process.
TEST(GpuAutomatic, ForcedOffloadMatchesTheCpu) {
  SKIP_WITHOUT_DEVICE();
  shared_input& in = shared_input::get();
  const auto key = b3::key_type{1, 2, 3};
  const std::uint64_t before = fastblake::current_offload().offloaded;
  for (std::uint64_t size : {1025ull, 65536ull + 1, (16ull << 20) - 1, (200ull << 20) + 3}) {
    if (size > max_bytes()) continue;
    const auto span = std::as_bytes(std::span(in.host.data() + 3, size));
    fastblake::set_offload_mode(fastblake::offload_mode::disabled);
    const b3::digest plain = b3::hash(span);
    const b3::digest keyed = b3::keyed_hash(key, span);
    const b3::digest derived = b3::derive_key("fastblake gpu tests", span);
    fastblake::set_offload_mode(fastblake::offload_mode::forced);
    EXPECT_EQ(b3::hash(span), plain) << size;
    EXPECT_EQ(b3::keyed_hash(key, span), keyed) << size;
    EXPECT_EQ(b3::derive_key("fastblake gpu tests", span), derived) << size;
  }
  const auto path =
      std::filesystem::temp_directory_path() / ("fastblake-gpu-auto-" + std::to_string(::getpid()));
  const std::uint64_t file_size = std::min<std::uint64_t>(max_bytes(), (100u << 20) + 9);
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(in.host.data()),
             static_cast<std::streamsize>(file_size));
  EXPECT_EQ(b3::hash_file(path),
            b3::hash_serial(std::as_bytes(std::span(in.host.data(), file_size))));
  std::filesystem::remove(path);
  const fastblake::offload_status status = fastblake::current_offload();
  fastblake::set_offload_mode(fastblake::offload_mode::automatic);
  EXPECT_EQ(status.name, "cuda");
  EXPECT_FALSE(status.error) << status.error.message();
  EXPECT_GT(status.offloaded, before);
}

TEST(GpuAutomatic, AutomaticModeMeasuresBothSides) {
  SKIP_WITHOUT_DEVICE();
  shared_input& in = shared_input::get();
  const std::uint64_t size = std::min<std::uint64_t>(max_bytes(), 256u << 20);
  const auto span = std::as_bytes(std::span(in.host.data(), size));
  const b3::digest want = b3::hash_serial(span);
  fastblake::set_offload_mode(fastblake::offload_mode::automatic);
  for (int i = 0; i < 6; ++i) EXPECT_EQ(b3::hash(span), want);
  const fastblake::offload_status status = fastblake::current_offload();
  EXPECT_GT(status.accelerator_rate, 0);
  EXPECT_GT(status.cpu_rate, 0);
  std::printf("automatic offload: GPU %.1f GB/s, CPU %.1f GB/s, %llu offloaded, %llu kept\n",
              status.accelerator_rate / 1e9, status.cpu_rate / 1e9,
              static_cast<unsigned long long>(status.offloaded),
              static_cast<unsigned long long>(status.kept));
}

// Runs everywhere: linking the library registers it; without a device the automatic functions
// hash on the CPU, and say why.
TEST(GpuAutomatic, RegisteredByLinkingAndHarmlessWithoutADevice) {
  EXPECT_EQ(fastblake::current_offload().name, "cuda");
  if (gpu::device_count() != 0) GTEST_SKIP() << "a CUDA device is here";
  const std::vector<std::uint8_t> input(300'000, 7);
  const auto span = std::as_bytes(std::span(input));
  fastblake::set_offload_mode(fastblake::offload_mode::disabled);
  const b3::digest want = b3::hash(span);
  fastblake::set_offload_mode(fastblake::offload_mode::forced);
  EXPECT_EQ(b3::hash(span), want);
  const fastblake::offload_status status = fastblake::current_offload();
  fastblake::set_offload_mode(fastblake::offload_mode::automatic);
  EXPECT_EQ(&status.error.category(), &gpu::cuda_category());
  EXPECT_EQ(status.error.value(), static_cast<int>(cudaErrorNoDevice));
  EXPECT_EQ(status.offloaded, 0u);
}

// Runs everywhere: without a device, a context cannot be made, and says why.
TEST(Gpu, NoDeviceIsASystemError) {
  if (gpu::device_count() != 0) GTEST_SKIP() << "a CUDA device is here";
  try {
    gpu::context ctx;
    FAIL() << "a context without a device";
  } catch (const std::system_error& e) {
    EXPECT_EQ(&e.code().category(), &gpu::cuda_category());
    EXPECT_NE(std::string(e.what()).find("no device 0"), std::string::npos) << e.what();
  }
}

TEST(Gpu, ErrorsAreSystemErrors) {
  SKIP_WITHOUT_DEVICE();
  try {
    gpu::context bad(gpu::device_count());
    FAIL() << "a context on a device that does not exist";
  } catch (const std::system_error& e) {
    EXPECT_EQ(&e.code().category(), &gpu::cuda_category());
  }
}

}  // namespace
