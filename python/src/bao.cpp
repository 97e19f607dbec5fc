// fastblake.bao: Bao's encodings, slices and checking decoders (<fastblake/bao.hpp>) for
// Python. Inputs are any C-contiguous buffers, read with the GIL released; a decode that fails
// raises fastblake.bao.DecodeError (a ValueError) with the failing node's offset and why.
#include <fastblake/bao.hpp>

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "module.hpp"

namespace fastblake::python {
namespace {

PyObject* decode_error = nullptr;  // fastblake.bao.DecodeError, made by add_bao

unsigned group_argument(PyObject* value) {
  if (value == nullptr) return 0;
  const std::uint64_t group_log = u64_argument(value);
  if (group_log > bao::max_group_log) raise(PyExc_ValueError, "group_log must be at most 32");
  return static_cast<unsigned>(group_log);
}

blake3::digest hash_argument(PyObject* value) {
  const input_buffer hash(value, buffer_rules::bytes_only);
  if (hash.size() != blake3::out_size) raise(PyExc_ValueError, "hash must be 32 bytes");
  blake3::digest::bytes_type b;
  std::memcpy(b.data(), hash.bytes().data(), b.size());
  return blake3::digest(b);
}

ref bytes_of(const std::vector<std::byte>& v) {
  return ref::take(PyBytes_FromStringAndSize(reinterpret_cast<const char*>(v.data()),
                                             static_cast<Py_ssize_t>(v.size())));
}

// Raises DecodeError(message, offset, reason) for e, its offset and reason also as
// attributes. The GIL must be held.
[[noreturn]] void raise_decode_error(bao::errc reason, std::uint64_t offset) {
  const std::string message =
      bao::make_error_code(reason).message() + " (at byte " + std::to_string(offset) + ")";
  const char* why = reason == bao::errc::hash_mismatch ? "hash_mismatch" : "truncated";
  const ref error = ref::take(PyObject_CallFunction(decode_error, "s", message.c_str()));
  const ref at = ref::take(PyLong_FromUnsignedLongLong(offset));
  const ref because = ref::take(PyUnicode_FromString(why));
  if (PyObject_SetAttrString(error.get(), "offset", at.get()) != 0 ||
      PyObject_SetAttrString(error.get(), "reason", because.get()) != 0) {
    throw python_error_set{};
  }
  PyErr_SetObject(decode_error, error.get());
  throw python_error_set{};
}

// f() with the GIL released; a bao::error becomes DecodeError.
template <class F>
std::vector<std::byte> checked(F&& f) {
  std::vector<std::byte> out;
  std::uint64_t offset = 0;
  std::optional<bao::errc> reason;
  {
    gil_released unlocked;
    try {
      out = f();
    } catch (const bao::error& e) {
      offset = e.offset();
      reason = static_cast<bao::errc>(e.code().value());
    }
  }
  if (reason) raise_decode_error(*reason, offset);
  return out;
}

constexpr const char* encode_names[] = {"data", "group_log"};
constexpr parameters encode_parameters{"encode", encode_names, 1, 1, 1};
constexpr parameters encode_outboard_parameters{"encode_outboard", encode_names, 1, 1, 1};

// (encoding, hash) of data, written straight into the bytes object returned.
PyObject* encode_any(PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames,
                     const parameters& signature, bao::format f) {
  PyObject* v[2];
  parse(signature, args, nargs, kwnames, v);
  const input_buffer data(v[0]);
  const unsigned group_log = group_argument(v[1]);
  const std::uint64_t size = f == bao::format::combined
                                 ? bao::encoded_size(data.size(), group_log)
                                 : bao::outboard_size(data.size(), group_log);
  if (size > static_cast<std::uint64_t>(PY_SSIZE_T_MAX)) return PyErr_NoMemory();
  ref encoding = ref::take(PyBytes_FromStringAndSize(nullptr, static_cast<Py_ssize_t>(size)));
  const std::span out(reinterpret_cast<std::byte*>(PyBytes_AsString(encoding.get())),
                      static_cast<std::size_t>(size));
  blake3::digest hash;
  {
    gil_released unlocked;
    switch (f) {
      case bao::format::combined:
        hash = bao::encode(data.bytes(), out, group_log);
        break;
      case bao::format::outboard:
        hash = bao::encode_outboard(data.bytes(), out, group_log);
        break;
      case bao::format::post_order_outboard:
        hash = bao::encode_post_order_outboard(data.bytes(), out, group_log);
        break;
    }
  }
  const ref digest =
      ref::take(PyBytes_FromStringAndSize(reinterpret_cast<const char*>(hash.data()), hash.size()));
  return PyTuple_Pack(2, encoding.get(), digest.get());
}

PyObject* encode(PyObject*, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) noexcept {
  return guarded(
      [&] { return encode_any(args, nargs, kwnames, encode_parameters, bao::format::combined); });
}

PyObject* encode_outboard(PyObject*, PyObject* const* args, Py_ssize_t nargs,
                          PyObject* kwnames) noexcept {
  return guarded([&] {
    return encode_any(args, nargs, kwnames, encode_outboard_parameters, bao::format::outboard);
  });
}

constexpr const char* encode_file_names[] = {"path",      "output",   "outboard",
                                             "group_log", "strategy", "progress"};
constexpr parameters encode_file_parameters{"encode_file", encode_file_names, 2, 2, 2};

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

// The hash of the file at path, whose encoding (outboard: its outboard) goes to output as
// bao::encode_file writes it.
PyObject* encode_file(PyObject*, PyObject* const* args, Py_ssize_t nargs,
                      PyObject* kwnames) noexcept {
  return guarded([&]() -> PyObject* {
    PyObject* v[6];
    parse(encode_file_parameters, args, nargs, kwnames, v);
    const std::filesystem::path input = path_of(v[0]);
    const bool outboard = v[2] != nullptr && PyObject_IsTrue(v[2]) == 1;
    if (PyErr_Occurred() != nullptr) throw python_error_set{};
    const unsigned group_log = group_argument(v[3]);
    file_options options;
    options.strategy = strategy_of(v[4] != nullptr ? str_argument(v[4]) : "auto");
    progress_callback progress(or_default(v[5], Py_None));
    progress.install(options);
    const output_file out(v[1]);
    // Which side failed: the output's errors name it, the input's the input. (Set from the
    // pool's threads.)
    std::atomic<bool> writing_failed{false};
    const bao::write_at_function write = [&, to = bao::write_to_fd(out.fd)](
                                             std::uint64_t at, std::span<const std::byte> bytes) {
      try {
        to(at, bytes);
      } catch (...) {
        writing_failed = true;
        throw;
      }
    };
    blake3::digest hash;
    std::error_code ec;
    {
      gil_released unlocked;
      try {
        hash = outboard ? bao::encode_outboard_file(input, write, options, group_log)
                        : bao::encode_file(input, write, options, group_log);
      } catch (const std::system_error& e) {
        ec = e.code();
      }
    }
    progress.raise_what_it_raised();
    if (ec) raise_os_error(ec, writing_failed ? v[1] : v[0]);
    return PyBytes_FromStringAndSize(reinterpret_cast<const char*>(hash.data()), hash.size());
  });
}

constexpr const char* size_names[] = {"content_len", "group_log"};
constexpr parameters encoded_size_parameters{"encoded_size", size_names, 1, 1, 1};
constexpr parameters outboard_size_parameters{"outboard_size", size_names, 1, 1, 1};

PyObject* encoded_size(PyObject*, PyObject* const* args, Py_ssize_t nargs,
                       PyObject* kwnames) noexcept {
  return guarded([&] {
    PyObject* v[2];
    parse(encoded_size_parameters, args, nargs, kwnames, v);
    return PyLong_FromUnsignedLongLong(bao::encoded_size(u64_argument(v[0]), group_argument(v[1])));
  });
}

PyObject* outboard_size(PyObject*, PyObject* const* args, Py_ssize_t nargs,
                        PyObject* kwnames) noexcept {
  return guarded([&] {
    PyObject* v[2];
    parse(outboard_size_parameters, args, nargs, kwnames, v);
    return PyLong_FromUnsignedLongLong(
        bao::outboard_size(u64_argument(v[0]), group_argument(v[1])));
  });
}

constexpr const char* decode_names[] = {"hash", "encoded", "group_log"};
constexpr parameters decode_parameters{"decode", decode_names, 2, 2, 2};

PyObject* decode(PyObject*, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) noexcept {
  return guarded([&] {
    PyObject* v[3];
    parse(decode_parameters, args, nargs, kwnames, v);
    const blake3::digest hash = hash_argument(v[0]);
    const input_buffer encoded(v[1]);
    const unsigned group_log = group_argument(v[2]);
    return bytes_of(checked([&] { return bao::decode(hash, encoded.bytes(), group_log); }))
        .release();
  });
}

constexpr const char* decode_outboard_names[] = {"hash", "outboard", "data", "group_log"};
constexpr parameters decode_outboard_parameters{"decode_outboard", decode_outboard_names, 3, 3, 3};

PyObject* decode_outboard(PyObject*, PyObject* const* args, Py_ssize_t nargs,
                          PyObject* kwnames) noexcept {
  return guarded([&] {
    PyObject* v[4];
    parse(decode_outboard_parameters, args, nargs, kwnames, v);
    const blake3::digest hash = hash_argument(v[0]);
    const input_buffer outboard(v[1]), data(v[2]);
    const unsigned group_log = group_argument(v[3]);
    return bytes_of(checked([&] {
             return bao::decode_outboard(hash, outboard.bytes(), data.bytes(), group_log);
           }))
        .release();
  });
}

constexpr const char* slice_names[] = {"encoded", "start", "count", "group_log"};
constexpr parameters extract_slice_parameters{"extract_slice", slice_names, 3, 3, 3};
constexpr const char* slice_outboard_names[] = {"outboard", "data", "start", "count", "group_log"};
constexpr parameters extract_slice_outboard_parameters{"extract_slice_outboard",
                                                       slice_outboard_names, 4, 4, 4};

PyObject* extract_slice(PyObject*, PyObject* const* args, Py_ssize_t nargs,
                        PyObject* kwnames) noexcept {
  return guarded([&] {
    PyObject* v[4];
    parse(extract_slice_parameters, args, nargs, kwnames, v);
    const input_buffer encoded(v[0]);
    const std::uint64_t start = u64_argument(v[1]), count = u64_argument(v[2]);
    const unsigned group_log = group_argument(v[3]);
    return bytes_of(checked([&] {
             return bao::extract_slice(encoded.bytes(), start, count, group_log);
           }))
        .release();
  });
}

PyObject* extract_slice_outboard(PyObject*, PyObject* const* args, Py_ssize_t nargs,
                                 PyObject* kwnames) noexcept {
  return guarded([&] {
    PyObject* v[5];
    parse(extract_slice_outboard_parameters, args, nargs, kwnames, v);
    const input_buffer outboard(v[0]), data(v[1]);
    const std::uint64_t start = u64_argument(v[2]), count = u64_argument(v[3]);
    const unsigned group_log = group_argument(v[4]);
    return bytes_of(checked([&] {
             return bao::extract_slice_outboard(outboard.bytes(), data.bytes(), start, count,
                                                group_log);
           }))
        .release();
  });
}

constexpr const char* decode_slice_names[] = {"hash", "slice", "start", "count", "group_log"};
constexpr parameters decode_slice_parameters{"decode_slice", decode_slice_names, 4, 4, 4};

PyObject* decode_slice(PyObject*, PyObject* const* args, Py_ssize_t nargs,
                       PyObject* kwnames) noexcept {
  return guarded([&] {
    PyObject* v[5];
    parse(decode_slice_parameters, args, nargs, kwnames, v);
    const blake3::digest hash = hash_argument(v[0]);
    const input_buffer slice(v[1]);
    const std::uint64_t start = u64_argument(v[2]), count = u64_argument(v[3]);
    const unsigned group_log = group_argument(v[4]);
    return bytes_of(checked([&] {
             return bao::decode_slice(hash, slice.bytes(), start, count, group_log);
           }))
        .release();
  });
}

// -- The reader (fastblake.bao.Decoder's engine) -----------------------------------------------

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

// bao::reader over Python sources: each a buffer (held for the reader's life) or a binary file
// object (seek() and readinto(), called with the GIL, which the reader's methods never release:
// it also serializes their use from several threads).
struct py_reader : python_file_io {
  struct source {
    std::unique_ptr<input_buffer> buffer;
    ref file;
  };
  source tree, data;
  std::optional<bao::reader> reader;

