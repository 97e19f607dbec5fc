// What the module's classes and functions share: owned references, C++ exceptions turned into
// Python ones, argument parsing with the references' messages, zero-copy input buffers that
// own what they read, the GIL policy, the per-object lock, and integer arguments checked as
// the references check them.
//
// Written on CPython's own API, as hashlib is: method descriptors check `self`, types are
// final, objects are whole from tp_new on, signatures come from the docstrings, and errors
// carry the references' wording.
#pragma once

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <new>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>

namespace fastblake::python {

/// Thrown once a Python exception is set: the C++ code unwinds to the function Python called,
/// which returns NULL (see guarded()).
struct python_error_set {};

[[noreturn]] inline void raise(PyObject* type, const char* message) {
  PyErr_SetString(type, message);
  throw python_error_set{};
}
/// PyErr_Format, then unwinds.
[[noreturn]] void raise_format(PyObject* type, const char* format, ...);

/// An owned (strong) reference.
class ref {
 public:
  ref() = default;
  /// A new reference a CPython call returned; unwinds if it returned NULL (an error is set).
  static ref take(PyObject* p) {
    if (p == nullptr) throw python_error_set{};
    return ref(p);
  }
  /// A reference owned from now on, or none (null).
  static ref steal(PyObject* p) noexcept { return ref(p); }
  static ref borrow(PyObject* p) noexcept {
    Py_XINCREF(p);
    return ref(p);
  }
  ref(ref&& other) noexcept : p_(std::exchange(other.p_, nullptr)) {}
  ref& operator=(ref&& other) noexcept {
    std::swap(p_, other.p_);
    return *this;
  }
  ~ref() { Py_XDECREF(p_); }

  PyObject* get() const noexcept { return p_; }
  PyObject* release() noexcept { return std::exchange(p_, nullptr); }

 private:
  explicit ref(PyObject* p) noexcept : p_(p) {}
  PyObject* p_ = nullptr;
};

// -- CPython's API, whole or limited ---------------------------------------------------------
//
// The abi3 wheel (one module for CPython 3.12 and later) is compiled with Py_LIMITED_API, where
// CPython's structures are opaque and its access macros absent: these use the macros where
// they exist (the per-version wheels, the in-tree build) and the functions of the stable ABI
// where not.

inline Py_ssize_t tuple_size(PyObject* tuple) noexcept {
#ifdef Py_LIMITED_API
  return PyTuple_Size(tuple);
#else
  return PyTuple_GET_SIZE(tuple);
#endif
}
/// Borrowed.
inline PyObject* tuple_item(PyObject* tuple, Py_ssize_t i) noexcept {
#ifdef Py_LIMITED_API
  return PyTuple_GetItem(tuple, i);
#else
  return PyTuple_GET_ITEM(tuple, i);
#endif
}
/// Fills a new tuple's or list's slot; steals `item`.
inline void tuple_fill(PyObject* tuple, Py_ssize_t i, PyObject* item) noexcept {
#ifdef Py_LIMITED_API
  PyTuple_SetItem(tuple, i, item);
#else
  PyTuple_SET_ITEM(tuple, i, item);
#endif
}
inline void list_fill(PyObject* list, Py_ssize_t i, PyObject* item) noexcept {
#ifdef Py_LIMITED_API
  PyList_SetItem(list, i, item);
#else
  PyList_SET_ITEM(list, i, item);
#endif
}
/// A bytes object's contents.
inline std::span<std::byte> bytes_contents(PyObject* bytes) noexcept {
#ifdef Py_LIMITED_API
  return {reinterpret_cast<std::byte*>(PyBytes_AsString(bytes)),
          static_cast<std::size_t>(PyBytes_Size(bytes))};
#else
  return {reinterpret_cast<std::byte*>(PyBytes_AS_STRING(bytes)),
          static_cast<std::size_t>(PyBytes_GET_SIZE(bytes))};
#endif
}
/// PY_VERSION_HEX of the Python running the module: the abi3 module, built against 3.12's
/// headers, runs in later ones too.
inline unsigned long running_python_version() noexcept {
#ifdef Py_LIMITED_API
  return Py_Version;
#else
  return PY_VERSION_HEX;
#endif
}
/// A type's name as CPython's messages give it (tp_name: "numpy.ndarray", "bytearray").
std::string type_name(PyObject* object);

/// A new reference to `object` (Py_NewRef, which CPython has from 3.10 only).
inline PyObject* new_reference(PyObject* object) noexcept {
  Py_INCREF(object);
  return object;
}

/// Sets the Python exception that the C++ exception being handled stands for.
void set_error_from_exception() noexcept;

/// f() for a function Python calls: its result (a new reference), or NULL with the Python
/// exception a C++ exception stands for. Nothing escapes into CPython.
template <class F>
PyObject* guarded(F&& f) noexcept {
  try {
    return f();
  } catch (...) {
    set_error_from_exception();
    return nullptr;
  }
}

/// The GIL released for this scope (taken again even when an exception leaves it).
class gil_released {
 public:
  gil_released() noexcept : state_(PyEval_SaveThread()) {}
  ~gil_released() { PyEval_RestoreThread(state_); }
  gil_released(const gil_released&) = delete;
  gil_released& operator=(const gil_released&) = delete;

