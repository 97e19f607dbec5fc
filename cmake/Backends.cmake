# The instruction-set backends: the one list of their names. The library's backend table
# (src/backend/backend.cpp, through the generated fastblake_backends.hpp), the tests and the
# documentation's check (tests/packaging/check_backend_docs.cmake) all take the names from here.
#
# Best first: the library picks the first one the CPU runs. Per backend: the processors it is
# for, the CPU features it needs (the cpu_feature names of src/common/cpu_features.hpp, without
# "feature_") and its compiler flags. Its kernels are src/kernels/blake3/<name>.cpp and, where it
# has BLAKE2 kernels of its own, src/kernels/blake2/<name>.cpp; the others run BLAKE2 on portable's.
set(FASTBLAKE_KNOWN_BACKENDS avx512 avx2 sse41 sse2 neon vsx zvector rvv simd128 portable)

set(_fastblake_x86 "^(x86_64|AMD64|amd64)$")
set(_fastblake_arm64 "^(aarch64|arm64|ARM64)$")
# Little-endian 64-bit POWER only: big-endian ppc64 runs portable.
set(_fastblake_ppc64le "^(ppc64le|powerpc64le)$")
set(_fastblake_backend_processor_avx512 "${_fastblake_x86}")
set(_fastblake_backend_processor_avx2 "${_fastblake_x86}")
set(_fastblake_backend_processor_sse41 "${_fastblake_x86}")
set(_fastblake_backend_processor_sse2 "${_fastblake_x86}")
set(_fastblake_backend_processor_neon "${_fastblake_arm64}")
set(_fastblake_backend_processor_vsx "${_fastblake_ppc64le}")
set(_fastblake_backend_processor_zvector "^s390x$")
# WebAssembly under Emscripten, which names the processor x86 (its toolchain's choice).
if(EMSCRIPTEN)
  set(_fastblake_backend_processor_simd128 ".*")
else()
  set(_fastblake_backend_processor_simd128 "^$")
endif()
# RVV code generation needs clang (GCC 12 has none): with GCC, riscv64 runs portable.
if(CMAKE_CXX_COMPILER_ID MATCHES "Clang")
  set(_fastblake_backend_processor_rvv "^riscv64$")
else()
  set(_fastblake_backend_processor_rvv "^$")
endif()
set(_fastblake_backend_processor_portable ".*")

set(_fastblake_backend_features_avx512 sse2 ssse3 sse41 avx avx2 avx512f avx512vl)
set(_fastblake_backend_features_avx2 sse2 ssse3 sse41 avx avx2)
set(_fastblake_backend_features_sse41 sse2 ssse3 sse41)
set(_fastblake_backend_features_sse2 sse2)
set(_fastblake_backend_features_neon neon)
set(_fastblake_backend_features_vsx vsx)
set(_fastblake_backend_features_zvector zvector)
set(_fastblake_backend_features_simd128 simd128)
set(_fastblake_backend_features_rvv rvv)
set(_fastblake_backend_features_portable "")

if(MSVC)
  # MSVC compiles SSE intrinsics at any /arch; AVX code needs its /arch to use VEX/EVEX encodings.
  set(_fastblake_backend_flags_avx2 /arch:AVX2)
  set(_fastblake_backend_flags_avx512 /arch:AVX512)
else()
  set(_fastblake_backend_flags_sse2 -msse2)
  set(_fastblake_backend_flags_sse41 -msse4.1)
  set(_fastblake_backend_flags_avx2 -mavx2)
  set(_fastblake_backend_flags_avx512 -mavx512f -mavx512vl)
  set(_fastblake_backend_flags_vsx -mcpu=power8 -mvsx)
  set(_fastblake_backend_flags_zvector -march=z13 -mzvector)
  set(_fastblake_backend_flags_simd128 -msimd128)
  # The generic 128-bit vectors as RVV code, correct at any VLEN from 128 bits (the least the V
  # extension allows).
  set(_fastblake_backend_flags_rvv -march=rv64gcv -mllvm -riscv-v-vector-bits-min=128)
endif()
if(FASTBLAKE_ZIG)
  # zig's clang (cmake/toolchains/zig.cmake) reads -mcpu and -march itself, in zig's CPU names:
  # POWER8 is pwr8, and RISC-V's V extension a feature added to the baseline model (RV64GC).
  set(_fastblake_backend_flags_vsx -mcpu=pwr8)
  set(_fastblake_backend_flags_rvv -mcpu=baseline_rv64+v -mllvm -riscv-v-vector-bits-min=128)
endif()
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  # GCC 12.2 warns inside its own headers, whose AVX-512 intrinsics pass
  # _mm512_undefined_epi32() (fixed in later GCC releases).
  list(APPEND _fastblake_backend_flags_avx512 -Wno-uninitialized -Wno-maybe-uninitialized)
endif()

# The backends for this build's processor, in the list's order (portable last).
set(FASTBLAKE_TARGET_BACKENDS "")
foreach(_backend IN LISTS FASTBLAKE_KNOWN_BACKENDS)
  if(CMAKE_SYSTEM_PROCESSOR MATCHES "${_fastblake_backend_processor_${_backend}}")
    list(APPEND FASTBLAKE_TARGET_BACKENDS ${_backend})
  endif()
endforeach()

# Writes <dir>/fastblake_backends.hpp for the backends in `selected` (kept in the list's order):
# FASTBLAKE_FOR_EACH_BACKEND(X) calls X(name, required features, the level of its BLAKE2
# kernels: its own name or portable), best first, and FASTBLAKE_KNOWN_BACKEND_NAMES spells every backend of every processor.
function(fastblake_write_backend_list dir selected)
  set(entries "")
  foreach(_backend IN LISTS FASTBLAKE_KNOWN_BACKENDS)
    if(NOT _backend IN_LIST selected)
      continue()
    endif()
    set(features "")
    foreach(_feature IN LISTS _fastblake_backend_features_${_backend})
      if(features)
        string(APPEND features " | ")
      endif()
      string(APPEND features "feature_${_feature}")
    endforeach()
    if(NOT features)
      set(features "0")
    endif()
    set(blake2_level portable)
    if(EXISTS "${PROJECT_SOURCE_DIR}/src/kernels/blake2/${_backend}.cpp")
      set(blake2_level ${_backend})
    endif()
    string(APPEND entries "  X(${_backend}, ${features}, ${blake2_level}) \\\n")
  endforeach()
  list(JOIN FASTBLAKE_KNOWN_BACKENDS ", " known)
  file(CONFIGURE OUTPUT "${dir}/fastblake_backends.hpp" CONTENT
"// Generated by CMake from cmake/Backends.cmake: do not edit.
#pragma once

#define FASTBLAKE_FOR_EACH_BACKEND(X) \\
${entries}
#define FASTBLAKE_KNOWN_BACKEND_NAMES \"${known}\"
" @ONLY)
endfunction()
