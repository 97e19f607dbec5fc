// The GPU classes, registered when fastblake-bench is built with the CUDA backend and a device
// is present: gpu-resident (input already in device memory), gpu-end-to-end (from pageable
// host memory, and from pinned memory, next to cudaMemcpy of the same bytes from pinned
// memory: the link's bound), gpu-batch (1,000,000 inputs of 1 KiB in one device buffer) and
// gpu-file (a file in the page cache); and the resident and batch rows once per kernel
// variant (cuda-VARIANT). Each row's digest is checked against the CPU library's first.
#include <cuda_runtime.h>

#include <memory>
#include <string>
#include <vector>

#include <fastblake/blake3.hpp>
#include <fastblake/cuda.hpp>

#include "common.hpp"
#include "gpu_rows.hpp"

namespace fastblake::bench {
namespace {

namespace b3 = fastblake::blake3;

using gpu_rows::batch_count;
using gpu_rows::batch_item;
constexpr const auto& gpu_sizes = gpu_rows::sizes;

// One context, and input() copied to the device and to pinned host memory, made on first use.
struct gpu_state {
  cuda::context ctx;
  std::byte* device = nullptr;
  std::byte* pinned = nullptr;
  std::uint64_t* batch_tables = nullptr;
  std::byte* batch_digests = nullptr;

  static gpu_state& get() {
    static gpu_state s;
    return s;
  }

 private:
  gpu_state() {
    const auto in = input(1u << 30);
    cudaMalloc(&device, in.size());
    cudaMemcpy(device, in.data(), in.size(), cudaMemcpyHostToDevice);
    cudaHostAlloc(&pinned, in.size(), cudaHostAllocDefault);
    std::copy(in.begin(), in.end(), pinned);
    std::vector<std::uint64_t> tables(2 * batch_count);
    for (std::size_t i = 0; i < batch_count; ++i) {
      tables[i] = i * batch_item;
      tables[batch_count + i] = batch_item;
    }
    cudaMalloc(&batch_tables, tables.size() * sizeof(std::uint64_t));
    cudaMemcpy(batch_tables, tables.data(), tables.size() * sizeof(std::uint64_t),
               cudaMemcpyHostToDevice);
    cudaMalloc(&batch_digests, 32 * batch_count);
  }
};

bool matches(benchmark::State& state, const b3::digest& got, std::span<const std::byte> in) {
  if (got == b3::hash(in)) return true;
  fail(state, "GPU digest differs from the CPU library's");
  return false;
}

// Uses kernel variant `variant` ("": the default) for the row's context.
void use_variant(gpu_state& g, const std::string& variant) {
  g.ctx.set_kernel_variant(variant.empty() ? "default" : variant);
}

void resident(benchmark::State& state, std::size_t size, const std::string& variant) {
  gpu_state& g = gpu_state::get();
  use_variant(g, variant);
  if (!matches(state, cuda::digest_of(g.ctx.hash_resident(g.device, size)), input(size))) return;
  for (auto _ : state)
    benchmark::DoNotOptimize(cuda::digest_of(g.ctx.hash_resident(g.device, size)));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * size));
}

void end_to_end(benchmark::State& state, bool pinned, std::size_t size) {
  gpu_state& g = gpu_state::get();
  use_variant(g, "");
  const std::span<const std::byte> in(pinned ? g.pinned : input(size).data(), size);
  if (!matches(state, cuda::digest_of(g.ctx.hash_host(in)), input(size))) return;
  for (auto _ : state) benchmark::DoNotOptimize(cuda::digest_of(g.ctx.hash_host(in)));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * size));
}

// The bound of end-to-end hashing: the same bytes copied from pinned memory to the device.
void copy_bound(benchmark::State& state, std::size_t size) {
  gpu_state& g = gpu_state::get();
  std::byte* target = nullptr;
  if (cudaMalloc(&target, size) != cudaSuccess) {
    fail(state, "cudaMalloc");
    return;
  }
  for (auto _ : state) cudaMemcpy(target, g.pinned, size, cudaMemcpyHostToDevice);
  cudaFree(target);
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * size));
}

void batch(benchmark::State& state, const std::string& variant) {
  gpu_state& g = gpu_state::get();
  use_variant(g, variant);
  cudaMemset(g.batch_digests, 0, 32 * batch_count);  // a variant must write its own
  const auto run = [&] {
    g.ctx.hash_batch_resident(g.device, g.batch_tables, g.batch_tables + batch_count, batch_count,
                              g.batch_digests);
  };
  run();
  // Spot checks: the first, a middle and the last input.
  for (std::size_t i : {std::size_t{0}, batch_count / 2, batch_count - 1}) {
    b3::digest::bytes_type d;
    cudaMemcpy(d.data(), g.batch_digests + 32 * i, 32, cudaMemcpyDeviceToHost);
    if (!matches(state, b3::digest(d), input((i + 1) * batch_item).subspan(i * batch_item))) return;
  }
  for (auto _ : state) run();
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * batch_count * batch_item));
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * batch_count));
}

void file(benchmark::State& state, std::size_t size) {
  gpu_state& g = gpu_state::get();
  use_variant(g, "");
  const auto& path = bench_file(size);
  std::error_code ec;
  if (!matches(state, cuda::digest_of(g.ctx.hash_file(path, ec)), input(size)) || ec) return;
  for (auto _ : state) benchmark::DoNotOptimize(cuda::digest_of(g.ctx.hash_file(path, ec)));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * size));
}

}  // namespace

void register_gpu() {
  if (cuda::device_count() == 0) {
    benchmark::AddCustomContext("gpu", "none");
    return;
  }
  cudaDeviceProp properties{};
  cudaGetDeviceProperties(&properties, 0);
  benchmark::AddCustomContext("gpu", properties.name);
  for (std::size_t size : gpu_sizes) {
    add_row(row_name("blake3", "gpu-resident", "cuda", size), resident, size, std::string());
    add_row(row_name("blake3", "gpu-end-to-end", "cuda", size), end_to_end, false, size);
    add_row(row_name("blake3", "gpu-end-to-end", "cuda-pinned", size), end_to_end, true, size);
    add_row(row_name("blake3", "gpu-end-to-end", "cuda_memcpy", size), copy_bound, size);
  }
  add_row(row_name("blake3", "gpu-batch", "cuda", batch_count * batch_item, 0, batch_count), batch,
          std::string());
  // The kernel variants (cuda.hpp), each against the others: implementation cuda-VARIANT.
  for (const std::string& variant : cuda::context::kernel_variants()) {
    const std::string impl = "cuda-" + variant;
    if (variant.rfind("batch-", 0) == 0) {
      add_row(row_name("blake3", "gpu-batch", impl, batch_count * batch_item, 0, batch_count),
              batch, variant);
    } else {
      add_row(row_name("blake3", "gpu-resident", impl, 1u << 30), resident, std::size_t{1} << 30,
              variant);
    }
  }
  add_row(row_name("blake3", "gpu-file", "cuda", 1u << 30), file, std::size_t{1} << 30);
}

}  // namespace fastblake::bench
