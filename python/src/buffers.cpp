// Input buffers that own what they read, and hex output.
#include <string>
#include <string_view>

#include "common.hpp"

namespace fastblake::python {

input_buffer::input_buffer(PyObject* object, buffer_rules rules) {
  if (PyBytes_CheckExact(object)) {
    const std::span<std::byte> contents = bytes_contents(object);
    view_.buf = contents.data();
    view_.len = static_cast<Py_ssize_t>(contents.size());
    Py_INCREF(object);
    view_.obj = object;
    return;
  }
  if (rules == buffer_rules::hashlib) {
    if (PyUnicode_Check(object)) raise(PyExc_TypeError, "Strings must be encoded before hashing");
    if (!PyObject_CheckBuffer(object)) {
      raise(PyExc_TypeError, "object supporting the buffer API required");
    }
    // PyBUF_SIMPLE: contiguous bytes or an error (BufferError, or NumPy's ValueError).
    if (PyObject_GetBuffer(object, &view_, PyBUF_SIMPLE) != 0) throw python_error_set{};
    exported_ = true;
    return;
  }
  if (!PyObject_CheckBuffer(object)) {
    raise_format(PyExc_TypeError, "a bytes-like object is required, not '%s'",
                 type_name(object).c_str());
  }
  // The full description, to check it as blake3-py does (and to raise its errors, not the
  // exporter's, for what it refuses).
  if (PyObject_GetBuffer(object, &view_, PyBUF_FULL_RO) != 0) throw python_error_set{};
  const char* error = nullptr;
  const std::string_view format = view_.format == nullptr ? "B" : view_.format;
  if (view_.shape == nullptr) {
    error = "shape is null";
  } else if (view_.strides == nullptr) {
    error = "strides is null";
  } else if (view_.itemsize != 1 || (format != "B" && format != "b" && format != "c")) {
    error = "buffer contents are not compatible with u8";
  } else if (!PyBuffer_IsContiguous(&view_, 'C')) {
    error = "buffer is not contiguous";
  }
  if (error != nullptr) {
    PyBuffer_Release(&view_);
    raise(PyExc_BufferError, error);
  }
  exported_ = true;
}

input_buffer::~input_buffer() {
  if (exported_) {
    PyBuffer_Release(&view_);
  } else {
    Py_XDECREF(view_.obj);
  }
}

ref hex_of(std::span<const std::byte> bytes) {
  static constexpr char digits[] = "0123456789abcdef";
  const auto write = [&](char* p) {
    for (std::byte b : bytes) {
      *p++ = digits[static_cast<unsigned>(b) >> 4];
      *p++ = digits[static_cast<unsigned>(b) & 15];
    }
  };
#ifdef Py_LIMITED_API
  // No writable str under the stable ABI: the text is made, then copied (on the stack for
  // digests up to 128 bytes).
  const std::size_t size = 2 * bytes.size();
  char few[256];
  std::string many(size > sizeof few ? size : 0, '\0');
  char* text = size > sizeof few ? many.data() : few;
  write(text);
  return ref::take(PyUnicode_FromStringAndSize(text, static_cast<Py_ssize_t>(size)));
#else
  ref out = ref::take(PyUnicode_New(static_cast<Py_ssize_t>(2 * bytes.size()), 127));
  write(static_cast<char*>(PyUnicode_DATA(out.get())));
  return out;
#endif
}

ref hex_of_bytes(PyObject* bytes) { return hex_of(bytes_contents(bytes)); }

}  // namespace fastblake::python
