#!/usr/bin/env python3
"""The tools under an address-space limit (RLIMIT_AS, `ulimit -v`, as batch schedulers and
containers set it), from the lowest limit at which each program starts, upward: --version,
hashing a 50 MB file (mapped where it can be, else read), checking, and bao's encode and decode.
A mapping or a thread that cannot be had falls back to reading or to fewer threads; memory that
cannot be had ends in the tool's message and status 1. Never a signal (an abort), never a
message-less failure, never a wrong digest; and at 32 MB, where the official b3sum 1.8.6 hashes
the file, every tool does.

Usage: address_space_test.py B3SUM B2SUM BAO
(A sanitized build reserves terabytes of address space: the test then says so and passes.)
"""
import os
import resource
import subprocess
import sys
import tempfile

B3SUM, B2SUM, BAO = (os.path.abspath(p) for p in sys.argv[1:4])
KIB = 1024
failures = []


def sanitized(tool):
    with open(tool, "rb") as f:
        return any(name in f.read() for name in (b"__asan_init", b"__tsan_init"))


def run(args, cwd, limit=None):
    def limited():
        if limit is not None:
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    p = subprocess.run(args, capture_output=True, cwd=cwd, timeout=120, preexec_fn=limited)
    return p.returncode, p.stdout, p.stderr


def loaded(result):
    """Whether the program got to main() (the loader mapped its libraries and its thread's
    storage), from its outcome."""
    status, _, err = result
    return not (status == 127 or b"error while loading shared libraries" in err
                or b"cannot allocate TLS" in err)


def starts(tool, cwd, limit):
    return loaded(run([tool, "--version"], cwd, limit))


def lowest_start(tool, cwd):
    lo, hi = 1 << 20, 64 << 20
    while hi - lo > 64 * KIB:
        mid = (lo + hi) // 2
        if starts(tool, cwd, mid):
            hi = mid
        else:
            lo = mid
    return hi


def main():
    if any(sanitized(t) for t in (B3SUM, B2SUM, BAO)):
        print("a sanitized build: its runtime needs terabytes of address space; skipped")
        return 0
    with tempfile.TemporaryDirectory() as work:
        big = os.path.join(work, "big")
        with open(big, "wb") as f:
            f.write(os.urandom(50_000_000))
        with open(os.path.join(work, "small"), "wb") as f:
            f.write(os.urandom(300_000))
        commands = {
            B3SUM: [["--version"], ["big"], ["--num-threads", "4", "big"], ["--no-mmap", "big"],
                    ["-c", "b3.sums"]],
            B2SUM: [["--version"], ["big"], ["-c", "b2.sums"]],
            BAO: [["--version"], ["hash", "big"], ["encode", "small", "small.bao"],
                  ["decode", "HASH", "encoded.bao"]],
        }
        with open(os.path.join(work, "b3.sums"), "wb") as f:
            f.write(run([B3SUM, "big", "small"], work)[1])
        with open(os.path.join(work, "b2.sums"), "wb") as f:
            f.write(run([B2SUM, "big", "small"], work)[1])
        run([BAO, "encode", "small", "encoded.bao"], work)
        small_hash = run([BAO, "hash", "small"], work)[1].decode().strip()
        for tool, cases in commands.items():
            cases = [[small_hash if a == "HASH" else a for a in args] for args in cases]
            unlimited = {tuple(args): run([tool] + args, work) for args in cases}
            start = lowest_start(tool, work)
            limits = sorted({start + i * 256 * KIB for i in range(32)} |
                            {n << 20 for n in (12, 16, 24, 32, 48, 64)})
            for limit in limits:
                for args in cases:
                    name = f"{os.path.basename(tool)} {' '.join(args)} under {limit // KIB} KiB"
                    status, out, err = run([tool] + args, work, limit)
                    want = unlimited[tuple(args)]
                    if limit < 32 << 20 and not loaded((status, out, err)):
                        continue  # (at the edge, the loader's needs vary a little)
                    if status == 0:
                        if (out, err) != want[1:]:
                            failures.append(f"{name}: status 0 with {out[:200]!r} {err[:200]!r}")
                    elif status == 1:
                        # (bao hash reports a file's error on standard output, as the Rust tool.)
                        if not (err or (tool == BAO and out.startswith(b"bao: "))):
                            failures.append(f"{name}: status 1 without a message")
                    else:
                        failures.append(f"{name}: status {status}: {err[-300:]!r}")
                    if limit >= 32 << 20 and status != 0:
                        failures.append(f"{name}: fails at 32 MB and up: {err[-200:]!r}")
            print(f"{os.path.basename(tool)}: starts from {start // KIB} KiB; "
                  f"{len(limits)} limits x {len(cases)} commands")
    for f in failures:
        print(f)
    print(f"{len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
