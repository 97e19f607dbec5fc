# Debian packages with CPack (scripts/package), named and laid out by Debian policy:
#   libfastblake0         the shared library, SONAME libfastblake.so.0   (component runtime)
#   libfastblake-dev      headers, the development symlink, CMake and pkg-config files
#                                                                        (development)
#   fastblake-tools       fastblake-b3sum, fastblake-b2sum and fastblake-bao, their manual
#                         pages and completions; b3sum through the alternatives system where
#                         the official one is not installed, b2sum never replaced (tools)
# and where MPI was found:
#   libfastblake-mpi0     libfastblake_mpi.so.0                          (mpi_runtime)
#   libfastblake-mpi-dev  fastblake/mpi.hpp, its symlink and CMake targets, which need MPI's
#                         development files                              (mpi_development)
#   fastblake-mpi         b3sum-mpi, its manual page and completions     (mpi)
# With FASTBLAKE_DEBIAN_PACKAGES (the package preset), each carries /usr/share/doc/<package>/
# copyright (DEP-5: Apache-2.0) and changelog.gz, and the manual pages are compressed.
set(CPACK_PACKAGE_NAME fastblake)
set(CPACK_PACKAGE_VENDOR fastblake)
set(CPACK_PACKAGE_CONTACT "${FASTBLAKE_CONTACT}")
# CPack puts the summary before each package's own synopsis unless it is CPack's default.
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_NAME} built using CMake")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_GENERATOR DEB)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# The dependencies on the libraries built here are declared, not looked up.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS "${PROJECT_BINARY_DIR}")
set(CPACK_DEBIAN_PACKAGE_SECTION libs)
# A shlibs file for each shared library (CPack reads this for every package).
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
# Programs built against one 0.x.y run with any later 0.x release (same SONAME, versioned
# symbols).
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS_POLICY ">=")

set(_fastblake_exact "(= ${PROJECT_VERSION})")
# _fastblake_package(COMPONENT NAME SECTION DEPENDS SYNOPSIS DESCRIPTION): one package.
function(_fastblake_package component name section depends synopsis description)
  string(TOUPPER "${component}" c)
  set(CPACK_DEBIAN_${c}_PACKAGE_NAME "${name}" PARENT_SCOPE)
  set(CPACK_DEBIAN_${c}_PACKAGE_SECTION "${section}" PARENT_SCOPE)
  set(CPACK_DEBIAN_${c}_PACKAGE_DEPENDS "${depends}" PARENT_SCOPE)
  # The synopsis, then the extended description (CPack indents its lines).
  set(CPACK_DEBIAN_${c}_DESCRIPTION "${synopsis}\n${description}" PARENT_SCOPE)
  list(APPEND CPACK_COMPONENTS_ALL ${component})
  set(CPACK_COMPONENTS_ALL "${CPACK_COMPONENTS_ALL}" PARENT_SCOPE)
  if(FASTBLAKE_DEBIAN_PACKAGES)
    install(FILES "${PROJECT_BINARY_DIR}/debian/copyright" "${PROJECT_BINARY_DIR}/debian/changelog.gz"
            DESTINATION "${CMAKE_INSTALL_DATAROOTDIR}/doc/${name}" COMPONENT ${component})
  endif()
endfunction()

if(FASTBLAKE_DEBIAN_PACKAGES)
  configure_file("${PROJECT_SOURCE_DIR}/cmake/debian/copyright" "${PROJECT_BINARY_DIR}/debian/copyright"
                 COPYONLY)
  configure_file("${PROJECT_SOURCE_DIR}/cmake/debian/changelog.in"
                 "${PROJECT_BINARY_DIR}/debian/changelog" @ONLY)
  # Debian's compression: gzip -9, no name or time stamp (reproducible).
  execute_process(COMMAND gzip -9nf "${PROJECT_BINARY_DIR}/debian/changelog"
                  RESULT_VARIABLE _fastblake_status)
  if(NOT _fastblake_status EQUAL 0)
    message(FATAL_ERROR "gzip failed on ${PROJECT_BINARY_DIR}/debian/changelog")
  endif()
