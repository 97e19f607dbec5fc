"""fastblake.blake3 against the blake3 package (blake3-py) itself: the same calls with the same
arguments give the same results and raise the same exception types, on random inputs, keys,
contexts, lengths, seeks, splits and thread settings; and the official test vectors."""
import array
import mmap
import os
import sys
import threading

import blake3 as reference_module
import pytest

import fastblake
from conftest import VECTORS, failure, interesting_lengths, outcome, random_bytes

ours = fastblake.blake3
theirs = reference_module.blake3

VECTOR_KEY = b"whats the Elvish word for friend"
VECTOR_CONTEXT = "BLAKE3 2019-12-27 16:29:52 test vectors context"


def vectors():
    for line in (VECTORS / "blake3_vectors.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            length, *outputs = line.split()
            yield int(length), [bytes.fromhex(o) for o in outputs]


def test_official_vectors_in_every_mode_and_at_every_seek():
    count = 0
    for length, (plain, keyed, derived) in vectors():
        data = bytes(i % 251 for i in range(length))
        for h, want in [(ours(data), plain), (ours(data, key=VECTOR_KEY), keyed),
                        (ours(data, derive_key_context=VECTOR_CONTEXT), derived)]:
            assert h.digest(len(want)) == want, length
            assert h.digest() == want[:32]
            assert h.hexdigest(len(want)) == want.hex()
            for seek in (1, 31, 64, 100):
                assert h.digest(len(want) - seek, seek=seek) == want[seek:]
        count += 1
    assert count == 35


def test_random_calls_match_the_blake3_package(rng):
    for _ in range(600):
        mode = rng.choice(["hash", "keyed", "derive"])
        kwargs = {}
        if mode == "keyed":
            kwargs["key"] = random_bytes(rng, 32)
        elif mode == "derive":
            kwargs["derive_key_context"] = rng.choice(["", "ctx", "fastblake test ☃ " * 3])
        kwargs["max_threads"] = rng.choice([1, 1, 2, 3, ours.AUTO])
        data = random_bytes(rng, rng.choice(interesting_lengths(rng, 300000)))
        a, b = ours(**kwargs), theirs(**kwargs)
        cut = sorted(rng.randint(0, len(data)) for _ in range(rng.randint(0, 3)))
        for start, end in zip([0] + cut, cut + [len(data)]):
            assert a.update(data[start:end]) is a
            b.update(data[start:end])
        length = rng.choice([0, 1, 31, 32, 33, 64, 65, 200, 1025])
        seek = rng.choice([0, 1, 63, 64, rng.randrange(2**20), rng.randrange(2**63)])
        assert a.digest(length, seek=seek) == b.digest(length, seek=seek), (kwargs, len(data))
        assert a.hexdigest(length, seek=seek) == b.hexdigest(length, seek=seek)
        fork, fork_b = a.copy(), b.copy()
        tail = random_bytes(rng, rng.randint(0, 3000))
        fork.update(tail)
        fork_b.update(tail)
        assert fork.digest() == fork_b.digest()
        assert a.digest() == b.digest(), "copy() forks: the original is untouched"
        a.reset()
        b.reset()
        assert a.digest() == b.digest() == theirs(b"", **kwargs).digest()


def test_seeks_near_two_to_the_sixty_four(rng):
    top = 2**64
    for seek, length in [(top - 1, 1), (top - 64, 64), (top - 65, 32), (top - 10, 10),
                         (top - 10, 11), (top - 1, 0), (top, 0), (top, 1), (top - 1, 2)]:
        got, want = outcome(lambda: ours(b"abc").digest(length, seek=seek)), \
            outcome(lambda: theirs(b"abc").digest(length, seek=seek))
        assert got == want, (seek, length)
    for _ in range(50):
        seek = top - rng.randint(1, 5000)
        length = rng.randint(0, top - seek)
        assert ours(b"x").digest(length, seek=seek) == theirs(b"x").digest(length, seek=seek)


def test_misuse_raises_what_the_blake3_package_raises():
    calls = [
        lambda m: m("text"),
        lambda m: m(5),
        lambda m: m(None),
        lambda m: m(memoryview(b"abcdef")[::2]),
        lambda m: m(data=b"x"),
        lambda m: m(b"x", b"y"),
        lambda m: m(key=b"k" * 31),
        lambda m: m(key=b"k" * 33),
        lambda m: m(key=b""),
        lambda m: m(key="k" * 32),
        lambda m: m(key=b"k" * 32, derive_key_context="c"),
        lambda m: m(derive_key_context=b"bytes context"),
        lambda m: m(derive_key_context=5),
        lambda m: m(max_threads=0),
        lambda m: m(max_threads=-2),
        lambda m: m(max_threads=2**64),
        lambda m: m(max_threads=1.5),
        lambda m: m(max_threads="2"),
        lambda m: m(no_such_argument=1),
        lambda m: m().update("text"),
        lambda m: m().update(None),
        lambda m: m().update(memoryview(b"abcdef")[::2]),
        lambda m: m().digest(-1),
        lambda m: m().digest(2**64),
        lambda m: m().digest(32, seek=-1),
        lambda m: m().digest(32, seek=2**64 + 1),
        lambda m: m().digest(1.5),
        lambda m: m().digest(32, 0),
        lambda m: m().hexdigest(-1),
        lambda m: m().update_mmap("/no/such/file/fastblake"),
        lambda m: m().update_mmap("/"),
        lambda m: m().update_mmap(5),
    ]
    for i, call in enumerate(calls):
        assert failure(lambda: call(ours))[0] is failure(lambda: call(theirs))[0], i


def test_attributes_match_the_blake3_package():
    for attr in ["name", "digest_size", "block_size", "key_size", "AUTO"]:
        assert getattr(ours, attr) == getattr(theirs, attr), attr
        assert getattr(ours(), attr) == getattr(theirs(), attr), attr
    assert fastblake.AUTO == ours.AUTO
    assert isinstance(fastblake.__version__, str)


def buffers():
    data = bytes(range(256)) * 40
    made = [data, bytearray(data), memoryview(data), memoryview(data)[5:700],
            array.array("B", data), array.array("I", data[:1024])]
    try:
        import numpy
        made += [numpy.frombuffer(data, dtype=numpy.uint8), numpy.arange(1000, dtype=numpy.int32),
                 numpy.arange(64, dtype=numpy.float64).reshape(8, 8)]
    except ImportError:
        pass
    return made


def test_every_buffer_type_matches_the_blake3_package(tmp_path):
    # Buffers of wider elements (array('I'), NumPy int32) are refused by both.
    for buf in buffers():
        assert outcome(lambda: ours(buf).digest()) == outcome(lambda: theirs(buf).digest()), \
            type(buf)
        assert outcome(lambda: ours().update(buf).digest()) == \
            outcome(lambda: theirs().update(buf).digest())
    assert ours(buffers()[1]).digest() == theirs(bytes(buffers()[1])).digest()
    path = tmp_path / "mapped"
    path.write_bytes(bytes(range(256)) * 100)
    with open(path, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as m:
        assert ours(m).digest() == theirs(m).digest()
    try:
        import numpy
        for bad in [numpy.arange(20)[::2], numpy.zeros((3, 4)).T]:
            assert failure(lambda: ours(bad))[0] is failure(lambda: theirs(bad))[0]
    except ImportError:
        pass


def buffers_of_every_layout():
    """Buffers of every element type and layout, contiguous or not, as memoryview, array and
    NumPy make them."""
    data = bytes(range(256)) * 8
    made = [array.array("H", data), memoryview(data).cast("H"), memoryview(data).cast("B", (32, 64)),
            memoryview(data)[::3], memoryview(data).cast("I")[::2], memoryview(data)[::-1]]
    try:
        import numpy
    except ImportError:
        return made
    for dtype in [numpy.uint8, numpy.int8, numpy.uint16, numpy.int32, numpy.float32,
                  numpy.float64, numpy.complex64, numpy.bool_]:
        a = numpy.arange(96).astype(dtype)
        square = a.reshape(8, 12)
        made += [a, a[::2], a[::-1], square.T, numpy.asfortranarray(square), square[:, 1:5],
                 a.view(numpy.uint8)[::2]]
    return made


def test_every_layout_gets_the_blake3_packages_digest_or_error_and_message():
    # The blake3 package checks the element type before the layout, and says which failed.
    for buf in buffers_of_every_layout():
        assert failure(lambda: ours(buf).digest()) == failure(lambda: theirs(buf).digest()), buf
        assert failure(lambda: ours().update(buf)) == failure(lambda: theirs().update(buf)), buf
        if failure(lambda: theirs(buf))[0] is None:
            assert ours(buf).digest() == theirs(buf).digest(), buf


@pytest.mark.parametrize("size", [0, 1, 4096, 1 << 20, (8 << 20) + 3])
@pytest.mark.parametrize("max_threads", [1, ours.AUTO])
def test_update_mmap_matches_the_blake3_package(tmp_path, rng, size, max_threads):
    path = tmp_path / "file"
    path.write_bytes(random_bytes(rng, size))
    for p in (path, str(path), os.fsencode(path)):
        assert outcome(lambda: ours(max_threads=max_threads).update_mmap(p).digest()) == \
            outcome(lambda: theirs(max_threads=max_threads).update_mmap(p).digest())
    assert ours().update_mmap(path).digest() == theirs(path.read_bytes()).digest()


def test_one_object_from_two_threads_stays_consistent():
    h = ours()
    chunk = bytes(range(256)) * 4096  # 1 MiB: hashed without the GIL
    def work():
        for _ in range(20):
            h.update(chunk)
    threads = [threading.Thread(target=work) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert h.digest() == theirs(chunk * 40).digest()


def test_no_reference_leaks_or_memory_growth():
    import gc
    import tracemalloc
    data = b"x" * 100
    key = b"k" * 32
    before = (sys.getrefcount(data), sys.getrefcount(key))
    for _ in range(20000):
        ours(data, key=key).update(data).digest()
        ours(data).hexdigest(40, seek=7)
    assert (sys.getrefcount(data), sys.getrefcount(key)) == before
    gc.collect()
    tracemalloc.start()
    for _ in range(1000):
        ours(data).digest()
    start = tracemalloc.take_snapshot()
    # A leak of even one byte a call would pass the bound below 100,000 calls.
    for _ in range(100000):
        ours(data).digest()
    growth = sum(s.size_diff for s in tracemalloc.take_snapshot().compare_to(start, "filename"))
    tracemalloc.stop()
    assert growth < 64 * 1024, growth
