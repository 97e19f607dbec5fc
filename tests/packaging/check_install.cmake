# Installs the built project to a scratch prefix, then builds the example against it twice:
# with find_package(fastblake) and by hand with the flags of pkg-config's fastblake.pc. Runs
# both and compares their output with the official test vector for the 1025-byte input.
cmake_minimum_required(VERSION 3.25)
set(prefix "${WORK_DIR}/prefix")
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "failed: ${ARGN}\n${out}")
  endif()
endfunction()

set(config_args "")
if(CONFIG)
  set(config_args --config "${CONFIG}")
endif()
run("${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${prefix}" ${config_args})

# The vector input: 1025 bytes, byte i = i % 251; its hash from tests/vectors.
set(input "${WORK_DIR}/input.bin")
execute_process(COMMAND perl -e "binmode STDOUT; print chr($_ % 251) for 0 .. 1024"
                OUTPUT_FILE "${input}" RESULT_VARIABLE status)
file(STRINGS "${SOURCE_DIR}/tests/vectors/blake3_vectors.txt" line REGEX "^1025 ")
string(SUBSTRING "${line}" 5 64 expected)

function(expect_hash program)
  execute_process(COMMAND "${program}" "${input}" OUTPUT_VARIABLE out RESULT_VARIABLE status)
  if(NOT status EQUAL 0 OR NOT out STREQUAL "${expected}  ${input}\n")
    message(FATAL_ERROR "${program} printed '${out}' (status ${status}); "
                        "expected '${expected}  ${input}'")
  endif()
endfunction()

# 1. find_package(fastblake CONFIG)
run("${CMAKE_COMMAND}" -S "${SOURCE_DIR}/examples" -B "${WORK_DIR}/cmake-consumer"
    -G "${GENERATOR}" "-DCMAKE_CXX_COMPILER=${CXX}" "-DCMAKE_PREFIX_PATH=${prefix}"
    "-DCMAKE_BUILD_TYPE=${CONFIG}" "-DCMAKE_CXX_FLAGS=${CXX_FLAGS}"
    "-DCMAKE_EXE_LINKER_FLAGS=${LINKER_FLAGS}")
run("${CMAKE_COMMAND}" --build "${WORK_DIR}/cmake-consumer" ${config_args})
file(GLOB_RECURSE built LIST_DIRECTORIES false "${WORK_DIR}/cmake-consumer/hash_file"
     "${WORK_DIR}/cmake-consumer/*/hash_file" "${WORK_DIR}/cmake-consumer/hash_file.exe")
list(GET built 0 cmake_program)
expect_hash("${cmake_program}")

# 2. pkg-config
find_program(PKG_CONFIG pkg-config)
if(NOT PKG_CONFIG)
  message(FATAL_ERROR "pkg-config not found (Debian package pkg-config)")
endif()
file(GLOB_RECURSE pc_files "${prefix}/*/fastblake.pc")
list(GET pc_files 0 pc_file)
get_filename_component(pc_dir "${pc_file}" DIRECTORY)
set(ENV{PKG_CONFIG_PATH} "${pc_dir}")
execute_process(COMMAND "${PKG_CONFIG}" --cflags --libs fastblake
                OUTPUT_VARIABLE flags OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "pkg-config cannot read ${pc_file}")
endif()
execute_process(COMMAND "${PKG_CONFIG}" --variable=libdir fastblake
                OUTPUT_VARIABLE libdir OUTPUT_STRIP_TRAILING_WHITESPACE)
# The rpath lets a shared-library build run from the scratch prefix.
separate_arguments(flags UNIX_COMMAND
                   "${CXX_FLAGS} ${flags} ${LINKER_FLAGS} -Wl,-rpath,${libdir}")
set(pc_program "${WORK_DIR}/hash_file_pkgconfig")
run("${CXX}" -std=c++20 "${SOURCE_DIR}/examples/hash_file.cpp" -o "${pc_program}" ${flags})
expect_hash("${pc_program}")
message(STATUS "find_package and pkg-config consumers both print ${expected}")
