# What the tests of every wing share, included by the root CMakeLists.txt before the wings when
# FASTBLAKE_BUILD_TESTS is on: GoogleTest, Python, fastblake_gtest_program and the test flags.
# FASTBLAKE_TESTING says whether tests are built (off where GoogleTest is missing); each wing's
# CMakeLists.txt adds its tests/ folder when it is on.
enable_testing()
set(FASTBLAKE_TESTING ON)

# fastblake_test_flags(): in the calling directory, the test programs' own code (and GoogleTest,
# where it is built here) at -O1 in optimised
# builds: GCC compiles it in 60% of the time -O3 takes, in each of the nine presets that build
# the tests at -O3; what they exercise, the library and the tools, keeps the preset's flags.
# GCC and Clang take the last -O of a command line.
# Under ASan (RelWithDebInfo, -O1) at -Og: GCC compiles the test program in 37 s of CPU instead
# of 79, and its cases run in 99 s instead of 88 (-O0: 157). Not under TSan, where the threaded
# cases ran a third longer for a few seconds less of compiling.
macro(fastblake_test_flags)
  if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    add_compile_options("$<$<AND:$<CONFIG:Release>,$<COMPILE_LANGUAGE:C,CXX>>:-O1>")
    if(CMAKE_CXX_FLAGS MATCHES "sanitize=address")
      add_compile_options("$<$<AND:$<CONFIG:RelWithDebInfo>,$<COMPILE_LANGUAGE:C,CXX>>:-Og>")
    endif()
  endif()
endmacro()
# fastblake_test_flags_of(TARGET): the same flags for one target of another directory.
function(fastblake_test_flags_of target)
  if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    target_compile_options(${target} PRIVATE "$<$<AND:$<CONFIG:Release>,$<COMPILE_LANGUAGE:C,CXX>>:-O1>")
    if(CMAKE_CXX_FLAGS MATCHES "sanitize=address")
      target_compile_options(${target} PRIVATE
                             "$<$<AND:$<CONFIG:RelWithDebInfo>,$<COMPILE_LANGUAGE:C,CXX>>:-Og>")
    endif()
  endif()
endfunction()

# Debian's libgtest-dev is built for the host; a cross build compiles GoogleTest from the
# sources Debian ships with it (package googletest).
# Without either, the tests are skipped: they are GoogleTest programs, and the suites beside
# them check the tools those programs' cases call in process.
find_package(GTest QUIET)
set(FASTBLAKE_GOOGLETEST_SOURCE_DIR /usr/src/googletest CACHE PATH
    "GoogleTest's sources, built where no installed GoogleTest is found (Debian: googletest)")
if(NOT GTest_FOUND)
  if(NOT EXISTS "${FASTBLAKE_GOOGLETEST_SOURCE_DIR}/CMakeLists.txt")
    message(STATUS "fastblake: tests skipped: no GoogleTest (libgtest-dev, or googletest's "
                   "sources in FASTBLAKE_GOOGLETEST_SOURCE_DIR)")
    set(FASTBLAKE_TESTING OFF)
    return()
  endif()
  set(BUILD_GMOCK OFF CACHE BOOL "" FORCE)
  set(INSTALL_GTEST OFF CACHE BOOL "" FORCE)
  add_subdirectory("${FASTBLAKE_GOOGLETEST_SOURCE_DIR}" "${PROJECT_BINARY_DIR}/googletest"
                   EXCLUDE_FROM_ALL)
  foreach(_gtest_target gtest gtest_main)
    fastblake_test_flags_of(${_gtest_target})
  endforeach()
  # Debian's GoogleTest 1.12 uses FLT_MAX without <cfloat>, which newer libc++ (macOS's, zig's)
  # no longer brings in through other headers.
  if(APPLE)
    target_compile_options(gtest PUBLIC "SHELL:-include cfloat")
  endif()
  if(NOT TARGET GTest::gtest_main)
    add_library(GTest::gtest_main ALIAS gtest_main)
  endif()
endif()
include(GoogleTest)
# Python runs the command-line suites and the checks of the tests' labels (the host's, where
# the build is a cross build).
find_package(Python3 COMPONENTS Interpreter)
if(NOT Python3_FOUND)
  message(STATUS "fastblake: no Python 3: the command-line suites and the repository's checks "
                 "skipped")
endif()

