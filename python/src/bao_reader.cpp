// fastblake.bao.Reader: bao::reader over buffers and binary file objects, the engine of
// fastblake.bao.Decoder and SliceDecoder.
#include <optional>

#include "bao_module.hpp"

namespace fastblake::python {
namespace {
// bao::reader over Python sources: each a buffer (held for the reader's life) or a binary file
// object (seek() and readinto(), called with the GIL held). Every use takes the object's lock,
// whatever the GIL does: a file object's methods release the GIL, and a reader over buffers
// releases it for large reads, so another thread may enter between any two calls, and a
// free-threaded CPython has no GIL at all.
struct py_reader : python_file_io {
  bao_source tree, data;
  std::optional<bao::reader> reader;
  object_lock lock;

  bao::read_at_function read_function(bao_source& s) {
    if (s.buffer) return bao::read_from(s.buffer->bytes());
    return [this, file = s.file.get()](std::uint64_t offset, std::span<std::byte> out) {
      return read_file(file, offset, out);
    };
  }

  // f() on the reader under the lock, its failures as Python's; the GIL released where `large`
  // and no file object is read.
  template <class F>
  auto run(F&& f, bool large = false) {
    std::optional<bao::errc> reason;
    std::uint64_t offset = 0;
    std::optional<decltype(f(*reader))> result;
    lock.run(large && tree.file.get() == nullptr && data.file.get() == nullptr, [&] {
      try {
        result.emplace(f(*reader));
      } catch (const bao::error& e) {
        reason = static_cast<bao::errc>(e.code().value());
        offset = e.offset();
      } catch (const python_call_failed&) {
        // Under the lock: the error kept is this call's. (The GIL is held: a file was read.)
        raise_kept();
      }
    });
    if (reason) raise_decode_error(*reason, offset);
    return *result;
  }
};

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
    const std::size_t n = value_of<py_reader>(self).run([&](bao::reader& r) { return r.read(out); },
                                                        out.size() >= release_gil_from);
    return PyLong_FromSize_t(n);
  });
}

PyObject* reader_seek(PyObject* self, PyObject* position) noexcept {
  return guarded([&] {
    const std::uint64_t p = u64_argument(position);
    value_of<py_reader>(self).run([&](bao::reader& r) {
      r.seek(p);
      return p;
    });
    return PyLong_FromUnsignedLongLong(p);
  });
}

PyObject* reader_tell(PyObject* self, PyObject*) noexcept {
  return guarded([&] {
    return PyLong_FromUnsignedLongLong(
        value_of<py_reader>(self).run([](bao::reader& r) { return r.position(); }));
  });
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

}  // namespace

void add_bao_reader(PyObject* module) { add_class(module, reader_spec, make_reader); }

}  // namespace fastblake::python
