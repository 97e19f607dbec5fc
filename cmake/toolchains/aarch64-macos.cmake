# macOS on Apple silicon (arm64), with zig's clang (zig.cmake): compiled and linked, never run.
include("${CMAKE_CURRENT_LIST_DIR}/zig.cmake")
fastblake_zig(Darwin arm64 aarch64-macos)
