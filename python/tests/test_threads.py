"""Every object of the module shared by several threads: hashers, the subtree API on a shared
hasher, bao's Decoder, SliceDecoder, Reader and Encoder. Each call is serialized by the
object's lock (the GIL alone does not serialize them: a file object's methods and large inputs
release it, and a free-threaded CPython has none), so no call crashes, none sees another's
half-done state, and no valid encoding is reported corrupt. The same suite runs under ASan
and TSan (tests/CMakeLists.txt)."""
import hashlib
import io
import os
import threading

import blake3 as reference_module
import pytest

import fastblake
from fastblake import bao
from fastblake import blake3_hazmat
from conftest import random_bytes

THREADS = 4
# Under ThreadSanitizer (python/tests/in_tree.sh says so) every byte the module hashes is
# instrumented, and the decoders' random reads took 40 of the suite's 48 s: there, fewer and
# shorter reads by the same threads on the same objects.
UNDER_TSAN = os.environ.get("FASTBLAKE_TEST_SANITIZER") == "thread"
RANDOM_READS, LONGEST_READ, EXACT_READS = (10, 100_000, 5) if UNDER_TSAN else (40, 300_000, 20)


def run_together(*targets):
    """Runs each target on its own thread, all released at once; re-raises the first error."""
    start = threading.Barrier(len(targets))
    errors = []

    def body(target):
        try:
            start.wait()
            target()
        except BaseException as e:  # noqa: BLE001 - every failure is the test's
            errors.append(e)

    threads = [threading.Thread(target=body, args=(t,)) for t in targets]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise errors[0]


# Parts small (the GIL kept), large (released) and past blake3's threads (max_threads=AUTO).
PART_SIZES = (100, 5000, 300_000)


@pytest.mark.parametrize("part_size", PART_SIZES)
def test_a_blake3_hasher_updated_by_several_threads_loses_no_update(rng, part_size):
    part = random_bytes(rng, part_size)
    times = 6 if part_size > 10_000 else 40
    for max_threads in (1, fastblake.blake3.AUTO):
        h = fastblake.blake3(max_threads=max_threads)
        # The same part from every thread: any order of whole updates gives one hash, and a
        # torn or lost one another.
        run_together(*[lambda: [h.update(part) for _ in range(times)]] * THREADS)
        assert h.digest() == reference_module.blake3(part * (THREADS * times)).digest()


def test_blake3_digests_copies_and_resets_beside_updates_see_whole_updates(rng):
    part = random_bytes(rng, 3000)
    times = 30
    # A digest taken between updates is that of some number of whole parts.
    possible = {reference_module.blake3(part * n).digest() for n in range(2 * times + 1)}
    h = fastblake.blake3()
    seen = []

    def look():
        for _ in range(times):
            seen.append(h.digest())
            seen.append(h.copy().digest())
            seen.append(bytes.fromhex(h.hexdigest(length=32)))
            h.digest(length=40, seek=7)

    run_together(*[lambda: [h.update(part) for _ in range(times)]] * 2, look, look)
    assert set(seen) <= possible
    assert h.digest() == reference_module.blake3(part * (2 * times)).digest()
    run_together(lambda: [h.reset() for _ in range(50)], lambda: [h.update(part) for _ in range(50)])
    assert h.digest() in {reference_module.blake3(part * n).digest() for n in range(51)}


def test_a_blake3_hasher_fed_files_by_several_threads(tmp_path, rng):
    data = random_bytes(rng, 1 << 20)
    path = tmp_path / "f"
    path.write_bytes(data)
    h = fastblake.blake3(max_threads=fastblake.blake3.AUTO)
    run_together(*[lambda: [h.update_mmap(path) for _ in range(3)]] * 3)
    assert h.digest() == reference_module.blake3(data * 9).digest()


