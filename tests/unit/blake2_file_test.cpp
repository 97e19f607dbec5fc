// BLAKE2's run-time hasher and its file API: every algorithm against its own state, every
// strategy against the in-memory hash around block, page and buffer boundaries, typed states,
// descriptors from their offset, errors that leave the state as it was, progress and
// cancellation, and many files at once in order.
#include <fcntl.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include <fastblake/blake2.hpp>
#include <fastblake/file.hpp>

#include "scratch_dir.hpp"
#include "test_support.hpp"

namespace fastblake::test {
namespace {

namespace b2 = fastblake::blake2;
namespace fs = std::filesystem;
using b2::algorithm;

// Appends, not operator+ chains: GCC 12 warns falsely about those (-Wrestrict).
std::string label(std::initializer_list<std::string_view> parts) {
  std::string text;
  for (std::string_view part : parts) text.append(part).push_back(' ');
  return text;
}

constexpr algorithm all_algorithms[] = {algorithm::blake2b, algorithm::blake2s, algorithm::blake2bp,
                                        algorithm::blake2sp};
// The digest of `input` by the algorithm's own state, `length` bytes, keyed.
b2::any_digest expected(algorithm a, std::size_t length, std::span<const std::byte> key,
                        std::span<const std::byte> input) {
  const auto of = [](const auto& d) {
    return b2::any_digest(std::span<const std::uint8_t>(d.data(), d.size()));
  };
  switch (a) {
    case algorithm::blake2b:
      return of(blake2b::params().hash_length(length).key(key).to_state().update(input).finalize());
    case algorithm::blake2s:
      return of(blake2s::params().hash_length(length).key(key).to_state().update(input).finalize());
    case algorithm::blake2bp:
      return of(blake2bp::params().hash_length(length).key(key).hash(input));
    case algorithm::blake2sp:
      return of(blake2sp::params().hash_length(length).key(key).hash(input));
  }
  return {};
}

TEST(Blake2Hasher, NamesAndLimits) {
  for (algorithm a : all_algorithms) {
    EXPECT_EQ(b2::algorithm_from_name(b2::algorithm_name(a)), a);
  }
  EXPECT_EQ(b2::algorithm_name(algorithm::blake2sp), "blake2sp");
  EXPECT_EQ(b2::algorithm_from_name("BLAKE2b"), std::nullopt);
  EXPECT_EQ(b2::algorithm_from_name(""), std::nullopt);
  EXPECT_EQ(b2::algorithm_name(static_cast<algorithm>(9)), "");
  EXPECT_EQ(b2::max_hash_length(algorithm::blake2bp), 64u);
  EXPECT_EQ(b2::max_hash_length(algorithm::blake2s), 32u);
  EXPECT_EQ(b2::hasher().algo(), algorithm::blake2b);
  EXPECT_EQ(b2::hasher().hash_length(), 64u);
  EXPECT_EQ(b2::hasher().finalize().to_hex(), blake2b::hash(std::string_view()).to_hex());
}

TEST(Blake2Hasher, EveryAlgorithmIsItsOwnState) {
  random_source rng(test_seed() + 40);
  const std::vector<std::byte> input = rng.bytes(70'000);
  const std::vector<std::byte> key = rng.bytes(64);
  thread_pool pool(3);
  for (algorithm a : all_algorithms) {
    for (std::size_t length : {std::size_t{1}, std::size_t{20}, b2::max_hash_length(a)}) {
      for (std::size_t key_length : {std::size_t{0}, std::size_t{7}, b2::max_hash_length(a)}) {
        SCOPED_TRACE(label(
            {b2::algorithm_name(a), std::to_string(length), "key", std::to_string(key_length)}));
        const std::span<const std::byte> k(key.data(), key_length);
        const b2::any_digest want = expected(a, length, k, input);
        b2::hasher h(a, length, k);
        EXPECT_EQ(h.algo(), a);
        EXPECT_EQ(h.hash_length(), length);
        h.update(std::span(input).first(1000)).update(std::span(input).subspan(1000));
        EXPECT_EQ(h.finalize(), want);
        EXPECT_EQ(h.count(), input.size());
        b2::hasher on_pool(a, length, k);
        on_pool.update(input, pool);
        EXPECT_EQ(on_pool.finalize(), want);
      }
    }
  }
  // From a state with every parameter.
  const auto p = blake2s::params().hash_length(9).salt("salt").personal("me").node_depth(2);
  b2::hasher from_state = p.to_state();
  from_state.update(input);
  EXPECT_EQ(from_state.algo(), algorithm::blake2s);
  EXPECT_EQ(from_state.finalize().to_hex(), p.hash(input).to_hex());
}

TEST(Blake2Hasher, RefusesWhatParamsRefuse) {
  const std::vector<std::byte> long_key(65);
  EXPECT_THROW(b2::hasher(algorithm::blake2b, 65), std::invalid_argument);
  EXPECT_THROW(b2::hasher(algorithm::blake2s, 33), std::invalid_argument);
  EXPECT_THROW(b2::hasher(algorithm::blake2sp, 0, std::span(long_key).first(33)),
               std::invalid_argument);
  EXPECT_THROW(b2::hasher(algorithm::blake2bp, 0, long_key), std::invalid_argument);
  EXPECT_THROW(b2::hasher(static_cast<algorithm>(4)), std::invalid_argument);
}

class Blake2Files : public scratch_dir_test {};

TEST_F(Blake2Files, EveryStrategyAndAlgorithmMatchesTheInMemoryHash) {
  random_source rng(test_seed() + 41);
  const std::vector<std::byte> data = rng.bytes((3u << 20) + 1024);
  const std::vector<std::byte> key = rng.bytes(32);
  const std::size_t sizes[] = {
      0,    1,     63,    64,    65,      127,           128,           129,        4095,
      4097, 65535, 65536, 65537, 1 << 20, (1 << 20) + 1, (2 << 20) + 5, data.size()};
  thread_pool pool(3);
  for (std::size_t n : sizes) {
    const std::span<const std::byte> content(data.data(), n);
    const fs::path p = write(std::string("f").append(std::to_string(n)), content);
    for (algorithm a : all_algorithms) {
      const b2::any_digest want = expected(a, 24, key, content);
      for (file_strategy s : all_file_strategies) {
        SCOPED_TRACE(label(
            {"size", std::to_string(n), b2::algorithm_name(a), "strategy", strategy_name(s)}));
        file_options options;
        options.strategy = s;
        options.pool = &pool;
        const b2::hasher prototype(a, 24, key);
        EXPECT_EQ(b2::hash_file(p, prototype, options), want);
        b2::hasher h = prototype;
        b2::update_from_file(h, p, options);
        EXPECT_EQ(h.finalize(), want);
      }
    }
    // The typed states, with the parameters only they have.
    const auto params = blake2b::params().hash_length(40).personal("files").node_offset(3);
    blake2b::state typed = params.to_state();
    b2::update_from_file(typed, p);
    EXPECT_EQ(typed.finalize(), params.hash(content));
    blake2sp::state leaves;
    file_options parallel;
    parallel.strategy = file_strategy::mmap_parallel;
    parallel.pool = &pool;
    b2::update_from_file(leaves, p, parallel);
    EXPECT_EQ(leaves.finalize(), blake2sp::params().hash(content));
  }
}

TEST_F(Blake2Files, DescriptorsFromTheirOffsetAndStreamsConsume) {
  random_source rng(test_seed() + 42);
  const std::vector<std::byte> data = rng.bytes((1u << 20) + 777);
  const fs::path p = write("d", data);
  for (file_strategy s : all_file_strategies) {
    const int fd = open_read(p);
    ASSERT_GE(fd, 0);
    ASSERT_EQ(::lseek(fd, 1000, SEEK_SET), 1000);
    file_options options;
    options.strategy = s;
    b2::hasher h(algorithm::blake2sp);
    b2::update_from_fd(h, fd, options);
    EXPECT_EQ(h.finalize(), expected(algorithm::blake2sp, 32, {}, std::span(data).subspan(1000)));
    const off_t now = ::lseek(fd, 0, SEEK_CUR);
    EXPECT_EQ(now, s == file_strategy::stream ? static_cast<off_t>(data.size()) : 1000);
    ::close(fd);
  }
  // A pipe, read to its end.
  int ends[2];
  ASSERT_TRUE(make_pipe(ends));
  const std::string text(100'000, 'x');
  std::thread writer([&] {
    std::size_t done = 0;
    while (done < text.size()) {
      const auto n =
          ::write(ends[1], text.data() + done,
                  static_cast<unsigned>(std::min<std::size_t>(65536, text.size() - done)));
      if (n <= 0) break;
      done += static_cast<std::size_t>(n);
    }
    ::close(ends[1]);
  });
  b2::hasher piped;
  b2::update_from_fd(piped, ends[0]);
  writer.join();
  ::close(ends[0]);
  EXPECT_EQ(piped.finalize(), blake2b::hash(std::string_view(text)));
}

TEST_F(Blake2Files, ErrorsLeaveTheStateAsItWas) {
  b2::hasher h(algorithm::blake2s);
  h.update(std::string_view("kept"));
  const b2::any_digest before = h.finalize();
  std::error_code ec;
  b2::update_from_file(h, dir_ / "missing", {}, ec);
  EXPECT_EQ(ec, std::errc::no_such_file_or_directory);
  b2::update_from_file(h, dir_, {}, ec);
  EXPECT_EQ(ec, std::errc::is_a_directory);
  file_options stream;
  stream.strategy = file_strategy::stream;
  b2::update_from_file(h, dir_, stream, ec);
  EXPECT_EQ(ec, std::errc::is_a_directory);
  EXPECT_EQ(h.finalize(), before);
  try {
    b2::update_from_file(h, dir_ / "missing");
    ADD_FAILURE() << "no exception";
  } catch (const std::system_error& e) {
    EXPECT_EQ(e.code(), std::errc::no_such_file_or_directory);
    EXPECT_NE(std::string(e.what()).find("fastblake::blake2: '"), std::string::npos) << e.what();
  }
  EXPECT_THROW(b2::update_from_fd(h, -1), std::system_error);
  file_options bad;
  bad.strategy = static_cast<file_strategy>(17);
  const fs::path p = write("p", vector_input(10));
  b2::update_from_file(h, p, bad, ec);
  EXPECT_EQ(ec, std::errc::invalid_argument);
  const b2::any_digest none = b2::hash_file(dir_ / "missing", b2::hasher(), {}, ec);
  EXPECT_TRUE(ec);
  EXPECT_EQ(none.size(), 0u);
  EXPECT_EQ(h.finalize(), before);
}

TEST_F(Blake2Files, ProgressAndCancellation) {
  const std::vector<std::byte> data = vector_input(5u << 20);
  const fs::path p = write("big", data);
  for (file_strategy s : all_file_strategies) {
    std::vector<std::uint64_t> seen;
    file_options options;
    options.strategy = s;
    options.progress_step = 1u << 20;
    options.progress = [&](std::uint64_t done, std::uint64_t) {
      seen.push_back(done);
      return true;
    };
    b2::hasher h(algorithm::blake2bp);
    b2::update_from_file(h, p, options);
    ASSERT_FALSE(seen.empty());
    EXPECT_EQ(seen.back(), data.size());
    EXPECT_GE(seen.size(), 3u);
    options.progress = [](std::uint64_t done, std::uint64_t) { return done < (2u << 20); };
    b2::hasher cancelled(algorithm::blake2bp);
    std::error_code ec;
    b2::update_from_file(cancelled, p, options, ec);
    EXPECT_EQ(ec, std::errc::operation_canceled);
    EXPECT_EQ(cancelled.count(), 0u) << "a cancelled hash leaves the state as it was";
  }
}

TEST_F(Blake2Files, ManyFilesInOrderWithTheirErrors) {
  random_source rng(test_seed() + 43);
  std::vector<fs::path> paths;
  std::vector<std::vector<std::byte>> contents;
  for (int i = 0; i < 30; ++i) {
    // Small ones, and a few above the size hash_files defers to all threads.
    contents.push_back(
        rng.bytes(i % 10 == 9 ? (5u << 20) + 3 : static_cast<std::size_t>(rng.below(200'000))));
    paths.push_back(write(std::string("m").append(std::to_string(i)), contents.back()));
  }
  paths.insert(paths.begin() + 5, dir_ / "missing");
  paths.insert(paths.begin() + 12, dir_);
  thread_pool pool(4);
  file_options options;
  options.pool = &pool;
  for (algorithm a : all_algorithms) {
    const b2::hasher prototype(a, 16);
    const auto results = b2::hash_files(paths, prototype, options);
    ASSERT_EQ(results.size(), paths.size());
    for (std::size_t i = 0, k = 0; i < paths.size(); ++i) {
      if (i == 5) {
        EXPECT_EQ(results[i].error, std::errc::no_such_file_or_directory);
      } else if (i == 12) {
        EXPECT_EQ(results[i].error, std::errc::is_a_directory);
      } else {
        EXPECT_FALSE(results[i].error) << i;
        EXPECT_EQ(results[i].digest, expected(a, 16, {}, contents[k])) << i;
        ++k;
      }
    }
  }
}

}  // namespace
}  // namespace fastblake::test
