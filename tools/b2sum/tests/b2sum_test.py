#!/usr/bin/env python3
"""CLI tests of fastblake's b2sum: a drop-in replacement for GNU coreutils' b2sum (9.1, Debian
12's). Every case of the GNU command line runs both tools, with the same arguments, standard
input, directory and environment (LC_ALL=C, or the locale FASTBLAKE_TEST_LOCALE names, so that the
suite runs under UTF-8 locales too), and requires the same exit status, standard output and
standard error, byte for byte. A few expected outputs are also written out (cross-checked
with Python's hashlib), so the test means something where GNU's b2sum is missing. Our additions
(-a/--algorithm, -j/--jobs, --num-threads, tags of the other algorithms) are tested on their own,
with round trips: every line ours writes checks as OK.

The helpers are in b2sum_support.py; the check-mode cases in b2sum_check_cases.py.

Usage: b2sum_test.py PATH_TO_OUR_B2SUM
       B2SUM_TEST_GNU_ONLY=1 b2sum_test.py /usr/bin/b2sum   (self-check: skips our additions)
"""
import concurrent.futures
import os
import sys
import tempfile

import b2sum_check_cases
import b2sum_support
from b2sum_support import on_target, target
from b2sum_support import (ABC, ABC_DATA, BIG, EMPTY, GNU, GNU_ONLY, Q, TEXT, USAGE_TAIL, b2,
                           b2bp, b2s, b2sp, check, failures, odd_names, run, unprintable_names)



def windows_only_skip(name, reason):
    """True, the case skipped with the reason, on Windows; False elsewhere."""
    if target.windows:
        target.skip(name, reason)
    return target.windows


