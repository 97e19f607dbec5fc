# The sources of the CUDA backend's test programs, relative to this folder: one list for this
# build (cuda/tests/CMakeLists.txt) and the device check's own (check/CMakeLists.txt).
set(FASTBLAKE_CUDA_GPU_TEST_SOURCES cuda_test.cpp)
set(FASTBLAKE_CUDA_DRIVER_TEST_SOURCES fake_device.cpp fake_device_test.cpp
    fake_device_failures_test.cpp)
list(TRANSFORM FASTBLAKE_CUDA_GPU_TEST_SOURCES PREPEND "${CMAKE_CURRENT_LIST_DIR}/")
list(TRANSFORM FASTBLAKE_CUDA_DRIVER_TEST_SOURCES PREPEND "${CMAKE_CURRENT_LIST_DIR}/")
