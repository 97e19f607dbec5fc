"""What other processes and threads do to a hash: files that shrink while they are hashed, by
every strategy, and children forked (os.fork, multiprocessing's "fork" start method) while
other threads hash. A child must never hang, and a digest is only ever one of bytes the file
really held."""
import multiprocessing
import os
import signal
import threading
import time
import warnings

import blake3 as reference_module
import pytest

import fastblake
from conftest import random_bytes

theirs = reference_module.blake3
STRATEGIES = ["auto", "read", "mmap", "mmap_parallel"]
PAGE = os.sysconf("SC_PAGESIZE")


# -- Files that shrink ----------------------------------------------------------------------

@pytest.fixture(scope="module")
def big_data():
    # The first progress report comes after 64 MiB; the last page is part-filled.
    return os.urandom((72 << 20) + PAGE // 2 + 11)


@pytest.fixture
def big_file(big_data, tmp_path):
    path = tmp_path / "big"
    path.write_bytes(big_data)
    return path, big_data


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_a_file_that_shrinks_while_hashed_is_an_error_never_zeros(big_file, strategy):
    path, data = big_file
    fill = len(data) % PAGE
    for shrink in [1, 100, fill - 1, PAGE - 1, PAGE, PAGE + 1, 3 * PAGE + 5]:
        calls = []

        def shrink_once(done, total):
            if not calls:
                os.truncate(path, len(data) - shrink)
            calls.append(done)

        with pytest.raises(OSError) as raised:
            fastblake.hash_file(path, strategy=strategy, progress=shrink_once)
        assert "shrank" in str(raised.value) or raised.value.errno == 5, (shrink, raised.value)
        assert calls, "the file shrank at the first report"
        # Restored for the next case: only the tail changed.
        with open(path, "r+b") as f:
            f.seek(len(data) - shrink)
            f.write(data[-shrink:])
    assert fastblake.hash_file(path, strategy=strategy) == theirs(data).digest()


# -- fork() while threads hash --------------------------------------------------------------

# AddressSanitizer's allocator (GCC 12's, preloaded by the asan-ubsan build's run) is not
# fork-safe: a child forked while another thread held one of its locks hangs in its first
# allocation (tests/unit/fork_test.cpp). glibc's malloc, everywhere else, is.
forks_safely = pytest.mark.skipif("libasan" in os.environ.get("LD_PRELOAD", ""),
                                  reason="AddressSanitizer's allocator hangs forked children")


def _wait(pid, seconds=60):
    """The child's exit status, or None if it hung (then it is killed)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done == pid:
            return os.waitstatus_to_exitcode(status)
        time.sleep(0.002)
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    return None


def _fork_quietly():
    # Python 3.12 and later warn that fork() with threads running may deadlock the child:
    # exactly what is tested here.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return os.fork()


@forks_safely
def test_children_forked_while_threads_hash_neither_hang_nor_err(rng, tmp_path):
    data = random_bytes(rng, (6 << 20) + 3)
    want = theirs(data).digest()
    path = tmp_path / "file"
    path.write_bytes(data)
    shared = fastblake.blake3(max_threads=fastblake.blake3.AUTO)
    stop = threading.Event()
    wrong = []

    def busy(work):
        while not stop.is_set():
            if work() != want:
                wrong.append(work)

    def feed_shared():
        while not stop.is_set():
            shared.update(data)

    workers = [threading.Thread(target=busy, args=(w,)) for w in [
        lambda: fastblake.blake3(data, max_threads=fastblake.blake3.AUTO).digest(),
        lambda: fastblake.blake3(data, max_threads=3).digest(),
        lambda: fastblake.hash_file(path)]]
    workers.append(threading.Thread(target=feed_shared))
    for t in workers:
        t.start()
    statuses = []
    try:
        for i in range(24):
            time.sleep(rng.random() * 0.004)
            pid = _fork_quietly()
            if pid == 0:
                code = 3
                try:
                    ok = (fastblake.blake3(data, max_threads=fastblake.blake3.AUTO).digest() == want
                          and fastblake.blake3(data, max_threads=2).digest() == want
                          and fastblake.blake3(data, max_threads=3).digest() == want
                          and fastblake.hash_file(path) == want)
                    # A hasher another thread was updating when the process forked: either it
                    # was between updates (and works) or its state is unknown, which it says.
                    try:
                        shared.update(b"more")
                        shared.digest()
                    except RuntimeError as e:
                        ok = ok and "forked" in str(e)
                    code = 0 if ok else 1
                finally:
                    os._exit(code)
            statuses.append(_wait(pid))
    finally:
        stop.set()
        for t in workers:
            t.join()
    assert statuses.count(None) == 0, f"{statuses.count(None)} of {len(statuses)} children hung"
    assert statuses == [0] * len(statuses), statuses
    assert not wrong


def _hash_in_child(args):
    data, max_threads = args
    return fastblake.blake3(data, max_threads=max_threads).digest()


@forks_safely
def test_multiprocessing_fork_pools_while_threads_hash(rng):
    data = random_bytes(rng, 4 << 20)
    want = theirs(data).digest()
    stop = threading.Event()

    def busy():
        while not stop.is_set():
            fastblake.blake3(data, max_threads=fastblake.blake3.AUTO).digest()

    thread = threading.Thread(target=busy)
    thread.start()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            context = multiprocessing.get_context("fork")
            for _ in range(3):
                with context.Pool(2) as pool:
                    jobs = [(data, fastblake.blake3.AUTO), (data, 2), (data, 1)] * 2
                    assert pool.map_async(_hash_in_child, jobs).get(timeout=120) == [want] * 6
    finally:
        stop.set()
        thread.join()
