"""Object-lifetime and misuse hazards, each as a class: iterables of temporaries, generators,
buffers resized during a call, containers changed by another thread, objects used after an
error, unbound calls with every wrong `self`, objects made by __new__ alone, NUL bytes in
paths, threads bounded whatever max_threads callers pass; and the API as a Python user sees
it (signatures, argument errors, final and immutable classes) against the references."""
import array
import hashlib
import inspect
import os
import subprocess
import sys
import threading

import blake3 as reference_module
import pytest

import fastblake
import fastblake.blake3_hazmat as hazmat
from conftest import failure, random_bytes

theirs = reference_module.blake3

BLAKE2_CLASSES = [fastblake.blake2b, fastblake.blake2s, fastblake.blake2bp, fastblake.blake2sp,
                  fastblake.blake2xb, fastblake.blake2xs]
CLASSES = [fastblake.blake3] + BLAKE2_CLASSES


def want(items, **mode):
    return [theirs(bytes(i), **mode).digest() for i in items]


# -- hash_many owns what it reads ----------------------------------------------------------

def test_hash_many_takes_generators_of_temporaries():
    # Each item is freed by the generator once the next is made, unless hash_many holds it.
    for sizes in [[3000] * 20, [1, 5000, 64, 70000, 1023, 1024, 1025, 0, 200000] * 3]:
        made = [bytes([i % 256]) * n for i, n in enumerate(sizes)]
        assert fastblake.hash_many(bytes([i % 256]) * n for i, n in enumerate(sizes)) == want(made)
        assert fastblake.hash_many((bytearray(m) for m in made), key=b"k" * 32) == \
            want(made, key=b"k" * 32)
        assert fastblake.hash_many((memoryview(bytes(m)) for m in made),
                                   derive_key_context="ctx") == want(made, derive_key_context="ctx")
    words = [f"word number {i} " * (i * 37 % 200) for i in range(40)]
    assert fastblake.hash_many(map(str.encode, words)) == want(w.encode() for w in words)


def test_hash_many_takes_any_iterable_and_refuses_the_rest():
    items = [b"a" * 10, b"b" * 3000]
    for iterable in [tuple(items), iter(items), {0: items[0], 1: items[1]}.values(), (x for x in items)]:
        assert fastblake.hash_many(iterable) == want(items)
    assert failure(lambda: fastblake.hash_many(5))[0] is TypeError
    assert failure(lambda: fastblake.hash_many([b"x", "text"]))[0] is TypeError
    assert failure(lambda: fastblake.hash_many([b"x", array.array("I", [1])]))[0] is BufferError

    def broken():
        yield b"x"
        raise KeyError("from the generator")
    assert failure(lambda: fastblake.hash_many(broken()))[0] is KeyError


def test_hash_many_while_another_thread_changes_the_list():
    # Large items, so that hashing runs without the GIL while the other thread clears, refills
    # and shrinks the list: hash_many reads the list once, under the GIL, and owns what it read.
    base = [bytes([i]) * (1 << 16) for i in range(64)]
    expected = want(base)
    shared = list(base)
    stop = threading.Event()

    def churn():
        while not stop.is_set():
            shared.clear()
            shared.extend(bytes([i]) * (1 << 16) for i in range(64))
            del shared[10:]
            shared[:] = list(base)
    t = threading.Thread(target=churn)
    t.start()
    try:
        for _ in range(200):
            got = fastblake.hash_many(shared)
            # Whatever the list held at the moment it was read, each digest is its item's.
            for digest in got:
                assert digest in expected
    finally:
        stop.set()
        t.join()


def test_a_bytearray_resized_by_another_thread_while_it_is_hashed():
    # The export a hash holds keeps the bytearray from resizing (BufferError in the other
    # thread); between hashes it may be one byte longer. Each hash is of one of the two.
    size = 16 << 20
    data = bytearray(size)
    stop = threading.Event()

    def resize():
        while not stop.is_set():
            try:
                data.extend(b"x")
            except BufferError:
                continue
            while True:
                try:
                    del data[size:]
                    break
                except BufferError:
                    pass
    t = threading.Thread(target=resize)
    t.start()
    try:
        forms = [bytes(size), bytes(size) + b"x"]
        blake3_digests = {theirs(f).digest() for f in forms}
        blake2_digests = {hashlib.blake2b(f).digest() for f in forms}
        for _ in range(4):
            assert fastblake.blake3(data).digest() in blake3_digests
            assert fastblake.hash_many([data])[0] in blake3_digests
            assert fastblake.blake2b(data).digest() in blake2_digests
    finally:
        stop.set()
        t.join()


