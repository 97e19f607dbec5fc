// The device check's benchmark: the gpu-* rows of fastblake-bench (bench/gpu_bench.cpp), timed
// with CUDA events around each call, without Google Benchmark (a bare GPU machine has none).
// Every row's digest is checked against the CPU library's first; a row whose digest differs is
// reported with an error and no time. Writes JSON in the harness's row names and Google
// Benchmark's layout (bench_json.hpp), so that bench/report.py reads it.
// Besides the rows of fastblake-bench, one row per kernel variant (context::kernel_variants()):
// the resident rows at 16 MiB and 1 GiB and the batch row, as implementation cuda-VARIANT, so
// that one device run compares them.
// Usage: fastblake-gpu-bench OUTPUT.json [REPETITIONS]
//        fastblake-gpu-bench --devices      (prints how many CUDA devices this process sees)
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <fastblake/blake3.hpp>
#include <fastblake/cuda.hpp>
#include <fastblake/file.hpp>
#include <fastblake/thread_pool.hpp>

#include "../../../bench/gpu_rows.hpp"
#include "bench_json.hpp"

namespace {

using fastblake::bench::bench_row;
using fastblake::bench::write_bench_json;

namespace b3 = fastblake::blake3;
namespace cuda = fastblake::cuda;

using fastblake::bench::gpu_rows::batch_count;
using fastblake::bench::gpu_rows::batch_item;
using fastblake::bench::gpu_rows::sizes;

// Nanoseconds of one call of f, by CUDA events on `stream` around it. The context works on
// that stream (set_stream), so the events bracket its resident and batch kernels exactly, and
// every other call returns only once its work is done.
template <class F>
double timed_ns(cudaStream_t stream, F&& f) {
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventRecord(start, stream);
  f();
  cudaEventRecord(stop, stream);
  cudaEventSynchronize(stop);
  float ms = 0;
  cudaEventElapsedTime(&ms, start, stop);
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  return 1e6 * ms;
}

// The machine line of the report: the host's processor, the GPU, the compiler, and the commit
// that scripts/gpu-check passes in FASTBLAKE_COMMIT.
std::vector<std::pair<std::string, std::string>> context_of(const char* gpu) {
  std::string cpu = "unknown";
  std::ifstream info("/proc/cpuinfo");
  for (std::string line; std::getline(info, line);) {
    if (line.rfind("model name", 0) == 0 && line.find(':') != std::string::npos) {
      cpu = line.substr(line.find(':') + 2);
      break;
    }
  }
  const char* commit = std::getenv("FASTBLAKE_COMMIT");
  char date[32] = "";
  const std::time_t now = std::time(nullptr);
  std::strftime(date, sizeof date, "%Y-%m-%d", std::gmtime(&now));
#if defined(__clang__)
  const std::string compiler = "clang " __clang_version__;
#else
  const std::string compiler = "gcc " __VERSION__;
#endif
  return {{"gpu", gpu},
          {"cpu_model", cpu},
          {"num_cpus", std::to_string(std::thread::hardware_concurrency())},
          {"compiler", compiler},
          {"commit", commit != nullptr ? commit : "unknown"},
          {"detected_backend", std::string("cuda on ") + gpu},
          {"date", date}};
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: fastblake-gpu-bench OUTPUT.json [REPETITIONS] | --devices\n");
    return 2;
  }
  if (std::string(argv[1]) == "--devices") {
    std::printf("%d\n", cuda::device_count());
    return 0;
  }
  const int repetitions = argc > 2 ? std::max(1, std::atoi(argv[2])) : 5;
  std::ofstream out(argv[1]);
  cudaDeviceProp properties{};
  const bool device =
      cuda::device_count() > 0 && cudaGetDeviceProperties(&properties, 0) == cudaSuccess;
  std::vector<bench_row> rows;
  if (device) {
    cuda::context ctx;
    fastblake::thread_pool& pool = fastblake::thread_pool::default_pool();
    cudaStream_t stream = nullptr;
    cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
    ctx.set_stream(stream);
    std::vector<std::byte> host(1u << 30);
    for (std::size_t i = 0; i < host.size(); ++i) {
      host[i] = static_cast<std::byte>((i * 2654435761u) >> 13);
    }
    std::byte* on_device = nullptr;
    std::byte* pinned = nullptr;
    std::byte* target = nullptr;
    cudaMalloc(&on_device, host.size());
    cudaMalloc(&target, host.size());
    cudaMemcpy(on_device, host.data(), host.size(), cudaMemcpyHostToDevice);
    cudaHostAlloc(&pinned, host.size(), cudaHostAllocDefault);
    std::copy(host.begin(), host.end(), pinned);
    const auto run = [&](const std::string& name, std::size_t bytes, auto&& call,
                         auto&& digest_ok) {
      bench_row r{name, bytes, {}, ""};
      try {
        call();
        if (!digest_ok()) r.error = "GPU digest differs from the CPU library's";
        for (int i = 0; !r.error.size() && i < repetitions; ++i) {
          r.ns.push_back(timed_ns(stream, call));
        }
      } catch (const std::exception& e) {
        r.error = e.what();
      }
      std::fprintf(stderr, "%s: %s\n", name.c_str(), r.error.empty() ? "ok" : r.error.c_str());
      rows.push_back(std::move(r));
    };
    for (std::size_t size : sizes) {
      const std::span<const std::byte> in(host.data(), size);
      // hash_parallel never offloads: the reference stays on the CPU.
      const b3::digest want = b3::hash_parallel(in, pool);
      b3::digest got;
      const std::string bytes = std::to_string(size);
      run(
          "blake3/gpu-resident/cuda/" + bytes, size,
          [&] { got = cuda::digest_of(ctx.hash_resident(on_device, size)); },
          [&] { return got == want; });
      run(
          "blake3/gpu-end-to-end/cuda/" + bytes, size,
          [&] { got = cuda::digest_of(ctx.hash_host(in)); }, [&] { return got == want; });
      run(
          "blake3/gpu-end-to-end/cuda-pinned/" + bytes, size,
          [&] { got = cuda::digest_of(ctx.hash_host(std::span<const std::byte>(pinned, size))); },
          [&] { return got == want; });
      // The host's own: its cores alone, and the CPU library's automatic offload to this GPU.
      run(
          "blake3/gpu-end-to-end/cpu-parallel/" + bytes, size,
          [&] { got = b3::hash_parallel(in, pool); }, [&] { return got == want; });
      run(
          "blake3/gpu-end-to-end/automatic/" + bytes, size, [&] { got = b3::hash(in); },
          [&] { return got == want; });
      run(
          "blake3/gpu-end-to-end/cuda_memcpy/" + bytes, size,
          [&] { cudaMemcpyAsync(target, pinned, size, cudaMemcpyHostToDevice, stream); },
          [] { return true; });
    }
    {
      // A file in the page cache: the GPU's pipeline, and the CPU library's mapped file on
      // the host's cores.
      const std::string path = "/tmp/fastblake-gpu-bench.bin";
      std::ofstream(path, std::ios::binary)
          .write(reinterpret_cast<const char*>(host.data()),
                 static_cast<std::streamsize>(host.size()));
      const b3::digest want = b3::hash_parallel(host, pool);
      b3::digest got;
      std::error_code ec;
      const std::string bytes = std::to_string(host.size());
      run(
          "blake3/gpu-file/cuda/" + bytes, host.size(),
          [&] { got = cuda::digest_of(ctx.hash_file(path, ec)); },
          [&] { return !ec && got == want; });
      b3::file_options mapped;
      mapped.strategy = b3::file_strategy::mmap_parallel;
      run(
          "blake3/gpu-file/cpu-mmap-parallel/" + bytes, host.size(),
          [&] { got = b3::hash_file(path, mapped, ec); }, [&] { return !ec && got == want; });
      std::remove(path.c_str());
    }
    std::vector<std::uint64_t> tables(2 * batch_count);
    for (std::size_t i = 0; i < batch_count; ++i) {
      tables[i] = i * batch_item;
      tables[batch_count + i] = batch_item;
    }
    std::uint64_t* device_tables = nullptr;
    std::byte* digests = nullptr;
    cudaMalloc(&device_tables, 8 * tables.size());
    cudaMalloc(&digests, 32 * batch_count);
    cudaMemcpy(device_tables, tables.data(), 8 * tables.size(), cudaMemcpyHostToDevice);
    const auto batch_row = [&](const std::string& impl) {
      // Poisoned first: a variant that wrote nothing must not pass on the last one's digests.
      cudaMemsetAsync(digests, 0, 32 * batch_count, stream);
      run(
          "blake3/gpu-batch/" + impl + "/x" + std::to_string(batch_count) + "/" +
              std::to_string(batch_count * batch_item),
          batch_count * batch_item,
          [&] {
            ctx.hash_batch_resident(on_device, device_tables, device_tables + batch_count,
                                    batch_count, digests);
          },
          [&] {
            cudaStreamSynchronize(stream);
            for (std::size_t i : {std::size_t{0}, batch_count / 2, batch_count - 1}) {
              b3::digest::bytes_type d;
              cudaMemcpy(d.data(), digests + 32 * i, 32, cudaMemcpyDeviceToHost);
              if (b3::digest(d) != b3::hash_serial(std::span<const std::byte>(
                                       host.data() + i * batch_item, batch_item))) {
                return false;
              }
            }
            return true;
          });
    };
    batch_row("cuda");
    // The variants, each against the others in this run.
    for (const std::string& variant : cuda::context::kernel_variants()) {
      ctx.set_kernel_variant(variant);
      if (variant.rfind("batch-", 0) == 0) {
        batch_row("cuda-" + variant);
      } else {
        for (std::size_t size : {std::size_t{16} << 20, std::size_t{1} << 30}) {
          const b3::digest want =
              b3::hash_parallel(std::span<const std::byte>(host.data(), size), pool);
          b3::digest got;
          run(
              "blake3/gpu-resident/cuda-" + variant + "/" + std::to_string(size), size,
              [&] { got = cuda::digest_of(ctx.hash_resident(on_device, size)); },
              [&] { return got == want; });
        }
      }
    }
    ctx.set_stream(std::nullopt);
    cudaStreamDestroy(stream);
    cudaFree(device_tables);
    cudaFree(digests);
    cudaFree(on_device);
    cudaFree(target);
    cudaFreeHost(pinned);
  }
  write_bench_json(out, context_of(device ? properties.name : "no GPU"), repetitions, rows);
  if (!device) std::fprintf(stderr, "fastblake-gpu-bench: no CUDA device: no rows\n");
  return 0;
}
