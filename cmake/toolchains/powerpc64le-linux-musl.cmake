# Linux on POWER (little-endian), musl's C library linked statically, with zig's clang (zig.cmake): programs
# that run on any Linux of the architecture; here under qemu-user, which a static program needs
# no root of the target's libraries for.
include("${CMAKE_CURRENT_LIST_DIR}/zig.cmake")
fastblake_zig(Linux ppc64le powerpc64le-linux-musl)
set(CMAKE_CROSSCOMPILING_EMULATOR "${CMAKE_CURRENT_LIST_DIR}/qemu-run.sh" qemu-ppc64le "power9" /)
