# WebAssembly with Debian's emscripten (package emscripten); programs run under Node.js, which
# CMake's cross-compiling emulator names. The project compiles with -pthread under emscripten
# (CMakeLists.txt): the test programs link threads, the JavaScript module (js/) does not.
if(DEFINED ENV{EMSCRIPTEN})
  set(_fastblake_emscripten "$ENV{EMSCRIPTEN}")
else()
  set(_fastblake_emscripten /usr/share/emscripten)
endif()
include("${_fastblake_emscripten}/cmake/Modules/Platform/Emscripten.cmake")

# emcc's link step runs acorn under node; Debian installs acorn in /usr/share/nodejs, which a
# node from elsewhere (NodeSource) does not search.
set(CMAKE_C_COMPILER_LAUNCHER env NODE_PATH=/usr/share/nodejs)
set(CMAKE_CXX_COMPILER_LAUNCHER env NODE_PATH=/usr/share/nodejs)
set(CMAKE_C_LINKER_LAUNCHER env NODE_PATH=/usr/share/nodejs)
set(CMAKE_CXX_LINKER_LAUNCHER env NODE_PATH=/usr/share/nodejs)

# The library reports errors with exceptions, which emscripten leaves off by default.
set(CMAKE_C_FLAGS_INIT -fexceptions)
set(CMAKE_CXX_FLAGS_INIT -fexceptions)
