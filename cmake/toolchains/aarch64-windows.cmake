# Windows on arm64 (MinGW-w64's runtime), with zig's clang (zig.cmake): compiled and linked,
# never run here.
include("${CMAKE_CURRENT_LIST_DIR}/zig.cmake")
fastblake_zig(Windows ARM64 aarch64-windows-gnu)
