#!/usr/bin/env python3
"""Both tools with allocation failure injected at every allocation in turn (an LD_PRELOAD
allocator, tools/tests/fail_alloc.c, that fails the Nth call), in each of their modes: every
run must end by itself with status 1 and a message on standard error, or (where the failed
allocation had a way around it, such as hashing on one thread when no worker can start) with
status 0 and the output of a run without failure; never a signal, never a hang.

Usage: allocation_test.py B3SUM B2SUM FAIL_ALLOC_LIBRARY
"""
import os
import signal
import subprocess
import sys
import tempfile

B3SUM, B2SUM, FAIL_ALLOC = (os.path.abspath(p) for p in sys.argv[1:4])
# A sanitizer's runtime owns malloc: there, nothing to interpose.
for tool in (B3SUM, B2SUM):
    with open(tool, "rb") as f:
        if any(name in f.read() for name in (b"__asan_init", b"__tsan_init", b"__msan_init")):
            print("a sanitizer build: skipped")
            sys.exit(77)
ENV = {k: v for k, v in os.environ.items() if not k.startswith("LC_") and k != "LANG"}
ENV["LC_ALL"] = "C"
failures = []
runs = 0


def run(tool, args, cwd, stdin, extra):
    env = dict(ENV, LD_PRELOAD=FAIL_ALLOC, **extra)
    try:
        p = subprocess.run([tool] + args, input=stdin, capture_output=True, cwd=cwd, env=env,
                           timeout=60)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return "hang", b"", b""


with tempfile.TemporaryDirectory() as d:
    def write(name, data):
        path = os.path.join(d, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)

    write("a", b"abc")
    write("b", bytes(range(256)) * 100)
    write("big", bytes(range(251)) * ((5 << 20) // 251))
    write("dir/x", b"x")
    write("dir/sub/y", b"y")
    for i in range(20):
        write(f"many/{i}", bytes([i]) * (i * 100))
    many = [f"many/{i}" for i in range(20)]
    b3 = subprocess.run([B3SUM, "a", "b", "missing"], cwd=d, capture_output=True).stdout
    write("b3.sums", b3 + b"not a line\n" + b"0" * 64 + b"  a\n")
    b2 = subprocess.run([B2SUM, "a", "b"], cwd=d, capture_output=True).stdout
    write("b2.sums", b2 + b"not a line\n")
    key = bytes(range(32))
    modes = [
        (B3SUM, ["a", "b", "missing"], b""), (B3SUM, ["-j2"] + many, b""),
        (B3SUM, ["--no-mmap", "big"], b""), (B3SUM, ["big", "a"], b""),
        (B3SUM, ["--num-threads", "1", "big"], b""), (B3SUM, ["--tag", "-l", "100", "a"], b""),
        (B3SUM, ["--keyed", "a"], key), (B3SUM, ["--derive-key", "context", "a"], b""),
        (B3SUM, ["-c", "b3.sums"], b""), (B3SUM, ["-c", "--warn", "b3.sums"], b""),
        (B3SUM, ["-r", "dir"], b""), (B3SUM, ["-z", "a"], b""), (B3SUM, ["-"], b"stdin"),
        (B3SUM, ["--bogus"], b""),
        (B2SUM, ["a", "b", "missing"], b""), (B2SUM, ["-a", "blake2bp", "big"], b""),
        (B2SUM, ["-c", "b2.sums"], b""), (B2SUM, ["--tag", "-l", "256", "a"], b""),
        (B2SUM, ["-j2"] + many, b""), (B2SUM, ["-z", "a"], b""), (B2SUM, ["-"], b"stdin"),
    ]
    for tool, args, stdin in modes:
        name = f"{os.path.basename(tool)} {' '.join(args[:4])}"
        count = os.path.join(d, "count")
        whole = run(tool, args, d, stdin, {"FASTBLAKE_ALLOC_COUNT": count})
        with open(count) as f:
            total = int(f.read())
        for n in range(1, total + 1):
            runs += 1
            status, out, err = run(tool, args, d, stdin, {"FASTBLAKE_FAIL_ALLOC_AT": str(n)})
            if status == "hang":
                failures.append(f"{name}, allocation {n} of {total} failing: no end in 60 s")
            elif status < 0:
                failures.append(f"{name}, allocation {n} of {total} failing: killed by "
                                f"{signal.Signals(-status).name}: {err[-300:]!r}")
            elif status == whole[0] and (out, err) == whole[1:]:
                continue  # a way around it, with the same outcome
            elif status != 1 or not err.strip() or b"terminate called" in err:
                failures.append(f"{name}, allocation {n} of {total} failing: status {status}, "
                                f"stderr {err[-300:]!r}")

for f in failures:
    print(f)
print(f"{len(failures)} failures in {runs} runs")
sys.exit(1 if failures else 0)
