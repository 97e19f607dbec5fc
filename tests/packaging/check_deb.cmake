# Builds the Debian packages as scripts/package does (here with only the portable backend, to
# be quick, and warnings as errors: CI's build of that configuration, whose portable-only preset
# runs on request), then checks them without installing anything: their names, contents
# (copyright, changelog, manual pages, completions) and dependencies; lintian, where it is
# installed (no error, and no warning but those cmake/Packaging.cmake documents); the tools, run
# from the extracted packages, against the official test vector; and the C example compiled with
# pkg-config against the extracted libfastblake-dev.
cmake_minimum_required(VERSION 3.25)
include("${CMAKE_CURRENT_LIST_DIR}/common.cmake")

set(build "${WORK_DIR}/build")
# The package preset's hardening flags (Debian's: fortified calls, read-only relocations bound
# at load), from CMakePresets.json.
file(READ "${SOURCE_DIR}/CMakePresets.json" presets)
string(JSON count LENGTH "${presets}" configurePresets)
math(EXPR last "${count} - 1")
foreach(i RANGE ${last})
  string(JSON name GET "${presets}" configurePresets ${i} name)
  if(name STREQUAL "package")
    string(JSON FASTBLAKE_DEBIAN_HARDENING_CXXFLAGS GET "${presets}" configurePresets ${i}
           cacheVariables CMAKE_CXX_FLAGS)
    string(JSON FASTBLAKE_DEBIAN_HARDENING_LDFLAGS GET "${presets}" configurePresets ${i}
           cacheVariables CMAKE_EXE_LINKER_FLAGS)
  endif()
endforeach()
run("${CMAKE_COMMAND}" -S "${SOURCE_DIR}" -B "${build}" -G "${GENERATOR}"
    "-DCMAKE_CXX_COMPILER=${CXX}" "-DCMAKE_C_COMPILER=${CC}" -DCMAKE_BUILD_TYPE=Release
    -DCMAKE_INSTALL_PREFIX=/usr -DBUILD_SHARED_LIBS=ON -DFASTBLAKE_BUILD_TESTS=OFF
    -DFASTBLAKE_BUILD_TOOLS=ON -DFASTBLAKE_TOOLS_PREFIX=fastblake- -DFASTBLAKE_CUDA=OFF
    -DFASTBLAKE_DEBIAN_PACKAGES=ON -DFASTBLAKE_BACKENDS=portable -DFASTBLAKE_WARNINGS_AS_ERRORS=ON
    "-DCMAKE_CXX_FLAGS=${FASTBLAKE_DEBIAN_HARDENING_CXXFLAGS}"
    "-DCMAKE_EXE_LINKER_FLAGS=${FASTBLAKE_DEBIAN_HARDENING_LDFLAGS}"
    "-DCMAKE_SHARED_LINKER_FLAGS=${FASTBLAKE_DEBIAN_HARDENING_LDFLAGS}")
run("${CMAKE_COMMAND}" --build "${build}")
execute_process(COMMAND cpack -G DEB WORKING_DIRECTORY "${build}" RESULT_VARIABLE status
                OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "cpack failed:\n${out}")
endif()

include("${SOURCE_DIR}/cmake/Version.cmake")
fastblake_read_version("${SOURCE_DIR}" version)
set(root "${WORK_DIR}/root")
set(packages libfastblake0 libfastblake-dev fastblake-tools)
file(GLOB mpi_deb "${build}/fastblake-mpi_${version}_*.deb")
if(mpi_deb)
  list(APPEND packages libfastblake-mpi0 libfastblake-mpi-dev fastblake-mpi)
elseif(EXISTS /usr/include/x86_64-linux-gnu/mpi/mpi.h OR EXISTS /usr/include/mpi/mpi.h)
  message(FATAL_ERROR "MPI is installed, but no fastblake-mpi package was built")
