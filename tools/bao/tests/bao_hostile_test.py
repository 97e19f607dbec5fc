#!/usr/bin/env python3
"""The bao tool against hostile input and hostile surroundings: headers that claim any length
(memory follows the bytes given), outputs that are their own inputs (refused, the input left
whole), a wrong hash with --count=0 (checked as the Rust tool's seek checks it), FIFOs on every
command (read in order, as from a pipe), and a file that shrinks at each moment of its encoding
(an error and an emptied output, or the encoding of a state it really had). Where
FASTBLAKE_RUST_BAO names the Rust bao 0.13 tool, the --count=0 and FIFO cases it takes are
compared with it too.

Usage: bao_hostile_test.py BAO
       (FASTBLAKE_FAIL_IO: the fault-injection library, which shrinks the input mid-encoding)
"""
import os
import struct
import subprocess
import sys
import tempfile
import threading

BAO = os.path.abspath(sys.argv[1])
RUST = os.environ.get("FASTBLAKE_RUST_BAO") or None
FAIL_IO = os.environ.get("FASTBLAKE_FAIL_IO") or None
failures = []


def run(args, stdin=b"", tool=BAO, env=None, cwd=None):
    p = subprocess.run([tool] + args, input=stdin, capture_output=True, timeout=300, env=env,
                       cwd=cwd)
    return p.returncode, p.stdout, p.stderr


def run_measured(args, cwd):
    """(status, stderr, peak resident KiB) of bao ARGS."""
    p = subprocess.Popen([BAO] + args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                         cwd=cwd)
    err = p.stderr.read()
    _, status, usage = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    return p.returncode, err, usage.ru_maxrss


def check(name, got, want):
    if got != want:
        failures.append(f"{name}: got {str(got)[:300]}, want {str(want)[:300]}")


def write(work, name, data):
    path = os.path.join(work, name)
    with open(path, "wb") as f:
        f.write(data)
    return path


def read(path):
    with open(path, "rb") as f:
        return f.read()


def hash_of(work, data):
    status, out, _ = run(["hash", write(work, "to-hash", data)])
    assert status == 0
    return out.decode().strip()


def hostile_headers(work):
    # 108 bytes claiming up to 2^64 - 1 bytes, at group sizes up to 2^32 chunks: every command
    # fails, in memory far below the claim (a regression reads gigabytes).
    wrong = "00" * 32
    for claim in (1 << 30, 16 << 30, 1 << 63, 2**64 - 1):
        body = write(work, "hostile", struct.pack("<Q", claim) + b"\x5a" * 100)
        data = write(work, "hostile-data", b"\x5a" * 100)
        for k in (0, 9, 20, 32):
            group = f"--group={k}"
            for args in (["decode", wrong, body, group], ["decode", wrong, data, f"--outboard={body}", group],
                         ["decode", wrong, body, "--start=5000000000", group],
                         ["decode-slice", wrong, "0", "99999999999", body, group],
                         ["slice", "0", "99999999999", body, os.path.join(work, "slice-out"), group]):
                status, err, peak = run_measured(args, work)
                check(f"hostile claim {claim} {args[0]} k={k}: status", status, 1)
                check(f"hostile claim {claim} {args[0]} k={k}: an error", err.startswith(b"Error: "),
                      True)
                check(f"hostile claim {claim} {args[0]} k={k}: peak under 256 MiB ({peak} KiB)",
                      peak < 256 * 1024, True)


