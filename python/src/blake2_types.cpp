// fastblake.blake2b and blake2s: hashlib's classes, with the same signature, attributes,
// results and errors (messages included), over the C++ library; and blake2bp, blake2sp,
// blake2xb and blake2xs in the same style.
#include <fastblake/blake2.hpp>

#include <cstdint>
#include <cstring>
#include <iterator>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "common.hpp"
#include "module.hpp"

namespace fastblake::python {
namespace {

namespace b2 = fastblake::blake2;
using b2::family;

template <family F>
constexpr const char* name_of = F == family::b ? "blake2b" : "blake2s";

// A bytes-like argument (str refused with the buffer protocol's TypeError), held; empty when
// not given.
class bytes_argument {
 public:
  explicit bytes_argument(PyObject* value) {
    if (value == nullptr) return;
    if (PyUnicode_Check(value) || !PyObject_CheckBuffer(value)) {
      raise_format(PyExc_TypeError, "a bytes-like object is required, not '%s'",
                   type_name(value).c_str());
    }
    view_.emplace(value);
  }
  // hashlib's "maximum <what> length is <most> bytes".
  std::span<const std::byte> at_most(std::size_t most, const char* what) const {
    if (!view_) return {};
    if (view_->size() > most) {
      raise(PyExc_ValueError,
            ("maximum " + std::string(what) + " length is " + std::to_string(most) + " bytes")
                .c_str());
    }
    return view_->bytes();
  }

 private:
  std::optional<input_buffer> view_;
};

// A C int argument as CPython's converter takes it: TypeError for a non-integer,
// OverflowError outside int's range; `fallback` when not given.
int int_argument(PyObject* value, int fallback) {
  if (value == nullptr) return fallback;
#if PY_VERSION_HEX < 0x030A0000
  // Python 3.9's converter refused floats first, with its own message.
  if (PyFloat_Check(value)) raise(PyExc_TypeError, "integer argument expected, got float");
#endif
  // TypeError for a non-integer, in the words of this Python's converter.
  int overflow = 0;
  const long v = PyLong_AsLongAndOverflow(value, &overflow);
  if (v == -1 && PyErr_Occurred()) throw python_error_set{};
  if (overflow != 0 || v < INT32_MIN || v > INT32_MAX) {
    raise(PyExc_OverflowError, "Python int too large to convert to C int");
  }
  return static_cast<int>(v);
}

// A value in [low, high], hashlib's ValueError otherwise: `message`, a PyErr_Format format
// that may name `high` (%d).
unsigned ranged(int v, int low, int high, const char* message) {
  if (v < low || v > high) raise_format(PyExc_ValueError, message, high);
  return static_cast<unsigned>(v);
}

bool truth_of(PyObject* value) {
  if (value == nullptr) return false;
  const int truth = PyObject_IsTrue(value);
  if (truth < 0) throw python_error_set{};
  return truth != 0;
}

constexpr const char* digest_size_range = "digest_size must be between 1 and %d bytes";

// What every class keeps: its state and the lock.
template <class State>
struct py_hash {
  State state;
  object_lock lock;

  explicit py_hash(const State& s) : state(s) {}

  void absorb(PyObject* data) {
    const input_buffer in(data);
    lock.run(in.size() >= release_gil_from, [&] { state.update(in.bytes()); });
  }

  State snapshot() {
    return lock.run(false, [&] { return state; });
  }
};

// -- Construction ----------------------------------------------------------------------------

// Whether the Python this runs in lets hashlib's BLAKE2 constructors take data by name, and
// by its old name string, one or the other (Debian 13's CPython 3.13.5 does, 3.13.0 does
// not): read at import from _blake2's signature, as the abi3 module runs on either.
bool hashlib_names_data = false;

// A constructor's keyword parameters, parsed as hashlib's (Argument Clinic's) are: data by
// position (and, where hashlib_names_data, by name), the rest by keyword only, with its
// messages (those of the Python it runs on: 3.13 reworded the unknown keyword's).
template <std::size_t N>
struct keywords {
  const char* function;
  const char* names[N];
  // Interned once, by whichever thread parses keywords first (no GIL is relied on: a
  // free-threaded CPython has none).
  PyObject* interned[N] = {};
  std::once_flag interning{};

