"""Conan 2 recipe for fastblake: the library and its C interface, static or shared, with the
CMake target (fastblake::fastblake, find_package(fastblake)) and the pkg-config name (fastblake)
that an install from source gives. Tested by packaging/conan/test_package (scripts/conan).
"""
import os
import re

from conan import ConanFile
from conan.tools.build import check_min_cppstd
from conan.tools.cmake import CMake, CMakeToolchain, cmake_layout
from conan.tools.files import copy, load, rmdir


class FastblakeConan(ConanFile):
    name = "fastblake"
    license = "Apache-2.0"
    description = "BLAKE3, BLAKE2 and Bao: SIMD kernels chosen at run time, a persistent thread pool"
    topics = ("blake3", "blake2", "bao", "hash", "simd")
    package_type = "library"
    settings = "os", "arch", "compiler", "build_type"
    options = {"shared": [True, False], "fPIC": [True, False]}
    default_options = {"shared": False, "fPIC": True}
    # The library's sources, and the wings' folders that the top CMakeLists.txt reads whatever
    # it builds (the tools, MPI and CUDA are off).
    exports_sources = ("CMakeLists.txt", "LICENSE", "cmake/*", "include/*", "src/*", "mpi/*",
                       "tools/*", "cuda/*")

    def set_version(self):
        text = load(self, os.path.join(self.recipe_folder, "include", "fastblake", "config.hpp"))
        self.version = ".".join(re.search(rf"#define FASTBLAKE_VERSION_{part} (\d+)", text).group(1)
                                for part in ("MAJOR", "MINOR", "PATCH"))

    def config_options(self):
        if self.settings.os == "Windows":
            del self.options.fPIC

    def configure(self):
        if self.options.shared:
            self.options.rm_safe("fPIC")

    def validate(self):
        check_min_cppstd(self, 20)

    def layout(self):
        cmake_layout(self)

    def generate(self):
        toolchain = CMakeToolchain(self)
        toolchain.cache_variables.update({
            "FASTBLAKE_BUILD_TESTS": False, "FASTBLAKE_BUILD_TOOLS": False,
            "FASTBLAKE_BUILD_BENCH": False, "FASTBLAKE_INSTALL": True,
            "FASTBLAKE_MPI": "OFF", "FASTBLAKE_CUDA": "OFF",
        })
        toolchain.generate()

    def build(self):
        cmake = CMake(self)
        cmake.configure()
        cmake.build()

    def package(self):
        copy(self, "LICENSE", self.source_folder, os.path.join(self.package_folder, "licenses"))
        CMake(self).install()
        # Conan writes its own CMake and pkg-config files for consumers (package_info).
        rmdir(self, os.path.join(self.package_folder, "lib", "cmake"))
        rmdir(self, os.path.join(self.package_folder, "lib", "pkgconfig"))
        rmdir(self, os.path.join(self.package_folder, "share"))

    def package_info(self):
        self.cpp_info.set_property("cmake_file_name", "fastblake")
        self.cpp_info.set_property("cmake_target_name", "fastblake::fastblake")
        self.cpp_info.set_property("pkg_config_name", "fastblake")
        self.cpp_info.libs = ["fastblake"]
        if self.settings.os in ("Linux", "FreeBSD"):
            self.cpp_info.system_libs = ["pthread"]
