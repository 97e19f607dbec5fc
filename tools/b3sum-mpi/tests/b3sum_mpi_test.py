#!/usr/bin/env python3
"""b3sum-mpi under mpiexec on this machine (oversubscribed) against the official b3sum, byte
for byte (standard output, standard error, exit status), on 1, 2, 3, 4 and 8 ranks, in every
mode the official version has; fastblake's own options against fastblake's b3sum. Sizes go
around every boundary the splitter makes: FASTBLAKE_MPI_PIECE_SIZE makes pieces small, so that
files of a few chunks are cut into many. Then a sparse file past 4 GiB in the default pieces,
hundreds of files in one run, check files, and failures: a read error, an open error, a file
that grows or shrinks, each on a rank other than the root, and a rank killed mid-run.

Usage: b3sum_mpi_test.py MPIEXEC B3SUM_MPI B3SUM FAIL_IO_LIBRARY
"""
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

MPIEXEC, OURS, OUR_B3SUM, FAIL_IO = (os.path.abspath(a) for a in sys.argv[1:5])
OFFICIAL = shutil.which("b3sum", path="/usr/bin")
ENV = {k: v for k, v in os.environ.items() if not k.startswith("LC_") and k != "LANG"}
ENV["LC_ALL"] = "C"
# Open MPI refuses root without these (CI runs as root); they change nothing for other users.
ENV["OMPI_ALLOW_RUN_AS_ROOT"] = "1"
ENV["OMPI_ALLOW_RUN_AS_ROOT_CONFIRM"] = "1"
# When a rank exits non-zero, Open MPI waits this long (1 s by default) between asking the
# other ranks to end and killing them, about 2 s a run all told; most cases here end so. Every
# rank of b3sum-mpi exits with the status the root broadcasts once its output is written.
ENV["OMPI_MCA_odls_base_sigkill_timeout"] = "0"
# The point-to-point layer a job on one machine without a fabric ends up with anyway (ob1):
# named, so that each rank does not first load and probe the fabric's libraries (cm's), which
# cost 0.2 s of each launch here, a fifth of this suite's time.
ENV["OMPI_MCA_pml"] = "ob1"
# -q: no banner of Open MPI's own when a rank exits non-zero, so the output is b3sum's.
LAUNCH = [MPIEXEC, "-q", "--oversubscribe"]
# What the launcher, not b3sum-mpi, may write to standard error even with -q: Open MPI's
# "[host:pid] ..." lines and libevent's "[warn] ..." (seen: "[warn] Epoll MOD(1) on fd 25
# failed ... Bad file descriptor" as a job ends). b3sum's own lines start "b3sum".
LAUNCHER_LINE = re.compile(rb"^\[[^\]\n]*\] [^\n]*\n?", re.MULTILINE)
failures = []


def run(command, stdin=b"", env=None, cwd=None, timeout=300):
    environ = dict(ENV)
    environ.update(env or {})
    try:
        p = subprocess.run(command, input=stdin, capture_output=True, env=environ, cwd=cwd,
                           timeout=timeout)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return "timed out", b"", b""


references = {}


def reference_run(command, stdin=b"", cwd=None):
    """A reference tool's result, run once for each command, input and directory."""
    key = (tuple(command), stdin, cwd)
    if key not in references:
        references[key] = run(command, stdin, cwd=cwd)
    return references[key]


class Run(tuple):
    """(status, stdout, stderr) of a run, stderr without the launcher's lines, which `launcher`
    keeps: shown with a failure, which they may explain (a rank that could not start), with
    what the same job says without -q (`again`, which runs it once more)."""
    launcher = b""
    again = None


def launch(ranks, args, stdin, env, cwd, wrapper, quiet):
    # Each job's session directory of its own: two launchers at once share Open MPI's default
    # one under /tmp, which the first to end removes while the other still makes its own in it
    # ("ORTE_ERROR_LOG: Error in file ../../../orte/util/session_dir.c at line 107", exit 1 in
    # silence; seen 1 job in 4 with the machine loaded).
    with tempfile.TemporaryDirectory(prefix="b3sum-mpi-session-") as session:
        environ = dict(env or {}, OMPI_MCA_orte_tmpdir_base=session)
        launcher = LAUNCH if quiet else [arg for arg in LAUNCH if arg != "-q"]
        return run(launcher + ["-n", str(ranks)] + list(wrapper) + [OURS] + args, stdin, environ,
                   cwd)


