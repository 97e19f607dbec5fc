"""Shared by the Python tests: the repository's paths and a seeded random source (the seed is
printed, and FASTBLAKE_TEST_SEED replays it)."""
import os
import pathlib
import random

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
VECTORS = REPO / "tests" / "vectors"


def _seed():
    value = os.environ.get("FASTBLAKE_TEST_SEED")
    return int(value) if value else random.SystemRandom().randrange(2**32)


SEED = _seed()


def pytest_report_header(config):
    return f"fastblake python tests: seed {SEED} (FASTBLAKE_TEST_SEED={SEED} replays it)"


@pytest.fixture
def rng(request):
    return random.Random(f"{SEED}-{request.node.name}")


def random_bytes(rng, n):
    return rng.getrandbits(8 * n).to_bytes(n, "little") if n else b""


def interesting_lengths(rng, most=20000):
    """Lengths around block, chunk and subtree boundaries, and random ones."""
    lengths = {0, 1, 63, 64, 65, 127, 128, 129, 1023, 1024, 1025, 2047, 2048, 2049, 4095, 4096,
               4097, 8191, 8192, 8193, 16384, 16385}
    lengths |= {rng.randrange(most) for _ in range(20)}
    return sorted(n for n in lengths if n <= most)


def outcome(call):
    """(result, None) or (None, exception type) of call(), for comparing two implementations."""
    try:
        return call(), None
    except Exception as e:  # noqa: BLE001 - every exception type is compared
        return None, type(e)


def failure(call):
    """(exception type, message) that call() raises, or (None, None)."""
    try:
        call()
    except Exception as e:  # noqa: BLE001
        return type(e), str(e)
    return None, None
