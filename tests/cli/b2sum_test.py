#!/usr/bin/env python3
"""CLI tests of fastblake's b2sum: a drop-in replacement for GNU coreutils' b2sum (9.1, Debian
12's). Every case of the GNU command line runs both tools, with the same arguments, standard
input, directory and environment (LC_ALL=C, or the locale FASTBLAKE_TEST_LOCALE names, so that the
suite runs under UTF-8 locales too), and requires the same exit status, standard output and
standard error, byte for byte. A few expected outputs are also written out (cross-checked
with Python's hashlib), so the test means something where GNU's b2sum is missing. Our additions
(-a/--algorithm, -j/--jobs, --num-threads, tags of the other algorithms) are tested on their own,
with round trips: every line ours writes checks as OK.

Usage: b2sum_test.py PATH_TO_OUR_B2SUM
       B2SUM_TEST_GNU_ONLY=1 b2sum_test.py /usr/bin/b2sum   (self-check: skips our additions)
"""
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile

OURS = os.path.abspath(sys.argv[1])
GNU = shutil.which("b2sum", path="/usr/bin")
GNU_ONLY = os.environ.get("B2SUM_TEST_GNU_ONLY") == "1"
failures = []
cases = 0

# Both tools see the same environment: the caller's, in the C locale, without what would change
# GNU's behavior (POSIXLY_CORRECT changes option parsing; the locale, messages and quoting).
BASE_ENV = {k: v for k, v in os.environ.items()
            if k not in ("POSIXLY_CORRECT", "LANG", "LANGUAGE") and not k.startswith("LC_")}
LOCALE = os.environ.get("FASTBLAKE_TEST_LOCALE", "C")
BASE_ENV["LC_ALL"] = LOCALE
if subprocess.run(["locale"], env=BASE_ENV, capture_output=True).stderr:
    print(f"the locale {LOCALE} is not installed: skipped")
    sys.exit(77)
UTF8 = subprocess.run(["locale", "charmap"], env=BASE_ENV, capture_output=True,
                      text=True).stdout.strip() == "UTF-8"


def Q(text):
    """gnulib's quote() of plain text: in a UTF-8 locale between curly quotes."""
    return b"\xe2\x80\x98" + text + b"\xe2\x80\x99" if UTF8 else b"'" + text + b"'"


def run(tool, args, stdin=b"", cwd=None, merge=False, stdout="pipe", argv0="b2sum", env=None):
    """Runs TOOL with argv [argv0] + ARGS. STDIN: bytes; None for a closed descriptor 0; or
    (path, offset) for a file opened at that offset. STDOUT: "pipe", "full" (/dev/full) or
    "closed". MERGE sends standard error to the same pipe as standard output.
    Returns (status, stdout, stderr)."""
    environ = dict(BASE_ENV)
    environ.update(env or {})
    to_close = []
    close_in_child = []
    kwargs = {}
    if stdin is None:
        stdin_arg, data = subprocess.DEVNULL, None
        close_in_child.append(0)
    elif isinstance(stdin, tuple):
        fd = os.open(os.path.join(cwd or ".", stdin[0]), os.O_RDONLY)
        to_close.append(fd)
        os.lseek(fd, stdin[1], os.SEEK_SET)
        stdin_arg, data = fd, None
    else:
        stdin_arg, data = None, stdin
    if stdout == "full":
        out_fd = os.open("/dev/full", os.O_WRONLY)
        to_close.append(out_fd)
        stdout_arg = out_fd
    elif stdout == "closed":
        stdout_arg = subprocess.DEVNULL
        close_in_child.append(1)
    else:
        stdout_arg = subprocess.PIPE
    if stdin_arg is not None:
        kwargs["stdin"] = stdin_arg
    if close_in_child:
        kwargs["preexec_fn"] = lambda: [os.close(fd) for fd in close_in_child]
    try:
        p = subprocess.run([argv0] + args, executable=tool, input=data,
                           stdout=stdout_arg,
                           stderr=subprocess.STDOUT if merge else subprocess.PIPE,
                           cwd=cwd, env=environ, timeout=20, **kwargs)
        return p.returncode, p.stdout if p.stdout is not None else b"", p.stderr or b""
    except subprocess.TimeoutExpired:
        return "timed out", b"", b""
    finally:
        for fd in to_close:
            os.close(fd)


