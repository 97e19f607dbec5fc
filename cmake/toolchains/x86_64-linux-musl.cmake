# Linux on x86-64, musl's C library linked statically, with zig's clang (zig.cmake): programs
# that run on any Linux of the architecture, whatever its C library.
include("${CMAKE_CURRENT_LIST_DIR}/zig.cmake")
fastblake_zig(Linux x86_64 x86_64-linux-musl)
