# Linux on x86_64 with glibc 2.17 or later (manylinux2014), by zig's clang (zig.cmake): zig links
# against glibc 2.17's symbol versions and its own libc++, statically, so that what it builds
# asks of the system no more than manylinux2014 allows.
include("${CMAKE_CURRENT_LIST_DIR}/zig.cmake")
fastblake_zig(Linux x86_64 x86_64-linux-gnu.2.17)
