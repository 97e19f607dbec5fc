#!/usr/bin/env python3
"""The Windows builds of b3sum, b2sum and bao, run under Wine, against what the Linux tools
print (the official b3sum and GNU's b2sum of this system; bao against BLAKE3 itself and its own
round trips), names adjusted as Windows gives them: names in any script from the UTF-16 command
line, '\\' as a folder separator (the official b3sum prints '/' there and refuses '\\' in check
files), wildcards expanded by the program, binary standard streams (no CR added, none taken
away), check files with CRLF line ends, '-' for standard input, GNU's '*' (binary mode) on
Windows, long paths, directories walked, errors with Windows' words and numbers.

Usage: windows_test.py RUNNER TOOLS_DIR
       (RUNNER: the emulator, cmake/toolchains/wine-run.sh; TOOLS_DIR: b3sum.exe, b2sum.exe, bao.exe)
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

import target_system

RUNNER = os.path.abspath(sys.argv[1])
TOOLS = os.path.abspath(sys.argv[2])
target_system.use(os.path.join(TOOLS, "b3sum.exe"))
B3SUM, B2SUM, BAO = (os.path.join(TOOLS, name + ".exe") for name in ("b3sum", "b2sum", "bao"))
LINUX_B3SUM = shutil.which("b3sum", path="/usr/bin")
LINUX_B2SUM = shutil.which("b2sum", path="/usr/bin:/bin")
# Wine makes the Windows command line from the arguments' bytes in the locale's character set.
ENV = {k: v for k, v in os.environ.items() if not k.startswith("LC_") and k != "LANG"}
ENV["LC_ALL"] = "C.UTF-8"
failures = []


def run(program, args, stdin=b"", cwd=None):
    """STDIN: bytes, or an open file (read from its offset)."""
    command = [RUNNER, program] if program.endswith(".exe") else [program]
    given = {"input": stdin} if isinstance(stdin, bytes) else {"stdin": stdin}
    p = target_system.run(command + args, **given, capture_output=True, cwd=cwd, env=ENV,
                          timeout=300)
    return p.returncode, p.stdout, p.stderr


def check(name, got, want):
    if got != want:
        failures.append(f"{name}:\n  got  {got!r}\n  want {want!r}")


def check_match(name, got, want):
    """got and want: tuples equal but for their last items, text that the pattern wanted ends."""
    if got[:-1] != want[:-1] or not re.fullmatch(want[-1], got[-1], re.DOTALL):
        failures.append(f"{name}:\n  got  {got!r}\n  want {want!r}")


ABC = b"6437b3ac38465133ffb63b75273a8db548c558465d79db03fd359c6cd5bd9d85"
# Names of every kind Windows allows: scripts, combining marks, a character outside the BMP.
NAMES = ["plain.txt", "with space.txt", "caf\u00e9.txt", "\u0395\u03bb\u03bb\u03b7\u03bd\u03b9\u03ba\u03ac",
         "\u65e5\u672c\u8a9e.bin", "e\u0301motion \U0001F600.dat", "\u041a\u0438\u0440\u0438\u043b\u043b\u0438\u0446\u0430"]
# Bytes a text mode would change: CR LF, a lone LF, ^Z.
AWKWARD = b"line one\r\nline two\n\x1a\r\n\x00\xff end"

with tempfile.TemporaryDirectory() as d:
    def path(*parts):
        return os.path.join(d, *parts)

    def write(name, data):
        os.makedirs(os.path.dirname(path(name)), exist_ok=True)
        with open(path(name), "wb") as f:
            f.write(data)

    for i, name in enumerate(NAMES):
        write(name, AWKWARD * (i + 1))
    write("sub/inner.txt", b"abc")
    write("sub/deeper/last.txt", b"abc" * 1000)
    write("big", bytes(range(256)) * 40000)  # 10 MB: mapped in windows, on the pool

    # ---- b3sum ----
    if LINUX_B3SUM:
        check("b3sum: names in every script, as the Linux b3sum prints them",
              run(B3SUM, NAMES + ["big"], cwd=d), run(LINUX_B3SUM, NAMES + ["big"], cwd=d))
        for option in (["--no-mmap"], ["--num-threads", "1"], ["-l", "100"],
                       ["--derive-key", "ctx"], ["--no-names"]):
            check(f"b3sum {' '.join(option)}", run(B3SUM, option + NAMES, cwd=d),
                  run(LINUX_B3SUM, option + NAMES, cwd=d))
        check("b3sum: standard input, binary", run(B3SUM, [], AWKWARD * 3), run(LINUX_B3SUM, [], AWKWARD * 3))
        check("b3sum: '-'", run(B3SUM, ["-"], AWKWARD), run(LINUX_B3SUM, ["-"], AWKWARD))
    # Standard input a regular file (cmd's <), read from its offset as a stream.
    for tool, linux in ((B3SUM, LINUX_B3SUM), (B2SUM, LINUX_B2SUM)):
        if linux:
            outcomes = []
            for program in (tool, linux):
                with open(path("big"), "rb") as f:
                    f.seek(1000)
                    outcomes.append(run(program, ["-"], f))
            got, want = outcomes
            if tool == B2SUM:
                want = (want[0], want[1].replace(b"  -", b" *-"), want[2])
            check(f"{os.path.basename(tool)}: standard input a file at an offset", got, want)
        check("b3sum --keyed", run(B3SUM, ["--keyed", "plain.txt"], b"k" * 32, cwd=d),
              run(LINUX_B3SUM, ["--keyed", "plain.txt"], b"k" * 32, cwd=d))
        # --raw's bytes as they are: a text mode would add a CR before each LF.
        check("b3sum --raw", run(B3SUM, ["--raw", "-l", "4096", "big"], cwd=d),
              run(LINUX_B3SUM, ["--raw", "-l", "4096", "big"], cwd=d))
    # '\' separates folders: printed as '/', as the official b3sum prints it on Windows.
    check("b3sum: a backslash printed as '/'", run(B3SUM, ["sub\\inner.txt"], cwd=d),
          (0, ABC + b"  sub/inner.txt\n", b""))
    check("b3sum --tag: a backslash printed as '/'", run(B3SUM, ["--tag", "sub\\inner.txt"], cwd=d),
          (0, b"BLAKE3 (sub/inner.txt) = " + ABC + b"\n", b""))
    # Wildcards expanded by the program, as the official's (cmd does not); quoted ones are not.
    status, out, err = run(B3SUM, ["*.txt"], cwd=d)
    check("b3sum: *.txt expanded", (status, sorted(out.splitlines()), err),
          (0, sorted(run(B3SUM, [n for n in NAMES if n.endswith(".txt")], cwd=d)[1].splitlines()), b""))
    status, out, err = run(B3SUM, ["nothing*matches"], cwd=d)
    check_match("b3sum: a wildcard that matches nothing stays a name",
                (status, out, err.decode()), (1, b"", r"b3sum: nothing\*matches: .+ \(os error 2\)\n"))
    # Windows' own words for an OS error, with the Win32 error's number, as Rust prints it.
    status, out, err = run(B3SUM, ["missing", "plain.txt"], cwd=d)
    check("b3sum: a missing file fails, the rest is hashed", (status, out.count(b"\n")), (1, 1))
    check_match("b3sum: a missing file's message", (err.decode(),), (r"b3sum: missing: .+ \(os error 2\)\n",))

    # --check: LF and CRLF lines, names in every script, a failure.
    sums = run(B3SUM, NAMES + ["sub\\inner.txt"], cwd=d)[1]
    write("sums.lf", sums)
    write("sums.crlf", sums.replace(b"\n", b"\r\n"))
    oks = b"".join(line.split(b"  ", 1)[1] + b": OK\n" for line in sums.splitlines())
    for name in ("sums.lf", "sums.crlf"):
        check(f"b3sum --check {name}", run(B3SUM, ["--check", name], cwd=d), (0, oks, b""))
    if LINUX_B3SUM:
        check("b3sum --check, a file the Linux b3sum wrote", run(B3SUM, ["-c", "-"], run(LINUX_B3SUM, NAMES, cwd=d)[1], cwd=d),
              run(LINUX_B3SUM, ["-c", "-"], run(LINUX_B3SUM, NAMES, cwd=d)[1], cwd=d))
    write("bad.sums", b"0" * 64 + b"  plain.txt\r\n")
    status, out, err = run(B3SUM, ["-c", "bad.sums"], cwd=d)
    check("b3sum --check: a mismatch", (status, out), (1, b"plain.txt: FAILED\n"))
    # A backslash in a check file, escaped or not, is refused there.
    write("backslash.sums", b"\\" + ABC + b"  sub\\\\inner.txt\n" + ABC + b"  sub\\inner.txt\n")
    status, out, err = run(B3SUM, ["-c", "backslash.sums"], cwd=d)
    check("b3sum --check: backslashes refused", (status, out, err.count(b"b3sum: Backslash in path\n")),
          (1, b"", 2))
    # --recursive: the walk's names with '/', in order.
    check("b3sum -r", run(B3SUM, ["-r", "sub"], cwd=d),
          (0, run(B3SUM, ["sub/deeper/last.txt"], cwd=d)[1] + ABC + b"  sub/inner.txt\n", b""))
    # A folder that holds itself (a Unix link, which Wine shows as the folder it names): the walk
    # knows the folder by its identity, and says so in Windows' words (ERROR_CANT_RESOLVE_FILENAME).
    write("cycle/file", b"abc")
    os.symlink(path("cycle"), path("cycle", "again"))
    status, out, err = run(B3SUM, ["-r", "cycle"], cwd=d)
    check_match("b3sum -r: a cycle of folders", (status, out, err.decode()),
                (1, ABC + b"  cycle/file\n", r"b3sum: cycle/again: .+ \(os error 1921\)\n"))
    # Paths past MAX_PATH (260), relative and absolute.
    deep = os.path.join(*(["d" * 60] * 6), "file.txt")
    write(deep, b"abc")
    check("b3sum: a path of 370 characters", run(B3SUM, [deep], cwd=d),
          (0, ABC + b"  " + deep.encode() + b"\n", b""))
    check("b3sum: a path of 370 characters under --check",
          run(B3SUM, ["-c", "-"], ABC + b"  " + deep.encode() + b"\r\n", cwd=d),
          (0, deep.encode() + b": OK\n", b""))

    # ---- b2sum: GNU's lines, with its '*' (binary mode) as on Windows ----
    if LINUX_B2SUM:
        def starred(output):
            """GNU's lines in binary mode: '*' before the name."""
            return re.sub(rb"(^|[\n\0])(\\?[0-9a-f]+)  ", rb"\1\2 *", output)
        linux = run(LINUX_B2SUM, NAMES, cwd=d)
        check("b2sum: binary mode, names in every script", run(B2SUM, NAMES, cwd=d),
              (linux[0], starred(linux[1]), linux[2]))
        check("b2sum -t: GNU's text-mode lines", run(B2SUM, ["-t"] + NAMES, cwd=d),
              run(LINUX_B2SUM, ["-t"] + NAMES, cwd=d))
        for option in (["--tag"], ["-l", "256"], ["-z"]):
            got = run(B2SUM, option + NAMES, cwd=d)
            want = run(LINUX_B2SUM, option + NAMES, cwd=d)
            if option != ["--tag"]:
                want = (want[0], starred(want[1]), want[2])
            check(f"b2sum {' '.join(option)}", got, want)
        linux = run(LINUX_B2SUM, ["-"], AWKWARD)
        check("b2sum: standard input from a pipe, binary", run(B2SUM, ["-"], AWKWARD),
              (0, starred(linux[1]), b""))
        # -c with CRLF lines, either marker.
        sums = run(B2SUM, NAMES, cwd=d)[1]
        write("b2.crlf", sums.replace(b"\n", b"\r\n"))
        check("b2sum -c, CRLF lines", run(B2SUM, ["-c", "b2.crlf"], cwd=d),
              run(LINUX_B2SUM, ["-c", "-"], run(LINUX_B2SUM, NAMES, cwd=d)[1], cwd=d))
        def after_program(outcome):
            """The outcome with its message's words after the program's name (argv[0])."""
            return outcome[0], outcome[1], outcome[2].split(b": ", 1)[-1]
        check("b2sum: a missing file, quoted as GNU's quotes it in a UTF-8 locale",
              after_program(run(B2SUM, ["caf\u00e9 missing"], cwd=d)),
              after_program(run(LINUX_B2SUM, ["caf\u00e9 missing"], cwd=d)))
    # A backslash in a name is GNU's to escape (it is not b3sum's '/').
    check("b2sum: a name with a backslash, escaped", run(B2SUM, ["-t", "sub\\inner.txt"], cwd=d)[1][:1], b"\\")
    status, out, err = run(B2SUM, ["--help"])
    check("b2sum --help: binary is the default there", b"read in binary mode (default unless reading tty stdin)" in out, True)

    # ---- bao: binary encodings and decodings through files and pipes ----
    status, out, err = run(BAO, ["hash", "big"], cwd=d)
    check("bao hash is BLAKE3", (status, out), (0, run(B3SUM, ["--no-names", "big"], cwd=d)[1]))
    check("bao hash of standard input", run(BAO, ["hash"], AWKWARD)[1],
          run(B3SUM, ["--no-names"], AWKWARD)[1])
    for name in ("big", NAMES[2], NAMES[5]):
        data = open(path(name), "rb").read()
        digest = run(BAO, ["hash", name], cwd=d)[1].strip().decode()
        check(f"bao encode {name!r}", run(BAO, ["encode", name, name + ".bao"], cwd=d), (0, b"", b""))
        check(f"bao decode {name!r} to standard output, byte for byte",
              run(BAO, ["decode", digest, name + ".bao"], cwd=d), (0, data, b""))
        check(f"bao decode {name!r} from standard input",
              run(BAO, ["decode", digest], open(path(name + ".bao"), "rb").read(), cwd=d), (0, data, b""))
        check(f"bao encode --outboard {name!r}",
              run(BAO, ["encode", name, "--outboard", name + ".obao"], cwd=d), (0, b"", b""))
        check(f"bao decode --outboard {name!r}",
              run(BAO, ["decode", digest, name, "--outboard", name + ".obao"], cwd=d), (0, data, b""))
        start, count = len(data) // 3, 5000
        slice_ = run(BAO, ["slice", str(start), str(count), name + ".bao"], cwd=d)
        check(f"bao slice {name!r}", slice_[0], 0)
        check(f"bao decode-slice {name!r}",
              run(BAO, ["decode-slice", digest, str(start), str(count)], slice_[1], cwd=d),
              (0, data[start:start + count], b""))
    digest = run(BAO, ["hash", "big"], cwd=d)[1].strip().decode()
    corrupt = bytearray(open(path("big.bao"), "rb").read())
    corrupt[len(corrupt) // 2] ^= 1
    write("corrupt.bao", bytes(corrupt))
    status, out, err = run(BAO, ["decode", digest, "corrupt.bao", "corrupt.out"], cwd=d)
    check_match("bao decode: a corrupt encoding fails", (status, err.decode()), (1, r".*hash mismatch\n"))
    status, out, err = run(BAO, ["encode", "missing", "x.bao"], cwd=d)
    check_match("bao: a missing input's message", (status, err.decode()), (1, r".+ \(os error 2\)\n"))

if failures:
    print("\n".join(failures))
    print(f"{len(failures)} failed")
    sys.exit(1)
print("the Windows tools agree with the Linux ones")
