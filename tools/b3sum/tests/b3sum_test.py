#!/usr/bin/env python3
"""CLI tests of fastblake's b3sum: expected outputs (the newest official's, 1.8.6), and
byte-for-byte agreement with the official b3sum (Debian's package, 1.2.0) on every case where
its version behaves as the newest, when it is installed;
fastblake's own options (GNU's check options, -z, -r and -L, --progress in a pseudo-terminal);
round trips (every line written checks as OK). Runs in the locale FASTBLAKE_TEST_LOCALE names
(C by default). A Windows build (b3sum.exe) runs under Wine against the same expectations in
Windows' words, less what Windows cannot do, each skip named (tools/tests/target_system.py).

Usage: b3sum_test.py PATH_TO_OUR_B3SUM
       (FASTBLAKE_FAIL_IO: the fault-injection library, which slows reads for --progress)
"""
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time

# terminal.py, shared by the tools' suites, is in tools/tests.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests"))
import target_system as target  # noqa: E402
import terminal  # noqa: E402

OURS = os.path.abspath(sys.argv[1])
target.use(OURS)
# FASTBLAKE_B3SUM_REFERENCE: a build of the newest official b3sum, where one is at hand, in place
# of Debian's 1.2.0 (the cases compared with either are those where the two agree).
OFFICIAL = os.environ.get("FASTBLAKE_B3SUM_REFERENCE") or shutil.which("b3sum", path="/usr/bin")
failures = []
ENV = {k: v for k, v in os.environ.items() if not k.startswith("LC_") and k != "LANG"}
ENV["LC_ALL"] = os.environ.get("FASTBLAKE_TEST_LOCALE", "C")
if subprocess.run(["locale"], env=ENV, capture_output=True).stderr:
    print(f"the locale {ENV['LC_ALL']} is not installed: skipped")
    sys.exit(77)


def run(tool, args, stdin=b"", cwd=None, stdout=subprocess.PIPE):
    """STDIN: bytes, or an open file (read from its offset)."""
    given = {"input": stdin} if isinstance(stdin, bytes) else {"stdin": stdin}
    p = target.run(target.command(tool) + args, **given, stdout=stdout, stderr=subprocess.PIPE,
                   cwd=cwd, env=ENV, timeout=120)
    return p.returncode, p.stdout, p.stderr


def check(name, got, want):
    """WANT: what Linux's tools print, in the target's words."""
    want = target.in_target_words(want)
    if got != want:
        failures.append(f"{name}:\n  got  {got!r}\n  want {want!r}")


def unnameable(name, args):
    """Whether ARGS name a file that the target cannot hold: then the case is skipped."""
    reason = next(filter(None, map(target.why_unnameable, args)), None)
    if reason:
        target.skip(name, reason)
    return reason is not None


def expect(name, args, status, stdout, stderr=b"", stdin=b"", cwd=None):
    if not unnameable(name, args):
        check(name, run(OURS, args, stdin, cwd), (status, stdout, stderr))


def same_as_official(name, args, stdin=b"", cwd=None):
    if OFFICIAL and not unnameable(name, args):
        check(name + " (against the official b3sum)", run(OURS, args, stdin, cwd),
              run(OFFICIAL, args, stdin, cwd))


