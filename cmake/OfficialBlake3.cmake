# Finds the official BLAKE3 C sources that Debian ships in librust-blake3-dev and builds them,
# in the build tree only, as oracles and baselines for tests and benchmarks:
#   fastblake_official_blake3           the official library as shipped: its SIMD kernels
#                                       (assembly on x86-64 Unix) with run-time dispatch
#   fastblake_official_blake3_portable  its portable kernel only, every symbol renamed
#                                       official_portable_*, so that one program can link both
#   fastblake_official_blake3_<level>   on x86-64 Unix, for each level in
#                                       FASTBLAKE_OFFICIAL_BLAKE3_LEVELS (sse2 sse41 avx2
#                                       avx512): only that level's assembly, every symbol
#                                       renamed official_<level>_*
# Sets FASTBLAKE_OFFICIAL_BLAKE3_FOUND. The sources are never copied into this repository.

set(FASTBLAKE_CARGO_REGISTRY /usr/share/cargo/registry CACHE PATH
    "Debian's crate sources (librust-*-dev): the official BLAKE3 C sources, the Rust references")
file(GLOB _fastblake_official_candidates LIST_DIRECTORIES true
     "${FASTBLAKE_CARGO_REGISTRY}/blake3-*/c")
list(SORT _fastblake_official_candidates COMPARE NATURAL ORDER DESCENDING)
set(_fastblake_official_default "")
if(_fastblake_official_candidates)
  list(GET _fastblake_official_candidates 0 _fastblake_official_default)
endif()
set(FASTBLAKE_OFFICIAL_BLAKE3_DIR "${_fastblake_official_default}" CACHE PATH
    "Directory of the official BLAKE3 C sources (Debian: librust-blake3-dev)")

set(FASTBLAKE_OFFICIAL_BLAKE3_FOUND OFF)
if(NOT FASTBLAKE_OFFICIAL_BLAKE3_DIR OR NOT EXISTS "${FASTBLAKE_OFFICIAL_BLAKE3_DIR}/blake3.h")
  message(STATUS "fastblake: official BLAKE3 C sources not found (librust-blake3-dev, or set "
                 "FASTBLAKE_OFFICIAL_BLAKE3_DIR): their differential tests and baselines skipped")
  return()
endif()
# (Their copies' symbols are renamed with GNU objcopy, which does not write Mach-O objects.)
if(APPLE)
  message(STATUS "fastblake: official BLAKE3 C sources not built for macOS: their differential "
                 "tests and baselines skipped")
  return()
endif()
set(FASTBLAKE_OFFICIAL_BLAKE3_FOUND ON)
message(STATUS "fastblake: official BLAKE3 C sources: ${FASTBLAKE_OFFICIAL_BLAKE3_DIR}")

enable_language(C)
set(_dir "${FASTBLAKE_OFFICIAL_BLAKE3_DIR}")
set(_common "${_dir}/blake3.c" "${_dir}/blake3_dispatch.c" "${_dir}/blake3_portable.c")
set(_no_simd BLAKE3_NO_SSE2 BLAKE3_NO_SSE41 BLAKE3_NO_AVX2 BLAKE3_NO_AVX512)

add_library(fastblake_official_blake3 STATIC ${_common})
if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64)$" AND NOT WIN32)
  enable_language(ASM)
  target_sources(fastblake_official_blake3 PRIVATE
    "${_dir}/blake3_sse2_x86-64_unix.S" "${_dir}/blake3_sse41_x86-64_unix.S"
    "${_dir}/blake3_avx2_x86-64_unix.S" "${_dir}/blake3_avx512_x86-64_unix.S")
elseif(CMAKE_SYSTEM_PROCESSOR MATCHES "^(aarch64|arm64|ARM64)$")
  target_sources(fastblake_official_blake3 PRIVATE "${_dir}/blake3_neon.c")
  target_compile_definitions(fastblake_official_blake3 PRIVATE BLAKE3_USE_NEON=1)
else()
  target_compile_definitions(fastblake_official_blake3 PRIVATE ${_no_simd})
endif()

