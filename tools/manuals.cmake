# The tools' manual pages (tools/TOOL/TOOL.1.in) and bash, zsh and fish completions
# (tools/TOOL/completions), made under the names the tools are installed as, and installed with
# each tool's component:
# FASTBLAKE_TOOLS_PREFIX renames b3sum, b2sum and bao (fastblake-b3sum in the packages), not
# b3sum-mpi.
# Included by tools/CMakeLists.txt; the manuals test (tools/tests) checks what this makes, under
# FASTBLAKE_MANUALS_DIR.
set(FASTBLAKE_MANUALS_DIR "${PROJECT_BINARY_DIR}/manuals")
set(FASTBLAKE_B3SUM_NAME "${FASTBLAKE_TOOLS_PREFIX}b3sum")
set(FASTBLAKE_B2SUM_NAME "${FASTBLAKE_TOOLS_PREFIX}b2sum")
set(FASTBLAKE_BAO_NAME "${FASTBLAKE_TOOLS_PREFIX}bao")
set(FASTBLAKE_B3SUM_MPI_NAME "b3sum-mpi")

# fastblake_tool_manuals(TOOL COMPONENT): TOOL's page and completions, from its templates,
# where every @B3SUM@, @B2SUM@, @BAO@ and @B3SUM_MPI@ is that tool's installed name, so that the pages
# name each other and the completions complete the installed command.
function(fastblake_tool_manuals tool component)
  set(B3SUM "${FASTBLAKE_B3SUM_NAME}")
  set(B2SUM "${FASTBLAKE_B2SUM_NAME}")
  set(BAO "${FASTBLAKE_BAO_NAME}")
  set(B3SUM_MPI "${FASTBLAKE_B3SUM_MPI_NAME}")
  string(TOUPPER "${tool}" variable)
  string(REPLACE "-" "_" variable "${variable}")
  set(name "${${variable}}")
  set(from "${PROJECT_SOURCE_DIR}/tools/${tool}")
  set(to "${FASTBLAKE_MANUALS_DIR}")
  configure_file("${from}/${tool}.1.in" "${to}/man1/${name}.1" @ONLY)
  configure_file("${from}/completions/${tool}.bash.in" "${to}/bash/${name}" @ONLY)
  configure_file("${from}/completions/_${tool}.zsh.in" "${to}/zsh/_${name}" @ONLY)
  configure_file("${from}/completions/${tool}.fish.in" "${to}/fish/${name}.fish" @ONLY)
  set(page "${to}/man1/${name}.1")
  if(FASTBLAKE_DEBIAN_PACKAGES)
    # Debian's manual pages are compressed: gzip -9, no name or time stamp (reproducible).
    execute_process(COMMAND gzip -9nkf "${page}" RESULT_VARIABLE status)
    if(NOT status EQUAL 0)
      message(FATAL_ERROR "gzip failed on ${page}")
    endif()
    set(page "${page}.gz")
  endif()
  if(FASTBLAKE_INSTALL)
    install(FILES "${page}" DESTINATION "${CMAKE_INSTALL_MANDIR}/man1" COMPONENT ${component})
    install(FILES "${to}/bash/${name}"
            DESTINATION "${CMAKE_INSTALL_DATADIR}/bash-completion/completions"
            COMPONENT ${component})
    install(FILES "${to}/zsh/_${name}" DESTINATION "${CMAKE_INSTALL_DATADIR}/zsh/vendor-completions"
            COMPONENT ${component})
    install(FILES "${to}/fish/${name}.fish"
            DESTINATION "${CMAKE_INSTALL_DATADIR}/fish/vendor_completions.d"
            COMPONENT ${component})
  endif()
endfunction()
