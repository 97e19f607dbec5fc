"""The installed module imports and hashes right, with nothing but the standard library: where
the test requirements cannot be installed (a musl CPython built from source, without zlib or
TLS for pip), scripts/wheels runs this instead of the pytest suite.

Usage: python check_installed.py VECTORS_DIR [EXPECTED_BACKEND | best]

Checks on every backend this CPU runs: the official BLAKE3 vectors in all three modes, at every
length they hold, hashed whole, fed in pieces and on threads; BLAKE2b and BLAKE2s with every
parameter against hashlib's. And, where given, the backend chosen at run time (best: the best
of those the build can run on this CPU, and not the portable one, as a build without its SIMD
kernels would choose). Prints the module's path and backends; exits 1 naming each mismatch.
"""
import hashlib
import pathlib
import sys

import fastblake

VECTOR_KEY = b"whats the Elvish word for friend"
VECTOR_CONTEXT = "BLAKE3 2019-12-27 16:29:52 test vectors context"

failures = []


def check(what, got, want):
    if got != want:
        failures.append(f"{what}: {got!r} != {want!r}")


def check_blake3(vectors_dir):
    count = 0
    for line in (vectors_dir / "blake3_vectors.txt").read_text().splitlines():
        if not line or line.startswith("#"):
            continue
        length, *outputs = line.split()
        data = bytes(i % 251 for i in range(int(length)))
        modes = [("hash", {}), ("keyed", {"key": VECTOR_KEY}),
                 ("derive", {"derive_key_context": VECTOR_CONTEXT})]
        for (mode, arguments), want in zip(modes, outputs):
            check(f"blake3 {mode} {length}", fastblake.blake3(data, **arguments).hexdigest(
                len(want) // 2), want)
            pieces = fastblake.blake3(**arguments)
            for start in range(0, len(data), 1000):
                pieces.update(data[start:start + 1000])
            check(f"blake3 {mode} {length} in pieces", pieces.hexdigest(), want[:64])
            threaded = fastblake.blake3(data, max_threads=fastblake.blake3.AUTO, **arguments)
            check(f"blake3 {mode} {length} on threads", threaded.hexdigest(), want[:64])
            count += 1
    check("blake3 vectors read", count > 30, True)


def check_blake2():
    data = bytes(range(256)) * 4099
    for name, sizes in (("blake2b", (1, 20, 32, 64)), ("blake2s", (1, 16, 32))):
        ours, theirs = getattr(fastblake, name), getattr(hashlib, name)
        for size in sizes:
            for length in (0, 1, 63, 64, 65, 127, 128, 129, 1000, len(data)):
                arguments = {"digest_size": size, "key": b"k" * (size % 17), "salt": b"s" * 4,
                             "person": b"p" * 5}
                check(f"{name} {size} {length}", ours(data[:length], **arguments).hexdigest(),
                      theirs(data[:length], **arguments).hexdigest())


def main():
    vectors_dir = pathlib.Path(sys.argv[1])
    expected_backend = sys.argv[2] if len(sys.argv) > 2 else None
    backend = fastblake.backend()
    backends = fastblake.available_backends()
    print(f"{fastblake.__file__}: backend {backend} (of {', '.join(backends)})")
    for each in backends:
        check(f"use_backend({each})", fastblake.use_backend(each), True)
        before = len(failures)
        check_blake3(vectors_dir)
        check_blake2()
        failures[before:] = [f"{each}: {failure}" for failure in failures[before:]]
    fastblake.use_backend(backend)
    if expected_backend == "best":
        check("backend", backend, fastblake.available_backends()[0])
        check("a SIMD backend", backend != "portable", True)
    elif expected_backend is not None:
        check("backend", backend, expected_backend)
    for failure in failures:
        print(failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