def short(value):
    text = repr(value)
    return text if len(text) <= 3000 else text[:3000] + "..."


def check(name, got, want):
    global cases
    cases += 1
    if got != want:
        failures.append(f"{name}:\n  got  {short(got)}\n  want {short(want)}")


def b2(data, bits=512):
    return hashlib.blake2b(data, digest_size=bits // 8).hexdigest().encode()


def b2s(data):
    return hashlib.blake2s(data).hexdigest().encode()


def tree(data, h, fanout, block, inner):
    """BLAKE2bp (h=blake2b, 4 leaves, 128-byte blocks) or BLAKE2sp (h=blake2s, 8 leaves,
    64-byte blocks), unkeyed, full length: leaf i hashes blocks i, i + fanout, ...; the root
    hashes the leaves' digests. Agrees with libb2's known answers in tests/vectors."""
    leaves = []
    for i in range(fanout):
        stripe = b"".join(data[j:j + block] for j in range(i * block, len(data), fanout * block))
        leaves.append(h(stripe, digest_size=inner, fanout=fanout, depth=2, leaf_size=0,
                        node_offset=i, node_depth=0, inner_size=inner,
                        last_node=i == fanout - 1).digest())
    return h(b"".join(leaves), digest_size=inner, fanout=fanout, depth=2, leaf_size=0,
             node_offset=0, node_depth=1, inner_size=inner, last_node=True).hexdigest().encode()


def b2bp(data):
    return tree(data, hashlib.blake2b, 4, 128, 64)


def b2sp(data):
    return tree(data, hashlib.blake2s, 8, 64, 32)


USAGE_TAIL = b"Try 'b2sum --help' for more information.\n"

with tempfile.TemporaryDirectory() as d:
    def path(name):
        return os.path.join(os.fsencode(d), os.fsencode(name))

    def write(name, data):
        with open(path(name), "wb") as f:
            f.write(data)
        return os.fsdecode(name)

    def run_ours(args, stdin=b"", cwd=d, **kw):
        return run(OURS, args, stdin, cwd, **kw)

    def expect(name, args, status, stdout, stderr=b"", stdin=b"", cwd=d, **kw):
        check(name, run(OURS, args, stdin, cwd, **kw), (status, stdout, stderr))

    def same_as_gnu(name, args, stdin=b"", cwd=d, **kw):
        if GNU:
            check(name + " (against GNU b2sum)", run(OURS, args, stdin, cwd, **kw),
                  run(GNU, args, stdin, cwd, **kw))

    def help_footer(text):
        """The last paragraph of --help, where GNU points to its project and ours to fastblake:
        (the text before it, the footer)."""
        body, _, footer = text.rstrip(b"\n").rpartition(b"\n\n")
        return body, footer

    def help_like_gnu(name, args):
        """--help: exit 0, nothing on stderr, and GNU's lines all in ours, in GNU's order (ours
        may add lines for its own options), but for the footer: ours names fastblake's manual
        page and developers, and no GNU address."""
        status, out, err = run(OURS, args, cwd=d)
        body, footer = help_footer(out)
        if not GNU_ONLY:
            gnu_address = any(site in out for site in (b"gnu.org", b"translationproject"))
            check(name + ": our footer",
                  (footer.startswith(b"Full documentation: man "),
                   b"fastblake developers" in footer, gnu_address),
                  (True, True, False))
        if not GNU:
            return
        want_status, want_out, _ = run(GNU, args, cwd=d)
        check(name + " status", (status, err), (want_status, b""))
        want_body, want_footer = help_footer(want_out)
        check(name + ": GNU's footer is the one left out", b"gnu.org" in want_footer, True)
        lines = iter(body.split(b"\n"))
        missing = [line for line in want_body.split(b"\n") if not any(line == x for x in lines)]
        check(name + ": GNU's help lines, in order, in ours", missing, [])

    def version_like_gnu(name, args):
        """--version: GNU's status, and a first line naming b2sum; the rest is fastblake's."""
        status, out, err = run(OURS, args, cwd=d)
        if not GNU_ONLY:
            check(name + ": fastblake's, with no GNU address",
                  (out.startswith(b"b2sum (fastblake) "), b"gnu.org" in out), (True, False))
        if not GNU:
            return
        want_status, _, want_err = run(GNU, args, cwd=d)
        check(name, (status, err, out.split(b"\n")[0].startswith(b"b2sum")),
              (want_status, want_err, True))

    # ---------------------------------------------------------------------------------------
    # Files.
    ABC_DATA = b"abc"
    TEXT = b"hello\nworld\n"
    BIG = (bytes(range(251)) * 4200)[:1 << 20]
    write("abc", ABC_DATA)
    write("empty", b"")
    write("text", TEXT)
    write("crlf.txt", b"one\r\ntwo\r\n")
    write("big", BIG)
    write("six", b"abcdef")
    odd_names = ["with space", "back\\slash", "new\nline", "car\rret", os.fsdecode(b"bad\xffutf8"),
                 "m\\i\nx\r", " lead", "*star", "tab\tname", "\u00e9", "colon:name", "paren)name",
                 "it's"]
    # Every class of character a UTF-8 locale may not print, for the quoting of names in
    # messages: C0 and C1 controls, DEL, line and paragraph separators, format characters,
    # unassigned and private-use code points, noncharacters, surrogates, overlong and truncated
    # sequences, code points past U+10FFFF; and printable ones beside them.
    unprintable_names = [os.fsdecode(b) for b in (
        b"esc\x1b[31m", b"del\x7f", b"c1\xc2\x85", b"c1\xc2\x9b2J", b"ls\xe2\x80\xa8",
        b"ps\xe2\x80\xa9", b"zwsp\xe2\x80\x8b", b"bom\xef\xbb\xbf", b"rlo\xe2\x80\xae",
        b"unassigned\xcd\xb8", b"private\xee\x80\x80", b"nonchar\xef\xbf\xbe",
        b"surrogate\xed\xa0\x80", b"overlong\xc0\xaf", b"truncated\xe2\x82",
        b"past\xf4\x90\x80\x80", b"last\xf4\x8f\xbf\xbf", b"cjk\xe4\xb8\xad",
        b"combining e\xcc\x81", b"emoji\xf0\x9f\x98\x80", b"replacement\xef\xbf\xbd",
        b"nbsp\xc2\xa0", b"quote\xe2\x80\x98x\xe2\x80\x99", b"\xe2\x80\xa8")]
    odd_names += unprintable_names
    for n in odd_names:
        write(n, ABC_DATA)
    write("-dash", ABC_DATA)
    os.mkdir(path("dir"))
    many = []
    for i in range(20):
        many.append(write(f"f{i:02}", bytes((i * 37 + j) % 256 for j in range(i * 4099))))
    ABC = b2(ABC_DATA)
    EMPTY = b2(b"")

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
    same_as_gnu("stdin a directory", [], ("dir", 0))
    same_as_gnu("several files", ["abc", "empty", "text", "big"])
    same_as_gnu("the same file twice", ["abc", "abc"])
    same_as_gnu("all the odd names", odd_names)
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
    same_as_gnu("not a directory", ["abc/x"])
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
    same_as_gnu("stdin closed, files named", ["abc"], None)
    same_as_gnu("stdin closed, -", ["-"], None)
    same_as_gnu("stdin closed, no operand", [], None)

    # ---------------------------------------------------------------------------------------
    # Check mode, against GNU, on checksum files GNU wrote (ours, where GNU is missing).
    producer = GNU or OURS
    listed = ["abc", "empty", "text", "big", "./-dash"] + odd_names
    for tag, args in (("plain", []), ("b", ["-b"]), ("tag", ["--tag"]),
                      ("256", ["-l", "256"]), ("tag256", ["--tag", "-l", "256"]),
                      ("8", ["-l", "8"]), ("tag8", ["--tag", "-l", "8"]), ("z", ["-z"]),
                      ("ztag", ["-z", "--tag"])):
        status, out, _ = run(producer, args + listed, cwd=d)
        check(f"producing sums.{tag}", status, 0)
        write(f"sums.{tag}", out)
        same_as_gnu(f"producing sums.{tag}", args + listed)
        same_as_gnu(f"-c sums.{tag}", ["-c", f"sums.{tag}"])
        same_as_gnu(f"-c sums.{tag} merged streams", ["-c", f"sums.{tag}"], merge=True)
        same_as_gnu(f"-c --quiet sums.{tag}", ["-c", "--quiet", f"sums.{tag}"])
        same_as_gnu(f"-c --status sums.{tag}", ["-c", "--status", f"sums.{tag}"])
        same_as_gnu(f"-c -w --strict sums.{tag}", ["-c", "-w", "--strict", f"sums.{tag}"])
        same_as_gnu(f"-c sums.{tag} on stdin", ["-c"], out)
        same_as_gnu(f"-c - sums.{tag} on stdin", ["-c", "-"], out)
        same_as_gnu(f"-c -l 8 sums.{tag}: -l is ignored", ["-c", "-l", "8", f"sums.{tag}"])
    same_as_gnu("-c of several checksum files", ["-c", "sums.plain", "sums.tag256", "sums.8"])
    crlf = run(producer, listed[:5], cwd=d)[1].replace(b"\n", b"\r\n")
    write("sums.crlf", crlf)
    same_as_gnu("-c CRLF line ends", ["-c", "sums.crlf"])
    same_as_gnu("-c CRLF line ends, -w", ["-c", "-w", "sums.crlf"])

    # Files changed since their sums were taken.
    for i in range(3):
        write(f"mut{i}", b"before %d" % i)
    write("sums.mut", run(producer, ["mut0", "mut1", "mut2", "abc"], cwd=d)[1])
    write("sums.muttag", run(producer, ["--tag", "-l", "128", "mut0", "mut1", "abc"], cwd=d)[1])
    for i in range(3):
        write(f"mut{i}", b"after %d" % i)
    for args in ([], ["--quiet"], ["--status"], ["-w"], ["--strict"], ["--ignore-missing"]):
        same_as_gnu("changed files " + " ".join(args), ["-c"] + args + ["sums.mut"])
        same_as_gnu("changed files, tagged " + " ".join(args), ["-c"] + args + ["sums.muttag"])
    same_as_gnu("changed files, merged streams", ["-c", "sums.mut"], merge=True)
    write("sums.onechanged", run(producer, ["abc", "mut0"], cwd=d)[1])
    write("mut0", b"after again")
    same_as_gnu("one changed file: singular WARNING", ["-c", "sums.onechanged"])

    # Hand-written checksum files.
    H = ABC
    H256 = b2(ABC_DATA, 256)
    H8 = b2(ABC_DATA, 8)
    E8 = b2(b"", 8)
    handmade = {
        "two spaces": H + b"  abc\n",
        "space star": H + b" *abc\n",
        "one space (BSD reversed)": H + b" abc\n",
        "tab (BSD reversed)": H + b"\tabc\n",
        "tab then space": H8 + b"\t abc\n",
        "space then tab": H8 + b" \tabc\n",
        "two tabs": H8 + b"\t\tabc\n",
        "star space": H8 + b"* abc\n",
        "two spaces then one": H + b"  abc\n" + H + b" empty\n",
        "one space then two": H + b" abc\n" + H + b"  empty\n",
        "one space then star": H + b" abc\n" + H + b" *empty\n",
        "uppercase hex": H.upper() + b"  abc\n",
        "uppercase tagged hex": b"BLAKE2b (abc) = " + H.upper() + b"\n",
        "mixed case hex": H[:64].upper() + H[64:] + b"  abc\n",
        "256-bit untagged (length inferred)": H256 + b"  abc\n",
        "8-bit untagged": H8 + b"  abc\n",
        "8-bit untagged, one space": H8 + b" abc\n",
        "8-bit, nothing after": H8 + b"\n",
        "8-bit, one space after": H8 + b" \n",
        "8-bit, two spaces after": H8 + b"  \n",
        "8-bit, space star after": H8 + b" *\n",
        "4 bits": H8[:1] + b"  abc\n",
        "odd hex length": H + b"0  abc\n",
        "hex too long": H + b"00  abc\n",
        "not hex": H[:-1] + b"g  abc\n",
        "non-hex after hex": H8 + b"xy  abc\n",
        "uppercase 8-bit": H8.upper() + b"  abc\n",
        "wrong 8-bit": E8 + b"  abc\n",
        "every length": b"".join(b2(ABC_DATA, bits) + b"  abc\n" for bits in range(8, 513, 8)),
        "tagged": b"BLAKE2b (abc) = " + H + b"\n",
        "tagged -256": b"BLAKE2b-256 (abc) = " + H256 + b"\n",
        "tagged -8": b"BLAKE2b-8 (abc) = " + H8 + b"\n",
        "tagged -512": b"BLAKE2b-512 (abc) = " + H + b"\n",
        "tagged -0": b"BLAKE2b-0 (abc) = " + H + b"\n",
        "tagged -7": b"BLAKE2b-7 (abc) = " + H8 + b"\n",
        "tagged -520": b"BLAKE2b-520 (abc) = " + H + b"\n",
        "tagged -": b"BLAKE2b- (abc) = " + H + b"\n",
        "tagged -0x100": b"BLAKE2b-0x100 (abc) = " + H256 + b"\n",
        "tagged -0400 (octal)": b"BLAKE2b-0400 (abc) = " + H256 + b"\n",
        "tagged -+256": b"BLAKE2b-+256 (abc) = " + H256 + b"\n",
        "tagged - 256": b"BLAKE2b- 256 (abc) = " + H256 + b"\n",
        "tagged -256, space before (": b"BLAKE2b-256  (abc) = " + H256 + b"\n",
        "tagged length mismatch, short hex": b"BLAKE2b (abc) = " + H256 + b"\n",
        "tagged length mismatch, long hex": b"BLAKE2b-256 (abc) = " + H + b"\n",
        "tagged, no spaces": b"BLAKE2b(abc)=" + H + b"\n",
        "tagged openssl style": b"BLAKE2b(abc)= " + H + b"\n",
        "tagged -256 openssl style": b"BLAKE2b-256(abc)= " + H256 + b"\n",
        "tagged, tabs around =": b"BLAKE2b-8 (abc) \t=\t " + H8 + b"\n",
        "tagged, two spaces before (": b"BLAKE2b-8  (abc) = " + H8 + b"\n",
        "tagged, tab before (": b"BLAKE2b-8\t(abc) = " + H8 + b"\n",
        "tagged, trailing space": b"BLAKE2b-8 (abc) = " + H8 + b" \n",
        "tagged, no digest": b"BLAKE2b-8 (abc) = \n",
        "tagged, no =": b"BLAKE2b-8 (abc) " + H8 + b"\n",
        "tagged, no (": b"BLAKE2b-8 abc) = " + H8 + b"\n",
        "tagged, no )": b"BLAKE2b-8 (abc = " + H8 + b"\n",
        "tagged, parentheses in name": b"BLAKE2b-8 (a(b)c)) = " + H8 + b"\n",
        "tagged, name paren)name": b"BLAKE2b-8 (paren)name) = " + H8 + b"\n",
        "tagged, empty name": b"BLAKE2b-8 () = " + H8 + b"\n",
        "tagged, only the tag": b"BLAKE2b\n",
        "tagged, leading spaces": b"  BLAKE2b-8 (abc) = " + H8 + b"\n",
        "untagged, leading spaces": b"  " + H8 + b"  abc\n",
        "untagged, leading tab": b"\t" + H8 + b"  abc\n",
        "SHA256 tag": b"SHA256 (abc) = " + hashlib.sha256(ABC_DATA).hexdigest().encode() + b"\n",
        "SHA512 tag": b"SHA512 (abc) = " + hashlib.sha512(ABC_DATA).hexdigest().encode() + b"\n",
        "MD5 tag": b"MD5 (abc) = " + hashlib.md5(ABC_DATA).hexdigest().encode() + b"\n",
        "BLAKE2 tag": b"BLAKE2 (abc) = " + H + b"\n",
        "lowercase tag": b"blake2b (abc) = " + H + b"\n",
        "BLAKE2bp tag": b"BLAKE2bp (abc) = " + H + b"\n",
        "BLAKE2b-256 tag, then untagged": b"BLAKE2b-256 (abc) = " + H256 + b"\n" + H + b"  abc\n",
        "comments": b"# a comment\n#" + H + b"  abc\n" + H + b"  abc\n",
        "comment after spaces": b" # no comment\n" + H + b"  abc\n",
        "only comments": b"# one\n# two\n",
        "blank lines": b"\n\n" + H + b"  abc\n\n\n" + H + b"  empty\n\n",
        "only blank lines": b"\n\n\n",
        "spaces-only line": b"   \n" + H + b"  abc\n",
        "lone CR line": b"\r\n" + H + b"  abc\n",
        "CRLF": H + b"  abc\r\n" + EMPTY + b"  empty\r\n",
        "CR CR LF": H8 + b"  abc\r\r\n",
        "CR only at the end, no LF": H8 + b"  abc\r",
        "CR only, as line ends": H8 + b"  abc\r" + E8 + b"  empty\r",
        "no final newline": H + b"  abc",
        "empty file": b"",
        "NUL in the name": H8 + b"  abc\0xyz\n",
        "NUL in an escaped name": b"\\" + H8 + b"  abc\0xyz\n",
        "NUL-terminated lines (-z output)": H8 + b"  abc\0" + E8 + b"  empty\0",
        "escaped newline": b"\\" + H8 + b"  new\\nline\n",
        "escaped carriage return": b"\\" + H8 + b"  car\\rret\n",
        "escaped backslash": b"\\" + H8 + b"  back\\\\slash\n",
        "escaped all": b"\\" + H8 + b"  m\\\\i\\nx\\r\n",
        "escaped plain name": b"\\" + H8 + b"  abc\n",
        "unescaped backslash name": H8 + b"  back\\slash\n",
        "unescaped \\n stays literal": H8 + b"  new\\nline\n",
        "escape, lone backslash": b"\\" + H8 + b"  back\\slash\n",
        "escape, \\t": b"\\" + H8 + b"  back\\tslash\n",
        "escape, trailing backslash": b"\\" + H8 + b"  abc\\\n",
        "escape, double backslash at line start": b"\\\\" + H8 + b"  abc\n",
        "escaped tagged": b"\\BLAKE2b-8 (new\\nline) = " + H8 + b"\n",
        "escaped tagged, all": b"\\BLAKE2b-8 (m\\\\i\\nx\\r) = " + H8 + b"\n",
        "tagged, not escaped": b"BLAKE2b-8 (new\\nline) = " + H8 + b"\n",
        "escaped tagged, bad escape": b"\\BLAKE2b-8 (a\\qb) = " + H8 + b"\n",
        "names with spaces": H8 + b"  with space\n" + H8 + b"   lead\n" + H8 + b"  tr \n",
        "name starting with *": H8 + b"  *star\n" + H8 + b" **star\n",
        "name with a tab": H8 + b"  tab\tname\n",
        "invalid UTF-8 name": H8 + b"  bad\xffutf8\n",
        "UTF-8 name": H8 + b"  \xc3\xa9\n",
        "name with a carriage return, escaped": b"\\" + H8 + b"  car\\rret\n",
        "missing file": H8 + b"  missing\n",
        "two missing files": H8 + b"  missing\n" + H8 + b"  missing2\n" + H8 + b"  abc\n",
        "missing, quoted name": H8 + b"  no such\n",
        "missing, name with a newline": b"\\" + H8 + b"  no\\nsuch\n",
        "missing, name with a CR": b"\\" + H8 + b"  no\\rsuch\n",
        "missing, name with a backslash": b"\\" + H8 + b"  no\\\\such\n",
        "missing and mismatched": H8 + b"  missing\n" + E8 + b"  abc\n",
        "missing, mismatched, misformatted, twice": H8 + b"  missing\n" + E8 + b"  abc\nxx\n"
                                                    + H8 + b"  missing2\n" + E8 + b"  text\n"
                                                    + b"yy\n" + H8 + b"  abc\n",
        "directory": H8 + b"  dir\n",
        "not a directory": H8 + b"  abc/x\n",
        "empty name, untagged": H8 + b"  \n",
        "stdin named in the file": H8 + b"  -\n",
        "misformatted": b"xx\n",
        "two misformatted and a good": b"xx\nyy\n" + H + b"  abc\n",
        "one misformatted and a good": b"xx\n" + H + b"  abc\n",
        "1 MiB file, every length": b"".join(b2(BIG, bits) + b"  big\n" for bits in (8, 256,
                                                                                      512)),
        "1 MiB file, wrong": b2(BIG[1:]) + b"  big\n",
        "long line": b"x" * 100000 + b"\n" + H + b"  abc\n",
        "long name": H8 + b"  " + b"n" * 5000 + b"\n",
    }
    for i, (what, content) in enumerate(handmade.items()):
        name = write(f"hand{i}.sums", content)
        for args in ([], ["-w"], ["--quiet"], ["--status"], ["--strict"], ["--ignore-missing"],
                     ["--ignore-missing", "--quiet", "-w", "--strict"]):
            same_as_gnu(f"-c {' '.join(args)} {what}", ["-c"] + args + [name])
        same_as_gnu(f"-c {what}, on stdin", ["-c"], content)
        same_as_gnu(f"-c -w {what}, merged streams", ["-c", "-w", name], merge=True)
    same_as_gnu("-c, the file lists - and stdin has it", ["-c", "hand%d.sums" %
                list(handmade).index("stdin named in the file")], ABC_DATA)
    same_as_gnu("-c, - listed in a checksum file read from stdin", ["-c", "-w"], H8 + b"  -\n")
    same_as_gnu("-c, - listed then a good line, from stdin", ["-c", "-w"],
                H8 + b"  -\n" + H8 + b"  abc\n")
    same_as_gnu("-c - twice", ["-c", "-", "-"], H8 + b"  abc\n")
    same_as_gnu("-c --ignore-missing on stdin", ["-c", "--ignore-missing"], H8 + b"  missing\n")
    same_as_gnu("-c misformatted on stdin, -w", ["-c", "-w", "-"], b"xx\n" + H8 + b"  abc\n")
    same_as_gnu("-c of a checksum file at an offset on stdin", ["-c"], ("sums.plain", 0))
    same_as_gnu("-c nonexistent checksum file", ["-c", "nonexistent"])
    same_as_gnu("-c nonexistent, quoted name", ["-c", "no such file"])
    same_as_gnu("-c nonexistent among good", ["-c", "sums.8", "nonexistent", "sums.8"])
    same_as_gnu("-c directory as checksum file", ["-c", "dir"])
    same_as_gnu("-c directory among checksum files", ["-c", "sums.8", "dir", "sums.8"])
    same_as_gnu("-c /dev/null", ["-c", "/dev/null"])
    same_as_gnu("-c empty stdin", ["-c"])
    write("bad sums", b"xx\n")
    write("my sums", H8 + b"  missing\n")
    same_as_gnu("-c -w quoted checksum file name", ["-c", "-w", "bad sums"])
    same_as_gnu("-c --ignore-missing quoted checksum file name",
                ["-c", "--ignore-missing", "my sums"])
    write("new\nsums", b"xx\n")
    same_as_gnu("-c -w checksum file name with a newline", ["-c", "-w", "new\nsums"])
    # BSD-reversed detection carries from one checksum file to the next.
    write("two-space.sums", H8 + b"  abc\n")
    write("one-space.sums", H8 + b" abc\n")
    same_as_gnu("-c two-space then one-space files", ["-c", "-w", "two-space.sums",
                                                      "one-space.sums"])
    same_as_gnu("-c one-space then two-space files", ["-c", "-w", "one-space.sums",
                                                      "two-space.sums"])
    # --status, --quiet and -w: the last one given wins.
    mixed = "hand%d.sums" % list(handmade).index("missing, mismatched, misformatted, twice")
    for args in (["-c", "--status", "-w"], ["-c", "-w", "--status"], ["-c", "--quiet", "-w"],
                 ["-c", "-w", "--quiet"], ["-c", "--status", "--quiet"],
                 ["-c", "--quiet", "--status"], ["-c", "--warn"], ["-c", "--qui"], ["--ch"],
                 ["-cw"], ["--check", "--warn", "--strict"], ["-wc", "--stat"]):
        same_as_gnu(" ".join(args), args + [mixed])
    same_as_gnu("check to /dev/full", ["-c", "sums.8"], stdout="full")
    same_as_gnu("check --status to /dev/full", ["-c", "--status", "sums.8"], stdout="full")
    same_as_gnu("check, stdout closed", ["-c", "sums.8"], stdout="closed")
    same_as_gnu("check --quiet, stdout closed", ["-c", "--quiet", "sums.8"], stdout="closed")
    same_as_gnu("check, stdin closed", ["-c", "sums.8"], None)
    same_as_gnu("check -, stdin closed", ["-c", "-"], None)
    if os.geteuid() != 0:
        write("unreadable.sums", H8 + b"  abc\n")
        os.chmod(path("unreadable.sums"), 0)
        same_as_gnu("check, unreadable checksum file", ["-c", "unreadable.sums"])
        same_as_gnu("check, unreadable listed file", ["-c", "--ignore-missing"],
                    H8 + b"  unreadable\n")

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
                  run(GNU, many + ["missing"], cwd=d))
        # Round trips: every line ours writes checks as OK with -c and no other option (with
        # -a for an untagged line of another algorithm, which names none).
        roundtrip_names = ["abc", "empty", "big", "new\nline", "back\\slash", "car\rret",
                           "paren)name", "it's", " lead"] + unprintable_names
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
        for extra in ([], ["-j", "2"]):
            status, out, err = run_ours(extra + ["--files0-from", "many.list"])
            check(f"{' '.join(extra)} --files0-from: a list of 65,540 names",
                  (status, out, err),
                  (1, (b2(ABC_DATA) + b"  abc\n") * 65535 + (b2(b"") + b"  empty\n") * 3
                   + b2(b"") + b"  -\n", b"b2sum: many.list:65536: invalid zero-length file name\n"))
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


if failures:
    print("\n".join(failures))
    print(f"{len(failures)} failure(s) in {cases} cases")
    sys.exit(1)
print(f"all {cases} b2sum CLI cases pass"
      + ("" if GNU else " (GNU's b2sum is not installed: no comparisons with it)")
      + (" (our additions skipped: B2SUM_TEST_GNU_ONLY=1)" if GNU_ONLY else ""))
