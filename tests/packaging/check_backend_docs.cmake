# Fails unless every document that lists the backends lists them as cmake/Backends.cmake does,
# in its order: the names are stated once, there, and the documents follow.
# Usage: cmake -D SOURCE_DIR=<repository> -D NAMES="avx512;avx2;..." -P check_backend_docs.cmake
list(JOIN NAMES ", " expected)
set(missing "")
foreach(document README.md include/fastblake/backend.hpp docs/architecture.md)
  file(READ "${SOURCE_DIR}/${document}" text)
  # Comments wrap lines: compare with the line breaks and comment markers taken out.
  string(REGEX REPLACE "\n *(//+|#)? *" " " text "${text}")
  string(FIND "${text}" "${expected}" at)
  if(at EQUAL -1)
    string(APPEND missing "  ${document}\n")
  endif()
endforeach()
if(missing)
  message(FATAL_ERROR "these documents do not list the backends as \"${expected}\":\n${missing}")
endif()
message(STATUS "the backends are listed as \"${expected}\" everywhere")