# -- self is always the right type ---------------------------------------------------------

def method_calls(cls):
    """(name, args, kwargs) of every method the class has, with plausible arguments."""
    calls = {"update": ((b"x" * 3000,), {}), "copy": ((), {}), "digest": ((), {}),
             "hexdigest": ((), {}), "reset": ((), {}), "update_mmap": ((__file__,), {})}
    names = [n for n, v in vars(cls).items() if callable(v) and not n.startswith("_")]
    assert set(names) <= set(calls), names
    return [(n, *calls[n]) for n in names]


WRONG_SELVES = [bytearray(200), b"bytes", 5, None, "text", [1, 2], object(),
                theirs(), hashlib.blake2b(), hashlib.sha256()]


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)
def test_unbound_methods_refuse_every_wrong_self(cls):
    others = [c() for c in CLASSES if c is not cls]
    for name, args, kwargs in method_calls(cls):
        method = getattr(cls, name)
        for wrong in WRONG_SELVES + others:
            kind, message = failure(lambda: method(wrong, *args, **kwargs))
            assert kind is TypeError, (cls, name, type(wrong), message)
        assert failure(lambda: method())[0] is TypeError
    # Nothing above wrote into the other objects.
    for other in others:
        assert other.digest() == type(other)().digest()


def test_hazmat_functions_take_fastblake_hashers_only():
    for wrong in WRONG_SELVES + [fastblake.blake2b(), fastblake.blake2s()]:
        assert failure(lambda: hazmat.set_input_offset(wrong, 1024))[0] is TypeError
        assert failure(lambda: hazmat.finalize_non_root(wrong))[0] is TypeError
    h = fastblake.blake3()
    assert hazmat.set_input_offset(h, 1024) is h


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)
def test_an_object_made_by_new_alone_is_whole(cls):
    data = b"x" * 5000
    made = cls.__new__(cls)
    made.update(data)
    assert made.digest() == cls(data).digest()
    assert made.copy().hexdigest() == cls(data).hexdigest()
    made = cls.__new__(cls, data)
    assert made.digest() == cls(data).digest()
    # __init__ is object's: calling it again changes nothing (as in both references).
    made.__init__()
    assert made.digest() == cls(data).digest()


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)
def test_an_object_is_usable_after_an_error(cls):
    h = cls(b"abc")
    before = h.digest()
    refused = ["text", 5, None, memoryview(b"abcdef")[::2]]
    if cls is fastblake.blake3:
        refused.append(array.array("I", [1, 2]))  # wider elements: hashlib's classes take them
    for bad in refused:
        assert failure(lambda: h.update(bad))[0] in (TypeError, BufferError)
        assert h.digest() == before
    h.update(b"def")
    assert h.digest() == cls(b"abcdef").digest()


def test_a_hasher_is_usable_after_a_failed_file():
    h = fastblake.blake3(b"abc")
    for path in ["/no/such/file", "/", "abc\0def"]:
        assert failure(lambda: h.update_mmap(path))[0] is not None
    assert h.digest() == theirs(b"abc").digest()


# -- paths ----------------------------------------------------------------------------------

def test_a_nul_in_a_path_is_a_value_error_as_open_makes_it(tmp_path):
    (tmp_path / "abc").write_bytes(b"the file before the NUL")
    os.chdir(tmp_path)
    for path in ["abc\0junk", b"abc\0junk", str(tmp_path / "abc") + "\0"]:
        assert failure(lambda: open(path, "rb"))[0] is ValueError
        assert failure(lambda: fastblake.hash_file(path))[0] is ValueError
        for strategy in ["read", "mmap", "mmap_parallel"]:
            assert failure(lambda: fastblake.hash_file(path, strategy=strategy))[0] is ValueError
    for path in ["abc\0junk", str(tmp_path / "abc") + "\0"]:
        assert failure(lambda: fastblake.blake3().update_mmap(path))[0] is ValueError

    class PathLike:
        def __fspath__(self):
            return "abc\0junk"
    assert failure(lambda: fastblake.hash_file(PathLike()))[0] is ValueError
    assert failure(lambda: fastblake.blake3().update_mmap(PathLike()))[0] is ValueError


