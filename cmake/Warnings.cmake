# Warnings for fastblake's own targets (not for the reference implementations it builds).
add_library(fastblake_warnings INTERFACE)
if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
  target_compile_options(fastblake_warnings INTERFACE -Wall -Wextra -Wpedantic -Wshadow
                         -Wconversion -Wno-sign-conversion)
  if(FASTBLAKE_WARNINGS_AS_ERRORS)
    target_compile_options(fastblake_warnings INTERFACE -Werror)
  endif()
  # The tests' length arithmetic is 64-bit (random lengths, offsets past 4 GiB); on wasm32 it
  # narrows to a 32-bit size_t where it reaches a span, which the tests accept. The library
  # itself is held to the warning.
  if(EMSCRIPTEN)
    target_compile_options(fastblake_warnings INTERFACE
      "$<$<STREQUAL:$<TARGET_PROPERTY:SOURCE_DIR>,${PROJECT_SOURCE_DIR}/tests>:-Wno-shorten-64-to-32>")
  endif()
endif()
