#!/usr/bin/env python3
"""CLI tests of fastblake's b3sum: expected outputs, and byte-for-byte agreement with the
official b3sum (Debian's package) on every case its version supports, when it is installed.

Usage: b3sum_test.py PATH_TO_OUR_B3SUM
"""
import os
import resource
import shutil
import subprocess
import sys
import tempfile

OURS = os.path.abspath(sys.argv[1])
OFFICIAL = shutil.which("b3sum", path="/usr/bin")
failures = []


def run(tool, args, stdin=b"", cwd=None):
    p = subprocess.run([tool] + args, input=stdin, capture_output=True, cwd=cwd)
    return p.returncode, p.stdout, p.stderr


def check(name, got, want):
    if got != want:
        failures.append(f"{name}:\n  got  {got!r}\n  want {want!r}")


def expect(name, args, status, stdout, stderr=b"", stdin=b"", cwd=None):
    check(name, run(OURS, args, stdin, cwd), (status, stdout, stderr))


def same_as_official(name, args, stdin=b"", cwd=None):
    if OFFICIAL:
        check(name + " (against the official b3sum)", run(OURS, args, stdin, cwd),
              run(OFFICIAL, args, stdin, cwd))


ABC = b"6437b3ac38465133ffb63b75273a8db548c558465d79db03fd359c6cd5bd9d85"
EMPTY = b"af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262"

