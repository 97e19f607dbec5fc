# The library's GoogleTest programs (tests/unit), included by tests/CMakeLists.txt: the unit
# test program over every backend, the allocation counter, and the processes that each read one
# environment override.

add_executable(fastblake_tests
  unit/backend_test.cpp
  unit/blake2_test.cpp
  unit/blake3_many_test.cpp
  unit/blake3_parallel_test.cpp
  unit/blake3_streaming_test.cpp
  unit/blake3_subtree_test.cpp
  unit/bao_files_test.cpp
  unit/bao_hostile_test.cpp
  unit/bao_reader_test.cpp
  unit/bao_stream_test.cpp
  unit/bao_vectors_test.cpp
  unit/blake3_vectors_test.cpp
  unit/digest_test.cpp
  unit/kernel_differential_test.cpp
  unit/thread_pool_test.cpp
  unit/blake2_file_test.cpp
  unit/file_test.cpp
  unit/file_names_test.cpp
  unit/file_progress_test.cpp
  unit/file_hazards_test.cpp
  unit/offload_test.cpp)
# (WebAssembly has no fork().)
if(UNIX AND NOT EMSCRIPTEN)
  target_sources(fastblake_tests PRIVATE unit/fork_test.cpp)
endif()
if(FASTBLAKE_OFFICIAL_BLAKE3_FOUND)
  target_sources(fastblake_tests PRIVATE unit/blake3_differential_test.cpp)
  target_link_libraries(fastblake_tests PRIVATE fastblake_official_blake3)
endif()
# BLAKE2 against libb2, libsodium and OpenSSL (Debian's libb2-dev, libsodium-dev, libssl-dev),
# natively: a cross build has no target copies of them.
if(NOT CMAKE_CROSSCOMPILING)
  find_package(PkgConfig QUIET)
  find_package(OpenSSL QUIET)
  if(PkgConfig_FOUND)
    pkg_check_modules(LIBB2 QUIET IMPORTED_TARGET libb2)
    pkg_check_modules(LIBSODIUM QUIET IMPORTED_TARGET libsodium)
  endif()
  if(LIBB2_FOUND AND LIBSODIUM_FOUND AND OpenSSL_FOUND)
    target_sources(fastblake_tests PRIVATE unit/blake2_differential_test.cpp)
    target_link_libraries(fastblake_tests PRIVATE PkgConfig::LIBB2 PkgConfig::LIBSODIUM
                          OpenSSL::Crypto)
    # The known answers in vectors/blake2_kat.txt are libb2's: regenerated and compared.
    add_executable(fastblake_blake2_kat tools/blake2_kat.cpp)
    target_link_libraries(fastblake_blake2_kat PRIVATE PkgConfig::LIBB2)
    add_test(NAME blake2_kat_is_libb2s
      COMMAND "${CMAKE_COMMAND}" -D "TOOL=$<TARGET_FILE:fastblake_blake2_kat>"
              -D "EXPECTED=${CMAKE_CURRENT_SOURCE_DIR}/vectors/blake2_kat.txt"
              -P "${CMAKE_CURRENT_SOURCE_DIR}/tools/compare_output.cmake")
    set_tests_properties(blake2_kat_is_libb2s PROPERTIES LABELS unit)
  else()
    fastblake_missing(_missing "LIBB2_FOUND|libb2 (libb2-dev)"
                      "LIBSODIUM_FOUND|libsodium (libsodium-dev)" "OpenSSL_FOUND|OpenSSL (libssl-dev)")
    message(STATUS "fastblake: BLAKE2 differential tests skipped: no ${_missing}")
  endif()
endif()
# The tests reach the kernel interface (src/) to run under every kernel configuration.
target_link_libraries(fastblake_tests PRIVATE fastblake_internal GTest::gtest_main
                      fastblake_warnings)
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  # GCC 12 reports impossible overlaps in inlined std::string concatenation (GCC PR 105329).
  target_compile_options(fastblake_tests PRIVATE -Wno-restrict)
endif()
target_compile_definitions(fastblake_tests PRIVATE
  FASTBLAKE_BLAKE3_VECTORS="${CMAKE_CURRENT_SOURCE_DIR}/vectors/blake3_vectors.txt"
  FASTBLAKE_BLAKE2_KAT="${CMAKE_CURRENT_SOURCE_DIR}/vectors/blake2_kat.txt"
  FASTBLAKE_BAO_VECTORS="${CMAKE_CURRENT_SOURCE_DIR}/vectors/bao_vectors.txt")