endif()

set(CPACK_COMPONENTS_ALL "")
# Lines of at most 80 characters (lintian's extended-description-line-too-long).
set(_fastblake_about
    "fastblake implements BLAKE3 (every mode, extendable output, multithreaded
tree hashing) and BLAKE2b, BLAKE2s, BLAKE2bp, BLAKE2sp and BLAKE2X, with SIMD
kernels chosen at run time.")
_fastblake_package(runtime libfastblake0 libs ""
  "BLAKE3 and BLAKE2 hashing, fast on every CPU (library)"
  "${_fastblake_about}\n.\nThis package holds the shared library.")
# The libraries' packages run ldconfig through its dpkg trigger, not from maintainer scripts
# (CPack writes those unless the package brings its own postinst and postrm).
set(_fastblake_library_control "${PROJECT_SOURCE_DIR}/cmake/debian/triggers"
    "${PROJECT_SOURCE_DIR}/cmake/debian/library/postinst"
    "${PROJECT_SOURCE_DIR}/cmake/debian/library/postrm")
set(CPACK_DEBIAN_RUNTIME_PACKAGE_CONTROL_EXTRA "${_fastblake_library_control}")
_fastblake_package(development libfastblake-dev libdevel "libfastblake0 ${_fastblake_exact}"
  "BLAKE3 and BLAKE2 hashing, fast on every CPU (development files)"
  "${_fastblake_about}\n.\nThis package holds the C and C++20 headers, the CMake package and
the pkg-config file.")
if(TARGET b3sum)
  _fastblake_package(tools fastblake-tools utils "libfastblake0 ${_fastblake_exact}"
    "fast drop-ins for b3sum, coreutils' b2sum and bao"
    "${_fastblake_about}\n.\nThis package holds fastblake-b3sum, which prints and checks
exactly what the official b3sum does, fastblake-b2sum, which does what
coreutils' b2sum does, and fastblake-bao, which makes, checks and slices Bao
encodings (BLAKE3 verified streaming) as the Rust bao tool does.")
  set(CPACK_DEBIAN_TOOLS_PACKAGE_CONTROL_EXTRA
      "${PROJECT_SOURCE_DIR}/cmake/debian/postinst;${PROJECT_SOURCE_DIR}/cmake/debian/prerm")
  set(CPACK_DEBIAN_TOOLS_PACKAGE_CONTROL_STRICT_PERMISSION ON)
endif()
if(TARGET fastblake_mpi)
  _fastblake_package(mpi_runtime libfastblake-mpi0 libs "libfastblake0 ${_fastblake_exact}"
    "BLAKE3 across the ranks of an MPI job (library)"
    "${_fastblake_about}\n.\nThis package holds libfastblake_mpi, which hashes one input or
output spread over the ranks of an MPI job (Open MPI).")
  set(CPACK_DEBIAN_MPI_RUNTIME_PACKAGE_CONTROL_EXTRA "${_fastblake_library_control}")
  _fastblake_package(mpi_development libfastblake-mpi-dev libdevel
    "libfastblake-mpi0 ${_fastblake_exact}, libfastblake-dev ${_fastblake_exact}, libopenmpi-dev"
    "BLAKE3 across the ranks of an MPI job (development files)"
    "${_fastblake_about}\n.\nThis package holds fastblake/mpi.hpp and the CMake targets of
fastblake::mpi (find_package(fastblake COMPONENTS mpi)).")
  if(TARGET b3sum-mpi)
    _fastblake_package(mpi fastblake-mpi utils "libfastblake-mpi0 ${_fastblake_exact}"
      "b3sum across the nodes of an MPI job"
      "${_fastblake_about}\n.\nThis package holds b3sum-mpi: one input hashed with BLAKE3
across the nodes of an MPI job, each reading its share, printing what b3sum
prints.")
  endif()
endif()

include(CPack)