 private:
  PyThreadState* state_;
};

/// Inputs (and outputs) from this size on are hashed with the GIL released, so that threads
/// hashing different objects run at once; below it, releasing costs more than it frees.
inline constexpr std::size_t release_gil_from = 2048;

/// f(), with the GIL released from release_gil_from bytes on.
template <class F>
decltype(auto) maybe_released(std::size_t size, F&& f) {
  if (size >= release_gil_from) {
    gil_released unlocked;
    return f();
  }
  return f();
}

// -- Arguments -----------------------------------------------------------------------------

/// A function's parameters, for METH_FASTCALL | METH_KEYWORDS calls parsed with the messages
/// of the blake3 package (PyO3's): the first `positional_only` may not be named, the first
/// `positional` may be given by position (the rest are keyword-only), and the first
/// `required` have no default.
struct parameters {
  const char* function;  // "blake3.update", as messages name it
  std::span<const char* const> names;
  std::size_t positional_only;
  std::size_t positional;
  std::size_t required;
};

/// values[i]: the argument for names[i] (borrowed), or null where it was not given; a
/// TypeError for a call the signature refuses.
void parse(const parameters& p, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames,
           PyObject** values);

/// `value` unless it is null (not given), else `fallback`.
inline PyObject* or_default(PyObject* value, PyObject* fallback) {
  return value != nullptr ? value : fallback;
}

/// A C function Python calls with METH_FASTCALL | METH_KEYWORDS, as PyMethodDef stores it.
using fast_function = PyObject* (*)(PyObject*, PyObject* const*, Py_ssize_t, PyObject*);
inline PyCFunction as_method(fast_function f) noexcept {
  return reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(f));
}

/// An int argument as an unsigned 64-bit value: TypeError for a non-integer, ValueError
/// ("value must be positive") below 0 and OverflowError (`too_large`) above `max`, as hashlib's
/// parameters are checked.
/// beyond_64_bits: the OverflowError's message past 2^64 - 1 (CPython's converters differ).
std::uint64_t unsigned_argument(PyObject* value, std::uint64_t max, const char* too_large,
                                const char* beyond_64_bits = "int too big to convert");
/// A signed int argument, TypeError for a non-integer and OverflowError out of int64's range.
std::int64_t signed_argument(PyObject* value);
/// An int argument as an unsigned 64-bit value, as Rust's bindings convert one: TypeError for
/// a non-integer, OverflowError below 0 or above 2^64 - 1.
std::uint64_t u64_argument(PyObject* value);
/// A str argument's UTF-8, TypeError (blake3-py's wording) for anything else. Valid while the
/// str lives.
std::string_view str_argument(PyObject* value);
/// blake3-py's TypeError for an argument of the wrong type.
[[noreturn]] void raise_not_instance(PyObject* value, const char* type);

