// What the module's classes share: zero-copy input buffers, the GIL policy, the per-object
// lock, integer arguments checked as CPython checks them, and bytes built in place.
#pragma once

#include <nanobind/nanobind.h>

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <span>
#include <string_view>

namespace fastblake::python {

namespace nb = nanobind;

/// Inputs (and outputs) from this size on are hashed with the GIL released, so that threads
/// hashing different objects run at once; below it, releasing costs more than it frees.
inline constexpr std::size_t release_gil_from = 2048;

/// Which buffers a function takes, and the errors for the others.
enum class buffer_rules {
  /// hashlib's: any C-contiguous buffer, read as bytes whatever its element type; str is a
  /// TypeError ("Strings must be encoded before hashing"), a non-contiguous buffer the buffer
  /// protocol's own error.
  hashlib,
  /// blake3-py's: C-contiguous buffers of one-byte elements (format B, b or c); TypeError
  /// ("a bytes-like object is required") for the rest, BufferError for a non-contiguous buffer
  /// or wider elements.
  bytes_only,
};

/// A read-only, C-contiguous view of a buffer-protocol object (bytes, bytearray, memoryview,
/// mmap, array.array, NumPy arrays), held until destroyed: nothing is copied.
class input_buffer {
 public:
  explicit input_buffer(nb::handle object, buffer_rules rules = buffer_rules::hashlib);
  ~input_buffer();
  input_buffer(const input_buffer&) = delete;
  input_buffer& operator=(const input_buffer&) = delete;

  std::span<const std::byte> bytes() const noexcept {
    return {static_cast<const std::byte*>(view_.buf), static_cast<std::size_t>(view_.len)};
  }
  std::size_t size() const noexcept { return static_cast<std::size_t>(view_.len); }

 private:
  Py_buffer view_{};
  // A bytes object is read directly (immutable, so no export is needed): view_.obj stays null
  // and nothing is released. The common case, made cheap for small inputs.
  bool exported_ = false;
};

/// Serializes the use of one object from several threads (as blake3-py and hashlib do), so
/// that it stays consistent. Never waits for the lock while holding the GIL (a holder hashing
/// without the GIL could otherwise stall every Python thread), and never waits for the GIL
/// while holding the lock.
class object_lock {
 public:
  /// f() under the lock, with the GIL released if `release_gil`.
  template <class F>
  decltype(auto) run(bool release_gil, F&& f) {
    if (release_gil) {
      nb::gil_scoped_release unlocked;
      std::lock_guard guard(mutex_);
      return f();
    }
    if (!mutex_.try_lock()) {
      nb::gil_scoped_release unlocked;
      mutex_.lock();
    }
    std::lock_guard guard(mutex_, std::adopt_lock);
    return f();
  }

 private:
  std::mutex mutex_;
};

/// An int argument as an unsigned 64-bit value: TypeError for a non-integer, ValueError
/// ("value must be positive") below 0 and OverflowError (`too_large`) above `max`, as hashlib's
/// parameters are checked.
/// beyond_64_bits: the OverflowError's message past 2^64 - 1 (CPython's converters differ).
std::uint64_t unsigned_argument(nb::handle value, std::uint64_t max, const char* too_large,
                                const char* beyond_64_bits = "int too big to convert");
/// A signed int argument, TypeError for a non-integer and OverflowError out of int64's range.
std::int64_t signed_argument(nb::handle value);
/// An int argument as an unsigned 64-bit value, as Rust's bindings convert one: TypeError for
/// a non-integer, OverflowError below 0 or above 2^64 - 1.
std::uint64_t u64_argument(nb::handle value);

/// A bytes object of `size` bytes filled by fill(std::span<std::byte>), with the GIL released
/// for large outputs: written in place, no copy.
template <class Fill>
nb::bytes bytes_filled(std::size_t size, Fill&& fill) {
  PyObject* out = PyBytes_FromStringAndSize(nullptr, static_cast<Py_ssize_t>(size));
  if (out == nullptr) throw nb::python_error();
  nb::bytes result = nb::steal<nb::bytes>(out);
  std::span<std::byte> span(reinterpret_cast<std::byte*>(PyBytes_AS_STRING(out)), size);
  if (size >= release_gil_from) {
    nb::gil_scoped_release unlocked;
    fill(span);
  } else {
    fill(span);
  }
  return result;
}

/// Lower-case hex of bytes, as a str.
nb::str hex_of(std::span<const std::byte> bytes);

}  // namespace fastblake::python
