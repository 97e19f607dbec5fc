# The installed CMake package asks only for what a consumer asks for: the build installed to
# a scratch prefix, then find_package(fastblake) with and without its components, on a path
# where MPI and the CUDA toolkit cannot be found (CMAKE_DISABLE_FIND_PACKAGE_*) and, for the
# components the build has, where they can. HAS_CUDA and HAS_MPI: whether the build made
# fastblake::cuda and fastblake::mpi.
cmake_minimum_required(VERSION 3.25)
include("${CMAKE_CURRENT_LIST_DIR}/common.cmake")
set(prefix "${WORK_DIR}/prefix")
run("${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${prefix}")

# consume(NAME EXPECT_SUCCESS EXPECTED_OUTPUT_REGEX ARGS...): configures the consumer with ARGS.
set(case 0)
function(consume name expect_success expected)
  math(EXPR case "${case} + 1")
  set(case ${case} PARENT_SCOPE)
  execute_process(
    COMMAND "${CMAKE_COMMAND}" -S "${CMAKE_CURRENT_LIST_DIR}/components"
            -B "${WORK_DIR}/consumer-${case}" -G "${GENERATOR}" "-DCMAKE_CXX_COMPILER=${CXX}"
            "-DCMAKE_PREFIX_PATH=${prefix}" ${ARGN}
    OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE status)
  set(succeeded FALSE)
  if(status EQUAL 0)
    set(succeeded TRUE)
  endif()
  if(NOT succeeded STREQUAL expect_success OR NOT "${out}${err}" MATCHES "${expected}")
    message(FATAL_ERROR "${name}: configure status ${status}, expected "
                        "${expect_success}, output not matching '${expected}':\n${out}\n${err}")
  endif()
  message(STATUS "${name}: as expected")
endfunction()
set(without_either -DCMAKE_DISABLE_FIND_PACKAGE_MPI=ON
                   -DCMAKE_DISABLE_FIND_PACKAGE_CUDAToolkit=ON)

consume("no component, neither MPI nor CUDA to be found" TRUE
        "fastblake targets: fastblake;" ${without_either})
consume("an unknown component" FALSE "fastblake has no component 'gpu'"
        "-DFASTBLAKE_COMPONENTS=gpu")
foreach(component cuda mpi)
  string(TOUPPER "${component}" upper)
  if(HAS_${upper})
    consume("${component}, its dependency found" TRUE
            "fastblake targets: fastblake;[a-z;]*${component}" "-DFASTBLAKE_COMPONENTS=${component}")
    consume("${component}, its dependency not to be found" FALSE
            "fastblake's '${component}' component needs" ${without_either}
            "-DFASTBLAKE_COMPONENTS=${component}")
  else()
    consume("${component}, not in this build" FALSE
            "fastblake was installed without its '${component}' component"
            "-DFASTBLAKE_COMPONENTS=${component}")
  endif()
  consume("${component} optional, not to be found" TRUE "${component} found: FALSE"
          ${without_either}
          "-DFASTBLAKE_OPTIONAL_COMPONENTS=${component}")
endforeach()