// -- Buffers -------------------------------------------------------------------------------

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
/// mmap, array.array, NumPy arrays). It owns what it reads until destroyed (a reference to a
/// bytes object, an export of any other buffer, which also keeps a bytearray from resizing),
/// so it may be read with the GIL released; it must be destroyed with the GIL held.
class input_buffer {
 public:
  explicit input_buffer(PyObject* object, buffer_rules rules = buffer_rules::hashlib);
  ~input_buffer();
  input_buffer(const input_buffer&) = delete;
  input_buffer& operator=(const input_buffer&) = delete;

  std::span<const std::byte> bytes() const noexcept {
    return {static_cast<const std::byte*>(view_.buf), static_cast<std::size_t>(view_.len)};
  }
  std::size_t size() const noexcept { return static_cast<std::size_t>(view_.len); }

 private:
  Py_buffer view_{};
  // A bytes object is read directly (immutable, so no export is needed), held by a reference
  // in view_.obj: the common case, made cheap for small inputs.
  bool exported_ = false;
};

/// Counts the forks this process descends from (module.cpp's fork handler, in the child).
extern std::atomic<std::uint64_t> forks_seen;

/// Serializes the use of one object from several threads (as blake3-py and hashlib do), so
/// that it stays consistent. Never waits for the lock while holding the GIL (a holder hashing
/// without the GIL could otherwise stall every Python thread), and never waits for the GIL
/// while holding the lock.
///
/// Safe across os.fork(): the lock word names the fork generation of its holder, so a child
/// that finds it held by a thread of its parent (which the child does not have, and which will
/// never release it) takes it over instead of waiting for ever; the object's state, left
/// part-way through that thread's call, is then unknown, and every use raises RuntimeError.
class object_lock {
 public:
  /// f() under the lock, with the GIL released if `release_gil`.
  template <class F>
  decltype(auto) run(bool release_gil, F&& f) {
    if (release_gil) {
      {
        gil_released unlocked;
        take();
        if (!abandoned_) {
          const holding held(*this);
          return f();
        }
        release();
      }
      raise_abandoned();
    }
    if (!try_take()) {
      gil_released unlocked;
      take();
    }
    if (abandoned_) {
      release();
      raise_abandoned();
    }
    const holding held(*this);
    return f();
  }

 private:
  // The word: 0 when free, else the holder's generation << 2, | 1 (held), | 2 (a thread may be
  // waiting: release() must wake one).
  static constexpr std::uint64_t held_bit = 1, waiting_bit = 2;
  static std::uint64_t held_now() noexcept {
    return forks_seen.load(std::memory_order_relaxed) << 2 | held_bit;
  }
  bool held_before_a_fork(std::uint64_t word) const noexcept {
    return word >> 2 != forks_seen.load(std::memory_order_relaxed);
  }

  struct holding {
    explicit holding(object_lock& l) noexcept : lock(l) {}
    ~holding() { lock.release(); }
    holding(const holding&) = delete;
    holding& operator=(const holding&) = delete;
    object_lock& lock;
  };

  bool try_take() noexcept {
    std::uint64_t word = 0;
    if (word_.compare_exchange_strong(word, held_now(), std::memory_order_acquire)) return true;
    return take_over(word, held_now());
  }
  // Takes the word over from a holder of an earlier generation; false if the holder is ours.
  bool take_over(std::uint64_t word, std::uint64_t mine) noexcept {
    while (word != 0 && held_before_a_fork(word)) {
      if (word_.compare_exchange_weak(word, mine, std::memory_order_acquire)) {
        abandoned_ = true;
        return true;
      }
    }
    return false;
  }
  void take() noexcept {
    // Taken as "waiting" once it was ever contended: there may be other waiters to wake.
    const std::uint64_t mine = held_now() | waiting_bit;
    std::uint64_t word = 0;
    if (word_.compare_exchange_strong(word, held_now(), std::memory_order_acquire)) return;
    for (;;) {
      if (word == 0) {
        if (word_.compare_exchange_weak(word, mine, std::memory_order_acquire)) return;
        continue;
      }
      if (take_over(word, mine)) return;
      word = word_.load(std::memory_order_relaxed);
      if (word == 0 || held_before_a_fork(word)) continue;
      if ((word & waiting_bit) == 0 &&
          !word_.compare_exchange_weak(word, word | waiting_bit, std::memory_order_relaxed)) {
        continue;
      }
      word_.wait(word | waiting_bit, std::memory_order_relaxed);
      word = word_.load(std::memory_order_relaxed);
    }
  }
  void release() noexcept {
    if ((word_.exchange(0, std::memory_order_release) & waiting_bit) != 0) word_.notify_one();
  }
  [[noreturn]] static void raise_abandoned() {
    raise(PyExc_RuntimeError,
          "this object was in use by another thread when the process forked: its state is "
          "unknown in the child");
  }

