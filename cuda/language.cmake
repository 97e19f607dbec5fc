# Whether to build the CUDA backend, and CUDA enabled if so. Included by the root
# CMakeLists.txt, not by this folder's: a language is enabled in the directory above every
# target that compiles or links with it, and the benchmarks (bench/) link fastblake::cuda too.
# AUTO builds the backend where CMake finds a CUDA compiler.
set(FASTBLAKE_CUDA ${_fastblake_optional_default} CACHE STRING
    "Build the CUDA backend fastblake::cuda: ON, OFF or AUTO (when a CUDA compiler is found)")
set(FASTBLAKE_CUDA_FOUND FALSE)
if(NOT FASTBLAKE_CUDA STREQUAL "OFF")
  include(CheckLanguage)
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    set(FASTBLAKE_CUDA_FOUND TRUE)
  elseif(FASTBLAKE_CUDA STREQUAL "ON")
    message(FATAL_ERROR "FASTBLAKE_CUDA=ON, but no CUDA compiler was found (set CUDACXX)")
  else()
    message(STATUS "fastblake: CUDA backend skipped: no CUDA compiler (nvcc on PATH, or CUDACXX)")
  endif()
endif()
if(FASTBLAKE_CUDA_FOUND)
  # sm_90 (Hopper) machine code, and compute_90 PTX that newer GPUs compile at load time.
  if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
    set(CMAKE_CUDA_ARCHITECTURES 90)
  endif()
  enable_language(CUDA)
  include("${PROJECT_SOURCE_DIR}/cmake/CudaToolkit.cmake")
  fastblake_find_cuda_toolkit()
endif()
