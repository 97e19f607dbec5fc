"""What b2sum_test.py and b2sum_check_cases.py share: the two tools (ours, from the command
line, and GNU's where it is installed), the environment both run in, running them, the
count of checks and their failures, the hashes written out with hashlib, the contents and
names of the files the cases hash, and the helpers that run the tools in the test's
directory. A Windows build (b2sum.exe) runs under Wine against GNU's Linux output as GNU's
b2sum prints it on Windows: its lines marked '*' (binary mode, the default there), the
program named by its file (tools/tests/target_system.py has the rest)."""
import hashlib
import os
import re
import shutil
import subprocess
import sys
import threading

# target_system.py, shared by the tools' suites, is in tools/tests.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests"))
import target_system as target  # noqa: E402

OURS = os.path.abspath(sys.argv[1])
target.use(OURS, rust_words=False)
GNU = shutil.which("b2sum", path="/usr/bin")
GNU_ONLY = os.environ.get("B2SUM_TEST_GNU_ONLY") == "1"
failures = []
cases = 0
# (b2sum_test.py runs cases from two threads.)
counting = threading.Lock()

# Both tools see the same environment: the caller's, in the C locale, without what would change
# GNU's behavior (POSIXLY_CORRECT changes option parsing; the locale, messages and quoting).
BASE_ENV = {k: v for k, v in os.environ.items()
            if k not in ("POSIXLY_CORRECT", "LANG", "LANGUAGE") and not k.startswith("LC_")}
LOCALE = os.environ.get("FASTBLAKE_TEST_LOCALE", "C")
if target.windows:
    # A Windows build prints UTF-8 whatever the code page, as GNU's does in a UTF-8 locale.
    LOCALE = "C.UTF-8"
BASE_ENV["LC_ALL"] = LOCALE
if subprocess.run(["locale"], env=BASE_ENV, capture_output=True).stderr:
    print(f"the locale {LOCALE} is not installed: skipped")
    sys.exit(77)
UTF8 = subprocess.run(["locale", "charmap"], env=BASE_ENV, capture_output=True,
                      text=True).stdout.strip() == "UTF-8"


def Q(text):
    """gnulib's quote() of plain text: in a UTF-8 locale between curly quotes."""
    return b"\xe2\x80\x98" + text + b"\xe2\x80\x99" if UTF8 else b"'" + text + b"'"


# A run that has not ended by then is reported as hung. Generous: Windows' build under Wine opens
# a file in a quarter of a millisecond (its server's round trips), and --files0-from's list of
# 65,540 names takes 17 s there, on an idle machine.
TIMEOUT = 120


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
        # A Windows build's argv[0] is Wine's path to it, whatever the caller asks; an emulated
        # one's is what qemu-user is told.
        if tool == OURS and (target.windows or target.emulator):
            command = target.command(tool, argv0)
        else:
            command = [argv0]
        p = target.run(command + args, executable=None if len(command) > 1 else tool,
                           input=data,
                           stdout=stdout_arg,
                           stderr=subprocess.STDOUT if merge else subprocess.PIPE,
                           cwd=cwd, env=environ, timeout=TIMEOUT, **kwargs)
        return p.returncode, p.stdout if p.stdout is not None else b"", p.stderr or b""
    except subprocess.TimeoutExpired:
        return "timed out", b"", b""
    finally:
        for fd in to_close:
            os.close(fd)


def binary_mode(args):
    """Whether GNU's b2sum reads ARGS' files in binary mode, marking its lines '*', on a system
    with a text mode (Windows): its default there, unless -t or --text comes last of the two."""
    binary = True
    for a in args:
        if a == "--":
            break
        if a.startswith("--"):
            name = a[2:].partition("=")[0]
            if len(name) >= 2 and "text".startswith(name) or name and "binary".startswith(name):
                binary = name[0] == "b"
        elif a.startswith("-"):
            for option in a[1:]:
                if option in "laj":  # takes a value: the rest is it
                    break
                if option in "bt":
                    binary = option == "b"
    return binary


