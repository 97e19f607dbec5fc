// The module's classes as CPython types, and C++ exceptions as Python ones.
#include <cstring>
#include <stdexcept>
#include <system_error>
#include <vector>

#include "common.hpp"

namespace fastblake::python {

void set_error_from_exception() noexcept {
  try {
    throw;
  } catch (const python_error_set&) {
    // Already set.
  } catch (const std::bad_alloc&) {
    PyErr_NoMemory();
  } catch (const std::overflow_error& e) {
    // A size the library cannot represent (bao.encoded_size of nearly 2^64 bytes).
    PyErr_SetString(PyExc_OverflowError, e.what());
  } catch (const std::logic_error& e) {
    // The library's misuse errors (a subtree API call out of order).
    PyErr_SetString(PyExc_ValueError, e.what());
  } catch (const std::system_error& e) {
    // The system refused a resource (a thread).
    PyErr_SetString(PyExc_OSError, e.what());
  } catch (const std::exception& e) {
    PyErr_SetString(PyExc_RuntimeError, e.what());
  } catch (...) {
    PyErr_SetString(PyExc_RuntimeError, "fastblake: unknown C++ exception");
  }
}

unsigned class_flags(bool immutable) {
  unsigned flags = Py_TPFLAGS_DEFAULT;  // no Py_TPFLAGS_BASETYPE: final
#if PY_VERSION_HEX >= 0x030A0000
  if (immutable) flags |= Py_TPFLAGS_IMMUTABLETYPE;
#else
  (void)immutable;
#endif
  return flags;
}

std::string type_name(PyObject* object) {
  PyTypeObject* type = Py_TYPE(object);
#ifdef Py_LIMITED_API
  // tp_name, rebuilt from what the stable ABI shows: a heap type's __name__ (a class
  // statement's tp_name), a static type's "module.name" ("numpy.ndarray"), a builtin's name.
  const auto text = [](const ref& str) {
    Py_ssize_t size = 0;
    const char* utf8 = PyUnicode_AsUTF8AndSize(str.get(), &size);
    if (utf8 == nullptr) throw python_error_set{};
    return std::string(utf8, static_cast<std::size_t>(size));
  };
  std::string name = text(ref::take(PyType_GetName(type)));
  if ((PyType_GetFlags(type) & Py_TPFLAGS_HEAPTYPE) != 0) return name;
  const std::string module =
      text(ref::take(PyObject_GetAttrString(reinterpret_cast<PyObject*>(type), "__module__")));
  return module == "builtins" ? name : module + "." + name;
#else
  return type->tp_name;
#endif
}

#ifdef Py_LIMITED_API
namespace {
// Each class's vectorcall, for tp_new to find: the stable ABI has no tp_vectorcall (Python
// 3.14's Py_tp_vectorcall slot is past the abi3 wheel's 3.12), so `cls(...)` comes through
// tp_new there. Filled once, at import.
struct class_call {
  PyTypeObject* type;
  vectorcallfunc call;
};
std::vector<class_call> class_calls;
}  // namespace
#endif

PyTypeObject* add_class(PyObject* module, PyType_Spec& spec, vectorcallfunc call) {
  ref type = ref::take(PyType_FromSpec(&spec));
  auto* t = reinterpret_cast<PyTypeObject*>(type.get());
#ifdef Py_LIMITED_API
  class_calls.push_back({t, call});
#else
  // Types are called through tp_vectorcall from Python 3.9 on.
  t->tp_vectorcall = call;
#endif
#if PY_VERSION_HEX < 0x030A0000
  // Python 3.9's PyType_FromSpec keeps the docstring without its signature line, where
  // inspect.signature() reads the class's signature (tp_doc): the whole docstring instead, in
  // memory the type frees as its own.
  for (const PyType_Slot* slot = spec.slots; slot->slot != 0; ++slot) {
    if (slot->slot != Py_tp_doc || slot->pfunc == nullptr) continue;
    const char* doc = static_cast<const char*>(slot->pfunc);
    const std::size_t size = std::strlen(doc) + 1;
    auto* whole = static_cast<char*>(PyObject_Malloc(size));
    if (whole == nullptr) throw std::bad_alloc();
    std::memcpy(whole, doc, size);
    PyObject_Free(const_cast<char*>(t->tp_doc));
    t->tp_doc = whole;
  }
#endif
  const char* dot = std::strrchr(spec.name, '.');
  // PyModule_AddObject takes the reference when it succeeds; the module keeps the class for
  // good, so the pointer returned stays valid.
  if (PyModule_AddObject(module, dot == nullptr ? spec.name : dot + 1, type.get()) != 0) {
    throw python_error_set{};
  }
  return reinterpret_cast<PyTypeObject*>(type.release());
}

void set_class_attribute(PyTypeObject* type, const char* name, ref value) {
  // Through the type's dict: setattr refuses immutable types.
#ifdef Py_LIMITED_API
  // The stable ABI has no tp_dict; the generic setattr, applied to the type object, writes
  // into it through PyType_Type's dict offset without type_setattro's immutability check.
  const ref key = ref::take(PyUnicode_FromString(name));
  if (PyObject_GenericSetAttr(reinterpret_cast<PyObject*>(type), key.get(), value.get()) != 0) {
    throw python_error_set{};
  }
#else
  if (PyDict_SetItemString(type->tp_dict, name, value.get()) != 0) throw python_error_set{};
#endif
  PyType_Modified(type);
}

PyObject* new_through_vectorcall(PyTypeObject* type, PyObject* args, PyObject* kwargs) noexcept {
  return guarded([&]() -> PyObject* {
    const Py_ssize_t nargs = tuple_size(args);
    const Py_ssize_t nkw = kwargs == nullptr ? 0 : PyDict_Size(kwargs);
    const auto count = static_cast<std::size_t>(nargs + nkw);
    // Every call of the abi3 module's classes comes here: no allocation for the usual few.
    PyObject* few[8];
    std::vector<PyObject*> many(count > std::size(few) ? count : 0);
    PyObject** array = count > std::size(few) ? many.data() : few;
    for (Py_ssize_t i = 0; i < nargs; ++i) array[i] = tuple_item(args, i);
    ref names;
    if (nkw > 0) {
      names = ref::take(PyTuple_New(nkw));
      Py_ssize_t position = 0, k = 0;
      PyObject *key, *value;
      while (PyDict_Next(kwargs, &position, &key, &value)) {
        Py_INCREF(key);
        tuple_fill(names.get(), k, key);
        array[nargs + k++] = value;
      }
    }
#ifdef Py_LIMITED_API
    vectorcallfunc call = nullptr;
    for (const class_call& c : class_calls) {
      if (c.type == type) call = c.call;
    }
    if (call == nullptr) raise(PyExc_TypeError, "fastblake: a class this module did not make");
#else
    const vectorcallfunc call = type->tp_vectorcall;
#endif
    return call(reinterpret_cast<PyObject*>(type), array, static_cast<std::size_t>(nargs),
                names.get());
  });
}

}  // namespace fastblake::python
