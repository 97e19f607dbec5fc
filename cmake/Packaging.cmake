# Debian packages with CPack (scripts/package): libfastblake (the shared library),
# libfastblake-dev (headers, the static or development symlink, CMake and pkg-config files)
# and fastblake-tools (fastblake-b3sum and fastblake-b2sum; b3sum through the alternatives
# system where the official one is not installed, b2sum never replaced unless asked); where
# MPI was found, fastblake-mpi (b3sum-mpi and the fastblake::mpi library).
set(CPACK_PACKAGE_NAME fastblake)
set(CPACK_PACKAGE_VENDOR fastblake)
set(CPACK_PACKAGE_CONTACT "fastblake developers <fastblake@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_GENERATOR DEB)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL runtime development)
if(TARGET b3sum)
  list(APPEND CPACK_COMPONENTS_ALL tools)
endif()
if(TARGET fastblake_mpi)
  list(APPEND CPACK_COMPONENTS_ALL mpi)
endif()
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# The tools' dependency on the library built here is declared, not looked up.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS "${PROJECT_BINARY_DIR}")

set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME libfastblake)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SECTION libs)
set(CPACK_DEBIAN_RUNTIME_DESCRIPTION "BLAKE3 and BLAKE2 hashing, fast on every CPU (library)")
# A shlibs file and the ldconfig trigger.
set(CPACK_DEBIAN_RUNTIME_PACKAGE_GENERATE_SHLIBS ON)

set(CPACK_DEBIAN_DEVELOPMENT_PACKAGE_NAME libfastblake-dev)
set(CPACK_DEBIAN_DEVELOPMENT_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_DEVELOPMENT_PACKAGE_DEPENDS "libfastblake (= ${PROJECT_VERSION})")
set(CPACK_DEBIAN_DEVELOPMENT_DESCRIPTION
    "BLAKE3 and BLAKE2 hashing, fast on every CPU (C and C++ development files)")

set(CPACK_DEBIAN_TOOLS_PACKAGE_NAME fastblake-tools)
set(CPACK_DEBIAN_TOOLS_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_TOOLS_PACKAGE_DEPENDS "libfastblake (= ${PROJECT_VERSION})")
set(CPACK_DEBIAN_TOOLS_DESCRIPTION
    "fastblake-b3sum and fastblake-b2sum: drop-ins for b3sum and coreutils' b2sum")
set(CPACK_DEBIAN_TOOLS_PACKAGE_CONTROL_EXTRA
    "${PROJECT_SOURCE_DIR}/cmake/debian/postinst;${PROJECT_SOURCE_DIR}/cmake/debian/prerm")
set(CPACK_DEBIAN_TOOLS_PACKAGE_CONTROL_STRICT_PERMISSION ON)

set(CPACK_DEBIAN_MPI_PACKAGE_NAME fastblake-mpi)
set(CPACK_DEBIAN_MPI_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_MPI_PACKAGE_DEPENDS "libfastblake (= ${PROJECT_VERSION})")
set(CPACK_DEBIAN_MPI_DESCRIPTION
    "b3sum-mpi: one input hashed with BLAKE3 across the nodes of an MPI job (Open MPI)")

include(CPack)
cpack_add_component(runtime DISPLAY_NAME "Library")
cpack_add_component(development DISPLAY_NAME "Development files" DEPENDS runtime)
if(TARGET b3sum)
  cpack_add_component(tools DISPLAY_NAME "Tools" DEPENDS runtime)
endif()
if(TARGET fastblake_mpi)
  cpack_add_component(mpi DISPLAY_NAME "MPI" DEPENDS runtime)
endif()
