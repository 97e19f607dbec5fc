# Fails if the library exports a symbol outside namespace fastblake and the C interface's
# fastblake_ prefix.
# Usage: cmake -D LIBRARY=libfastblake.a -D NM=nm [-D COFF=1] -P check_symbols.cmake
execute_process(COMMAND "${NM}" -g -C --defined-only "${LIBRARY}"
                OUTPUT_VARIABLE symbols RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "${NM} failed on ${LIBRARY}")
endif()
string(REPLACE "\n" ";" lines "${symbols}")
set(count 0)
set(foreign "")
foreach(line IN LISTS lines)
  # "address type name"; archive member headers and blank lines have no type letter.
  if(NOT line MATCHES "^[0-9a-fA-F]* +([A-Za-z]) +(.*)$")
    continue()
  endif()
  set(type "${CMAKE_MATCH_1}")
  set(name "${CMAKE_MATCH_2}")
  math(EXPR count "${count} + 1")
  # Weak (W, V) and unique (u) symbols are inline or template code of the standard library,
  # merged by the linker with any other copy: they cannot collide. Strong ones must be ours.
  # Sanitizers add their own (__odr_asan.*, __asan_*).
  if(name MATCHES "^(__odr_asan|__asan|__ubsan|__tsan)")
    continue()
  endif()
  # COFF (Windows) has no weak letter for them: the standard library's inline and template
  # code there is in COMDAT sections (one copy kept at link) named from std and the runtime,
  # with .refptr stubs to their data. Ours are still checked.
  if(COFF AND name MATCHES "^(\\.refptr\\.|std::|typeinfo for std::|typeinfo name for std::|vtable for std::|__gnu_cxx::|(auto|void|bool|char\\*|unsigned long long) std::|std::__cxx11::basic_string<[^>]*> std::)")
    continue()
  endif()
  if(name MATCHES "^(blake3_|blake2)" OR
     (type MATCHES "[TDBRC]" AND NOT name MATCHES "fastblake::" AND NOT name MATCHES "^fastblake_"))
    string(APPEND foreign "  ${name}\n")
  endif()
endforeach()
if(count EQUAL 0)
  message(FATAL_ERROR "no exported symbols found in ${LIBRARY}")
endif()
if(foreign)
  message(FATAL_ERROR "symbols outside namespace fastblake:\n${foreign}")
endif()
message(STATUS "${count} exported symbols, all in namespace fastblake or named fastblake_*")