def test_the_subtree_api_on_a_shared_hasher(rng):
    part = random_bytes(rng, 1024)
    h = fastblake.blake3()
    blake3_hazmat.set_input_offset(h, 16384)
    run_together(*[lambda: [h.update(part) for _ in range(4)]] * 4)
    expected = fastblake.blake3()
    blake3_hazmat.set_input_offset(expected, 16384)
    expected.update(part * 16)
    cvs = []
    run_together(*[lambda: cvs.append(blake3_hazmat.finalize_non_root(h))] * 4)
    assert cvs == [blake3_hazmat.finalize_non_root(expected)] * 4


BLAKE2 = [("blake2b", hashlib.blake2b), ("blake2s", hashlib.blake2s),
          ("blake2bp", None), ("blake2sp", None)]


@pytest.mark.parametrize("name,reference", BLAKE2)
@pytest.mark.parametrize("part_size", PART_SIZES[:2])
def test_a_blake2_hasher_updated_by_several_threads_loses_no_update(rng, name, reference, part_size):
    part = random_bytes(rng, part_size)
    times = 30
    h = getattr(fastblake, name)()
    seen = []
    run_together(*[lambda: [h.update(part) for _ in range(times)]] * THREADS,
                 lambda: [seen.append(h.copy().digest()) for _ in range(times)])
    whole = part * (THREADS * times)
    one_thread = getattr(fastblake, name)(whole)
    assert h.digest() == one_thread.digest()
    if reference is not None:
        assert h.digest() == reference(whole).digest()
        possible = {reference(part * n).digest() for n in range(THREADS * times + 1)}
        assert set(seen) <= possible


def test_blake2x_shared_by_threads(rng):
    part = random_bytes(rng, 4000)
    for name in ("blake2xb", "blake2xs"):
        h = getattr(fastblake, name)(digest_size=100)
        run_together(*[lambda: [h.update(part) for _ in range(20)]] * THREADS)
        assert h.digest() == getattr(fastblake, name)(part * (THREADS * 20), digest_size=100).digest()


@pytest.fixture(scope="module")
def encoded_file(tmp_path_factory):
    """An 8 MiB input, its combined encoding and outboard in real files, and its hash."""
    data = os.urandom(8 << 20)
    encoding, h = bao.encode(data)
    outboard, _ = bao.encode_outboard(data)
    directory = tmp_path_factory.mktemp("bao-threads")
    paths = {}
    for name, content in (("data", data), ("encoding", encoding), ("outboard", outboard)):
        paths[name] = directory / name
        paths[name].write_bytes(content)
    return data, h, paths


def readers_of(data, h, paths, threads):
    """Decoders over every kind of source: buffers, real files, Python file objects."""
    encoding = paths["encoding"].read_bytes()
    outboard = paths["outboard"].read_bytes()
    files = []

    def opened(name):
        f = open(paths[name], "rb")  # noqa: SIM115 - closed by the caller
        files.append(f)
        return f

    decoders = [
        ("buffer", bao.Decoder(h, encoding, threads=threads)),
        ("file", bao.Decoder(h, opened("encoding"), threads=threads)),
        ("BytesIO", bao.Decoder(h, io.BytesIO(encoding), threads=threads)),
        ("outboard files", bao.Decoder(h, opened("outboard"), opened("data"), threads=threads)),
        ("outboard buffers", bao.Decoder(h, outboard, data, threads=threads)),
    ]
    return decoders, files


