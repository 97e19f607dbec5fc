# The C interface's test, included by tests/CMakeLists.txt.

# The C interface, compiled as C11, against the C++ API's answers (it hashes files: POSIX and
# Windows, tests/c/os_support.h).
if(UNIX OR WIN32)
  enable_language(C)
  add_executable(fastblake_c_api_test c/c_api_test.c c/bao_c_test.c c/bao_stream_c_test.c
                                    c/expected.cpp)
  set_target_properties(fastblake_c_api_test PROPERTIES C_STANDARD 11 C_STANDARD_REQUIRED ON
                        C_EXTENSIONS OFF)
  target_compile_definitions(fastblake_c_api_test PRIVATE
                             $<$<AND:$<COMPILE_LANGUAGE:C>,$<NOT:$<BOOL:${WIN32}>>>:_POSIX_C_SOURCE=200809L>
                             # (macOS hides mkdtemp and ru_maxrss from strict POSIX.)
                             $<$<AND:$<COMPILE_LANGUAGE:C>,$<PLATFORM_ID:Darwin>>:_DARWIN_C_SOURCE>
                             FASTBLAKE_BAO_VECTORS="${CMAKE_CURRENT_SOURCE_DIR}/vectors/bao_vectors.txt")
  target_link_libraries(fastblake_c_api_test PRIVATE fastblake::fastblake fastblake_warnings)
  if(EMSCRIPTEN)
    target_link_options(fastblake_c_api_test PRIVATE ${_fastblake_wasm_test_link_options})
  endif()
  add_test(NAME c_interface COMMAND fastblake_c_api_test)
  # (Under ASan, freed blocks wait in a quarantine of 256 MB by default, which the hostile
  # headers' check of the peak resident memory would count as the library's.)
  set_tests_properties(c_interface PROPERTIES LABELS unit
                       ENVIRONMENT "ASAN_OPTIONS=quarantine_size_mb=16")
endif()
