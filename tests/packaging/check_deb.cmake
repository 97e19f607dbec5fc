# Builds the Debian packages as scripts/package does (here with only the portable backend, to
# be quick), then checks them without installing anything: their names, contents and
# dependencies; the tools, run from the extracted packages, against the official test vector;
# and the C example compiled with pkg-config against the extracted libfastblake-dev.
cmake_minimum_required(VERSION 3.25)
include("${CMAKE_CURRENT_LIST_DIR}/common.cmake")

set(build "${WORK_DIR}/build")
run("${CMAKE_COMMAND}" -S "${SOURCE_DIR}" -B "${build}" -G "${GENERATOR}"
    "-DCMAKE_CXX_COMPILER=${CXX}" "-DCMAKE_C_COMPILER=${CC}" -DCMAKE_BUILD_TYPE=Release
    -DCMAKE_INSTALL_PREFIX=/usr -DBUILD_SHARED_LIBS=ON -DFASTBLAKE_BUILD_TESTS=OFF
    -DFASTBLAKE_BUILD_TOOLS=ON -DFASTBLAKE_TOOLS_PREFIX=fastblake- -DFASTBLAKE_CUDA=OFF
    -DFASTBLAKE_BACKENDS=portable)
run("${CMAKE_COMMAND}" --build "${build}")
execute_process(COMMAND cpack -G DEB WORKING_DIRECTORY "${build}" RESULT_VARIABLE status
                OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "cpack failed:\n${out}")
endif()

include("${SOURCE_DIR}/cmake/Version.cmake")
fastblake_read_version("${SOURCE_DIR}" version)
set(root "${WORK_DIR}/root")
foreach(package libfastblake libfastblake-dev fastblake-tools)
  file(GLOB deb "${build}/${package}_${version}_*.deb")
  if(NOT deb)
    message(FATAL_ERROR "no ${package}_${version}_*.deb in ${build}")
  endif()
  execute_process(COMMAND dpkg-deb --contents "${deb}" OUTPUT_VARIABLE contents)
  execute_process(COMMAND dpkg-deb --field "${deb}" Depends OUTPUT_VARIABLE depends)
  set(${package}_contents "${contents}")
  set(${package}_depends "${depends}")
  run(dpkg-deb --extract "${deb}" "${root}")
endforeach()

function(expect_match what text pattern)
  if(NOT text MATCHES "${pattern}")
    message(FATAL_ERROR "${what} does not match '${pattern}':\n${text}")
  endif()
endfunction()
expect_match("libfastblake's files" "${libfastblake_contents}"
             "/usr/lib/[^ \n]*libfastblake\\.so\\.0 -> libfastblake\\.so\\.${version}")
expect_match("libfastblake-dev's files" "${libfastblake-dev_contents}"
             "/usr/include/fastblake/fastblake\\.h")
expect_match("libfastblake-dev's files" "${libfastblake-dev_contents}" "/pkgconfig/fastblake\\.pc")
expect_match("libfastblake-dev's files" "${libfastblake-dev_contents}"
             "/cmake/fastblake/fastblakeConfig\\.cmake")
expect_match("libfastblake-dev's files" "${libfastblake-dev_contents}" "libfastblake\\.so -> ")
expect_match("fastblake-tools' files" "${fastblake-tools_contents}" "/usr/bin/fastblake-b3sum")
expect_match("fastblake-tools' files" "${fastblake-tools_contents}" "/usr/bin/fastblake-b2sum")
foreach(package libfastblake-dev fastblake-tools)
  expect_match("${package}'s dependencies" "${${package}_depends}"
               "libfastblake \\(= ${version}\\)")
endforeach()
# Neither package may take b2sum or b3sum's own paths: coreutils and the official b3sum own
# them.
if(fastblake-tools_contents MATCHES "/usr/bin/b[23]sum")
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
set(ENV{PKG_CONFIG_PATH} "${libdir}/pkgconfig")
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
message(STATUS "libfastblake, libfastblake-dev and fastblake-tools ${version}: contents, "
               "dependencies, tools and the C example checked")

# fastblake-mpi, where MPI was found: b3sum-mpi and its library, run from the package under
# mpiexec on two ranks.
file(GLOB deb "${build}/fastblake-mpi_${version}_*.deb")
if(deb)
  execute_process(COMMAND dpkg-deb --contents "${deb}" OUTPUT_VARIABLE contents)
  execute_process(COMMAND dpkg-deb --field "${deb}" Depends OUTPUT_VARIABLE depends)
  expect_match("fastblake-mpi's files" "${contents}" "/usr/bin/b3sum-mpi")
  expect_match("fastblake-mpi's files" "${contents}" "libfastblake_mpi\\.so\\.0 -> ")
  expect_match("fastblake-mpi's files" "${contents}" "/cmake/fastblake/fastblakeMpiTargets\\.cmake")
  expect_match("fastblake-mpi's dependencies" "${depends}" "libfastblake \\(= ${version}\\)")
  expect_match("fastblake-mpi's dependencies" "${depends}" "libopenmpi")
  run(dpkg-deb --extract "${deb}" "${root}")
  find_program(MPIEXEC NAMES mpiexec REQUIRED)
  set(ENV{OMPI_ALLOW_RUN_AS_ROOT} 1)
  set(ENV{OMPI_ALLOW_RUN_AS_ROOT_CONFIRM} 1)
  execute_process(COMMAND "${MPIEXEC}" -q --oversubscribe -n 2 "${root}/usr/bin/b3sum-mpi"
                          --no-names "${WORK_DIR}/abc"
                  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE status)
  expect_match("b3sum-mpi's output (status ${status}, ${err})" "${out}"
               "^6437b3ac38465133ffb63b75273a8db548c558465d79db03fd359c6cd5bd9d85\n$")
  message(STATUS "fastblake-mpi ${version}: contents, dependencies and b3sum-mpi checked")
elseif(EXISTS /usr/include/x86_64-linux-gnu/mpi/mpi.h OR EXISTS /usr/include/mpi/mpi.h)
  message(FATAL_ERROR "MPI is installed, but no fastblake-mpi package was built")
endif()
