#include <limits>
#include <string_view>

#include "common.hpp"

namespace fastblake::python {

namespace {

[[noreturn]] void raise_buffer_error(const char* message) {
  PyErr_SetString(PyExc_BufferError, message);
  throw nb::python_error();
}

}  // namespace

input_buffer::input_buffer(nb::handle object, buffer_rules rules) {
  if (PyBytes_CheckExact(object.ptr())) {
    view_.buf = PyBytes_AS_STRING(object.ptr());
    view_.len = PyBytes_GET_SIZE(object.ptr());
    return;
  }
  exported_ = true;
  if (rules == buffer_rules::hashlib) {
    if (PyUnicode_Check(object.ptr())) {
      throw nb::type_error("Strings must be encoded before hashing");
    }
    if (!PyObject_CheckBuffer(object.ptr())) {
      throw nb::type_error("object supporting the buffer API required");
    }
    // PyBUF_SIMPLE: contiguous bytes or an error (BufferError, or NumPy's ValueError).
    if (PyObject_GetBuffer(object.ptr(), &view_, PyBUF_SIMPLE) != 0) {
      exported_ = false;
      throw nb::python_error();
    }
    return;
  }
  if (!PyObject_CheckBuffer(object.ptr())) {
    PyErr_Format(PyExc_TypeError, "a bytes-like object is required, not '%s'",
                 Py_TYPE(object.ptr())->tp_name);
    throw nb::python_error();
  }
  // The full description, to check it as blake3-py does (and to raise its errors, not the
  // exporter's, for what it refuses).
  if (PyObject_GetBuffer(object.ptr(), &view_, PyBUF_FULL_RO) != 0) {
    exported_ = false;
    throw nb::python_error();
  }
  const char* error = nullptr;
  const char* format = view_.format == nullptr ? "B" : view_.format;
  if (view_.shape == nullptr) {
    error = "shape is null";
  } else if (view_.strides == nullptr) {
    error = "strides is null";
  } else if (!PyBuffer_IsContiguous(&view_, 'C')) {
    error = "buffer is not contiguous";
  } else if (view_.itemsize != 1 ||
             (std::string_view(format) != "B" && std::string_view(format) != "b" &&
              std::string_view(format) != "c")) {
    error = "buffer contents are not compatible with u8";
  }
  if (error != nullptr) {
    PyBuffer_Release(&view_);
    exported_ = false;
    raise_buffer_error(error);
  }
}

input_buffer::~input_buffer() {
  if (exported_) PyBuffer_Release(&view_);
}

std::uint64_t unsigned_argument(nb::handle value, std::uint64_t max, const char* too_large,
                                const char* beyond_64_bits) {
  // CPython's unsigned converters take ints only (not floats, nor other __index__ types).
  if (!PyLong_Check(value.ptr())) throw nb::type_error("an integer is required");
  PyObject* number = PyNumber_Index(value.ptr());
  if (number == nullptr) throw nb::python_error();
  nb::object owned = nb::steal(number);
  int overflow = 0;
  const long long small = PyLong_AsLongLongAndOverflow(number, &overflow);
  if (small == -1 && PyErr_Occurred()) throw nb::python_error();
  if (overflow < 0 || (overflow == 0 && small < 0)) throw nb::value_error("value must be positive");
  std::uint64_t v = static_cast<std::uint64_t>(small);
  if (overflow > 0) {
    v = PyLong_AsUnsignedLongLong(number);
    if (PyErr_Occurred()) {
      PyErr_SetString(PyExc_OverflowError, beyond_64_bits);
      throw nb::python_error();
    }
  }
  if (v > max) {
    PyErr_SetString(PyExc_OverflowError, too_large);
    throw nb::python_error();
  }
  return v;
}

std::int64_t signed_argument(nb::handle value) {
  if (PyLong_CheckExact(value.ptr())) {
    const long v = PyLong_AsLong(value.ptr());  // OverflowError out of range
    if (v == -1 && PyErr_Occurred()) throw nb::python_error();
    return v;
  }
  PyObject* number = PyNumber_Index(value.ptr());
  if (number == nullptr) throw nb::python_error();
  nb::object owned = nb::steal(number);
  const long v = PyLong_AsLong(number);  // OverflowError out of range
  if (v == -1 && PyErr_Occurred()) throw nb::python_error();
  return v;
}

std::uint64_t u64_argument(nb::handle value) {
  PyObject* number = PyNumber_Index(value.ptr());
  if (number == nullptr) throw nb::python_error();
  nb::object owned = nb::steal(number);
  // OverflowError: "can't convert negative int to unsigned", "int too big to convert".
  const unsigned long long v = PyLong_AsUnsignedLongLong(number);
  if (v == static_cast<unsigned long long>(-1) && PyErr_Occurred()) throw nb::python_error();
  return v;
}

nb::str hex_of(std::span<const std::byte> bytes) {
  static constexpr char digits[] = "0123456789abcdef";
  PyObject* out = PyUnicode_New(static_cast<Py_ssize_t>(2 * bytes.size()), 127);
  if (out == nullptr) throw nb::python_error();
  auto* p = static_cast<char*>(PyUnicode_DATA(out));
  for (std::byte b : bytes) {
    *p++ = digits[static_cast<unsigned>(b) >> 4];
    *p++ = digits[static_cast<unsigned>(b) & 15];
  }
  return nb::steal<nb::str>(out);
}

}  // namespace fastblake::python
