// BLAKE3 file hashing, one timing class per strategy: file-read, file-mmap,
// file-mmap-parallel and file-auto (the automatic strategy), on files in the page cache (warm) and,
// where the kernel drops a file's clean pages on request (posix_fadvise; checked with mincore on a
// probe, so not on tmpfs), read from the device each time (the -cold classes). The files are
// written once to $TMPDIR (or /tmp) and removed at exit; each row's digest is checked against the
// in-memory hash of the same bytes first. bench_file and bench_files (common.hpp) live here too.
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <span>
#include <string>
#include <vector>

#include <fastblake/blake3.hpp>
#include <fastblake/file.hpp>

#include "common.hpp"

namespace fastblake::bench {
namespace {

namespace b3 = fastblake::blake3;
namespace fs = std::filesystem;

constexpr std::size_t file_sizes[] = {1u << 20, 16u << 20, 256u << 20};

// $TMPDIR/fastblake-bench-<pid>-<size>[x<count>]. Appends, not operator+ chains: GCC 12 warns
// falsely about those (-Wrestrict).
fs::path temporary_path(std::size_t size, std::size_t count = 0) {
  const char* dir = std::getenv("TMPDIR");
  std::string leaf("fastblake-bench-");
  leaf.append(std::to_string(::getpid())).append("-").append(std::to_string(size));
  if (count != 0) leaf.append("x").append(std::to_string(count));
  return fs::path(dir != nullptr && *dir != '\0' ? dir : "/tmp") / leaf;
}

// Everything made by bench_file and bench_files, removed at exit.
std::vector<fs::path>& made() {
  static std::vector<fs::path> paths;
  static const struct remover {
    ~remover() {
      std::error_code ec;
      for (const auto& p : paths) fs::remove_all(p, ec);
    }
  } remove_at_exit;
  return paths;
}

void write_file(const fs::path& path, std::span<const std::byte> data) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(data.data()), static_cast<std::streamsize>(data.size()));
}

}  // namespace

const fs::path& bench_file(std::size_t size) {
  static std::map<std::size_t, fs::path> files;
  auto it = files.find(size);
  if (it != files.end()) return it->second;
  fs::path path = temporary_path(size);
  made().push_back(path);
  write_file(path, input(size));
  return files.emplace(size, path).first->second;
}

std::vector<fs::path> bench_files(std::size_t count, std::size_t size) {
  const fs::path dir = temporary_path(size, count);
  std::vector<fs::path> paths;
  std::error_code ec;
  if (!fs::exists(dir, ec)) {
    made().push_back(dir);
    fs::create_directory(dir, ec);
    for (std::size_t i = 0; i < count; ++i) {
      write_file(dir / std::to_string(i), input((i + 1) * size).subspan(i * size));
    }
  }
  for (std::size_t i = 0; i < count; ++i) paths.push_back(dir / std::to_string(i));
  return paths;
}

bool drop_cache(const fs::path& path) {
  const int fd = ::open(path.c_str(), O_RDONLY);
  if (fd < 0) return false;
  const bool ok = ::fdatasync(fd) == 0 && ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED) == 0;
  ::close(fd);
  return ok;
}

bool cold_cache_possible() {
  static const bool possible = [] {
    const fs::path& probe = bench_file(1u << 20);
    if (!drop_cache(probe)) return false;
    const int fd = ::open(probe.c_str(), O_RDONLY);
    if (fd < 0) return false;
    constexpr std::size_t length = 1u << 20;
    void* map = ::mmap(nullptr, length, PROT_READ, MAP_SHARED, fd, 0);
    ::close(fd);
    if (map == MAP_FAILED) return false;
    const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    std::string resident((length + page - 1) / page, '\0');
    const bool known =
        ::mincore(map, length, reinterpret_cast<unsigned char*>(resident.data())) == 0;
    ::munmap(map, length);
    if (!known) return false;
    for (char c : resident) {
      if ((c & 1) != 0) return false;
    }
    return true;
  }();
  return possible;
}

namespace {

void file_row(benchmark::State& state, b3::file_strategy strategy, std::size_t size, bool cold) {
  const fs::path& path = bench_file(size);
  use_backend(detected_backend());
  b3::file_options options;
  options.strategy = strategy;
  std::error_code ec;
  if (b3::hash_file(path, options, ec) != b3::hash_serial(input(size)) || ec) {
    fail(state, "file digest differs from the in-memory hash");
    return;
  }
  for (auto _ : state) {
    if (cold) {
      state.PauseTiming();
      drop_cache(path);
      state.ResumeTiming();
    }
    benchmark::DoNotOptimize(b3::hash_file(path, options, ec));
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * size));
}

}  // namespace

void register_files() {
  const std::pair<const char*, b3::file_strategy> classes[] = {
      {"file-read", b3::file_strategy::read},
      {"file-mmap", b3::file_strategy::mmap},
      {"file-mmap-parallel", b3::file_strategy::mmap_parallel},
      {"file-auto", b3::file_strategy::automatic},
  };
  const bool cold_possible = cold_cache_possible();
  for (std::size_t size : file_sizes) {
    for (const auto& [name, strategy] : classes) {
      for (const bool cold : {false, true}) {
        if (cold && !cold_possible) continue;
        std::string timing_class(name);
        if (cold) timing_class.append("-cold");
        add_row(row_name("blake3", timing_class, detected_backend(), size), file_row, strategy,
                size, cold);
      }
    }
  }
}

}  // namespace fastblake::bench