# -- threads --------------------------------------------------------------------------------

def test_threads_stay_bounded_whatever_max_threads_callers_pass(tmp_path):
    # In a process of its own, with a pool default of 64: every max_threads from 2 to 63.
    script = tmp_path / "threads.py"
    script.write_text(
        "import os, sys, fastblake, blake3\n"
        "data = bytes(range(256)) * 8192\n"
        "want = blake3.blake3(data).digest()\n"
        "path = sys.argv[1]\n"
        "open(path, 'wb').write(data)\n"
        "for n in list(range(2, 64)) * 2:\n"
        "    assert fastblake.blake3(data, max_threads=n).digest() == want\n"
        "    assert fastblake.blake3(max_threads=n).update_mmap(path).digest() == want\n"
        "print(len(os.listdir('/proc/self/task')))\n")
    env = dict(os.environ, FASTBLAKE_THREADS="64")
    out = subprocess.run([sys.executable, str(script), str(tmp_path / "data")], env=env,
                         capture_output=True, text=True, check=True).stdout
    # The default pool's 63 workers at most, the kept pools' 64, and the main thread.
    assert int(out) <= 64 + 63 + 1, out


# -- the API as a Python user sees it -------------------------------------------------------

def test_signatures_match_the_references():
    pairs = [(fastblake.blake3, theirs), (fastblake.blake2b, hashlib.blake2b),
             (fastblake.blake2s, hashlib.blake2s)]
    for ours, reference in pairs:
        # Some Pythons cannot read some references' class signatures (blake3-py's before 3.10);
        # ours reads everywhere.
        kind, _ = failure(lambda: inspect.signature(reference))
        if kind is None:
            assert str(inspect.signature(ours)) == str(inspect.signature(reference)).replace(
                "_blake2.blake2b.MAX_DIGEST_SIZE", "64").replace(
                "_blake2.blake2s.MAX_DIGEST_SIZE", "32")
        assert inspect.signature(ours).parameters
        for name, *_ in method_calls(ours):
            assert inspect.signature(getattr(ours, name)) == \
                inspect.signature(getattr(reference, name)), (ours, name)
            assert inspect.signature(getattr(ours(), name)) == \
                inspect.signature(getattr(reference(), name)), (ours, name)
    for function in [fastblake.hash_many, fastblake.hash_file, fastblake.backend,
                     fastblake.available_backends, fastblake.use_backend,
                     fastblake.variant, fastblake.available_variants, fastblake.use_variant,
                     fastblake.variant_choice, fastblake.bao.encode, fastblake.bao.decode,
                     fastblake.bao.decode_outboard, fastblake.bao.extract_slice,
                     fastblake.bao.extract_slice_outboard, fastblake.bao.decode_slice,
                     fastblake.bao.encoded_size,
                     hazmat.set_input_offset, hazmat.finalize_non_root,
                     hazmat.merge_subtrees_non_root, hazmat.merge_subtrees_root,
                     hazmat.left_subtree_len, hazmat.max_subtree_len] + BLAKE2_CLASSES[2:]:
        parameters = inspect.signature(function).parameters
        assert not any(p.startswith("arg") for p in parameters), function


def test_argument_errors_have_the_references_wording():
    calls = [
        lambda m: m(foo=1), lambda m: m(b"", b""), lambda m: m(data=b""),
        lambda m: m().update(), lambda m: m().update(data=b""), lambda m: m().update(b"", b""),
        lambda m: m().digest(foo=1), lambda m: m().digest(1, 2), lambda m: m().digest(1, seek=2, length=3),
        lambda m: m().copy(1), lambda m: m().reset(x=1), lambda m: m().hexdigest(1, 2, 3),
        lambda m: m().update_mmap(), lambda m: m().update_mmap(path=__file__, other=1),
        lambda m: m().update_mmap(__file__, __file__),
    ]
    for i, call in enumerate(calls):
        assert failure(lambda: call(fastblake.blake3)) == failure(lambda: call(theirs)), i
    calls = [
        lambda m: m(foo=1), lambda m: m(b"", b""), lambda m: m(data=b""),
        lambda m: m().update(), lambda m: m().update(data=b""), lambda m: m().update(b"", b""),
        lambda m: m().digest(1), lambda m: m().digest(x=1), lambda m: m().copy(1),
        lambda m: m().hexdigest(x=1),
    ]
    for ours, reference in [(fastblake.blake2b, hashlib.blake2b),
                            (fastblake.blake2s, hashlib.blake2s)]:
        for i, call in enumerate(calls):
            assert failure(lambda: call(ours)) == failure(lambda: call(reference)), i


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)
def test_classes_are_final_as_the_references_are(cls):
    for reference in [theirs, hashlib.blake2b]:
        assert failure(lambda: type("Sub", (reference,), {}))[0] is TypeError
    assert failure(lambda: type("Sub", (cls,), {}))[0] is TypeError