with tempfile.TemporaryDirectory() as d:
    def write(name, data):
        with open(os.path.join(d, os.fsdecode(name)) if isinstance(name, str)
                  else os.path.join(os.fsencode(d), name), "wb") as f:
            f.write(data)

    write("abc", b"abc")
    write("empty", b"")
    write("with space", b"abc")
    write("back\\slash", b"abc")
    write("new\nline", b"abc")
    write("carriage\rreturn", b"abc")
    write(b"bad\xffutf8", b"abc")
    write("big", bytes(range(256)) * 4099)
    for n in (0, 31, 32, 33):
        write(f"key{n}", b"\x07" * n)

    # Plain hashing, names, escaping, errors.
    expect("one file", ["abc"], 0, ABC + b"  abc\n", cwd=d)
    expect("stdin", [], 0, ABC + b"  -\n", stdin=b"abc")
    expect("several files", ["abc", "empty"], 0, ABC + b"  abc\n" + EMPTY + b"  empty\n", cwd=d)
    expect("spaces", ["with space"], 0, ABC + b"  with space\n", cwd=d)
    expect("backslash", ["back\\slash"], 0, b"\\" + ABC + b"  back\\\\slash\n", cwd=d)
    expect("newline", ["new\nline"], 0, b"\\" + ABC + b"  new\\nline\n", cwd=d)
    expect("carriage return", ["carriage\rreturn"], 0, b"\\" + ABC + b"  carriage\\rreturn\n",
           cwd=d)
    expect("invalid UTF-8", [os.fsdecode(b"bad\xffutf8")], 0,
           ABC + b"  bad\xef\xbf\xbdutf8\n", cwd=d)
    expect("missing among good", ["abc", "missing", "empty"], 1,
           ABC + b"  abc\n" + EMPTY + b"  empty\n",
           b"b3sum: missing: No such file or directory (os error 2)\n", cwd=d)
    expect("directory", ["."], 1, b"", b"b3sum: .: Is a directory (os error 21)\n", cwd=d)
    expect("raw with two files", ["--raw", "abc", "abc"], 1, b"",
           b"Error: Only one filename can be provided when using --raw\n", cwd=d)
    expect("raw", ["--raw", "-l", "4", "abc"], 0, bytes.fromhex(ABC[:8].decode()), cwd=d)
    expect("no names", ["--no-names", "abc"], 0, ABC + b"\n", cwd=d)
    expect("length", ["-l", "10", "abc"], 0, ABC[:20] + b"  abc\n", cwd=d)
    expect("bad length", ["-l", "x", "abc"], 1, b"", b"b3sum: abc: Failed to parse length.\n",
           cwd=d)
    long_hex = run(OURS, ["-l", "200", "--no-names", "big"], cwd=d)[1].strip()
    expect("seek", ["--seek", "37", "-l", "100", "--no-names", "big"], 0,
           long_hex[74:274] + b"\n", cwd=d)
    expect("tag", ["--tag", "abc"], 0, b"BLAKE3 (abc) = " + ABC + b"\n", cwd=d)
    expect("progress, stderr not a terminal", ["--progress", "abc"], 0, ABC + b"  abc\n", cwd=d)
    expect("usage error", ["--bogus"], 2, b"",
           b"error: unexpected argument '--bogus' found\n\nUsage: b3sum [OPTIONS] [FILE]...\n\n"
           b"For more information, try '--help'.\n")

    # Keyed mode: exactly 32 key bytes on stdin.
    key32 = b"\x07" * 32
    expect("keyed 0", ["--keyed", "abc"], 1, b"",
           b"Error: expected 32 key bytes from stdin, found 0\n", cwd=d)
    expect("keyed 31", ["--keyed", "abc"], 1, b"",
           b"Error: expected 32 key bytes from stdin, found 31\n", stdin=b"\x07" * 31, cwd=d)
    expect("keyed 33", ["--keyed", "abc"], 1, b"",
           b"Error: read more than 32 key bytes from stdin\n", stdin=b"\x07" * 33, cwd=d)
    keyed = run(OURS, ["--keyed", "--no-names", "abc"], key32, d)
    check("keyed 32 differs from plain", keyed[1] == ABC + b"\n", False)
    check("keyed 32 status", keyed[0], 0)

    # -j prints in argument order, the same bytes as one at a time.
    many = ["abc", "empty", "missing", "big", "with space", "new\nline"] * 5
    check("-j", run(OURS, ["-j", "4"] + many, cwd=d), run(OURS, many, cwd=d))

    # Check mode.
    sums = run(OURS, ["abc", "big", "back\\slash", "new\nline"], cwd=d)[1]
    write("sums", sums)
    expect("check OK", ["-c", "sums"], 0,
           b"abc: OK\nbig: OK\n\\back\\\\slash: OK\n\\new\\nline: OK\n", cwd=d)
    expect("check quiet", ["-c", "--quiet", "sums"], 0, b"", cwd=d)
    write("crlf", ABC + b"  abc\r\n")
    expect("check CRLF", ["-c", "crlf"], 0, b"abc: OK\n", cwd=d)
    write("tagged", b"BLAKE3 (abc) = " + ABC + b"\n")
    expect("check tagged", ["-c", "tagged"], 0, b"abc: OK\n", cwd=d)
    write("wrong", EMPTY + b"  abc\n" + ABC + b"  missing\n")
    expect("check FAILED", ["-c", "wrong"], 1,
           b"abc: FAILED\nmissing: FAILED (No such file or directory (os error 2))\n", cwd=d)
    write("malformed", b"xx\n\n" + ABC[:-1] + b"g  abc\n" + ABC + b" abc\n" + ABC + b"  abc\n")
    expect("check malformed", ["-c", "malformed"], 1, b"abc: OK\n",
           b"b3sum: Short line\nb3sum: Empty line\nb3sum: Invalid hex\nb3sum: Invalid space\n",
           cwd=d)

    # Memory stays bounded whatever the file's size: a sparse 1 GiB file, read and mapped, in a
    # child process each (its peak resident set is what getrusage reports for children).
    sparse = os.path.join(d, "sparse")
    with open(sparse, "wb") as f:
        f.truncate(1 << 30)
    zeros_1g = None
    for args in (["--no-mmap"], []):
        status, out, _ = run(OURS, args + ["--no-names", "sparse"], cwd=d)
        check("sparse " + " ".join(args) + " status", status, 0)
        zeros_1g = zeros_1g or out
        check("sparse " + " ".join(args) + " digest", out, zeros_1g)
    peak_kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    if peak_kib > 64 * 1024:
        failures.append(f"peak resident set of a child: {peak_kib} KiB, over 64 MiB")
    os.remove(sparse)

    # The same against the official tool, on the options its version has.
    for name, args, stdin in [
        ("one file", ["abc"], b""),
        ("stdin", [], b"abc"),
        ("names", ["abc", "with space", "back\\slash", "new\nline",
                   os.fsdecode(b"bad\xffutf8")], b""),
        ("missing among good", ["abc", "missing", "empty"], b""),
        ("directory", ["."], b""),
        ("raw with two files", ["--raw", "abc", "abc"], b""),
        ("raw", ["--raw", "-l", "1000", "big"], b""),
        ("length", ["-l", "0", "abc"], b""),
        ("length 100", ["-l", "100", "big"], b""),
        ("bad length", ["-l", "x", "abc"], b""),
        ("no names", ["--no-names", "abc", "big"], b""),
        ("no mmap", ["--no-mmap", "big"], b""),
        ("one thread", ["--num-threads", "1", "big"], b""),
        ("derive-key", ["--derive-key", "context", "abc", "big"], b""),
        ("keyed 0", ["--keyed", "abc"], b""),
        ("keyed 31", ["--keyed", "abc"], b"\x07" * 31),
        ("keyed 32", ["--keyed", "abc", "big"], key32),
        ("keyed 33", ["--keyed", "abc"], b"\x07" * 33),
        ("keyed stdin", ["--keyed", "-"], key32),
        ("check", ["-c", "sums"], b""),
        ("check quiet", ["-c", "--quiet", "sums"], b""),
        ("check FAILED", ["-c", "wrong"], b""),
        ("check malformed", ["-c", "malformed"], b""),
    ] + [(f"{f} ({' '.join(a) or 'mapped'})", a + [f], b"")
         for f in ("/proc/version", "/sys/kernel/mm/transparent_hugepage/enabled")
         if os.path.exists(f)
         for a in ([], ["--no-mmap"])]:
        same_as_official(name, args, stdin, cwd=d)

if failures:
    print("\n".join(failures))
    print(f"{len(failures)} failure(s)")
    sys.exit(1)
print("all b3sum CLI cases pass" + ("" if OFFICIAL else " (the official b3sum is not installed)"))
