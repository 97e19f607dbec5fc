// fastblake.hash_file: BLAKE3 of a file with the library's strategies, threads and progress.
#include <fastblake/file.hpp>

#include <cerrno>
#include <exception>
#include <string>

#include "module.hpp"

namespace fastblake::python {

std::filesystem::path path_of(PyObject* path) {
  // str, bytes or os.PathLike, encoded as the file system wants; TypeError for anything else
  // and ValueError ("embedded null byte") for a NUL, which would cut the path short.
  PyObject* converted = nullptr;
  if (PyUnicode_FSConverter(path, &converted) == 0) throw python_error_set{};
  const ref bytes = ref::take(converted);
  const std::span<std::byte> encoded = bytes_contents(converted);
  return std::filesystem::path(
      std::string(reinterpret_cast<const char*>(encoded.data()), encoded.size()));
}

void raise_os_error(const std::error_code& ec, PyObject* path) {
  // errno values become the OSError subclass for them (FileNotFoundError, IsADirectoryError,
  // PermissionError...); the library's own errors (a file that shrank) are EIO, with the
  // library's message.
  if (ec.category() == std::generic_category() || ec.category() == std::system_category()) {
    errno = ec.value();
    PyErr_SetFromErrnoWithFilenameObject(PyExc_OSError, path);
    throw python_error_set{};
  }
  const ref error =
      ref::take(PyObject_CallFunction(PyExc_OSError, "isO", EIO, ec.message().c_str(), path));
  PyErr_SetObject(PyExc_OSError, error.get());
  throw python_error_set{};
}

file_strategy strategy_of(std::string_view name) {
  if (name == "auto") return file_strategy::automatic;
  if (name == "read") return file_strategy::read;
  if (name == "mmap") return file_strategy::mmap;
  if (name == "mmap_parallel") return file_strategy::mmap_parallel;
  raise(PyExc_ValueError, "strategy must be 'auto', 'read', 'mmap' or 'mmap_parallel'");
}

progress_callback::progress_callback(PyObject* progress) : progress_(progress) {
  if (progress_ != Py_None && PyCallable_Check(progress_) == 0) {
    raise(PyExc_TypeError, "progress must be callable");
  }
}

void progress_callback::install(file_options& options) {
  if (progress_ == Py_None) return;
  options.progress = [this](std::uint64_t done, std::uint64_t total) {
    const PyGILState_STATE held = PyGILState_Ensure();
    PyObject* answer = PyObject_CallFunction(progress_, "KK", static_cast<unsigned long long>(done),
                                             static_cast<unsigned long long>(total));
    const bool go_on = answer != nullptr && answer != Py_False;
    if (answer == nullptr) PyErr_Fetch(&type_, &value_, &traceback_);
    Py_XDECREF(answer);
    PyGILState_Release(held);
    return go_on;
  };
}

void progress_callback::raise_what_it_raised() {
  if (type_ == nullptr) return;
  PyErr_Restore(type_, value_, traceback_);
  type_ = value_ = traceback_ = nullptr;
  throw python_error_set{};
}

ref hash_file_with(blake3::hasher h, PyObject* path, std::string_view strategy, PyObject* progress,
                   std::size_t length) {
  const std::filesystem::path p = path_of(path);
  file_options options;
  options.strategy = strategy_of(strategy);
  progress_callback callback(progress);
  callback.install(options);
  std::error_code ec;
  {
    gil_released unlocked;
    blake3::update_from_file(h, p, options, ec);
  }
  callback.raise_what_it_raised();
  if (ec) raise_os_error(ec, path);
  const blake3::output_reader reader = h.finalize_xof();
  return bytes_filled(length, [&](std::span<std::byte> out) {
    blake3::output_reader r = reader;
    r.fill(out);
  });
}

}  // namespace fastblake::python
