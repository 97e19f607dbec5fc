// The parts of the module, each added by its own file.
#pragma once

#include <fastblake/blake3.hpp>
#include <fastblake/file.hpp>

#include <filesystem>
#include <string_view>
#include <system_error>

#include "common.hpp"

namespace fastblake::python {

void add_blake3(PyObject* module);         // blake3_type.cpp: blake3, hash_many, hash_file
void add_blake3_hazmat(PyObject* module);  // blake3_type.cpp: the subtree API
void add_blake2(PyObject* module);         // blake2_types.cpp: blake2b, blake2s, bp, sp, xb, xs
void add_bao(PyObject* module);            // bao_module.cpp: fastblake.bao

/// The BLAKE3 output (`length` bytes) of h after absorbing the file at `path` (files.cpp):
/// strategy "auto", "read", "mmap" or "mmap_parallel"; progress(done, total) or None.
ref hash_file_with(blake3::hasher h, PyObject* path, std::string_view strategy, PyObject* progress,
                   std::size_t length);

/// A path argument as open() takes it (str, bytes or os.PathLike): ValueError for a NUL byte.
std::filesystem::path path_of(PyObject* path);
/// Raises OSError (FileNotFoundError and the other subclasses by errno) for a file error.
[[noreturn]] void raise_os_error(const std::error_code& ec, PyObject* path);
/// The strategy named "auto", "read", "mmap" or "mmap_parallel"; ValueError for another.
file_strategy strategy_of(std::string_view name);

/// progress(done, total), or None, as file_options.progress: called on the working thread with
/// the GIL taken for it; what it raises stops the work, and raise_what_it_raised() raises it on
/// the caller's thread afterwards. TypeError for something not callable.
class progress_callback {
 public:
  explicit progress_callback(PyObject* progress);
  void install(file_options& options);
  void raise_what_it_raised();

 private:
  PyObject* progress_;
  PyObject *type_ = nullptr, *value_ = nullptr, *traceback_ = nullptr;
};

}  // namespace fastblake::python
