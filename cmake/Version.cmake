# fastblake_read_version(SOURCE_DIR OUT): the version, as include/fastblake/config.hpp states it
# (the one place it is written).
function(fastblake_read_version source_dir out)
  set(parts "")
  foreach(part MAJOR MINOR PATCH)
    file(STRINGS "${source_dir}/include/fastblake/config.hpp" line
         REGEX "^#define FASTBLAKE_VERSION_${part} [0-9]+$")
    string(REGEX MATCH "[0-9]+$" number "${line}")
    if(number STREQUAL "")
      message(FATAL_ERROR "no FASTBLAKE_VERSION_${part} in ${source_dir}/include/fastblake/config.hpp")
    endif()
    list(APPEND parts "${number}")
  endforeach()
  list(JOIN parts "." version)
  set(${out} "${version}" PARENT_SCOPE)
endfunction()