endif()
set(debs "")
foreach(package IN LISTS packages)
  file(GLOB deb "${build}/${package}_${version}_*.deb")
  if(NOT deb)
    message(FATAL_ERROR "no ${package}_${version}_*.deb in ${build}")
  endif()
  execute_process(COMMAND dpkg-deb --contents "${deb}" OUTPUT_VARIABLE contents)
  execute_process(COMMAND dpkg-deb --field "${deb}" Depends OUTPUT_VARIABLE depends)
  set(${package}_contents "${contents}")
  set(${package}_depends "${depends}")
  list(APPEND debs "${deb}")
  run(dpkg-deb --extract "${deb}" "${root}")
endforeach()

function(expect_match what text pattern)
  if(NOT text MATCHES "${pattern}")
    message(FATAL_ERROR "${what} does not match '${pattern}':\n${text}")
  endif()
endfunction()
# Each package: its copyright (DEP-5, Apache-2.0) and changelog, under its own name.
foreach(package IN LISTS packages)
  expect_match("${package}'s files" "${${package}_contents}"
               "/usr/share/doc/${package}/copyright\n")
  expect_match("${package}'s files" "${${package}_contents}"
               "/usr/share/doc/${package}/changelog\\.gz\n")
endforeach()
file(READ "${root}/usr/share/doc/libfastblake0/copyright" copyright)
expect_match("the copyright file" "${copyright}" "^Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n")
expect_match("the copyright file" "${copyright}" "\nLicense: Apache-2.0\n")
expect_match("the copyright file" "${copyright}" "/usr/share/common-licenses/Apache-2.0")
expect_match("libfastblake0's files" "${libfastblake0_contents}"
             "/usr/lib/[^ \n]*libfastblake\\.so\\.0 -> libfastblake\\.so\\.${version}")
foreach(tool fastblake-b3sum fastblake-b2sum fastblake-bao)
  foreach(file "/usr/share/man/man1/${tool}\\.1\\.gz" "/usr/share/bash-completion/completions/${tool}"
               "/usr/share/zsh/vendor-completions/_${tool}"
               "/usr/share/fish/vendor_completions.d/${tool}\\.fish")
    expect_match("fastblake-tools' files" "${fastblake-tools_contents}" "${file}\n")
  endforeach()
endforeach()
expect_match("libfastblake-dev's files" "${libfastblake-dev_contents}"
             "/usr/include/fastblake/fastblake\\.h")
expect_match("libfastblake-dev's files" "${libfastblake-dev_contents}" "/pkgconfig/fastblake\\.pc")
expect_match("libfastblake-dev's files" "${libfastblake-dev_contents}"
             "/cmake/fastblake/fastblakeConfig\\.cmake")
expect_match("libfastblake-dev's files" "${libfastblake-dev_contents}" "libfastblake\\.so -> ")
expect_match("fastblake-tools' files" "${fastblake-tools_contents}" "/usr/bin/fastblake-b3sum")
expect_match("fastblake-tools' files" "${fastblake-tools_contents}" "/usr/bin/fastblake-b2sum")
expect_match("fastblake-tools' files" "${fastblake-tools_contents}" "/usr/bin/fastblake-bao")
foreach(package libfastblake-dev fastblake-tools)
  expect_match("${package}'s dependencies" "${${package}_depends}"
               "libfastblake0 \\(= ${version}\\)")
endforeach()
# Neither package may take b2sum, b3sum or bao's own paths: coreutils, the official b3sum and
# the Rust bao own them.
if(fastblake-tools_contents MATCHES "/usr/bin/(b[23]sum|bao)")
  message(FATAL_ERROR "fastblake-tools installs over b2sum or b3sum:\n${fastblake-tools_contents}")
endif()

