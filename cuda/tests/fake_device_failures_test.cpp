// The CUDA backend's host driver on the fake device (fake_device.hpp), when things go wrong: a
// failure at every fallible call of every API throws std::system_error, leaves no work in
// flight, and leaves the context usable and correct; and misuse, streams and the caller's
// device (device memory given as host memory, pieces of any size, nothing on the legacy
// stream, work ordered after the caller's stream, the caller's device given back).
#include "fake_device.hpp"

namespace fastblake::test::fake_gpu {
namespace {

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
}  // namespace fastblake::test::fake_gpu