  std::atomic<std::uint64_t> word_{0};
  bool abandoned_ = false;  // guarded by the lock
};

// -- Results -------------------------------------------------------------------------------

/// A bytes object of `size` bytes filled by fill(std::span<std::byte>), with the GIL released
/// for large outputs: written in place, no copy.
template <class Fill>
ref bytes_filled(std::size_t size, Fill&& fill) {
  ref out = ref::take(PyBytes_FromStringAndSize(nullptr, static_cast<Py_ssize_t>(size)));
  const std::span<std::byte> span = bytes_contents(out.get());
  maybe_released(size, [&] { fill(span); });
  return out;
}

inline ref bytes_of(std::span<const std::byte> bytes) {
  return ref::take(PyBytes_FromStringAndSize(reinterpret_cast<const char*>(bytes.data()),
                                             static_cast<Py_ssize_t>(bytes.size())));
}

/// Lower-case hex of bytes, as a str.
ref hex_of(std::span<const std::byte> bytes);
/// Lower-case hex of a bytes object.
ref hex_of_bytes(PyObject* bytes);

// -- Types ---------------------------------------------------------------------------------

/// The instances of a class that holds a T: constructed by make_instance (the class's tp_new,
/// so an object is whole from the moment it exists), destroyed by tp_dealloc.
template <class T>
struct instance {
  PyObject ob_base;  // PyObject_HEAD
  T value;
};

template <class T>
T& value_of(PyObject* self) noexcept {
  return reinterpret_cast<instance<T>*>(self)->value;
}

inline allocfunc allocator_of(PyTypeObject* type) noexcept {
#ifdef Py_LIMITED_API
  return reinterpret_cast<allocfunc>(PyType_GetSlot(type, Py_tp_alloc));
#else
  return type->tp_alloc;
#endif
}
inline freefunc deallocator_of(PyTypeObject* type) noexcept {
#ifdef Py_LIMITED_API
  return reinterpret_cast<freefunc>(PyType_GetSlot(type, Py_tp_free));
#else
  return type->tp_free;
#endif
}

template <class T, class... Args>
PyObject* make_instance(PyTypeObject* type, Args&&... args) {
  // pymalloc's blocks are 16-byte aligned.
  static_assert(alignof(instance<T>) <= 16);
  PyObject* self = allocator_of(type)(type, 0);
  if (self == nullptr) throw python_error_set{};
  try {
    new (&value_of<T>(self)) T(std::forward<Args>(args)...);
  } catch (...) {
    deallocator_of(type)(self);
    Py_DECREF(type);
    throw;
  }
  return self;
}

template <class T>
void dealloc(PyObject* self) noexcept {
  PyTypeObject* type = Py_TYPE(self);
  value_of<T>(self).~T();
  deallocator_of(type)(self);
  Py_DECREF(type);
}

/// The flags of the module's classes: final (not subclassable), as hashlib's and blake3-py's
/// are; `immutable` as hashlib's (from Python 3.10, where CPython has the flag).
unsigned class_flags(bool immutable);

/// A class made from `spec`, added to `module`, with `call` as its vectorcall (how
/// `cls(...)` runs: arguments as an array, no tuple or dict) and tp_new parsing the same way.
PyTypeObject* add_class(PyObject* module, PyType_Spec& spec, vectorcallfunc call);

/// Sets a class attribute, immutable classes included (before they are used).
void set_class_attribute(PyTypeObject* type, const char* name, ref value);

/// tp_new for a class whose construction is its vectorcall: the tuple and dict as an array.
PyObject* new_through_vectorcall(PyTypeObject* type, PyObject* args, PyObject* kwargs) noexcept;

}  // namespace fastblake::python