# GoogleTest and the headers most of its files include, parsed once for the program instead of
# in each of its files, in every preset that builds it: 4.7 s to 3.2 s a file with GCC 12 when
# the tests were compiled at -O3 (before they moved to -O1: cmake/Testing.cmake).
target_precompile_headers(fastblake_tests PRIVATE
  <gtest/gtest.h> <algorithm> <array> <atomic> <chrono> <cstdint> <cstdlib> <cstring>
  <filesystem> <fstream> <functional> <memory> <span> <string> <system_error> <thread> <vector>
  <fastblake/blake2.hpp> <fastblake/blake3.hpp> <fastblake/thread_pool.hpp>)
# The program's files compiled as two unity files, one a core: 21 s to 14 s on two cores with
# GCC 12 at -O1, in each of the presets that build it.
fastblake_unity_build(fastblake_tests 12)
# Counts allocations by replacing operator new, so it runs as its own executable.
add_executable(fastblake_allocation_tests unit/allocation_test.cpp)
target_link_libraries(fastblake_allocation_tests PRIVATE fastblake::fastblake GTest::gtest_main
                      fastblake_warnings)

# (Under WebAssembly, tests/wasm/tests.cmake runs them.)
if(NOT EMSCRIPTEN)
  fastblake_gtest_program(fastblake_tests PROPERTIES ENVIRONMENT "${FASTBLAKE_TEST_ENVIRONMENT}")
  fastblake_gtest_program(fastblake_allocation_tests)
endif()

# The environment overrides are read once, at a process's first hash: one fresh process per
# name, running the one case `suite` that checks it (which fails where run without
# FASTBLAKE_TEST_<FLAG>=1) and must pass, not skip.
function(fastblake_override_tests prefix suite variable flag)
  foreach(name IN LISTS ARGN)
    add_test(NAME ${prefix}_${name} COMMAND fastblake_tests --gtest_filter=${suite}.*)
    set_tests_properties(${prefix}_${name} PROPERTIES LABELS backend
      ENVIRONMENT "${variable}=${name};FASTBLAKE_TEST_${flag}=1"
      PASS_REGULAR_EXPRESSION "\\[  PASSED  \\] 1 test"
      FAIL_REGULAR_EXPRESSION "SKIPPED|FAILED")
  endforeach()
endfunction()

# FASTBLAKE_BACKEND: every name, including names this build or CPU lacks, one that is no
# backend at all, and the offload names: cpu, and cuda (which this test program does not link).
fastblake_override_tests(backend_override BackendOverride FASTBLAKE_BACKEND BACKEND_OVERRIDE
                         ${FASTBLAKE_KNOWN_BACKENDS} cpu cuda no-such-backend)
# FASTBLAKE_VARIANT: each avx512 variant (on any CPU: elsewhere the name is refused), a
# measurement asked for, and a name that is no variant's.
fastblake_override_tests(variant_override VariantOverride FASTBLAKE_VARIANT VARIANT_OVERRIDE
                         rows512 pairs256 measure no-such-variant)
# An accelerator is named by its plug-in's name: the fake plug-in of offload_test.cpp, named
# "fake-gpu", registered after a first hash, with FASTBLAKE_BACKEND naming it and naming another.
if(UNIX)
  fastblake_override_tests(accelerator_override AcceleratorOverride FASTBLAKE_BACKEND
                           ACCELERATOR_OVERRIDE fake-gpu cuda)
endif()

# Under qemu, detection on a CPU model with the best backend's extension and on one without it
# (FASTBLAKE_QEMU_CPU_WITH and _WITHOUT, from the toolchain file).
if(CMAKE_CROSSCOMPILING AND FASTBLAKE_QEMU_CPU_WITH)
  list(GET FASTBLAKE_TARGET_BACKENDS 0 _best_backend)
  foreach(model WITH WITHOUT)
    if(NOT FASTBLAKE_QEMU_CPU_${model})
      continue()
    endif()
    set(_expected portable)
    if(model STREQUAL "WITH")
      set(_expected ${_best_backend})
    endif()
    string(TOLOWER "${model}" _suffix)
    add_test(NAME backend_detection_${_suffix}_extension
             COMMAND fastblake_tests --gtest_filter=BackendDetection.*)
    set_tests_properties(backend_detection_${_suffix}_extension PROPERTIES LABELS backend
      ENVIRONMENT "QEMU_CPU=${FASTBLAKE_QEMU_CPU_${model}};FASTBLAKE_TEST_EXPECT_BACKEND=${_expected}"
      PASS_REGULAR_EXPRESSION "\\[  PASSED  \\] 1 test"
      FAIL_REGULAR_EXPRESSION "SKIPPED|FAILED")
  endforeach()
endif()
