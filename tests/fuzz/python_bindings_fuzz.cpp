// libFuzzer target for the Python module's binding layer: argument parsing and conversions.
// The compiled module (python/src) is linked in and registered as a built-in module of an
// embedded interpreter whose allocator is plain malloc, so that ASan sees every Python object.
// Each input is a program that the driver below (Python) runs: every step calls a function,
// class or method of the module with values drawn from a pool of every kind (bytes and buffers
// of boundary sizes, ints at the edges of each range, str with NUL bytes, None, floats, other
// classes' objects, generators, iterables that raise), by position or by keyword, with right
// and wrong names. A call may raise only TypeError, ValueError, OverflowError, BufferError,
// KeyError (from a generator of the pool), OSError or MemoryError (an output length that
// cannot be allocated); BLAKE2b and BLAKE2s must give hashlib's
// digest, or raise what hashlib raises; BLAKE3 one-shot and streamed hashes must agree.
// Anything else (a crash, a sanitizer report, a SystemError) aborts and libFuzzer keeps the
// input.
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

PyMODINIT_FUNC PyInit__fastblake();

namespace {

constexpr const char* driver = R"PY(
import hashlib, os, _fastblake as fb

hazmat = fb.blake3_hazmat
ALLOWED = (TypeError, ValueError, OverflowError, BufferError, KeyError, OSError, MemoryError)

def raising():
    yield b"x"
    raise KeyError("from a generator")

class Path:
    def __fspath__(self):
        return __file__ if "__file__" in globals() else "/dev/null"

import array
POOL = [None, True, False, 0, 1, -1, 7, 31, 32, 33, 63, 64, 65, 255, 256, 1024, 4096,
        2**31 - 1, 2**31, 2**32 - 1, 2**32, 2**48 - 1, 2**48, 2**63, 2**64 - 1, 2**64, 2**80,
        -2**63, 0.5, 1.0, float("nan"), "", "a", "ctx", "abc\0", "auto", "read", "mmap",
        "mmap_parallel", "/dev/null", "/no/such/file", b"/dev/null", b"", b"x", b"k" * 32,
        b"s" * 8, b"s" * 16, b"p" * 17, b"y" * 65, b"z" * 3000, bytearray(b"q" * 100),
        memoryview(b"abcdef")[::2], memoryview(b"m" * 40), array.array("I", [1, 2, 3]),
        array.array("B", b"abc"), [b"a", b"b" * 2000], (b"c",), [b"x", "str"], [], {},
        object(), Path(), lambda done, total: False, lambda done, total: None]

# Output lengths from 1 MiB to 2^62 bytes would be allocated and written for real (gigabytes,
# seconds each): they are cut to their low 20 bits. Past 2^62 they stay, for the overflow
# checks; what cannot be allocated is a MemoryError.
def bounded(value):
    if isinstance(value, int) and (1 << 20) <= value <= (1 << 62):
        return value & ((1 << 20) - 1)
    return value

def fresh_objects():
    return [fb.blake3(), fb.blake3(b"abc", key=b"k" * 32), fb.blake2b(), fb.blake2s(b"x"),
            fb.blake2bp(), fb.blake2sp(), fb.blake2xb(), fb.blake2xs(), hashlib.blake2b(),
            (b"g" * i for i in range(5)), raising(), iter([b"i", b"j"])]

NAMES = ["data", "key", "derive_key_context", "max_threads", "usedforsecurity", "length", "seek",
         "digest_size", "salt", "person", "fanout", "depth", "leaf_size", "node_offset",
         "node_depth", "inner_size", "last_node", "path", "inputs", "strategy", "progress",
         "hasher", "offset", "left", "right", "input_len", "name", "nonsense"]

CLASSES = [fb.blake3, fb.blake2b, fb.blake2s, fb.blake2bp, fb.blake2sp, fb.blake2xb,
           fb.blake2xs]
METHODS = ["update", "digest", "hexdigest", "copy", "reset", "update_mmap"]
FUNCTIONS = [fb.hash_many, fb.hash_file, fb.use_backend, hazmat.set_input_offset,
             hazmat.finalize_non_root, hazmat.merge_subtrees_non_root,
             hazmat.merge_subtrees_root, hazmat.left_subtree_len, hazmat.max_subtree_len]

def outcome(call):
    try:
        result = call()
    except ALLOWED as e:
        return None, type(e)
    return result, None

def check_blake2(cls, args, kwargs, ours):
    reference = {fb.blake2b: hashlib.blake2b, fb.blake2s: hashlib.blake2s}.get(cls)
    if reference is None:
        return
    theirs = outcome(lambda: reference(*args, **kwargs).digest())
    mine = outcome(lambda: ours().digest())
    assert mine == theirs, (cls, args, kwargs, mine, theirs)

def run(data):
    at = 0
    def take(n=256):
        nonlocal at
        if at >= len(data):
            raise StopIteration
        at += 1
        return data[at - 1] % n
    objects = fresh_objects()
    try:
        while True:
            pool = POOL + objects
            kind = take(3)
            args = [pool[take(len(pool))] for _ in range(take(4))]
            kwargs = {NAMES[take(len(NAMES))]: pool[take(len(pool))] for _ in range(take(3))}
            for name in ("length", "digest_size"):
                if name in kwargs:
                    kwargs[name] = bounded(kwargs[name])
            if kind == 0:
                cls = CLASSES[take(len(CLASSES))]
                made, error = outcome(lambda: cls(*args, **kwargs))
                check_blake2(cls, args, kwargs, lambda: cls(*args, **kwargs))
                if made is not None:
                    objects.append(made)
                    if cls is fb.blake3 and args and args[0] is not None:
                        # One-shot and streamed agree.
                        assert cls(**kwargs).update(args[0]).digest() == made.digest()
            elif kind == 1:
                target = objects[take(len(objects))]
                name = METHODS[take(len(METHODS))]
                unbound = CLASSES[take(len(CLASSES))]
                if name in ("digest", "hexdigest"):
                    args = [bounded(a) for a in args]
                if take(2):
                    if not hasattr(target, name):
                        continue
                    call = lambda: getattr(target, name)(*args, **kwargs)
                elif hasattr(unbound, name):
                    call = lambda: getattr(unbound, name)(target, *args, **kwargs)
                else:
                    continue
                outcome(call)
            else:
                function = FUNCTIONS[take(len(FUNCTIONS))]
                outcome(lambda: function(*args, **kwargs))
            if len(objects) > 64:
                del objects[12:]
    except StopIteration:
        pass
    # The hashers are whole whatever was done to them: a copy digests as the original.
    for h in objects:
        if isinstance(h, tuple(CLASSES)):
            digest, error = outcome(lambda: h.digest())
            if error is None:
                assert h.copy().digest() == digest
)PY";