  bao::read_at_function read_function(source& s) {
    if (s.buffer) return bao::read_from(s.buffer->bytes());
    return [this, file = s.file.get()](std::uint64_t offset, std::span<std::byte> out) {
      return read_file(file, offset, out);
    };
  }

  // f() on the reader, its failures as Python's.
  template <class F>
  auto run(F&& f) {
    std::optional<bao::errc> reason;
    std::uint64_t offset = 0;
    try {
      return f(*reader);
    } catch (const bao::error& e) {
      reason = static_cast<bao::errc>(e.code().value());
      offset = e.offset();
    } catch (const python_call_failed&) {
      raise_kept();
    }
    raise_decode_error(*reason, offset);
  }
};

py_reader::source source_argument(PyObject* value) {
  py_reader::source s;
  if (PyObject_CheckBuffer(value) != 0) {
    s.buffer = std::make_unique<input_buffer>(value);
  } else if (PyObject_HasAttrString(value, "readinto") != 0 &&
             PyObject_HasAttrString(value, "seek") != 0) {
    s.file = ref::borrow(value);
  } else {
    raise_format(PyExc_TypeError, "a bytes-like object or a binary file is required, not '%s'",
                 type_name(value).c_str());
  }
  return s;
}

// The bytes of a source: a buffer's size, a file's from its end.
std::uint64_t size_of(const py_reader::source& s) {
  if (s.buffer) return s.buffer->size();
  const ref end = ref::take(PyObject_CallMethod(s.file.get(), "seek", "ii", 0, 2));
  return u64_argument(end.get());
}

constexpr const char* reader_names[] = {"hash",    "encoded", "data",  "group_log",
                                        "threads", "start",   "count", "post_order"};
constexpr parameters reader_parameters{"Reader", reader_names, 3, 3, 2};

PyObject* make_reader(PyObject* type, PyObject* const* args, std::size_t nargsf,
                      PyObject* kwnames) noexcept {
  return guarded([&] {
    PyObject* v[8];
    parse(reader_parameters, args, PyVectorcall_NARGS(nargsf), kwnames, v);
    const blake3::digest hash = hash_argument(v[0]);
    const unsigned group_log = group_argument(v[3]);
    const int threads = v[4] != nullptr ? PyObject_IsTrue(v[4]) : 0;
    if (threads < 0) throw python_error_set{};
    ref self = ref::take(make_instance<py_reader>(reinterpret_cast<PyTypeObject*>(type)));
    py_reader& r = value_of<py_reader>(self.get());
    r.tree = source_argument(v[1]);
    const bool outboard = v[2] != nullptr && v[2] != Py_None;
    if (outboard) r.data = source_argument(v[2]);
    // start and count: encoded is a slice of those bytes.
    if ((v[5] != nullptr) != (v[6] != nullptr)) {
      raise(PyExc_TypeError, "Reader: start and count go together");
    }
    if (v[5] != nullptr && outboard) raise(PyExc_TypeError, "Reader: a slice has no data");
    const int post_order = v[7] != nullptr ? PyObject_IsTrue(v[7]) : 0;
    if (post_order < 0) throw python_error_set{};
    if (post_order != 0 && !outboard) {
      raise(PyExc_ValueError, "post_order is for outboards: give the data too");
    }
    if (v[5] != nullptr) {
      r.reader.emplace(bao::reader::over_slice(hash, r.read_function(r.tree), u64_argument(v[5]),
                                               u64_argument(v[6]), group_log));
    } else {
      bao::read_at_function tree = r.read_function(r.tree);
      // A post-order outboard seen as Bao's pre-order one, its length from its last 8 bytes.
      if (post_order != 0) tree = bao::pre_order_view(std::move(tree), size_of(r.tree), group_log);
      r.reader.emplace(outboard
                           ? bao::reader(hash, std::move(tree), r.read_function(r.data), group_log)
                           : bao::reader(hash, std::move(tree), group_log));
    }
    if (threads != 0) r.reader->use_pool(thread_pool::default_pool());
    return self.release();
  });
}

PyObject* reader_readinto(PyObject* self, PyObject* buffer) noexcept {
  return guarded([&] {
    Py_buffer view;
    if (PyObject_GetBuffer(buffer, &view, PyBUF_WRITABLE) != 0) throw python_error_set{};
    const std::unique_ptr<Py_buffer, void (*)(Py_buffer*)> held(&view, PyBuffer_Release);
    const std::span out(static_cast<std::byte*>(view.buf), static_cast<std::size_t>(view.len));
    const std::size_t n =
        value_of<py_reader>(self).run([&](bao::reader& r) { return r.read(out); });
    return PyLong_FromSize_t(n);
  });
}

PyObject* reader_seek(PyObject* self, PyObject* position) noexcept {
  return guarded([&] {
    const std::uint64_t p = u64_argument(position);
    value_of<py_reader>(self).reader->seek(p);
    return PyLong_FromUnsignedLongLong(p);
  });
}

PyObject* reader_tell(PyObject* self, PyObject*) noexcept {
  return PyLong_FromUnsignedLongLong(value_of<py_reader>(self).reader->position());
}

PyObject* reader_length(PyObject* self, PyObject*) noexcept {
  return guarded([&] {
    return PyLong_FromUnsignedLongLong(
        value_of<py_reader>(self).run([](bao::reader& r) { return r.length(); }));
  });
}

PyMethodDef reader_methods[] = {
    {"readinto", reader_readinto, METH_O,
     "readinto($self, buffer, /)\n--\n\nChecked bytes from the position into buffer; how many "
     "(0 at the end). DecodeError where a node fails, after the checked bytes before it."},
    {"seek", reader_seek, METH_O, "seek($self, position, /)\n--\n\nMoves to any position."},
    {"tell", reader_tell, METH_NOARGS, "tell($self, /)\n--\n\nThe position."},
    {"length", reader_length, METH_NOARGS,
     "length($self, /)\n--\n\nThe data's length, checked (its last chunk is read first)."},
    {nullptr, nullptr, 0, nullptr}};

PyType_Slot reader_slots[] = {
    {Py_tp_new, reinterpret_cast<void*>(new_through_vectorcall)},
    {Py_tp_dealloc, reinterpret_cast<void*>(dealloc<py_reader>)},
    {Py_tp_methods, reader_methods},
    {Py_tp_doc,
     const_cast<char*>("Reader(hash, encoded, data=None, /, *, group_log=0, threads=False, "
                       "start=None, count=None, post_order=False)\n--\n\n"
                       "A verifying reader of a combined encoding, or of an outboard encoding and "
                       "its data (each a bytes-like object or a binary file with seek and "
                       "readinto), or with start and count of a slice (bao::reader::over_slice), "
                       "post_order=True: the outboard in post-order (bao::pre_order_view); "
                       "threads=True: on the default pool as bao::reader::use_pool: "
                       "fastblake.bao.Decoder's and SliceDecoder's engine.")},
    {0, nullptr}};

PyType_Spec reader_spec{"fastblake.bao.Reader", sizeof(instance<py_reader>), 0, class_flags(true),
                        reader_slots};

// -- The stream encoder (fastblake.bao.Encoder) -----------------------------------------------

// bao::encoder into a path or descriptor (the work done with the GIL released), or into a
// binary file object with seek(), write() and readinto() (with the GIL held, as it calls them).
struct py_encoder : python_file_io {
  ref output_object;
  std::optional<output_file> fd_output;
  ref file;
  std::optional<bao::encoder> encoder;

