// What the parts of fastblake.bao share (bao_module.cpp: the module's functions; bao_reader.cpp:
// the verifying reader; bao_encoder.cpp: the stream encoder): its arguments, its DecodeError, the
// files it writes, and binary file objects read and written from inside the library.
#pragma once

#include <fastblake/bao.hpp>

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <memory>

#include "module.hpp"

namespace fastblake::python {

/// fastblake.bao.DecodeError, made by add_bao.
extern PyObject* bao_decode_error;

/// A group_log argument (0 where not given): 0 to bao::max_group_log.
unsigned group_argument(PyObject* value);
/// A 32-byte hash argument.
blake3::digest hash_argument(PyObject* value);
/// Raises DecodeError(message, offset, reason) for a failed decode, its offset and reason also
/// as attributes. The GIL must be held.
[[noreturn]] void raise_decode_error(bao::errc reason, std::uint64_t offset);

/// The classes, each added by its own file.
void add_bao_reader(PyObject* module);   // bao_reader.cpp: Reader
void add_bao_encoder(PyObject* module);  // bao_encoder.cpp: Encoder

// Where encode_file and Encoder write: a descriptor (an int, or a file object's fileno(),
// flushed first), or a path, created or truncated (for reading too where read_back; kept, and
// opened for reading and writing, where existing).
struct output_file {
  int fd = -1;
  bool owned = false;

  explicit output_file(PyObject* output, bool read_back = false, bool existing = false) {
    if (PyLong_Check(output) != 0) {
      fd = PyObject_AsFileDescriptor(output);
    } else if (PyObject_HasAttrString(output, "fileno") != 0) {
      if (PyObject_HasAttrString(output, "flush") != 0) {
        Py_XDECREF(PyObject_CallMethod(output, "flush", nullptr));
        if (PyErr_Occurred() != nullptr) throw python_error_set{};
      }
      fd = PyObject_AsFileDescriptor(output);
    } else {
      const std::filesystem::path p = path_of(output);
      {
        gil_released unlocked;
        do {
          fd = existing
                   ? ::open(p.c_str(), O_RDWR | O_CLOEXEC)
                   : ::open(p.c_str(),
                            (read_back ? O_RDWR : O_WRONLY) | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
        } while (fd < 0 && errno == EINTR);
      }
      if (fd < 0) raise_os_error(std::error_code(errno, std::generic_category()), output);
      owned = true;
    }
    if (fd < 0) throw python_error_set{};
  }
  output_file(const output_file&) = delete;
  output_file& operator=(const output_file&) = delete;
  ~output_file() {
    if (owned) ::close(fd);
  }
};

// Thrown through the library from a read function whose Python call raised: the error is kept
// in the reader's state, and set again when this reaches Python.
struct python_call_failed {};

// Binary file objects read and written at offsets from inside the library (with the GIL held):
// a Python error is kept and thrown through it as python_call_failed, then set again.
struct python_file_io {
  ref saved_type, saved_value, saved_traceback;

  template <class F>
  auto kept(F&& f) {
    try {
      return f();
    } catch (const python_error_set&) {
      PyObject *type = nullptr, *value = nullptr, *traceback = nullptr;
      PyErr_Fetch(&type, &value, &traceback);
      saved_type = ref::steal(type);
      saved_value = ref::steal(value);
      saved_traceback = ref::steal(traceback);
      throw python_call_failed{};
    }
  }

  [[noreturn]] void raise_kept() {
    PyErr_Restore(saved_type.release(), saved_value.release(), saved_traceback.release());
    throw python_error_set{};
  }

  static void seek(PyObject* file, std::uint64_t offset) {
    const ref at = ref::take(PyLong_FromUnsignedLongLong(offset));
    ref::take(PyObject_CallMethod(file, "seek", "O", at.get()));
  }

  void write_file(PyObject* file, std::uint64_t offset, std::span<const std::byte> bytes) {
    kept([&] {
      seek(file, offset);
      std::size_t done = 0;
      while (done < bytes.size()) {
        const ref view = ref::take(PyMemoryView_FromMemory(
            const_cast<char*>(reinterpret_cast<const char*>(bytes.data() + done)),
            static_cast<Py_ssize_t>(bytes.size() - done), PyBUF_READ));
        const ref n = ref::take(PyObject_CallMethod(file, "write", "O", view.get()));
        ref::take(PyObject_CallMethod(view.get(), "release", nullptr));
        if (n.get() == Py_None) raise(PyExc_BlockingIOError, "the output takes no data now");
        const std::uint64_t count = u64_argument(n.get());
        if (count == 0 || count > bytes.size() - done) {
          raise(PyExc_OSError, "write() wrote no bytes, or more than it was given");
        }
        done += static_cast<std::size_t>(count);
      }
    });
  }

  std::size_t read_file(PyObject* file, std::uint64_t offset, std::span<std::byte> out) {
    return kept([&] {
      seek(file, offset);
      std::size_t got = 0;
      while (got < out.size()) {
        const ref view = ref::take(
            PyMemoryView_FromMemory(reinterpret_cast<char*>(out.data() + got),
                                    static_cast<Py_ssize_t>(out.size() - got), PyBUF_WRITE));
        const ref n = ref::take(PyObject_CallMethod(file, "readinto", "O", view.get()));
        // A view the file kept is of no use once this returns.
        ref::take(PyObject_CallMethod(view.get(), "release", nullptr));
        if (n.get() == Py_None) raise(PyExc_BlockingIOError, "the source has no data now");
        const std::uint64_t count = u64_argument(n.get());
        if (count == 0) break;
        if (count > out.size() - got) raise(PyExc_ValueError, "readinto returned too many bytes");
        got += static_cast<std::size_t>(count);
      }
      return got;
    });
  }
};

/// Where a reader, or a resumed encoder, reads: a buffer (held while it is read) or a binary
/// file object with seek() and readinto().
struct bao_source {
  std::unique_ptr<input_buffer> buffer;
  ref file;
};
/// TypeError for anything else.
bao_source source_argument(PyObject* value);
/// The bytes of a source: a buffer's size, a file's from its end.
std::uint64_t size_of(const bao_source& s);

}  // namespace fastblake::python
