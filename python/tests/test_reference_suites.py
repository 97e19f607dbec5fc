"""The references' own test suites, run against fastblake: blake3-py's tests/test_blake3.py
(from the sdist of the installed blake3 package, on PyPI) through a `blake3` package that is
fastblake, and the BLAKE2 tests of CPython's test_hashlib with hashlib's classes replaced by
fastblake's. Where the suites cannot be had (no PyPI, no `test` package: Debian's
libpython3-testsuite), the tests skip, unless FASTBLAKE_REQUIRE_REFERENCE_SUITES is set (CI)."""
import hashlib
import importlib.metadata
import io
import os
import re
import subprocess
import sys
import tarfile
import textwrap
import urllib.request

import pytest

from conftest import VECTORS

REQUIRED = bool(os.environ.get("FASTBLAKE_REQUIRE_REFERENCE_SUITES"))


def unavailable(reason):
    if REQUIRED:
        pytest.fail(f"{reason} (FASTBLAKE_REQUIRE_REFERENCE_SUITES is set)")
    pytest.skip(reason)


def blake3_py_tests(into):
    """blake3-py's tests/ directory from the sdist of the installed version, checked against
    the index's sha256."""
    version = importlib.metadata.version("blake3")
    index = os.environ.get("PIP_INDEX_URL", "https://pypi.org/simple").rstrip("/")
    try:
        page = urllib.request.urlopen(f"{index}/blake3/", timeout=60).read().decode()
        link = re.search(rf'href="([^"]*/blake3-{re.escape(version)}\.tar\.gz)#sha256=([0-9a-f]+)"',
                         page)
        if link is None:
            unavailable(f"no sdist of blake3 {version} on {index}")
        data = urllib.request.urlopen(link.group(1), timeout=120).read()
    except OSError as e:
        unavailable(f"cannot fetch blake3-py's sources: {e}")
    assert hashlib.sha256(data).hexdigest() == link.group(2)
    with tarfile.open(fileobj=io.BytesIO(data)) as sdist:
        members = [m for m in sdist.getmembers() if f"blake3-{version}/tests/" in m.name]
        # The "data" filter (refusing links out and odd modes) where the tarfile module has it:
        # 3.12, and the security releases of 3.9 to 3.11.
        safe = {"filter": "data"} if hasattr(tarfile, "data_filter") else {}
        sdist.extractall(into, members=members, **safe)
    return into / f"blake3-{version}" / "tests"


def test_blake3_pys_own_suite_passes_on_fastblake(tmp_path):
    tests = blake3_py_tests(tmp_path)
    shim = tmp_path / "shim" / "blake3"
    shim.mkdir(parents=True)
    # The one-line migration, as a package named blake3.
    (shim / "__init__.py").write_text("from fastblake import blake3, __version__, AUTO\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(shim.parent)] + sys.path))
    out = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                          str(tests / "test_blake3.py")], cwd=tmp_path, env=env,
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
    # The shim, not the installed blake3, is what ran.
    probe = subprocess.run([sys.executable, "-c", "import blake3; print(blake3.blake3.__module__)"],
                           env=env, capture_output=True, text=True, check=True)
    assert probe.stdout.strip() == "fastblake"
    passed = int(re.search(r"(\d+) passed", out.stdout).group(1))
    assert passed >= 27 and "failed" not in out.stdout and "skipped" not in out.stdout, out.stdout


# test_hashlib fetches its BLAKE2 vectors from pythontest.net into test/data; they are the
# official known answers, which tests/vectors/blake2_kat.txt holds too: written in its format
# into a folder of our own, which the test package is pointed at.
RUN_TEST_HASHLIB = textwrap.dedent("""
    import hashlib, sys, unittest
    import _blake2
    import fastblake
    for name in ("blake2b", "blake2s"):
        setattr(hashlib, name, getattr(fastblake, name))
        setattr(_blake2, name, getattr(fastblake, name))
    from test import support, test_hashlib
    support.TEST_DATA_DIR = sys.argv[1]
    loader = unittest.TestLoader()
    loader.testNamePatterns = ["*blake2*"]
    result = unittest.TextTestRunner(verbosity=2).run(loader.loadTestsFromModule(test_hashlib))
    assert test_hashlib.hashlib.blake2b is fastblake.blake2b
    print("RAN", result.testsRun, "SKIPPED", len(result.skipped))
    sys.exit(0 if result.wasSuccessful() else 1)
""")


def test_cpython_test_hashlib_blake2_passes_on_fastblakes_classes(tmp_path):
    try:
        import test.test_hashlib  # noqa: F401
    except ImportError:
        unavailable("CPython's test package is not installed (Debian: libpython3-testsuite)")
    for algorithm in ("b", "s"):
        key = bytes(range(64 if algorithm == "b" else 32)).hex()
        lines = []
        for line in (VECTORS / "blake2_kat.txt").read_text().splitlines():
            fields = line.split()
            if len(fields) == 4 and fields[0] == algorithm:
                message = bytes(i % 256 for i in range(int(fields[2]))).hex()
                lines.append(f"{message},{key if fields[1] == '1' else ''},{fields[3]}")
        assert len(lines) == 512
        (tmp_path / f"blake2{algorithm}.txt").write_text("\n".join(lines) + "\n")
    out = subprocess.run([sys.executable, "-c", RUN_TEST_HASHLIB, str(tmp_path)],
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
    ran, skipped = map(int, re.search(r"RAN (\d+) SKIPPED (\d+)", out.stdout).groups())
    assert ran >= 12 and skipped == 0, out.stdout + out.stderr
