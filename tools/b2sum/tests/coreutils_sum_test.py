#!/usr/bin/env python3
"""GNU coreutils' own tests of b2sum and of the code it shares with md5sum/sha*sum (digest.c),
ported to our drop-in b2sum.

The scenarios come from coreutils 9.1's tests/misc/: b2sum.sh, md5sum.pl, md5sum-bsd.sh,
md5sum-newline.pl, md5sum-parallel.sh, sha1sum.pl, the blake2b parts of cksum-a.sh and
cksum-c.sh, and the b2sum entry of tty-eof.pl. This is our own Python, not upstream's code: each
case re-enacts an upstream scenario with b2sum, with upstream's expected messages and exit
statuses ("md5sum"/"MD5" read as "b2sum"/"BLAKE2b", digest lengths adjusted), and with expected
digests computed by hashlib.blake2b. Every case is named "<upstream file>:<case id>".

Where GNU's b2sum (/usr/bin/b2sum, coreutils 9.1 on Debian 12) exists, each case is also run
against it: a case that GNU fails is an error of this port, reported as such.

Usage: coreutils_sum_test.py PATH_TO_OUR_B2SUM
Exit status: 0 when every case passes, 1 otherwise (failures are printed).
"""
import hashlib
import os
import pty
import random
import re
import select
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

if len(sys.argv) != 2:
    sys.exit(__doc__)
OURS = os.path.abspath(sys.argv[1])
GNU = "/usr/bin/b2sum" if os.access("/usr/bin/b2sum", os.X_OK) else None

ENV = {k: v for k, v in os.environ.items()
       if k not in ("POSIXLY_CORRECT", "LANG", "LANGUAGE") and not k.startswith("LC_")}
ENV["LC_ALL"] = "C"


