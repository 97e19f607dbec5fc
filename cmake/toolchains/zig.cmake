# What the zig toolchain files share: zig's clang, ar and ranlib (cmake/toolchains/zig-*.sh over
# PyPI's ziglang) cross-compiling for `target`, a zig target triple (aarch64-macos,
# x86_64-macos, aarch64-windows-gnu). zig brings each target's C library and system headers,
# macOS's and MinGW-w64's included: no SDK to install. Nothing built so runs here.
macro(fastblake_zig system processor target)
  set(CMAKE_SYSTEM_NAME ${system})
  set(CMAKE_SYSTEM_PROCESSOR ${processor})
  foreach(_lang C CXX)
    set(CMAKE_${_lang}_COMPILER_TARGET ${target})
  endforeach()
  # (Read by cmake/Backends.cmake: zig names CPUs its own way.)
  set(FASTBLAKE_ZIG ON)
  set(CMAKE_C_COMPILER "${CMAKE_CURRENT_LIST_DIR}/zig-cc.sh")
  set(CMAKE_CXX_COMPILER "${CMAKE_CURRENT_LIST_DIR}/zig-c++.sh")
  set(CMAKE_AR "${CMAKE_CURRENT_LIST_DIR}/zig-ar.sh" CACHE FILEPATH "zig's ar")
  set(CMAKE_RANLIB "${CMAKE_CURRENT_LIST_DIR}/zig-ranlib.sh" CACHE FILEPATH "zig's ranlib")
  # (Used only on shared libraries' install names: LLVM's where it is installed, else nothing,
  # as static builds never call it.)
  find_program(CMAKE_INSTALL_NAME_TOOL NAMES llvm-install-name-tool llvm-install-name-tool-19
                                                 llvm-install-name-tool-14 true)
  # The compiler checks compile without linking: zig's first link for a target builds its C++
  # runtime (libc++, libunwind), a minute or more, which builds that link nothing need not pay.
  set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
  set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
  set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
  set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
  set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
endmacro()