def mpi(ranks, args, stdin=b"", env=None, cwd=None, wrapper=()):
    status, out, err = launch(ranks, args, stdin, env, cwd, wrapper, quiet=True)
    result = Run((status, out, LAUNCHER_LINE.sub(b"", err)))
    result.launcher = b"".join(LAUNCHER_LINE.findall(err))
    result.again = lambda: launch(ranks, args, stdin, env, cwd, wrapper, quiet=False)
    return result


def check(name, got, want):
    if got != want:
        shown = lambda r: (r[0], r[1][:600], r[2][:600])  # noqa: E731
        launcher = getattr(got, "launcher", b"")[:1000]
        report = f"{name}:\n  got  {shown(got)!r}\n  want {shown(want)!r}"
        if launcher:
            report += f"\n  the launcher said {launcher!r}"
        if getattr(got, "again", None):
            status, _, err = got.again()
            report += f"\n  run again without -q: status {status}, standard error {err[-2000:]!r}"
        failures.append(report)


def compare(name, ranks, args, stdin, cwd, piece, reference, reference_args):
    env = {"FASTBLAKE_MPI_PIECE_SIZE": str(piece)} if piece else None
    want = reference_run([reference or OFFICIAL] + (reference_args or args), stdin, cwd)
    check(f"{name} on {ranks} ranks", mpi(ranks, args, stdin, env, cwd), want)


# Two jobs at a time: a run spends most of its time starting and ending its ranks. same()
# queues a comparison; settle() waits for those queued, before the files change.
jobs = ThreadPoolExecutor(max_workers=2)
queued = []


def same(name, ranks, args, stdin=b"", cwd=None, piece=None, reference=None,
         reference_args=None):
    """Ours with args against the reference with reference_args (or the same args)."""
    queued.append(jobs.submit(compare, name, ranks, args, stdin, cwd, piece, reference,
                              reference_args))


def settle():
    for job in queued:
        job.result()
    queued.clear()


