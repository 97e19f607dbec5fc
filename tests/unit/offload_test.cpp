// The accelerator offload (fastblake/accelerator.hpp, src/blake3/offload.hpp): which plug-ins
// are accepted, which functions may offload, that results do not change whoever hashes, the
// policy's choices, and failures falling back to the CPU. A fake accelerator plug-in, which
// hashes its subtrees with the subtree API, stands in for fastblake::cuda, so all of it runs
// without a GPU.
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <future>
#include <memory>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include <fastblake/accelerator.hpp>
#include <fastblake/backend.hpp>
#include <fastblake/blake3.hpp>
#include <fastblake/file.hpp>

#include "blake3/offload.hpp"
#include "os_support.hpp"
#include "test_support.hpp"

namespace fastblake::test {
namespace {

namespace b3 = fastblake::blake3;
namespace k3 = fastblake::internal::blake3;

struct fake_accelerator {
  bool prepare_fails = false;
  int fail_on_call = -1;  // that call (0-based) fails
  int prepares = 0;
  std::vector<std::uint64_t> sizes;
  std::vector<std::uint64_t> counters;
  bool invalid_subtree = false;  // it was asked for something that is not a subtree
};
fake_accelerator fake;

bool fake_prepare(std::error_code& error) noexcept {
  ++fake.prepares;
  if (fake.prepare_fails) error = std::make_error_code(std::errc::no_such_device);
  return !fake.prepare_fails;
}

b3::hazmat::chaining_value subtree_cv(const std::byte* input, std::uint64_t size,
                                      std::uint64_t offset, const b3::hazmat::mode& m) {
  b3::hasher h(m);
  b3::hazmat::set_input_offset(h, offset);
  h.update(std::span(input, static_cast<std::size_t>(size)));
  return b3::hazmat::finalize_non_root(h);
}

bool fake_children(std::span<const std::byte> subtree, std::uint64_t chunk_counter,
                   const b3::hazmat::mode& m, std::span<std::uint8_t, 64> children,
                   std::error_code& error) noexcept {
  const std::byte* input = subtree.data();
  const std::uint64_t size = subtree.size();
  const int call = static_cast<int>(fake.sizes.size());
  fake.sizes.push_back(size);
  fake.counters.push_back(chunk_counter);
  if (call == fake.fail_on_call) {
    error = std::make_error_code(std::errc::io_error);
    std::memset(children.data(), 0xee, 64);
    return false;
  }
  const std::uint64_t offset = chunk_counter * b3::chunk_size;
  const auto limit = b3::hazmat::max_subtree_len(offset);
  if (size <= b3::chunk_size || (limit && size > *limit)) {
    fake.invalid_subtree = true;
    return true;
  }
  const std::uint64_t left = b3::hazmat::left_subtree_len(size);
  const b3::hazmat::chaining_value l = subtree_cv(input, left, offset, m);
  const b3::hazmat::chaining_value r = subtree_cv(input + left, size - left, offset + left, m);
  std::memcpy(children.data(), l.data(), 32);
  std::memcpy(children.data() + 32, r.data(), 32);
  return true;
}

constexpr accelerator::plugin fake_offload{
    .name = "fake", .prepare = fake_prepare, .subtree_children = fake_children};

// Each test starts with the fake registered, no failure, and the given mode; the accelerator's
// state (errors, counts) is per process, so each test reads differences.
class Offload : public ::testing::Test {
 protected:
  void SetUp() override {
    fake = {};
    saved_min_ = offload_min_size();
    ASSERT_TRUE(accelerator::register_plugin(&fake_offload));
  }
  void TearDown() override {
    EXPECT_TRUE(accelerator::register_plugin(nullptr));
    set_offload_mode(offload_mode::automatic);
    set_offload_min_size(saved_min_);
  }
  std::uint64_t saved_min_ = 0;
};

// What the CPU alone gives: the accelerator disabled, then the mode restored.
template <class F>
auto on_cpu(F&& f) {
  const offload_mode mode = current_offload().mode;
  set_offload_mode(offload_mode::disabled);
  auto r = f();
  set_offload_mode(mode);
  return r;
}

TEST_F(Offload, AModeOutsideTheEnumerationDisablesOffloading) {
  const auto input = random_source(test_seed() + 1).bytes(1u << 20);
  const auto want = on_cpu([&] { return b3::hash(input); });
  for (const int value : {-1, 3, 255}) {
    set_offload_mode(static_cast<offload_mode>(value));
    EXPECT_EQ(current_offload().mode, offload_mode::disabled) << value;
    const std::size_t calls = fake.sizes.size();
    EXPECT_EQ(b3::hash(input), want);
    EXPECT_EQ(fake.sizes.size(), calls) << value;
  }
}

TEST_F(Offload, ForcedModeOffloadsTheAutomaticFunctionsWithUnchangedResults) {
  random_source rng(test_seed());
  const b3::key_type key = rng.key();
  for (std::size_t size : {1025, 2048, 5000, 65536, 1048575, 3 * 1048576 + 7}) {
    SCOPED_TRACE(size);
    const auto input = rng.bytes(size);
    const auto want_hash = on_cpu([&] { return b3::hash(input); });
    const auto want_keyed = on_cpu([&] { return b3::keyed_hash(key, input); });
    const auto want_derived =
        on_cpu([&] { return b3::derive_key("fastblake offload test", input); });
    const auto want_long = on_cpu([&] {
      std::vector<std::byte> out(100);
      b3::derive_key("fastblake offload test", input, out);
      return out;
    });
    set_offload_mode(offload_mode::forced);
    const std::size_t calls = fake.sizes.size();
    EXPECT_EQ(b3::hash(input), want_hash);
    EXPECT_EQ(b3::keyed_hash(key, input), want_keyed);
    EXPECT_EQ(b3::derive_key("fastblake offload test", input), want_derived);
    std::vector<std::byte> out(100);
    b3::derive_key("fastblake offload test", input, out);
    EXPECT_EQ(out, want_long);
    EXPECT_EQ(fake.sizes.size(), calls + 4) << "one whole-input subtree per call";
    EXPECT_EQ(fake.sizes.back(), size);
    EXPECT_EQ(fake.counters.back(), 0u);
  }
  EXPECT_FALSE(fake.invalid_subtree);
  EXPECT_EQ(fake.prepares, 1) << "prepared once, before the first subtree";
  EXPECT_EQ(current_offload().name, "fake");
  EXPECT_EQ(current_offload().mode, offload_mode::forced);
  EXPECT_FALSE(current_offload().error);
}

TEST_F(Offload, OneChunkInputsAndExplicitFunctionsStayOnTheCpu) {
  set_offload_mode(offload_mode::forced);
  const auto small = vector_input(b3::chunk_size);
  const auto input = vector_input(1u << 20);
  const auto want = on_cpu([&] { return b3::hash(input); });
  const auto want_small = on_cpu([&] { return b3::hash(small); });
  EXPECT_EQ(b3::hash(small), want_small);
  thread_pool pool(2);
  EXPECT_EQ(b3::hash_serial(input), want);
  EXPECT_EQ(b3::hash_parallel(input, pool), want);
  EXPECT_EQ(b3::hasher().update(input).finalize(), want);
  EXPECT_EQ(b3::hasher().update_parallel(input).finalize(), want);
  EXPECT_EQ(b3::hasher().update_parallel(input, pool).finalize(), want);
  std::vector<b3::digest> many(1);
  const std::span<const std::byte> one[] = {input};
  b3::hash_many(one, many);
  EXPECT_EQ(many[0], want);
  EXPECT_TRUE(fake.sizes.empty()) << "only the automatic functions offload";
}

class OffloadFiles : public Offload {
 protected:
  void SetUp() override {
    Offload::SetUp();
    path_ = std::filesystem::temp_directory_path() /
            ("fastblake-offload-test-" + std::to_string(::getpid()));
  }
  void TearDown() override {
    std::error_code ec;
    std::filesystem::remove(path_, ec);
    Offload::TearDown();
  }
  void write(std::span<const std::byte> data) {
    std::ofstream out(path_, std::ios::binary);
    out.write(reinterpret_cast<const char*>(data.data()),
              static_cast<std::streamsize>(data.size()));
  }
  std::filesystem::path path_;
};

TEST_F(OffloadFiles, AutomaticFileHashingOffloadsWholeSubtrees) {
  random_source rng(test_seed());
  // Three mapping windows and a ragged end: subtrees at non-zero chunk counters.
  const auto input = rng.bytes((40u << 20) + 3333);
  write(input);
  const auto want = on_cpu([&] { return b3::hash(input); });
  set_offload_mode(offload_mode::forced);
  EXPECT_EQ(b3::hash_file(path_), want);
  EXPECT_FALSE(fake.invalid_subtree);
  ASSERT_FALSE(fake.counters.empty());
  EXPECT_GT(fake.counters.back(), 0u) << "later windows start inside the file";

  b3::hasher keyed = b3::hasher::keyed(rng.key());
  const auto want_keyed = on_cpu([&] { return b3::hasher(keyed).update(input).finalize(); });
  b3::update_from_file(keyed, path_);
  EXPECT_EQ(keyed.finalize(), want_keyed);

  const std::size_t calls = fake.sizes.size();
  for (auto strategy :
       {b3::file_strategy::read, b3::file_strategy::mmap, b3::file_strategy::mmap_parallel}) {
    b3::file_options options;
    options.strategy = strategy;
    EXPECT_EQ(b3::hash_file(path_, options), want);
  }
  EXPECT_EQ(fake.sizes.size(), calls) << "a strategy chosen by the caller stays on the CPU";
}

TEST_F(Offload, AutomaticModeTriesBothSidesAndCountsThem) {
  set_offload_mode(offload_mode::automatic);
  set_offload_min_size(1u << 20);
  const auto input = vector_input(4u << 20);
  const auto small = vector_input((1u << 20) - 1);
  const auto want = on_cpu([&] { return b3::hash(input); });
  const auto want_small = on_cpu([&] { return b3::hash(small); });
  const offload_status before = current_offload();
  EXPECT_EQ(b3::hash(small), want_small);
  EXPECT_TRUE(fake.sizes.empty()) << "below offload_min_size";
  for (int i = 0; i < 4; ++i) EXPECT_EQ(b3::hash(input), want);
  const offload_status after = current_offload();
  EXPECT_GE(fake.sizes.size(), 1u) << "the accelerator is tried first";
  EXPECT_GE(after.offloaded - before.offloaded, 1u);
  EXPECT_GE(after.kept - before.kept, 1u) << "and the CPU measured next";
  EXPECT_EQ((after.offloaded - before.offloaded) + (after.kept - before.kept), 4u);
  EXPECT_GT(after.accelerator_rate, 0);
  EXPECT_GT(after.cpu_rate, 0);
}

TEST_F(Offload, AFailureFallsBackToTheCpuAndStopsOffloading) {
  set_offload_mode(offload_mode::forced);
  fake.fail_on_call = 1;
  const auto input = vector_input(300'000);
  const auto want = on_cpu([&] { return b3::hash(input); });
  EXPECT_EQ(b3::hash(input), want);
  EXPECT_EQ(b3::hash(input), want) << "the failed subtree is hashed on the CPU";
  EXPECT_EQ(current_offload().error, std::errc::io_error);
  EXPECT_EQ(b3::hash(input), want);
  EXPECT_EQ(fake.sizes.size(), 2u) << "no call after the failure";
  ASSERT_TRUE(accelerator::register_plugin(&fake_offload));
  EXPECT_FALSE(current_offload().error) << "a new registration starts afresh";
}

TEST_F(Offload, AnAcceleratorThatCannotStartIsNeverCalled) {
  set_offload_mode(offload_mode::forced);
  fake.prepare_fails = true;
  const auto input = vector_input(300'000);
  const auto want = on_cpu([&] { return b3::hash(input); });
  EXPECT_EQ(b3::hash(input), want);
  EXPECT_EQ(b3::hash(input), want);
  EXPECT_EQ(fake.prepares, 1);
  EXPECT_TRUE(fake.sizes.empty());
  EXPECT_EQ(current_offload().error, std::errc::no_such_device);
}

TEST_F(Offload, APluginOfAnotherVersionOrWithoutItsFunctionsIsRefused) {
  set_offload_mode(offload_mode::forced);
  accelerator::plugin newer = fake_offload;
  newer.version = accelerator::interface_version + 1;
  accelerator::plugin older = fake_offload;
  older.version = 0;
  accelerator::plugin unnamed = fake_offload;
  unnamed.name = {};
  accelerator::plugin no_prepare = fake_offload;
  no_prepare.prepare = nullptr;
  accelerator::plugin no_children = fake_offload;
  no_children.subtree_children = nullptr;
  for (const accelerator::plugin* p : {&newer, &older, &unnamed, &no_prepare, &no_children}) {
    EXPECT_FALSE(accelerator::register_plugin(p));
    EXPECT_EQ(accelerator::registered_plugin_name(), "fake") << "a refusal changes nothing";
  }
  const auto input = vector_input(300'000);
  const auto want = on_cpu([&] { return b3::hash(input); });
  EXPECT_EQ(b3::hash(input), want);
  EXPECT_FALSE(fake.sizes.empty()) << "the plug-in registered before still takes subtrees";
  EXPECT_TRUE(accelerator::register_plugin(nullptr));
  EXPECT_EQ(accelerator::registered_plugin_name(), "");
  EXPECT_EQ(current_offload().name, "");
  const std::size_t calls = fake.sizes.size();
  EXPECT_EQ(b3::hash(input), want);
  EXPECT_EQ(fake.sizes.size(), calls) << "nothing is offloaded once unregistered";
}

// A plug-in may call back into the library from its functions: what backend.hpp offers
// (current_offload, offload_min_size, set_offload_min_size) and hashing itself, which then stays
// on the CPU, as the plug-in is never called while it is already being called.
std::atomic<int> reentrant_inside{0};
std::atomic<bool> reentrant_overlapped{false};
std::atomic<int> reentrant_calls{0};

struct inside_plugin {
  inside_plugin() {
    if (reentrant_inside.fetch_add(1) != 0) reentrant_overlapped = true;
  }
  ~inside_plugin() { reentrant_inside.fetch_sub(1); }
  inside_plugin(const inside_plugin&) = delete;
  inside_plugin& operator=(const inside_plugin&) = delete;
};

bool reentrant_prepare(std::error_code& error) noexcept {
  const inside_plugin inside;
  set_offload_min_size(offload_min_size());
  (void)current_offload();
  return fake_prepare(error);
}

bool reentrant_children(std::span<const std::byte> subtree, std::uint64_t chunk_counter,
                        const b3::hazmat::mode& m, std::span<std::uint8_t, 64> children,
                        std::error_code& error) noexcept {
  const inside_plugin inside;
  ++reentrant_calls;
  const offload_status status = current_offload();
  if (status.name != "reentrant" || offload_min_size() == 0) return false;
  // Hashing from inside the plug-in: on the CPU, never into this plug-in again.
  const int calls = reentrant_calls.load();
  (void)b3::hash(subtree);
  if (reentrant_calls.load() != calls) return false;
  return fake_children(subtree, chunk_counter, m, children, error);
}

constexpr accelerator::plugin reentrant_offload{
    .name = "reentrant", .prepare = reentrant_prepare, .subtree_children = reentrant_children};

// Runs f on a thread of its own; a call that does not return within a minute is a deadlock,
// which ends the test program (its thread cannot be taken back).
template <class F>
void within_a_minute(F f) {
  auto done = std::make_shared<std::promise<void>>();
  std::future<void> finished = done->get_future();
  std::thread([f = std::move(f), done] {
    f();
    done->set_value();
  }).detach();
  if (finished.wait_for(std::chrono::minutes(1)) != std::future_status::ready) {
    std::fprintf(stderr, "deadlock: a plug-in's call into the library never returned\n");
    std::_Exit(1);
  }
}

TEST_F(Offload, APluginMayCallTheLibraryFromItsFunctions) {
  ASSERT_TRUE(accelerator::register_plugin(&reentrant_offload));
  const auto input = vector_input(3u << 20);
  const auto want = on_cpu([&] { return b3::hash(input); });
  for (const offload_mode mode : {offload_mode::forced, offload_mode::automatic}) {
    set_offload_mode(mode);
    set_offload_min_size(1u << 20);
    reentrant_overlapped = false;
    const int calls = reentrant_calls.load();
    const offload_status before = current_offload();
    within_a_minute([&] {
      // Two threads at once: one of them at a time in the plug-in, the other on the CPU.
      std::thread other([&] {
        for (int i = 0; i < 8; ++i) EXPECT_EQ(b3::hash(input), want);
      });
      for (int i = 0; i < 8; ++i) EXPECT_EQ(b3::hash(input), want);
      other.join();
    });
    // Forced, every subtree the plug-in was free to take; automatic, those the policy gave it.
    const offload_status after = current_offload();
    EXPECT_GT(after.offloaded + after.kept, before.offloaded + before.kept);
    if (mode == offload_mode::forced) {
      EXPECT_GT(reentrant_calls.load(), calls);
    }
    EXPECT_FALSE(reentrant_overlapped) << "the plug-in was called while it was being called";
    EXPECT_FALSE(current_offload().error) << current_offload().error.message();
    EXPECT_EQ(fake.prepares, 1);
  }
  EXPECT_FALSE(fake.invalid_subtree);
}

// The promise of one call at a time holds across registrations: a plug-in registered again
// (the last registration starts afresh) while one of its calls runs is not called beside it.
// Four threads hash while a fifth registers the same slow plug-in again and again.
bool slow_prepare(std::error_code&) noexcept {
  const inside_plugin inside;
  return true;
}

bool slow_children(std::span<const std::byte> subtree, std::uint64_t chunk_counter,
                   const b3::hazmat::mode& m, std::span<std::uint8_t, 64> children,
                   std::error_code&) noexcept {
  const inside_plugin inside;
  ++reentrant_calls;
  std::this_thread::sleep_for(std::chrono::microseconds(300));
  const std::uint64_t offset = chunk_counter * b3::chunk_size;
  const std::uint64_t left = b3::hazmat::left_subtree_len(subtree.size());
  const b3::hazmat::chaining_value l = subtree_cv(subtree.data(), left, offset, m);
  const b3::hazmat::chaining_value r =
      subtree_cv(subtree.data() + left, subtree.size() - left, offset + left, m);
  std::memcpy(children.data(), l.data(), 32);
  std::memcpy(children.data() + 32, r.data(), 32);
  return true;
}

constexpr accelerator::plugin slow_offload{
    .name = "slow", .prepare = slow_prepare, .subtree_children = slow_children};

TEST(OffloadThreads, OneCallAtATimeAcrossRegistrations) {
  const std::uint64_t saved_min = offload_min_size();
  const auto input = vector_input((3u << 20) + 5);
  set_offload_mode(offload_mode::disabled);
  const b3::digest want = b3::hash(input);
  ASSERT_TRUE(accelerator::register_plugin(&slow_offload));
  set_offload_mode(offload_mode::forced);
  set_offload_min_size(1u << 20);
  reentrant_overlapped = false;
  const int calls = reentrant_calls.load();
  std::atomic<bool> hashing{true};
  within_a_minute([&] {
    std::thread registering([&] {
      while (hashing) {
        EXPECT_TRUE(accelerator::register_plugin(&slow_offload));
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      }
    });
    std::vector<std::thread> hashers;
    for (int t = 0; t < 4; ++t) {
      hashers.emplace_back([&] {
        for (int i = 0; i < 12; ++i) EXPECT_EQ(b3::hash(input), want);
      });
    }
    for (std::thread& t : hashers) t.join();
    hashing = false;
    registering.join();
  });
  EXPECT_GT(reentrant_calls.load(), calls);
  EXPECT_FALSE(reentrant_overlapped) << "the plug-in was called while it was being called";
  EXPECT_TRUE(accelerator::register_plugin(nullptr));
  set_offload_mode(offload_mode::automatic);
  set_offload_min_size(saved_min);
}

// FASTBLAKE_BACKEND names an accelerator by its plug-in's name, whatever it is: ctest runs
// this in a fresh process with FASTBLAKE_BACKEND set to the name of the plug-in it registers
// ("fake-gpu", which the library has never heard of) and to another accelerator's ("cuda").
// The first hash comes before the registration, as a plug-in loaded late would find it.
TEST(AcceleratorOverride, AnyRegisteredPluginMayBeNamed) {
  const char* env = std::getenv("FASTBLAKE_BACKEND");
  if (env == nullptr || std::getenv("FASTBLAKE_TEST_ACCELERATOR_OVERRIDE") == nullptr) {
    GTEST_SKIP() << "run by ctest's accelerator_override_* tests";
  }
  const std::string name(env);
  const auto input = random_source(test_seed()).bytes(3 * 1048576 + 5);
  const auto want = b3::hash(input);
  EXPECT_EQ(active_backend(), available_backends().front());
  EXPECT_NE(std::string(backend_override_error()).find("nor a registered accelerator's name"),
            std::string::npos)
      << backend_override_error();
  EXPECT_EQ(current_offload().mode, offload_mode::forced) << "a plug-in of that name may come";

  constexpr accelerator::plugin renamed{
      .name = "fake-gpu", .prepare = fake_prepare, .subtree_children = fake_children};
  fake = {};
  ASSERT_TRUE(accelerator::register_plugin(&renamed));
  EXPECT_EQ(b3::hash(input), want);
  EXPECT_EQ(current_offload().name, "fake-gpu");
  EXPECT_FALSE(fake.invalid_subtree);
  if (name == "fake-gpu") {
    EXPECT_EQ(backend_override_error(), "") << "honoured once registered";
    EXPECT_EQ(current_offload().mode, offload_mode::forced);
    EXPECT_EQ(fake.sizes.size(), 1u) << "the whole input, one subtree";
    EXPECT_EQ(current_offload().offloaded, 1u);
  } else {
    EXPECT_NE(backend_override_error(), "");
    EXPECT_EQ(current_offload().mode, offload_mode::disabled) << "another accelerator's name";
    EXPECT_TRUE(fake.sizes.empty());
  }
  EXPECT_TRUE(accelerator::register_plugin(nullptr));
}

TEST(OffloadPolicy, TriesTheAcceleratorThenTheCpuThenKeepsTheFaster) {
  using side = k3::offload_policy::side;
  k3::offload_policy p;
  EXPECT_EQ(p.choose(), side::accelerator);
  p.record(side::accelerator, 1000, 1.0);
  EXPECT_EQ(p.choose(), side::cpu);
  p.record(side::cpu, 3000, 1.0);
  EXPECT_DOUBLE_EQ(p.cpu_rate(), 3000);
  int accelerator = 0;
  for (std::uint64_t i = 3; i <= 3 * k3::offload_policy::refresh_interval; ++i) {
    accelerator += p.choose() == side::accelerator;
  }
  EXPECT_EQ(accelerator, 3) << "the slower side once per refresh interval";
  // The accelerator gets faster: the average of its last two measures decides.
  p.record(side::accelerator, 9000, 1.0);
  EXPECT_DOUBLE_EQ(p.accelerator_rate(), 5000);
  EXPECT_EQ(p.choose(), side::accelerator);
  p.record(side::cpu, 1000, 0.0);
  EXPECT_DOUBLE_EQ(p.cpu_rate(), 3000) << "a zero duration is no measure";
}

}  // namespace
}  // namespace fastblake::test
