// BLAKE3 file hashing, one timing class per strategy: file-read, file-mmap and
// file-mmap-parallel, on files in the page cache (warm) and, where the kernel drops a file's
// clean pages on request (posix_fadvise; checked with mincore on a probe, so not on tmpfs),
// read from the device each time (the -cold classes). The files
// are written once to $TMPDIR (or /tmp) and removed at exit; each row's digest is checked
// against the in-memory hash of the same bytes first.
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include <fastblake/blake3.hpp>
#include <fastblake/file.hpp>

#include "common.hpp"

namespace fastblake::bench {
namespace {

namespace b3 = fastblake::blake3;
namespace fs = std::filesystem;

constexpr std::size_t file_sizes[] = {1u << 20, 16u << 20, 256u << 20};

// The benchmark's file of `size` bytes (the start of the shared input), made on first use.
const fs::path& file_of(std::size_t size) {
  static std::map<std::size_t, fs::path> files;
  static const struct remover {
    ~remover() {
      std::error_code ec;
      for (const auto& entry : files) fs::remove(entry.second, ec);
    }
  } remove_at_exit;
  auto it = files.find(size);
  if (it != files.end()) return it->second;
  const char* dir = std::getenv("TMPDIR");
  fs::path path = fs::path(dir != nullptr && *dir != '\0' ? dir : "/tmp") /
                  ("fastblake-bench-" + std::to_string(::getpid()) + "-" + std::to_string(size));
  const auto data = input(size);
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(data.data()), static_cast<std::streamsize>(size));
  return files.emplace(size, path).first->second;
}

// Drops the file's pages from the page cache; false where the kernel does not.
bool drop_cache(const fs::path& path) {
  const int fd = ::open(path.c_str(), O_RDONLY);
  if (fd < 0) return false;
  const bool ok = ::fdatasync(fd) == 0 && ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED) == 0;
  ::close(fd);
  return ok;
}

// Whether dropping works where the files are (not on tmpfs, say): a probe file's pages must
// leave the page cache.
bool cold_cache_possible() {
  const fs::path& probe = file_of(1u << 20);
  if (!drop_cache(probe)) return false;
  const int fd = ::open(probe.c_str(), O_RDONLY);
  if (fd < 0) return false;
  constexpr std::size_t length = 1u << 20;
  void* map = ::mmap(nullptr, length, PROT_READ, MAP_SHARED, fd, 0);
  ::close(fd);
  if (map == MAP_FAILED) return false;
  const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  std::string resident((length + page - 1) / page, '\0');
  const bool known = ::mincore(map, length, reinterpret_cast<unsigned char*>(resident.data())) == 0;
  ::munmap(map, length);
  if (!known) return false;
  for (char c : resident) {
    if ((c & 1) != 0) return false;
  }
  return true;
}

void file_row(benchmark::State& state, b3::file_strategy strategy, std::size_t size, bool cold) {
  const fs::path& path = file_of(size);
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
  };
  const bool cold_possible = cold_cache_possible();
  for (std::size_t size : file_sizes) {
    for (const auto& [name, strategy] : classes) {
      for (const bool cold : {false, true}) {
        if (cold && !cold_possible) continue;
        std::string row = "blake3/";
        row.append(name).append(cold ? "-cold/" : "/").append(std::to_string(size));
        add_row(row, file_row, strategy, size, cold)->UseRealTime();
      }
    }
  }
}

}  // namespace fastblake::bench
