#!/usr/bin/env python3
"""The bao tool's command line: Bao's own test vectors (tests/vectors/bao_test_vectors.json)
through every command, files and standard streams, the Rust tool's messages and exit statuses,
corruptions and truncations, chunk groups, and large inputs; with the Rust bao 0.13 tool, where
FASTBLAKE_RUST_BAO names one, byte for byte against it. A Windows build (bao.exe) runs under
Wine against the same expectations in Windows' words, less what Windows cannot do, each skip
named (tools/tests/target_system.py).

Usage: bao_test.py BAO VECTORS_JSON
       (FASTBLAKE_FAIL_IO: the fault-injection library, which slows reads and windows for
       --progress)
"""
import concurrent.futures
import errno
import functools
import json
import os
import random
import shlex
import subprocess
import sys
import tempfile

# terminal.py and target_system.py, shared by the tools' suites, are in tools/tests.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests"))
import target_system  # noqa: E402
import terminal  # noqa: E402

BAO, VECTORS = sys.argv[1], sys.argv[2]
target_system.use(BAO)
# BAO's command line in a shell's words.
BAO_IN_SHELL = " ".join(map(shlex.quote, target_system.command(BAO)))
RUST = os.environ.get("FASTBLAKE_RUST_BAO") or None
failures = []


def run(args, stdin=b"", tool=BAO):
    p = target_system.run(target_system.command(tool) + args, input=stdin, capture_output=True,
                          timeout=300)
    return p.returncode, p.stdout, p.stderr


def check(name, got, want):
    """WANT: what the tool prints on Linux, in the target's words."""
    want = target_system.in_target_words(want)
    if got != want:
        failures.append(f"{name}: got {str(got)[:300]}, want {str(want)[:300]}")


def vector_input(n):
    """Bao's vector input: the little-endian 32-bit integers 1, 2, 3, ... cut to n bytes."""
    words = (n + 3) // 4
    return b"".join((i + 1).to_bytes(4, "little") for i in range(words))[:n]


def blake3_of(data, work):
    path = os.path.join(work, "to-hash")
    with open(path, "wb") as f:
        f.write(data)
    status, out, _ = run(["hash", path])
    assert status == 0
    return out.decode().strip()


def write(work, name, data):
    path = os.path.join(work, name)
    with open(path, "wb") as f:
        f.write(data)
    return path


def read(path):
    with open(path, "rb") as f:
        return f.read()


def flipped(data, at):
    return data[:at] + bytes([data[at] ^ 1]) + data[at + 1:]


