// The CUDA backend's host driver (cuda/src/driver.hpp, context.cpp) on a fake device, without a
// GPU: the runtime table (cuda/src/runtime.hpp) replaced by host memory, streams that defer their
// work until synchronized, kernels emulated on the CPU with the GPU's own chunk and parent code
// (blake3_core.hpp), and a failure injected at any chosen call. Every device access is checked
// against the buffers allocated, so a write past a buffer or through a null one fails here.
//
// What it holds the driver to: the results of every API against the CPU library; a failure at
// any call throws std::system_error, leaves no work in flight, and leaves the context usable
// and correct afterwards; nothing leaks; nothing runs on the legacy default stream; work is
// ordered after a caller's stream; the caller's current device is given back.
#include "fake_device.hpp"

namespace fastblake::test::fake_gpu {
namespace {

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

}  // namespace
}  // namespace fastblake::test::fake_gpu
