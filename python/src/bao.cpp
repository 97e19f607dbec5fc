// fastblake.bao: Bao's encodings, slices and checking decoders (<fastblake/bao.hpp>) for
// Python. Inputs are any C-contiguous buffers, read with the GIL released; a decode that fails
// raises fastblake.bao.DecodeError (a ValueError) with the failing node's offset and why.
#include <fastblake/bao.hpp>

#include <cstring>
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

// f() with the GIL released; a bao::error becomes DecodeError(message, offset, reason), its
// offset and reason also as attributes.
template <class F>
std::vector<std::byte> checked(F&& f) {
  std::vector<std::byte> out;
  std::string message;
  std::uint64_t offset = 0;
  bool failed = false;
  bao::errc reason{};
  {
    gil_released unlocked;
    try {
      out = f();
    } catch (const bao::error& e) {
      failed = true;
      offset = e.offset();
      reason = static_cast<bao::errc>(e.code().value());
      message = e.code().message() + " (at byte " + std::to_string(offset) + ")";
    }
  }
  if (!failed) return out;
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

constexpr const char* encode_names[] = {"data", "group_log"};
constexpr parameters encode_parameters{"encode", encode_names, 1, 1, 1};
constexpr parameters encode_outboard_parameters{"encode_outboard", encode_names, 1, 1, 1};

// (encoding, hash) of data, written straight into the bytes object returned.
PyObject* encode_any(PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames,
                     const parameters& signature, bool outboard) {
  PyObject* v[2];
  parse(signature, args, nargs, kwnames, v);
  const input_buffer data(v[0]);
  const unsigned group_log = group_argument(v[1]);
  const std::uint64_t size = outboard ? bao::outboard_size(data.size(), group_log)
                                      : bao::encoded_size(data.size(), group_log);
  if (size > static_cast<std::uint64_t>(PY_SSIZE_T_MAX)) return PyErr_NoMemory();
  ref encoding = ref::take(PyBytes_FromStringAndSize(nullptr, static_cast<Py_ssize_t>(size)));
  const std::span out(reinterpret_cast<std::byte*>(PyBytes_AsString(encoding.get())),
                      static_cast<std::size_t>(size));
  blake3::digest hash;
  {
    gil_released unlocked;
    hash = outboard ? bao::encode_outboard(data.bytes(), out, group_log)
                    : bao::encode(data.bytes(), out, group_log);
  }
  const ref digest =
      ref::take(PyBytes_FromStringAndSize(reinterpret_cast<const char*>(hash.data()), hash.size()));
  return PyTuple_Pack(2, encoding.get(), digest.get());
}

PyObject* encode(PyObject*, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) noexcept {
  return guarded([&] { return encode_any(args, nargs, kwnames, encode_parameters, false); });
}

PyObject* encode_outboard(PyObject*, PyObject* const* args, Py_ssize_t nargs,
                          PyObject* kwnames) noexcept {
  return guarded(
      [&] { return encode_any(args, nargs, kwnames, encode_outboard_parameters, true); });
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

constexpr int fast = METH_FASTCALL | METH_KEYWORDS;

PyMethodDef bao_functions[] = {
    {"encode", as_method(encode), fast,
     "encode(data, /, *, group_log=0)\n--\n\n"
     "(encoding, hash): Bao's combined encoding of data, with chunk groups of 2**group_log "
     "chunks, and its root hash (data's BLAKE3 hash)."},
    {"encode_outboard", as_method(encode_outboard), fast,
     "encode_outboard(data, /, *, group_log=0)\n--\n\n"
     "(outboard, hash): the encoding without the data."},
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
}

}  // namespace fastblake::python
