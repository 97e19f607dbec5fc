# Finds the official BLAKE3 C sources that Debian ships in librust-blake3-dev and builds them,
# in the build tree only, as oracles and baselines for tests and benchmarks:
#   fastblake_official_blake3           the official library as shipped: its SIMD kernels
#                                       (assembly on x86-64 Unix) with run-time dispatch
#   fastblake_official_blake3_portable  its portable kernel only, every blake3_* symbol
#                                       renamed to official_portable_blake3_*, so that one
#                                       program can link both
# Sets FASTBLAKE_OFFICIAL_BLAKE3_FOUND. The sources are never copied into this repository.

file(GLOB _fastblake_official_candidates LIST_DIRECTORIES true
     "/usr/share/cargo/registry/blake3-*/c")
list(SORT _fastblake_official_candidates COMPARE NATURAL ORDER DESCENDING)
list(GET _fastblake_official_candidates 0 _fastblake_official_default)
set(FASTBLAKE_OFFICIAL_BLAKE3_DIR "${_fastblake_official_default}" CACHE PATH
    "Directory of the official BLAKE3 C sources (Debian: librust-blake3-dev)")

set(FASTBLAKE_OFFICIAL_BLAKE3_FOUND OFF)
if(NOT FASTBLAKE_OFFICIAL_BLAKE3_DIR OR NOT EXISTS "${FASTBLAKE_OFFICIAL_BLAKE3_DIR}/blake3.h")
  message(STATUS "fastblake: official BLAKE3 C sources not found (install librust-blake3-dev); "
                 "differential tests and baselines are skipped")
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

# Every external symbol of the portable-only build, renamed by a forced include.
set(_renamed
  blake3_compress_in_place blake3_compress_in_place_portable blake3_compress_xof
  blake3_compress_xof_portable blake3_hash_many blake3_hash_many_portable
  blake3_hasher_finalize blake3_hasher_finalize_seek blake3_hasher_init
  blake3_hasher_init_derive_key blake3_hasher_init_derive_key_raw blake3_hasher_init_keyed
  blake3_hasher_reset blake3_hasher_update blake3_simd_degree blake3_version)
set(_rename_header "${CMAKE_CURRENT_BINARY_DIR}/official_portable/official_portable_rename.h")
set(_defines "")
foreach(_symbol IN LISTS _renamed)
  string(APPEND _defines "#define ${_symbol} official_portable_${_symbol}\n")
endforeach()
file(CONFIGURE OUTPUT "${_rename_header}" CONTENT "#pragma once\n${_defines}")
add_library(fastblake_official_blake3_portable STATIC ${_common})
target_compile_definitions(fastblake_official_blake3_portable PRIVATE ${_no_simd})
target_compile_options(fastblake_official_blake3_portable PRIVATE -include "${_rename_header}")

foreach(_target fastblake_official_blake3 fastblake_official_blake3_portable)
  # Built as the official Makefile builds them: -O3, no warnings of ours.
  target_compile_options(${_target} PRIVATE -O3 -w)
  set_target_properties(${_target} PROPERTIES POSITION_INDEPENDENT_CODE ON)
endforeach()
target_include_directories(fastblake_official_blake3 SYSTEM INTERFACE "${_dir}")
target_include_directories(fastblake_official_blake3_portable SYSTEM INTERFACE
                           "${_dir}" "${CMAKE_CURRENT_BINARY_DIR}/official_portable")
