// Hashing allocates nothing: serial paths never, parallel paths never once the pool exists (the
// pool is the reusable context; rows of chaining values live on each task's stack). Counted by
// replacing the global allocation functions, so this test is its own executable.
#include <atomic>
#include <cstdlib>
#include <new>
#include <vector>

#include <gtest/gtest.h>

#include <fastblake/blake2.hpp>
#include <fastblake/blake3.hpp>
#include <fastblake/thread_pool.hpp>

namespace {
std::atomic<std::size_t> allocations{0};

void* counted(std::size_t n, std::size_t alignment = 0) {
  allocations.fetch_add(1, std::memory_order_relaxed);
  void* p = alignment > alignof(std::max_align_t)
                ? std::aligned_alloc(alignment, (n + alignment - 1) / alignment * alignment)
                : std::malloc(n == 0 ? 1 : n);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}
}  // namespace

void* operator new(std::size_t n) { return counted(n); }
void* operator new[](std::size_t n) { return counted(n); }
void* operator new(std::size_t n, std::align_val_t a) {
  return counted(n, static_cast<std::size_t>(a));
}
void* operator new[](std::size_t n, std::align_val_t a) {
  return counted(n, static_cast<std::size_t>(a));
}
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  try {
    return counted(n);
  } catch (...) {
    return nullptr;
  }
}
// These deletes free what the news above got from malloc. GCC at -O1 (the sanitizer presets)
// inlines them into gtest's `new TestClass` and takes that for the built-in new, which free
// must not release: a false report.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
#endif
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }

namespace fastblake::test {
namespace {

namespace b3 = fastblake::blake3;

// Allocations made by f.
template <class F>
std::size_t allocations_in(F&& f) {
  const std::size_t before = allocations.load();
  f();
  return allocations.load() - before;
}

class Allocations : public ::testing::Test {
 protected:
  std::vector<std::byte> input_ = std::vector<std::byte>((3u << 20) + 77, std::byte{0x5a});
  std::vector<std::byte> output_ = std::vector<std::byte>(1u << 20);
};

TEST_F(Allocations, CountingWorks) {
  // A direct call: compilers may elide a new-expression paired with its delete.
  EXPECT_EQ(allocations_in([] { ::operator delete(::operator new(16)); }), 1u);
  std::vector<int> v;
  EXPECT_GE(allocations_in([&] { v.resize(1000); }), 1u);
}

TEST_F(Allocations, SerialHashingAllocatesNothing) {
  const b3::key_type key{};
  EXPECT_EQ(allocations_in([&] {
              for (std::size_t n : {0u, 64u, 1024u, 5000u, 1u << 20, (3u << 20) + 77}) {
                const std::span<const std::byte> in(input_.data(), n);
                b3::hash_serial(in);
                b3::keyed_hash_serial(key, in);
                b3::derive_key_serial("context", in);
                b3::hasher h;
                h.update(in);
                h.finalize();
                b3::output_reader r = h.finalize_xof();
                r.seek(12345);
                r.fill(std::span(output_).first(4096));
              }
            }),
            0u);
}

TEST_F(Allocations, SerialBlake2AllocatesNothing) {
  namespace b2 = fastblake::blake2;
  const auto key = std::span(input_).first(32);
  b2::params<b2::family::b> pb;
  pb.hash_length(40).key(key).salt(std::span(input_).first(16)).fanout(3).node_offset(9);
  b2::params<b2::family::s> ps;
  ps.hash_length(20).key(key).personal(std::span(input_).first(8)).last_node();
  const auto pbp = b2::parallel_params<b2::family::b>().hash_length(33).key(key);
  const auto psp = b2::parallel_params<b2::family::s>().key(key);
  const auto xb = b2::xof_params<b2::family::b>().hash_length(5000).key(key);
  EXPECT_EQ(allocations_in([&] {
              for (std::size_t n : {0u, 1u, 128u, 5000u, 1u << 20, (3u << 20) + 77}) {
                const std::span<const std::byte> in(input_.data(), n);
                b2::hash<b2::family::b>(in);
                b2::hash<b2::family::s>(in);
                pb.hash(in);
                ps.hash(in);
                pb.to_state().update(in.first(n / 2)).update(in.subspan(n / 2)).finalize();
                ps.to_state().update(in).finalize();
                // parallel_params::hash may use the default pool (where no SIMD kernel takes
                // every leaf at once); the state's update without a pool is the serial path.
                pbp.to_state().update(in).finalize();
                psp.to_state().update(in).finalize();
                b2::xof_state<b2::family::b> x(xb);
                x.update(in);
                x.finalize(std::span(output_).first(5000), 0);
                x.finalize(std::span(output_).first(100), 4000);
              }
            }),
            0u);
}

TEST_F(Allocations, AutomaticHashingBelowItsThreadsAllocatesNothing) {
  EXPECT_EQ(allocations_in([&] {
              for (std::size_t n : std::initializer_list<std::size_t>{
                       0, 64, 1024, 5000, b3::auto_parallel_min_size - 1}) {
                b3::hash(std::span(input_).first(n));
              }
            }),
            0u);
}

TEST_F(Allocations, HashManyAllocatesNothing) {
  std::vector<std::span<const std::byte>> items;
  for (std::size_t i = 0; i < 600; ++i) items.emplace_back(input_.data() + i, i * 7 % 3000);
  std::vector<b3::digest> out(items.size());
  EXPECT_EQ(allocations_in([&] { b3::hash_many(items, out); }), 0u);
  // BLAKE2's many-message kernels, on this thread (a few jobs: no pool is used).
  namespace b2 = fastblake::blake2;
  std::vector<b2::digest<b2::family::b>> out_b(5);
  std::vector<b2::job<b2::family::b>> jobs;
  for (std::size_t i = 0; i < out_b.size(); ++i) jobs.push_back({items[i * 7], &out_b[i], nullptr});
  EXPECT_EQ(allocations_in([&] { b2::hash_many<b2::family::b>(jobs); }), 0u);
}

TEST_F(Allocations, ParallelHashingAllocatesNothingOnceThePoolExists) {
  thread_pool pool(4);
  const std::span<const std::byte> in(input_);
  b3::hash_parallel(in, pool);  // the first use may allocate, in the system's thread start-up
  EXPECT_EQ(allocations_in([&] {
              for (int i = 0; i < 5; ++i) {
                b3::hash_parallel(in, pool);
                b3::hasher h;
                h.update_parallel(in, pool);
                h.finalize();
                b3::output_reader r = h.finalize_xof();
                r.fill(output_, pool);
              }
            }),
            0u);
}

}  // namespace
}  // namespace fastblake::test
