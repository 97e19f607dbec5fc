# Runs TOOL and fails unless its standard output equals the file EXPECTED.
execute_process(COMMAND "${TOOL}" OUTPUT_VARIABLE output RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "${TOOL} failed: ${status}")
endif()
file(READ "${EXPECTED}" expected)
if(NOT output STREQUAL expected)
  message(FATAL_ERROR "${TOOL}'s output differs from ${EXPECTED}")
endif()
