// Hashing allocates nothing: serial paths never, parallel paths never once the pool exists (the
// pool is the reusable context; rows of chaining values live on each task's stack). Counted by
// replacing the global allocation functions, so this test is its own executable.
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <new>
#include <vector>

#ifdef _WIN32
#include <malloc.h>
#endif

#include <gtest/gtest.h>

#include <fastblake/bao.hpp>
#include <fastblake/blake2.hpp>
#include <fastblake/blake3.hpp>
#include <fastblake/thread_pool.hpp>

namespace {
std::atomic<std::size_t> allocations{0};
// The largest single allocation asked for, and one above which allocations fail (0: none),
// so that a regression asks for gigabytes and is refused, not given them.
std::atomic<std::size_t> largest{0};
std::atomic<std::size_t> refuse_above{0};

// Over-aligned memory: std::aligned_alloc, freed by free(); Windows' C runtime has none, and
// its _aligned_malloc needs _aligned_free.
void* aligned_allocate(std::size_t n, std::size_t alignment) {
#ifdef _WIN32
  return ::_aligned_malloc(n == 0 ? 1 : n, alignment);
#else
  return std::aligned_alloc(alignment, (n + alignment - 1) / alignment * alignment);
#endif
}

void aligned_release(void* p) {
#ifdef _WIN32
  ::_aligned_free(p);
#else
  std::free(p);
#endif
}

void* counted(std::size_t n, std::size_t alignment = 0) {
  allocations.fetch_add(1, std::memory_order_relaxed);
  std::size_t seen = largest.load(std::memory_order_relaxed);
  while (n > seen && !largest.compare_exchange_weak(seen, n, std::memory_order_relaxed)) {
  }
  const std::size_t limit = refuse_above.load(std::memory_order_relaxed);
  if (limit != 0 && n > limit) throw std::bad_alloc();
  void* p = alignment > alignof(std::max_align_t) ? aligned_allocate(n, alignment)
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
void operator delete(void* p, std::align_val_t) noexcept { aligned_release(p); }
void operator delete[](void* p, std::align_val_t) noexcept { aligned_release(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { aligned_release(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { aligned_release(p); }

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

// The length in a Bao encoding's header is the attacker's to choose: memory follows the bytes
// given, never the length claimed. A 108-byte encoding whose header claims up to 2^64 - 1 bytes,
// at every group size, through every entry point that decodes or slices (buffers and read
// functions, combined, outboard, slice, post-order view, the reader): each fails with
// bao::error, and no allocation is larger than the reader's buffers for the bytes it read.
TEST(HostileBaoHeaders, MemoryFollowsTheBytesGivenNotTheHeader) {
  namespace bao = fastblake::bao;
  // The reader's first read is of a pool batch (4 MiB and its parents); nothing claimed by a
  // header may go past a few times that.
  constexpr std::size_t most = std::size_t{16} << 20;
  std::vector<std::byte> bytes(108, std::byte{0x5a});
  const bao::read_at_function tree = bao::read_from(bytes);
  const bao::read_at_function data = bao::read_from(std::span(bytes).subspan(8));
  const bao::write_at_function nowhere = [](std::uint64_t, std::span<const std::byte>) {};
  const b3::digest hash;
  unsigned k = 0;  // the group_log of each round
  std::vector<std::function<void()>> entry_points = {
      [&] { bao::decode(hash, bytes, k); },
      [&] { bao::decode_outboard(hash, bytes, std::span(bytes).subspan(8), k); },
      [&] { bao::decode_slice(hash, bytes, 0, 1u << 30, k); },
      [&] { bao::extract_slice(bytes, 0, ~std::uint64_t{0}, k); },
      [&] { bao::extract_slice(tree, 1u << 20, 1u << 30, nowhere, k); },
      [&] { bao::extract_slice_outboard(tree, data, 0, ~std::uint64_t{0}, nowhere, k); },
      // converters:
      [&] { bao::pre_order_outboard(bytes, k); },
      [&] { bao::post_order_outboard(bytes, k); },
  };
  constexpr std::size_t converters = 6;
  for (const bool outboard : {false, true}) {
    for (const bool with_pool : {false, true}) {
      for (const std::uint64_t start : {std::uint64_t{0}, std::uint64_t{5} << 30}) {
        entry_points.emplace_back([&, outboard, with_pool, start] {
          bao::reader r = outboard ? bao::reader(hash, tree, data, k) : bao::reader(hash, tree, k);
          if (with_pool) r.use_pool(thread_pool::default_pool());
          std::vector<std::byte> out(1 << 20);
          r.seek(start);
          r.read(out);
        });
      }
    }
  }
  entry_points.emplace_back([&] {
    bao::reader r = bao::reader::over_slice(hash, tree, 0, ~std::uint64_t{0}, k);
    std::vector<std::byte> out(1 << 20);
    r.read(out);
  });
  entry_points.emplace_back([&] {
    bao::reader r = bao::reader(hash, bao::pre_order_view(tree, bytes.size(), k), data, k);
    r.length();
  });
  const std::uint64_t claims[] = {std::uint64_t{1} << 30, std::uint64_t{16} << 30,
                                  std::uint64_t{1} << 63, ~std::uint64_t{0} - 1023,
                                  ~std::uint64_t{0}};
  thread_pool::default_pool();  // started before the limit
  for (const std::uint64_t claim : claims) {
    for (k = 0; k <= bao::max_group_log; ++k) {
      // The claim in the header (a combined encoding's first 8 bytes, a post-order outboard's
      // last 8).
      for (std::size_t i = 0; i < 8; ++i) {
        bytes[i] = bytes[bytes.size() - 8 + i] = static_cast<std::byte>(claim >> (8 * i));
      }
      for (std::size_t e = 0; e < entry_points.size(); ++e) {
        SCOPED_TRACE(testing::Message()
                     << "claim " << claim << ", group_log " << k << ", entry point " << e);
        largest = 0;
        refuse_above = most;
        bool failed_as_it_should = false;
        try {
          entry_points[e]();
        } catch (const bao::error&) {
          failed_as_it_should = true;
        } catch (const std::out_of_range&) {
          failed_as_it_should = true;  // a slice's reader asked for its length past the slice
        } catch (const std::bad_alloc&) {
        }
        refuse_above = 0;
        EXPECT_LE(largest.load(), most);
        // (The slicers check no hashes: they fail where the bytes run out, which they do. The
        // converters check nothing either: a claim of one group has no parents to move.)
        const bool converter = e == converters || e == converters + 1;
        EXPECT_TRUE(failed_as_it_should || converter);
      }
    }
  }
}

}  // namespace
}  // namespace fastblake::test