  // The encoder, resumed from the post-order outboard in the output where from is given (its
  // failures as Python's: DecodeError where outboard, data and hash do not agree).
  template <class Resume>
  void start(bao::read_at_function in, bao::write_at_function out, bao::format f,
             unsigned group_log, const std::optional<Resume>& from) {
    if (!from) {
      encoder.emplace(std::move(in), std::move(out), f, group_log);
      return;
    }
    const bao::read_at_function data =
        from->data.buffer
            ? bao::read_from(from->data.buffer->bytes())
            : [this, file = from->data.file.get()](std::uint64_t at, std::span<std::byte> into) {
                return read_file(file, at, into);
              };
    std::optional<bao::errc> reason;
    std::uint64_t offset = 0;
    try {
      encoder.emplace(bao::encoder::resume(std::move(in), std::move(out), from->length, data,
                                           from->hash, group_log));
      return;
    } catch (const bao::error& e) {
      reason = static_cast<bao::errc>(e.code().value());
      offset = e.offset();
    } catch (const python_call_failed&) {
      raise_kept();
    } catch (const std::system_error& e) {
      raise_os_error(e.code(), output_object.get());
    }
    raise_decode_error(*reason, offset);
  }

  // f() on the encoder, its failures as Python's: an OSError of the output, a ValueError once
  // it can no longer be used.
  template <class F>
  auto run(PyObject* output, F&& f) {
    std::error_code ec;
    bool unusable = false;
    {
      std::optional<gil_released> unlocked;
      if (fd_output) unlocked.emplace();
      try {
        return f(*encoder);
      } catch (const python_call_failed&) {
        unlocked.reset();
        raise_kept();
      } catch (const std::system_error& e) {
        ec = e.code();
      } catch (const std::logic_error&) {
        unusable = true;
      } catch (const std::runtime_error&) {
        ec = std::make_error_code(std::errc::io_error);
      }
    }
    if (unusable) raise(PyExc_ValueError, "the encoder was finalized, or failed");
    raise_os_error(ec, output);
  }
};

// A file object that is no path and has no file descriptor (io.BytesIO's fileno() raises).
bool is_file_object_without_descriptor(PyObject* output) {
  if (PyLong_Check(output) != 0 || PyUnicode_Check(output) != 0 || PyBytes_Check(output) != 0 ||
      PyObject_HasAttrString(output, "__fspath__") != 0) {
    return false;
  }
  if (PyObject_HasAttrString(output, "fileno") == 0) return true;
  const ref fd = ref::steal(PyObject_CallMethod(output, "fileno", nullptr));
  if (fd.get() != nullptr) return false;
  PyErr_Clear();
  return true;
}

// A file object with write(), seek() and readinto() that does not say it cannot read or seek.
bool can_write_and_read_back(PyObject* file) {
  for (const char* method : {"write", "seek", "readinto"}) {
    if (PyObject_HasAttrString(file, method) == 0) return false;
  }
  for (const char* question : {"readable", "seekable"}) {
    if (PyObject_HasAttrString(file, question) == 0) continue;
    const ref answer = ref::take(PyObject_CallMethod(file, question, nullptr));
    const int yes = PyObject_IsTrue(answer.get());
    if (yes < 0) throw python_error_set{};
    if (yes == 0) return false;
  }
  return true;
}

constexpr const char* encoder_names[] = {"output", "outboard", "post_order", "group_log", "resume"};
constexpr parameters encoder_parameters{"Encoder", encoder_names, 1, 1, 1};

// Encoder's resume=(data, hash): the data a post-order outboard describes (a bytes-like object
// or a binary file with seek() and readinto(), all of it), and its root hash.
struct resume_argument {
  py_reader::source data;
  std::uint64_t length = 0;
  blake3::digest hash;

