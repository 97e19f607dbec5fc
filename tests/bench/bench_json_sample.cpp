// Writes a sample of the device benchmark's JSON (cuda/tests/check/bench_json.hpp) to argv[1]:
// the ctest gpu_bench_json_reads_in_report then holds bench/report.py to reading it, since the
// real artifact comes only from a GPU machine.
#include <fstream>
#include <vector>

#include "../../cuda/tests/check/bench_json.hpp"

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  using fastblake::bench::bench_row;
  const std::size_t gib = std::size_t{1} << 30;
  const std::vector<bench_row> rows = {
      {"blake3/gpu-resident/cuda/1073741824", gib, {1.1e6, 1.0e6, 1.2e6}, ""},
      {"blake3/gpu-resident/cuda-rolled/1073741824", gib, {0.9e6, 0.8e6}, ""},
      {"blake3/gpu-end-to-end/cuda-pinned/1073741824", gib, {30e6, 31e6, 29e6}, ""},
      {"blake3/gpu-end-to-end/cuda_memcpy/1073741824", gib, {25e6, 24e6, 26e6}, ""},
      {"blake3/gpu-batch/cuda-batch-vector/x1000000/1024000000",
       1024000000,
       {},
       "a \"failed\" row"},
  };
  std::ofstream out(argv[1]);
  fastblake::bench::write_bench_json(
      out, {{"gpu", "Sample GPU"}, {"detected_backend", "cuda on Sample GPU"}}, 3, rows);
  return out ? 0 : 1;
}