def b2(data, bits=512):
    return hashlib.blake2b(data, digest_size=bits // 8).hexdigest().encode()


def tag(bits):
    return b"BLAKE2b" if bits == 512 else b"BLAKE2b-%d" % bits


def esc(name):
    """digest.c's escaping of a file name in an output line: (escaped?, escaped name)."""
    if not re.search(rb"[\\\n\r]", name):
        return False, name
    return True, name.replace(b"\\", b"\\\\").replace(b"\n", b"\\n").replace(b"\r", b"\\r")


def ok_line(name):
    """A --check result line: escaped (as above) only when the name holds a newline."""
    if b"\n" not in name:
        return name + b": OK\n"
    return b"\\" + esc(name)[1] + b": OK\n"


def untagged(data, name, bits=512):
    e, n = esc(name)
    return (b"\\" if e else b"") + b2(data, bits) + b"  " + n + b"\n"


def tagged(data, name, bits=512):
    e, n = esc(name)
    return (b"\\" if e else b"") + tag(bits) + b" (" + n + b") = " + b2(data, bits) + b"\n"


class Ctx:
    """One run of one case against one tool, in a fresh directory."""

    def __init__(self, tool, directory):
        self.tool, self.d, self.problems = tool, directory, []

    def path(self, name):
        return os.path.join(self.d.encode(), name if isinstance(name, bytes) else name.encode())

    def write(self, name, data):
        with open(self.path(name), "wb") as f:
            f.write(data)

    def read(self, name):
        with open(self.path(name), "rb") as f:
            return f.read()

    def fail(self, text):
        self.problems.append(text)

    def run(self, args, stdin=b"", out=None, err=b"", rc=0):
        """Runs b2sum ARGS (argv[0] "b2sum") and checks what is given; None: not checked.
        As in upstream's Perl tests, standard error is expected empty unless told."""
        args = [a if isinstance(a, bytes) else a.encode() for a in args]
        p = subprocess.run([b"b2sum"] + args, executable=self.tool, cwd=self.d, input=stdin,
                           capture_output=True, env=ENV, timeout=60)
        cmd = "b2sum " + " ".join(shlex.quote(a.decode("latin-1")) for a in args)
        if stdin:
            cmd += " < (stdin %r)" % stdin
        if rc is not None and p.returncode != rc:
            self.fail(f"{cmd}: exit status: expected {rc}, got {p.returncode}"
                      f" (stdout {p.stdout!r}, stderr {p.stderr!r})")
        if out is not None and p.stdout != out:
            self.fail(f"{cmd}: stdout:\n      expected {out!r}\n      got      {p.stdout!r}")
        if err is not None and p.stderr != err:
            self.fail(f"{cmd}: stderr:\n      expected {err!r}\n      got      {p.stderr!r}")
        return p


CASES = []


def case(name):
    def register(fn):
        CASES.append((name, fn))
        return fn
    return register


# ---------------------------------------------------------------- md5sum.pl and sha1sum.pl
# Both are tables of run_tests cases: IN files are created and named on the command line, AUX
# files only created; '--text' goes first unless the case checks; stdout and stderr are expected
# empty unless given. Each is run with the default 512-bit digests and with -l 128 (md5's length;
# check cases then rely on b2sum inferring the length from the line).

def table_case(cid, args, IN, AUX=None, OUT=b"", ERR=b"", EXIT=0, bits=512):
    def fn(c):
        for k, v in (AUX or {}).items():
            c.write(k, v)
        for k, v in IN.items():
            c.write(k, v)
        a = list(args)
        if "--check" not in a:
            a = ["--text"] + (["-l", str(bits)] if bits != 512 else []) + a
        c.run(a + [k for k in IN], out=OUT, err=ERR, rc=EXIT)
    CASES.append((cid, fn))


TRY = b"Try 'b2sum --help' for more information.\n"
NOLINES = b"b2sum: %s: no properly formatted checksum lines found\n"

VECTORS = [("1", b""), ("2", b"a"), ("3", b"abc"), ("4", b"message digest"),
           ("5", b"abcdefghijklmnopqrstuvwxyz"),
           ("6", b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"),
           ("7", b"1234567890" * 8)]
SHA_VECTORS = [("s1", b""), ("s2", b"a"), ("s3", b"abc"),
               ("s4", b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
               ("s5", b"abcdefghijklmnopqrstuvwxyz"),
               ("s6", b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"),
               ("s7", b"1234567890" * 8), ("million-a", b"a" * 1000000)]


def starts_00(bits):
    """Contents (like upstream's '9t') whose digest starts with 00."""
    i = 0
    while not b2(b"%dt" % i, bits).startswith(b"00"):
        i += 1
    return b"%dt" % i


for bits in (512, 128):
    sfx = "" if bits == 512 else " [-l 128]"
    deg = b2(b"", bits)
    T = tag(bits)
    P = "md5sum.pl:"
    for cid, data in VECTORS:
        table_case(P + cid + sfx, [], {"f": data}, OUT=untagged(data, b"f", bits), bits=bits)
    table_case(P + "backslash-1" + sfx, [], {".\nfoo": b""}, OUT=b"\\" + deg + b"  .\\nfoo\n",
               bits=bits)
    table_case(P + "backslash-2" + sfx, [], {".\\foo": b""}, OUT=b"\\" + deg + b"  .\\\\foo\n",
               bits=bits)
    table_case(P + "backslash-3" + sfx, [], {".\rfoo": b""}, OUT=b"\\" + deg + b"  .\\rfoo\n",
               bits=bits)
    table_case(P + "check-1" + sfx, ["--check"], {"f.md5": deg + b"  f\n"}, {"f": b""},
               OUT=b"f: OK\n")
    table_case(P + "check-windows" + sfx, ["--check"], {"f.md5": deg + b"  f\r\n"}, {"f": b""},
               OUT=b"f: OK\n")
    table_case(P + "ck-strict-1" + sfx, ["--check", "--strict"], {"f.md5": deg + b"  f\n\n"},
               {"f": b""}, OUT=b"f: OK\n")
    table_case(P + "ck-strict-2" + sfx, ["--check", "--strict"],
               {"in.md5": b"ERR\n" + deg + b"  f\n"}, {"f": b""}, OUT=b"f: OK\n",
               ERR=b"b2sum: WARNING: 1 line is improperly formatted\n", EXIT=1)
    table_case(P + "check-2" + sfx, ["--check", "--status"], {"f.md5": deg + b"  f\n"},
               {"f": b"foo"}, EXIT=1)
    table_case(P + "check-quiet1" + sfx, ["--check", "--quiet"], {"f.md5": deg + b"  f\n"},
               {"f": b""}, OUT=b"")
    table_case(P + "check-quiet2" + sfx, ["--check", "--quiet"], {"f.md5": deg + b"  f\n"},
               {"f": b"foo"}, OUT=b"f: FAILED\n",
               ERR=b"b2sum: WARNING: 1 computed checksum did NOT match\n", EXIT=1)
    multi = deg + b"  f\n" + deg + b"  f\n" + b"invalid\n"
    table_case(P + "check-multifail" + sfx, ["--check"], {"f.md5": multi}, {"f": b"foo"},
               OUT=b"f: FAILED\nf: FAILED\n",
               ERR=b"b2sum: WARNING: 1 line is improperly formatted\n"
                   b"b2sum: WARNING: 2 computed checksums did NOT match\n", EXIT=1)
    table_case(P + "check-multifail-warn" + sfx, ["--check", "--warn"], {"f.md5": multi},
               {"f": b"foo"}, OUT=b"f: FAILED\nf: FAILED\n",
               ERR=b"b2sum: f.md5: 3: improperly formatted BLAKE2b checksum line\n"
                   b"b2sum: WARNING: 1 line is improperly formatted\n"
                   b"b2sum: WARNING: 2 computed checksums did NOT match\n", EXIT=1)
    # b2sum must not take another program's BSD tag (upstream: md5sum refuses SHA1 lines).
    table_case(P + "check-bsd" + sfx, ["--check"], {"f.sha1": b"SHA1 (f) = " + deg + b"\n"},
               {"f": b""}, ERR=NOLINES % b"f.sha1", EXIT=1)
    table_case(P + "check-bsd2" + sfx, ["--check"], {"f.md5": T + b" (f) = " + deg + b"\n"},
               {"f": b""}, OUT=b"f: OK\n")
    table_case(P + "check-bsd3" + sfx, ["--check", "--status"],
               {"f.md5": T + b" (f) = " + deg + b"\n"}, {"f": b"bar"}, EXIT=1)
    table_case(P + "check-openssl" + sfx, ["--check"], {"f.sha1": b"SHA1(f)= " + deg + b"\n"},
               {"f": b""}, ERR=NOLINES % b"f.sha1", EXIT=1)
    table_case(P + "check-openssl2" + sfx, ["--check"], {"f.md5": T + b"(f)= " + deg + b"\n"},
               {"f": b""}, OUT=b"f: OK\n")
    table_case(P + "check-openssl3" + sfx, ["--check", "--status"],
               {"f.md5": T + b"(f)= " + deg + b"\n"}, {"f": b"bar"}, EXIT=1)
    two = deg + b"  f\n" + deg + b"  f.missing\n"
    table_case(P + "check-ignore-missing-1" + sfx, ["--check", "--ignore-missing"],
               {"f.md5": two}, {"f": b""}, OUT=b"f: OK\n")
    table_case(P + "check-ignore-missing-2" + sfx, ["--check", "--ignore-missing"],
               {"f.md5": two}, {"f": b""}, OUT=b"f: OK\n")
    table_case(P + "check-ignore-missing-3" + sfx, ["--check", "--quiet", "--ignore-missing"],
               {"f.md5": deg + b"  missing/f\n" + deg + b"  f\n"}, {"f": b""}, OUT=b"")
    table_case(P + "check-ignore-missing-4" + sfx, ["--ignore-missing"], {"f": b""},
               ERR=b"b2sum: the --ignore-missing option is meaningful only when verifying "
                   b"checksums\n" + TRY, EXIT=1, bits=bits)
    table_case(P + "check-ignore-missing-5" + sfx, ["--check", "--ignore-missing"],
               {"f.md5": deg + b"  missing\n"}, {"f": b""},
               ERR=b"b2sum: f.md5: no file was verified\n", EXIT=1)
    z = starts_00(bits)
    table_case(P + "check-ignore-missing-6" + sfx, ["--check", "--ignore-missing"],
               {"f.md5": b2(z, bits) + b"  f\n"}, {"f": z}, OUT=b"f: OK\n")
    table_case(P + "bsd-segv" + sfx, ["--check"], {"z": T + b" ("}, ERR=NOLINES % b"z", EXIT=1)
    table_case(P + "nul-in-cksum" + sfx, ["--check"], {"h": b"\0" * (bits // 4) + b"  h\n"},
               ERR=NOLINES % b"h", EXIT=1)

    P = "sha1sum.pl:"
    for cid, data in SHA_VECTORS:
        table_case(P + cid + sfx, [], {"f": data}, OUT=untagged(data, b"f", bits), bits=bits)
    table_case(P + "bs-sha-1" + sfx, [], {".\nfoo": b""}, OUT=b"\\" + deg + b"  .\\nfoo\n",
               bits=bits)
    table_case(P + "bs-sha-2" + sfx, [], {".\\foo": b""}, OUT=b"\\" + deg + b"  .\\\\foo\n",
               bits=bits)
    table_case(P + "bs-sha-3" + sfx, [], {".\rfoo": b""}, OUT=b"\\" + deg + b"  .\\rfoo\n",
               bits=bits)
    # (upstream: sha1sum refuses MD5 lines)
    table_case(P + "check-bsd" + sfx, ["--check"], {"f.md5": b"MD5 (f) = " + deg + b"\n"},
               {"f": b""}, ERR=NOLINES % b"f.md5", EXIT=1)
    table_case(P + "check-bsd2" + sfx, ["--check"], {"f.sha1": T + b" (f) = " + deg + b"\n"},
               {"f": b""}, OUT=b"f: OK\n")
    table_case(P + "check-bsd3" + sfx, ["--check", "--status"],
               {"f.sha1": T + b" (f) = " + deg + b"\n"}, {"f": b"bar"}, EXIT=1)
    table_case(P + "check-openssl" + sfx, ["--check"], {"f.md5": b"MD5(f)= " + deg + b"\n"},
               {"f": b""}, ERR=NOLINES % b"f.md5", EXIT=1)
    table_case(P + "check-openssl2" + sfx, ["--check"], {"f.sha1": T + b"(f)= " + deg + b"\n"},
               {"f": b""}, OUT=b"f: OK\n")
    table_case(P + "check-openssl3" + sfx, ["--check", "--status"],
               {"f.sha1": T + b"(f)= " + deg + b"\n"}, {"f": b"bar"}, EXIT=1)
    table_case(P + "bsd-segv" + sfx, ["--check"], {"z": T + b" ("}, ERR=NOLINES % b"z", EXIT=1)

    # ------------------------------------------------------------ md5sum-newline.pl
    P = "md5sum-newline.pl:"
    table_case(P + "newline" + sfx, [], {"a\nb": b""}, OUT=b"\\" + deg + b"  a\\nb\n",
               bits=bits)
    table_case(P + "zero" + sfx, ["--zero"], {"a\nb": b""}, OUT=deg + b"  a\nb\0", bits=bits)


# ---------------------------------------------------------------- b2sum.sh
NAMES5 = [b"a", b" b", b"*c", b"44", b" "]


@case("b2sum.sh:check-tag-format")
def _(c):
    """--tag lines of two lengths (-l 0, -l 128) in one file check with --strict -c."""
    exp = b""
    for n in NAMES5:
        c.write(n, n + b"\n")
        for lopt, bits in ((b"0", 512), (b"128", 128)):
            c.run([b"-l", lopt, b"--tag", n], out=tagged(n + b"\n", n, bits), err=None)
            exp += tagged(n + b"\n", n, bits)
    c.write("check.b2sum", exp)
    c.run(["--strict", "-c", "check.b2sum"], out=b"".join(ok_line(n) * 2 for n in NAMES5),
          err=None)


@case("b2sum.sh:check-openssl-format")
def _(c):
    """The same lines in openssl's form, NAME(FILE)= DIGEST."""
    exp = b""
    for n in NAMES5:
        c.write(n, n + b"\n")
        for bits in (512, 128):
            exp += tag(bits) + b"(" + n + b")= " + b2(n + b"\n", bits) + b"\n"
    c.write("openssl.b2sum", exp)
    c.run(["--strict", "-c", "openssl.b2sum"], out=b"".join(ok_line(n) * 2 for n in NAMES5),
          err=None)


@case("b2sum.sh:check-untagged")
def _(c):
    """Untagged lines of /dev/null check with and without -l; the known-value check of the
    two lines (upstream's reference digest, re-derived here)."""
    vals = b""
    for lopt, bits in ((b"0", 512), (b"128", 128)):
        line = untagged(b"", b"/dev/null", bits)
        c.run([b"--text", b"-l", lopt, b"/dev/null"], out=line, err=None)
        vals += line
        c.write("check.b2sum", line)
        c.run([b"-l", lopt, b"--strict", b"-c", b"check.b2sum"], out=b"/dev/null: OK\n",
              err=None)
        c.run(["--strict", "-c", "check.b2sum"], out=b"/dev/null: OK\n", err=None)
    c.write("check.vals", vals)
    exp = untagged(vals, b"check.vals", 128)
    # upstream's reference value, produced by the BLAKE2 reference implementation
    assert exp == b"796485dd32fe9b754ea5fd6c721271d9  check.vals\n", exp
    c.run(["--length=128", "check.vals"], out=exp, err=None)


@case("b2sum.sh:crash-check")
def _(c):
    """Truncated tags (crashed coreutils 8.26-8.28)."""
    c.write("crash.check", b"BLAKE2\nBLAKE2b\nBLAKE2-\nBLAKE2(\nBLAKE2 (\n")
    c.run(["-c", "crash.check"], out=b"", err=NOLINES % b"crash.check", rc=1)


# ---------------------------------------------------------------- md5sum-bsd.sh
BSD5 = [b"a", b" b", b"*c", b"dd", b" "]


def bsd_alt_setup(c):
    std = b""
    for n in BSD5:
        c.write(n, n + b"\n")
        line = untagged(n + b"\n", n)
        c.run([b"--text", n], out=line, err=None)
        std += line
    c.write("check.md5sum", std)
    # sed 's/  / /': the first double space becomes one (BSD alternate "DIGEST NAME")
    alt = b"".join(l.replace(b"  ", b" ", 1) + b"\n" for l in std.splitlines())
    c.write("check.md5", alt)
    return std, alt


@case("md5sum-bsd.sh:check-alternate-format")
def _(c):
    bsd_alt_setup(c)
    allok = b"".join(ok_line(n) for n in BSD5)
    c.run(["--strict", "-c", "check.md5sum"], out=allok, err=None)
    c.run(["--strict", "-c", "check.md5"], out=allok, err=None)


@case("md5sum-bsd.sh:no-alternate-on-gpg-header")
def _(c):
    std, _alt = bsd_alt_setup(c)
    token = b"____not_all_hex_so_no_match"
    token += b"_" * (128 - len(token))   # upstream's is as long as an md5 digest
    c.write("check2.md5sum", token + b" blah\n" + std)
    c.run(["-c", "check2.md5sum"], out=b"".join(ok_line(n) for n in BSD5),
          err=b"b2sum: WARNING: 1 line is improperly formatted\n", rc=0)


@case("md5sum-bsd.sh:alternate-ambiguous-first-line")
def _(c):
    _std, alt = bsd_alt_setup(c)
    rest = b"".join(l + b"\n" for l in alt.splitlines()[1:])   # tail -n+2
    c.run(["--strict", "-c"], stdin=rest, out=None, err=None, rc=1)


@case("md5sum-bsd.sh:tag-check-exclusive")
def _(c):
    c.run(["--tag", "--check", "/dev/null"], out=b"", err=None, rc=1)


@case("md5sum-bsd.sh:tag-text-exclusive")
def _(c):
    c.run(["--tag", "--text", "/dev/null"], out=b"", err=None, rc=1)


@case("md5sum-bsd.sh:check-tag-format")
def _(c):
    exp = b""
    for n in BSD5:
        c.write(n, n + b"\n")
        c.run([b"--tag", n], out=tagged(n + b"\n", n), err=None)
        exp += tagged(n + b"\n", n)
    c.write("check.md5", exp)
    c.run(["--strict", "-c", "check.md5"], out=b"".join(ok_line(n) for n in BSD5), err=None)


@case("md5sum-bsd.sh:check-tag-format-escaped-names")
def _(c):
    names = [b"a\\b", b"a\\", b"a\nb", b"a\tb"]
    exp = b""
    for n in names:
        c.write(n, b"")
        c.run([b"--tag", n], out=tagged(b"", n), err=None)
        exp += tagged(b"", n)
    c.write("check.md5", exp)
    c.run(["--strict", "-c", "check.md5"], out=b"".join(ok_line(n) for n in names), err=None)


@case("md5sum-bsd.sh:tag-escape-format")
def _(c):
    name = b"test\n\\\\file"
    c.write(name, b"")
    c.run([b"--tag", name], out=b"\\BLAKE2b (test\\n\\\\\\\\file) = " + b2(b"") + b"\n",
          err=None)


# ---------------------------------------------------------------- md5sum-parallel.sh
@case("md5sum-parallel.sh:xargs-P2-no-mixed-lines")
def _(c):
    """500 empty files, found thrice, summed by xargs -n500 -P2: 3 processes, 2 at a time,
    each writing about 69 KB to one shared pipe. No line may be mixed (checked strictly: every
    line is one whole expected line, 1500 in all), and nothing on stderr. Repeated 4 times."""
    tmp = os.path.join(c.d, "tmp")
    os.mkdir(tmp)
    names = [str(i) for i in range(1, 501)]
    for n in names:
        open(os.path.join(tmp, n), "wb").close()
    want = sorted(untagged(b"", b"tmp/" + n.encode()) for n in names for _ in range(3))
    shape = re.compile(rb"^[0-9a-f]{128}  ")
    for attempt in range(4):
        p = subprocess.run("find tmp tmp tmp -type f | xargs -n500 -P2 %s 2>err"
                           % shlex.quote(c.tool), shell=True, cwd=c.d, env=ENV,
                           capture_output=True, timeout=60)
        lines = p.stdout.splitlines(keepends=True)
        bad = [l for l in lines if not shape.match(l)]
        err = c.read("err")
        where = f"find tmp tmp tmp -type f | xargs -n500 -P2 b2sum (run {attempt + 1})"
        if bad:
            c.fail(f"{where}: {len(bad)} line(s) not of the form DIGEST  NAME, e.g. {bad[:3]!r}")
        elif sorted(lines) != want:
            c.fail(f"{where}: the lines are not the 1500 expected ones "
                   f"(got {len(lines)}; first unexpected: "
                   f"{sorted(set(lines) - set(want))[:2]!r})")
        if err or p.returncode != 0:
            c.fail(f"{where}: exit status {p.returncode}, stderr {err!r} (expected 0, empty)")


# ---------------------------------------------------------------- cksum-a.sh (blake2b row)
@case("cksum-a.sh:b2sum-t-devnull")
def _(c):
    """Upstream: 'b2sum -t /dev/null' equals 'cksum --untagged -a blake2b', which checks."""
    line = untagged(b"", b"/dev/null")
    c.run(["-t", "/dev/null"], out=line)
    c.write("out-c", line)
    c.run(["--check", "out-c"], out=b"/dev/null: OK\n")


@case("cksum-a.sh:no-check-with-bsd-algo")
def _(c):
    c.run(["-a", "bsd", "--check"], out=b"", err=None, rc=1)


@case("cksum-a.sh:no-algo-abbreviation")
def _(c):
    c.run(["-a", "sha22"], out=b"", err=None, rc=1)


# ---------------------------------------------------------------- cksum-c.sh (blake2b lines)
def cksum_c_setup(c):
    nums = list(range(1, 11))
    random.Random(9).shuffle(nums)               # upstream: shuf -i 1-10
    data = b"".join(b"%d\n" % n for n in nums)
    c.write("input", data)
    checks = b""
    for args, bits in (([], 512), (["-l", "384"], 384)):
        line = tagged(data, b"input", bits)
        c.run(["--tag"] + args + ["input"], out=line)
        checks += line
    c.write("CHECKSUMS", checks)
    return checks


@case("cksum-c.sh:strict-check-mixed-lengths")
def _(c):
    cksum_c_setup(c)
    c.run(["--strict", "--check", "CHECKSUMS"], out=b"input: OK\ninput: OK\n", err=None)


@case("cksum-c.sh:leading-space-backslash")
def _(c):
    checks = cksum_c_setup(c)
    piped = b"".join(b" \\" + l + b"\n" for l in checks.splitlines())   # sed 's/^/ \\/'
    c.run(["--strict", "-c"], stdin=piped, out=b"input: OK\ninput: OK\n", err=None)


SIGNED_HEAD = b"-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA384\n\n# ignored comment\n"
SIGNATURE = (b"-----BEGIN PGP SIGNATURE-----\n\n"
             b"# Note base64 doesn't have ambiguous delimiters in its charset\n"
             b"SHA384+BCAAdFiEEjFummQvbJuGfKhqAEWGuaUVxmjkFAmCDId0ACgkQEWGuaUVx\n"
             b"BLAKE2b/00001EuON62pTEnqrJ5lav61QxRByiuDp/6VODrRL2JWM6Stxu1Myws=\n"
             b"=AWU7\n-----END PGP SIGNATURE-----\n")


@case("cksum-c.sh:signed-checksums")
def _(c):
    """Non-strict --check of a clear-signed file (as upstream runs it: header + lines)."""
    checks = cksum_c_setup(c)
    c.write("signed_CHECKSUMS", SIGNED_HEAD + checks)
    c.run(["--check", "signed_CHECKSUMS"], out=b"input: OK\ninput: OK\n", err=None, rc=0)


@case("cksum-c.sh:signed-checksums-with-signature")
def _(c):
    """Upstream writes its signature block to a file it never reads; this runs what it
    evidently meant: header, lines and signature (a 'BLAKE2b/...' line included)."""
    checks = cksum_c_setup(c)
    c.write("signed_CHECKSUMS", SIGNED_HEAD + checks + SIGNATURE)
    c.run(["--check", "signed_CHECKSUMS"], out=b"input: OK\ninput: OK\n", err=None, rc=0)


# ---------------------------------------------------------------- tty-eof.pl (b2sum entry)
@case("tty-eof.pl:b2sum")
def _(c):
    """b2sum reading a terminal: 'a b' then ^D must end the input; it prints the digest line
    and exits 0, writing nothing to stderr."""
    master, slave = pty.openpty()
    errpath = os.path.join(c.d, "tty-eof.err")
    with open(errpath, "wb") as errf:
        p = subprocess.Popen(["b2sum"], executable=c.tool, stdin=slave, stdout=slave,
                             stderr=errf, cwd=c.d, env=ENV, start_new_session=True)
    os.close(slave)
    os.write(master, b"a b\n")
    os.write(master, b"\x04")
    got = b""
    deadline = time.time() + 10
    while time.time() < deadline:
        r, _w, _x = select.select([master], [], [], 0.2)
        if r:
            try:
                chunk = os.read(master, 4096)
            except OSError:
                break
            if not chunk:
                break
            got += chunk
        elif p.poll() is not None:
            break
    try:
        status = p.wait(timeout=max(0.1, deadline - time.time()))
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()
        c.fail("b2sum on a terminal: did not exit within 10 s after ^D")
        os.close(master)
        return
    os.close(master)
    want = b2(b"a b\n") + b"  -\r\n"
    if want not in got:
        c.fail(f"b2sum on a terminal: expected the line {want!r} in {got!r}")
    if status != 0:
        c.fail(f"b2sum on a terminal: exit status {status} (expected 0)")
    err = c.read("tty-eof.err")
    if err:
        c.fail(f"b2sum on a terminal: wrote to stderr: {err!r}")


# ---------------------------------------------------------------- driver
def run_case(fn, tool, root):
    d = tempfile.mkdtemp(dir=root)
    c = Ctx(tool, d)
    try:
        fn(c)
    except Exception as e:  # a crash of the case is a failure, not a stop
        c.fail(f"exception: {type(e).__name__}: {e}")
    shutil.rmtree(d, ignore_errors=True)
    return c.problems


def main():
    start = time.time()
    ours_failed, gnu_failed = [], []
    with tempfile.TemporaryDirectory(prefix="coreutils_sum_test.") as root:
        for name, fn in CASES:
            p = run_case(fn, OURS, root)
            if p:
                ours_failed.append(name)
                print(f"FAIL {name}:")
                for line in p:
                    print("    " + line)
            if GNU:
                g = run_case(fn, GNU, root)
                if g:
                    gnu_failed.append(name)
                    print(f"PORTING ERROR {name} (GNU {GNU} fails it too):")
                    for line in g:
                        print("    " + line)
    files = sorted({n.split(":")[0] for n, _ in CASES})
    print(f"{len(CASES)} cases from {len(files)} upstream tests ({', '.join(files)}): "
          f"ours {len(CASES) - len(ours_failed)} passed, {len(ours_failed)} failed; "
          + (f"GNU {len(CASES) - len(gnu_failed)} passed, {len(gnu_failed)} failed"
             if GNU else "GNU's b2sum absent: not cross-checked")
          + f"; {time.time() - start:.1f} s")
    return 1 if ours_failed or gnu_failed else 0


if __name__ == "__main__":
    sys.exit(main())
