#!/usr/bin/env python3
"""Both tools in pipelines: each output line goes out whole and at once, as the references'
line-buffered standard output does (Rust's for the official b3sum, _IOLBF in coreutils).
- A line is written when it is made: a reader sees the first file's line while the tool waits
  on a FIFO named after it, whether standard output is a pipe or a regular file.
- Two runs on one pipe (coreutils' md5sum-parallel scenario, xargs -P2) never mix their lines.
- A run killed part-way leaves whole lines only, and every line it had made.
- Every write(2) to standard output ends a line (an LD_PRELOAD shim logs them), in every mode:
  one write per line to a pipe or a file; to the null device, where nobody reads, whole lines
  are gathered into larger writes.

Usage: pipelines_test.py B3SUM B2SUM FAIL_IO_LIBRARY
"""
import os
import re
import select
import signal
import subprocess
import sys
import tempfile
import time

B3SUM, B2SUM, FAIL_IO = (os.path.abspath(p) for p in sys.argv[1:4])
TOOLS = {"b3sum": B3SUM, "b2sum": B2SUM}
failures = []
LINE = re.compile(rb"[0-9a-f]{64,128}  \S+\n")


def check(name, ok, detail=""):
    if not ok:
        failures.append(f"{name}: {detail}")


def wait_for(predicate, seconds=20):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.01)
    return predicate()


with tempfile.TemporaryDirectory() as d:
    # Long names, as the 3,000 files: lines of ~260 bytes, so that a 64 KiB buffer
    # would end mid-line.
    names = [os.path.join(d, f"{i:04d}-" + "n" * 180) for i in range(3000)]
    for i, name in enumerate(names):
        with open(name, "wb") as f:
            f.write(str(i).encode())
    small = os.path.join(d, "small")
    with open(small, "wb") as f:
        f.write(b"abc")

    for tool, path in TOOLS.items():
        want_first = subprocess.run([path, small], capture_output=True, check=True).stdout

        # 1. The line for the first file is there while the tool waits on a FIFO.
        for kind in ("file", "pipe"):
            fifo = os.path.join(d, f"fifo-{tool}-{kind}")
            os.mkfifo(fifo)
            out_path = os.path.join(d, f"out-{tool}-{kind}")
            out = open(out_path, "wb") if kind == "file" else subprocess.PIPE
            p = subprocess.Popen([path, small, fifo], stdout=out, stderr=subprocess.PIPE)
            if kind == "file":
                seen = wait_for(lambda: os.path.getsize(out_path) == len(want_first))
                first = open(out_path, "rb").read()
            else:
                ready = select.select([p.stdout], [], [], 20)[0]
                first = os.read(p.stdout.fileno(), 65536) if ready else b""
                seen = first == want_first
            check(f"{tool}, stdout a {kind}: the first line before the FIFO is written", seen,
                  repr(first))
            with open(fifo, "wb") as w:
                w.write(b"abc")
            rest, err = p.communicate(timeout=60)
            if kind == "file":
                out.close()
                rest = open(out_path, "rb").read()[len(first):]
            check(f"{tool}, stdout a {kind}: the whole output", first + (rest or b"") ==
                  want_first + want_first.replace(small.encode(), fifo.encode()),
                  repr((first, rest, err)))
            os.unlink(fifo)

        # 2. Two runs on one pipe: every line whole (xargs -n500 -P2).
        for attempt in range(10):
            r, w = os.pipe()
            runs = [subprocess.Popen([path] + names[k * 500:(k + 1) * 500], stdout=w,
                                     stderr=subprocess.DEVNULL) for k in range(2)]
            os.close(w)
            got = b""
            while True:
                chunk = os.read(r, 1000)
                if not chunk:
                    break
                got += chunk
            os.close(r)
            for run in runs:
                run.wait(timeout=60)
            lines = got.splitlines(keepends=True)
            bad = [line for line in lines if not LINE.fullmatch(line)]
            if len(lines) != 1000 or bad:
                check(f"{tool}: two runs on one pipe", False,
                      f"attempt {attempt}: {len(lines)} lines, {len(bad)} mixed: {bad[:2]!r}")
                break

        # 3. Killed while waiting on a FIFO after 3,000 files: whole lines, all 3,000 of them.
        fifo = os.path.join(d, f"fifo-{tool}-kill")
        os.mkfifo(fifo)
        out_path = os.path.join(d, f"killed-{tool}")
        with open(out_path, "wb") as out:
            p = subprocess.Popen([path] + names + [fifo], stdout=out, stderr=subprocess.DEVNULL)
            wait_for(lambda: os.path.getsize(out_path) > 0)
            time.sleep(0.5)
            p.send_signal(signal.SIGTERM)
            p.wait(timeout=60)
        got = open(out_path, "rb").read()
        lines = got.splitlines(keepends=True)
        check(f"{tool}: killed, whole lines only", got.endswith(b"\n") and
              all(LINE.fullmatch(line) for line in lines), repr(got[-80:]))
        check(f"{tool}: killed, every line made", len(lines) == len(names), str(len(lines)))
        os.unlink(fifo)

        # 4. Every write(2) to standard output ends a line, in every mode.
        sums = os.path.join(d, f"sums-{tool}")
        with open(sums, "wb") as f:
            f.write(subprocess.run([path] + names[:300], capture_output=True, check=True).stdout)
        modes = [[], ["--tag"], ["-z"], ["-c", sums]]
        if tool == "b3sum":
            modes += [["-j2"], ["--no-mmap"], ["-j2", "-z"], ["--num-threads", "1"]]
        for mode in modes:
            terminator = 0 if "-z" in mode else 10
            files = [] if "-c" in mode else names
            for kind in ("file", "pipe", "null"):
                log = os.path.join(d, "writes")
                if os.path.exists(log):
                    os.unlink(log)
                # A sanitizer build must accept the shim ahead of its runtime.
                env = dict(os.environ, LD_PRELOAD=FAIL_IO, FASTBLAKE_LOG_WRITES=log,
                           ASAN_OPTIONS=os.environ.get("ASAN_OPTIONS", "") +
                           ":verify_asan_link_order=0")
                if kind == "file":
                    target = open(os.path.join(d, "out"), "wb")
                elif kind == "pipe":
                    target = subprocess.PIPE
                else:
                    target = open(os.devnull, "wb")
                p = subprocess.run([path] + mode + files, stdout=target,
                                   stderr=subprocess.PIPE, env=env, timeout=120)
                if kind != "pipe":
                    target.close()
                name = f"{tool} {' '.join(mode)}, stdout {kind}"
                check(name + ": status", p.returncode == 0, p.stderr.decode(errors="replace"))
                writes = [tuple(map(int, line.split()))
                          for line in open(log).read().splitlines()] if os.path.exists(log) else []
                lines = len(files) if files else 300
                mid_line = [w for w in writes if w[1] != terminator]
                check(name + ": every write ends a line", not mid_line, f"{mid_line[:3]}")
                if kind == "null":
                    check(name + ": gathered", len(writes) < lines / 10, f"{len(writes)} writes")
                else:
                    check(name + ": a write per line", len(writes) == lines,
                          f"{len(writes)} writes for {lines} lines")

for f in failures:
    print("FAIL", f)
print(f"{len(failures)} failures")
sys.exit(1 if failures else 0)
