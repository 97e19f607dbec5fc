// The `cli` class: whole tools on files, a process started per call with its output going to
// /dev/null: fastblake's b3sum and b2sum next to the official b3sum, GNU coreutils' b2sum and,
// for scale, sha256sum (Debian's, in /usr/bin). One large file in the page cache, on the tools'
// default threads and on one, and many small files. Before a row is timed, its tool's output is
// compared byte for byte with the lines the library's digests of the same files make.
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <openssl/evp.h>

#include <cerrno>
#include <fstream>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include <fastblake/blake2.hpp>
#include <fastblake/blake3.hpp>

#include "common.hpp"

extern char** environ;

namespace fastblake::bench {
namespace {

namespace fs = std::filesystem;

constexpr std::size_t large_file = 1u << 30;
constexpr std::size_t small_files = 10000;
constexpr std::size_t small_file = 4096;

// none: a tool that only reads the file (cat, the device's limit), its output not checked.
enum class algorithm { blake3, blake2b, sha256, none };

struct tool {
  const char* family;
  const char* name;  // the implementation in the row name
  std::string path;
  algorithm hash;
  bool fastblake;  // ours, with -j
};

std::vector<tool> tools() {
  return {
      {"blake3", "fastblake_b3sum", FASTBLAKE_BENCH_B3SUM, algorithm::blake3, true},
      {"blake3", "official_b3sum", "/usr/bin/b3sum", algorithm::blake3, false},
      {"blake2b", "fastblake_b2sum", FASTBLAKE_BENCH_B2SUM, algorithm::blake2b, true},
      {"blake2b", "coreutils_b2sum", "/usr/bin/b2sum", algorithm::blake2b, false},
      {"sha256", "coreutils_sha256sum", "/usr/bin/sha256sum", algorithm::sha256, false},
      {"blake3", "coreutils_cat", "/bin/cat", algorithm::none, false},
  };
}

// The library's digest of a file, read 1 MiB at a time (SHA-256: OpenSSL's).
std::string hex_digest(algorithm hash, const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::vector<char> buffer(1u << 20);
  blake3::hasher b3;
  blake2b::state b2;
  const std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> sha(EVP_MD_CTX_new(),
                                                                    &EVP_MD_CTX_free);
  EVP_DigestInit_ex(sha.get(), EVP_sha256(), nullptr);
  while (in) {
    in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
    const auto piece =
        std::as_bytes(std::span(buffer.data(), static_cast<std::size_t>(in.gcount())));
    // Only the tool's own hash: the others would triple the check of a 1 GiB file.
    switch (hash) {
      case algorithm::blake3:
        b3.update(piece);
        break;
      case algorithm::blake2b:
        b2.update(piece);
        break;
      case algorithm::sha256:
        EVP_DigestUpdate(sha.get(), piece.data(), piece.size());
        break;
      case algorithm::none:
        break;
    }
  }
  switch (hash) {
    case algorithm::blake3:
      return b3.finalize().to_hex();
    case algorithm::blake2b:
      return b2.finalize().to_hex();
    case algorithm::sha256:
    case algorithm::none:
      break;
  }
  unsigned char out[EVP_MAX_MD_SIZE];
  unsigned int n = 0;
  EVP_DigestFinal_ex(sha.get(), out, &n);
  return fastblake::detail::to_hex(out, n);
}

// What the tool must print for `files`: "<hex>  <path>" lines, as all three families do.
std::string expected_output(algorithm hash, const std::vector<fs::path>& files) {
  std::string out;
  for (const fs::path& f : files) {
    out.append(hex_digest(hash, f)).append("  ").append(f.string()).append("\n");
  }
  return out;
}

// Runs argv with stdout to `out_fd`; its exit status, or -1 if it could not start.
int run(const std::vector<std::string>& argv, int out_fd) {
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, out_fd, STDOUT_FILENO);
  pid_t pid = 0;
  const int started = posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (started != 0) return -1;
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return -1;
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// The tool's standard output for argv, or nothing if it failed.
std::optional<std::string> output_of(const std::vector<std::string>& argv) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return std::nullopt;
  // The output for 10,000 files is 1 MB, more than a pipe holds: read it on this thread while
  // a second one waits for the tool.
  int status = -1;
  std::thread waiter([&] {
    status = run(argv, fds[1]);
    ::close(fds[1]);
  });
  std::string out;
  char buffer[65536];
  for (ssize_t n; (n = ::read(fds[0], buffer, sizeof buffer)) != 0;) {
    if (n > 0) out.append(buffer, static_cast<std::size_t>(n));
    if (n < 0 && errno != EINTR) break;
  }
  waiter.join();
  ::close(fds[0]);
  if (status != 0) return std::nullopt;
  return out;
}

// cold: each file is dropped from the page cache before each run (the cli-cold rows).
void cli_row(benchmark::State& state, tool t, std::vector<std::string> options, std::size_t count,
             std::size_t size, bool cold) {
  const std::vector<fs::path> files =
      count == 0 ? std::vector<fs::path>{bench_file(size)} : bench_files(count, size);
  std::vector<std::string> argv{t.path};
  argv.insert(argv.end(), options.begin(), options.end());
  for (const fs::path& f : files) argv.push_back(f.string());
  const int null = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
  const bool checked = t.hash == algorithm::none
                           ? run(argv, null) == 0
                           : output_of(argv) == expected_output(t.hash, files);
  if (!checked) {
    ::close(null);
    fail(state, "the tool's output differs from the library's digests");
    return;
  }
  for (auto _ : state) {
    if (cold) {
      state.PauseTiming();
      for (const fs::path& f : files) drop_cache(f);
      state.ResumeTiming();
    }
    if (run(argv, null) != 0) {
      fail(state, "the tool failed");
      break;
    }
  }
  ::close(null);
  const std::size_t bytes = count == 0 ? size : count * size;
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes));
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * files.size()));
}