PyObject* run_function = nullptr;

}  // namespace

// An allocation too large to make is a null pointer (a MemoryError in Python), not a report;
// no leak check: the interpreter keeps what it interns and caches across inputs.
extern "C" const char* __asan_default_options() {
  return "allocator_may_return_null=1:detect_leaks=0";
}

namespace {

[[noreturn]] void fail() {
  PyErr_Print();
  std::fflush(stderr);
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  PyPreConfig preconfig;
  PyPreConfig_InitPythonConfig(&preconfig);
  preconfig.allocator = PYMEM_ALLOCATOR_MALLOC;
  if (PyStatus status = Py_PreInitialize(&preconfig); PyStatus_Exception(status)) {
    Py_ExitStatusException(status);
  }
  if (PyImport_AppendInittab("_fastblake", PyInit__fastblake) != 0) std::abort();
  Py_InitializeEx(0);
  PyObject* globals = PyDict_New();
  PyDict_SetItemString(globals, "__builtins__", PyEval_GetBuiltins());
  PyObject* done = PyRun_String(driver, Py_file_input, globals, globals);
  if (done == nullptr) fail();
  Py_DECREF(done);
  run_function = PyDict_GetItemString(globals, "run");
  if (run_function == nullptr) fail();
  Py_INCREF(run_function);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  PyObject* bytes =
      PyBytes_FromStringAndSize(reinterpret_cast<const char*>(data), static_cast<Py_ssize_t>(size));
  if (bytes == nullptr) fail();
  PyObject* result = PyObject_CallOneArg(run_function, bytes);
  Py_DECREF(bytes);
  if (result == nullptr) fail();
  Py_DECREF(result);
  return 0;
}
