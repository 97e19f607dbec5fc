// File hashing by any name and at any offset: names in any script (UTF-16 through the wide API
// on Windows, UTF-8 bytes elsewhere), through the C++ API, hash_files, Bao and the C interface
// (which takes UTF-8); paths longer than Windows' MAX_PATH; and offsets past 4 GiB, where a
// 32-bit offset (an OVERLAPPED's low half, a 32-bit off_t) would wrap.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <fastblake/fastblake.h>
#include <fastblake/bao.hpp>
#include <fastblake/file.hpp>

#include "file_test_support.hpp"
#include "os_support.hpp"
#include "test_support.hpp"

namespace fastblake::test {
namespace {

namespace b3 = fastblake::blake3;
namespace fs = std::filesystem;

// Latin with diacritics, Greek, Cyrillic, CJK, an emoji outside the BMP (a surrogate pair in
// UTF-16), combining marks, and a space.
const char8_t* const unicode_names[] = {u8"Grüße.txt",      u8"αρχείο",     u8"файл данных",
                                        u8"名前と文書.bin", u8"🙂-smile", u8"e\u0301te\u0301"};

TEST_F(FileHashing, NamesInAnyScriptAreHashedByEveryWay) {
  random_source rng(test_seed() + 70);
  const std::vector<std::byte> data = rng.bytes((1u << 20) + 333);
  const b3::digest want = b3::hash(data);
  std::vector<fs::path> paths;
  for (const char8_t* name : unicode_names) {
    const fs::path p = dir_ / fs::path(std::u8string(name));
    SCOPED_TRACE(reinterpret_cast<const char*>(name));
    {
      std::ofstream out(p, std::ios::binary);
      out.write(reinterpret_cast<const char*>(data.data()),
                static_cast<std::streamsize>(data.size()));
    }
    ASSERT_TRUE(fs::exists(p));
    paths.push_back(p);
    for (b3::file_strategy s : all_file_strategies) {
      b3::file_options options;
      options.strategy = s;
      EXPECT_EQ(b3::hash_file(p, options), want) << strategy_name(s);
    }
    // The C interface takes the name as UTF-8.
    const std::u8string utf8 = p.u8string();
    b3::digest::bytes_type out{};
    ASSERT_EQ(fastblake_blake3_hash_file(reinterpret_cast<const char*>(utf8.c_str()), out.data()),
              0);
    EXPECT_EQ(b3::digest(out), want);
    // Bao, and an error's message naming the file in UTF-8.
    EXPECT_EQ(bao::encode_file(p, [](std::uint64_t, std::span<const std::byte>) {}), want);
    try {
      b3::hash_file(p.parent_path() / (p.filename().u8string() + u8"-missing"));
      ADD_FAILURE() << "no exception";
    } catch (const std::system_error& e) {
      EXPECT_NE(std::string(e.what()).find(reinterpret_cast<const char*>(name)), std::string::npos)
          << e.what();
    }
  }
  for (const b3::file_result& r : b3::hash_files(paths, b3::hasher())) {
    EXPECT_FALSE(r.error) << r.error.message();
    EXPECT_EQ(r.hash(), want);
  }
}

// 300 characters and more: past MAX_PATH (260), which Windows' narrow and unprefixed wide
// calls refuse.
TEST_F(FileHashing, PathsLongerThanMaxPathAreHashed) {
  random_source rng(test_seed() + 71);
  const std::vector<std::byte> data = rng.bytes((256u << 10) + 9);
  fs::path deep = dir_;
  while (deep.native().size() < 300) deep /= std::string(60, 'd');
  std::error_code ec;
  fs::create_directories(deep, ec);
  if (ec) GTEST_SKIP() << "this file system keeps no path of 300 characters: " << ec.message();
  const fs::path p = deep / "long-path-file";
  {
    std::ofstream out(p, std::ios::binary);
    out.write(reinterpret_cast<const char*>(data.data()),
              static_cast<std::streamsize>(data.size()));
  }
  ASSERT_GE(p.native().size(), 300u);
  for (b3::file_strategy s : all_file_strategies) {
    b3::file_options options;
    options.strategy = s;
    std::error_code hash_ec;
    EXPECT_EQ(b3::hash_file(p, options, hash_ec), b3::hash(data)) << strategy_name(s);
    EXPECT_FALSE(hash_ec) << hash_ec.message();
  }
}

// A sparse file of 4 GiB + 2 MiB + 5 bytes, read from 64 KiB before the 4 GiB mark: every
// read, view and part crosses or lies past 2^32. (Sparse: nothing is written but the tail.)
TEST_F(FileHashing, OffsetsPastFourGibibytesAreHashed) {
#ifdef __EMSCRIPTEN__
  GTEST_SKIP() << "a 4 GiB file through Node.js's file layer from a 32-bit address space";
#endif
  constexpr std::uint64_t four_gib = std::uint64_t{1} << 32;
  constexpr std::uint64_t start = four_gib - (64u << 10);
  random_source rng(test_seed() + 72);
  const std::vector<std::byte> tail = rng.bytes((2u << 20) + 5);
  const fs::path p = dir_ / "past-4GiB";
  { std::ofstream out(p, std::ios::binary); }
  std::error_code ec;
  fs::resize_file(p, four_gib, ec);
  if (ec) GTEST_SKIP() << "no room for a sparse file of 4 GiB: " << ec.message();
  {
    const int fd = open_read_write(p);
    ASSERT_GE(fd, 0);
    ASSERT_TRUE(seek_fd(fd, four_gib));
    const std::byte* at = tail.data();
    for (std::size_t left = tail.size(); left > 0;) {
      const auto n = ::write(fd, at, static_cast<unsigned>(std::min<std::size_t>(left, 1u << 20)));
      ASSERT_GT(n, 0);
      at += n;
      left -= static_cast<std::size_t>(n);
    }
    close_fd(fd);
  }
  ASSERT_EQ(fs::file_size(p), four_gib + tail.size());
  std::vector<std::byte> expected(static_cast<std::size_t>(four_gib - start));
  expected.insert(expected.end(), tail.begin(), tail.end());
  const b3::digest want = b3::hash(expected);
  thread_pool pool(2);
  for (b3::file_strategy s : all_file_strategies) {
    SCOPED_TRACE(strategy_name(s));
    const int fd = open_read(p);
    ASSERT_GE(fd, 0);
    ASSERT_TRUE(seek_fd(fd, start));
    b3::file_options options;
    options.strategy = s;
    options.pool = &pool;
    b3::hasher h;
    std::error_code hash_ec;
    b3::update_from_fd(h, fd, options, hash_ec);
    EXPECT_FALSE(hash_ec) << hash_ec.message();
    EXPECT_EQ(h.finalize(), want);
    close_fd(fd);
  }
  // A subtree whose offset is past 2^32, as the subtree API hashes it from a descriptor.
  b3::hasher subtree;
  b3::hazmat::set_input_offset(subtree, four_gib);
  subtree.update(std::span(tail).first(1u << 20));
  EXPECT_EQ(file_subtree(p, four_gib, 1u << 20, &pool), b3::hazmat::finalize_non_root(subtree));
  fs::remove(p);
}

}  // namespace
}  // namespace fastblake::test
