# Cross build for big-endian 64-bit POWER Linux with Debian's g++-powerpc64-linux-gnu;
# test programs run under qemu-user (Debian: qemu-user) on a POWER9 model, through CMake's
# cross-compiling emulator.
include("${CMAKE_CURRENT_LIST_DIR}/debian-cross.cmake")
fastblake_debian_cross(ppc64 powerpc64-linux-gnu)
set(CMAKE_C_COMPILER powerpc64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER powerpc64-linux-gnu-g++)
set(CMAKE_CROSSCOMPILING_EMULATOR "${CMAKE_CURRENT_LIST_DIR}/qemu-run.sh" qemu-ppc64 power9
    /usr/powerpc64-linux-gnu)