# Every test carries CTest labels, which the test presets select by (CMakePresets.json; docs/testing.md
# has the table). Each case of a GoogleTest program is one CTest test,
# labelled by tests/labels.cmake when CTest reads them. Each wing's tests/ registers its own.
# Under an emulator, the cases are grouped instead, a process a suite (tests/group_cases.cmake),
# and under the sanitizers (FASTBLAKE_GROUP_CASES, the asan-ubsan preset), whose runtime's start
# and exit cost every process: under ASan the unit test program's 767 cases took 141 s of test
# time one process each (two tests at a time), 89 s in one process alone.
option(FASTBLAKE_GROUP_EMULATED_CASES "Under an emulator, run a suite's cases in one process" ON)
option(FASTBLAKE_GROUP_CASES "Run a suite's cases in one process, emulated or not" OFF)
function(fastblake_gtest_program target)
  if((CMAKE_CROSSCOMPILING_EMULATOR AND FASTBLAKE_GROUP_EMULATED_CASES) OR FASTBLAKE_GROUP_CASES)
    cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "PROPERTIES")
    set(file "${CMAKE_CURRENT_BINARY_DIR}/${target}_groups.cmake")
    file(GENERATE OUTPUT "${file}" CONTENT
"set(fastblake_group_program [==[$<TARGET_FILE:${target}>]==])
set(fastblake_group_emulator [==[${CMAKE_CROSSCOMPILING_EMULATOR}]==])
set(fastblake_group_properties [==[WORKING_DIRECTORY;${CMAKE_CURRENT_BINARY_DIR};${arg_PROPERTIES}]==])
include([==[${PROJECT_SOURCE_DIR}/tests/group_cases.cmake]==])
")
    set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES "${file}")
    return()
  endif()
  gtest_discover_tests(${target} DISCOVERY_TIMEOUT 60 NO_PRETTY_VALUES
                       TEST_LIST fastblake_discovered_tests ${ARGN})
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES
               "${PROJECT_SOURCE_DIR}/tests/labels.cmake")
endfunction()

# qemu-user does not hand a big-endian guest (s390x, ppc64) the SIGBUS of a mapped file that
# shrank: the test of that case is skipped there (it runs natively and under qemu for AArch64).
# Nor is an emulated process's /proc/self/mem its guest memory: tests that read it skip under
# either variable (one variable a platform, as the property takes one value).
set(FASTBLAKE_TEST_ENVIRONMENT "")
if(CMAKE_CROSSCOMPILING AND CMAKE_SYSTEM_PROCESSOR MATCHES "^(s390x?|ppc64)$")
  set(FASTBLAKE_TEST_ENVIRONMENT "FASTBLAKE_TEST_NO_MAPPED_SIGBUS=1")
elseif(CMAKE_CROSSCOMPILING)
  set(FASTBLAKE_TEST_ENVIRONMENT "FASTBLAKE_TEST_EMULATED=1")
endif()

# MPI's tests (mpi/, tools/b3sum-mpi/, the tools' manuals) under mpiexec on this machine,
# oversubscribed. Open MPI refuses to run as root (CI's user) unless told, which its two
# variables do; elsewhere they do nothing.
set(FASTBLAKE_MPI_TEST_ENVIRONMENT "OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1"
    "OMPI_MCA_rmaps_base_oversubscribe=1"
    # The point-to-point layer a job on one machine without a fabric ends up with anyway, named:
    # each rank then skips loading and probing the fabrics' libraries, 0.2 s of every launch.
    "OMPI_MCA_pml=ob1"
    # Open MPI's own allocations, left at exit, are not this project's leaks.
    "ASAN_OPTIONS=detect_leaks=0:verify_asan_link_order=0")
# fastblake_mpi_environment(TEST): TEST's environment, with a session directory of its own:
# two jobs at once in Open MPI's default one under /tmp race (the first to end removes it while
# the other makes its own in it: exit 1, nothing said), and ctest runs tests side by side.
function(fastblake_mpi_environment test)
  set(session "${CMAKE_CURRENT_BINARY_DIR}/mpi-sessions/${test}")
  file(MAKE_DIRECTORY "${session}")
  set_tests_properties(${test} PROPERTIES ENVIRONMENT
    "${FASTBLAKE_MPI_TEST_ENVIRONMENT};OMPI_MCA_orte_tmpdir_base=${session}")
endfunction()
