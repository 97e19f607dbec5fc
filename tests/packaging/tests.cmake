# Checks of the repository and of what the build made (label meta), and of the packages users
# get (label packaging), included by tests/CMakeLists.txt.

# Label meta: checks of the repository and of what the build made, which take no time, so
# that every preset runs them.
# The documents list the backends as the one list does (cmake/Backends.cmake).
add_test(NAME backend_names_in_docs
  COMMAND "${CMAKE_COMMAND}" -D "SOURCE_DIR=${PROJECT_SOURCE_DIR}"
          "-DNAMES=${FASTBLAKE_KNOWN_BACKENDS}"
          -P "${CMAKE_CURRENT_SOURCE_DIR}/packaging/check_backend_docs.cmake")

# Nothing the library exports may collide with the official BLAKE3 C library or libb2:
# every exported symbol lives in namespace fastblake.
add_test(NAME exported_symbols_are_namespaced
  COMMAND "${CMAKE_COMMAND}" -D "LIBRARY=$<TARGET_FILE:fastblake>" -D "NM=${CMAKE_NM}"
          -D "COFF=$<BOOL:${WIN32}>" -P "${CMAKE_CURRENT_SOURCE_DIR}/packaging/check_symbols.cmake")
set_tests_properties(backend_names_in_docs exported_symbols_are_namespaced PROPERTIES LABELS meta)

# Every include of src/ runs down the layers docs/architecture.md lists. The host's Python, by
# path: a cross build would run an imported executable under its emulator.
if(Python3_FOUND)
  add_test(NAME include_layers
    COMMAND "${Python3_EXECUTABLE}" "${CMAKE_CURRENT_SOURCE_DIR}/tools/check_layers.py"
            "${PROJECT_SOURCE_DIR}")
  set_tests_properties(include_layers PROPERTIES LABELS meta)
  # CMakePresets.json is what cmake/presets.py makes from its table.
  add_test(NAME presets_are_generated
    COMMAND "${Python3_EXECUTABLE}" "${PROJECT_SOURCE_DIR}/cmake/presets.py" --check)
  set_tests_properties(presets_are_generated PROPERTIES LABELS meta)
  # Bao's vectors as the C++ and C tests read them, made from the JSON as Bao publishes it.
  add_test(NAME bao_vectors_text_is_current
    COMMAND "${Python3_EXECUTABLE}" "${CMAKE_CURRENT_SOURCE_DIR}/vectors/bao_vectors_to_text.py"
            --check "${CMAKE_CURRENT_SOURCE_DIR}/vectors/bao_test_vectors.json"
            "${CMAKE_CURRENT_SOURCE_DIR}/vectors/bao_vectors.txt")
  set_tests_properties(bao_vectors_text_is_current PROPERTIES LABELS meta)
  # What b2sum prints as it is on Windows: glibc's C.UTF-8 class, from Python's Unicode data.
  add_test(NAME windows_unprintable_table_is_current
    COMMAND "${Python3_EXECUTABLE}" "${PROJECT_SOURCE_DIR}/tools/common/windows/unprintable.py"
            --check)
  set_tests_properties(windows_unprintable_table_is_current PROPERTIES LABELS meta
                       SKIP_RETURN_CODE 77)
endif()

# The benchmarks' per-level builds of the official C hold only their level's kernels, under
# their own prefix (the blake3/serial/official_c_<level> rows rely on both).
foreach(level IN LISTS FASTBLAKE_OFFICIAL_BLAKE3_LEVELS)
  if(NOT TARGET fastblake-bench)
    break()
  endif()
  get_target_property(_official_level_library fastblake_official_blake3_${level} IMPORTED_LOCATION)
  add_test(NAME official_c_${level}_holds_its_level_only
    COMMAND "${CMAKE_COMMAND}" -D "LIBRARY=${_official_level_library}" -D "NM=${CMAKE_NM}"
            -D "LEVEL=${level}" -P "${CMAKE_CURRENT_SOURCE_DIR}/packaging/check_official_level.cmake")
  set_tests_properties(official_c_${level}_holds_its_level_only PROPERTIES LABELS meta)
endforeach()

# Label packaging, in the one preset that turns it on (release): each of these builds the
# library again, and what they check does not change with the build around them.
option(FASTBLAKE_TEST_PACKAGES
       "Test the packages: consumers of the installed library and of add_subdirectory, and the Debian packages"
       OFF)

# Consumers get a working library: the installed package through find_package and pkg-config
# (C++ and C), and add_subdirectory as a shared library with its SONAME and versioned symbols
# (tests/packaging/check_install.cmake; natively only).
if(FASTBLAKE_TEST_PACKAGES AND NOT CMAKE_CROSSCOMPILING)
  add_test(NAME consumers_build_and_run
    COMMAND "${CMAKE_COMMAND}"
            -D "SOURCE_DIR=${PROJECT_SOURCE_DIR}"
            -D "BUILD_DIR=${PROJECT_BINARY_DIR}"
            -D "WORK_DIR=${CMAKE_CURRENT_BINARY_DIR}/packaging"
            -D "GENERATOR=${CMAKE_GENERATOR}"
            -D "CXX=${CMAKE_CXX_COMPILER}"
            -D "CC=${CMAKE_C_COMPILER}"
            -D "C_FLAGS=${CMAKE_C_FLAGS}"
            -D "CONFIG=$<CONFIG>"
            -D "CXX_FLAGS=${CMAKE_CXX_FLAGS}"
            -D "LINKER_FLAGS=${CMAKE_EXE_LINKER_FLAGS}"
            -P "${CMAKE_CURRENT_SOURCE_DIR}/packaging/check_install.cmake")
  set_tests_properties(consumers_build_and_run PROPERTIES LABELS packaging TIMEOUT 900 COST 30)