def same_file_outputs(work):
    data = os.urandom(200_000)
    f = write(work, "f", data)
    os.symlink("f", os.path.join(work, "link"))
    os.link(f, os.path.join(work, "hard"))
    h = hash_of(work, data)
    run(["encode", "f", "e"], cwd=work)
    run(["encode", "f", "--outboard=o"], cwd=work)
    encoding, outboard = read(os.path.join(work, "e")), read(os.path.join(work, "o"))
    cases = [
        (["encode", "f", "f"], "'f' and 'f'"),
        (["encode", "f", "--outboard=f"], "'f' and 'f'"),
        (["encode", "f", "link"], "'f' and 'link'"),
        (["encode", "f", "hard"], "'f' and 'hard'"),
        (["encode", "link", "--outboard=hard"], "'link' and 'hard'"),
        (["decode", h, "e", "e"], "'e' and 'e'"),
        (["decode", h, "f", "f", "--outboard=o"], "'f' and 'f'"),
        (["decode", h, "f", "o", "--outboard=o"], "'o' and 'o'"),
        (["slice", "0", "100", "e", "e"], "'e' and 'e'"),
        (["slice", "0", "100", "f", "o", "--outboard=o"], "'o' and 'o'"),
        (["decode-slice", h, "0", "100", "e", "e"], "'e' and 'e'"),
    ]
    for args, names in cases:
        status, out, err = run(args, cwd=work)
        check(f"same file {args}", (status, out, err),
              (1, b"", f"Error: {names} are the same file\n".encode()))
        check(f"same file {args}: inputs whole",
              [read(os.path.join(work, n)) for n in ("f", "e", "o")], [data, encoding, outboard])
    # Standard output appended to the input, and standard input that is the output.
    with open(os.path.join(work, "e"), "ab") as out:
        p = subprocess.run([BAO, "decode", h, "e"], stdout=out, stderr=subprocess.PIPE, cwd=work)
    check("decode to its own input by standard output", (p.returncode, p.stderr),
          (1, b"Error: 'e' and '-' are the same file\n"))
    with open(os.path.join(work, "e"), "rb") as stdin:
        p = subprocess.run([BAO, "decode", h, "-", "e"], stdin=stdin, capture_output=True,
                           cwd=work)
    check("decode of standard input into it", (p.returncode, p.stderr),
          (1, b"Error: '-' and 'e' are the same file\n"))
    check("inputs whole at the end", [read(os.path.join(work, n)) for n in ("f", "e", "o")],
          [data, encoding, outboard])
    # Other outputs are written as before.
    check("decode to another file", run(["decode", h, "e", "out"], cwd=work)[0], 0)
    check("decoded", read(os.path.join(work, "out")), data)


def count_zero(work):
    # With --count=0 the Rust tool's seek checks the path to start's chunk (the last one where
    # start is past the end); a start in the first chunk of a longer input reads nothing.
    wrong = "00" * 32
    for n in (0, 1, 1024, 1025, 3073):
        data = os.urandom(n)
        h = hash_of(work, data)
        run(["encode", write(work, "in", data), os.path.join(work, "enc")])
        for start in (0, 1, 512, 1023, 1024, 1025, 2048, 3072, 3073, 5000):
            args = ["decode", wrong, os.path.join(work, "enc"), f"--start={start}", "--count=0"]
            checked = start >= 1024 or start >= n
            want = (1, b"", b"Error: hash mismatch\n") if checked else (0, b"", b"")
            check(f"--count=0 of {n} bytes from {start}, a wrong hash", run(args), want)
            if RUST:
                check(f"--count=0 of {n} bytes from {start}: as the Rust tool", run(args),
                      run(args, tool=RUST))
            args[1] = h
            check(f"--count=0 of {n} bytes from {start}, the right hash", run(args), (0, b"", b""))


def fifo_feeding(path, content):
    """A FIFO at path, fed content by a thread (which gives up once no reader comes)."""
    os.mkfifo(path)

    def feed():
        try:
            fd = os.open(path, os.O_WRONLY)
        except OSError:
            return
        with os.fdopen(fd, "wb") as f:
            try:
                f.write(content)
            except BrokenPipeError:
                pass

    t = threading.Thread(target=feed, daemon=True)
    t.start()
    return t