def command_line(work):
    status, out, err = run(["--version"])
    check("--version", (status, out.startswith(b"0.13.1 (fastblake "), err), (0, True, b""))
    status, out, err = run(["--help"])
    check("--help", (status, out.startswith(b"Usage: bao hash"), err), (0, True, b""))
    for args in ([], ["frobnicate"], ["encode", "a"], ["encode", "a", "b", "c"],
                 ["decode"], ["slice", "1"], ["hash", "--start=1"], ["decode-slice", "00", "1"],
                 ["slice", "0", "1", "a", "--start=1"], ["slice", "0", "1", "a", "--count=5"],
                 ["decode-slice", "00", "0", "1", "--start=1"], ["hash", "--help"],
                 ["--help", "--version"], ["decode", "00", "--start=1", "--start=2"]):
        status, out, err = run(args)
        check(f"usage error {args}", (status, out, err.startswith(b"Invalid arguments.")),
              (1, b"", True))
    # docopt's (the Rust tool's parser) other refusals, in its words: a flag first, then the
    # usage, then a number.
    usage_follows = b"\n\nUsage: bao hash"
    for args, first, usage in (
            (["decode", "00", "--x"], b"Unknown flag: '--x'", True),
            (["-v"], b"Unknown flag: '-v'", True),
            (["slice", "-1", "1"], b"Unknown flag: '-1'", True),
            (["decode", "00", "--star=1"], b"Unknown flag: '--star'. Did you mean '--start'?", True),
            (["decode", "00", "--outbaord", "x"],
             b"Unknown flag: '--outbaord'. Did you mean '--outboard'?", True),
            (["encode", "a", "b", "--grop=1"], b"Unknown flag: '--grop'. Did you mean '--group'?", True),
            (["decode", "00", "--count"],
             b"Expected argument for flag '--count' but reached end of arguments.", True),
            (["encode", "a", "b", "--progress=1"],
             b"Flag '--progress' cannot have an argument, but found '1'.", True),
            (["hash", "--bogus", "--start=1", "--start=2"], b"Unknown flag: '--bogus'", True),
            (["slice", "x", "1", "a"], b"Could not deserialize 'x' to u64 for '<start>'.\n", False),
            (["slice", "1", "99999999999999999999", "a"],
             b"Could not deserialize '99999999999999999999' to u64 for '<count>'.\n", False),
            (["decode", "abc", "--start=x", "--count=y"],
             b"Could not deserialize 'y' to u64 for '--count'.\n", False),
            (["decode-slice", "abc", " 1", "1"], b"Could not deserialize ' 1' to u64 for '<start>'.\n",
             False)):
        status, out, err = run(args)
        check(f"refused {args}", (status, out, err.startswith(first + usage_follows) if usage
                                  else err), (1, b"", True if usage else first))
    # Blank numbers are 0, as docopt reads them: --start= decodes from the start.
    encoded = write(work, "blank.bao", b"")
    run(["encode", write(work, "blank", b"x" * 3000), encoded])
    digest = run(["hash", os.path.join(work, "blank")])[1].split()[0].decode()
    check("--start= and --count=", (run(["decode", digest, encoded, "--start="])[:2],
                                    run(["decode", digest, encoded, "--count= "])[:2]),
          ((0, b"x" * 3000), (0, b"")))
    zeros = "00" * 32
    for hash_text, message in (("abc", b"Error: Odd number of digits\n"),
                               ("zz" + "00" * 31, b"Error: Invalid character 'z' at position 0\n"),
                               ("00" * 31, b"Error: wrong length hash\n")):
        check(f"hash {hash_text}", run(["decode", hash_text], b"")[::2], (1, message))
    missing = os.path.join(work, "missing")
    check("decode of a missing file", run(["decode", zeros, missing])[::2],
          (1, b"Error: No such file or directory (os error 2)\n"))
    check("encode to standard output", run(["encode", "-", "-"], b"abc")[::2],
          (1, b"Error: output must be a real file\n"))
    check("--start on standard input", run(["decode", zeros, "--start=1"], b"")[::2],
          (1, b"Error: input must be a real file\n"))
    check("slice of standard input", run(["slice", "0", "1"], b"")[::2],
          (1, b"Error: input must be a real file\n"))
    check("--group too large", run(["encode", missing, missing, "--group=33"])[0], 1)


def hashing(vectors, work):
    for case in vectors["hash"]:
        data = vector_input(case["input_len"])
        want = case["bao_hash"].encode() + b"\n"
        check(f"hash of {len(data)} bytes from standard input", run(["hash"], data),
              (0, want, b""))
        path = write(work, "input", data)
        check(f"hash of a {len(data)}-byte file", run(["hash", path]), (0, want, b""))
    a, b = write(work, "a", b"a"), write(work, "b", b"b")
    missing = os.path.join(work, "missing")
    status, out, err = run(["hash", a, missing, b])
    lines = out.decode().splitlines()
    check("hash of three, one missing", (status, len(lines), err), (1, 3, b""))
    check("the missing one's line", lines[1],
          f"bao: {missing}: No such file or directory (os error 2)")
    check("the others' lines", (lines[0].endswith("  " + a), lines[2].endswith("  " + b)),
          (True, True))
    check("a directory", run(["hash", work])[:2], (1, f"bao: {work}: Is a directory (os error 21)\n".encode()))