with tempfile.TemporaryDirectory() as d:
    (path, write, run_ours, expect, same_as_gnu, help_like_gnu,
     version_like_gnu) = b2sum_support.in_directory(d)

    # ---------------------------------------------------------------------------------------
    # Files.
    # (Their contents and names are in b2sum_support.py.)
    write("abc", ABC_DATA)
    write("empty", b"")
    write("text", TEXT)
    write("crlf.txt", b"one\r\ntwo\r\n")
    write("big", BIG)
    write("six", b"abcdef")
    for n in odd_names:
        write(n, ABC_DATA)
    write("-dash", ABC_DATA)
    os.mkdir(path("dir"))
    many = []
    for i in range(20):
        many.append(write(f"f{i:02}", bytes((i * 37 + j) % 256 for j in range(i * 4099))))

    # Two halves at a time: under Wine a run spends most of its time waiting on Wine's server,
    # and one run at a time left a core idle. They share the files above and write none of the
    # same names.
    def against_hashlib_and_gnu():
        # ---------------------------------------------------------------------------------------
        # Written-out expectations (hashlib), which hold for GNU's b2sum too.
        expect("one file", ["abc"], 0, ABC + b"  abc\n")
        expect("stdin, no operand", [], 0, ABC + b"  -\n", stdin=ABC_DATA)
        expect("stdin, -", ["-"], 0, ABC + b"  -\n", stdin=ABC_DATA)
        expect("several files", ["abc", "empty", "text", "big"], 0,
               ABC + b"  abc\n" + EMPTY + b"  empty\n" + b2(TEXT) + b"  text\n" + b2(BIG) +
               b"  big\n")
        for bits in (8, 16, 256, 504, 512):
            expect(f"-l {bits}", ["-l", str(bits), "abc", "big"], 0,
                   b2(ABC_DATA, bits) + b"  abc\n" + b2(BIG, bits) + b"  big\n")
        expect("-l 0 is the default length", ["-l", "0", "abc"], 0, ABC + b"  abc\n")
        expect("-b", ["-b", "abc"], 0, ABC + b" *abc\n")
        expect("-t", ["-t", "abc"], 0, ABC + b"  abc\n")
        expect("--tag", ["--tag", "abc"], 0, b"BLAKE2b (abc) = " + ABC + b"\n")
        expect("--tag -l 256", ["--tag", "-l", "256", "abc"], 0,
               b"BLAKE2b-256 (abc) = " + b2(ABC_DATA, 256) + b"\n")
        expect("--tag -l 512", ["--tag", "-l", "512", "abc"], 0, b"BLAKE2b (abc) = " + ABC + b"\n")
        expect("escaped newline", ["new\nline"], 0, b"\\" + ABC + b"  new\\nline\n")
        expect("escaped backslash", ["back\\slash"], 0, b"\\" + ABC + b"  back\\\\slash\n")
        expect("escaped carriage return", ["car\rret"], 0, b"\\" + ABC + b"  car\\rret\n")
        expect("--tag escaped", ["--tag", "new\nline"], 0,
               b"\\BLAKE2b (new\\nline) = " + ABC + b"\n")
        expect("-z: NUL ends lines, no escaping", ["-z", "new\nline", "back\\slash"], 0,
               ABC + b"  new\nline\0" + ABC + b"  back\\slash\0")
        expect("-z --tag", ["-z", "--tag", "car\rret"], 0, b"BLAKE2b (car\rret) = " + ABC + b"\0")
        expect("missing among good", ["abc", "missing", "empty"], 1,
               ABC + b"  abc\n" + EMPTY + b"  empty\n",
               b"b2sum: missing: No such file or directory\n")
        expect("directory", ["dir"], 1, b"", b"b2sum: dir: Is a directory\n")
        expect("quoted name in a message", ["no such"], 1, b"",
               b"b2sum: 'no such': No such file or directory\n")
        expect("-l 7", ["-l", "7", "abc"], 1, b"",
               b"b2sum: invalid length: " + Q(b"7") + b"\nb2sum: length is not a multiple of 8\n")
        expect("-l 520", ["-l", "520", "abc"], 1, b"",
               b"b2sum: invalid length: " + Q(b"520") + b"\nb2sum: maximum digest length for " +
               Q(b"BLAKE2b") + b" is 512 bits\n")
        expect("-l abc", ["-l", "abc", "abc"], 1, b"", b"b2sum: invalid length: " + Q(b"abc") + b"\n")
        expect("--tag -t", ["--tag", "-t", "abc"], 1, b"",
               b"b2sum: --tag does not support --text mode\n" + USAGE_TAIL)
        expect("-c --tag", ["-c", "--tag", "x"], 1, b"",
               b"b2sum: the --tag option is meaningless when verifying checksums\n" + USAGE_TAIL)
        expect("-c -z", ["-c", "-z", "x"], 1, b"",
               b"b2sum: the --zero option is not supported when verifying checksums\n" + USAGE_TAIL)
        expect("-c -b", ["-c", "-b", "x"], 1, b"",
               b"b2sum: the --binary and --text options are meaningless when verifying checksums\n"
               + USAGE_TAIL)
        expect("unknown option", ["--bogus"], 1, b"",
               b"b2sum: unrecognized option '--bogus'\n" + USAGE_TAIL)

        write("ok.sums", ABC + b"  abc\n" + EMPTY.upper() + b"  empty\n")
        expect("check OK, uppercase hex", ["-c", "ok.sums"], 0, b"abc: OK\nempty: OK\n")
        write("mixed.sums", ABC + b"  abc\n" + ABC + b"  empty\n" + ABC + b"  missing\nxx\n")
        expect("check FAILED", ["-c", "mixed.sums"], 1,
               b"abc: OK\nempty: FAILED\nmissing: FAILED open or read\n",
               b"b2sum: missing: No such file or directory\n"
               b"b2sum: WARNING: 1 line is improperly formatted\n"
               b"b2sum: WARNING: 1 listed file could not be read\n"
               b"b2sum: WARNING: 1 computed checksum did NOT match\n")
        expect("check -w", ["-c", "-w", "mixed.sums"], 1,
               b"abc: OK\nempty: FAILED\nmissing: FAILED open or read\n",
               b"b2sum: missing: No such file or directory\n"
               b"b2sum: mixed.sums: 4: improperly formatted BLAKE2b checksum line\n"
               b"b2sum: WARNING: 1 line is improperly formatted\n"
               b"b2sum: WARNING: 1 listed file could not be read\n"
               b"b2sum: WARNING: 1 computed checksum did NOT match\n")
        write("missing.sums", ABC + b"  missing\n")
        expect("check --ignore-missing, nothing verified", ["-c", "--ignore-missing", "missing.sums"],
               1, b"", b"b2sum: missing.sums: no file was verified\n")
        write("junk.sums", b"xx\n")
        expect("check, no properly formatted line", ["-c", "junk.sums"], 1, b"",
               b"b2sum: junk.sums: no properly formatted checksum lines found\n")
        write("reversed.sums", b2(ABC_DATA, 8) + b" abc\n" + ABC + b"\tempty\n")
        expect("check, one space or a tab (BSD reversed), inferred length", ["-c", "reversed.sums"],
               1, b"abc: OK\nempty: FAILED\n",
               b"b2sum: WARNING: 1 computed checksum did NOT match\n")
        write("escaped.sums", b"\\" + ABC + b"  new\\nline\n\\" + ABC + b"  back\\\\slash\n\\" + ABC
              + b"  car\\rret\n\\" + ABC + b"  m\\\\i\\nx\\r\n")
        expect("check, escaped names: only those with a newline escaped in the output",
               ["-c", "escaped.sums"], 0,
               b"\\new\\nline: OK\nback\\slash: OK\ncar\rret: OK\n\\m\\\\i\\nx\\r: OK\n")

        # ---------------------------------------------------------------------------------------
        # Hashing, against GNU.
        same_as_gnu("one file", ["abc"])
        same_as_gnu("empty file", ["empty"])
        same_as_gnu("text file", ["text"])
        same_as_gnu("CRLF text file", ["crlf.txt"])
        same_as_gnu("1 MiB file", ["big"])
        same_as_gnu("stdin, no operand", [], ABC_DATA)
        same_as_gnu("stdin, -", ["-"], ABC_DATA)
        same_as_gnu("empty stdin", [])
        same_as_gnu("stdin twice", ["-", "-"], ABC_DATA)
        same_as_gnu("stdin among files", ["abc", "-", "empty"], TEXT)
        same_as_gnu("1 MiB stdin", ["-"], BIG)
        same_as_gnu("stdin a file at an offset", [], ("six", 3))
        same_as_gnu("stdin a file at its end", ["-"], ("six", 6))
        same_as_gnu("stdin a 1 MiB file at an offset", ["-", "-"], ("big", 12345))
        windows_only_skip("stdin a directory", "a directory is no standard input there") or \
            same_as_gnu("stdin a directory", [], ("dir", 0))
        same_as_gnu("several files", ["abc", "empty", "text", "big"])
        same_as_gnu("the same file twice", ["abc", "abc"])
        same_as_gnu("all the odd names", target.nameable(odd_names))
        for n in odd_names:
            same_as_gnu(f"name {n!r}", [n])
            same_as_gnu(f"name {n!r} --tag", ["--tag", n])
            same_as_gnu(f"name {n!r} -z", ["-z", n])
            same_as_gnu(f"name {n!r} -z --tag -l 8", ["-z", "--tag", "-l", "8", n])
        # Names quoted in messages (quotef) and values quoted in them (quote), in every locale.
        for n in unprintable_names + ["\u00e9", "it's", "tab\tname"]:
            same_as_gnu(f"missing name {n!r}", ["missing-" + n])
            same_as_gnu(f"-l {n!r}", ["-l", n])
        same_as_gnu("checking missing unprintable names",
                    ["-c"], b"".join(ABC + b"  missing-" + os.fsencode(n) + b"\n"
                                     for n in unprintable_names))
        same_as_gnu("name -dash after --", ["--", "-dash"])
        same_as_gnu("name ./-dash", ["./-dash"])
        same_as_gnu("absolute name", [os.path.join(d, "abc")])
        same_as_gnu("missing file", ["missing"])
        same_as_gnu("missing among good", ["abc", "missing", "empty"])
        same_as_gnu("missing among good, merged streams", ["abc", "missing", "empty", "dir", "text"],
                    merge=True)
        same_as_gnu("directory", ["dir"])
        same_as_gnu("directory among good", ["abc", "dir", "empty"])
        windows_only_skip("not a directory", "Windows finds no folder abc (ERROR_PATH_NOT_FOUND: "
                          "ENOENT)") or same_as_gnu("not a directory", ["abc/x"])
        same_as_gnu("empty name", [""])
        same_as_gnu("-- then names", ["--", "abc", "-l", "8"])
        same_as_gnu("options after names", ["abc", "-l", "8", "empty"])
        same_as_gnu("POSIXLY_CORRECT: options after names are names", ["abc", "-l", "8"],
                    env={"POSIXLY_CORRECT": "1"})
        if os.geteuid() != 0:
            write("unreadable", ABC_DATA)
            os.chmod(path("unreadable"), 0)
            same_as_gnu("unreadable file", ["abc", "unreadable"])
        for f in ("/proc/version", "/sys/kernel/mm/transparent_hugepage/enabled", "/dev/null"):
            if os.path.exists(f):
                same_as_gnu(f"special file {f}", [f])

        # Quoting of names in messages (shell-escape style, with ':' quoted too), on missing files.
        for n in ["sp ace", "new\nline2", "b\\s", os.fsdecode(b"bad\xfe"), "a:b", ":", "it's",
                  "it's\nx", "a'b\"c", "'", "a'", 'a"b', "~x", "a~", "~", "x=y", "=", "", "t\tab",
                  "#h", "a#", "!x", "$x", "*", "?", "tr ", " ", "-x", "\u00e9",
                  os.fsdecode(b"\xc3\xa9x"), os.fsdecode(b"\x80"), "%", "+", ",", ".x", "@", "[",
                  "]", "{", "}", "{}", "a{b", "|", "&", ";", "<", ">", "(", ")", "a)", "`", "^",
                  "\x01", "\x7f", "\x1b", "a\\\nb", "a\\", "\\", "a\n", "\n", "a\rb", "a b:c",
                  "dir/", "abc/"]:
            if n == "abc/" and windows_only_skip(f"quoting of {n!r}", "Windows' C runtime refuses a "
                                                 "file's name ending in '/' (EINVAL)"):
                continue
            same_as_gnu(f"quoting of {n!r}", ["--", n])

        # Lengths.
        for l in ["0", "8", "16", "128", "256", "384", "504", "512", "08", "+8", " 8", "\t8", " +8",
                  "0008"]:
            same_as_gnu(f"-l {l!r}", ["-l", l, "abc", "big"])
        for l in ["7", "1", "4", "513", "520", "1024", "010", "abc", "-8", "-0", "", "8x", "8 ",
                  "0x8", "1e3", "8k", " 520", "99999999999999999999", "18446744073709551616",
                  "18446744073709551615", "18446744073709551608", "a'b", "a\nb", "a\\b",
                  "\u00e9", "a b", '"', "\t", "\x01", "-"]:
            same_as_gnu(f"invalid -l {l!r}", ["-l", l, "abc"])
        same_as_gnu("-l8 attached", ["-l8", "abc"])
        same_as_gnu("--length=16", ["--length=16", "abc"])
        same_as_gnu("--length 16", ["--length", "16", "abc"])
        same_as_gnu("--len=16 abbreviated", ["--len=16", "abc"])
        same_as_gnu("-l twice, last wins", ["-l", "8", "-l", "16", "abc"])
        same_as_gnu("-l 8 then -l 0", ["-l", "8", "-l", "0", "abc"])
        same_as_gnu("-l 520 then -l 7: the multiple of 8 is checked as parsed",
                    ["-l", "520", "-l", "7", "abc"])
        same_as_gnu("-l 520 then -l 8", ["-l", "520", "-l", "8", "abc"])
        same_as_gnu("-l 7 before an unknown option", ["-l", "7", "--bogus", "abc"])
        same_as_gnu("unknown option before -l 7", ["--bogus", "-l", "7", "abc"])
        same_as_gnu("-l 520 before an unknown option", ["-l", "520", "--bogus", "abc"])
        same_as_gnu("-l 520 with --tag -t", ["-l", "520", "--tag", "-t", "abc"])
        same_as_gnu("-l 520 with -c", ["-l", "520", "-c", "x"])
        same_as_gnu("-l 520 on a missing file", ["-l", "520", "missing"])
        same_as_gnu("-l missing its argument", ["-l"])
        same_as_gnu("--length missing its argument", ["--length"])
        same_as_gnu("-l with stdin", ["-l", "256"], ABC_DATA)

        # --tag, -b, -t, -z.
        for args in (["--tag"], ["--tag", "-l", "256"], ["--tag", "-l", "8"], ["--tag", "-l", "0"],
                     ["--tag", "-l", "512"], ["--tag", "-b"], ["-b", "--tag"], ["-t", "--tag"],
                     ["--tag", "-t"], ["-b", "-t", "--tag"], ["--tag", "-t", "-b"],
                     ["--tag", "-b", "-t"], ["-b"], ["-t"], ["-b", "-t"], ["-t", "-b"],
                     ["--binary"], ["--text"], ["-z"], ["-z", "--tag"], ["-z", "-b"],
                     ["-z", "-l", "8"], ["--zero", "--tag", "-l", "256"], ["-bz"], ["-tl", "8"],
                     ["-bl8"], ["-zbl", "16"], ["--ta"], ["--te"], ["--bin"], ["--ze"]):
            same_as_gnu(" ".join(args), args + ["abc", "new\nline", "empty"])
            same_as_gnu(" ".join(args) + " on stdin", args, ABC_DATA)
        same_as_gnu("--tag -z, names with newline and backslash",
                    ["--tag", "-z", "new\nline", "back\\slash", "m\\i\nx\r"])
        same_as_gnu("--tag -t with -c", ["--tag", "-t", "-c", "x"])
        same_as_gnu("-z, --tag -t and -c", ["-z", "--tag", "-t", "-c", "x"])

        # Options that only make sense with -c, without it; and -c with options it rejects.
        for args in (["--ignore-missing"], ["--status"], ["-w"], ["--warn"], ["--quiet"],
                     ["--strict"], ["--quiet", "--strict"], ["--strict", "--quiet"],
                     ["--ignore-missing", "--status"], ["--status", "--ignore-missing"],
                     ["-w", "--status"], ["--ign"], ["--stat"], ["--stri"],
                     ["-c", "--tag"], ["--tag", "-c"], ["-c", "-z"], ["-c", "-b"], ["-c", "-t"],
                     ["-c", "--binary"], ["-c", "--text"], ["-c", "--tag", "-z"],
                     ["-c", "--tag", "-b"], ["-c", "-b", "-z"], ["-c", "-t", "--status"],
                     ["-c", "-z", "--bogus"], ["--tag", "-t", "--status"], ["-cz"], ["-cb"]):
            same_as_gnu(" ".join(args), args + ["abc"])

        # Option errors, --help, --version.
        for args in (["--bogus"], ["-x"], ["-x", "--bogus"], ["--bogus", "-x"], ["-c-"],
                     ["--tag=1"], ["--check=x"], ["--help=x"], ["--version=1"], ["--st"],
                     ["--t"], ["--s"], ["--", "--bogus"], ["-"], ["--bogus", "--help"],
                     ["--bogus", "--version"], ["-l", "7", "--help"], ["-lx", "--version"],
                     ["-Q"], ["-?"]):
            same_as_gnu("options " + " ".join(args), args + ["abc"])
        help_like_gnu("--help", ["--help"])
        help_like_gnu("--he abbreviated", ["--he"])
        help_like_gnu("--help with other options and names", ["-l", "8", "--help", "abc"])
        help_like_gnu("--help before an unknown option", ["--help", "--bogus"])
        help_like_gnu("--help before -l 7", ["--help", "-l", "7"])
        help_like_gnu("--help before -c --tag", ["--help", "-c", "--tag"])
        version_like_gnu("--version", ["--version"])
        version_like_gnu("--ver abbreviated", ["--ver"])
        version_like_gnu("--version before --help", ["--version", "--help"])
        version_like_gnu("--version before an unknown option", ["--version", "--bogus"])
        same_as_gnu("argv[0] a path: the program name in messages", ["missing", "-l", "7"],
                    argv0="/some/where/b2sum")
        same_as_gnu("argv[0] a path: usage", ["--bogus"], argv0="./b2sum")

        # Output and input that fail.
        same_as_gnu("stdout /dev/full", ["abc"], stdout="full")
        same_as_gnu("stdout /dev/full, missing file too", ["abc", "missing"], stdout="full")
        same_as_gnu("stdout /dev/full, 1 MiB file", ["big", "big"], stdout="full")
        same_as_gnu("--help to /dev/full", ["--help"], stdout="full")
        same_as_gnu("--version to /dev/full", ["--version"], stdout="full")
        same_as_gnu("stdout closed", ["abc"], stdout="closed")
        same_as_gnu("stdout closed, missing file", ["missing"], stdout="closed")
        for name, args in (("stdin closed, files named", ["abc"]), ("stdin closed, -", ["-"]),
                           ("stdin closed, no operand", [])):
            if not windows_only_skip(name, "a Windows program's closed standard input is NUL "
                                     "(Wine's, or the C runtime's, as b2sum opens it)"):
                same_as_gnu(name, args, None)


    def check_mode_and_additions():
        # ---------------------------------------------------------------------------------------
        # Check mode, against GNU: b2sum_check_cases.py.
        listed, mixed = b2sum_check_cases.check_mode(d)

        # ---------------------------------------------------------------------------------------
        # Our additions: -a/--algorithm, -j/--jobs, --num-threads.
        if not GNU_ONLY:
            expect("-a blake2s", ["-a", "blake2s"], 0,
                   b"508c5e8c327c14e2e1a72ba34eeb452f37458b209ed63a294d999b4c86675982  -\n",
                   stdin=ABC_DATA)
            check("hashlib's blake2s of abc", b2s(ABC_DATA),
                  b"508c5e8c327c14e2e1a72ba34eeb452f37458b209ed63a294d999b4c86675982")
            files = {"abc": ABC_DATA, "empty": b"", "text": TEXT, "big": BIG}
            for algo, fn in (("blake2b", b2), ("blake2s", b2s), ("blake2bp", b2bp),
                             ("blake2sp", b2sp)):
                want = b"".join(fn(data) + b"  " + name.encode() + b"\n"
                                for name, data in files.items())
                expect(f"-a {algo}", ["-a", algo] + list(files), 0, want)
                expect(f"--algorithm={algo}", [f"--algorithm={algo}"] + list(files), 0, want)
                expect(f"-a {algo} on stdin", ["-a", algo], 0, fn(BIG) + b"  -\n", stdin=BIG)
            check("-a blake2b equals the default", run_ours(["-a", "blake2b"] + listed),
                  run_ours(listed))
            for algo, digits in (("blake2bp", 128), ("blake2sp", 64)):
                out = run_ours(["-a", algo, "abc"])[1]
                check(f"-a {algo} digest length", len(out.split(b" ")[0]), digits)
            check("blake2bp differs from blake2b", b2bp(ABC_DATA) != ABC, True)
            check("blake2sp differs from blake2s", b2sp(ABC_DATA) != b2s(ABC_DATA), True)
            for algo, fn in (("blake2bp", b2bp), ("blake2sp", b2sp)):
                for threads in ("1", "2", "3"):
                    expect(f"--num-threads {threads} -a {algo} on 1 MiB", ["--num-threads", threads,
                           "-a", algo, "big"], 0, fn(BIG) + b"  big\n")
            check("--num-threads 2 -a blake2bp equals without it",
                  run_ours(["--num-threads", "2", "-a", "blake2bp", "big"]),
                  run_ours(["-a", "blake2bp", "big"]))
            # -j: the same bytes, in argument order, as one file at a time.
            sequential = run_ours(many)
            check("20 files hash", sequential[0], 0)
            for jobs in ("1", "2", "3", "8", "64"):
                check(f"-j {jobs} over 20 files", run_ours(["-j", jobs] + many), sequential)
            check("--jobs=3 over 20 files", run_ours(["--jobs=3"] + many), sequential)
            mixed_args = many[:5] + ["missing", "big", "dir"] + many[5:10] + ["-"] + odd_names
            for extra in ([], ["--tag", "-l", "256"], ["-z"], ["-b", "-l", "8"]):
                check("-j 3 " + " ".join(extra) + " with missing files, a directory and stdin",
                      run_ours(["-j", "3"] + extra + mixed_args, TEXT),
                      run_ours(extra + mixed_args, TEXT))
            check("-j 3, merged streams", run_ours(["-j", "3"] + mixed_args, TEXT, merge=True),
                  run_ours(mixed_args, TEXT, merge=True))
            check("-j 3 -a blake2sp", run_ours(["-j", "3", "-a", "blake2sp"] + many),
                  run_ours(["-a", "blake2sp"] + many))
            check("-j 3 --num-threads 2 -a blake2bp",
                  run_ours(["-j", "3", "--num-threads", "2", "-a", "blake2bp"] + many + ["big"]),
                  run_ours(["-a", "blake2bp"] + many + ["big"]))
            check("-j 3 -c", run_ours(["-j", "3", "-c", "sums.plain", "sums.tag256", mixed]),
                  run_ours(["-c", "sums.plain", "sums.tag256", mixed]))
            if GNU:
                check("-j 3 against GNU", run_ours(["-j", "3"] + many + ["missing"]),
                      on_target(many, run(GNU, many + ["missing"], cwd=d)))
            # Round trips: every line ours writes checks as OK with -c and no other option (with
            # -a for an untagged line of another algorithm, which names none).
            roundtrip_names = target.nameable(["abc", "empty", "big", "new\nline", "back\\slash",
                                               "car\rret", "paren)name", "it's", " lead"] +
                                              unprintable_names)
            for algo in ("blake2b", "blake2s", "blake2bp", "blake2sp"):
                for extra in ([], ["--tag"], ["-l", "128"], ["--tag", "-l", "128"], ["-b"],
                              ["--tag", "-l", "8"]):
                    status, out, err = run_ours(["-a", algo] + extra + roundtrip_names)
                    check(f"-a {algo} {' '.join(extra)}: hashed", (status, err), (0, b""))
                    write("roundtrip.sums", out)
                    names_algo = [] if "--tag" in extra or algo == "blake2b" else ["-a", algo]
                    status, verdicts, err = run_ours(["-c"] + names_algo + ["roundtrip.sums"])
                    check(f"-a {algo} {' '.join(extra)}: checks back as OK",
                          (status, err, verdicts.count(b": OK\n")), (0, b"", len(roundtrip_names)))
            # --files0-from: the names from a NUL-separated list, as given as operands: the same
            # output, messages and status, options, -j and -c alike; across the list's blocks of
            # 65,536 names; its own errors as GNU du and wc give them.
            listed = roundtrip_names + ["missing"]
            write("names.list", b"\0".join(os.fsencode(n) for n in listed) + b"\0")
            for extra in ([], ["--tag"], ["-l", "128"], ["-z"], ["-a", "blake2sp"], ["-j", "3"]):
                check(f"--files0-from {' '.join(extra)}",
                      run_ours(extra + ["--files0-from=names.list"]), run_ours(extra + listed))
            check("--files0-from - (no NUL after the last name)",
                  run_ours(["--files0-from", "-"], stdin=b"\0".join(os.fsencode(n) for n in listed)),
                  run_ours(listed))
            write("sums.list", b"sums.plain\0sums.tag256\0missing\0")
            for extra in ([], ["-j", "3"], ["--quiet"]):
                check(f"-c --files0-from {' '.join(extra)}",
                      run_ours(["-c"] + extra + ["--files0-from", "sums.list"]),
                      run_ours(["-c"] + extra + ["sums.plain", "sums.tag256", "missing"]))
            many_names = ["abc"] * 65535 + [""] + ["empty"] * 3 + ["-"]
            write("many.list", b"\0".join(os.fsencode(n) for n in many_names))
            # Both at once: each takes 17 s under Wine, most of it waiting on Wine's server.
            extras = ([], ["-j", "2"])
            with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
                many_runs = list(pool.map(
                    lambda extra: run_ours(extra + ["--files0-from", "many.list"]), extras))
            for extra, (status, out, err) in zip(extras, many_runs):
                check(f"{' '.join(extra)} --files0-from: a list of 65,540 names",
                      (status, out, err),
                      on_target(extra, (1, (b2(ABC_DATA) + b"  abc\n") * 65535 +
                                        (b2(b"") + b"  empty\n") * 3 + b2(b"") + b"  -\n",
                                        b"b2sum: many.list:65536: invalid zero-length file name\n")))
            expect("--files0-from - naming -", ["--files0-from=-"], 1, b2(ABC_DATA) + b"  abc\n",
                   b"b2sum: -:2: when reading file names from standard input, no file name of '-' "
                   b"allowed\n", stdin=b"abc\0-\0")
            expect("--files0-from of a missing list", ["--files0-from=nope"], 1, b"",
                   b"b2sum: cannot open " + Q(b"nope") + b" for reading: No such file or directory\n")
            expect("--files0-from with an operand", ["--files0-from=names.list", "abc"], 1, b"",
                   b"b2sum: extra operand " + Q(b"abc") + b"\nfile operands cannot be combined with "
                   b"--files0-from\nTry 'b2sum --help' for more information.\n")
            expect("--files0-from of an empty list", ["--files0-from=/dev/null"], 0, b"")
            # Tags of the other algorithms name them; a BLAKE2b digest under BLAKE2bp's tag still
            # passes, as GNU reads that tag as BLAKE2b.
            for tag, fn in (("BLAKE2s", b2s), ("BLAKE2bp", b2bp), ("BLAKE2sp", b2sp), ("BLAKE2bp", b2)):
                expect(f"-c a {tag} line of {fn.__name__}", ["-c"], 0, b"abc: OK\n",
                       stdin=tag.encode() + b" (abc) = " + fn(ABC_DATA) + b"\n")
            expect("-c a BLAKE2s line, wrong digest", ["-c"], 1, b"abc: FAILED\n",
                   b"b2sum: WARNING: 1 computed checksum did NOT match\n",
                   stdin=b"BLAKE2s (abc) = " + b2s(b"x") + b"\n")
            for args in (["-a", "bogus"], ["-a", ""], ["--algorithm=blake3"], ["-a", "BLAKE2B"],
                         ["-j", "abc"]):
                status, out, err = run_ours(args + ["abc"])
                check(" ".join(args) + ": status, stdout, stderr's start",
                      (status, out, err[:7]), (1, b"", b"b2sum: "))


    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as halves:
        for half in [halves.submit(against_hashlib_and_gnu),
                     halves.submit(check_mode_and_additions)]:
            half.result()


print(target.skipped(), end="")
if failures:
    print("\n".join(failures))
    print(f"{len(failures)} failure(s) in {b2sum_support.cases} cases")
    sys.exit(1)
print(f"all {b2sum_support.cases} b2sum CLI cases pass"
      + ("" if GNU else " (GNU's b2sum is not installed: no comparisons with it)")
      + (" (our additions skipped: B2SUM_TEST_GNU_ONLY=1)" if GNU_ONLY else ""))
