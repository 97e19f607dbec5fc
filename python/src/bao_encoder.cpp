// fastblake.bao.Encoder: bao::encoder, for data of a length not known before its end, into a
// path, a descriptor or a binary file object.
#include <optional>
#include <stdexcept>

#include "bao_module.hpp"

namespace fastblake::python {
namespace {

// bao::encoder into a path or descriptor (the work done with the GIL released), or into a
// binary file object with seek(), write() and readinto() (with the GIL held, as it calls them).
// Every use takes the object's lock, as the reader's does (bao_reader.cpp).
struct py_encoder : python_file_io {
  ref output_object;
  std::optional<output_file> fd_output;
  ref file;
  std::optional<bao::encoder> encoder;
  object_lock lock;

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

  // f() on the encoder under the lock, its failures as Python's: an OSError of the output, a
  // ValueError once it can no longer be used. The GIL released where `large` and the output is
  // a descriptor (a file object is called with it).
  template <class F>
  auto run(PyObject* output, F&& f, bool large = true) {
    std::error_code ec;
    bool unusable = false;
    std::optional<decltype(f(*encoder))> result;
    lock.run(large && fd_output.has_value(), [&] {
      try {
        result.emplace(f(*encoder));
      } catch (const python_call_failed&) {
        // Under the lock: the error kept is this call's. (The GIL is held: a file was called.)
        raise_kept();
      } catch (const std::system_error& e) {
        ec = e.code();
      } catch (const std::logic_error&) {
        unusable = true;
      } catch (const std::runtime_error&) {
        ec = std::make_error_code(std::errc::io_error);
      }
    });
    if (result) return std::move(*result);
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
  bao_source data;
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
    e.run(
        e.output_object.get(),
        [&](bao::encoder& enc) {
          enc.update(input.bytes());
          return true;
        },
        input.size() >= release_gil_from);
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
  return guarded([&] {
    py_encoder& e = value_of<py_encoder>(self);
    return PyLong_FromUnsignedLongLong(e.run(
        e.output_object.get(), [](bao::encoder& enc) { return enc.count(); }, false));
  });
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

}  // namespace

void add_bao_encoder(PyObject* module) { add_class(module, encoder_spec, make_encoder); }

}  // namespace fastblake::python
