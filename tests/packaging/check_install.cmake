# The ways a consumer gets fastblake, each building the examples (C++ and C) and comparing
# their output with the official test vector for the 1025-byte input:
# 1. the built project installed to a scratch prefix, found with find_package(fastblake) on a
#    path where neither MPI nor the CUDA toolkit can be found;
# 2. the same prefix through pkg-config: C++ and C (`cc hash_file.c $(pkg-config --cflags
#    --libs fastblake)`, nothing more);
# 3. FetchContent of the source tree, as a shared library with only the portable backend (quick
#    to build), which builds the library alone: its SONAME, and every exported symbol versioned;
# and a C++17 translation unit stops at one #error naming C++20, where the C header compiles.
cmake_minimum_required(VERSION 3.25)
set(prefix "${WORK_DIR}/prefix")
include("${CMAKE_CURRENT_LIST_DIR}/common.cmake")

set(config_args "")
if(CONFIG)
  set(config_args --config "${CONFIG}")
endif()
run("${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${prefix}" ${config_args})
# The licence is installed with the documentation, its text unchanged.
file(GLOB licence "${prefix}/share/doc/*/LICENSE")
if(NOT licence)
  message(FATAL_ERROR "no LICENSE under ${prefix}/share/doc")
endif()
file(READ "${licence}" installed_licence)
file(READ "${SOURCE_DIR}/LICENSE" source_licence)
if(NOT installed_licence STREQUAL source_licence OR
   NOT installed_licence MATCHES "Apache License\n +Version 2.0, January 2004")
  message(FATAL_ERROR "${licence} is not the Apache License 2.0 of the source tree")
endif()

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
    "-DCMAKE_C_COMPILER=${CC}" "-DCMAKE_BUILD_TYPE=${CONFIG}" "-DCMAKE_CXX_FLAGS=${CXX_FLAGS}"
    "-DCMAKE_C_FLAGS=${C_FLAGS}" "-DCMAKE_EXE_LINKER_FLAGS=${LINKER_FLAGS}"
    -DCMAKE_DISABLE_FIND_PACKAGE_MPI=ON -DCMAKE_DISABLE_FIND_PACKAGE_CUDAToolkit=ON)
run("${CMAKE_COMMAND}" --build "${WORK_DIR}/cmake-consumer" ${config_args})
file(GLOB_RECURSE built LIST_DIRECTORIES false "${WORK_DIR}/cmake-consumer/hash_file"
     "${WORK_DIR}/cmake-consumer/*/hash_file" "${WORK_DIR}/cmake-consumer/hash_file.exe")
list(GET built 0 cmake_program)
expect_hash("${cmake_program}")
file(GLOB_RECURSE built_c LIST_DIRECTORIES false "${WORK_DIR}/cmake-consumer/hash_file_c"
     "${WORK_DIR}/cmake-consumer/*/hash_file_c" "${WORK_DIR}/cmake-consumer/hash_file_c.exe")
list(GET built_c 0 cmake_c_program)
expect_hash("${cmake_c_program}")

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
separate_arguments(c_flags UNIX_COMMAND "${C_FLAGS}")
set(pc_c_program "${WORK_DIR}/hash_file_c_pkgconfig")
run("${CC}" -std=c11 ${c_flags} "${SOURCE_DIR}/examples/hash_file.c" -o "${pc_c_program}" ${flags})
expect_hash("${pc_c_program}")

# Below C++20, the C++ headers stop at one #error that names the requirement (and the missing
# header that ends the compilation there), not hundreds of errors inside <span>.
file(WRITE "${WORK_DIR}/cxx17.cpp" "#include <fastblake/fastblake.hpp>\nint main() {}\n")
execute_process(COMMAND "${CXX}" -std=c++17 -fsyntax-only "-I${prefix}/include"
                        "${WORK_DIR}/cxx17.cpp"
                OUTPUT_VARIABLE out ERROR_VARIABLE out RESULT_VARIABLE status)
