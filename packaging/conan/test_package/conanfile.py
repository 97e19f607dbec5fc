"""Conan's test of the fastblake package: a consumer found by find_package(fastblake), linked
to fastblake::fastblake, that hashes with the C++ and the C interfaces; and the package's
pkg-config name."""
import os

from conan import ConanFile
from conan.tools.build import can_run
from conan.tools.cmake import CMake, cmake_layout


class FastblakeTestConan(ConanFile):
    settings = "os", "arch", "compiler", "build_type"
    generators = "CMakeDeps", "CMakeToolchain", "PkgConfigDeps"

    def requirements(self):
        self.requires(self.tested_reference_str)

    def layout(self):
        cmake_layout(self)

    def build(self):
        cmake = CMake(self)
        cmake.configure()
        cmake.build()

    def test(self):
        if can_run(self):
            self.run(os.path.join(self.cpp.build.bindir, "consumer"), env="conanrun")
        # The pkg-config name that an install from source gives (PkgConfigDeps wrote its file).
        self.run(f"PKG_CONFIG_PATH={self.generators_folder} pkg-config --libs fastblake")
