# Cross build for aarch64 Linux with Debian's g++-aarch64-linux-gnu; test programs run under
# qemu-user (Debian: qemu-user) through CMake's cross-compiling emulator.
include("${CMAKE_CURRENT_LIST_DIR}/debian-cross.cmake")
fastblake_debian_cross(aarch64 aarch64-linux-gnu)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64 -L /usr/aarch64-linux-gnu)
