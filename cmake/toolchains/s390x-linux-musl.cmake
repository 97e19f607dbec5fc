# Linux on IBM Z, musl's C library linked statically, with zig's clang (zig.cmake): programs
# that run on any Linux of the architecture; here under qemu-user, which a static program needs
# no root of the target's libraries for.
include("${CMAKE_CURRENT_LIST_DIR}/zig.cmake")
fastblake_zig(Linux s390x s390x-linux-musl)
set(CMAKE_CROSSCOMPILING_EMULATOR "${CMAKE_CURRENT_LIST_DIR}/qemu-run.sh" qemu-s390x "max" /)