# A Windows build's peak resident set is Wine's: its loader reserves and touches more than the
# program does.
WINE_MEMORY = "the peak resident set under Wine is Wine's own"
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
    # clap takes a short option's value after one '=' too, and the rest as it is.
    for spelled in (["-l=10"], ["-l10"], ["--length=10"], ["-wl=10"]):
        expect("length as " + spelled[0], spelled + ["abc"], 0, ABC[:20] + b"  abc\n", cwd=d)
    expect("length as -l==10", ["-l==10", "abc"], 2, b"",
           b"error: invalid value '=10' for '--length <LEN>': invalid digit found in string\n\n"
           b"For more information, try '--help'.\n", cwd=d)
    expect("length as -l=", ["-l=", "abc"], 2, b"",
           b"error: invalid value '' for '--length <LEN>': cannot parse integer from empty "
           b"string\n\nFor more information, try '--help'.\n", cwd=d)
    # Debian's 1.2.0 said "b3sum: abc: Failed to parse length." (exit 1); 1.8's clap refuses it.
    expect("bad length", ["-l", "x", "abc"], 2, b"",
           b"error: invalid value 'x' for '--length <LEN>': invalid digit found in string\n\n"
           b"For more information, try '--help'.\n", cwd=d)
    long_hex = run(OURS, ["-l", "200", "--no-names", "big"], cwd=d)[1].strip()
    expect("seek", ["--seek", "37", "-l", "100", "--no-names", "big"], 0,
           long_hex[74:274] + b"\n", cwd=d)
    # --seek applies when checking, as in official 1.8.6: the first 32 bytes from the seek are
    # compared, so a sum made without it fails, and one made with it passes.
    with open(os.path.join(d, "abc.sums"), "wb") as f:
        f.write(ABC + b"  abc\n")
    expect("check with a seek", ["--seek", "1", "-c", "abc.sums"], 1, b"abc: FAILED\n",
           b"b3sum: WARNING: 1 computed checksum did NOT match\n", cwd=d)
    with open(os.path.join(d, "abc-seek.sums"), "wb") as f:
        f.write(run(OURS, ["--seek", "1", "abc"], cwd=d)[1])
    expect("check with the seek of the sums", ["--seek", "1", "-c", "abc-seek.sums"], 0,
           b"abc: OK\n", cwd=d)
    expect("tag", ["--tag", "abc"], 0, b"BLAKE3 (abc) = " + ABC + b"\n", cwd=d)
    expect("progress, stderr not a terminal", ["--progress", "abc"], 0, ABC + b"  abc\n", cwd=d)
    expect("usage error", ["--bogus"], 2, b"",
           b"error: unexpected argument '--bogus' found\n\n"
           b"  tip: to pass '--bogus' as a value, use '-- --bogus'\n\n"
           b"Usage: b3sum [OPTIONS] [FILE]...\n\nFor more information, try '--help'.\n")

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
    many = target.nameable(["abc", "empty", "missing", "big", "with space", "new\nline"]) * 5
    check("-j", run(OURS, ["-j", "4"] + many, cwd=d), run(OURS, many, cwd=d))

    # Check mode.
    verdicts = {"abc": b"abc: OK\n", "big": b"big: OK\n", "back\\slash": b"\\back\\\\slash: OK\n",
                "new\nline": b"\\new\\nline: OK\n"}
    sums = run(OURS, target.nameable(verdicts), cwd=d)[1]
    write("sums", sums)
    expect("check OK", ["-c", "sums"], 0,
           b"".join(verdicts[n] for n in target.nameable(verdicts)), cwd=d)
    expect("check quiet", ["-c", "--quiet", "sums"], 0, b"", cwd=d)
    write("crlf", ABC + b"  abc\r\n")
    expect("check CRLF", ["-c", "crlf"], 0, b"abc: OK\n", cwd=d)
    write("tagged", b"BLAKE3 (abc) = " + ABC + b"\n")
    expect("check tagged", ["-c", "tagged"], 0, b"abc: OK\n", cwd=d)
    write("wrong", EMPTY + b"  abc\n" + ABC + b"  missing\n")
    # 1.4 and later end with one WARNING line counting every failure (1.2.0 had none).
    expect("check FAILED", ["-c", "wrong"], 1,
           b"abc: FAILED\nmissing: FAILED (No such file or directory (os error 2))\n",
           b"b3sum: WARNING: 2 computed checksums did NOT match\n", cwd=d)
    write("malformed", b"xx\n\n" + ABC[:-1] + b"g  abc\n" + ABC + b" abc\n" + ABC + b"  abc\n")
    expect("check malformed", ["-c", "malformed"], 1, b"abc: OK\n",
           b"b3sum: Invalid check line format\nb3sum: Empty line\nb3sum: Invalid hex\n"
           b"b3sum: Invalid check line format\n"
           b"b3sum: WARNING: 4 computed checksums did NOT match\n", cwd=d)

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
    if target.windows:
        target.skip("sparse files' peak resident set", WINE_MEMORY)
    elif peak_kib > 64 * 1024:
        failures.append(f"peak resident set of a child: {peak_kib} KiB, over 64 MiB")
    os.remove(sparse)

    # The same against the official tool, on the options its version has.
    for name, args, stdin in [
        ("one file", ["abc"], b""),
        ("stdin", [], b"abc"),
        ("names", target.nameable(["abc", "with space", "back\\slash", "new\nline",
                                   os.fsdecode(b"bad\xffutf8")]), b""),
        ("missing among good", ["abc", "missing", "empty"], b""),
        ("directory", ["."], b""),
        ("raw with two files", ["--raw", "abc", "abc"], b""),
        ("raw", ["--raw", "-l", "1000", "big"], b""),
        ("length", ["-l", "0", "abc"], b""),
        ("length 100", ["-l", "100", "big"], b""),
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
    ] + [(f"{f} ({' '.join(a) or 'mapped'})", a + [f], b"")
         for f in ("/proc/version", "/sys/kernel/mm/transparent_hugepage/enabled")
         if os.path.exists(f)
         for a in ([], ["--no-mmap"])]:
        same_as_official(name, args, stdin, cwd=d)

    # Standard input is a stream even when it is a regular file: read from its offset, and
    # consumed, as the official b3sum and GNU read it.
    for tool in [OURS] + ([OFFICIAL] if OFFICIAL else []):
        with open(os.path.join(d, "big"), "rb") as f:
            f.seek(1000)
            status, out, _ = run(tool, ["-"], f, cwd=d)
            check(f"{tool}: stdin a regular file at an offset, consumed", f.tell(),
                  os.path.getsize(os.path.join(d, "big")))
        check(f"{tool}: stdin at an offset hashes the rest",
              (status, out.split(b" ")[0]),
              (0, run(OURS, ["--no-names", "-"], (bytes(range(256)) * 4099)[1000:])[1][:-1]))

    # I/O errors around the hashed files: check files that are directories or missing, output
    # to a full device, a key that cannot be read.
    os.mkdir(os.path.join(d, "adir"))
    expect("check a directory", ["-c", "adir"], 1, b"",
           b"Error: Is a directory (os error 21)\n", cwd=d)
    expect("check sums then a missing file", ["-c", "sums", "nope", "sums"], 1,
           run(OURS, ["-c", "sums"], cwd=d)[1], b"Error: No such file or directory (os error 2)\n",
           cwd=d)
    with open("/dev/full", "wb") as full:
        for args in (["-c", "sums"], ["abc"], ["--raw", "abc"], ["-l", "100000", "abc"]):
            status, _, err = run(OURS, args, cwd=d, stdout=full)
            check(f"{' '.join(args)} > /dev/full", (status, err),
                  (1, b"b3sum: No space left on device\n"))
    if target.windows:
        target.skip("a key from a directory", "a directory is no standard input there")
    else:
        directory = os.open(os.path.join(d, "adir"), os.O_RDONLY)
        expect("a key from a directory", ["--keyed", "abc"], 1, b"",
               b"Error: Is a directory (os error 21)\n", stdin=directory, cwd=d)
        os.close(directory)
    same_as_official("check a directory", ["-c", "adir"], cwd=d)
    same_as_official("check then a missing file", ["-c", "sums", "nope", "sums"], cwd=d)

    # Output of any length streams in bounded memory (the child's peak resident set).
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    with open(os.devnull, "wb") as null:
        for args in (["-l", "50000000", "abc"], ["--raw", "-l", "50000000", "abc"]):
            check(" ".join(args) + " > /dev/null", run(OURS, args, cwd=d, stdout=null)[0], 0)
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    if target.windows:
        target.skip("-l 50000000: the peak resident set", WINE_MEMORY)
    elif peak > max(before, 64 * 1024):
        failures.append(f"-l 50000000: a child's peak resident set reached {peak} KiB")
    # Past byte 2^64 - 1 the output goes on as the official C's (checked against it in the
    # library's tests); here: no abort, and the seek is honoured.
    status, out, err = run(OURS, ["--seek", str(2**64 - 1), "-l", "3", "abc"], cwd=d)
    check("--seek 2^64-1 -l 3", (status, len(out), err), (0, 6 + 6, b""))
    tail = run(OURS, ["--seek", str(2**64 - 2), "-l", "4", "--no-names", "abc"], cwd=d)[1]
    check("--seek 2^64-2 continues --seek 2^64-1", tail[2:8], out[:6])

    # GNU's check options, alone and combined, against GNU b2sum over the same check files:
    # the same outcome but for the differences the README lists (the official's verdict for an
    # unreadable file, its reason for each malformed line and failing on it, its one WARNING).
    GNU_B2SUM = shutil.which("b2sum", path="/usr/bin")
    if GNU_B2SUM:
        import itertools
        import re
        write("gnu-a", b"a")
        write("gnu-b", b"b")

        def sums_for(tool):
            text = run(tool, ["gnu-a", "gnu-b"], cwd=d)[1].splitlines(keepends=True)
            wrong = text[1][:5] + (b"0" if text[1][5:6] != b"0" else b"1") + text[1][6:]
            missing = text[0].replace(b"gnu-a", b"gnu-nope")
            return b"".join([text[0], wrong, missing, b"not a line\n"])

        write("gnu3.sums", sums_for(OURS))
        write("gnu2.sums", sums_for(GNU_B2SUM))

        def as_gnu(result, options):
            """Our b3sum's outcome in GNU's words, by the README's list of differences."""
            status, out, err = result
            out = re.sub(rb": FAILED \([^\n]*\)\n", b": FAILED open or read\n", out)
            err_lines = [line for line in err.splitlines(keepends=True)
                         if not line.startswith(b"b3sum: WARNING: ")
                         and line != b"b3sum: Invalid check line format\n"]
            # GNU names an unreadable file on stderr as well as in its verdict. (The last of
            # --quiet, --status and --warn holds.)
            modes = [o for o in options if o in ("--quiet", "--status", "--warn")]
            if (not modes or modes[-1] != "--status") and b"gnu-nope" in out:
                err_lines.insert(0, target.in_target_words(
                    b"b3sum: gnu-nope: No such file or directory\n"))
            err = b"".join(err_lines).replace(b"b3sum", b"b2sum").replace(
                b"gnu3.sums", b"gnu2.sums").replace(b"BLAKE3", b"BLAKE2b")
            err = err.replace(b" (os error 2)", b"")
            return status, out, err

        def gnu_words(result):
            status, out, err = result
            return status, out, b"".join(
                line for line in err.splitlines(keepends=True) if b": WARNING: " not in line
            ).replace(GNU_B2SUM.encode(), b"b2sum")

        choices = ["--quiet", "--status", "--warn", "--strict", "--ignore-missing"]
        for size in (1, 2, 3):
            for options in itertools.permutations(choices, size):
                options = list(options)
                ours = as_gnu(run(OURS, ["-c"] + options + ["gnu3.sums"], cwd=d), options)
                gnu = gnu_words(run(GNU_B2SUM, ["-c"] + options + ["gnu2.sums"], cwd=d))
                # The official fails on a malformed line, as GNU does with --strict.
                gnu = (1 if gnu[0] == 0 else gnu[0],) + gnu[1:]
                check(f"-c {' '.join(options)} against GNU b2sum", ours, gnu)

    # GNU's check options.
    write("mixed.sums", ABC + b"  abc\n" + b"0" * 64 + b"  abc\nxx\n" + ABC + b"  nope\n")
    expect("-c mixed", ["-c", "mixed.sums"], 1,
           b"abc: OK\nabc: FAILED\nnope: FAILED (No such file or directory (os error 2))\n",
           b"b3sum: Invalid check line format\n"
           b"b3sum: WARNING: 3 computed checksums did NOT match\n", cwd=d)
    expect("-c --status mixed", ["-c", "--status", "mixed.sums"], 1, b"",
           b"b3sum: nope: No such file or directory (os error 2)\n", cwd=d)
    # The last of --status, --warn and --quiet holds, as in GNU; --warn's line is GNU's.
    expect("-c --status --warn mixed", ["-c", "--status", "--warn", "mixed.sums"], 1,
           b"abc: OK\nabc: FAILED\nnope: FAILED (No such file or directory (os error 2))\n",
           b"b3sum: mixed.sums: 3: improperly formatted BLAKE3 checksum line\n"
           b"b3sum: WARNING: 3 computed checksums did NOT match\n", cwd=d)
    expect("-c --warn from stdin", ["-c", "--warn"], 1, b"",
           b"b3sum: standard input: 1: improperly formatted BLAKE3 checksum line\n"
           b"b3sum: WARNING: 1 computed checksum did NOT match\n", stdin=b"xx\n", cwd=d)
    expect("-c --status --ignore-missing mixed: nothing printed", ["-c", "--status",
           "--ignore-missing", "mixed.sums"], 1, b"", cwd=d)
    expect("-c --ignore-missing mixed", ["-c", "--ignore-missing", "mixed.sums"], 1,
           b"abc: OK\nabc: FAILED\n", b"b3sum: Invalid check line format\n"
           b"b3sum: WARNING: 2 computed checksums did NOT match\n", cwd=d)
    write("present.sums", ABC + b"  abc\n" + ABC + b"  nope\n")
    expect("-c --ignore-missing", ["-c", "--ignore-missing", "present.sums"], 0, b"abc: OK\n",
           cwd=d)
    write("absent.sums", ABC + b"  nope\n")
    expect("-c --ignore-missing, none verified", ["-c", "--ignore-missing", "absent.sums"], 1,
           b"", b"b3sum: absent.sums: no file was verified\n", cwd=d)
    expect("-c --status, all good", ["-c", "--status", "present.sums"], 1, b"",
           b"b3sum: nope: No such file or directory (os error 2)\n", cwd=d)
    expect("-c --status --ignore-missing", ["-c", "--status", "--ignore-missing",
                                            "present.sums"], 0, b"", cwd=d)
    expect("-c --strict -w", ["-cw", "--strict", "present.sums", "--ignore-missing"], 0,
           b"abc: OK\n", cwd=d)
    for flag in ("--status", "--strict", "--ignore-missing", "-w", "--warn"):
        status, out, err = run(OURS, [flag, "abc"], cwd=d)
        check(f"{flag} without --check", (status, out, err.startswith(b"error: ")), (2, b"", True))
    status, _, err = run(OURS, ["-c", "-z", "sums"], cwd=d)
    check("-c -z", (status, err.startswith(b"error: ")), (2, True))

    # -z: NUL ends lines, names unescaped.
    unescaped = target.nameable(["abc", "with space", "new\nline"])
    expect("-z", ["-z"] + unescaped, 0,
           b"".join(ABC + b"  " + n.encode() + b"\0" for n in unescaped), cwd=d)
    expect("-z --tag", ["-z", "--tag", "back\\slash"], 0,
           b"BLAKE3 (back\\slash) = " + ABC + b"\0", cwd=d)

    # -r: directories walked in byte order; links followed only with -L.
    tree = os.path.join(d, "tree")
    for sub in ("b", "a", "a/z", "a/y"):
        os.makedirs(os.path.join(tree, sub), exist_ok=True)
    for f in ("a/z/2", "a/y/1", "a/0", "b/B", "b/a", "c", "C"):
        write(os.path.join("tree", f), f.encode())
    # Wine shows a Windows program the files that Unix links name, never the links
    # (windows_test.py walks Windows' own).
    links = not target.windows
    if links:
        os.symlink("c", os.path.join(tree, "link-to-c"))
        os.symlink(".", os.path.join(tree, "a", "loop"))
    # A FIFO is no regular file, and the walk skips it; Windows has none, and Wine shows a Windows
    # program a Unix one as a plain file.
    if target.windows:
        target.skip("-r skips a FIFO", "Wine shows a Unix FIFO as a file (Windows has no FIFOs)")
    else:
        os.mkfifo(os.path.join(tree, "fifo"))
    status, out, err = run(OURS, ["-r", "tree"], cwd=d)
    names = [line.split(b"  ", 1)[1] for line in out.splitlines()]
    check("-r order", (status, names, err), (0, [b"tree/C", b"tree/a/0", b"tree/a/y/1",
                                                 b"tree/a/z/2", b"tree/b/B", b"tree/b/a",
                                                 b"tree/c"], b""))
    write("tree.sums", out)
    expect("-r output checks back", ["-c", "tree.sums"], 0,
           b"".join(n + b": OK\n" for n in names), cwd=d)
    status, out, err = run(OURS, ["-r", "-L", "tree/"], cwd=d)
    if links:
        check("-r -L follows links, reports the loop",
              (status, b"tree/link-to-c" in out, b"tree/a/loop: Too many levels" in err),
              (1, True, True))
    else:
        target.skip("-r -L follows links, reports the loop", "Wine shows no Unix link")
    check("-r -L, no doubled slash", b"tree//" in out, False)
    check("-r -j 3 equals -r", run(OURS, ["-r", "-j", "3", "tree", "abc"], cwd=d),
          run(OURS, ["-r", "tree", "abc"], cwd=d))
    status, out, err = run(OURS, ["-L", "tree"], cwd=d)
    check("-L without -r", status, 2)
    check("a directory without -r", run(OURS, ["tree"], cwd=d)[2],
          b"b3sum: tree: Is a directory (os error 21)\n")

    # Round trips: every line written checks as OK with -c and no other option.
    roundtrip = target.nameable(["abc", "empty", "big", "with space", "back\\slash", "new\nline",
                                 "carriage\rreturn"])
    for extra in ([], ["--tag"], ["--tag", "-l", "64"], ["--tag", "-l", "1"], ["-j", "3"],
                  ["--no-mmap"]):
        status, out, err = run(OURS, extra + roundtrip, cwd=d)
        write("roundtrip.sums", out)
        status, verdicts, err = run(OURS, ["-c", "roundtrip.sums"], cwd=d)
        check(f"{' '.join(extra)}: checks back", (status, err, verdicts.count(b": OK\n")),
              (0, b"", len(roundtrip)))

    # --files0-from: the names from a NUL-separated list, as given as arguments: the same output,
    # messages and status, with options, -j, -r and -c; across the list's blocks of 65,536
    # names; its own errors.
    listed = roundtrip + ["missing", "tree"]
    write("names.list", b"\0".join(os.fsencode(n) for n in listed) + b"\0")
    for extra in ([], ["--tag"], ["-l", "7"], ["--no-names"], ["-z"], ["-j", "3"], ["--no-mmap"],
                  ["-r"], ["--derive-key", "ctx"]):
        check(f"--files0-from {' '.join(extra)}",
              run(OURS, extra + ["--files0-from=names.list"], cwd=d),
              run(OURS, extra + listed, cwd=d))
    check("--keyed --files0-from", run(OURS, ["--keyed", "--files0-from", "names.list"],
                                       stdin=bytes(range(32)), cwd=d),
          run(OURS, ["--keyed"] + listed, stdin=bytes(range(32)), cwd=d))
    check("--files0-from - (no NUL after the last name)",
          run(OURS, ["--files0-from", "-"], stdin=b"\0".join(os.fsencode(n) for n in listed),
              cwd=d),
          run(OURS, listed, cwd=d))
    write("sums.list", b"roundtrip.sums\0missing\0roundtrip.sums\0")
    check("-c --files0-from", run(OURS, ["-c", "--files0-from", "sums.list"], cwd=d),
          run(OURS, ["-c", "roundtrip.sums", "missing", "roundtrip.sums"], cwd=d))
    many_names = ["abc"] * 65535 + [""] + ["empty"] * 3
    write("many.list", b"\0".join(os.fsencode(n) for n in many_names))
    for extra in ([], ["-j", "2"]):
        check(f"{' '.join(extra)} --files0-from: a list of 65,539 names",
              run(OURS, extra + ["--files0-from", "many.list"], cwd=d),
              (1, (ABC + b"  abc\n") * 65535 + (EMPTY + b"  empty\n") * 3,
               b"b3sum: many.list:65536: invalid zero-length file name\n"))
    expect("--files0-from - naming -", ["--files0-from=-"], 1, ABC + b"  abc\n",
           b"b3sum: -:2: when reading file names from standard input, no file name of '-' "
           b"allowed\n", stdin=b"abc\0-\0", cwd=d)
    expect("--files0-from of a missing list", ["--files0-from=nope"], 1, b"",
           b"Error: cannot open 'nope' for reading: No such file or directory (os error 2)\n",
           cwd=d)
    expect("--files0-from of an empty list", ["--files0-from=/dev/null"], 0, b"", cwd=d)
    for args in (["--files0-from=names.list", "abc"], ["--keyed", "--files0-from=-"],
                 ["--files0-from=a", "--files0-from=b"]):
        status, out, err = run(OURS, args, cwd=d)
        check(" ".join(args), (status, out, err.startswith(b"error: the argument '")),
              (2, b"", True))

    # --progress in a pseudo-terminal: a bar, redrawn, and a clean line left behind.
    slow = os.path.join(d, "slow")
    with open(slow, "wb") as f:
        f.truncate(96 << 20)
    def progress_run(args):
        return terminal.run_slowly_on_a_terminal([OURS, "--progress", "--no-mmap"] + args, d,
                                                 ENV, "slow", 20000)
    if os.environ.get("FASTBLAKE_FAIL_IO") and not target.windows:
        status, out, drawn, seconds = progress_run(["slow", "abc"])
        check("--progress: status and output", (status, out.count(b"\n")), (0, 2))
        check("--progress: a bar with sizes, rate and time left",
              all(x in drawn for x in (b"slow  [", b"/ 96.0 MiB", b"/s", b"left", b"total (")),
              True)
        draws = drawn.count(b"\x1b[Kslow  [")
        check(f"--progress: redrawn, at most ten times a second ({draws} in {seconds:.1f} s)",
              2 <= draws <= 10 * seconds + 1, True)
        check("--progress: a clean line at the end", drawn.endswith(b"\r\x1b[K\x1b[1A\r\x1b[K"),
              True)
    status, out, err = run(OURS, ["--progress", "abc"], cwd=d)
    check("--progress: nothing on stderr when it is not a terminal", (status, err), (0, b""))

print(target.skipped(), end="")
if failures:
    print("\n".join(failures))
    print(f"{len(failures)} failure(s)")
    sys.exit(1)
print("all b3sum CLI cases pass" + ("" if OFFICIAL else " (the official b3sum is not installed)"))
