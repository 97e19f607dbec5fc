# The benchmarks' reports, included by tests/CMakeLists.txt.

# The device benchmark's JSON (written without Google Benchmark) reads in bench/report.py:
# the median of each row, the failed row left out. Needs no CUDA; where the benchmarks are
# built, and natively: the host runs the sample program.
if(TARGET fastblake-bench AND Python3_FOUND AND NOT CMAKE_CROSSCOMPILING)
  add_executable(fastblake_gpu_bench_json_sample bench/bench_json_sample.cpp)
  target_link_libraries(fastblake_gpu_bench_json_sample PRIVATE fastblake_warnings)
  target_compile_features(fastblake_gpu_bench_json_sample PRIVATE cxx_std_20)
  add_test(NAME gpu_bench_json_reads_in_report
    COMMAND sh -c "\"$1\" \"$2\" && \"$4\" \"$3\" \"$2\" > \"$2.md\" &&
                   grep -qF '| 1 GiB | 976.13 | 1263.23 |' \"$2.md\" &&
                   grep -q 'cuda_memcpy' \"$2.md\" && ! grep -q 'batch-vector' \"$2.md\" &&
                   grep -q 'on the cuda on Sample GPU backend' \"$2.md\""
            sh $<TARGET_FILE:fastblake_gpu_bench_json_sample>
            "${CMAKE_CURRENT_BINARY_DIR}/gpu-bench-sample.json"
            "${PROJECT_SOURCE_DIR}/bench/report.py" "${Python3_EXECUTABLE}")
  set_tests_properties(gpu_bench_json_reads_in_report PROPERTIES LABELS bench)
endif()
