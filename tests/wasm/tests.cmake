# The library's tests under Node.js, the JavaScript module and the npm package, included by
# tests/CMakeLists.txt in an emscripten build.

# Under Node.js: main runs on a worker, so that thread pools can start threads while it waits
# on them; the host's files and environment are the program's. Node's file layer has no
# pipes or FIFOs that block and no /proc, files do not change under a read, and a thousand
# threads are more than the workers emscripten gives: the tests of those, listed here, run
# natively and under qemu instead.
set(_fastblake_wasm_test_link_options -pthread -sPROXY_TO_PTHREAD=1 -sEXIT_RUNTIME=1
    -sNODERAWFS=1 -sALLOW_MEMORY_GROWTH=1 -sSINGLE_FILE=1)
# -O1 at link: binaryen's whole-program passes at -O3 took ten times as long (11 s against
# 1 s for fastblake_tests), and the code they work on is already compiled at -O3. The
# JavaScript module, which users get, links at -O3 (js/).
list(APPEND _fastblake_wasm_test_link_options -O1)
# Workers made ahead, enough for the default pool (a worker per core but one) and more: a
# thread whose Web Worker is still loading when the program exits is never joined (emscripten
# 3.1.6), so a short test that starts the default pool and ends hung at exit, every time.
# The tests run where they are built; a pool that runs out makes Workers as before, silently.
cmake_host_system_information(RESULT _fastblake_cores QUERY NUMBER_OF_LOGICAL_CORES)
math(EXPR _fastblake_wasm_workers "${_fastblake_cores} + 2")
list(APPEND _fastblake_wasm_test_link_options -sPTHREAD_POOL_SIZE=${_fastblake_wasm_workers}
     -sPTHREAD_POOL_SIZE_STRICT=0)
foreach(program fastblake_tests fastblake_allocation_tests)
  target_link_options(${program} PRIVATE ${_fastblake_wasm_test_link_options}
    -sINITIAL_MEMORY=268435456 "--pre-js=${CMAKE_CURRENT_SOURCE_DIR}/wasm/environment.js")
  set_target_properties(${program} PROPERTIES
                        LINK_DEPENDS "${CMAKE_CURRENT_SOURCE_DIR}/wasm/environment.js")
endforeach()
set(_fastblake_wasm_unsupported
  Blake2Files.DescriptorsFromTheirOffsetAndStreamsConsume FileHashing.PipesAreRead
  FileHashing.NamedPipesAreReadByPath FileHashing.AReadErrorInTheMiddleIsReportedAndLosesNothing
  FileHashing.AFileThatShrinksWhileHashedIsAnErrorNotACrash FileHazards.AShrink*
  FileHazards.AStreamThatReadPastTheNewEndIsTruncated
  FileHazards.AThousandThreadsHashMappedFilesThatShrinkUnderThem BaoFiles.EncodeFileErrors)
list(JOIN _fastblake_wasm_unsupported ":" _fastblake_wasm_unsupported)
# Google Test's listing runs each program once per build; two shards instead keep both cores.
foreach(shard 0 1)
  add_test(NAME wasm_unit_tests_${shard}
           COMMAND fastblake_tests "--gtest_filter=-${_fastblake_wasm_unsupported}")
  set_tests_properties(wasm_unit_tests_${shard} PROPERTIES LABELS "wasm;unit;kernel;threads"
    ENVIRONMENT "GTEST_TOTAL_SHARDS=2;GTEST_SHARD_INDEX=${shard};FASTBLAKE_TEST_EMULATED=1"
    FAIL_REGULAR_EXPRESSION "\\[  FAILED  \\]" COST 20)