def encodings(vectors, work):
    for case in vectors["encode"]:
        n = case["input_len"]
        data = vector_input(n)
        source = write(work, "input", data)
        encoded = os.path.join(work, "encoded")
        check(f"encode {n}", run(["encode", source, encoded]), (0, b"", b""))
        got = read(encoded)
        check(f"encoding of {n}: size", len(got), case["output_len"])
        check(f"encoding of {n}: its hash", blake3_of(got, work), case["encoded_blake3"])
        # From standard input too (encoded as it comes, then moved into place).
        check(f"encode {n} from standard input", run(["encode", "-", encoded], data),
              (0, b"", b""))
        check(f"encoding of {n} from standard input", read(encoded), got)
        h = case["bao_hash"]
        check(f"decode {n}", run(["decode", h, encoded]), (0, data, b""))
        check(f"decode {n} from standard input", run(["decode", h], got), (0, data, b""))
        out = os.path.join(work, "decoded")
        check(f"decode {n} into a file", run(["decode", h, encoded, out]), (0, b"", b""))
        check(f"decoded file of {n}", read(out), data)
        for at in case["corruptions"]:
            bad = write(work, "bad", flipped(got, at))
            status, out, err = run(["decode", h, bad])
            check(f"decode {n} corrupted at {at}",
                  (status, data.startswith(out), err in (b"Error: hash mismatch\n",
                                                        b"Error: failed to fill whole buffer\n")),
                  (1, True, True))
        for cut in sorted({0, 7, 8, len(got) // 2, len(got) - 1} - {len(got)}):
            if cut < 0 or cut >= len(got):
                continue
            status, out, err = run(["decode", h], got[:cut])
            check(f"decode {n} cut at {cut}",
                  (status, data.startswith(out), err in (b"Error: failed to fill whole buffer\n",
                                                        b"Error: hash mismatch\n")),
                  (1, True, True))
    for case in vectors["outboard"]:
        n = case["input_len"]
        data = vector_input(n)
        source = write(work, "input", data)
        outboard = os.path.join(work, "outboard")
        check(f"encode --outboard {n}", run(["encode", source, f"--outboard={outboard}"]),
              (0, b"", b""))
        got = read(outboard)
        check(f"outboard of {n}: its hash", (len(got), blake3_of(got, work)),
              (case["output_len"], case["encoded_blake3"]))
        h = case["bao_hash"]
        check(f"decode --outboard {n}", run(["decode", h, source, "--outboard", outboard]),
              (0, data, b""))
        check(f"decode --outboard {n}, the input on standard input",
              run(["decode", h, "-", f"--outboard={outboard}"], data), (0, data, b""))
        for at in case["outboard_corruptions"]:
            bad = write(work, "bad", flipped(got, at))
            check(f"decode --outboard {n}, outboard corrupted at {at}",
                  run(["decode", h, source, f"--outboard={bad}"])[0], 1)
        for at in case["input_corruptions"]:
            bad = write(work, "bad", flipped(data, at))
            status, out, err = run(["decode", h, bad, f"--outboard={outboard}"])
            check(f"decode --outboard {n}, input corrupted at {at}",
                  (status, err, data[:at].startswith(out) or out == data[:len(out)]),
                  (1, b"Error: hash mismatch\n", True))


def encoded_both(work, n):
    """The vector input of n bytes, its file, and its combined and outboard encodings' files."""
    data = vector_input(n)
    source = write(work, "input", data)
    encoded, outboard = os.path.join(work, "encoded"), os.path.join(work, "outboard")
    run(["encode", source, encoded])
    run(["encode", source, f"--outboard={outboard}"])
    return data, source, encoded, outboard


def seeks(vectors, work):
    for case in vectors["seek"]:
        n = case["input_len"]
        data, source, encoded, outboard = encoded_both(work, n)
        h = run(["hash", source])[1].decode().strip()
        for offset in case["seek_offsets"]:
            check(f"decode {n} from {offset}", run(["decode", h, encoded, f"--start={offset}"]),
                  (0, data[offset:], b""))
            check(f"decode {n} from {offset}, 100 bytes",
                  run(["decode", h, encoded, f"--start={offset}", "--count=100"]),
                  (0, data[offset:offset + 100], b""))
            check(f"decode --outboard {n} from {offset}",
                  run(["decode", h, source, f"--outboard={outboard}", f"--start={offset}"]),
                  (0, data[offset:], b""))


def slices(vectors, work):
    # Every slice through `slice` and `decode-slice` (their hashes checked in one run of
    # `bao hash`); every third one also from the outboard and through files, and its first
    # corruption (the library's tests run every corruption of every case).
    made, hashes = [], []
    for case in vectors["slice"]:
        n = case["input_len"]
        data, source, encoded, outboard = encoded_both(work, n)
        h = case["bao_hash"]
        for s in case["slices"]:
            start, count = s["start"], s["len"]
            name = f"slice {n} [{start}, +{count})"
            status, got, err = run(["slice", str(start), str(count), encoded])
            check(name, (status, len(got), err), (0, s["output_len"], b""))
            made.append(write(work, f"slice-{len(made)}", got))
            hashes.append(s["output_blake3"])
            want = data[start:start + count]
            check(f"decode-{name}", run(["decode-slice", h, str(start), str(count)], got),
                  (0, want, b""))
            if len(made) % 3 != 0:
                continue
            check(f"{name} from the outboard",
                  run(["slice", str(start), str(count), source, f"--outboard={outboard}"]),
                  (0, got, b""))
            out = os.path.join(work, "decoded")
            check(f"decode-{name} from a file into one",
                  run(["decode-slice", h, str(start), str(count), made[-1], out]),
                  (0, b"", b""))
            check(f"decode-{name} written", read(out), want)
            for at in s["corruptions"][:1]:
                check(f"decode-{name} corrupted at {at}",
                      run(["decode-slice", h, str(start), str(count)], flipped(got, at))[0], 1)
    status, out, _ = run(["hash"] + made)
    got = [line.split()[0] for line in out.decode().splitlines()]
    check("the slices' hashes", (status, got), (0, hashes))


def groups_and_large_inputs(work):
    rng = random.Random(2026)
    data = rng.randbytes(9 * 1024 * 1024 + 1025)
    source = write(work, "large", data)
    h = run(["hash", source])[1].decode().strip()
    for k in ("0", "4"):
        encoded, outboard = os.path.join(work, "large.bao"), os.path.join(work, "large.obao")
        check(f"encode a large file, group {k}", run(["encode", source, encoded, f"--group={k}"]),
              (0, b"", b""))
        check(f"encode --outboard a large file, group {k}",
              run(["encode", source, f"--outboard={outboard}", f"--group={k}"]), (0, b"", b""))
        check(f"decode a large file, group {k}", run(["decode", h, encoded, f"--group={k}"]),
              (0, data, b""))
        # From a pipe, whose length is known only at its end: the same bytes.
        for name, target in (("encode", [encoded]), ("encode --outboard", [f"--outboard={outboard}"])):
            made = read(target[0].split("=")[-1])
            check(f"{name} a large input from standard input, group {k}",
                  run(["encode", "-"] + target + [f"--group={k}"], data), (0, b"", b""))
            check(f"{name} of a large input from standard input, group {k}",
                  read(target[0].split("=")[-1]) == made, True)
        check(f"decode a large file from standard input, group {k}",
              run(["decode", h, f"--group={k}"], read(encoded)), (0, data, b""))
        check(f"decode --outboard a large file, group {k}",
              run(["decode", h, source, f"--outboard={outboard}", f"--group={k}"]),
              (0, data, b""))
        start, count = 3 * 1024 * 1024 + 77, 1024 * 1024 + 5
        piece = run(["slice", str(start), str(count), encoded, f"--group={k}"])[1]
        check(f"a slice of a large file, group {k}",
              run(["decode-slice", h, str(start), str(count), f"--group={k}"], piece),
              (0, data[start:start + count], b""))
    # An encoding with groups does not decode as Bao's own.
    check("group 4 read as group 0", run(["decode", h, os.path.join(work, "large.bao")])[0], 1)
    # A reader that goes away early (head) ends decoding quietly.
    p = subprocess.run(f"{BAO_IN_SHELL} decode {h} '{os.path.join(work, 'large.bao')}' --group=4 | head -c 10",
                       shell=True, capture_output=True, timeout=300)
    check("decode into head", (p.stdout, p.stderr), (data[:10], b""))
    # A corruption in the middle: the bytes before it are written, then the error.
    encoded = read(os.path.join(work, "large.bao"))
    middle = len(encoded) // 2
    status, out, err = run(["decode", h, "--group=4"], flipped(encoded, middle))
    check("a corruption in the middle of a large encoding",
          (status, err, len(out) > 1024 * 1024, data.startswith(out)),
          (1, b"Error: hash mismatch\n", True, True))


# A Windows build's peak resident set is Wine's: its loader reserves and touches more than the
# program does.
WINE_MEMORY = "the peak resident set under Wine is Wine's own"


def peak_of(command):
    """Runs command (through the shell) in a child Python of its own; its exit status and the
    peak resident set, in KiB, of the processes it started."""
    probe = ("import resource, subprocess, sys; r = subprocess.run(sys.argv[1], shell=True); "
             "print(r.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    out = subprocess.run([sys.executable, "-c", probe, command], capture_output=True,
                         timeout=300).stdout.split()
    return int(out[0]), int(out[1])


def slices_in_bounded_memory(work):
    """A slice of 96 MiB is cut, and decoded from a pipe, in a few MiB of memory; a corruption
    in its middle stops decode-slice after the bytes before it."""
    size, start = 96 << 20, 1000
    source = os.path.join(work, "zeros")
    with open(source, "wb") as f:
        f.truncate(size)
    encoded, sliced, decoded = (os.path.join(work, n) for n in ("zeros.bao", "zeros.slice", "zeros.out"))
    check("encode 96 MiB", run(["encode", source, encoded]), (0, b"", b""))
    h = run(["hash", source])[1].decode().strip()
    status, peak = peak_of(f"{BAO_IN_SHELL} slice {start} {size} '{encoded}' '{sliced}'")
    check("slice of 96 MiB", status, 0)
    if target_system.windows:
        target_system.skip("slices of 96 MiB: the peak resident set", WINE_MEMORY)
    elif peak > 48 * 1024:
        failures.append(f"slice of 96 MiB: a peak resident set of {peak} KiB, over 48 MiB")
    status, peak = peak_of(f"cat '{sliced}' | {BAO_IN_SHELL} decode-slice {h} {start} {size} "
                           f"> '{decoded}'")
    check("decode-slice of 96 MiB from a pipe", (status, os.path.getsize(decoded)), (0, size - start))
    if peak > 48 * 1024 and not target_system.windows:
        failures.append(f"decode-slice of 96 MiB: a peak resident set of {peak} KiB, over 48 MiB")
    with open(decoded, "rb") as f:
        check("decode-slice of 96 MiB: its bytes", f.read() == bytes(size - start), True)
    slice_bytes = read(sliced)
    status, out, err = run(["decode-slice", h, str(start), str(size)],
                           flipped(slice_bytes, len(slice_bytes) // 2))
    check("a corruption in the middle of a large slice",
          (status, err, len(out) > 1 << 20, out == bytes(len(out))),
          (1, b"Error: hash mismatch\n", True, True))
    for path in (source, encoded, sliced, decoded):
        os.remove(path)


def against_rust(work):
    """The Rust bao 0.13 tool and this one, byte for byte, on random sizes around the chunk and
    power-of-two boundaries and random slices."""
    rng = random.Random(49)
    sizes = {0, 1, 1023, 1024, 1025, 2048, 2049, 3 * 1024, 8191, 8193, 65536 + 1, 1 << 20}
    sizes |= {rng.randrange(1 << 21) for _ in range(6)}
    for n in sorted(sizes):
        data = rng.randbytes(n)
        source = write(work, "input", data)
        for args in (["hash", source], ["hash"], ["hash", source, source]):
            check(f"hash {n} as Rust {args[1:]}", run(args, data), run(args, data, RUST))
        ours, theirs = os.path.join(work, "ours"), os.path.join(work, "theirs")
        for outboard in (False, True):
            target = (lambda p: [f"--outboard={p}"]) if outboard else (lambda p: [p])
            run(["encode", source] + target(ours))
            run(["encode", source] + target(theirs), tool=RUST)
            check(f"encode {n} outboard={outboard} as Rust", read(ours), read(theirs))
        h = run(["hash", source])[1].decode().strip()
        encoded = os.path.join(work, "encoded")
        run(["encode", source, encoded])
        for _ in range(3):
            start, count = rng.randrange(n + 2), rng.randrange(70000)
            slice_args = ["slice", str(start), str(count), encoded]
            check(f"slice {n} [{start}, +{count}) as Rust", run(slice_args), run(slice_args, tool=RUST))
            dec = ["decode", h, encoded, f"--start={start}", f"--count={count}"]
            check(f"decode {n} [{start}, +{count}) as Rust", run(dec), run(dec, tool=RUST))
        bad = write(work, "bad", flipped(read(encoded), rng.randrange(len(read(encoded)))))
        check(f"decode {n} corrupted as Rust", run(["decode", h, bad]),
              run(["decode", h, bad], tool=RUST))
    # Command lines either tool refuses, or takes oddly: the same words and status (our usage
    # lists --group and --progress besides).
    encoded = os.path.join(work, "encoded")
    h = run(["hash", source])[1].decode().strip()
    for args in (["hash", "--bogus"], ["hash", "-x"], ["decode", h, encoded, "--star=1"],
                 ["decode", h, encoded, "--hepl"], ["decode", h, encoded, "--help=1"],
                 ["decode", h, encoded, "---start=1"], ["decode", h, encoded, "--start"],
                 ["decode", h, encoded, "--start=", "--count=9"], ["decode", h, encoded, "--help"],
                 ["decode", h, encoded, "--start=x", "--count=-1"], ["slice", "", "5", encoded],
                 ["slice", " 5", "5", encoded], ["slice", "+5", "1e3", encoded],
                 ["decode-slice", "abc", "x", "5", encoded], ["decode-slice", h, "0", "", encoded],
                 ["--help", "--version"], ["encode", source, "out", "--start=x"], ["-h"]):
        ours = run(args)
        ours = (ours[0], ours[1],
                ours[2].replace(b" [--group=<k>]", b"").replace(b" [--progress]", b""))
        check(f"command line {args} as Rust", ours, run(args, tool=RUST))


def progress(work):
    """--progress on encode and decode: nothing where standard error is no terminal; in a
    pseudo-terminal a bar with the size, redrawn at most ten times a second, and a clean line
    left behind."""
    data = random.Random(7).randbytes((24 << 20) + 5)
    source = write(work, "progress-in", data)
    h = blake3_of(data, work)
    encoded, outboard = os.path.join(work, "progress.bao"), os.path.join(work, "progress.obao")
    check("encode --progress, not a terminal", run(["encode", source, encoded, "--progress"]),
          (0, b"", b""))
    check("encode --outboard --progress, not a terminal",
          run(["encode", "--progress", source, f"--outboard={outboard}"]), (0, b"", b""))
    check("decode --progress, not a terminal", run(["decode", h, encoded, "--progress"]),
          (0, data, b""))
    want_outboard = read(outboard)
    for args in (["hash", source], ["slice", "0", "10", encoded], ["decode-slice", h, "0", "10"]):
        check(f"{args[0]} --progress: no such option", run(args + ["--progress"])[0], 1)
    check("--progress twice", run(["encode", source, encoded, "--progress", "--progress"])[0], 1)
    if not os.environ.get("FASTBLAKE_FAIL_IO"):
        print("FASTBLAKE_FAIL_IO not given: --progress in a terminal skipped")
        return
    # Encoding: each mapped window of 1 MiB sleeps 20 ms (decoding: each read, 100 ms, as it
    # reads a subtree of 4 MiB at once: about a second in all).
    # (Decoded into a file: this loop reads standard output only at the end.)
    decoded = os.path.join(work, "progress.out")
    for args, slow, delay_us, written, want in (
            (["encode", "progress-in", f"--outboard={outboard}"], "progress-in", 20000, outboard,
             want_outboard),
            (["decode", h, "progress.bao", "progress.out"], "progress.bao", 100000, decoded, data)):
        status, out, drawn, seconds = terminal.run_slowly_on_a_terminal(
            [BAO] + args + ["--progress"], work, os.environ, slow, delay_us)
        name = args[0]
        check(f"{name} --progress: status and output", (status, out, read(written) == want),
              (0, b"", True))
        check(f"{name} --progress: a bar with the size, rate and time left ({drawn[-300:]!r})",
              all(x in drawn for x in (b"[", b"/ 24.0 MiB", b"/s", b"left")), True)
        draws = drawn.count(b"\x1b[K")
        check(f"{name} --progress: redrawn, at most ten times a second ({draws} in {seconds:.1f} s)",
              2 <= draws <= 10 * seconds + 2, True)
        check(f"{name} --progress: a clean line at the end", drawn.endswith(b"\r\x1b[K"), True)


def created_files(work):
    """Every file the tool creates gets 0666 less the umask, as open(2) with O_CREAT makes it:
    no stray permission bits (once, the mode argument was missing and they were random), and
    an existing output keeps its own."""
    if target_system.windows:
        target_system.skip("the modes of created files", "Windows has no Unix modes (Wine makes "
                           "files 0644 whatever the umask)")
        return
    data = vector_input(5000)
    source = write(work, "mode-in", data)
    h = run(["hash", source])[1].decode().strip()
    old = os.umask(0o027)
    try:
        outputs = {}
        for name, args in (("encode", ["encode", source, "{}"]),
                           ("encode --outboard", ["encode", source, "--outboard={}"]),
                           ("decode", ["decode", h, os.path.join(work, "mode-encode"), "{}"]),
                           ("slice", ["slice", "0", "100", os.path.join(work, "mode-encode"),
                                      "{}"]),
                           ("encode from standard input", ["encode", "-", "{}"])):
            path = os.path.join(work, "mode-" + name.replace(" ", "-"))
            if os.path.exists(path):
                os.unlink(path)
            status = run([a.format(path) for a in args], data)[0]
            outputs[name] = (status, oct(os.stat(path).st_mode & 0o7777))
        check("the modes of created files", outputs,
              {name: (0, oct(0o640)) for name in outputs})
        existing = os.path.join(work, "mode-encode")
        os.chmod(existing, 0o600)
        run(["encode", source, existing])
        check("an existing output's mode", oct(os.stat(existing).st_mode & 0o7777), oct(0o600))
    finally:
        os.umask(old)


def existing_outputs(work):
    """An existing output is written over and cut to the encoding's size; a failure leaves it
    empty, as a truncating open would."""
    data = vector_input(300000)
    source = write(work, "over-in", data)
    # What the tool writes to new files (checked against Bao's vectors elsewhere).
    fresh_encoded, fresh_outboard = os.path.join(work, "over-e"), os.path.join(work, "over-o")
    run(["encode", source, fresh_encoded])
    run(["encode", source, f"--outboard={fresh_outboard}"])
    want_encoded, want_outboard = read(fresh_encoded), read(fresh_outboard)
    for name, flag, want in (("combined", None, want_encoded),
                             ("outboard", "--outboard", want_outboard)):
        target = write(work, "over-out", os.urandom(1 << 20))
        args = ["encode", source, f"--outboard={target}"] if flag else ["encode", source, target]
        check(f"encode {name} over a larger file", (run(args), read(target) == want),
              ((0, b"", b""), True))
        write(work, "over-out", b"")
        check(f"encode {name} over a smaller file", (run(args), read(target) == want),
              ((0, b"", b""), True))
        check(f"encode {name} from standard input over a larger file",
              (run(["encode", "-"] + args[2:], data) if flag else
               run(["encode", "-", target], data), read(target) == want), ((0, b"", b""), True))
    if not os.environ.get("FASTBLAKE_FAIL_IO"):
        print("FASTBLAKE_FAIL_IO not given: a failing output skipped")
        return
    target = write(work, "over-out", os.urandom(1 << 20))
    env = dict(os.environ, LD_PRELOAD=os.environ["FASTBLAKE_FAIL_IO"],
               FASTBLAKE_FAIL_PATH=target, FASTBLAKE_FAIL_OP="write",
               FASTBLAKE_FAIL_AFTER="1000", FASTBLAKE_FAIL_ERRNO=str(errno.ENOSPC),
               # (Under ASan the preloaded library comes before its runtime.)
               ASAN_OPTIONS=os.environ.get("ASAN_OPTIONS", "") + ":verify_asan_link_order=0")
    p = subprocess.run([BAO, "encode", source, target], capture_output=True, env=env,
                       timeout=300)
    check("a full disk while encoding over a file",
          (p.returncode, p.stderr, os.path.getsize(target)),
          (1, b"Error: No space left on device (os error 28)\n", 0))


def main():
    with open(VECTORS) as f:
        vectors = json.load(f)
    # The longest first, so that the two at a time end together.
    sections = [functools.partial(seeks, vectors), functools.partial(slices, vectors),
                functools.partial(encodings, vectors), command_line,
                functools.partial(hashing, vectors), created_files, existing_outputs,
                groups_and_large_inputs, slices_in_bounded_memory, progress]
    if RUST:
        sections.append(against_rust)
    else:
        print("the Rust bao tool: not given (FASTBLAKE_RUST_BAO), its comparison skipped")
    with tempfile.TemporaryDirectory() as work:
        # Two sections at a time, each in a folder of its own: under Wine a run spends most of
        # its time waiting on Wine's server, and one at a time left a core idle.
        def in_own_folder(number, section):
            folder = os.path.join(work, str(number))
            os.mkdir(folder)
            section(folder)

        with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
            for done in [pool.submit(in_own_folder, *numbered) for numbered in enumerate(sections)]:
                done.result()
    print(target_system.skipped(), end="")
    for failure in failures:
        print("FAIL:", failure)
    print(f"{len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
