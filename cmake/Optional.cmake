# fastblake_missing(OUT "FOUND_VARIABLE|what it is" ...): in OUT, the "what"s of the pairs whose
# variable is false, joined by ", "; empty when nothing is missing. For the one line that says
# what an optional part lacks, and so what is skipped.
function(fastblake_missing out)
  set(missing "")
  foreach(pair IN LISTS ARGN)
    string(REPLACE "|" ";" pair "${pair}")
    list(GET pair 0 found)
    list(GET pair 1 what)
    if(NOT ${found})
      list(APPEND missing "${what}")
    endif()
  endforeach()
  list(JOIN missing ", " missing)
  set(${out} "${missing}" PARENT_SCOPE)
endfunction()
