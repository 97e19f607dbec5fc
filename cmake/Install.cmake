# The library's install rules: its targets and headers, the CMake package and pkg-config file,
# and the Debian packages' layout (cmake/Packaging.cmake). Each wing installs its own parts.
include(CMakePackageConfigHelpers)
install(TARGETS fastblake EXPORT fastblakeTargets
  ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}" COMPONENT development
  LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}" COMPONENT runtime
          NAMELINK_COMPONENT development
  RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}" COMPONENT runtime
  INCLUDES DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}")
# fastblake/mpi.hpp goes with the MPI library, where there is one.
install(DIRECTORY include/fastblake DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}"
        COMPONENT development PATTERN mpi.hpp EXCLUDE)
# The licence, Apache-2.0, with the documentation (the Debian packages carry it in each
# package's copyright file instead: cmake/Packaging.cmake).
if(NOT FASTBLAKE_DEBIAN_PACKAGES)
  install(FILES LICENSE DESTINATION "${CMAKE_INSTALL_DOCDIR}" COMPONENT runtime)
endif()
install(EXPORT fastblakeTargets NAMESPACE fastblake:: DESTINATION "${FASTBLAKE_CMAKE_DIR}"
        COMPONENT development)
configure_package_config_file(cmake/fastblakeConfig.cmake.in
  "${PROJECT_BINARY_DIR}/fastblakeConfig.cmake" INSTALL_DESTINATION "${FASTBLAKE_CMAKE_DIR}")
write_basic_package_version_file("${PROJECT_BINARY_DIR}/fastblakeConfigVersion.cmake"
  COMPATIBILITY SameMinorVersion)
install(FILES "${PROJECT_BINARY_DIR}/fastblakeConfig.cmake"
              "${PROJECT_BINARY_DIR}/fastblakeConfigVersion.cmake"
        DESTINATION "${FASTBLAKE_CMAKE_DIR}" COMPONENT development)
# pkg-config paths: relative to the .pc file's folder, so that an installed tree can be
# moved; in a system prefix (the Debian packages' /usr), which never moves, absolute, since
# pkg-config would print a relative one unresolved (-I/usr/lib/x86_64-linux-gnu/pkgconfig/
# ../../../include), which defeats its filtering of the system's include directory.
if(CMAKE_INSTALL_PREFIX STREQUAL "/usr")
  set(FASTBLAKE_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
else()
  file(RELATIVE_PATH FASTBLAKE_PC_PREFIX "/prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/prefix")
  set(FASTBLAKE_PC_PREFIX "\${pcfiledir}/${FASTBLAKE_PC_PREFIX}")
endif()
set(FASTBLAKE_PC_CFLAGS "")
# The library is C++ inside: a C program linking it statically needs the C++ runtime and
# threads. With a shared library they are its own dependencies (Libs.private, for --static);
# with only the static one, `cc p.c $(pkg-config --cflags --libs fastblake)` must work too.
set(FASTBLAKE_PC_RUNTIME "-lstdc++ -lm -pthread")
if("c++" IN_LIST CMAKE_CXX_IMPLICIT_LINK_LIBRARIES)
  set(FASTBLAKE_PC_RUNTIME "-lc++ -lm -pthread")
endif()
set(FASTBLAKE_PC_LIBS "")
set(FASTBLAKE_PC_LIBS_PRIVATE "${FASTBLAKE_PC_RUNTIME}")
if(BUILD_SHARED_LIBS)
  set(FASTBLAKE_PC_CFLAGS "-DFASTBLAKE_SHARED")
else()
  set(FASTBLAKE_PC_LIBS " ${FASTBLAKE_PC_RUNTIME}")
  set(FASTBLAKE_PC_LIBS_PRIVATE "")
endif()
configure_file(cmake/fastblake.pc.in "${PROJECT_BINARY_DIR}/fastblake.pc" @ONLY)
install(FILES "${PROJECT_BINARY_DIR}/fastblake.pc"
        DESTINATION "${CMAKE_INSTALL_LIBDIR}/pkgconfig" COMPONENT development)
include(cmake/Packaging.cmake)
