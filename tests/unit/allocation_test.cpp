// Hashing allocates nothing: serial paths never, parallel paths never once the pool exists (the
// pool is the reusable context; rows of chaining values live on each task's stack). Counted by
// replacing the global allocation functions, so this test is its own executable.
#include <atomic>
#include <cstdlib>
#include <new>
#include <vector>

#include <gtest/gtest.h>

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

TEST_F(Allocations, HashManyAllocatesNothing) {
  std::vector<std::span<const std::byte>> items;
  for (std::size_t i = 0; i < 600; ++i) items.emplace_back(input_.data() + i, i * 7 % 3000);
  std::vector<b3::digest> out(items.size());
  EXPECT_EQ(allocations_in([&] { b3::hash_many(items, out); }), 0u);
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