@pytest.mark.parametrize("threads", [False, True])
def test_a_decoder_read_by_several_threads_never_crashes_nor_reports_corruption(
        encoded_file, rng, threads):
    data, h, paths = encoded_file
    decoders, files = readers_of(data, h, paths, threads)
    try:
        for name, decoder in decoders:
            seeds = [rng.randrange(2**32) for _ in range(3)]

            def reader(seed, decoder=decoder):
                r = __import__("random").Random(seed)
                for _ in range(RANDOM_READS):
                    decoder.seek(r.randrange(len(data)))
                    got = decoder.read(r.randrange(1000, LONGEST_READ))
                    # Another thread may have moved the position between this thread's seek
                    # and read (to the end, too): the bytes are the data's from some position.
                    assert data.find(got) >= 0, name

            run_together(*[lambda s=s: reader(s) for s in seeds])
            # Each call alone is whole: a seek and read under a lock of the test's own give
            # exactly the bytes asked for.
            lock = threading.Lock()

            def exact(seed, decoder=decoder):
                r = __import__("random").Random(seed)
                for _ in range(EXACT_READS):
                    at, n = r.randrange(len(data)), r.randrange(1, 100_000)
                    with lock:
                        decoder.seek(at)
                        got = decoder.read(n)
                    assert got == data[at:at + n], name

            run_together(*[lambda s=s: exact(s) for s in seeds])
            assert decoder.seek(0, io.SEEK_END) == len(data)
    finally:
        for f in files:
            f.close()


def test_a_slice_decoder_read_by_several_threads(encoded_file):
    data, h, paths = encoded_file
    start, count = 1_000_000, 3_000_000
    slice_bytes = bao.extract_slice(paths["encoding"].read_bytes(), start, count)
    for source in (slice_bytes, io.BytesIO(slice_bytes)):
        decoder = bao.SliceDecoder(h, source, start, count)
        pieces = []
        lock = threading.Lock()

        def take():
            while True:
                # The slice decoder reads its slice once, in order: each read is whole, and
                # together they are the range, whichever thread got which.
                with lock:
                    at = decoder.tell()
                    got = decoder.read(65536)
                if not got:
                    return
                pieces.append((at, got))

        run_together(take, take, take)
        assert b"".join(p for _, p in sorted(pieces)) == data[start:start + count]
        # Without the test's lock too: no crash, no false error.
        decoder = bao.SliceDecoder(h, source if isinstance(source, bytes) else io.BytesIO(slice_bytes),
                                   start, count)
        total = []
        run_together(*[lambda: total.append(len(decoder.read(50_000)))] * 6)
        assert sum(total) == 6 * 50_000


@pytest.mark.parametrize("output_kind", ["path", "descriptor", "BytesIO"])
def test_an_encoder_fed_by_several_threads_encodes_every_part(tmp_path, rng, output_kind):
    part = random_bytes(rng, 70_000)
    times = 10
    path = tmp_path / "encoding"
    descriptor = None
    if output_kind == "path":
        output = path
    elif output_kind == "descriptor":
        descriptor = os.open(path, os.O_RDWR | os.O_CREAT | os.O_TRUNC, 0o644)
        output = descriptor
    else:
        output = io.BytesIO()
    try:
        encoder = bao.Encoder(output)
        counts = []
        run_together(*[lambda: [encoder.update(part) for _ in range(times)]] * THREADS,
                     lambda: [counts.append(encoder.count()) for _ in range(50)])
        assert all(c % len(part) == 0 for c in counts)
        whole = part * (THREADS * times)
        h = encoder.finalize()
        assert h == reference_module.blake3(whole).digest()
        encoding = output.getvalue() if output_kind == "BytesIO" else path.read_bytes()
        assert encoding == bao.encode(whole)[0]
        # Finalized, every thread's update is refused, none crashes.
        errors = []

        def late():
            try:
                encoder.update(part)
            except ValueError as e:
                errors.append(e)

        run_together(late, late, late)
        assert len(errors) == 3
    finally:
        if descriptor is not None:
            os.close(descriptor)


def test_the_reader_class_shared_by_threads(encoded_file):
    data, h, paths = encoded_file
    with open(paths["encoding"], "rb") as f:
        reader = bao._bao.Reader(h, f, None)
        lengths = []
        run_together(*[lambda: lengths.append(reader.length())] * 4)
        assert lengths == [len(data)] * 4

        def read_some():
            buffer = bytearray(100_000)
            for i in range(20):
                reader.seek(i * 300_000)
                n = reader.readinto(buffer)
                assert n == len(buffer) and data.find(bytes(buffer)) >= 0
                assert 0 <= reader.tell() <= len(data)

        run_together(read_some, read_some, read_some)
