# Cross build for s390x Linux with Debian's g++-s390x-linux-gnu; test programs run under
# qemu-user (Debian: qemu-user) through CMake's cross-compiling emulator, on a CPU model with the
# vector facility unless QEMU_CPU names another.
include("${CMAKE_CURRENT_LIST_DIR}/debian-cross.cmake")
fastblake_debian_cross(s390x s390x-linux-gnu)
set(CMAKE_C_COMPILER s390x-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER s390x-linux-gnu-g++)
set(CMAKE_CROSSCOMPILING_EMULATOR "${CMAKE_CURRENT_LIST_DIR}/qemu-run.sh" qemu-s390x max
    /usr/s390x-linux-gnu)
# qemu's max model has the vector facility; "vx=off" takes it away.
set(FASTBLAKE_QEMU_CPU_WITH max)
set(FASTBLAKE_QEMU_CPU_WITHOUT "max,vx=off")