  explicit resume_argument(PyObject* value) {
    // (The limited API's calls: the macros are not in it.)
    if (PyTuple_Check(value) == 0 || PyTuple_Size(value) != 2) {
      raise(PyExc_TypeError, "resume must be a tuple (data, hash)");
    }
    data = source_argument(PyTuple_GetItem(value, 0));
    hash = hash_argument(PyTuple_GetItem(value, 1));
    length = size_of(data);
  }
};

PyObject* make_encoder(PyObject* type, PyObject* const* args, std::size_t nargsf,
                       PyObject* kwnames) noexcept {
  return guarded([&] {
    PyObject* v[5];
    parse(encoder_parameters, args, PyVectorcall_NARGS(nargsf), kwnames, v);
    const int outboard = v[1] != nullptr ? PyObject_IsTrue(v[1]) : 0;
    const int post_order = v[2] != nullptr ? PyObject_IsTrue(v[2]) : 0;
    if (outboard < 0 || post_order < 0) throw python_error_set{};
    if (post_order != 0 && outboard == 0) {
      raise(PyExc_ValueError, "post_order is for outboards: give outboard=True too");
    }
    const unsigned group_log = group_argument(v[3]);
    const bool resuming = v[4] != nullptr && v[4] != Py_None;
    if (resuming && post_order == 0) {
      raise(PyExc_ValueError, "resume is for post-order outboards: give post_order=True too");
    }
    std::optional<resume_argument> from;
    if (resuming) from.emplace(v[4]);
    const bao::format f = post_order != 0 ? bao::format::post_order_outboard
                          : outboard != 0 ? bao::format::outboard
                                          : bao::format::combined;
    ref self = ref::take(make_instance<py_encoder>(reinterpret_cast<PyTypeObject*>(type)));
    py_encoder& e = value_of<py_encoder>(self.get());
    e.output_object = ref::borrow(v[0]);
    PyObject* out = v[0];
    if (is_file_object_without_descriptor(out)) {
      if (!can_write_and_read_back(out)) {
        raise(PyExc_TypeError, "the output must be seekable and readable: it is read back");
      }
      e.file = ref::borrow(out);
      e.start([&e, file = out](std::uint64_t at,
                               std::span<std::byte> into) { return e.read_file(file, at, into); },
              [&e, file = out](std::uint64_t at, std::span<const std::byte> bytes) {
                e.write_file(file, at, bytes);
              },
              f, group_log, from);
    } else {
      e.fd_output.emplace(out, true, resuming);
      e.start(bao::read_from_fd(e.fd_output->fd), bao::write_to_fd(e.fd_output->fd), f, group_log,
              from);
    }
    return self.release();
  });
}

PyObject* encoder_update(PyObject* self, PyObject* data) noexcept {
  return guarded([&] {
    py_encoder& e = value_of<py_encoder>(self);
    const input_buffer input(data);
    e.run(e.output_object.get(), [&](bao::encoder& enc) { enc.update(input.bytes()); });
    return PyLong_FromSize_t(input.size());
  });
}

PyObject* encoder_finalize(PyObject* self, PyObject*) noexcept {
  return guarded([&] {
    py_encoder& e = value_of<py_encoder>(self);
    const blake3::digest hash =
        e.run(e.output_object.get(), [](bao::encoder& enc) { return enc.finalize(); });
    return PyBytes_FromStringAndSize(reinterpret_cast<const char*>(hash.data()), hash.size());
  });
}

PyObject* encoder_count(PyObject* self, PyObject*) noexcept {
  return PyLong_FromUnsignedLongLong(value_of<py_encoder>(self).encoder->count());
}

PyMethodDef encoder_methods[] = {
    {"update", encoder_update, METH_O,
     "update($self, data, /)\n--\n\nTakes more data (any bytes-like object); returns how many "
     "bytes it took."},
    {"write", encoder_update, METH_O, "write($self, data, /)\n--\n\nThe same as update()."},
    {"finalize", encoder_finalize, METH_NOARGS,
     "finalize($self, /)\n--\n\nWrites the rest of the encoding (moving it to pre-order) and "
     "returns the root hash. The encoder can be used no more."},
    {"count", encoder_count, METH_NOARGS, "count($self, /)\n--\n\nThe bytes taken so far."},
    {nullptr, nullptr, 0, nullptr}};

PyType_Slot encoder_slots[] = {
    {Py_tp_new, reinterpret_cast<void*>(new_through_vectorcall)},
    {Py_tp_dealloc, reinterpret_cast<void*>(dealloc<py_encoder>)},
    {Py_tp_methods, encoder_methods},
    {Py_tp_doc,
     const_cast<char*>(
         "Encoder(output, /, *, outboard=False, post_order=False, group_log=0, resume=None)\n"
         "--\n\n"
         "An encoder of data of a length not known before its end, as the Rust crate's Encoder: "
         "update() (or write()) with each part, finalize() after the last, which returns the "
         "hash. output is a path (created or truncated), a file descriptor or a file with "
         "fileno() open for reading and writing, or a binary file object with seek(), write() "
         "and readinto() (io.BytesIO): the encoding is written in post-order as the data comes "
         "and moved to pre-order by finalize(), so it is read back. outboard=True writes the "
         "outboard encoding, post_order=True too bao-tree's post-order outboard (left so). "
         "resume=(data, hash) goes on from the post-order outboard of data (a bytes-like object "
         "or a binary file) in output (a path is then opened as it is), checked against hash: "
         "update() takes what was appended to data.")},
    {0, nullptr}};

PyType_Spec encoder_spec{"fastblake.bao.Encoder", sizeof(instance<py_encoder>), 0,
                         class_flags(true), encoder_slots};

// -- Post-order outboards ----------------------------------------------------------------------

constexpr parameters post_order_parameters{"encode_post_order_outboard", encode_names, 1, 1, 1};

PyObject* encode_post_order_outboard(PyObject*, PyObject* const* args, Py_ssize_t nargs,
                                     PyObject* kwnames) noexcept {
  return guarded([&] {
    return encode_any(args, nargs, kwnames, post_order_parameters,
                      bao::format::post_order_outboard);
  });
}

constexpr const char* convert_names[] = {"outboard", "group_log"};
constexpr parameters pre_order_parameters{"pre_order_outboard", convert_names, 1, 1, 1};
constexpr parameters post_order_convert_parameters{"post_order_outboard", convert_names, 1, 1, 1};

PyObject* convert_outboard(PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames,
                           const parameters& signature, bool to_pre_order) {
  PyObject* v[2];
  parse(signature, args, nargs, kwnames, v);
  const input_buffer outboard(v[0]);
  const unsigned group_log = group_argument(v[1]);
  return bytes_of(checked([&] {
           return to_pre_order ? bao::pre_order_outboard(outboard.bytes(), group_log)
                               : bao::post_order_outboard(outboard.bytes(), group_log);
         }))
      .release();
}

PyObject* pre_order_outboard(PyObject*, PyObject* const* args, Py_ssize_t nargs,
                             PyObject* kwnames) noexcept {
  return guarded(
      [&] { return convert_outboard(args, nargs, kwnames, pre_order_parameters, true); });
}

PyObject* post_order_outboard(PyObject*, PyObject* const* args, Py_ssize_t nargs,
                              PyObject* kwnames) noexcept {
  return guarded(
      [&] { return convert_outboard(args, nargs, kwnames, post_order_convert_parameters, false); });
}

constexpr int fast = METH_FASTCALL | METH_KEYWORDS;

PyMethodDef bao_functions[] = {
    {"encode", as_method(encode), fast,
     "encode(data, /, *, group_log=0)\n--\n\n"
     "(encoding, hash): Bao's combined encoding of data, with chunk groups of 2**group_log "
     "chunks, and its root hash (data's BLAKE3 hash)."},
    {"encode_outboard", as_method(encode_outboard), fast,
     "encode_outboard(data, /, *, group_log=0)\n--\n\n"
     "(outboard, hash): the encoding without the data."},
    {"encode_file", as_method(encode_file), fast,
     "encode_file(path, output, /, *, outboard=False, group_log=0, strategy='auto', "
     "progress=None)\n--\n\n"
     "The BLAKE3 hash of the regular file at path, whose combined encoding (outboard=True: "
     "its outboard encoding) is written to output, a path (created or truncated), a file "
     "descriptor or a binary file with fileno() (written from its start, with pwrite), as the "
     "file is read: strategy and progress(done, total) as hash_file takes them; big files "
     "mapped in windows, each encoded on every core, in bounded memory. OSError for a file "
     "that cannot be read or written, or that shrank while it was encoded."},
    {"encode_post_order_outboard", as_method(encode_post_order_outboard), fast,
     "encode_post_order_outboard(data, /, *, group_log=0)\n--\n\n"
     "(outboard, hash): bao-tree's post-order outboard (the parents in post-order, then the "
     "length as 8 bytes little-endian)."},
    {"pre_order_outboard", as_method(pre_order_outboard), fast,
     "pre_order_outboard(outboard, /, *, group_log=0)\n--\n\n"
     "A post-order outboard as Bao's pre-order one (nothing checked: decode it). DecodeError "
     "('truncated') where its size does not match the length in it."},
    {"post_order_outboard", as_method(post_order_outboard), fast,
     "post_order_outboard(outboard, /, *, group_log=0)\n--\n\n"
     "Bao's pre-order outboard as a post-order one."},
    {"encoded_size", as_method(encoded_size), fast,
     "encoded_size(content_len, /, *, group_log=0)\n--\n\n"
     "The size of the combined encoding of content_len bytes."},
    {"outboard_size", as_method(outboard_size), fast,
     "outboard_size(content_len, /, *, group_log=0)\n--\n\n"
     "The size of the outboard encoding of content_len bytes."},
    {"decode", as_method(decode), fast,
     "decode(hash, encoded, /, *, group_log=0)\n--\n\n"
     "The data a combined encoding holds, every node checked against hash; DecodeError if one "
     "fails. Bytes after the encoding's end are ignored."},
    {"decode_outboard", as_method(decode_outboard), fast,
     "decode_outboard(hash, outboard, data, /, *, group_log=0)\n--\n\n"
     "data, checked against hash with its outboard encoding; DecodeError if a node fails."},
    {"extract_slice", as_method(extract_slice), fast,
     "extract_slice(encoded, start, count, /, *, group_log=0)\n--\n\n"
     "The slice of a combined encoding for data bytes [start, start + count): a count of 0 "
     "counts as 1, a start past the end selects the last chunk. DecodeError if the encoding "
     "is shorter than its header says."},
    {"extract_slice_outboard", as_method(extract_slice_outboard), fast,
     "extract_slice_outboard(outboard, data, start, count, /, *, group_log=0)\n--\n\n"
     "The same slice, from an outboard encoding and its data."},
    {"decode_slice", as_method(decode_slice), fast,
     "decode_slice(hash, slice, start, count, /, *, group_log=0)\n--\n\n"
     "The data bytes [start, start + count) a slice proves (fewer where the data ends first), "
     "checked against hash; DecodeError if a node fails."},
    {nullptr, nullptr, 0, nullptr}};

}  // namespace

void add_bao(PyObject* module) {
  decode_error = PyErr_NewExceptionWithDoc(
      "fastblake.bao.DecodeError",
      "A Bao encoding, slice, outboard or its data failed to decode: `reason` is "
      "'hash_mismatch' (a node does not hash to what its parent or the root hash says) or "
      "'truncated' (the bytes end before a node); `offset` is the node's byte offset in the "
      "encoding or slice (for an outboard's data, in the data), or where the bytes ended.",
      PyExc_ValueError, nullptr);
  if (decode_error == nullptr) throw python_error_set{};
  Py_INCREF(decode_error);
  if (PyModule_AddObject(module, "DecodeError", decode_error) != 0) {
    Py_DECREF(decode_error);
    throw python_error_set{};
  }
  if (PyModule_AddIntConstant(module, "MAX_GROUP_LOG", bao::max_group_log) != 0 ||
      PyModule_AddFunctions(module, bao_functions) != 0) {
    throw python_error_set{};
  }
  add_class(module, reader_spec, make_reader);
  add_class(module, encoder_spec, make_encoder);
}

}  // namespace fastblake::python
