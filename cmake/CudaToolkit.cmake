# find_package(CUDAToolkit REQUIRED), also with CMake 3.25.0 and 3.25.1 (Debian 12's) and a CUDA
# toolkit without the old nvToolsExt library (CUDA 12.9 and 13 have only nvtx3): there,
# FindCUDAToolkit marks CUDA::nvToolsExt deprecated whether or not it made that target, and
# fails ("set_property could not find TARGET CUDA::nvToolsExt") for every project that
# requires CMake 3.25, as this one does. It only does so above minimum version 3.24, so the
# search runs under that minimum (in CMake before 3.26, which checks for the target first).
macro(fastblake_find_cuda_toolkit)
  if(CMAKE_VERSION VERSION_LESS 3.26)
    set(_fastblake_minimum "${CMAKE_MINIMUM_REQUIRED_VERSION}")
    set(CMAKE_MINIMUM_REQUIRED_VERSION 3.24)
    find_package(CUDAToolkit REQUIRED)
    set(CMAKE_MINIMUM_REQUIRED_VERSION "${_fastblake_minimum}")
  else()
    find_package(CUDAToolkit REQUIRED)
  endif()
endmacro()
