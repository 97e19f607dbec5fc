// The compiled part of the Python package fastblake (python/fastblake/__init__.py re-exports
// it): BLAKE3 as the blake3 package has it, BLAKE2 as hashlib has it, and what neither has.
#include <nanobind/stl/string_view.h>
#include <nanobind/stl/vector.h>

#include <fastblake/backend.hpp>
#include <fastblake/config.hpp>

#include <stdexcept>

#include "module.hpp"

NB_MODULE(_fastblake, m) {
  namespace nb = nanobind;
  using namespace fastblake::python;
  // The library's misuse errors (a subtree API call out of order) are ValueErrors in Python.
  nb::register_exception_translator([](const std::exception_ptr& p, void*) {
    try {
      std::rethrow_exception(p);
    } catch (const std::logic_error& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    }
  });
  m.attr("__version__") = FASTBLAKE_VERSION_STRING;
  bind_blake3(m);
  nb::module_ hazmat = m.def_submodule(
      "blake3_hazmat",
      "BLAKE3's subtree API (the Rust crate's blake3::hazmat): hash pieces of one input "
      "anywhere, then merge their chaining values. Misuse gives chaining values that merge into "
      "a wrong hash: read the Rust crate's documentation first.");
  bind_blake3_hazmat(hazmat);
  bind_blake2(m);
  m.def(
      "backend", [] { return fastblake::active_backend(); },
      "The SIMD backend in use: avx512, avx2, sse41, sse2, neon or portable.");
  m.def(
      "available_backends", [] { return fastblake::available_backends(); },
      "The backends this build can run on this CPU, best first.");
  m.def(
      "use_backend", [](std::string_view name) { return fastblake::use_backend(name); },
      nb::arg("name"), "Switches backend (for tests and measurement); False if unavailable.");
}
