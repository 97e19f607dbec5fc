# What the tools' suites share, included by tools/CMakeLists.txt before the tools' folders.
# The suites are Python programs run natively: FASTBLAKE_TOOL_SUITES says whether they are built.
set(FASTBLAKE_TOOL_SUITES FALSE)
if(NOT Python3_FOUND OR CMAKE_CROSSCOMPILING)
  return()
endif()
set(FASTBLAKE_TOOL_SUITES TRUE)
enable_language(C)
# I/O errors are injected by an LD_PRELOAD library, and every allocation fails in turn under
# another, both built without sanitizers so that they load into any build of the tools.
add_library(fastblake_fail_io MODULE "${CMAKE_CURRENT_LIST_DIR}/fail_io.c")
target_link_libraries(fastblake_fail_io PRIVATE ${CMAKE_DL_LIBS})
add_library(fastblake_fail_alloc MODULE "${CMAKE_CURRENT_LIST_DIR}/fail_alloc.c")
foreach(library fastblake_fail_io fastblake_fail_alloc)
  target_compile_options(${library} PRIVATE -fno-sanitize=all)
  target_link_options(${library} PRIVATE -fno-sanitize=all)
endforeach()

# fastblake_tool_suite(NAME SCRIPT ARGUMENT... [NO_LEAK_CHECK] [PROPERTIES ...]): the CTest test
# NAME, running the Python suite SCRIPT (beside the calling CMakeLists.txt) with the arguments;
# the properties as set_tests_properties takes them.
# NO_LEAK_CHECK, for the suites that run one tool's error paths over hundreds of inputs (limits,
# hostile inputs, b2sum's GNU cases): under AddressSanitizer, no LeakSanitizer pass as each of
# their processes exits (b2sum_cli under ASan: 44 s to 27). Leaks are still looked for in the
# library's cases and in each tool's own suite and pipelines, which take many of those paths.
function(fastblake_tool_suite name script)
  cmake_parse_arguments(PARSE_ARGV 2 arg "NO_LEAK_CHECK" "" "PROPERTIES")
  add_test(NAME ${name}
           COMMAND Python3::Interpreter "${CMAKE_CURRENT_SOURCE_DIR}/${script}"
                   ${arg_UNPARSED_ARGUMENTS})
  if(arg_PROPERTIES)
    set_tests_properties(${name} PROPERTIES ${arg_PROPERTIES})
  endif()
  if(arg_NO_LEAK_CHECK AND CMAKE_CXX_FLAGS MATCHES "-fsanitize=[^ ]*address")
    set_property(TEST ${name} APPEND PROPERTY ENVIRONMENT_MODIFICATION
                 "ASAN_OPTIONS=path_list_append:detect_leaks=0")
  endif()
endfunction()

# fastblake_tool_suite_in_locales(TOOL [NO_LEAK_CHECK]): TOOL's suite (TOOL_test.py) in the C
# locale (test TOOL_cli, label cli) and in two UTF-8 ones: TOOL_cli_en_US.UTF-8 (label
# cli-locale; scripts/test makes that locale) and TOOL_cli_C.UTF-8 (label repeat: on request; the
# tools ask a locale only whether it is UTF-8 and what iswprint calls printable, which glibc 2.36
# answers alike in both). A locale that is missing skips its run.
function(fastblake_tool_suite_in_locales tool)
  foreach(locale C C.UTF-8 en_US.UTF-8)
    set(suffix "")
    set(label cli)
    if(NOT locale STREQUAL "C")
      set(suffix "_${locale}")
      set(label cli-locale)
    endif()
    if(locale STREQUAL "C.UTF-8")
      set(label repeat)
    endif()
    fastblake_tool_suite(${tool}_cli${suffix} ${tool}_test.py "$<TARGET_FILE:${tool}>" ${ARGN}
      PROPERTIES LABELS ${label} COST 20 SKIP_RETURN_CODE 77
                 ENVIRONMENT "FASTBLAKE_TEST_LOCALE=${locale};FASTBLAKE_FAIL_IO=$<TARGET_FILE:fastblake_fail_io>")
  endforeach()
endfunction()
