// fastblake-compare: hashes files with fastblake and with the official BLAKE3 C implementation
// (as shipped, with its SIMD assembly, and built with its portable kernel only) in one process,
// and prints a table of their speeds.
//
// Each file is read into memory once, so the table measures hashing, not the disk. The three
// implementations must agree on every digest before anything is timed. Timing is interleaved:
// every round times each implementation once, in rotating order, for at least --min-time
// seconds; the table shows the median of the rounds and the ratios of the medians.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <string>
#include <vector>

#include <fastblake/backend.hpp>
#include <fastblake/blake3.hpp>

#include "official.hpp"

// The official library built with its portable kernel only, under renamed symbols
// (cmake/OfficialBlake3.cmake).
FASTBLAKE_DECLARE_OFFICIAL_BUILD(portable)

namespace {

namespace b3 = fastblake::blake3;
using clock_type = std::chrono::steady_clock;

struct options {
  std::vector<std::string> files;
  int rounds = 7;
  double min_time = 0.05;
};

struct implementation {
  std::string name;
  std::function<b3::digest(const std::vector<std::uint8_t>&)> hash;
};

// Every hash's first byte goes here, so that no hash can be optimised away.
volatile std::uint8_t g_sink = 0;

// Bytes per second of one timed round: hash repeatedly for at least min_time seconds.
double time_round(const implementation& impl, const std::vector<std::uint8_t>& input,
                  double min_time) {
  std::size_t reps = 0;
  const auto start = clock_type::now();
  std::chrono::duration<double> elapsed{};
  do {
    g_sink = impl.hash(input).data()[0];
    ++reps;
    elapsed = clock_type::now() - start;
  } while (elapsed.count() < min_time);
  return static_cast<double>(input.size() * reps) / elapsed.count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 != 0 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

std::string human_size(std::uintmax_t bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB"};
  int u = 0;
  double v = static_cast<double>(bytes);
  while (v >= 1024 && u < 3 && static_cast<std::uintmax_t>(v) % 1024 == 0) {
    v /= 1024;
    ++u;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f %s", v, units[u]);
  return buf;
}

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
  }
  return "unknown CPU";
}

void usage(std::ostream& os) {
  os << "usage: fastblake-compare [--rounds N] [--min-time SECONDS] FILE...\n"
        "Hashes each FILE (read into memory first) with fastblake and with the official\n"
        "BLAKE3 C implementation, interleaved, and prints the median speeds and ratios.\n";
}

bool parse(int argc, char** argv, options& opt) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "-h" || arg == "--help") {
      usage(std::cout);
      std::exit(0);
    } else if ((arg == "--rounds" || arg == "--min-time") && i + 1 < argc) {
      char* end = nullptr;
      const double v = std::strtod(argv[++i], &end);
      if (*end != '\0' || v <= 0) return false;
      if (arg == "--rounds")
        opt.rounds = static_cast<int>(v);
      else
        opt.min_time = v;
    } else if (arg.rfind('-', 0) == 0 && arg != "-") {
      return false;
    } else {
      opt.files.push_back(arg);
    }
  }
  return !opt.files.empty() && opt.rounds > 0;
}

}  // namespace

int main(int argc, char** argv) {
  options opt;
  if (!parse(argc, argv, opt)) {
    usage(std::cerr);
    return 2;
  }
  const std::vector<implementation> impls = {
      {"fastblake", [](const auto& in) { return b3::hash_serial(std::span(in)); }},
      {"official C",
       [](const auto& in) {
         return fastblake::bench::official_hash(std::as_bytes(std::span(in)));
       }},
      {"official C portable",
       [](const auto& in) {
         return fastblake::bench::official_hash<official_portable_blake3_hasher_init,
                                                official_portable_blake3_hasher_update,
                                                official_portable_blake3_hasher_finalize>(
             std::as_bytes(std::span(in)));
       }},
  };

  std::printf("fastblake %s (kernel: %s) vs official BLAKE3 C %s, one thread\n",
              FASTBLAKE_VERSION_STRING, std::string(fastblake::active_backend()).c_str(),
              BLAKE3_VERSION_STRING);
  std::printf("%s; median of %d interleaved rounds, GB/s = 10^9 bytes/s\n\n", cpu_model().c_str(),
              opt.rounds);
  std::printf("%-28s %9s %10s %11s %11s %10s %10s\n", "file", "size", "fastblake", "official C",
              "official C", "vs", "vs");
  std::printf("%-28s %9s %10s %11s %11s %10s %10s\n", "", "", "GB/s", "GB/s", "portable",
              "official", "portable");

  int status = 0;
  for (const std::string& path : opt.files) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
      std::fprintf(stderr, "fastblake-compare: %s: cannot open\n", path.c_str());
      status = 1;
      continue;
    }
    const std::vector<std::uint8_t> data((std::istreambuf_iterator<char>(in)),
                                         std::istreambuf_iterator<char>());
    const b3::digest expected = impls[0].hash(data);
    for (const auto& impl : impls) {
      if (impl.hash(data) != expected) {
        std::fprintf(stderr, "fastblake-compare: %s: %s gives a different digest\n", path.c_str(),
                     impl.name.c_str());
        return 1;
      }
    }
    std::vector<std::vector<double>> speeds(impls.size());
    for (int round = 0; round < opt.rounds; ++round) {
      for (std::size_t j = 0; j < impls.size(); ++j) {
        const std::size_t which = (j + static_cast<std::size_t>(round)) % impls.size();
        speeds[which].push_back(time_round(impls[which], data, opt.min_time));
      }
    }
    double gbps[3];
    for (std::size_t j = 0; j < impls.size(); ++j) gbps[j] = median(speeds[j]) / 1e9;
    std::string name = std::filesystem::path(path).filename().string();
    if (name.size() > 28) name = name.substr(0, 25) + "...";
    std::printf("%-28s %9s %10.3f %11.3f %11.3f %9.2fx %9.2fx\n", name.c_str(),
                human_size(data.size()).c_str(), gbps[0], gbps[1], gbps[2], gbps[0] / gbps[1],
                gbps[0] / gbps[2]);
  }
  return status;
}