# The extracted packages work: the tools, and a C program built with their pkg-config file.
file(GLOB_RECURSE lib "${root}/usr/lib/*/libfastblake.so.0" "${root}/usr/lib/libfastblake.so.0")
get_filename_component(libdir "${lib}" DIRECTORY)
file(WRITE "${WORK_DIR}/abc" "abc")
set(ENV{LD_LIBRARY_PATH} "${libdir}")
execute_process(COMMAND "${root}/usr/bin/fastblake-b3sum" --no-names "${WORK_DIR}/abc"
                OUTPUT_VARIABLE out RESULT_VARIABLE status)
expect_match("fastblake-b3sum's output (status ${status})" "${out}"
             "^6437b3ac38465133ffb63b75273a8db548c558465d79db03fd359c6cd5bd9d85\n$")
execute_process(COMMAND "${root}/usr/bin/fastblake-b2sum" "${WORK_DIR}/abc"
                OUTPUT_VARIABLE out RESULT_VARIABLE status)
expect_match("fastblake-b2sum's output (status ${status})" "${out}"
             "^ba80a53f981c4d0d6a2797b69f12f6e94c212f14685ac4b74b12bb6fdbffa2d1")
execute_process(COMMAND "${root}/usr/bin/fastblake-bao" hash "${WORK_DIR}/abc"
                OUTPUT_VARIABLE out RESULT_VARIABLE status)
expect_match("fastblake-bao's output (status ${status})" "${out}"
             "^6437b3ac38465133ffb63b75273a8db548c558465d79db03fd359c6cd5bd9d85\n$")
# The .pc names /usr, as installed: a clean path, which pkg-config leaves out as the system's
# (no ../ in it, so nothing else is printed); read against the extracted tree through its
# sysroot, with the system paths kept.
set(ENV{PKG_CONFIG_PATH} "${libdir}/pkgconfig")
execute_process(COMMAND pkg-config --cflags fastblake OUTPUT_VARIABLE cflags
                OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE status)
if(NOT status EQUAL 0 OR cflags MATCHES "\\.\\.|-I")
  message(FATAL_ERROR "pkg-config --cflags fastblake on the packaged .pc: '${cflags}' "
                      "(status ${status}); expected no include path but the system's")
endif()
set(ENV{PKG_CONFIG_SYSROOT_DIR} "${root}")
set(ENV{PKG_CONFIG_ALLOW_SYSTEM_CFLAGS} 1)
set(ENV{PKG_CONFIG_ALLOW_SYSTEM_LIBS} 1)
execute_process(COMMAND pkg-config --cflags --libs fastblake OUTPUT_VARIABLE flags
                OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "pkg-config cannot read the extracted fastblake.pc")
endif()
separate_arguments(flags UNIX_COMMAND "${flags}")
run("${CC}" -std=c11 "${SOURCE_DIR}/examples/hash_file.c" -o "${WORK_DIR}/hash_file_c" ${flags})
execute_process(COMMAND "${WORK_DIR}/hash_file_c" "${WORK_DIR}/abc" OUTPUT_VARIABLE out)
expect_match("the C example's output" "${out}"
             "^6437b3ac38465133ffb63b75273a8db548c558465d79db03fd359c6cd5bd9d85  ")
message(STATUS "libfastblake0, libfastblake-dev and fastblake-tools ${version}: contents, "
               "dependencies, tools and the C example checked")

