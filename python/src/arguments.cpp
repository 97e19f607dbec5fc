// Argument parsing with the blake3 package's messages, and integer and str conversions with
// the references' errors.
#include <cstdarg>
#include <string>
#include <vector>

#include "common.hpp"

namespace fastblake::python {

void raise_format(PyObject* type, const char* format, ...) {
  va_list args;
  va_start(args, format);
  PyErr_FormatV(type, format, args);
  va_end(args);
  throw python_error_set{};
}

void raise_not_instance(PyObject* value, const char* type) {
  raise_format(PyExc_TypeError, "'%s' object is not an instance of '%s'", type_name(value).c_str(),
               type);
}

namespace {

// PyO3's lists of parameter names: 'a', 'a' and 'b', 'a', 'b', and 'c'.
std::string quoted_list(const std::vector<std::string_view>& names) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i != 0) {
      if (names.size() > 2) out += ',';
      out += i + 1 == names.size() ? " and " : " ";
    }
    out.append("'").append(names[i]).append("'");
  }
  return out;
}

[[noreturn]] void raise_type_error(const parameters& p, const std::string& message) {
  raise(PyExc_TypeError, (std::string(p.function) + "() " + message).c_str());
}

// The index of the parameter named `name` among names[from, to), or `to`.
std::size_t find_name(const parameters& p, PyObject* name, std::size_t from, std::size_t to) {
  for (std::size_t i = from; i < to; ++i) {
    if (PyUnicode_CompareWithASCIIString(name, p.names[i]) == 0) return i;
  }
  return to;
}

}  // namespace

void parse(const parameters& p, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames,
           PyObject** values) {
  const std::size_t count = p.names.size();
  const auto given = static_cast<std::size_t>(nargs);
  if (given > p.positional) {
    const std::string was = given == 1 ? "was" : "were";
    raise_type_error(p, p.required == p.positional
                            ? "takes " + std::to_string(p.positional) +
                                  " positional arguments but " + std::to_string(given) + " " + was +
                                  " given"
                            : "takes from " + std::to_string(p.required) + " to " +
                                  std::to_string(p.positional) + " positional arguments but " +
                                  std::to_string(given) + " " + was + " given");
  }
  for (std::size_t i = 0; i < count; ++i) values[i] = i < given ? args[i] : nullptr;
  if (kwnames != nullptr) {
    std::vector<std::string_view> positional_only_named;
    const Py_ssize_t named = tuple_size(kwnames);
    for (Py_ssize_t k = 0; k < named; ++k) {
      PyObject* name = tuple_item(kwnames, k);
      const std::size_t i = find_name(p, name, p.positional_only, count);
      if (i != count) {
        if (values[i] != nullptr) {
          raise_type_error(p, std::string("got multiple values for argument '") + p.names[i] + "'");
        }
        values[i] = args[nargs + k];
      } else if (const std::size_t j = find_name(p, name, 0, p.positional_only);
                 j != p.positional_only) {
        positional_only_named.push_back(p.names[j]);
      } else {
        const char* text = PyUnicode_AsUTF8AndSize(name, nullptr);
        if (text == nullptr) throw python_error_set{};
        raise_type_error(p, std::string("got an unexpected keyword argument '") + text + "'");
      }
    }
    if (!positional_only_named.empty()) {
      raise_type_error(p, "got some positional-only arguments passed as keyword arguments: " +
                              quoted_list(positional_only_named));
    }
  }
  std::vector<std::string_view> missing;
  for (std::size_t i = given; i < p.required; ++i) {
    if (values[i] == nullptr) missing.push_back(p.names[i]);
  }
  if (!missing.empty()) {
    const bool keyword = p.required > p.positional;
    raise_type_error(p, "missing " + std::to_string(missing.size()) + " required " +
                            (keyword ? "keyword" : "positional") +
                            (missing.size() == 1 ? " argument: " : " arguments: ") +
                            quoted_list(missing));
  }
}

std::uint64_t unsigned_argument(PyObject* value, std::uint64_t max, const char* too_large,
                                const char* beyond_64_bits) {
  // CPython's unsigned converters take ints only (not floats, nor other __index__ types).
  if (!PyLong_Check(value)) raise(PyExc_TypeError, "an integer is required");
  int overflow = 0;
  const long long small = PyLong_AsLongLongAndOverflow(value, &overflow);
  if (small == -1 && PyErr_Occurred()) throw python_error_set{};
  if (overflow < 0 || (overflow == 0 && small < 0)) {
    raise(PyExc_ValueError, "value must be positive");
  }
  std::uint64_t v = static_cast<std::uint64_t>(small);
  if (overflow > 0) {
    v = PyLong_AsUnsignedLongLong(value);
    if (PyErr_Occurred()) raise(PyExc_OverflowError, beyond_64_bits);
  }
  if (v > max) raise(PyExc_OverflowError, too_large);
  return v;
}

std::int64_t signed_argument(PyObject* value) {
  const ref number = ref::take(PyNumber_Index(value));  // TypeError for a non-integer
  const long long v = PyLong_AsLongLong(number.get());  // OverflowError out of range
  if (v == -1 && PyErr_Occurred()) throw python_error_set{};
  return v;
}

std::uint64_t u64_argument(PyObject* value) {
  const ref number = ref::take(PyNumber_Index(value));
  // OverflowError: "can't convert negative int to unsigned", "int too big to convert".
  const unsigned long long v = PyLong_AsUnsignedLongLong(number.get());
  if (v == static_cast<unsigned long long>(-1) && PyErr_Occurred()) throw python_error_set{};
  return v;
}

std::string_view str_argument(PyObject* value) {
  if (!PyUnicode_Check(value)) raise_not_instance(value, "str");
  Py_ssize_t size = 0;
  const char* text = PyUnicode_AsUTF8AndSize(value, &size);
  if (text == nullptr) throw python_error_set{};
  return {text, static_cast<std::size_t>(size)};
}

}  // namespace fastblake::python