  // values[i]: the argument named names[i] (borrowed), or null; *data: the positional one.
  void parse(PyObject* const* args, std::size_t nargsf, PyObject* kwnames, PyObject** data,
             PyObject** values) {
    const Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    if (nargs > 1) {
      raise_format(PyExc_TypeError, "%s() takes at most 1 positional argument (%zd given)",
                   function, nargs);
    }
    *data = nargs == 1 ? args[0] : nullptr;
    for (std::size_t i = 0; i < N; ++i) values[i] = nullptr;
    if (kwnames == nullptr) return;
    // (An exception leaves the flag unset, for the next call to try again.)
    std::call_once(interning, [this] {
      for (std::size_t i = 0; i < N; ++i) {
        if (interned[i] == nullptr) interned[i] = PyUnicode_InternFromString(names[i]);
        if (interned[i] == nullptr) throw python_error_set{};
      }
    });
    PyObject* string = nullptr;
    for (Py_ssize_t k = 0; k < tuple_size(kwnames); ++k) {
      PyObject* name = tuple_item(kwnames, k);
      std::size_t i = 0;
      while (i < N && interned[i] != name) ++i;
      if (i == N) {  // not interned the same way: compare the text
        i = 0;
        while (i < N && PyUnicode_CompareWithASCIIString(name, names[i]) != 0) ++i;
      }
      if (i == N && hashlib_names_data) {
        if (PyUnicode_CompareWithASCIIString(name, "data") == 0) {
          if (*data != nullptr) {
            raise_format(PyExc_TypeError,
                         "argument for %s() given by name ('data') and position (1)", function);
          }
          *data = args[nargs + k];
          continue;
        }
        if (PyUnicode_CompareWithASCIIString(name, "string") == 0) {
          string = args[nargs + k];
          continue;
        }
      }
      if (i == N) {
        // hashlib's wording changed in 3.13; the abi3 module asks the Python it runs in.
        if (running_python_version() >= 0x030D0000) {
          raise_format(PyExc_TypeError, "%s() got an unexpected keyword argument '%U'", function,
                       name);
        }
        raise_format(PyExc_TypeError, "'%U' is an invalid keyword argument for %s()", name,
                     function);
      }
      values[i] = args[nargs + k];
    }
    if (string != nullptr) {
      if (*data != nullptr) {
        raise(PyExc_TypeError,
              "'data' and 'string' are mutually exclusive and support for 'string' keyword "
              "parameter is slated for removal in a future version.");
      }
      *data = string;
    }
  }
};

template <class State>
PyObject* make(PyObject* type, const State& state, PyObject* data) {
  ref self = ref::take(make_instance<py_hash<State>>(reinterpret_cast<PyTypeObject*>(type), state));
  if (data != nullptr) value_of<py_hash<State>>(self.get()).absorb(data);
  return self.release();
}

// hashlib.blake2b/blake2s's constructor: hashlib's conversions first, in the order of its
// arguments, then its range checks in its order, so that the same error comes first.
template <family F>
b2::state<F> sequential_state(PyObject* const* v) {
  using traits = b2::traits<F>;
  constexpr int max_hash = static_cast<int>(traits::max_hash_length);
  const int size = int_argument(v[0], max_hash);
  const bytes_argument key(v[1]), salt(v[2]), person(v[3]);
  const int fanout = int_argument(v[4], 1), depth = int_argument(v[5], 1);
  const std::uint64_t leaf =
      v[6] == nullptr ? 0
                      : unsigned_argument(v[6], ~std::uint64_t{0}, "",
                                          "Python int too large to convert to C unsigned long");
  const std::uint64_t offset = v[7] == nullptr ? 0 : unsigned_argument(v[7], ~std::uint64_t{0}, "");
  const int node_depth = int_argument(v[8], 0), inner = int_argument(v[9], 0);
  const bool last = truth_of(v[10]);
  b2::params<F> p;
  p.hash_length(ranged(size, 1, max_hash, digest_size_range));
  p.salt(salt.at_most(traits::salt_length, "salt"));
  p.personal(person.at_most(traits::personal_length, "person"));
  p.fanout(ranged(fanout, 0, 255, "fanout must be between 0 and 255"));
  p.max_depth(ranged(depth, 1, 255, "depth must be between 1 and 255"));
  if (leaf > 0xFFFFFFFFu) raise(PyExc_OverflowError, "leaf_size is too large");
  p.max_leaf_length(static_cast<std::uint32_t>(leaf));
  if (offset > traits::max_node_offset) raise(PyExc_OverflowError, "node_offset is too large");
  p.node_offset(offset);
  p.node_depth(ranged(node_depth, 0, 255, "node_depth must be between 0 and 255"));
  p.inner_hash_length(ranged(inner, 0, max_hash, "inner_size must be between 0 and is %d"));
  p.last_node(last);
  p.key(key.at_most(traits::max_key_length, "key"));
  return b2::state<F>(p);
}

template <family F>
keywords<12> sequential_keywords{
    name_of<F>,
    {"digest_size", "key", "salt", "person", "fanout", "depth", "leaf_size", "node_offset",
     "node_depth", "inner_size", "last_node", "usedforsecurity"}};

template <family F>
PyObject* construct_sequential(PyObject* type, PyObject* const* args, std::size_t nargsf,
                               PyObject* kwnames) noexcept {
  return guarded([&] {
    PyObject *data, *v[12];
    sequential_keywords<F>.parse(args, nargsf, kwnames, &data, v);
    if (kwnames == nullptr) {
      // Every parameter at its default (the common call): the default state, made once.
      static const b2::state<F> fresh;
      return make(type, fresh, data);
    }
    return make(type, sequential_state<F>(v), data);
  });
}

template <family F>
keywords<3> parallel_keywords{F == family::b ? "blake2bp" : "blake2sp",
                              {"digest_size", "key", "usedforsecurity"}};

template <family F>
PyObject* construct_parallel(PyObject* type, PyObject* const* args, std::size_t nargsf,
                             PyObject* kwnames) noexcept {
  return guarded([&] {
    using traits = b2::traits<F>;
    PyObject *data, *v[3];
    parallel_keywords<F>.parse(args, nargsf, kwnames, &data, v);
    constexpr int max_hash = static_cast<int>(traits::max_hash_length);
    const int size = int_argument(v[0], max_hash);
    const bytes_argument key(v[1]);
    b2::parallel_params<F> p;
    p.hash_length(ranged(size, 1, max_hash, digest_size_range));
    p.key(key.at_most(traits::max_key_length, "key"));
    return make(type, b2::parallel_state<F>(p), data);
  });
}

template <family F>
keywords<5> xof_keywords{F == family::b ? "blake2xb" : "blake2xs",
                         {"digest_size", "key", "salt", "person", "usedforsecurity"}};

template <family F>
PyObject* construct_xof(PyObject* type, PyObject* const* args, std::size_t nargsf,
                        PyObject* kwnames) noexcept {
  return guarded([&] {
    using traits = b2::traits<F>;
    PyObject *data, *v[5];
    xof_keywords<F>.parse(args, nargsf, kwnames, &data, v);
    const std::int64_t length = v[0] == nullptr ? static_cast<std::int64_t>(traits::max_hash_length)
                                                : signed_argument(v[0]);
    const bytes_argument key(v[1]), salt(v[2]), person(v[3]);
    if (length < 1 || static_cast<std::uint64_t>(length) > traits::max_xof_length) {
      raise_format(PyExc_ValueError, "digest_size must be between 1 and %llu bytes",
                   static_cast<unsigned long long>(traits::max_xof_length));
    }
    b2::xof_params<F> p;
    p.hash_length(static_cast<std::uint64_t>(length));
    p.salt(salt.at_most(traits::salt_length, "salt"));
    p.personal(person.at_most(traits::personal_length, "person"));
    p.key(key.at_most(traits::max_key_length, "key"));
    return make(type, b2::xof_state<F>(p), data);
  });
}

// -- Methods ---------------------------------------------------------------------------------

template <class State>
ref digest_of(PyObject* self) {
  const State state = value_of<py_hash<State>>(self).snapshot();
  if constexpr (requires { state.finalize(std::span<std::byte>{}, 0); }) {
    // BLAKE2X: the whole output, written in place.
    return bytes_filled(static_cast<std::size_t>(state.hash_length()),
                        [&](std::span<std::byte> out) { state.finalize(out, 0); });
  } else {
    const auto d = state.finalize();
    return bytes_of(std::as_bytes(std::span(d.data(), d.size())));
  }
}

template <class State>
PyObject* update(PyObject* self, PyObject* data) noexcept {
  return guarded([&] {
    value_of<py_hash<State>>(self).absorb(data);
    return new_reference(Py_None);
  });
}

template <class State>
PyObject* copy(PyObject* self, PyObject*) noexcept {
  return guarded([&] {
    // The state copied under the lock, the object made outside it (allocating may run a
    // finalizer that uses this object).
    const State state = value_of<py_hash<State>>(self).snapshot();
    return make_instance<py_hash<State>>(Py_TYPE(self), state);
  });
}

template <class State>
PyObject* digest(PyObject* self, PyObject*) noexcept {
  return guarded([&] { return digest_of<State>(self).release(); });
}

template <class State>
PyObject* hexdigest(PyObject* self, PyObject*) noexcept {
  return guarded([&] { return hex_of_bytes(digest_of<State>(self).get()).release(); });
}

template <class State>
PyObject* get_digest_size(PyObject* self, void*) noexcept {
  return guarded([&] {
    return PyLong_FromUnsignedLongLong(
        static_cast<unsigned long long>(value_of<py_hash<State>>(self).state.hash_length()));
  });
}

template <class State>
PyObject* get_name(PyObject* self, void*) noexcept {
  // The class's own name: "blake2b", "blake2xs"...
  const std::string name = type_name(self);
  return PyUnicode_FromString(name.c_str() + name.rfind('.') + 1);
}

template <class State>
PyMethodDef methods[] = {
    {"update", update<State>, METH_O,
     "update($self, data, /)\n--\n\nUpdate this hash object's state with the provided data."},
    {"copy", copy<State>, METH_NOARGS, "copy($self, /)\n--\n\nReturn a copy of the hash object."},
    {"digest", digest<State>, METH_NOARGS,
     "digest($self, /)\n--\n\nReturn the digest value as a bytes object."},
    {"hexdigest", hexdigest<State>, METH_NOARGS,
     "hexdigest($self, /)\n--\n\nReturn the digest value as a string of hexadecimal digits."},
    {nullptr, nullptr, 0, nullptr}};

template <class State>
PyGetSetDef properties[] = {
    {"digest_size", get_digest_size<State>, nullptr, "The size of the digest in bytes.", nullptr},
    {"name", get_name<State>, nullptr, "The algorithm's name.", nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr}};

template <class State>
PyType_Slot slots[] = {{Py_tp_new, reinterpret_cast<void*>(new_through_vectorcall)},
                       {Py_tp_dealloc, reinterpret_cast<void*>(dealloc<py_hash<State>>)},
                       {Py_tp_methods, methods<State>},
                       {Py_tp_getset, properties<State>},
                       {Py_tp_doc, nullptr},  // set by add()
                       {0, nullptr}};

// Adds the class `name` ("fastblake.blake2b") holding a State: final and immutable, as
// hashlib's classes are.
template <class State>
void add(PyObject* module, const char* name, const char* doc, vectorcallfunc construct,
         std::size_t block_size, std::size_t salt, std::size_t key, std::uint64_t digest) {
  slots<State>[4].pfunc = const_cast<char*>(doc);
  static PyType_Spec spec{name, sizeof(instance<py_hash<State>>), 0, class_flags(true),
                          slots<State>};
  PyTypeObject* type = add_class(module, spec, construct);
  set_class_attribute(type, "block_size", ref::take(PyLong_FromSize_t(block_size)));
  if (salt != 0) {
    set_class_attribute(type, "SALT_SIZE", ref::take(PyLong_FromSize_t(salt)));
    set_class_attribute(type, "PERSON_SIZE", ref::take(PyLong_FromSize_t(salt)));
  }
  set_class_attribute(type, "MAX_KEY_SIZE", ref::take(PyLong_FromSize_t(key)));
  set_class_attribute(type, "MAX_DIGEST_SIZE", ref::take(PyLong_FromUnsignedLongLong(digest)));
}

template <family F>
void add_family(PyObject* module, const char* sequential_doc, const char* parallel_name,
                const char* parallel_doc, const char* xof_name, const char* xof_doc) {
  using traits = b2::traits<F>;
  add<b2::state<F>>(module, F == family::b ? "fastblake.blake2b" : "fastblake.blake2s",
                    sequential_doc, construct_sequential<F>, traits::block_size,
                    traits::salt_length, traits::max_key_length, traits::max_hash_length);
  add<b2::parallel_state<F>>(module, parallel_name, parallel_doc, construct_parallel<F>,
                             traits::block_size, 0, traits::max_key_length,
                             traits::max_hash_length);
  add<b2::xof_state<F>>(module, xof_name, xof_doc, construct_xof<F>, traits::block_size,
                        traits::salt_length, traits::max_key_length, traits::max_xof_length);
}

// Whether _blake2's constructors take data by name (its signature has string=None).
bool hashlib_takes_data_by_name() {
  const ref blake2 = ref::steal(PyImport_ImportModule("_blake2"));
  const ref type = ref::steal(
      blake2.get() != nullptr ? PyObject_GetAttrString(blake2.get(), "blake2b") : nullptr);
  const ref signature = ref::steal(
      type.get() != nullptr ? PyObject_GetAttrString(type.get(), "__text_signature__") : nullptr);
  const char* text = signature.get() != nullptr && PyUnicode_Check(signature.get())
                         ? PyUnicode_AsUTF8AndSize(signature.get(), nullptr)
                         : nullptr;
  const bool by_name =
      text != nullptr && std::string_view(text).find("string=None") != std::string_view::npos;
  PyErr_Clear();  // no _blake2, or no signature: data by position only
  return by_name;
}

// A constructor's docstring, whose first line is its signature: where hashlib_names_data, data
// by position or name, and string after the keyword-only parameters, as hashlib's reads there.
const char* constructor_doc(std::string& storage, std::string_view doc) {
  storage = doc;
  if (hashlib_names_data) {
    const std::string_view last = "usedforsecurity=True)";
    const std::size_t slash = doc.find("/, *"), end = doc.find(last);
    storage = std::string(doc.substr(0, slash)) + "*" +
              std::string(doc.substr(slash + 4, end - slash - 4)) +
              "usedforsecurity=True, string=None)" + std::string(doc.substr(end + last.size()));
  }
  return storage.c_str();
}

}  // namespace

void add_blake2(PyObject* module) {
  hashlib_names_data = hashlib_takes_data_by_name();
  // (The types keep pointers to their docstrings: these live as long as the process.)
  static std::string docs[6];
  add_family<family::b>(
      module,
      constructor_doc(docs[0],
                      "blake2b(data=b'', /, *, digest_size=64, key=b'', salt=b'', person=b'', "
                      "fanout=1, depth=1, leaf_size=0, node_offset=0, node_depth=0, inner_size=0, "
                      "last_node=False, usedforsecurity=True)\n--\n\nReturn a new BLAKE2b hash "
                      "object: hashlib.blake2b's interface."),
      "fastblake.blake2bp",
      constructor_doc(docs[1],
                      "blake2bp(data=b'', /, *, digest_size=64, key=b'', usedforsecurity=True)\n--"
                      "\n\nBLAKE2bp (four BLAKE2b leaves, in SIMD lanes), in hashlib's style."),
      "fastblake.blake2xb",
      constructor_doc(docs[2],
                      "blake2xb(data=b'', /, *, digest_size=64, key=b'', salt=b'', person=b'', "
                      "usedforsecurity=True)\n--\n\n"
                      "BLAKE2Xb: extendable output of up to 2^32 - 2 bytes, in hashlib's style."));
  add_family<family::s>(
      module,
      constructor_doc(docs[3],
                      "blake2s(data=b'', /, *, digest_size=32, key=b'', salt=b'', person=b'', "
                      "fanout=1, depth=1, leaf_size=0, node_offset=0, node_depth=0, inner_size=0, "
                      "last_node=False, usedforsecurity=True)\n--\n\nReturn a new BLAKE2s hash "
                      "object: hashlib.blake2s's interface."),
      "fastblake.blake2sp",
      constructor_doc(docs[4],
                      "blake2sp(data=b'', /, *, digest_size=32, key=b'', usedforsecurity=True)\n--"
                      "\n\nBLAKE2sp (eight BLAKE2s leaves, in SIMD lanes), in hashlib's style."),
      "fastblake.blake2xs",
      constructor_doc(docs[5],
                      "blake2xs(data=b'', /, *, digest_size=32, key=b'', salt=b'', person=b'', "
                      "usedforsecurity=True)\n--\n\n"
                      "BLAKE2Xs: extendable output of up to 65534 bytes, in hashlib's style."));
}

}  // namespace fastblake::python
