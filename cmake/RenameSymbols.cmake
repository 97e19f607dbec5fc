# cmake -D NM=... -D OBJCOPY=... -D INPUT=lib.a -D OUTPUT=lib.a -D PREFIX=p_ -P RenameSymbols.cmake
# Copies the static library INPUT to OUTPUT with every symbol it defines renamed PREFIX<symbol>:
# its own calls between its objects follow the new names, and its calls into other libraries
# (undefined here) keep theirs.
execute_process(COMMAND "${NM}" --defined-only --extern-only --format=posix "${INPUT}"
                OUTPUT_VARIABLE listing RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "${NM} failed on ${INPUT}")
endif()
string(REPLACE "\n" ";" lines "${listing}")
set(map "")
set(count 0)
foreach(line IN LISTS lines)
  # "symbol type value size"; archive member headers ("lib.a[member.o]:") have no type.
  if(line MATCHES "^([A-Za-z_.$][A-Za-z0-9_.$]*) [A-Za-z] ")
    string(APPEND map "${CMAKE_MATCH_1} ${PREFIX}${CMAKE_MATCH_1}\n")
    math(EXPR count "${count} + 1")
  endif()
endforeach()
if(count EQUAL 0)
  message(FATAL_ERROR "${INPUT} defines no symbol to rename")
endif()
file(WRITE "${OUTPUT}.symbols" "${map}")
execute_process(COMMAND "${OBJCOPY}" "--redefine-syms=${OUTPUT}.symbols" "${INPUT}" "${OUTPUT}"
                RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "${OBJCOPY} failed on ${INPUT}")
endif()
