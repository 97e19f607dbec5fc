#!/usr/bin/env python3
"""Every numeric option of both tools at its limits: 0, 1, powers of two around the thread
caps, the type's maximum and one past it, 2^63, 2^64 - 1, 2^64, negatives, signs, blanks, hex,
exponents, other scripts' digits and junk. Each run is under a time limit and an address-space
cap (prlimit) and may read at most 1 MiB of standard output before closing it: it must end by
itself, with status 0, or 1 or 2 and a message on standard error, or be ended by SIGPIPE when
it still had output to write; never another signal, never a hang. Where the reference tool has
the option (the official b3sum's --length and --num-threads, GNU b2sum's -l) and behaves sanely
for the value, the outcome must be the reference's, byte for byte (the first 1 MiB of output,
and only that when both had more to write).

Usage: limits_test.py B3SUM B2SUM
"""
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile

OURS = {"b3sum": os.path.abspath(sys.argv[1]), "b2sum": os.path.abspath(sys.argv[2])}
# FASTBLAKE_B3SUM_REFERENCE: a build of the newest official b3sum in place of Debian's 1.2.0,
# whose refusals of a value are 1.2's own ("b3sum: f: Failed to parse length.", status 1) where
# the newest's clap says "error: invalid value ..." with status 2.
NEWER_B3SUM = os.environ.get("FASTBLAKE_B3SUM_REFERENCE")
REFERENCE = {"b3sum": NEWER_B3SUM or shutil.which("b3sum", path="/usr/bin"),
             "b2sum": shutil.which("b2sum", path="/usr/bin")}
ENV = {k: v for k, v in os.environ.items() if not k.startswith("LC_") and k != "LANG"}
ENV["LC_ALL"] = "C"
ADDRESS_SPACE = 4 << 30  # bytes: far above what a bounded run needs, far below a runaway's
# Sanitizers reserve terabytes of address space: no cap for a sanitized build.
for tool in OURS.values():
    with open(tool, "rb") as f:
        if any(name in f.read() for name in (b"__asan_init", b"__tsan_init")):
            ADDRESS_SPACE = resource.RLIM_INFINITY
TIME_LIMIT = 60
OUTPUT_LIMIT = 1 << 20

VALUES = ["0", "1", "2", "7", "8", "31", "32", "33", "63", "64", "65", "255", "256", "1023",
          "1024", "1025", "4096", "4097", "65536", "100000", "2147483647", "2147483648",
          "4294967295", "4294967296", str(2**53), str(2**63 - 1), str(2**63), str(2**64 - 64),
          str(2**64 - 1), str(2**64), str(2**64 + 1), "9" * 40, "-1", "-0", "+1", "+0", "+", "-",
          "++1", " 1", "1 ", "\t8", "0x10", "0X10", "010", "0o7", "1e3", "1.5", "8k", "abc", "",
          "\u0661", "\uff11", "1_000"]

# option -> (tool, needs a file argument, has a reference with the option)
OPTIONS = [
    ("b3sum", ["-l"], True), ("b3sum", ["--length"], True), ("b3sum", ["--seek"], False),
    ("b3sum", ["--num-threads"], True), ("b3sum", ["-j"], False), ("b3sum", ["--jobs"], False),
    ("b3sum", ["--seek", "{}", "-l", "3"], False), ("b3sum", ["-l", "{}", "--raw"], True),
    ("b2sum", ["-l"], True), ("b2sum", ["--length"], True), ("b2sum", ["-j"], False),
    ("b2sum", ["--num-threads"], False), ("b2sum", ["-a", "blake2bp", "--num-threads"], False),
    ("b2sum", ["-c", "-j"], False),
]


def limit():
    resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)


def run(tool, args, cwd):
    """(status, first MiB of stdout, stderr, whether stdout was cut); status "hang" on a
    timeout. A negative status is the killing signal."""
    p = subprocess.Popen([os.path.basename(tool)] + args, executable=tool, cwd=cwd, env=ENV,
                         stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, preexec_fn=limit)
    out = b""
    try:
        while len(out) < OUTPUT_LIMIT:
            chunk = p.stdout.read1(OUTPUT_LIMIT - len(out))
            if not chunk:
                break
            out += chunk
        cut = len(out) >= OUTPUT_LIMIT
        p.stdout.close()
        err = p.stderr.read()
        return p.wait(timeout=TIME_LIMIT), out, err, cut
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()
        return "hang", out, b"", False


def sane_for_reference(option, value):
    # The official b3sum starts as many threads as asked for, and clap reads "-1" as an option.
    digits = value[1:] if value.startswith("+") else value
    if "--num-threads" in option and digits.isascii() and digits.isdigit() and int(digits) > 64:
        return False
    return not value.startswith("-")


failures = []
cases = 0
with tempfile.TemporaryDirectory() as d:
    with open(os.path.join(d, "f"), "wb") as f:
        f.write(b"abc" * 1000)
    with open(os.path.join(d, "sums"), "wb") as f:
        f.write(subprocess.run([OURS["b2sum"], "f"], cwd=d, capture_output=True).stdout)
    for tool, option, has_reference in OPTIONS:
        for value in VALUES:
            args = [a.replace("{}", value) for a in option] if "{}" in option else option + [value]
            args = args + (["sums"] if "-c" in option else ["f"])
            cases += 1
            status, out, err, cut = run(OURS[tool], args, d)
            shown = f"{tool} {' '.join(map(repr, args))}"
            if status == "hang":
                failures.append(f"{shown}: no end within {TIME_LIMIT} s")
                continue
            if status < 0 and not (status == -signal.SIGPIPE and cut):
                failures.append(f"{shown}: killed by {signal.Signals(-status).name}: {err[-300:]!r}")
                continue
            if status != -signal.SIGPIPE and (status not in (0, 1, 2) or
                                              (status != 0 and not err.strip())):
                failures.append(f"{shown}: status {status} with stderr {err!r}")
                continue
            if b"terminate called" in err or b"panicked" in err:
                failures.append(f"{shown}: {err!r}")
            if has_reference and REFERENCE[tool] and sane_for_reference(option, value):
                want = run(REFERENCE[tool], args, d)
                got = (status, out, err.replace(OURS[tool].encode(), b"b2sum"), cut)
                want = (want[0], want[1], want[2].replace(REFERENCE[tool].encode(), b"b2sum"),
                        want[3])
                # Output cut short: the official b3sum ignores SIGPIPE and panics; ours dies of
                # it, as coreutils do. Only the output is compared then.
                if cut and want[3]:
                    got, want = got[1], want[1]
                elif tool == "b3sum" and not NEWER_B3SUM and want[0] != 0:
                    got = (status, out, err.startswith(b"error: invalid value '"))
                    want = (2, b"", True)
                if got != want:
                    failures.append(f"{shown}: against the reference\n  got  {got!r:.400}\n"
                                    f"  want {want!r:.400}")
if failures:
    print("\n".join(failures))
    print(f"{len(failures)} failure(s) in {cases} cases")
    sys.exit(1)
print(f"all {cases} limit cases end well")