with tempfile.TemporaryDirectory() as d:
    rng = random.Random(1)
    piece = 8192
    sizes = [0, 1, 63, 64, 1023, 1024, 1025, 2047, 2048, 2049, 8191, 8192, 8193]
    for k in (2, 3, 4, 5, 8, 16, 32):
        sizes += [k * piece - 1, k * piece, k * piece + 1]
    sizes += [3 * piece + 1000, 7 * piece + 5000, 100000]
    names = []
    for i, n in enumerate(sizes):
        name = f"f{i:02d}_{n}"
        with open(os.path.join(d, name), "wb") as f:
            f.write(rng.randbytes(n))
        names.append(name)
    key = bytes(range(32))
    modes = [("plain", [], b""), ("keyed", ["--keyed"], key),
             ("derive-key", ["--derive-key", "fastblake mpi test"], b""),
             ("length 100", ["--length", "100"], b""), ("no names", ["--no-names"], b""),
             ("2 threads per rank", ["--num-threads", "2"], b""), ("no mmap", ["--no-mmap"], b""),
             ("length 7, keyed", ["-l", "7", "--keyed"], key)]
    with_missing = names[:5] + ["missing"] + names[5:] + [d]  # a missing file, a directory
    if not OFFICIAL:
        print("the official b3sum (Debian's b3sum) is not installed: skipped")
        sys.exit(77)
    for ranks in (1, 2, 3, 4, 8):
        for mode, args, stdin in modes:
            same(f"{mode}, pieces of {piece}", ranks, args + with_missing, stdin, d, piece)
    # Every chunk its own piece; and the default pieces, files whole.
    for ranks in (2, 5):
        same("pieces of one chunk", ranks, names, b"", d, 1024)
        same("default pieces", ranks, ["--keyed"] + names, key, d)
    # One input in raw bytes; standard input, which the root reads.
    for ranks in (1, 3):
        same("raw", ranks, ["--raw", names[-1]], b"", d, piece)
        same("standard input and files", ranks, [names[9], "-", names[20]], b"abc" * 5000, d,
             piece)
    # fastblake's own options, against fastblake's b3sum.
    for ranks in (1, 3):
        for args in (["--tag"] + names, ["--tag", "-l", "9"] + names,
                     ["--seek", "100", "-l", "50"] + names, ["-z"] + names, ["-r", "."]):
            same(" ".join(args[:3]), ranks, args, b"", d, piece, OUR_B3SUM)
    settle()

    # Check files: OK, FAILED, a missing file, malformed lines; then GNU's options.
    ok = run([OFFICIAL] + names, cwd=d)[1]
    lines = ok.splitlines(keepends=True)
    wrong = lines[7][:3] + (b"0" if lines[7][3:4] != b"0" else b"1") + lines[7][4:]
    sums = b"".join(lines[:7]) + wrong + b"x" * 64 + b"  missing\n" + b"not a line\n" + b"".join(
        lines[8:])
    with open(os.path.join(d, "sums"), "wb") as f:
        f.write(sums)
    # (Against our b3sum, whose check mode is the newest official's: Debian's 1.2.0 has other
    # messages for malformed lines and no WARNING line.)
    for ranks in (1, 2, 4, 8):
        same("check", ranks, ["--check", "sums"], b"", d, piece, OUR_B3SUM)
        same("check, quiet", ranks, ["-c", "--quiet", "sums"], b"", d, piece, OUR_B3SUM)
        same("check from standard input", ranks, ["-c"], sums, d, piece, OUR_B3SUM)
    for ranks in (1, 3):
        for args in (["-c", "--status", "sums"], ["-c", "--ignore-missing", "sums"],
                     ["-c", "sums", "nosuchsums", "sums"]):
            same(" ".join(args), ranks, args, b"", d, piece, OUR_B3SUM)
    settle()

    # Hundreds of files in one run.
    many = []
    for i in range(300):
        name = os.path.join("many", f"m{i}")
        os.makedirs(os.path.join(d, "many"), exist_ok=True)
        with open(os.path.join(d, name), "wb") as f:
            f.write(rng.randbytes(rng.choice([0, 1, 1024, 5000, 20000, 70000])))
        many.append(name)
    for ranks in (4, 8):
        same("300 files", ranks, many, b"", d, piece)
    # The same names from a list (--files0-from), spread over the job as the arguments are: the
    # official b3sum's output for them as arguments, a missing file and a directory among them;
    # the list from standard input; check files from a list.
    listed = many + with_missing
    with open(os.path.join(d, "names.list"), "wb") as f:
        f.write(b"\0".join(os.fsencode(n) for n in listed) + b"\0")
    with open(os.path.join(d, "sums.list"), "wb") as f:
        f.write(b"sums\0nosuchsums\0sums\0")
    for ranks in (1, 3, 4):
        same("--files0-from", ranks, ["--files0-from=names.list"], b"", d, piece,
             reference_args=listed)
        same("--keyed --files0-from", ranks, ["--keyed", "--files0-from", "names.list"], key, d,
             piece, reference_args=["--keyed"] + listed)
        same("--files0-from -", ranks, ["--files0-from", "-"],
             b"\0".join(os.fsencode(n) for n in names), d, piece, reference_args=names)
        same("-c --files0-from", ranks, ["-c", "--files0-from=sums.list"], b"", d, piece,
             OUR_B3SUM, reference_args=["-c", "sums", "nosuchsums", "sums"])
    settle()

    # A sparse file past 4 GiB, in the default pieces of 256 MiB.
    big = os.path.join(d, "sparse")
    with open(big, "wb") as f:
        f.truncate((4 << 30) + 12345)
    for ranks in (1, 3):
        same("sparse 4 GiB", ranks, ["sparse", names[20]], b"", d)
    settle()
    os.remove(big)

    # Failures on a rank other than the root. The root's reads of the target sleep, so that
    # another rank surely takes one of its pieces.
    target = os.path.join(d, "target")
    wrapper = os.path.join(d, "fault.sh")
    with open(wrapper, "w") as f:
        f.write('#!/bin/sh\nif [ "${OMPI_COMM_WORLD_RANK:-0}" = 0 ]; then\n'
                '  export FASTBLAKE_DELAY_PATH="$TARGET" FASTBLAKE_DELAY_US=300000\n'
                'else\n  export FASTBLAKE_FAIL_PATH="$TARGET"\nfi\n'
                f'export LD_PRELOAD="{FAIL_IO}"\nexec "$@"\n')
    os.chmod(wrapper, 0o755)
    content = rng.randbytes(40 * piece + 77)

    def fault(op, errno_value=None):
        with open(target, "wb") as f:
            f.write(content)
        env = {"TARGET": "target", "FASTBLAKE_FAIL_OP": op, "FASTBLAKE_MPI_PIECE_SIZE": str(piece)}
        if errno_value:
            env["FASTBLAKE_FAIL_ERRNO"] = str(errno_value)
        return mpi(3, [names[3], "target", names[20]], b"", env, d, [wrapper])

    good = run([OFFICIAL, names[3], names[20]], cwd=d)[1]
    for op, errno_value, message in (
            ("read", None, b"Input/output error (os error 5)"),
            ("open", 13, b"Permission denied (os error 13)"),
            ("grow", None, b"the file changed size while it was being hashed"),
            ("shrink", None, b"the file shrank while it was being hashed")):
        got = fault(op, errno_value)
        # A rank whose piece lay before the cut sees the size change instead.
        if op == "shrink" and got[2].endswith(b"changed size while it was being hashed\n"):
            message = b"the file changed size while it was being hashed"
        check(f"a rank's {op} failure", got, (1, good, b"b3sum: target: " + message + b"\n"))
    # A rank that dies: Open MPI ends the job, non-zero; no line for the file it held, nor
    # anything after it.
    status, out, err = fault("kill")
    first = good.splitlines(keepends=True)[0]
    if status in (0, "timed out") or out not in (b"", first):
        failures.append(f"a killed rank: status {status}, output {out!r}, errors {err[:300]!r}")

    # Whole lines at once on rank 0's standard output, as b3sum's: every write(2) ends a line
    # (fail_io.c logs them), hashing and checking.
    logger = os.path.join(d, "log.sh")
    with open(logger, "w") as f:
        f.write('#!/bin/sh\nif [ "${OMPI_COMM_WORLD_RANK:-0}" = 0 ]; then\n'
                f'  export FASTBLAKE_LOG_WRITES="{os.path.join(d, "writes")}"\n'
                f'  export LD_PRELOAD="{FAIL_IO}"\nfi\nexec "$@"\n')
    os.chmod(logger, 0o755)
    for args in (names, ["-c", "sums"]):
        if os.path.exists(os.path.join(d, "writes")):
            os.remove(os.path.join(d, "writes"))
        status, out, err = mpi(3, args, b"", None, d, [logger])
        with open(os.path.join(d, "writes")) as f:
            writes = [tuple(map(int, w.split())) for w in f.read().splitlines()]
        if len(writes) != out.count(b"\n") or any(last != 10 for _, last in writes):
            failures.append(f"whole lines, {args[0]}: {len(writes)} writes for "
                            f"{out.count(chr(10).encode())} lines: {writes[:5]}")

    # Its own --help and --version, not b3sum's.
    status, out, err = mpi(1, ["--help"])
    if (status, err) != (0, b"") or not out.startswith(
            b"Print or check BLAKE3 checksums across the ranks of an MPI job") or \
            b"Usage: mpirun [MPIRUN OPTIONS] b3sum-mpi [OPTIONS] [FILE]..." not in out or \
            b"--num-threads <NUM>" not in out or b"FASTBLAKE_MPI_PIECE_SIZE" not in out:
        failures.append(f"--help: {status} {out[:300]!r} {err[:300]!r}")
    status, out, err = mpi(1, ["--version"])
    if (status, err) != (0, b"") or not out.startswith(b"b3sum-mpi ") or b"fastblake" not in out:
        failures.append(f"--version: {status} {out!r} {err!r}")
    status, out, err = mpi(1, ["--bogus"])
    if status != 2 or b"Usage: mpirun [MPIRUN OPTIONS] b3sum-mpi" not in err:
        failures.append(f"a usage error: {status} {err!r}")
    # The documented launch line (no -q) is loud when mpirun cannot start the job: more ranks
    # than slots, without --oversubscribe.
    slots = os.cpu_count() or 1
    strict = {k: v for k, v in ENV.items() if k != "OMPI_MCA_rmaps_base_oversubscribe"}
    try:
        p = subprocess.run([MPIEXEC, "-n", str(slots + 1), OURS, names[0]], capture_output=True,
                           env=strict, cwd=d, timeout=300)
        if p.returncode == 0 or b"slots" not in p.stderr:
            failures.append(f"too many ranks without -q: {p.returncode} {p.stderr[:300]!r}")
    except subprocess.TimeoutExpired:
        failures.append("too many ranks without -q: timed out")

if failures:
    print(f"{len(failures)} failures:")
    for f in failures:
        print(f)
    sys.exit(1)
print("b3sum-mpi: all cases agree")
