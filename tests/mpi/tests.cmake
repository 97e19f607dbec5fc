# fastblake::mpi and b3sum-mpi under mpiexec, included by tests/CMakeLists.txt.

# fastblake::mpi and b3sum-mpi under mpiexec on this machine, oversubscribed. Open MPI refuses
# to run as root (CI's user) unless told, which its two variables do; elsewhere they do nothing.
# fastblake_mpi_environment(TEST): TEST's environment, with a session directory of its own:
# two jobs at once in Open MPI's default one under /tmp race (the first to end removes it while
# the other makes its own in it: exit 1, nothing said), and ctest runs tests side by side.
function(fastblake_mpi_environment test)
  set(session "${CMAKE_CURRENT_BINARY_DIR}/mpi-sessions/${test}")
  file(MAKE_DIRECTORY "${session}")
  set_tests_properties(${test} PROPERTIES ENVIRONMENT
    "${_mpi_environment};OMPI_MCA_orte_tmpdir_base=${session}")
endfunction()
if(TARGET fastblake_mpi AND MPIEXEC_EXECUTABLE AND NOT CMAKE_CROSSCOMPILING)
  set(_mpi_environment "OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1"
      "OMPI_MCA_rmaps_base_oversubscribe=1"
      # Open MPI's own allocations, left at exit, are not this project's leaks.
      "ASAN_OPTIONS=detect_leaks=0:verify_asan_link_order=0")
  add_executable(fastblake_mpi_tests mpi/mpi_test.cpp)
  target_link_libraries(fastblake_mpi_tests PRIVATE fastblake_mpi GTest::gtest fastblake_warnings)
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    # GCC 12 reports impossible overlaps in inlined std::string concatenation (GCC PR 105329).
    target_compile_options(fastblake_mpi_tests PRIVATE -Wno-restrict)
  endif()
  foreach(ranks 1 2 3 4 8)
    add_test(NAME mpi_library_${ranks}_ranks
             COMMAND "${MPIEXEC_EXECUTABLE}" ${MPIEXEC_NUMPROC_FLAG} ${ranks} ${MPIEXEC_PREFLAGS}
                     "$<TARGET_FILE:fastblake_mpi_tests>" ${MPIEXEC_POSTFLAGS})
    set_tests_properties(mpi_library_${ranks}_ranks PROPERTIES LABELS mpi TIMEOUT 600
                         PROCESSORS 2)
    fastblake_mpi_environment(mpi_library_${ranks}_ranks)
  endforeach()
  if(TARGET b3sum-mpi AND Python3_FOUND)
    add_test(NAME b3sum_mpi_cli
             COMMAND Python3::Interpreter "${CMAKE_CURRENT_SOURCE_DIR}/cli/b3sum_mpi_test.py"
                     "${MPIEXEC_EXECUTABLE}" "$<TARGET_FILE:b3sum-mpi>" "$<TARGET_FILE:b3sum>"
                     "$<TARGET_FILE:fastblake_fail_io>")
    # One core: it spends its time waiting for mpiexec (two jobs at a time).
    set_tests_properties(b3sum_mpi_cli PROPERTIES LABELS mpi COST 60 TIMEOUT 900
                         SKIP_RETURN_CODE 77)
    fastblake_mpi_environment(b3sum_mpi_cli)
    # Across 4 hosts made of network namespaces (scripts/mpi-hosts: root, or skipped). They
    # share the machine's network setup, so one at a time.
    add_test(NAME b3sum_mpi_hosts
             COMMAND Python3::Interpreter "${CMAKE_CURRENT_SOURCE_DIR}/cli/b3sum_mpi_hosts_test.py"
                     "${PROJECT_SOURCE_DIR}/scripts/mpi-hosts" "$<TARGET_FILE:b3sum-mpi>"
                     "$<TARGET_FILE:b3sum>" "$<TARGET_FILE:fastblake_fail_io>")
    set_tests_properties(b3sum_mpi_hosts PROPERTIES LABELS mpi COST 60 TIMEOUT 900
                         SKIP_RETURN_CODE 77 RESOURCE_LOCK mpi_hosts)
    fastblake_mpi_environment(b3sum_mpi_hosts)
  endif()
endif()
