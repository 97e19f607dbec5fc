// fastblake.blake2b and blake2s: hashlib's classes, with the same signature, attributes,
// results and errors (messages included), over the C++ library; and blake2bp, blake2sp,
// blake2xb and blake2xs in the same style.
#include <fastblake/blake2.hpp>
#include <fastblake/thread_pool.hpp>

#include <cstdint>
#include <iterator>
#include <new>
#include <string>
#include <vector>

#include "common.hpp"
#include "module.hpp"

// CPython declares the slot from 3.12 on; nanobind takes it, with this number, on every version.
#if !defined(Py_tp_vectorcall)
#define Py_tp_vectorcall 82
#endif

namespace fastblake::python {
namespace {

namespace b2 = fastblake::blake2;
using b2::family;

template <family F>
constexpr const char* name_of = F == family::b ? "blake2b" : "blake2s";

[[noreturn]] void raise_value_error(const std::string& message) {
  throw nb::value_error(message.c_str());
}

// A bytes-like argument (str refused with the buffer protocol's TypeError), held.
class bytes_argument {
 public:
  explicit bytes_argument(nb::handle value) : view_(checked(value)) {}
  // hashlib's "maximum <what> length is <most> bytes".
  std::span<const std::byte> at_most(std::size_t most, const char* what) const {
    if (view_.size() > most) {
      raise_value_error("maximum " + std::string(what) + " length is " + std::to_string(most) +
                        " bytes");
    }
    return view_.bytes();
  }

 private:
  static nb::handle checked(nb::handle value) {
    if (PyUnicode_Check(value.ptr()) || !PyObject_CheckBuffer(value.ptr())) {
      PyErr_Format(PyExc_TypeError, "a bytes-like object is required, not '%s'",
                   Py_TYPE(value.ptr())->tp_name);
      throw nb::python_error();
    }
    return value;
  }
  input_buffer view_;
};

// A C int argument as CPython's converter takes it: TypeError for a non-integer,
// OverflowError outside int's range.
int int_argument(nb::handle value) {
  if (PyLong_CheckExact(value.ptr())) {
    int overflow = 0;
    const long v = PyLong_AsLongAndOverflow(value.ptr(), &overflow);
    if (overflow == 0 && v >= INT32_MIN && v <= INT32_MAX) return static_cast<int>(v);
  }
  PyObject* number = PyNumber_Index(value.ptr());  // TypeError for a non-integer
  if (number == nullptr) throw nb::python_error();
  const nb::object owned = nb::steal(number);
  int overflow = 0;
  const long v = PyLong_AsLongAndOverflow(number, &overflow);
  if (v == -1 && PyErr_Occurred()) throw nb::python_error();
  if (overflow != 0 || v < INT32_MIN || v > INT32_MAX) {
    PyErr_SetString(PyExc_OverflowError, "Python int too large to convert to C int");
    throw nb::python_error();
  }
  return static_cast<int>(v);
}

// A value in [low, high], hashlib's ValueError otherwise: `message`, a PyErr_Format format
// that may name `high` (%d). No std::string is made unless the check fails.
unsigned ranged(int v, int low, int high, const char* message) {
  if (v < low || v > high) {
    PyErr_Format(PyExc_ValueError, message, high);
    throw nb::python_error();
  }
  return static_cast<unsigned>(v);
}

bool truth_of(nb::handle value) {
  const int truth = PyObject_IsTrue(value.ptr());
  if (truth < 0) throw nb::python_error();
  return truth != 0;
}

constexpr const char* digest_size_range = "digest_size must be between 1 and %d bytes";

// The size attributes hashlib's classes have (salt and person sizes where there are any).
template <class Class>
void set_size_attributes(Class& cls, std::size_t salt, std::size_t key, std::uint64_t digest) {
  if (salt != 0) {
    cls.attr("SALT_SIZE") = salt;
    cls.attr("PERSON_SIZE") = salt;
  }
  cls.attr("MAX_KEY_SIZE") = key;
  cls.attr("MAX_DIGEST_SIZE") = digest;
}

// What every class keeps: its state, the digest size, and the lock.
template <class State>
struct py_hash {
  State state;
  object_lock lock;