string(REGEX MATCHALL "error:" errors "${out}")
list(LENGTH errors error_count)
if(status EQUAL 0 OR NOT out MATCHES "fastblake's C\\+\\+ API needs C\\+\\+20" OR error_count GREATER 2)
  message(FATAL_ERROR "a C++17 consumer (status ${status}) got ${error_count} errors:\n${out}")
endif()
# The C interface stays usable from any C++.
file(WRITE "${WORK_DIR}/cxx98.cpp" "#include <fastblake/fastblake.h>\nint main() {}\n")
run("${CXX}" -std=c++98 -fsyntax-only "-I${prefix}/include" "${WORK_DIR}/cxx98.cpp")

# 3. FetchContent, shared
set(sub "${WORK_DIR}/subdirectory")
run("${CMAKE_COMMAND}" -S "${SOURCE_DIR}/tests/packaging/subdirectory" -B "${sub}"
    -G "${GENERATOR}" "-DCMAKE_CXX_COMPILER=${CXX}" "-DCMAKE_C_COMPILER=${CC}"
    "-DFASTBLAKE_SOURCE_DIR=${SOURCE_DIR}" -DBUILD_SHARED_LIBS=ON -DFASTBLAKE_BACKENDS=portable
    "-DCMAKE_BUILD_TYPE=${CONFIG}" "-DCMAKE_CXX_FLAGS=${CXX_FLAGS}"
    "-DCMAKE_C_FLAGS=${C_FLAGS}" "-DCMAKE_EXE_LINKER_FLAGS=${LINKER_FLAGS}"
    "-DCMAKE_SHARED_LINKER_FLAGS=${LINKER_FLAGS}")
run("${CMAKE_COMMAND}" --build "${sub}" ${config_args})
foreach(program hash_file hash_file_c)
  file(GLOB_RECURSE found LIST_DIRECTORIES false "${sub}/${program}" "${sub}/*/${program}")
  list(GET found 0 found)
  expect_hash("${found}")
endforeach()
file(GLOB_RECURSE shared_lib LIST_DIRECTORIES false "${sub}/libfastblake.so.*.*.*")
if(shared_lib)
  list(GET shared_lib 0 shared_lib)
  find_program(READELF NAMES readelf)
  execute_process(COMMAND "${READELF}" --dynamic --wide "${shared_lib}" OUTPUT_VARIABLE dynamic)
  if(NOT dynamic MATCHES "SONAME\\) +Library soname: \\[libfastblake\\.so\\.0\\]")
    message(FATAL_ERROR "${shared_lib}: no SONAME libfastblake.so.0:\n${dynamic}")
  endif()
  # Every defined dynamic symbol of ours carries a version (readelf shows name@VERSION).
  execute_process(COMMAND "${READELF}" --dyn-syms --wide "${shared_lib}" OUTPUT_VARIABLE syms)
  string(REPLACE "\n" ";" syms "${syms}")
  set(unversioned "")
  set(versioned 0)
  foreach(line IN LISTS syms)
    if(line MATCHES " (GLOBAL|WEAK) +DEFAULT +[0-9]+ +([^ ]+)$")
      set(name "${CMAKE_MATCH_2}")
      if(name MATCHES "@FASTBLAKE_0\\.1$")
        math(EXPR versioned "${versioned} + 1")
      elseif(NOT name MATCHES "^FASTBLAKE_")
        string(APPEND unversioned "  ${name}\n")
      endif()
    endif()
  endforeach()
  if(unversioned OR versioned EQUAL 0)
    message(FATAL_ERROR "${shared_lib}: ${versioned} versioned symbols; unversioned:\n${unversioned}")
  endif()
  message(STATUS "${shared_lib}: SONAME libfastblake.so.0, ${versioned} symbols at FASTBLAKE_0.1")
endif()
message(STATUS "find_package, pkg-config and FetchContent consumers, C++ and C, print ${expected}")
