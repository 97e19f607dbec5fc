# The command-line suites of the tools (tests/cli/*.py), included by tests/CMakeLists.txt.

# The tools' command lines: expected outputs, and the official b3sum's and GNU coreutils'
# b2sum's outputs byte for byte where Debian's packages are installed.
if(TARGET b3sum AND NOT CMAKE_CROSSCOMPILING)
  if(Python3_FOUND)
    add_test(NAME limits_cli
             COMMAND Python3::Interpreter "${CMAKE_CURRENT_SOURCE_DIR}/cli/limits_test.py"
                     "$<TARGET_FILE:b3sum>" "$<TARGET_FILE:b2sum>")
    set_tests_properties(limits_cli PROPERTIES LABELS cli COST 20)
    # Hostile inputs for both tools; I/O errors are injected by an LD_PRELOAD library, built
    # without sanitizers so that it loads into any build of the tools.
    enable_language(C)
    add_library(fastblake_fail_io MODULE tools/fail_io.c)
    target_link_libraries(fastblake_fail_io PRIVATE ${CMAKE_DL_LIBS})
    target_compile_options(fastblake_fail_io PRIVATE -fno-sanitize=all)
    target_link_options(fastblake_fail_io PRIVATE -fno-sanitize=all)
    # Each CLI suite in the C locale (label cli) and two UTF-8 ones (cli-locale; scripts/test
    # makes en_US.UTF-8; a locale that is missing skips its run).
    foreach(locale C C.UTF-8 en_US.UTF-8)
      set(suffix "")
      set(label cli)
      if(NOT locale STREQUAL "C")
        set(suffix "_${locale}")
        set(label cli-locale)
      endif()
      foreach(tool b3sum b2sum)
        add_test(NAME ${tool}_cli${suffix}
                 COMMAND Python3::Interpreter "${CMAKE_CURRENT_SOURCE_DIR}/cli/${tool}_test.py"
                         "$<TARGET_FILE:${tool}>")
        set_tests_properties(${tool}_cli${suffix} PROPERTIES LABELS ${label} COST 20
                             ENVIRONMENT "FASTBLAKE_TEST_LOCALE=${locale};FASTBLAKE_FAIL_IO=$<TARGET_FILE:fastblake_fail_io>"
                             SKIP_RETURN_CODE 77)
      endforeach()
    endforeach()
    # Every allocation failing in turn (tests/tools/fail_alloc.c, preloaded).
    add_library(fastblake_fail_alloc MODULE tools/fail_alloc.c)
    target_compile_options(fastblake_fail_alloc PRIVATE -fno-sanitize=all)
    target_link_options(fastblake_fail_alloc PRIVATE -fno-sanitize=all)
    add_test(NAME allocation_failures_cli
             COMMAND Python3::Interpreter "${CMAKE_CURRENT_SOURCE_DIR}/cli/allocation_test.py"
                     "$<TARGET_FILE:b3sum>" "$<TARGET_FILE:b2sum>"
                     "$<TARGET_FILE:fastblake_fail_alloc>")
    set_tests_properties(allocation_failures_cli PROPERTIES LABELS cli SKIP_RETURN_CODE 77)
    add_test(NAME coreutils_sum_tests_cli
             COMMAND Python3::Interpreter "${CMAKE_CURRENT_SOURCE_DIR}/cli/coreutils_sum_test.py"
                     "$<TARGET_FILE:b2sum>")
    set_tests_properties(coreutils_sum_tests_cli PROPERTIES LABELS cli)
    add_test(NAME b3sum_official_tests_cli
             COMMAND Python3::Interpreter "${CMAKE_CURRENT_SOURCE_DIR}/cli/b3sum_official_test.py"
                     "$<TARGET_FILE:b3sum>")
    set_tests_properties(b3sum_official_tests_cli PROPERTIES LABELS cli)
    add_test(NAME pipelines_cli
             COMMAND Python3::Interpreter "${CMAKE_CURRENT_SOURCE_DIR}/cli/pipelines_test.py"
                     "$<TARGET_FILE:b3sum>" "$<TARGET_FILE:b2sum>"
                     "$<TARGET_FILE:fastblake_fail_io>")
    set_tests_properties(pipelines_cli PROPERTIES LABELS cli COST 20)
    add_test(NAME hostile_inputs_cli
             COMMAND Python3::Interpreter "${CMAKE_CURRENT_SOURCE_DIR}/cli/hostile_test.py"
                     "$<TARGET_FILE:b3sum>" "$<TARGET_FILE:b2sum>"
                     "$<TARGET_FILE:fastblake_fail_io>")
    set_tests_properties(hostile_inputs_cli PROPERTIES LABELS cli)
    # bao: Bao's vectors through every command; against the Rust bao tool where
    # FASTBLAKE_RUST_BAO (the environment when ctest runs) names it.
    add_test(NAME bao_cli
             COMMAND Python3::Interpreter "${CMAKE_CURRENT_SOURCE_DIR}/cli/bao_test.py"
                     "$<TARGET_FILE:bao>" "${CMAKE_CURRENT_SOURCE_DIR}/vectors/bao_test_vectors.json")
    set_tests_properties(bao_cli PROPERTIES LABELS cli COST 20
                         ENVIRONMENT "FASTBLAKE_FAIL_IO=$<TARGET_FILE:fastblake_fail_io>")
    # bao against hostile headers, outputs that are inputs, --count=0, FIFOs, shrinking inputs.
    add_test(NAME bao_hostile_cli
             COMMAND Python3::Interpreter "${CMAKE_CURRENT_SOURCE_DIR}/cli/bao_hostile_test.py"
                     "$<TARGET_FILE:bao>")
    set_tests_properties(bao_hostile_cli PROPERTIES LABELS cli COST 15
                         ENVIRONMENT "FASTBLAKE_FAIL_IO=$<TARGET_FILE:fastblake_fail_io>")
    # Every tool under an address-space limit, from the lowest at which it starts.
    add_test(NAME address_space_cli
             COMMAND Python3::Interpreter "${CMAKE_CURRENT_SOURCE_DIR}/cli/address_space_test.py"
                     "$<TARGET_FILE:b3sum>" "$<TARGET_FILE:b2sum>" "$<TARGET_FILE:bao>")
    set_tests_properties(address_space_cli PROPERTIES LABELS cli COST 10)
  endif()
endif()
