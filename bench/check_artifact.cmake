# Runs a few rows of fastblake-bench into a JSON artifact, requires --validate to accept it and
# bench/report.py to read it (when Python is here), then damages it (one row's statistics removed;
# a row misnamed) and requires --validate to refuse it.
file(MAKE_DIRECTORY "${WORK_DIR}")
set(artifact "${WORK_DIR}/artifact.json")
execute_process(
  COMMAND "${BENCH}" "--benchmark_filter=^(blake3/serial/(portable|official_c)|sha256/serial/openssl)/1024/real_time$"
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
find_program(PYTHON3 python3)
if(PYTHON3)
  execute_process(COMMAND "${PYTHON3}" "${REPORT}" "${artifact}" OUTPUT_VARIABLE tables
                  RESULT_VARIABLE status)
  if(NOT status EQUAL 0 OR NOT tables MATCHES "\\| blake3 \\| serial \\| 1 KiB \\| portable")
    message(FATAL_ERROR "bench/report.py could not summarise the artifact: ${status}\n${tables}")
  endif()
endif()
file(READ "${artifact}" text)
# expect_refused(FROM TO WHAT): --validate must refuse the artifact with FROM replaced by TO.
function(expect_refused from to what)
  string(REPLACE "${from}" "${to}" damaged "${text}")
  file(WRITE "${WORK_DIR}/damaged.json" "${damaged}")
  execute_process(COMMAND "${BENCH}" --validate "${WORK_DIR}/damaged.json"
                  RESULT_VARIABLE status ERROR_QUIET)
  if(status EQUAL 0)
    message(FATAL_ERROR "--validate accepted an artifact with ${what}")
  endif()
endfunction()
expect_refused("\"aggregate_name\": \"p95\"" "\"aggregate_name\": \"gone\"" "no p95 statistics")
expect_refused("blake3/serial/official_c/1024" "blake3/hashing/official_c/1024"
               "a row named outside the scheme")