def fifos(work):
    # Everything that reads an encoding front to back works from FIFOs, as from files.
    data = os.urandom(300_000)
    f = write(work, "data", data)
    run(["encode", f, os.path.join(work, "enc")])
    run(["encode", f, "--outboard=" + os.path.join(work, "ob")])
    encoding, outboard = read(os.path.join(work, "enc")), read(os.path.join(work, "ob"))
    h = hash_of(work, data)
    cases = [
        ("decode", lambda a, b: ["decode", h, a], {"a": encoding}),
        ("decode --outboard FIFO", lambda a, b: ["decode", h, f, "--outboard=" + a], {"a": outboard}),
        ("decode data FIFO", lambda a, b: ["decode", h, a, "--outboard=" + os.path.join(work, "ob")],
         {"a": data}),
        ("decode both FIFOs", lambda a, b: ["decode", h, a, "--outboard=" + b], {"a": data, "b": outboard}),
        ("decode --start", lambda a, b: ["decode", h, a, "--start=5000", "--count=100"], {"a": encoding}),
        ("decode --start far", lambda a, b: ["decode", h, a, "--start=200000"], {"a": encoding}),
        ("decode --start, outboard FIFOs", lambda a, b: ["decode", h, a, "--outboard=" + b, "--start=70000"],
         {"a": data, "b": outboard}),
        ("slice", lambda a, b: ["slice", "5000", "100", a], {"a": encoding}),
        ("slice from 0", lambda a, b: ["slice", "0", "100", a], {"a": encoding}),
        ("slice far", lambda a, b: ["slice", "200000", "5000", a], {"a": encoding}),
        ("slice of an outboard FIFO", lambda a, b: ["slice", "100000", "100", f, "--outboard=" + a],
         {"a": outboard}),
    ]
    for i, (name, make, contents) in enumerate(cases):
        names = {key: os.path.join(work, f"fifo-{i}-{key}") for key in ("a", "b")}
        files = {key: write(work, f"file-{i}-{key}", content) for key, content in contents.items()}
        want = run(make(files.get("a"), files.get("b")))
        threads = [fifo_feeding(names[key], content) for key, content in contents.items()]
        got = run(make(names["a"], names["b"]))
        check(f"FIFO: {name}", got, want)
        check(f"FIFO: {name} succeeds", got[0], 0)
        for key in contents:
            # A reader that stopped early leaves the feeder waiting: open it to let it go.
            try:
                fd = os.open(names[key], os.O_RDONLY | os.O_NONBLOCK)
                os.close(fd)
            except OSError:
                pass
        for t in threads:
            t.join(timeout=10)
    # decode-slice reads its slice in order from a FIFO too.
    slice_bytes = run(["slice", "5000", "100000", os.path.join(work, "enc")])[1]
    t = fifo_feeding(os.path.join(work, "fifo-slice"), slice_bytes)
    got = run(["decode-slice", h, "5000", "100000", os.path.join(work, "fifo-slice")])
    check("FIFO: decode-slice", got, (0, data[5000:105000], b""))
    t.join(timeout=10)


def shrinking_input(work):
    # The input shrinks at each moment of its encoding (after each window or read, by the
    # fault-injection library): the error and an emptied output, or the encoding of a state the
    # file really had.
    if not FAIL_IO:
        print("FASTBLAKE_FAIL_IO not given: a shrinking input skipped")
        return
    whole = os.urandom((40 << 20) + 123)
    for shrink in (100, 4097, len(whole) // 2):
        states = {hash_of(work, content): content for content in (whole, whole[:-shrink])}
        for outboard in (False, True):
            for moment in range(1, 8):
                path = write(work, "shrinking", whole)
                out = os.path.join(work, "shrinking-out")
                args = ["encode", "shrinking"] + (["--outboard=shrinking-out"] if outboard else ["shrinking-out"])
                env = dict(os.environ, LD_PRELOAD=FAIL_IO, FASTBLAKE_FAIL_PATH="shrinking",
                           FASTBLAKE_FAIL_OP="shrink", FASTBLAKE_SHRINK_BY=str(shrink),
                           FASTBLAKE_ACT_AT=str(moment),
                           ASAN_OPTIONS=os.environ.get("ASAN_OPTIONS", "") + ":verify_asan_link_order=0")
                status, _, err = run(args, env=env, cwd=work)
                name = f"shrink by {shrink} at moment {moment}, outboard {outboard}"
                if status != 0:
                    check(name, (status, err, os.path.getsize(out)),
                          (1, b"Error: the input shrank while it was being encoded\n", 0))
                    continue
                encoding = read(out)
                valid = []
                for h, content in states.items():
                    data_path = write(work, "state", content)
                    enc_path = write(work, "state-encoding", encoding)
                    args = (["decode", h, data_path, "--outboard=" + enc_path] if outboard
                            else ["decode", h, enc_path])
                    status, decoded, _ = run(args)
                    valid.append(status == 0 and decoded == content)
                check(f"{name}: a valid encoding of a state the file had", any(valid), True)
                del path


def main():
    with tempfile.TemporaryDirectory() as work:
        for part in (hostile_headers, same_file_outputs, count_zero, fifos, shrinking_input):
            sub = os.path.join(work, part.__name__)
            os.mkdir(sub)
            part(sub)
    for f in failures:
        print(f)
    print(f"{len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
