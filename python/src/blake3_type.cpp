// fastblake.blake3: blake3-py's class (the de-facto Python API for BLAKE3), with the same
// signature, attributes, results and errors, over the C++ library; hash_many, hash_file, and
// the subtree API.
#include <fastblake/blake3.hpp>
#include <fastblake/file.hpp>
#include <fastblake/thread_pool.hpp>

#include <cstring>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "common.hpp"
#include "module.hpp"

namespace fastblake::python {
namespace {

namespace b3 = fastblake::blake3;

constexpr std::int64_t auto_threads = -1;

// A pool of n threads, for a max_threads below the default pool's size (which serves the
// rest). Making threads per call would cost more than most inputs take to hash, so pools are
// kept; but callers may ask for any number of sizes, so the pools kept hold at most as many
// threads as the default pool, together, the least recently used going first (a pool in use
// lives on until its last call ends). Called with the GIL held: os.fork() holds it too, so no
// other thread is ever in here when a child is forked, and the child finds the lock free.
std::shared_ptr<thread_pool> pool_of(std::size_t n) {
  static std::mutex mutex;
  static std::list<std::shared_ptr<thread_pool>> pools;  // the most recently used first
  const std::lock_guard guard(mutex);
  for (auto it = pools.begin(); it != pools.end(); ++it) {
    if ((*it)->size() == n) {
      pools.splice(pools.begin(), pools, it);
      return pools.front();
    }
  }
  pools.push_front(std::make_shared<thread_pool>(n));
  std::size_t threads = 0;
  for (auto it = pools.begin(); it != pools.end();) {
    threads += (*it)->size();
    it = threads > thread_pool::default_threads() && it != pools.begin() ? pools.erase(it)
                                                                         : std::next(it);
  }
  return pools.front();
}

b3::key_type key_of(PyObject* key) {
  const input_buffer k(key, buffer_rules::bytes_only);
  if (k.size() != b3::key_size) {
    raise(PyExc_ValueError, ("expected a 32-byte key, found " + std::to_string(k.size())).c_str());
  }
  b3::key_type bytes;
  std::memcpy(bytes.data(), k.bytes().data(), bytes.size());
  return bytes;
}

// The mode blake3-py's keyword arguments name (null or None: not given).
b3::hazmat::mode mode_of(PyObject* key, PyObject* derive_key_context) {
  const bool keyed = key != nullptr && key != Py_None;
  const bool derived = derive_key_context != nullptr && derive_key_context != Py_None;
  if (keyed && derived) {
    raise(PyExc_ValueError, "cannot use key and derive_key_context at the same time");
  }
  if (keyed) return b3::hazmat::mode::keyed(key_of(key));
  if (derived) return b3::hazmat::mode::derive_key(str_argument(derive_key_context));
  return b3::hazmat::mode::hash();
}

// usedforsecurity: a bool (NumPy's too), as blake3-py takes it; ignored.
void check_bool(PyObject* value) {
  if (PyBool_Check(value)) return;
  const std::string type = type_name(value);
  if (type == "numpy.bool_" || type == "numpy.bool") return;
  raise_not_instance(value, "bool");
}

// A str or os.PathLike path, as blake3-py's update_mmap takes it (bytes are refused).
std::filesystem::path text_path_of(PyObject* path) {
  const ref fs = ref::take(PyOS_FSPath(path));
  if (!PyUnicode_Check(fs.get())) raise_not_instance(fs.get(), "str");
  return path_of(fs.get());
}

struct py_blake3 {
  b3::hasher hasher;
  std::int64_t max_threads;
  object_lock lock;

  py_blake3(const b3::hasher& h, std::int64_t threads) : hasher(h), max_threads(threads) {}

  // The pool for this object's threads: null for the default pool.
  std::shared_ptr<thread_pool> pool() const {
    if (max_threads == auto_threads ||
        static_cast<std::size_t>(max_threads) >= thread_pool::default_threads()) {
      return nullptr;
    }
    return pool_of(static_cast<std::size_t>(max_threads));
  }