endif()

# Every optional reference and tool may be missing: a fresh configure with each hidden, and with
# all (tests/packaging/check_optional.py).
if(FASTBLAKE_TEST_PACKAGES AND Python3_FOUND AND NOT CMAKE_CROSSCOMPILING)
  add_test(NAME configure_without_each_optional_part
    COMMAND "${Python3_EXECUTABLE}" "${CMAKE_CURRENT_SOURCE_DIR}/packaging/check_optional.py"
            "${PROJECT_SOURCE_DIR}" "${CMAKE_CURRENT_BINARY_DIR}/optional" "${CMAKE_GENERATOR}")
  set_tests_properties(configure_without_each_optional_part PROPERTIES LABELS packaging
                       TIMEOUT 600 COST 30)
endif()

# The installed CMake package: find_package(fastblake) needs neither MPI nor the CUDA toolkit,
# and its components cuda and mpi find theirs only when asked for
# (tests/packaging/check_components.cmake). Configures only: quick in every build that
# installs, the sanitizers' (which build CUDA and MPI) included.
if(FASTBLAKE_INSTALL AND NOT CMAKE_CROSSCOMPILING AND NOT EMSCRIPTEN)
  add_test(NAME cmake_package_components
    COMMAND "${CMAKE_COMMAND}"
            -D "BUILD_DIR=${PROJECT_BINARY_DIR}"
            -D "WORK_DIR=${CMAKE_CURRENT_BINARY_DIR}/components"
            -D "GENERATOR=${CMAKE_GENERATOR}"
            -D "CXX=${CMAKE_CXX_COMPILER}"
            -D "HAS_CUDA=${FASTBLAKE_CUDA_FOUND}"
            -D "HAS_MPI=${FASTBLAKE_MPI_FOUND}"
            -P "${CMAKE_CURRENT_SOURCE_DIR}/packaging/check_components.cmake")
  set_tests_properties(cmake_package_components PROPERTIES LABELS packaging TIMEOUT 300)
endif()

# The Debian packages (scripts/package), built and checked without installing them, where
# dpkg-deb and cpack are.
find_program(FASTBLAKE_DPKG_DEB dpkg-deb)
if(FASTBLAKE_TEST_PACKAGES AND FASTBLAKE_DPKG_DEB AND UNIX AND NOT CMAKE_CROSSCOMPILING)
  add_test(NAME debian_packages
    COMMAND "${CMAKE_COMMAND}"
            -D "SOURCE_DIR=${PROJECT_SOURCE_DIR}"
            -D "WORK_DIR=${CMAKE_CURRENT_BINARY_DIR}/debian-packages"
            -D "GENERATOR=${CMAKE_GENERATOR}"
            -D "CXX=${CMAKE_CXX_COMPILER}"
            -D "CC=${CMAKE_C_COMPILER}"
            -P "${CMAKE_CURRENT_SOURCE_DIR}/packaging/check_deb.cmake")
  # lintian (scripts/test installs it) is part of the check, not skipped where it is missing.
  set_tests_properties(debian_packages PROPERTIES LABELS packaging TIMEOUT 900 COST 30
                       ENVIRONMENT FASTBLAKE_REQUIRE_LINTIAN=1)
endif()

# The Python distributions as users get them (scripts/wheels --test --one-per-kind): the sdist,
# then from it the manylinux2014 x86-64 abi3 wheel (CPython 3.12 on), installed into a fresh
# virtual environment of CPython 3.13 with no compiler reachable, with its test requirements
# from PyPI, and the whole pytest suite run on it (scripts/wheels --test builds and tests the
# 3.9, 3.10 and 3.11 wheels too; --all every kind). Label python, in the release preset; the
# CPythons come from pyenv.
option(FASTBLAKE_TEST_PYTHON "Test the Python wheels as pip installs them (PyPI must be reachable)"
       OFF)
if(FASTBLAKE_TEST_PYTHON AND NOT CMAKE_CROSSCOMPILING)
  add_test(NAME python_wheels COMMAND "${PROJECT_SOURCE_DIR}/scripts/wheels" --test --one-per-kind)
  set_tests_properties(python_wheels PROPERTIES LABELS python TIMEOUT 1800 COST 200
                       ENVIRONMENT FASTBLAKE_REQUIRE_REFERENCE_SUITES=1)
endif()

# The Conan 2 recipe as `conan create` builds and tests it, offline but for Conan itself (from
# PyPI): scripts/conan shared, the package built shared and used by its test package (C++ and C
# interfaces, pkg-config). The static one, Conan's default, is `scripts/conan static`: the
# consumers_build_and_run test already links the static library as an installed package.
option(FASTBLAKE_TEST_CONAN "Test the Conan recipe with conan create (PyPI must be reachable)" OFF)
if(FASTBLAKE_TEST_CONAN AND NOT CMAKE_CROSSCOMPILING)
  add_test(NAME conan_package COMMAND "${PROJECT_SOURCE_DIR}/scripts/conan" shared)
  set_tests_properties(conan_package PROPERTIES LABELS packaging TIMEOUT 900 COST 40)
endif()