def on_target(args, result):
    """RESULT (status, stdout, stderr) of Linux's GNU b2sum for ARGS, as GNU's prints it on the
    target: on Windows, its hash lines marked '*' in binary mode."""
    if not target.windows or not binary_mode(args) or any(
            a in ("-c", "--check") or (a.startswith("-") and not a.startswith("--") and "c" in a)
            for a in args):
        return result
    status, out, err = result
    out = re.sub(rb"(?m)(?:^|(?<=\0))(\\?[0-9a-f]{2,128})  ", rb"\1 *", out)
    return status, out, err


def checked_names(args, out):
    """The names a check (-c) run's verdicts name, as GNU's OUT gives them ("name: OK",
    escaped behind a leading backslash): none for another run."""
    if not any(a in ("-c", "--check") or (a.startswith("-") and not a.startswith("--") and "c" in a)
               for a in args):
        return []
    names = []
    for line in out.split(b"\n"):
        name, colon, _ = line.rpartition(b": ")
        if not colon:
            continue
        if name.startswith(b"\\"):
            name = re.sub(rb"\\(.)", lambda m: {b"n": b"\n", b"r": b"\r"}.get(m[1], m[1]), name[1:])
        names.append(os.fsdecode(name))
    return names


def unnameable(name, args, argv0="b2sum"):
    """Whether the case cannot run on the target (skipped there, with the reason): its ARGS
    name a file that the target cannot hold, or it names the program otherwise than by its
    file (a Windows program's name is its file's)."""
    reason = next(filter(None, map(target.why_unnameable, args)), None)
    if target.windows and argv0 != "b2sum":
        reason = "the program's name in messages is its file's there"
    if reason:
        target.skip(name, reason)
    return reason is not None


def short(value):
    text = repr(value)
    return text if len(text) <= 3000 else text[:3000] + "..."


def check(name, got, want):
    global cases
    with counting:
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

# The files' contents and names (b2sum_test.py writes them).
ABC_DATA = b"abc"
TEXT = b"hello\nworld\n"
BIG = (bytes(range(251)) * 4200)[:1 << 20]
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
ABC = b2(ABC_DATA)
EMPTY = b2(b"")


def in_directory(d):
    """The helpers that run the tools in the directory d: (path, write, run_ours, expect,
    same_as_gnu, help_like_gnu, version_like_gnu)."""
    def path(name):
        return os.path.join(os.fsencode(d), os.fsencode(name))

    def write(name, data):
        with open(path(name), "wb") as f:
            f.write(data)
        return os.fsdecode(name)

    def run_ours(args, stdin=b"", cwd=d, **kw):
        return run(OURS, args, stdin, cwd, **kw)

    def expect(name, args, status, stdout, stderr=b"", stdin=b"", cwd=d, **kw):
        if not unnameable(name, args + checked_names(args, stdout), kw.get("argv0", "b2sum")):
            check(name, run(OURS, args, stdin, cwd, **kw),
                  on_target(args, (status, stdout, stderr)))

    def same_as_gnu(name, args, stdin=b"", cwd=d, **kw):
        if GNU and not unnameable(name, args, kw.get("argv0", "b2sum")):
            gnu = run(GNU, args, stdin, cwd, **kw)
            if not unnameable(name, checked_names(args, gnu[1])):
                check(name + " (against GNU b2sum)", run(OURS, args, stdin, cwd, **kw),
                      on_target(args, gnu))

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
        if target.windows:
            # GNU's words where files have a text mode (O_BINARY).
            for linux, windows in ((b"read in binary mode\n", b"read in binary mode (default unless "
                                    b"reading tty stdin)\n"),
                                   (b"read in text mode (default)\n", b"read in text mode (default "
                                    b"if reading tty stdin)\n")):
                want_body = want_body.replace(linux, windows)
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

    return path, write, run_ours, expect, same_as_gnu, help_like_gnu, version_like_gnu
