# macOS on Intel (x86_64), with zig's clang (zig.cmake): compiled and linked, never run.
include("${CMAKE_CURRENT_LIST_DIR}/zig.cmake")
fastblake_zig(Darwin x86_64 x86_64-macos)