  explicit py_hash(const State& s) : state(s) {}
  py_hash(const py_hash& other) : state(other.state) {}
  py_hash(py_hash&& other) noexcept : state(other.state) {}

  void absorb(nb::handle data) {
    const input_buffer in(data);
    lock.run(in.size() >= release_gil_from, [&] { state.update(in.bytes()); });
  }
};

template <class State>
nb::bytes digest_of(py_hash<State>& self) {
  if constexpr (requires { self.state.finalize(std::span<std::byte>{}, 0); }) {
    // BLAKE2X: the whole output, written in place.
    const State copy = self.lock.run(false, [&] { return self.state; });
    return bytes_filled(static_cast<std::size_t>(copy.hash_length()),
                        [&](std::span<std::byte> out) { copy.finalize(out, 0); });
  } else {
    const auto d = self.lock.run(false, [&] { return self.state.finalize(); });
    return nb::bytes(reinterpret_cast<const char*>(d.data()), d.size());
  }
}

// update, copy, digest, hexdigest and the attributes, as hashlib's objects have them.
template <class State, class... Extra>
nb::class_<py_hash<State>> bind_hash(nb::module_& m, const char* name, const char* doc,
                                     std::size_t block_size, const Extra&... extra) {
  using py = py_hash<State>;
  auto cls = nb::class_<py>(m, name, doc, extra...);
  cls.def(
         "update", [](py& self, nb::handle data) { self.absorb(data); }, nb::arg().none(),
         "Absorbs a buffer.")
      .def(
          "copy", [](py& self) { return self.lock.run(false, [&] { return py(self); }); },
          "An independent copy of the hash object.")
      .def(
          "digest", [](py& self) { return digest_of(self); }, "The digest of the data so far.")
      .def(
          "hexdigest",
          [](py& self) {
            const nb::bytes d = digest_of(self);
            return hex_of(std::span(static_cast<const std::byte*>(d.data()), d.size()));
          },
          "digest(), in hex.")
      .def_prop_ro("digest_size",
                   [](py& self) { return static_cast<std::uint64_t>(self.state.hash_length()); })
      .def_prop_ro("name", [name](py&) { return name; });
  cls.attr("block_size") = block_size;
  return cls;
}

// hashlib.blake2b/blake2s's constructor: hashlib's conversions first, in the order of its
// arguments, then its range checks in its order, so that the same error comes first.
template <family F>
void construct_sequential(py_hash<b2::state<F>>* self, nb::handle data, nb::handle digest_size,
                          nb::handle key, nb::handle salt, nb::handle person, nb::handle fanout,
                          nb::handle depth, nb::handle leaf_size, nb::handle node_offset,
                          nb::handle node_depth, nb::handle inner_size, nb::handle last_node) {
  using traits = b2::traits<F>;
  constexpr int max_hash = static_cast<int>(traits::max_hash_length);
  const int size = int_argument(digest_size);
  const bytes_argument key_bytes(key), salt_bytes(salt), person_bytes(person);
  const int fan = int_argument(fanout), levels = int_argument(depth);
  const std::uint64_t leaf = unsigned_argument(
      leaf_size, ~std::uint64_t{0}, "", "Python int too large to convert to C unsigned long");
  const std::uint64_t offset = unsigned_argument(node_offset, ~std::uint64_t{0}, "");
  const int node_level = int_argument(node_depth), inner = int_argument(inner_size);
  const bool last = truth_of(last_node);
  b2::params<F> p;
  p.hash_length(ranged(size, 1, max_hash, digest_size_range));
  p.salt(salt_bytes.at_most(traits::salt_length, "salt"));
  p.personal(person_bytes.at_most(traits::personal_length, "person"));
  p.fanout(ranged(fan, 0, 255, "fanout must be between 0 and 255"));
  p.max_depth(ranged(levels, 1, 255, "depth must be between 1 and 255"));
  if (leaf > 0xFFFFFFFFu) {
    PyErr_SetString(PyExc_OverflowError, "leaf_size is too large");
    throw nb::python_error();
  }
  p.max_leaf_length(static_cast<std::uint32_t>(leaf));
  if (offset > traits::max_node_offset) {
    PyErr_SetString(PyExc_OverflowError, "node_offset is too large");
    throw nb::python_error();
  }
  p.node_offset(offset);
  p.node_depth(ranged(node_level, 0, 255, "node_depth must be between 0 and 255"));
  p.inner_hash_length(ranged(inner, 0, max_hash, "inner_size must be between 0 and is %d"));
  p.last_node(last);
  p.key(key_bytes.at_most(traits::max_key_length, "key"));
  new (self) py_hash<b2::state<F>>(b2::state<F>(p));
  if (data.ptr() != nullptr) self->absorb(data);
}

// The keyword parameters of hashlib's constructor, in its order, and their defaults.
constexpr const char* sequential_keywords[] = {
    "digest_size", "key",         "salt",       "person",     "fanout",    "depth",
    "leaf_size",   "node_offset", "node_depth", "inner_size", "last_node", "usedforsecurity"};
constexpr std::size_t keyword_count = std::size(sequential_keywords);

// The raised Python error of a C++ exception, for the constructor below (which Python calls
// directly, so nanobind does not translate for it).
void restore_error() noexcept {
  try {
    throw;
  } catch (nb::python_error& e) {
    e.restore();
  } catch (const nb::builtin_exception& e) {
    PyErr_SetString(
        e.type() == nb::exception_type::value_error ? PyExc_ValueError : PyExc_TypeError, e.what());
  } catch (const std::bad_alloc&) {
    PyErr_NoMemory();
  } catch (const std::exception& e) {
    PyErr_SetString(PyExc_RuntimeError, e.what());
  }
}

// blake2b(...) and blake2s(...) themselves: the type's vectorcall, which parses the arguments
// as hashlib does (one positional, the rest keywords) and builds the object, without going
// through a generic __init__ dispatch; that keeps a call at hashlib's cost.
template <family F>
PyObject* construct_vectorcall(PyObject* type, PyObject* const* args, std::size_t nargsf,
                               PyObject* kwnames) noexcept {
  using py = py_hash<b2::state<F>>;
  static PyObject* names[keyword_count];
  static PyObject* defaults[keyword_count];
  if (names[0] == nullptr) {
    for (std::size_t i = 0; i < keyword_count; ++i) {
      names[i] = PyUnicode_InternFromString(sequential_keywords[i]);
    }
    PyObject* empty = PyBytes_FromStringAndSize(nullptr, 0);
    const long ints[] = {
        static_cast<long>(b2::traits<F>::max_hash_length), 0, 0, 0, 1, 1, 0, 0, 0, 0};
    for (std::size_t i = 0; i < keyword_count; ++i) defaults[i] = nullptr;
    defaults[0] = PyLong_FromLong(ints[0]);
    defaults[1] = defaults[2] = defaults[3] = empty;
    defaults[4] = PyLong_FromLong(1);
    defaults[5] = PyLong_FromLong(1);
    defaults[6] = defaults[7] = defaults[8] = defaults[9] = PyLong_FromLong(0);
    defaults[10] = Py_False;
    defaults[11] = Py_True;
  }
  const Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
  if (nargs > 1) {
    PyErr_Format(PyExc_TypeError, "%s() takes at most 1 positional argument (%zd given)",
                 name_of<F>, nargs);
    return nullptr;
  }
  PyObject* values[keyword_count];
  for (std::size_t i = 0; i < keyword_count; ++i) values[i] = defaults[i];
  const Py_ssize_t nkw = kwnames == nullptr ? 0 : PyTuple_GET_SIZE(kwnames);
  for (Py_ssize_t k = 0; k < nkw; ++k) {
    PyObject* name = PyTuple_GET_ITEM(kwnames, k);
    std::size_t i = 0;
    while (i < keyword_count && names[i] != name) ++i;
    if (i == keyword_count) {  // not interned the same way: compare the text
      i = 0;
      while (i < keyword_count && PyUnicode_CompareWithASCIIString(name, sequential_keywords[i]))
        ++i;
    }
    if (i == keyword_count) {
      PyErr_Format(PyExc_TypeError, "'%U' is an invalid keyword argument for %s()", name,
                   name_of<F>);
      return nullptr;
    }
    values[i] = args[nargs + k];
  }
  try {
    nb::object instance = nb::inst_alloc(type);
    py* self = nb::inst_ptr<py>(instance);
    // Every parameter left at its default (the common call): the default state, made once.
    if (nkw == 0) {
      static const b2::state<F> fresh;
      new (self) py(fresh);
      if (nargs == 1) self->absorb(args[0]);
      nb::inst_mark_ready(instance);
      return instance.release().ptr();
    }
    construct_sequential<F>(self, nargs == 1 ? args[0] : nullptr, values[0], values[1], values[2],
                            values[3], values[4], values[5], values[6], values[7], values[8],
                            values[9], values[10]);
    nb::inst_mark_ready(instance);
    return instance.release().ptr();
  } catch (...) {
    restore_error();
    return nullptr;
  }
}

template <family F>
void bind_sequential(nb::module_& m) {
  using traits = b2::traits<F>;
  using py = py_hash<b2::state<F>>;
  constexpr std::size_t max_hash = traits::max_hash_length;
  static PyType_Slot slots[] = {
      {Py_tp_vectorcall, reinterpret_cast<void*>(construct_vectorcall<F>)}, {0, nullptr}};
  auto cls = bind_hash<b2::state<F>>(
      m, name_of<F>,
      F == family::b ? "Return a new BLAKE2b hash object: hashlib.blake2b's interface."
                     : "Return a new BLAKE2s hash object: hashlib.blake2s's interface.",
      traits::block_size, nb::type_slots(slots));
  // For subclasses and explicit __init__ calls; blake2b(...) itself goes through the
  // vectorcall above.
  cls.def(
      "__init__",
      [](py* self, nb::handle data, nb::handle digest_size, nb::handle key, nb::handle salt,
         nb::handle person, nb::handle fanout, nb::handle depth, nb::handle leaf_size,
         nb::handle node_offset, nb::handle node_depth, nb::handle inner_size, nb::handle last_node,
         nb::handle /*usedforsecurity*/) {
        construct_sequential<F>(self, data, digest_size, key, salt, person, fanout, depth,
                                leaf_size, node_offset, node_depth, inner_size, last_node);
      },
      nb::arg().none() = nb::bytes("", 0), nb::kw_only(), nb::arg("digest_size").none() = max_hash,
      nb::arg("key").none() = nb::bytes("", 0), nb::arg("salt").none() = nb::bytes("", 0),
      nb::arg("person").none() = nb::bytes("", 0), nb::arg("fanout").none() = 1,
      nb::arg("depth").none() = 1, nb::arg("leaf_size").none() = 0,
      nb::arg("node_offset").none() = 0, nb::arg("node_depth").none() = 0,
      nb::arg("inner_size").none() = 0, nb::arg("last_node").none() = false,
      nb::arg("usedforsecurity").none() = true);
  set_size_attributes(cls, traits::salt_length, traits::max_key_length, max_hash);
}

template <family F>
void bind_parallel(nb::module_& m, const char* name, const char* doc) {
  using traits = b2::traits<F>;
  using py = py_hash<b2::parallel_state<F>>;
  constexpr std::size_t max_hash = traits::max_hash_length;
  auto cls = bind_hash<b2::parallel_state<F>>(m, name, doc, traits::block_size);
  cls.def(
      "__init__",
      [](py* self, nb::handle data, nb::handle digest_size, nb::handle key,
         nb::handle /*usedforsecurity*/) {
        const int size = int_argument(digest_size);
        const bytes_argument key_bytes(key);
        b2::parallel_params<F> p;
        p.hash_length(ranged(size, 1, max_hash, digest_size_range));
        p.key(key_bytes.at_most(traits::max_key_length, "key"));
        new (self) py(b2::parallel_state<F>(p));
        self->absorb(data);
      },
      nb::arg().none() = nb::bytes("", 0), nb::kw_only(), nb::arg("digest_size").none() = max_hash,
      nb::arg("key").none() = nb::bytes("", 0), nb::arg("usedforsecurity").none() = true);
  set_size_attributes(cls, 0, traits::max_key_length, max_hash);
}

template <family F>
void bind_xof(nb::module_& m, const char* name, const char* doc) {
  using traits = b2::traits<F>;
  using py = py_hash<b2::xof_state<F>>;
  auto cls = bind_hash<b2::xof_state<F>>(m, name, doc, traits::block_size);
  cls.def(
      "__init__",
      [](py* self, nb::handle data, nb::handle digest_size, nb::handle key, nb::handle salt,
         nb::handle person, nb::handle /*usedforsecurity*/) {
        const std::int64_t length = signed_argument(digest_size);
        const bytes_argument key_bytes(key), salt_bytes(salt), person_bytes(person);
        if (length < 1 || static_cast<std::uint64_t>(length) > traits::max_xof_length) {
          PyErr_Format(PyExc_ValueError, "digest_size must be between 1 and %llu bytes",
                       static_cast<unsigned long long>(traits::max_xof_length));
          throw nb::python_error();
        }
        b2::xof_params<F> p;
        p.hash_length(static_cast<std::uint64_t>(length));
        p.salt(salt_bytes.at_most(traits::salt_length, "salt"));
        p.personal(person_bytes.at_most(traits::personal_length, "person"));
        p.key(key_bytes.at_most(traits::max_key_length, "key"));
        new (self) py(b2::xof_state<F>(p));
        self->absorb(data);
      },
      nb::arg().none() = nb::bytes("", 0), nb::kw_only(),
      nb::arg("digest_size").none() = traits::max_hash_length,
      nb::arg("key").none() = nb::bytes("", 0), nb::arg("salt").none() = nb::bytes("", 0),
      nb::arg("person").none() = nb::bytes("", 0), nb::arg("usedforsecurity").none() = true);
  set_size_attributes(cls, traits::salt_length, traits::max_key_length, traits::max_xof_length);
}

}  // namespace

void bind_blake2(nb::module_& m) {
  bind_sequential<family::b>(m);
  bind_sequential<family::s>(m);
  bind_parallel<family::b>(m, "blake2bp",
                           "BLAKE2bp (four BLAKE2b leaves, in SIMD lanes), in hashlib's style: "
                           "blake2bp(data=b'', /, *, digest_size=64, key=b'').");
  bind_parallel<family::s>(m, "blake2sp",
                           "BLAKE2sp (eight BLAKE2s leaves, in SIMD lanes), in hashlib's style: "
                           "blake2sp(data=b'', /, *, digest_size=32, key=b'').");
  bind_xof<family::b>(m, "blake2xb",
                      "BLAKE2Xb: extendable output of up to 2^32 - 2 bytes, in hashlib's style: "
                      "blake2xb(data=b'', /, *, digest_size=64, key=b'', salt=b'', person=b'').");
  bind_xof<family::s>(m, "blake2xs",
                      "BLAKE2Xs: extendable output of up to 65534 bytes, in hashlib's style: "
                      "blake2xs(data=b'', /, *, digest_size=32, key=b'', salt=b'', person=b'').");
}

}  // namespace fastblake::python
