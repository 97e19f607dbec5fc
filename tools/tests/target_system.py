"""The system a tool under test was built for, as the suites written against Linux's tools see
it. A Windows build (a .exe) runs under Wine (cmake/toolchains/wine-run.sh); what it cannot do
there, or says otherwise, is named here once:
- names Windows cannot hold ('\\' separates folders; control characters and <>:"|?* are
  refused; a name is UTF-16, so bytes that are not UTF-8 name nothing; 255 characters at most);
- OS errors in Windows' words and numbers, as the official b3sum prints Rust's io::Error there
  (Wine's texts: "File not found." where Windows says "The system cannot find the file
  specified."), and a directory opened as a file is refused as Rust's File::open is refused
  (ERROR_ACCESS_DENIED), where the C runtime's strerror (b2sum, as GNU's is built there) keeps
  the POSIX words;
- what Wine does not show a Windows program: Unix symbolic links (it follows them), a directory
  as standard input, a process's own memory apart from Wine's.
A Linux build for another architecture (the static tools, FASTBLAKE_STATIC_TOOLS) runs under
the emulator that FASTBLAKE_TOOL_EMULATOR names (qemu-user, words split as a shell splits them);
it says what the Linux tools say.
A suite calls use(TOOL) once, runs its tools through command(), compares through
in_target_words() and skips what cannot apply through skip(CASE, REASON); skipped() lists them.
"""
import os
import shlex
import subprocess
import sys

WINE_RUN = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                         "cmake", "toolchains", "wine-run.sh"))

windows = False
_rust_words = True
_under_test = None
_skipped = []

# Linux's words, then Wine's, in the order they are replaced (the longer first).
_RUST_ERRORS_ON_WINDOWS = [
    (b"No such file or directory (os error 2)", b"File not found. (os error 2)"),
    (b"Is a directory (os error 21)", b"Access denied. (os error 5)"),
    # GNU's check messages, which b3sum words as GNU does: the OS's text alone.
    (b"No such file or directory", b"File not found."),
    (b"Is a directory", b"Access denied."),
]

# Characters that Windows refuses in a name, and why.
_FORBIDDEN_IN_NAMES = {"\\": "'\\' separates folders on Windows",
                       **{c: f"Windows refuses {c!r} in names" for c in '<>:"|?*'},
                       **{chr(c): "Windows refuses control characters in names" for c in range(32)}}


def use(tool, rust_words=True):
    """TOOL: the program under test. RUST_WORDS: whether it words OS errors as Rust's io::Error
    does (b3sum, bao), rather than as the C runtime's strerror (b2sum)."""
    global windows, _rust_words, _under_test
    windows = tool.lower().endswith(".exe")
    _rust_words = rust_words
    _under_test = os.path.abspath(tool)


# The emulator of another architecture's Linux build, if any.
emulator = shlex.split(os.environ.get("FASTBLAKE_TOOL_EMULATOR", ""))


def command(tool, argv0=None):
    """The command line that runs TOOL: under Wine for a Windows build; the tool under test
    under the emulator (FASTBLAKE_TOOL_EMULATOR) for another architecture's, ARGV0 its argv[0]
    (qemu-user's -0)."""
    if tool.lower().endswith(".exe"):
        return [WINE_RUN, tool]
    if emulator and os.path.abspath(tool) == _under_test:
        return emulator + (["-0", argv0] if argv0 else []) + [tool]
    return [tool]


def run(command, **options):
    """subprocess.run(COMMAND, **OPTIONS), with its output captured. Under Wine, about one start
    in 4,000 ends at once with status 1 and nothing on either stream, the program never seen to
    run (its standard handles missing; never reproduced alone): such a run is made once more,
    and said on standard error where the second run differs (a run that ends so by design, as
    `b2sum -c --status` of a bad line does, ends so again). A program that does that every time
    still fails."""
    result = subprocess.run(command, **options)
    # (Standard error merged into standard output counts: both are read, as one.)
    captured = options.get("capture_output") or (
        options.get("stdout") == subprocess.PIPE and
        options.get("stderr") in (subprocess.PIPE, subprocess.STDOUT))
    if windows and captured and result.returncode == 1 and not result.stdout and not result.stderr:
        again = subprocess.run(command, **options)
        if (again.returncode, again.stdout, again.stderr) != (1, result.stdout, result.stderr):
            print(f"(Wine: {command[1:3]} ended at once with status 1, nothing written; started "
                  f"again: status {again.returncode})", file=sys.stderr)
        result = again
    return result


def in_target_words(value):
    """VALUE (bytes or text, or tuples and lists of them), as the target says it: Linux's OS error texts
    in Windows' words for a Windows build."""
    if not windows or not _rust_words:
        return value
    if isinstance(value, bytes):
        for linux, wine in _RUST_ERRORS_ON_WINDOWS:
            value = value.replace(linux, wine)
        return value
    if isinstance(value, str):
        return os.fsdecode(in_target_words(os.fsencode(value)))
    if isinstance(value, (tuple, list)):
        return type(value)(in_target_words(v) for v in value)
    return value


def why_unnameable(name):
    """Why the target cannot hold a file of this name (None: it can)."""
    if windows:
        text = os.fsdecode(name) if isinstance(name, bytes) else name
        if any(len(part.encode("utf-16-le", "surrogatepass")) > 2 * 255
               for part in text.split("/")):
            return "Windows holds at most 255 characters a name"
        for character in text:
            if character in _FORBIDDEN_IN_NAMES:
                return _FORBIDDEN_IN_NAMES[character]
            if "\udc80" <= character <= "\udcff":
                return "a Windows name is UTF-16: no name there holds bytes that are not UTF-8"
    return None


def nameable(names):
    """The names the target can hold, in their order."""
    return [n for n in names if why_unnameable(n) is None]


def skip(case, reason):
    _skipped.append(f"{case}: {reason}")


def skipped():
    """What was skipped and why, a line each (nothing natively)."""
    where = "Windows" if windows else "the emulator"
    return "".join(f"skipped on {where}: {line}\n" for line in _skipped)
