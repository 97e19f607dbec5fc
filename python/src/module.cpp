// The compiled part of the Python package fastblake (python/fastblake/__init__.py re-exports
// it): BLAKE3 as the blake3 package has it, BLAKE2 as hashlib has it, and what neither has.
#include <pthread.h>
#include <fastblake/backend.hpp>
#include <fastblake/config.hpp>

#include <string>
#include <string_view>
#include <vector>

#include "fastblake_backends.hpp"  // generated from cmake/Backends.cmake: the names
#include "module.hpp"

namespace fastblake::python {
namespace {

PyObject* text(std::string_view s) {
  PyObject* out = PyUnicode_FromStringAndSize(s.data(), static_cast<Py_ssize_t>(s.size()));
  if (out == nullptr) throw python_error_set{};
  return out;
}

PyObject* text_list(const std::vector<std::string_view>& names) {
  ref out = ref::take(PyList_New(0));
  for (const std::string_view name : names) {
    const ref item = ref::take(text(name));
    if (PyList_Append(out.get(), item.get()) != 0) throw python_error_set{};
  }
  return out.release();
}

PyObject* backend(PyObject*, PyObject*) noexcept {
  return guarded([] { return text(fastblake::active_backend()); });
}

PyObject* available_backends(PyObject*, PyObject*) noexcept {
  return guarded([] { return text_list(fastblake::available_backends()); });
}

PyObject* variant(PyObject*, PyObject*) noexcept {
  return guarded([] { return text(fastblake::active_variant()); });
}

PyObject* available_variants(PyObject*, PyObject*) noexcept {
  return guarded([] { return text_list(fastblake::available_variants()); });
}

PyObject* variant_choice(PyObject*, PyObject*) noexcept {
  return guarded([] {
    std::string line = fastblake::variant_choice();
    const std::string error = fastblake::variant_override_error();
    if (!error.empty()) line += (line.empty() ? "" : "; ") + error;
    return text(line);
  });
}

// use_backend(name) and use_variant(name): a switch by name, False where there is none.
template <const parameters& signature, bool (*use)(std::string_view) noexcept>
PyObject* use_by_name(PyObject*, PyObject* const* args, Py_ssize_t nargs,
                      PyObject* kwnames) noexcept {
  return guarded([&] {
    PyObject* name;
    parse(signature, args, nargs, kwnames, &name);
    return PyBool_FromLong(use(str_argument(name)) ? 1 : 0);
  });
}

constexpr const char* name_only[] = {"name"};
constexpr parameters use_backend_parameters{"use_backend", name_only, 0, 1, 1};
constexpr parameters use_variant_parameters{"use_variant", name_only, 0, 1, 1};

PyMethodDef functions[] = {
    {"backend", backend, METH_NOARGS,
     "backend()\n--\n\nThe SIMD backend in use, one of: " FASTBLAKE_KNOWN_BACKEND_NAMES "."},
    {"available_backends", available_backends, METH_NOARGS,
     "available_backends()\n--\n\nThe backends this build can run on this CPU, best first."},
    {"use_backend", as_method(use_by_name<use_backend_parameters, fastblake::use_backend>),
     METH_FASTCALL | METH_KEYWORDS,
     "use_backend(name)\n--\n\nSwitches backend (for tests and measurement); False if "
     "unavailable."},
    {"variant", variant, METH_NOARGS,
     "variant()\n--\n\nThe backend's schedule variant where it has several (avx512: rows512 or "
     "pairs256), chosen per core; '' where it has one."},
    {"available_variants", available_variants, METH_NOARGS,
     "available_variants()\n--\n\nThe backend's variants; [] where it has one."},
    {"variant_choice", variant_choice, METH_NOARGS,
     "variant_choice()\n--\n\nHow the variant was chosen (FASTBLAKE_VARIANT, the table of "
     "measured cores, or a measurement here), and why FASTBLAKE_VARIANT was refused if it was."},
    {"use_variant", as_method(use_by_name<use_variant_parameters, fastblake::use_variant>),
     METH_FASTCALL | METH_KEYWORDS,
     "use_variant(name)\n--\n\nSwitches the backend's variant (for tests and measurement); "
     "False if it has none of that name."},
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

PyModuleDef bao_definition = {
    PyModuleDef_HEAD_INIT,
    "fastblake.bao",
    "Bao, verified streaming: encodings that let a reader holding only the 32-byte BLAKE3 hash "
    "check any part of the data, byte for byte the Rust bao crate's format (docs/bao.md).",
    -1,
    nullptr,
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
    ref bao = ref::take(PyModule_Create(&bao_definition));
    add_bao(bao.get());
    if (PyModule_AddObject(module.get(), "bao", bao.get()) != 0) throw python_error_set{};
    bao.release();
    return module.release();
  });
}
