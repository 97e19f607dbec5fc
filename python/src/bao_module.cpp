// fastblake.bao: Bao's encodings, slices and checking decoders (<fastblake/bao.hpp>) for
// Python: the module's functions here, its classes in bao_reader.cpp and bao_encoder.cpp.
// Inputs are any C-contiguous buffers, read with the GIL released; a decode that fails raises
// fastblake.bao.DecodeError (a ValueError) with the failing node's offset and why.
#include <fastblake/bao.hpp>

#include <sys/stat.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bao_module.hpp"

namespace fastblake::python {

PyObject* bao_decode_error = nullptr;

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

[[noreturn]] void raise_decode_error(bao::errc reason, std::uint64_t offset) {
  const std::string message =
      bao::make_error_code(reason).message() + " (at byte " + std::to_string(offset) + ")";
  const char* why = reason == bao::errc::hash_mismatch ? "hash_mismatch" : "truncated";
  const ref error = ref::take(PyObject_CallFunction(bao_decode_error, "s", message.c_str()));
  const ref at = ref::take(PyLong_FromUnsignedLongLong(offset));
  const ref because = ref::take(PyUnicode_FromString(why));
  if (PyObject_SetAttrString(error.get(), "offset", at.get()) != 0 ||
      PyObject_SetAttrString(error.get(), "reason", because.get()) != 0) {
    throw python_error_set{};
  }
  PyErr_SetObject(bao_decode_error, error.get());
  throw python_error_set{};
}

bao_source source_argument(PyObject* value) {
  bao_source s;
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

std::uint64_t size_of(const bao_source& s) {
  if (s.buffer) return s.buffer->size();
  const ref end = ref::take(PyObject_CallMethod(s.file.get(), "seek", "ii", 0, 2));
  return u64_argument(end.get());
}

namespace {

ref bytes_of(const std::vector<std::byte>& v) {
  return ref::take(PyBytes_FromStringAndSize(reinterpret_cast<const char*>(v.data()),
                                             static_cast<Py_ssize_t>(v.size())));
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
    // An output that is the input (through any name or link) would destroy it as it is read:
    // refused before a path is opened (which truncates it), and a descriptor once it is known.
    struct stat input_info {};
    const bool input_known = ::stat(input.c_str(), &input_info) == 0;
    auto refuse_if_input = [&](const struct stat& o) {
      if (input_known && S_ISREG(o.st_mode) && o.st_dev == input_info.st_dev &&
          o.st_ino == input_info.st_ino) {
        raise(PyExc_ValueError, "encode_file: the output is the input file");
      }
    };
    if (PyLong_Check(v[1]) == 0 && PyObject_HasAttrString(v[1], "fileno") == 0) {
      struct stat o {};
      if (::stat(path_of(v[1]).c_str(), &o) == 0) refuse_if_input(o);
    }
    const output_file out(v[1]);
    struct stat o {};
    if (::fstat(out.fd, &o) == 0) refuse_if_input(o);
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

// Post-order outboards.

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
  bao_decode_error = PyErr_NewExceptionWithDoc(
      "fastblake.bao.DecodeError",
      "A Bao encoding, slice, outboard or its data failed to decode: `reason` is "
      "'hash_mismatch' (a node does not hash to what its parent or the root hash says) or "
      "'truncated' (the bytes end before a node); `offset` is the node's byte offset in the "
      "encoding or slice (for an outboard's data, in the data), or where the bytes ended.",
      PyExc_ValueError, nullptr);
  if (bao_decode_error == nullptr) throw python_error_set{};
  Py_INCREF(bao_decode_error);
  if (PyModule_AddObject(module, "DecodeError", bao_decode_error) != 0) {
    Py_DECREF(bao_decode_error);
    throw python_error_set{};
  }
  if (PyModule_AddIntConstant(module, "MAX_GROUP_LOG", bao::max_group_log) != 0 ||
      PyModule_AddFunctions(module, bao_functions) != 0) {
    throw python_error_set{};
  }
  add_bao_reader(module);
  add_bao_encoder(module);
}

}  // namespace fastblake::python
