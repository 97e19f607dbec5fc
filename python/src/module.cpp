// The compiled part of the Python package fastblake (python/fastblake/__init__.py re-exports
// it): BLAKE3 as the blake3 package has it, BLAKE2 as hashlib has it, and what neither has.
#include <pthread.h>
#include <fastblake/backend.hpp>
#include <fastblake/config.hpp>

#include <string>

#include "fastblake_backends.hpp"  // generated from cmake/Backends.cmake: the names
#include "module.hpp"

namespace fastblake::python {
namespace {

PyObject* backend(PyObject*, PyObject*) noexcept {
  return guarded([] {
    const std::string_view name = fastblake::active_backend();
    return PyUnicode_FromStringAndSize(name.data(), static_cast<Py_ssize_t>(name.size()));
  });
}

PyObject* available_backends(PyObject*, PyObject*) noexcept {
  return guarded([] {
    ref out = ref::take(PyList_New(0));
    for (const auto& name : fastblake::available_backends()) {
      const std::string_view text = name;
      const ref item =
          ref::take(PyUnicode_FromStringAndSize(text.data(), static_cast<Py_ssize_t>(text.size())));
      if (PyList_Append(out.get(), item.get()) != 0) throw python_error_set{};
    }
    return out.release();
  });
}

constexpr const char* use_backend_names[] = {"name"};
constexpr parameters use_backend_parameters{"use_backend", use_backend_names, 0, 1, 1};

PyObject* use_backend(PyObject*, PyObject* const* args, Py_ssize_t nargs,
                      PyObject* kwnames) noexcept {
  return guarded([&] {
    PyObject* name;
    parse(use_backend_parameters, args, nargs, kwnames, &name);
    return PyBool_FromLong(fastblake::use_backend(str_argument(name)) ? 1 : 0);
  });
}

PyMethodDef functions[] = {
    {"backend", backend, METH_NOARGS,
     "backend()\n--\n\nThe SIMD backend in use, one of: " FASTBLAKE_KNOWN_BACKEND_NAMES "."},
    {"available_backends", available_backends, METH_NOARGS,
     "available_backends()\n--\n\nThe backends this build can run on this CPU, best first."},
    {"use_backend", as_method(use_backend), METH_FASTCALL | METH_KEYWORDS,
     "use_backend(name)\n--\n\nSwitches backend (for tests and measurement); False if "
     "unavailable."},
    {nullptr, nullptr, 0, nullptr}};

PyModuleDef module_definition = {PyModuleDef_HEAD_INIT,
                                 "_fastblake",
                                 "fastblake's compiled module (use the package fastblake).",
                                 -1,
                                 functions,
                                 nullptr,
                                 nullptr,
                                 nullptr,
                                 nullptr};

PyModuleDef hazmat_definition = {
    PyModuleDef_HEAD_INIT,
    "fastblake.blake3_hazmat",
    "BLAKE3's subtree API (the Rust crate's blake3::hazmat): hash pieces of one input anywhere, "
    "then merge their chaining values. Misuse gives chaining values that merge into a wrong "
    "hash: read the Rust crate's documentation first.",
    -1,
    nullptr,
    nullptr,
    nullptr,
    nullptr,
    nullptr};

}  // namespace

std::atomic<std::uint64_t> forks_seen{0};

}  // namespace fastblake::python

PyMODINIT_FUNC PyInit__fastblake() {
  using namespace fastblake::python;
  return guarded([] {
    // Counted in every child of a fork (object_lock): registered once, whatever the
    // interpreters that import the module.
    static const int counted = pthread_atfork(
        nullptr, nullptr, [] { forks_seen.fetch_add(1, std::memory_order_relaxed); });
    (void)counted;
    ref module = ref::take(PyModule_Create(&module_definition));
    if (PyModule_AddStringConstant(module.get(), "__version__", FASTBLAKE_VERSION_STRING) != 0) {
      throw python_error_set{};
    }
    add_blake3(module.get());
    ref hazmat = ref::take(PyModule_Create(&hazmat_definition));
    add_blake3_hazmat(hazmat.get());
    if (PyModule_AddObject(module.get(), "blake3_hazmat", hazmat.get()) != 0) {
      throw python_error_set{};
    }
    hazmat.release();
    add_blake2(module.get());
    return module.release();
  });
}