  // Absorbs a buffer: on this object's threads as max_threads says, without the GIL from
  // release_gil_from bytes on.
  void absorb(PyObject* data) {
    const input_buffer in(data, buffer_rules::bytes_only);
    if (max_threads == 1 || in.size() < b3::auto_parallel_min_size) {
      lock.run(in.size() >= release_gil_from, [&] { hasher.update(in.bytes()); });
      return;
    }
    const std::shared_ptr<thread_pool> threads = pool();
    lock.run(true, [&] {
      if (threads) {
        hasher.update_parallel(in.bytes(), *threads);
      } else {
        hasher.update_parallel(in.bytes());
      }
    });
  }

  // Absorbs a file, mapped: on this object's threads as max_threads says, without the GIL.
  void absorb_file(PyObject* path) {
    const std::filesystem::path p = text_path_of(path);
    file_options options;
    options.strategy = max_threads == 1 ? file_strategy::mmap : file_strategy::mmap_parallel;
    const std::shared_ptr<thread_pool> threads = max_threads == 1 ? nullptr : pool();
    options.pool = threads.get();
    std::error_code ec;
    lock.run(true, [&] { b3::update_from_file(hasher, p, options, ec); });
    if (ec) raise_os_error(ec, path);
  }

  b3::output_reader reader() {
    return lock.run(false, [&] { return hasher.finalize_xof(); });
  }
};

PyTypeObject* blake3_type = nullptr;

py_blake3& hasher_argument(PyObject* value) {
  if (!Py_IS_TYPE(value, blake3_type)) raise_not_instance(value, "blake3");
  return value_of<py_blake3>(value);
}

ref output_bytes(b3::output_reader reader, PyObject* length, PyObject* seek) {
  const std::uint64_t n = length == nullptr ? b3::out_size : u64_argument(length);
  const std::uint64_t at = seek == nullptr ? 0 : u64_argument(seek);
  if (n > static_cast<std::uint64_t>(PY_SSIZE_T_MAX)) {
    raise(PyExc_OverflowError, "length overflows isize");
  }
  reader.seek(at);
  return bytes_filled(static_cast<std::size_t>(n),
                      [&](std::span<std::byte> out) { reader.fill(out); });
}

// -- The class -------------------------------------------------------------------------------

constexpr const char* construct_names[] = {"data", "key", "derive_key_context", "max_threads",
                                           "usedforsecurity"};
constexpr parameters construct_parameters{"blake3.__new__", construct_names, 1, 1, 0};

PyObject* construct(PyObject* type, PyObject* const* args, std::size_t nargsf,
                    PyObject* kwnames) noexcept {
  return guarded([&] {
    PyObject* v[std::size(construct_names)];
    parse(construct_parameters, args, PyVectorcall_NARGS(nargsf), kwnames, v);
    // blake3-py's order: the conversions, the mode, the threads, then the data.
    const std::int64_t threads = v[3] == nullptr ? 1 : signed_argument(v[3]);
    if (v[4] != nullptr) check_bool(v[4]);
    const b3::hazmat::mode mode = mode_of(v[1], v[2]);
    if (threads == 0 || threads < auto_threads) {
      raise(PyExc_ValueError, "not a valid number of threads");
    }
    ref self = ref::take(
        make_instance<py_blake3>(reinterpret_cast<PyTypeObject*>(type), b3::hasher(mode), threads));
    if (v[0] != nullptr && v[0] != Py_None) value_of<py_blake3>(self.get()).absorb(v[0]);
    return self.release();
  });
}

constexpr const char* update_names[] = {"data"};
constexpr parameters update_parameters{"blake3.update", update_names, 1, 1, 1};

PyObject* update(PyObject* self, PyObject* const* args, Py_ssize_t nargs,
                 PyObject* kwnames) noexcept {
  return guarded([&] {
    PyObject* data = nargs == 1 && kwnames == nullptr ? args[0] : nullptr;
    if (data == nullptr) parse(update_parameters, args, nargs, kwnames, &data);
    value_of<py_blake3>(self).absorb(data);
    return new_reference(self);
  });
}

constexpr const char* update_mmap_names[] = {"path"};
constexpr parameters update_mmap_parameters{"blake3.update_mmap", update_mmap_names, 0, 1, 1};

PyObject* update_mmap(PyObject* self, PyObject* const* args, Py_ssize_t nargs,
                      PyObject* kwnames) noexcept {
  return guarded([&] {
    PyObject* path;
    parse(update_mmap_parameters, args, nargs, kwnames, &path);
    value_of<py_blake3>(self).absorb_file(path);
    return new_reference(self);
  });
}

PyObject* copy(PyObject* self, PyObject*) noexcept {
  return guarded([&] {
    py_blake3& h = value_of<py_blake3>(self);
    // The state copied under the lock, the object made outside it (allocating may run a
    // finalizer that uses this object).
    const b3::hasher state = h.lock.run(false, [&] { return h.hasher; });
    return make_instance<py_blake3>(Py_TYPE(self), state, h.max_threads);
  });
}

PyObject* reset(PyObject* self, PyObject*) noexcept {
  return guarded([&] {
    py_blake3& h = value_of<py_blake3>(self);
    h.lock.run(false, [&] { h.hasher.reset(); });
    return new_reference(Py_None);
  });
}

constexpr const char* digest_names[] = {"length", "seek"};
constexpr parameters digest_parameters{"blake3.digest", digest_names, 0, 1, 0};
constexpr parameters hexdigest_parameters{"blake3.hexdigest", digest_names, 0, 1, 0};

ref digest_of(PyObject* self, const parameters& p, PyObject* const* args, Py_ssize_t nargs,
              PyObject* kwnames) {
  PyObject* v[2] = {nullptr, nullptr};
  if (nargs != 0 || kwnames != nullptr) parse(p, args, nargs, kwnames, v);
  return output_bytes(value_of<py_blake3>(self).reader(), v[0], v[1]);
}

PyObject* digest(PyObject* self, PyObject* const* args, Py_ssize_t nargs,
                 PyObject* kwnames) noexcept {
  return guarded(
      [&] { return digest_of(self, digest_parameters, args, nargs, kwnames).release(); });
}

PyObject* hexdigest(PyObject* self, PyObject* const* args, Py_ssize_t nargs,
                    PyObject* kwnames) noexcept {
  return guarded([&] {
    const ref out = digest_of(self, hexdigest_parameters, args, nargs, kwnames);
    return hex_of_bytes(out.get()).release();
  });
}

PyMethodDef blake3_methods[] = {
    {"update", as_method(update), METH_FASTCALL | METH_KEYWORDS,
     "update($self, data, /)\n--\n\nAbsorbs a buffer; returns self."},
    {"update_mmap", as_method(update_mmap), METH_FASTCALL | METH_KEYWORDS,
     "update_mmap($self, /, path)\n--\n\n"
     "Absorbs the file at `path` (str or os.PathLike), mapped; returns self."},
    {"copy", copy, METH_NOARGS, "copy($self, /)\n--\n\nAn independent copy of the hasher."},
    {"reset", reset, METH_NOARGS,
     "reset($self, /)\n--\n\nBack to the empty input, in the same mode."},
    {"digest", as_method(digest), METH_FASTCALL | METH_KEYWORDS,
     "digest($self, /, length=32, *, seek=0)\n--\n\n"
     "`length` bytes of output from position `seek` (the hash is the first 32)."},
    {"hexdigest", as_method(hexdigest), METH_FASTCALL | METH_KEYWORDS,
     "hexdigest($self, /, length=32, *, seek=0)\n--\n\ndigest(), in hex."},
    {nullptr, nullptr, 0, nullptr}};

PyType_Slot blake3_slots[] = {
    {Py_tp_new, reinterpret_cast<void*>(new_through_vectorcall)},
    {Py_tp_dealloc, reinterpret_cast<void*>(dealloc<py_blake3>)},
    {Py_tp_methods, blake3_methods},
    {Py_tp_doc,
     const_cast<char*>("blake3(data=None, /, *, key=None, derive_key_context=None, max_threads=1, "
                       "usedforsecurity=True)\n--\n\n"
                       "An incremental BLAKE3 hasher: blake3-py's interface (the blake3 package), "
                       "over fastblake's library. Plain hashing, keyed hashing (key: 32 bytes) or "
                       "key derivation (derive_key_context: a str). max_threads=blake3.AUTO lets "
                       "the library choose the threads for large inputs.")},
    {0, nullptr}};

// Mutable, as blake3-py's class is; final, as it is too.
PyType_Spec blake3_spec{"fastblake.blake3", sizeof(instance<py_blake3>), 0, class_flags(false),
                        blake3_slots};

// -- Functions -------------------------------------------------------------------------------

constexpr const char* hash_many_names[] = {"inputs", "key", "derive_key_context"};
constexpr parameters hash_many_parameters{"hash_many", hash_many_names, 0, 1, 1};

PyObject* hash_many(PyObject*, PyObject* const* args, Py_ssize_t nargs,
                    PyObject* kwnames) noexcept {
  return guarded([&] {
    PyObject* v[3];
    parse(hash_many_parameters, args, nargs, kwnames, v);
    const b3::hazmat::mode mode = mode_of(v[1], v[2]);
    const bool keyed = v[1] != nullptr && v[1] != Py_None;
    const b3::key_type key = keyed ? key_of(v[1]) : b3::key_type{};
    // Any iterable, taken whole first: the tuple holds every item (a generator's temporaries
    // included), so another thread changing a list cannot touch what is read below.
    const ref items = ref::take(PySequence_Tuple(v[0]));
    const auto count = static_cast<std::size_t>(tuple_size(items.get()));
    std::vector<std::optional<input_buffer>> held(count);
    std::vector<std::span<const std::byte>> spans(count);
    std::size_t total = 0;
    for (std::size_t i = 0; i < count; ++i) {
      held[i].emplace(tuple_item(items.get(), static_cast<Py_ssize_t>(i)),
                      buffer_rules::bytes_only);
      spans[i] = held[i]->bytes();
      total += spans[i].size();
    }
    std::vector<b3::digest> digests(count);
    maybe_released(total, [&] {
      if (keyed) {
        b3::keyed_hash_many(key, spans, digests);
      } else if (v[2] != nullptr && v[2] != Py_None) {
        // Key derivation: one hasher each (hash_many is the plain and keyed hash only).
        for (std::size_t i = 0; i < count; ++i) {
          digests[i] = b3::hasher(mode).update(spans[i]).finalize();
        }
      } else {
        b3::hash_many(spans, digests);
      }
    });
    ref out = ref::take(PyList_New(static_cast<Py_ssize_t>(count)));
    for (std::size_t i = 0; i < count; ++i) {
      list_fill(out.get(), static_cast<Py_ssize_t>(i),
                bytes_of(std::as_bytes(std::span(digests[i].bytes()))).release());
    }
    return out.release();
  });
}

constexpr const char* hash_file_names[] = {"path",     "key",      "derive_key_context",
                                           "strategy", "progress", "length"};
constexpr parameters hash_file_parameters{"hash_file", hash_file_names, 0, 1, 1};

PyObject* hash_file(PyObject*, PyObject* const* args, Py_ssize_t nargs,
                    PyObject* kwnames) noexcept {
  return guarded([&] {
    PyObject* v[6];
    parse(hash_file_parameters, args, nargs, kwnames, v);
    const std::string_view strategy = v[3] == nullptr ? "auto" : str_argument(v[3]);
    const std::uint64_t n = v[5] == nullptr ? b3::out_size : u64_argument(v[5]);
    if (n > static_cast<std::uint64_t>(PY_SSIZE_T_MAX)) {
      raise(PyExc_OverflowError, "length overflows isize");
    }
    return hash_file_with(b3::hasher(mode_of(v[1], v[2])), v[0], strategy,
                          or_default(v[4], Py_None), static_cast<std::size_t>(n))
        .release();
  });
}

PyMethodDef blake3_functions[] = {
    {"hash_many", as_method(hash_many), METH_FASTCALL | METH_KEYWORDS,
     "hash_many(inputs, *, key=None, derive_key_context=None)\n--\n\n"
     "The 32-byte BLAKE3 hashes of many buffers (any iterable of bytes-like objects), small "
     "ones side by side in the SIMD lanes."},
    {"hash_file", as_method(hash_file), METH_FASTCALL | METH_KEYWORDS,
     "hash_file(path, *, key=None, derive_key_context=None, strategy='auto', progress=None, "
     "length=32)\n--\n\n"
     "The BLAKE3 hash of the file at `path`, in bounded memory, with the GIL released. "
     "strategy: 'auto' (mapped on all threads for large regular files, read otherwise), "
     "'read', 'mmap' or 'mmap_parallel'. progress(done, total) is called about every 64 MiB "
     "and at the end; an exception it raises stops the hashing and is raised here, and "
     "returning False stops it with an OSError (ECANCELED)."},
    {nullptr, nullptr, 0, nullptr}};

// -- The subtree API -------------------------------------------------------------------------

b3::hazmat::chaining_value cv_of(PyObject* value, const char* what) {
  const input_buffer in(value, buffer_rules::bytes_only);
  if (in.size() != b3::out_size)
    raise(PyExc_ValueError, (std::string(what) + " must be 32 bytes").c_str());
  b3::hazmat::chaining_value cv;
  std::memcpy(cv.data(), in.bytes().data(), cv.size());
  return cv;
}

ref bytes_of_cv(const b3::hazmat::chaining_value& cv) {
  return bytes_of(std::as_bytes(std::span(cv)));
}

constexpr const char* set_input_offset_names[] = {"hasher", "offset"};
constexpr parameters set_input_offset_parameters{"set_input_offset", set_input_offset_names, 0, 2,
                                                 2};

PyObject* set_input_offset(PyObject*, PyObject* const* args, Py_ssize_t nargs,
                           PyObject* kwnames) noexcept {
  return guarded([&] {
    PyObject* v[2];
    parse(set_input_offset_parameters, args, nargs, kwnames, v);
    py_blake3& h = hasher_argument(v[0]);
    const std::uint64_t at = u64_argument(v[1]);
    h.lock.run(false, [&] { b3::hazmat::set_input_offset(h.hasher, at); });
    return new_reference(v[0]);
  });
}

constexpr const char* finalize_non_root_names[] = {"hasher"};
constexpr parameters finalize_non_root_parameters{"finalize_non_root", finalize_non_root_names, 0,
                                                  1, 1};

PyObject* finalize_non_root(PyObject*, PyObject* const* args, Py_ssize_t nargs,
                            PyObject* kwnames) noexcept {
  return guarded([&] {
    PyObject* hasher;
    parse(finalize_non_root_parameters, args, nargs, kwnames, &hasher);
    py_blake3& h = hasher_argument(hasher);
    return bytes_of_cv(h.lock.run(false, [&] { return b3::hazmat::finalize_non_root(h.hasher); }))
        .release();
  });
}

constexpr const char* merge_names[] = {"left",   "right", "key", "derive_key_context",
                                       "length", "seek"};
constexpr parameters merge_non_root_parameters{"merge_subtrees_non_root", std::span(merge_names, 4),
                                               0, 2, 2};
constexpr parameters merge_root_parameters{"merge_subtrees_root", merge_names, 0, 2, 2};

PyObject* merge_subtrees_non_root(PyObject*, PyObject* const* args, Py_ssize_t nargs,
                                  PyObject* kwnames) noexcept {
  return guarded([&] {
    PyObject* v[4];
    parse(merge_non_root_parameters, args, nargs, kwnames, v);
    return bytes_of_cv(b3::hazmat::merge_subtrees_non_root(
                           cv_of(v[0], "left"), cv_of(v[1], "right"), mode_of(v[2], v[3])))
        .release();
  });
}

PyObject* merge_subtrees_root(PyObject*, PyObject* const* args, Py_ssize_t nargs,
                              PyObject* kwnames) noexcept {
  return guarded([&] {
    PyObject* v[6];
    parse(merge_root_parameters, args, nargs, kwnames, v);
    return output_bytes(b3::hazmat::merge_subtrees_root_xof(
                            cv_of(v[0], "left"), cv_of(v[1], "right"), mode_of(v[2], v[3])),
                        v[4], v[5])
        .release();
  });
}

PyObject* left_subtree_len(PyObject*, PyObject* input_len) noexcept {
  return guarded([&] {
    return PyLong_FromUnsignedLongLong(b3::hazmat::left_subtree_len(u64_argument(input_len)));
  });
}

PyObject* max_subtree_len(PyObject*, PyObject* offset) noexcept {
  return guarded([&] {
    const auto most = b3::hazmat::max_subtree_len(u64_argument(offset));
    return most ? PyLong_FromUnsignedLongLong(*most) : new_reference(Py_None);
  });
}

PyMethodDef hazmat_functions[] = {
    {"set_input_offset", as_method(set_input_offset), METH_FASTCALL | METH_KEYWORDS,
     "set_input_offset(hasher, offset)\n--\n\n"
     "Declares that `hasher` (a fastblake.blake3 with nothing absorbed yet) hashes the subtree "
     "starting at byte `offset` (a multiple of CHUNK_LEN) of a larger input; returns it. Its "
     "digest() is then refused: use finalize_non_root()."},
    {"finalize_non_root", as_method(finalize_non_root), METH_FASTCALL | METH_KEYWORDS,
     "finalize_non_root(hasher)\n--\n\n"
     "The 32-byte chaining value of the subtree `hasher` absorbed."},
    {"merge_subtrees_non_root", as_method(merge_subtrees_non_root), METH_FASTCALL | METH_KEYWORDS,
     "merge_subtrees_non_root(left, right, *, key=None, derive_key_context=None)\n--\n\n"
     "The chaining value of the parent of two sibling subtrees."},
    {"merge_subtrees_root", as_method(merge_subtrees_root), METH_FASTCALL | METH_KEYWORDS,
     "merge_subtrees_root(left, right, *, key=None, derive_key_context=None, length=32, "
     "seek=0)\n--\n\n"
     "The output of the whole input from the root's two children: `length` bytes from "
     "`seek`."},
    {"left_subtree_len", left_subtree_len, METH_O,
     "left_subtree_len(input_len, /)\n--\n\n"
     "The bytes of the left child of a (sub)tree of input_len (more than CHUNK_LEN) bytes."},
    {"max_subtree_len", max_subtree_len, METH_O,
     "max_subtree_len(offset, /)\n--\n\n"
     "The most bytes a subtree starting at `offset` may hold; None for offset 0 (no limit)."},
    {nullptr, nullptr, 0, nullptr}};

}  // namespace

void add_blake3(PyObject* module) {
  blake3_type = add_class(module, blake3_spec, construct);
  set_class_attribute(blake3_type, "name", ref::take(PyUnicode_FromString("blake3")));
  set_class_attribute(blake3_type, "digest_size", ref::take(PyLong_FromSize_t(b3::out_size)));
  set_class_attribute(blake3_type, "block_size", ref::take(PyLong_FromLong(64)));
  set_class_attribute(blake3_type, "key_size", ref::take(PyLong_FromSize_t(b3::key_size)));
  set_class_attribute(blake3_type, "AUTO", ref::take(PyLong_FromLongLong(auto_threads)));
  if (PyModule_AddFunctions(module, blake3_functions) != 0) throw python_error_set{};
}

void add_blake3_hazmat(PyObject* module) {
  if (PyModule_AddIntConstant(module, "CHUNK_LEN", 1024) != 0) throw python_error_set{};
  if (PyModule_AddFunctions(module, hazmat_functions) != 0) throw python_error_set{};
}

}  // namespace fastblake::python
