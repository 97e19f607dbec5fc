# Cross build for little-endian 64-bit POWER Linux with Debian's g++-powerpc64le-linux-gnu;
# test programs run under qemu-user (Debian: qemu-user) on a POWER9 model, through CMake's
# cross-compiling emulator.
include("${CMAKE_CURRENT_LIST_DIR}/debian-cross.cmake")
fastblake_debian_cross(ppc64le powerpc64le-linux-gnu)
set(CMAKE_C_COMPILER powerpc64le-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER powerpc64le-linux-gnu-g++)
set(CMAKE_CROSSCOMPILING_EMULATOR "${CMAKE_CURRENT_LIST_DIR}/qemu-run.sh" qemu-ppc64le power9
    /usr/powerpc64le-linux-gnu)
# Every CPU that runs ppc64le (POWER8 and later) has VSX: no model without it to fall back on.
set(FASTBLAKE_QEMU_CPU_WITH power9)
