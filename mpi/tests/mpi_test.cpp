// fastblake::mpi under mpirun (tests/CMakeLists.txt runs it on 1, 2, 3, 4 and 8 ranks): every
// result on every rank against the one-pass hash of the same input, in every mode.
//
// Every rank runs every test, in the same order, through the same collectives: a test may
// only EXPECT, never stop early, or the ranks would wait for each other for ever.
#include <mpi.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <fastblake/mpi.hpp>

namespace {

namespace b3 = fastblake::blake3;
namespace hazmat = fastblake::blake3::hazmat;
namespace fs = std::filesystem;

int rank_of(MPI_Comm comm = MPI_COMM_WORLD) {
  int r = 0;
  MPI_Comm_rank(comm, &r);
  return r;
}

int ranks(MPI_Comm comm = MPI_COMM_WORLD) {
  int n = 1;
  MPI_Comm_size(comm, &n);
  return n;
}

std::vector<std::byte> input_of(std::size_t n, std::uint32_t seed) {
  std::vector<std::byte> v(n);
  std::mt19937 gen(seed);
  for (auto& b : v) b = static_cast<std::byte>(gen());
  return v;
}

struct named_mode {
  const char* name;
  hazmat::mode mode;
  b3::hasher hasher;
};

std::vector<named_mode> modes() {
  b3::key_type key;
  for (std::size_t i = 0; i < key.size(); ++i) key[i] = static_cast<std::uint8_t>(i * 7 + 1);
  return {{"hash", hazmat::mode::hash(), b3::hasher()},
          {"keyed", hazmat::mode::keyed(key), b3::hasher::keyed(key)},
          {"derive_key", hazmat::mode::derive_key("fastblake mpi test"),
           b3::hasher::derive_key("fastblake mpi test")}};
}

// The first 80 output bytes (past the digest, to check the reader too).
std::vector<std::uint8_t> first_bytes(b3::output_reader r) {
  std::vector<std::uint8_t> out(80);
  r.fill(std::span(out));
  return out;
}

std::vector<std::uint8_t> expected_bytes(b3::hasher h, std::span<const std::byte> input) {
  h.update(input);
  return first_bytes(h.finalize_xof());
}

// Sizes around the boundaries of chunks and of subtrees of 2^k chunks.
std::vector<std::size_t> boundary_sizes() {
  std::vector<std::size_t> sizes = {0, 1, 63, 64, 65, 1023, 1024, 1025};
  for (std::size_t chunks = 2; chunks <= 64; chunks *= 2) {
    for (const std::size_t s : {chunks * 1024 - 1, chunks * 1024, chunks * 1024 + 1}) {
      sizes.push_back(s);
    }
  }
  sizes.push_back(3 * 1024 + 17);
  sizes.push_back(37 * 1024 + 999);
  return sizes;
}

// Ways of cutting n bytes over `count` ranks: where each rank's range begins.
std::vector<std::vector<std::size_t>> cuts(std::size_t n, int count) {
  const auto k = static_cast<std::size_t>(count);
  std::vector<std::vector<std::size_t>> all;
  std::vector<std::size_t> even(k + 1), first(k + 1, n), last(k + 1, 0), odd(k + 1);
  for (std::size_t r = 0; r <= k; ++r) even[r] = n * r / k;
  first[0] = 0;
  last[k] = n;
  all.push_back(even);
  all.push_back(first);  // all on rank 0
  all.push_back(last);   // all on the last rank
  // Ranges off every chunk boundary, some only a few bytes long.
  for (std::size_t r = 0; r <= k; ++r) odd[r] = std::min(n, r == k ? n : r * 1031 + r * r * 3);
  odd[k] = n;
  all.push_back(odd);
  std::mt19937 gen(static_cast<std::uint32_t>(n * 31 + k));
  for (int trial = 0; trial < 3; ++trial) {
    std::vector<std::size_t> random(k + 1);
    for (std::size_t r = 1; r < k; ++r) random[r] = n == 0 ? 0 : gen() % (n + 1);
    random[k] = n;
    std::sort(random.begin(), random.end());
    all.push_back(random);
  }
  return all;
}

TEST(HashDistributed, EqualsTheOnePassHashForEverySizeCutAndMode) {
  const auto me = static_cast<std::size_t>(rank_of());
  fastblake::thread_pool pool(2);
  for (const auto& m : modes()) {
    for (const std::size_t n : boundary_sizes()) {
      const auto input = input_of(n, static_cast<std::uint32_t>(n));
      const auto expected = expected_bytes(m.hasher, input);
      for (const auto& cut : cuts(n, ranks())) {
        const auto mine = std::span(input).subspan(cut[me], cut[me + 1] - cut[me]);
        const auto got = first_bytes(fastblake::mpi::hash_distributed(
            MPI_COMM_WORLD, mine, m.mode, me % 2 == 0 ? &pool : nullptr));
        EXPECT_EQ(got, expected) << m.name << ", " << n << " bytes, rank " << me << " from "
                                 << cut[me];
      }
    }
  }
}

TEST(HashDistributed, LargeInputOnEveryRank) {
  // Several MiB per rank, with the per-rank threads of the default pool.
  const auto me = static_cast<std::size_t>(rank_of());
  const std::size_t n = static_cast<std::size_t>(ranks()) * (3u << 20) + 12345;
  const auto input = input_of(n, 7);
  const auto expected = expected_bytes(b3::hasher(), input);
  for (const auto& cut : cuts(n, ranks())) {
    const auto mine = std::span(input).subspan(cut[me], cut[me + 1] - cut[me]);
    EXPECT_EQ(first_bytes(fastblake::mpi::hash_distributed(MPI_COMM_WORLD, mine)), expected)
        << "rank " << me << " from " << cut[me];
  }
}

// A directory all ranks see: rank 0 makes it and broadcasts its name.
class shared_directory {
 public:
  shared_directory() {
    std::string name;
    if (rank_of() == 0) {
      std::string pattern = (fs::temp_directory_path() / "fastblake-mpi-XXXXXX").string();
      if (::mkdtemp(pattern.data()) != nullptr) name = pattern;
    }
    int size = static_cast<int>(name.size());
    MPI_Bcast(&size, 1, MPI_INT, 0, MPI_COMM_WORLD);
    name.resize(static_cast<std::size_t>(size));
    MPI_Bcast(name.data(), size, MPI_CHAR, 0, MPI_COMM_WORLD);
    path_ = name;
  }
  ~shared_directory() {
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank_of() == 0) {
      std::error_code ec;
      fs::remove_all(path_, ec);
    }
  }
  shared_directory(const shared_directory&) = delete;
  shared_directory& operator=(const shared_directory&) = delete;