// The tool's first line of --version, for the artifact.
std::string version_of(const std::string& path) {
  const auto out = output_of({path, "--version"});
  if (!out) return "unknown";
  return out->substr(0, out->find('\n'));
}

}  // namespace

void register_cli() {
  std::string versions;
  for (const tool& t : tools()) {
    if (::access(t.path.c_str(), X_OK) != 0) {
      versions.append(versions.empty() ? "" : "; ").append(t.name).append(": missing");
      continue;
    }
    versions.append(versions.empty() ? "" : "; ").append(t.name).append(": ");
    versions.append(version_of(t.path));
    const bool b3sum = t.hash == algorithm::blake3;
    // The device's own limit, cat, in the cold rows only: reading it from the page cache says
    // nothing the other rows do not.
    if (t.hash != algorithm::none) {
      add_row(row_name(t.family, "cli", t.name, large_file), cli_row, t, std::vector<std::string>{},
              0, large_file, false);
    }
    if ((b3sum || t.hash == algorithm::none) && cold_cache_possible()) {
      add_row(row_name(t.family, "cli-cold", t.name, large_file), cli_row, t,
              std::vector<std::string>{}, 0, large_file, true);
    }
    if (t.hash == algorithm::none) continue;
    // b3sum's own threads: one, as against all of them above.
    if (b3sum) {
      add_row(row_name(t.family, "cli", t.name, large_file, 1), cli_row, t,
              std::vector<std::string>{"--num-threads", "1"}, 0, large_file, false);
    }
    add_row(row_name(t.family, "cli", t.name, small_files * small_file, 0, small_files), cli_row, t,
            std::vector<std::string>{}, small_files, small_file, false);
    // fastblake's tools hash several files at once with -j.
    if (t.fastblake) {
      std::string name(t.name);
      name.append("-j2");
      add_row(row_name(t.family, "cli", name, small_files * small_file, 0, small_files), cli_row, t,
              std::vector<std::string>{"-j", "2"}, small_files, small_file, false);
    }
  }
  benchmark::AddCustomContext("cli_tools", versions);
}

}  // namespace fastblake::bench