# fastblake_official_blake3_build(NAME PREFIX SOURCES... DEFINES...): the official sources built
# with the given defines and extra sources into the imported library NAME, every symbol it
# defines renamed PREFIX<symbol> (cmake/RenameSymbols.cmake), so that several builds coexist
# in one program. Its calls into the C library stay as they are.
function(fastblake_official_blake3_build name prefix)
  cmake_parse_arguments(PARSE_ARGV 2 arg "" "" "SOURCES;DEFINES")
  add_library(${name}_unrenamed STATIC EXCLUDE_FROM_ALL ${_common} ${arg_SOURCES})
  target_compile_definitions(${name}_unrenamed PRIVATE ${arg_DEFINES})
  # Built as the official Makefile builds them: -O3, no warnings of ours.
  target_compile_options(${name}_unrenamed PRIVATE -O3 -w)
  set_target_properties(${name}_unrenamed PROPERTIES POSITION_INDEPENDENT_CODE ON)
  set(renamed "${CMAKE_CURRENT_BINARY_DIR}/official_blake3/lib${name}.a")
  add_custom_command(
    OUTPUT "${renamed}"
    COMMAND "${CMAKE_COMMAND}" -D "NM=${CMAKE_NM}" -D "OBJCOPY=${CMAKE_OBJCOPY}"
            -D "INPUT=$<TARGET_FILE:${name}_unrenamed>" -D "OUTPUT=${renamed}"
            -D "PREFIX=${prefix}" -P "${_fastblake_rename_script}"
    DEPENDS ${name}_unrenamed "${_fastblake_rename_script}"
    COMMENT "Renaming the symbols of ${name} to ${prefix}*")
  add_custom_target(${name}_renamed DEPENDS "${renamed}")
  add_library(${name} STATIC IMPORTED GLOBAL)
  set_target_properties(${name} PROPERTIES IMPORTED_LOCATION "${renamed}")
  target_include_directories(${name} SYSTEM INTERFACE "${_dir}")
  add_dependencies(${name} ${name}_renamed)
endfunction()
set(_fastblake_rename_script "${CMAKE_CURRENT_LIST_DIR}/RenameSymbols.cmake")

# The portable kernel only.
fastblake_official_blake3_build(fastblake_official_blake3_portable official_portable_
                                DEFINES ${_no_simd})

# One build per x86 level with only that level's kernels, as the official dispatch would run
# them on a CPU that stops at that level (the avx2 level keeps SSE4.1 for single blocks, as
# the official does: its AVX2 assembly has only the many-input function). Benchmarks pair each
# with fastblake's backend of the same name on any machine that has the level.
set(FASTBLAKE_OFFICIAL_BLAKE3_LEVELS "")
if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64)$" AND NOT WIN32 AND CMAKE_OBJCOPY
   AND CMAKE_NM)
  set(_asm_sse2 "${_dir}/blake3_sse2_x86-64_unix.S")
  set(_asm_sse41 "${_dir}/blake3_sse41_x86-64_unix.S")
  set(_asm_avx2 "${_dir}/blake3_avx2_x86-64_unix.S")
  set(_asm_avx512 "${_dir}/blake3_avx512_x86-64_unix.S")
  fastblake_official_blake3_build(fastblake_official_blake3_sse2 official_sse2_
    SOURCES ${_asm_sse2} DEFINES BLAKE3_NO_SSE41 BLAKE3_NO_AVX2 BLAKE3_NO_AVX512)
  fastblake_official_blake3_build(fastblake_official_blake3_sse41 official_sse41_
    SOURCES ${_asm_sse41} DEFINES BLAKE3_NO_SSE2 BLAKE3_NO_AVX2 BLAKE3_NO_AVX512)
  fastblake_official_blake3_build(fastblake_official_blake3_avx2 official_avx2_
    SOURCES ${_asm_avx2} ${_asm_sse41} DEFINES BLAKE3_NO_SSE2 BLAKE3_NO_AVX512)
  fastblake_official_blake3_build(fastblake_official_blake3_avx512 official_avx512_
    SOURCES ${_asm_avx512} DEFINES BLAKE3_NO_SSE2 BLAKE3_NO_SSE41 BLAKE3_NO_AVX2)
  set(FASTBLAKE_OFFICIAL_BLAKE3_LEVELS sse2 sse41 avx2 avx512)
endif()

target_compile_options(fastblake_official_blake3 PRIVATE -O3 -w)
set_target_properties(fastblake_official_blake3 PROPERTIES POSITION_INDEPENDENT_CODE ON)
target_include_directories(fastblake_official_blake3 SYSTEM INTERFACE "${_dir}")