  // Rank 0 writes; every rank returns once it is there.
  fs::path write(const std::string& name, std::span<const std::byte> bytes) const {
    const fs::path p = path_ / name;
    if (rank_of() == 0) {
      std::ofstream(p, std::ios::binary)
          .write(reinterpret_cast<const char*>(bytes.data()),
                 static_cast<std::streamsize>(bytes.size()));
    }
    MPI_Barrier(MPI_COMM_WORLD);
    return p;
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

TEST(HashFile, EqualsTheOnePassHashAroundEveryPieceBoundary) {
  const shared_directory dir;
  const auto all_modes = modes();
  const fastblake::file_strategy strategies[] = {fastblake::file_strategy::automatic,
                                                 fastblake::file_strategy::read,
                                                 fastblake::file_strategy::mmap};
  int turn = 0;
  for (const std::uint64_t piece :
       {std::uint64_t{1024}, std::uint64_t{4096}, std::uint64_t{65536}}) {
    fastblake::mpi::options o;
    o.piece_size = piece;
    std::vector<std::size_t> sizes = boundary_sizes();
    for (const std::size_t k : {1, 2, 3, 5, 8, 16, 33}) {
      for (const std::size_t s : {k * piece - 1, k * piece, k * piece + 1}) sizes.push_back(s);
    }
    for (const std::size_t n : sizes) {
      const auto input = input_of(n, static_cast<std::uint32_t>(n + piece));
      const fs::path p = dir.write("f", input);
      const auto& m = all_modes[n % all_modes.size()];
      o.strategy = strategies[turn++ % std::size(strategies)];
      std::error_code ec;
      const auto got = first_bytes(fastblake::mpi::hash_file(MPI_COMM_WORLD, p, m.mode, o, ec));
      EXPECT_FALSE(ec) << ec.message();
      EXPECT_EQ(got, expected_bytes(m.hasher, input))
          << m.name << ", " << n << " bytes in pieces of " << piece << ", rank " << rank_of();
    }
  }
}

TEST(HashFile, ChoosesPiecesForLargeFiles) {
  // 40 MiB in pieces of 16 MiB or, on many ranks, the smallest chosen (16 MiB): several.
  const shared_directory dir;
  const auto input = input_of((40u << 20) + 3, 9);
  EXPECT_EQ(first_bytes(fastblake::mpi::hash_file(MPI_COMM_WORLD, dir.write("big", input))),
            expected_bytes(b3::hasher(), input));
}

TEST(HashFile, AMissingFileIsAnErrorOnEveryRank) {
  const shared_directory dir;
  std::error_code ec;
  fastblake::mpi::hash_file(MPI_COMM_WORLD, dir.path() / "missing", hazmat::mode::hash(), {}, ec);
  EXPECT_EQ(ec, std::errc::no_such_file_or_directory) << ec.message();
  bool threw = false;
  try {
    fastblake::mpi::hash_file(MPI_COMM_WORLD, dir.path() / "missing");
  } catch (const std::system_error& e) {
    threw = e.code() == std::errc::no_such_file_or_directory;
  }
  EXPECT_TRUE(threw);
}

TEST(HashFiles, ManyFilesInOrderWithTheirErrors) {
  const shared_directory dir;
  std::vector<fs::path> paths;
  std::vector<std::vector<std::uint8_t>> expected;
  const auto m = modes()[1];
  for (std::size_t i = 0; i < 300; ++i) {
    if (i % 97 == 5) {
      paths.push_back(dir.path() / ("missing" + std::to_string(i)));
      expected.emplace_back();
      continue;
    }
    if (i == 150) {
      // A directory and an empty file: the root's own.
      paths.push_back(dir.path());
      expected.emplace_back();
      continue;
    }
    const std::size_t n = (i * 7919) % 20000 + (i % 50 == 0 ? 100000 : 0) + (i == 7 ? 0 : 1);
    const auto input = input_of(i == 8 ? 0 : n, static_cast<std::uint32_t>(i));
    paths.push_back(dir.write("f" + std::to_string(i), input));
    expected.push_back(expected_bytes(m.hasher, input));
  }
  fastblake::mpi::options o;
  o.piece_size = 8192;
  std::size_t next = 0;
  std::uint64_t last_progress = 0, total = 0;
  o.progress = [&](std::uint64_t done, std::uint64_t all) {
    EXPECT_GE(done, last_progress);
    last_progress = done;
    total = all;
  };
  fastblake::mpi::hash_files(MPI_COMM_WORLD, paths, m.mode, o,
                             [&](std::size_t i, b3::file_result&& r) {
                               EXPECT_EQ(i, next++);
                               if (expected[i].empty()) {
                                 EXPECT_TRUE(r.error) << i;
                               } else {
                                 EXPECT_FALSE(r.error) << i << ": " << r.error.message();
                                 EXPECT_EQ(first_bytes(r.output), expected[i]) << i;
                               }
                             });
  if (rank_of() == 0) {
    EXPECT_EQ(next, paths.size());
    EXPECT_EQ(last_progress, total);
  }
}

TEST(HashFiles, AThrowingCallbackEndsTheJobOnEveryRank) {
  const shared_directory dir;
  std::vector<fs::path> paths;
  for (int i = 0; i < 40; ++i) {
    paths.push_back(
        dir.write("t" + std::to_string(i), input_of(50000, static_cast<std::uint32_t>(i))));
  }
  fastblake::mpi::options o;
  o.piece_size = 4096;
  int calls = 0;
  bool threw = false;
  try {
    fastblake::mpi::hash_files(MPI_COMM_WORLD, paths, hazmat::mode::hash(), o,
                               [&](std::size_t, b3::file_result&&) {
                                 if (++calls == 3) throw std::runtime_error("enough");
                               });
  } catch (const std::runtime_error&) {
    threw = true;
  }
  EXPECT_EQ(threw, rank_of() == 0);
  if (rank_of() == 0) {
    EXPECT_EQ(calls, 3);
  }
  // The communicator is clean for what follows.
  EXPECT_EQ(first_bytes(fastblake::mpi::hash_file(MPI_COMM_WORLD, paths[0])),
            expected_bytes(b3::hasher(), input_of(50000, 0)));
}

// On ranks other than 0: only failures, with the rank.
class failure_printer : public ::testing::EmptyTestEventListener {
  void OnTestPartResult(const ::testing::TestPartResult& result) override {
    if (result.failed()) {
      std::fprintf(stderr, "rank %d: %s:%d: %s\n", rank_of(),
                   result.file_name() != nullptr ? result.file_name() : "?", result.line_number(),
                   result.summary());
    }
  }
};

}  // namespace

int main(int argc, char** argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  ::testing::InitGoogleTest(&argc, argv);
  // One rank's report is enough to read; a failure on any rank still fails the run.
  if (rank_of() != 0) {
    auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
    listeners.Append(new failure_printer);
  }
  const int failed = RUN_ALL_TESTS();
  int any_failed = 0;
  MPI_Allreduce(&failed, &any_failed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return any_failed != 0 ? 1 : 0;
}