@pytest.mark.skipif(sys.version_info < (3, 10), reason="CPython's immutable types are 3.10+")
@pytest.mark.parametrize("cls", BLAKE2_CLASSES, ids=lambda c: c.__name__)
def test_blake2_classes_are_immutable_as_hashlibs_are(cls):
    assert failure(lambda: setattr(hashlib.blake2b, "digest", None))[0] is TypeError
    assert failure(lambda: setattr(cls, "digest", None))[0] is TypeError
    assert failure(lambda: setattr(cls, "block_size", 1))[0] is TypeError
    assert cls(b"x").digest() == cls(b"x").digest()


def test_the_blake3_class_is_mutable_as_blake3_pys_is():
    # Code written for blake3-py may patch it (mocks, instrumentation), so fastblake's allows it.
    setattr(theirs, "fastblake_test", 1)
    setattr(fastblake.blake3, "fastblake_test", 1)
    try:
        assert fastblake.blake3.fastblake_test == 1
    finally:
        delattr(theirs, "fastblake_test")
        delattr(fastblake.blake3, "fastblake_test")


def test_random_objects_as_arguments_never_crash(rng):
    # Every argument of every function, in turn, given values of every kind.
    values = [None, 0, -1, 2**64, 2**200, 1.5, "text", "abc\0", b"", b"x" * 33, bytearray(32),
              memoryview(b"x" * 32), [b"x"], (b"x",), {}, object(), fastblake.blake3(),
              hashlib.blake2b(), True, array.array("I", [1]), random_bytes(rng, 32)]
    calls = [
        lambda v: fastblake.blake3(v), lambda v: fastblake.blake3(key=v),
        lambda v: fastblake.blake3(derive_key_context=v), lambda v: fastblake.blake3(max_threads=v),
        lambda v: fastblake.blake3(usedforsecurity=v), lambda v: fastblake.blake3().digest(v),
        lambda v: fastblake.blake3().digest(seek=v), lambda v: fastblake.blake3().hexdigest(v),
        lambda v: fastblake.blake3().update_mmap(v), lambda v: fastblake.hash_many(v),
        lambda v: fastblake.hash_many([v]), lambda v: fastblake.hash_many([b"x"], key=v),
        lambda v: fastblake.hash_file(v), lambda v: fastblake.hash_file(__file__, strategy=v),
        lambda v: fastblake.hash_file(__file__, length=v),
        lambda v: fastblake.hash_file(__file__, progress=v),
        lambda v: fastblake.use_backend(v),
        lambda v: hazmat.set_input_offset(fastblake.blake3(), v),
        lambda v: hazmat.left_subtree_len(v), lambda v: hazmat.max_subtree_len(v),
        lambda v: hazmat.merge_subtrees_root(v, b"x" * 32),
        lambda v: hazmat.merge_subtrees_non_root(b"x" * 32, v),
        lambda v: hazmat.merge_subtrees_root(b"x" * 32, b"y" * 32, length=v),
    ]
    for cls in BLAKE2_CLASSES:
        for name in ["digest_size", "key", "salt", "person"]:
            calls.append(lambda v, cls=cls, name=name: cls(**{name: v}))
        calls.append(lambda v, cls=cls: cls(v))
        calls.append(lambda v, cls=cls: cls().update(v))
    for name in ["fanout", "depth", "leaf_size", "node_offset", "node_depth", "inner_size",
                 "last_node"]:
        calls.append(lambda v, name=name: fastblake.blake2b(**{name: v}))
        calls.append(lambda v, name=name: fastblake.blake2s(**{name: v}))
    for call in calls:
        for value in values:
            kind, _ = failure(lambda: call(value))
            assert kind is None or issubclass(kind, (TypeError, ValueError, OverflowError,
                                                     BufferError, OSError)), (call, value, kind)
