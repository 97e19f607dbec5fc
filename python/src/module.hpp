// The parts of the module, each bound by its own file.
#pragma once

#include <fastblake/blake3.hpp>

#include <filesystem>
#include <string_view>
#include <system_error>

#include "common.hpp"

namespace fastblake::python {

void bind_blake3(nb::module_& m);         // blake3.cpp: blake3, hash_many
void bind_blake3_hazmat(nb::module_& m);  // blake3.cpp: the subtree API
void bind_blake2(nb::module_& m);         // blake2.cpp: blake2b, blake2s, bp, sp, xb, xs

/// The BLAKE3 output (`length` bytes) of h after absorbing the file at `path` (files.cpp):
/// strategy "auto", "read", "mmap" or "mmap_parallel"; progress(done, total) or None.
nb::bytes hash_file_with(blake3::hasher h, nb::handle path, std::string_view strategy,
                         nb::handle progress, std::size_t length);

/// A path argument as os.fspath takes it (str, bytes or os.PathLike).
std::filesystem::path path_of(nb::handle path);
/// Raises OSError (FileNotFoundError and the other subclasses by errno) for a file error.
[[noreturn]] void raise_os_error(const std::error_code& ec, nb::handle path);

}  // namespace fastblake::python
