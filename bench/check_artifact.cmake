# Runs two rows of fastblake-bench into a JSON artifact, requires --validate to accept it, then
# damages it (one row's statistics removed) and requires --validate to refuse it.
file(MAKE_DIRECTORY "${WORK_DIR}")
set(artifact "${WORK_DIR}/artifact.json")
execute_process(
  COMMAND "${BENCH}" "--benchmark_filter=^(blake3/hash/portable|sha256/openssl)/1024$"
          --benchmark_min_time=0.01 --benchmark_repetitions=2 "--benchmark_out=${artifact}"
          --benchmark_out_format=json
  OUTPUT_QUIET RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "fastblake-bench failed: ${status}")
endif()
execute_process(COMMAND "${BENCH}" --validate "${artifact}" RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "--validate refused a fresh artifact")
endif()
file(READ "${artifact}" text)
string(REPLACE "\"aggregate_name\": \"p95\"" "\"aggregate_name\": \"gone\"" damaged "${text}")
file(WRITE "${WORK_DIR}/damaged.json" "${damaged}")
execute_process(COMMAND "${BENCH}" --validate "${WORK_DIR}/damaged.json" RESULT_VARIABLE status
                ERROR_QUIET)
if(status EQUAL 0)
  message(FATAL_ERROR "--validate accepted an artifact without p95 statistics")
endif()