# The MPI packages, where MPI was found: b3sum-mpi, run from the package under mpiexec on two
# ranks; the library's development files depend on MPI's.
if(mpi_deb)
  expect_match("libfastblake-mpi0's files" "${libfastblake-mpi0_contents}"
               "libfastblake_mpi\\.so\\.0 -> ")
  expect_match("libfastblake-mpi-dev's files" "${libfastblake-mpi-dev_contents}"
               "/cmake/fastblake/fastblakeMpiTargets\\.cmake")
  expect_match("libfastblake-mpi-dev's files" "${libfastblake-mpi-dev_contents}"
               "/usr/include/fastblake/mpi\\.hpp")
  if(libfastblake-dev_contents MATCHES "mpi\\.hpp|Mpi")
    message(FATAL_ERROR "libfastblake-dev carries MPI's files:\n${libfastblake-dev_contents}")
  endif()
  foreach(dependency "libopenmpi-dev" "libfastblake-dev \\(= ${version}\\)"
                     "libfastblake-mpi0 \\(= ${version}\\)")
    expect_match("libfastblake-mpi-dev's dependencies" "${libfastblake-mpi-dev_depends}"
                 "${dependency}")
  endforeach()
  expect_match("libfastblake-mpi0's dependencies" "${libfastblake-mpi0_depends}" "libopenmpi")
  expect_match("fastblake-mpi's files" "${fastblake-mpi_contents}" "/usr/bin/b3sum-mpi\n")
  expect_match("fastblake-mpi's files" "${fastblake-mpi_contents}"
               "/usr/share/man/man1/b3sum-mpi\\.1\\.gz\n")
  expect_match("fastblake-mpi's dependencies" "${fastblake-mpi_depends}"
               "libfastblake-mpi0 \\(= ${version}\\)")
  find_program(MPIEXEC NAMES mpiexec REQUIRED)
  set(ENV{OMPI_ALLOW_RUN_AS_ROOT} 1)
  set(ENV{OMPI_ALLOW_RUN_AS_ROOT_CONFIRM} 1)
  # A session directory of its own (tests/CMakeLists.txt, fastblake_mpi_environment says why),
  # and no -q, so that a failure shows the launcher's own words.
  file(MAKE_DIRECTORY "${WORK_DIR}/mpi-session")
  set(ENV{OMPI_MCA_orte_tmpdir_base} "${WORK_DIR}/mpi-session")
  execute_process(COMMAND "${MPIEXEC}" --oversubscribe -n 2 "${root}/usr/bin/b3sum-mpi"
                          --no-names "${WORK_DIR}/abc"
                  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE status)
  expect_match("b3sum-mpi's output (status ${status}, ${err})" "${out}"
               "^6437b3ac38465133ffb63b75273a8db548c558465d79db03fd359c6cd5bd9d85\n$")
  message(STATUS "the MPI packages ${version}: contents, dependencies and b3sum-mpi checked")
endif()

# lintian: no error, and no warning but the kept ones (cmake/Packaging.cmake says why).
find_program(LINTIAN lintian)
if(LINTIAN)
  execute_process(COMMAND "${LINTIAN}" --pedantic --display-info ${debs}
                  OUTPUT_VARIABLE tags ERROR_VARIABLE lintian_err RESULT_VARIABLE status)
  include("${SOURCE_DIR}/cmake/debian/lintian_kept.cmake")
  # Brackets would hold a CMake list together across the line ends.
  string(REPLACE "[" "(" tags "${tags}")
  string(REPLACE "]" ")" tags "${tags}")
  string(REPLACE "\n" ";" tags "${tags}")
  set(refused "")
  foreach(line IN LISTS tags)
    # (CMake evaluates parentheses before MATCHES sets CMAKE_MATCH_n: two ifs.)
    if(line MATCHES "^([EW]): [^:]+: ([^ ]+)")
      set(tag "${CMAKE_MATCH_2}")
      if(CMAKE_MATCH_1 STREQUAL "E" OR NOT tag IN_LIST FASTBLAKE_LINTIAN_KEPT_WARNINGS)
        string(APPEND refused "  ${line}\n")
      endif()
    endif()
  endforeach()
  if(refused OR NOT status MATCHES "^[0-9]+$")
    message(FATAL_ERROR "lintian (status ${status}) reports:\n${refused}${lintian_err}")
  endif()
  message(STATUS "lintian: no errors, no warnings but the kept ones")
elseif(DEFINED ENV{FASTBLAKE_REQUIRE_LINTIAN})
  message(FATAL_ERROR "lintian is not installed (Debian package lintian)")
endif()