endforeach()
add_test(NAME wasm_allocation_tests COMMAND fastblake_allocation_tests)
set_tests_properties(wasm_allocation_tests PROPERTIES LABELS "wasm;unit;threads")
# The JavaScript module as users get it, and again with emscripten's run-time checks.
list(JOIN FASTBLAKE_BACKENDS "," _fastblake_backends_joined)
foreach(variant IN ITEMS shipped checked)
  if(variant STREQUAL "shipped")
    set(_fastblake_js_test javascript_module)
    set(_fastblake_js_dir .)
  else()
    set(_fastblake_js_test javascript_module_checked)
    set(_fastblake_js_dir checked)
  endif()
  add_test(NAME ${_fastblake_js_test}
           COMMAND "${CMAKE_CROSSCOMPILING_EMULATOR}" --test "${CMAKE_CURRENT_SOURCE_DIR}/wasm/module_test.mjs")
  set_tests_properties(${_fastblake_js_test} PROPERTIES LABELS wasm COST 5
    ENVIRONMENT "FASTBLAKE_EXPECT_BACKENDS=${_fastblake_backends_joined};FASTBLAKE_JS_MODULE=${PROJECT_BINARY_DIR}/js/${_fastblake_js_dir}/fastblake.mjs;FASTBLAKE_BLAKE3_VECTORS=${CMAKE_CURRENT_SOURCE_DIR}/vectors/blake3_vectors.txt;FASTBLAKE_BLAKE2_KAT=${CMAKE_CURRENT_SOURCE_DIR}/vectors/blake2_kat.txt")
endforeach()
# The npm package as users get it (tests/wasm/npm_package_test.py): packed and installed
# offline into a scratch project (the fixture), then used from Node.js, CommonJS, TypeScript
# (where tsc is) and headless Chromium (where it is), against b3sum, b2sum and hashlib.
# Python by path: an imported executable would run under the emulator, Node.js.
find_program(FASTBLAKE_NPM npm)
find_program(FASTBLAKE_B3SUM b3sum)
find_program(FASTBLAKE_B2SUM b2sum)
find_program(FASTBLAKE_TSC tsc)
find_program(FASTBLAKE_CHROMIUM NAMES chromium chromium-browser)
if(FASTBLAKE_NPM AND FASTBLAKE_B3SUM AND FASTBLAKE_B2SUM AND Python3_FOUND)
  set(_fastblake_npm_test "${Python3_EXECUTABLE}" "${CMAKE_CURRENT_SOURCE_DIR}/wasm/npm_package_test.py"
      --package "${PROJECT_BINARY_DIR}/js/package" --project "${CMAKE_CURRENT_BINARY_DIR}/npm-consumer"
      --version "${PROJECT_VERSION}" --node "${CMAKE_CROSSCOMPILING_EMULATOR}" --npm "${FASTBLAKE_NPM}"
      --b3sum "${FASTBLAKE_B3SUM}" --b2sum "${FASTBLAKE_B2SUM}" --tsc "${FASTBLAKE_TSC}"
      --chromium "${FASTBLAKE_CHROMIUM}")
  set(_fastblake_npm_steps install node require)
  if(FASTBLAKE_TSC)
    list(APPEND _fastblake_npm_steps typescript)
  else()
    message(STATUS "fastblake: no tsc (Debian: node-typescript), so no javascript_npm_typescript test")
  endif()
  if(FASTBLAKE_CHROMIUM)
    list(APPEND _fastblake_npm_steps browser)
  else()
    message(STATUS "fastblake: no chromium, so no javascript_npm_browser test")
  endif()
  foreach(step IN LISTS _fastblake_npm_steps)
    add_test(NAME javascript_npm_${step} COMMAND ${_fastblake_npm_test} ${step})
    if(step STREQUAL "install")
      set_tests_properties(javascript_npm_${step} PROPERTIES LABELS wasm FIXTURES_SETUP fastblake_npm)
    else()
      set_tests_properties(javascript_npm_${step} PROPERTIES LABELS wasm FIXTURES_REQUIRED fastblake_npm)
    endif()
  endforeach()
else()
  message(STATUS "fastblake: no npm, b3sum, b2sum or Python, so no javascript_npm_* tests")
endif()
