// fastblake.hash_file: BLAKE3 of a file with the library's strategies, threads and progress.
#include <fastblake/file.hpp>

#include <cerrno>
#include <exception>
#include <string>

#include "module.hpp"

namespace fastblake::python {

std::filesystem::path path_of(nb::handle path) {
  PyObject* fs = PyOS_FSPath(path.ptr());  // TypeError for anything but str, bytes, PathLike
  if (fs == nullptr) throw nb::python_error();
  nb::object owned = nb::steal(fs);
  if (PyBytes_Check(fs))
    return std::filesystem::path(std::string(PyBytes_AS_STRING(fs), PyBytes_GET_SIZE(fs)));
  PyObject* encoded = PyUnicode_EncodeFSDefault(fs);
  if (encoded == nullptr) throw nb::python_error();
  nb::object bytes = nb::steal(encoded);
  return std::filesystem::path(std::string(PyBytes_AS_STRING(encoded), PyBytes_GET_SIZE(encoded)));
}

void raise_os_error(const std::error_code& ec, nb::handle path) {
  // errno values become the OSError subclass for them (FileNotFoundError, IsADirectoryError,
  // PermissionError...); the library's own errors (a file that shrank) are EIO.
  errno = ec.category() == std::generic_category() || ec.category() == std::system_category()
              ? ec.value()
              : EIO;
  PyErr_SetFromErrnoWithFilenameObject(PyExc_OSError, path.ptr());
  throw nb::python_error();
}

namespace {

file_strategy strategy_of(std::string_view name) {
  if (name == "auto") return file_strategy::automatic;
  if (name == "read") return file_strategy::read;
  if (name == "mmap") return file_strategy::mmap;
  if (name == "mmap_parallel") return file_strategy::mmap_parallel;
  throw nb::value_error("strategy must be 'auto', 'read', 'mmap' or 'mmap_parallel'");
}

}  // namespace

nb::bytes hash_file_with(blake3::hasher h, nb::handle path, std::string_view strategy,
                         nb::handle progress, std::size_t length) {
  const std::filesystem::path p = path_of(path);
  file_options options;
  options.strategy = strategy_of(strategy);
  // The callback runs on the hashing thread, with the GIL taken for it; what it raises stops
  // the hashing and is raised here.
  std::exception_ptr raised;
  if (!progress.is_none()) {
    if (!PyCallable_Check(progress.ptr())) throw nb::type_error("progress must be callable");
    options.progress = [&](std::uint64_t done, std::uint64_t total) {
      nb::gil_scoped_acquire held;
      try {
        const nb::object answer = progress(done, total);
        return !(answer.is(nb::bool_(false)));
      } catch (...) {
        raised = std::current_exception();
        return false;
      }
    };
  }
  std::error_code ec;
  {
    nb::gil_scoped_release unlocked;
    blake3::update_from_file(h, p, options, ec);
  }
  if (raised) std::rethrow_exception(raised);
  if (ec) raise_os_error(ec, path);
  const blake3::output_reader reader = h.finalize_xof();
  return bytes_filled(length, [&](std::span<std::byte> out) {
    blake3::output_reader r = reader;
    r.fill(out);
  });
}

}  // namespace fastblake::python
