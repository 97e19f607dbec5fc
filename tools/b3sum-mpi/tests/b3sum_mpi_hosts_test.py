#!/usr/bin/env python3
"""b3sum-mpi across hosts: 4 hosts on this machine made by scripts/mpi-hosts (network
namespaces on a bridge, each with its own address, hostname and /tmp; a shared directory for
the cluster file system; mpirun on host 1, its daemons started through our launch agent, TCP
alone). On 2 to 4 hosts with 1 or 2 ranks each, the output, messages and exit status are the
official b3sum's, byte for byte: files cut into pieces across hosts, many small files, a
missing file and a directory, --check, --files0-from. Then faults, each bounded in time and
never a wrong digest: a rank killed on another host, a host's link going down, a file that
one host cannot see, and one that a host sees with another size (a stale view).

Usage: b3sum_mpi_hosts_test.py MPI_HOSTS B3SUM_MPI B3SUM FAIL_IO_LIBRARY
(exit 77, skipped, where namespaces, veth pairs, bridges or mounts are not to be had: not root)
"""
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time

MPI_HOSTS, OURS, OUR_B3SUM, FAIL_IO = (os.path.abspath(a) for a in sys.argv[1:5])
OFFICIAL = shutil.which("b3sum", path="/usr/bin")
ENV = {k: v for k, v in os.environ.items()
       if not k.startswith("LC_") and k != "LANG" and k != "OMPI_MCA_orte_tmpdir_base"}
ENV.update(LC_ALL="C", OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
           # Ranks ended at once when one fails (Open MPI waits 1 s by default).
           OMPI_MCA_odls_base_sigkill_timeout="0")
HOSTS = 4
# A fault must end the job within this (the bound).
BOUND = 60
# What the launcher, not b3sum-mpi, may write even with -q: Open MPI's "[host:pid] ..." lines
# (seen here: "plm:rsh: Warning: setpgid(...) failed in parent", a race of its own).
LAUNCHER_LINE = re.compile(rb"^\[[^\]\n]*\] [^\n]*\n?", re.MULTILINE)
failures = []


def hosts(*args, check=True, **kwargs):
    return subprocess.run([MPI_HOSTS] + list(args), check=check, env=ENV, **kwargs)


def check(name, got, want):
    if got != want:
        shown = lambda r: tuple(x[:600] if isinstance(x, bytes) else x for x in r)  # noqa: E731
        failures.append(f"{name}:\n  got  {shown(got)!r}\n  want {shown(want)!r}")


why = subprocess.run([MPI_HOSTS, "check"], capture_output=True, text=True, env=ENV)
if why.returncode != 0:
    print(why.stdout.strip() or why.stderr.strip(), "- skipped")
    sys.exit(77)
if not OFFICIAL:
    print("the official b3sum (Debian's b3sum) is not installed: skipped")
    sys.exit(77)

# The hosts' state lies outside /tmp, which each host replaces with its own; the build tree,
# wherever it is, stays in sight.
state = tempfile.mkdtemp(prefix="fastblake-mpi-hosts-", dir="/var/tmp")
keeps = sorted({os.path.dirname(p) for p in (OURS, OUR_B3SUM, FAIL_IO)})
hosts("up", state, "--hosts", str(HOSTS), "--slots", "2",
      *[arg for k in keeps for arg in ("--keep", k)], stdout=subprocess.DEVNULL)
shared = os.path.join(state, "shared")
addresses = open(os.path.join(state, "hostfile")).read().split()[::2]


def mpirun(placement, env=None, quiet=True, wrapper=()):
    """The command line that starts b3sum-mpi on the hosts and ranks of placement, [(host,
    ranks)...], with env, through wrapper."""
    host_list = ",".join(f"{addresses[h - 1]}:{n}" for h, n in placement)
    command = [MPI_HOSTS, "mpirun", state] + (["-q"] if quiet else []) + [
        "-n", str(sum(n for _, n in placement)), "--host", host_list]
    for name, value in (env or {}).items():
        command += ["-x", f"{name}={value}"]
    return command + list(wrapper) + [OURS]


def mpi(placement, args, stdin=b"", env=None, wrapper=(), timeout=BOUND + 30):
    """b3sum-mpi as mpirun() starts it, in the shared directory, quiet; (status, stdout,
    stderr without the launcher's lines, seconds)."""
    started = time.monotonic()
    try:
        p = subprocess.run(mpirun(placement, env, wrapper=wrapper) + args, input=stdin,
                           capture_output=True, cwd=shared, env=ENV, timeout=timeout)
        return (p.returncode, p.stdout, LAUNCHER_LINE.sub(b"", p.stderr),
                time.monotonic() - started)
    except subprocess.TimeoutExpired:
        return "timed out", b"", b"", time.monotonic() - started


def reference(args, stdin=b"", tool=None):
    p = subprocess.run([tool or OFFICIAL] + args, input=stdin, capture_output=True, cwd=shared,
                       env=ENV)
    return p.returncode, p.stdout, p.stderr


def reset(k):
    """Host k as it was: its processes ended, its link up, its view of the files whole."""
    hosts("kill", state, str(k))
    hosts("link", state, str(k), "up")
    hosts("view", state, str(k), "clear")


try:
    rng = random.Random(50)
    piece = 8192
    names = []
    for i, n in enumerate([0, 1, 1023, 1024, 1025, 8191, 8192, 8193, 3 * piece + 1000,
                           16 * piece - 1, 16 * piece, 33 * piece + 7, 100000]):
        names.append(f"f{i:02d}")
        with open(os.path.join(shared, names[-1]), "wb") as f:
            f.write(rng.randbytes(n))
    with open(os.path.join(shared, "big"), "wb") as f:
        f.write(rng.randbytes(40 << 20))
    os.makedirs(os.path.join(shared, "many"))
    many = []
    for i in range(200):
        many.append(f"many/m{i:03d}")
        with open(os.path.join(shared, many[-1]), "wb") as f:
            f.write(rng.randbytes(rng.choice([0, 1, 1024, 5000, 70000])))
    listed = names[:4] + ["missing"] + names[4:] + ["many"]  # a missing file, a directory
    key = bytes(range(32))

    # The same output as the official b3sum on one machine: pieces of 8 KiB spread over the
    # hosts; the 40 MiB file in the default pieces (16 MiB: three, on three hosts).
    small = {"FASTBLAKE_MPI_PIECE_SIZE": str(piece)}
    for placement in ([(1, 1), (2, 1)], [(1, 2), (2, 2), (3, 2)], [(1, 1), (2, 1), (3, 1), (4, 1)],
                      [(1, 2), (2, 2), (3, 2), (4, 2)]):
        where = f"{len(placement)} hosts x {placement[0][1]}"
        check(f"files in pieces, {where}", mpi(placement, listed, env=small)[:3],
              reference(listed))
        check(f"keyed, {where}", mpi(placement, ["--keyed"] + names, key, env=small)[:3],
              reference(["--keyed"] + names, key))
        check(f"many small files and a big one, {where}", mpi(placement, many + ["big"])[:3],
              reference(many + ["big"]))
    with open(os.path.join(shared, "sums"), "wb") as f:
        sums = reference(names + many)[1].splitlines(keepends=True)
        sums[3] = sums[3][:5] + (b"0" if sums[3][5:6] != b"0" else b"1") + sums[3][6:]
        f.write(b"".join(sums) + b"x" * 64 + b"  missing\n")
    with open(os.path.join(shared, "names.list"), "wb") as f:
        f.write(b"\0".join(os.fsencode(n) for n in listed + many) + b"\0")
    for placement in ([(1, 1), (2, 1), (3, 1)], [(1, 2), (2, 2), (3, 2), (4, 2)]):
        where = f"{len(placement)} hosts x {placement[0][1]}"
        check(f"--check, {where}", mpi(placement, ["--check", "sums"], env=small)[:3],
              reference(["--check", "sums"], tool=OUR_B3SUM))
        check(f"--files0-from, {where}", mpi(placement, ["--files0-from=names.list"], env=small)[:3],
              reference(listed + many))

    # Faults, on host 2 while host 1 (rank 0) reads the target slowly, so that host 2 surely
    # takes pieces of it: the job ends non-zero within the bound, and prints no digest for the
    # target (nor anything after it), never a wrong one.
    os.makedirs(os.path.join(shared, "sub"))
    target = os.path.join("sub", "target")
    with open(os.path.join(shared, target), "wb") as f:
        f.write(rng.randbytes(64 * piece + 77))
    good = reference([names[3], target, names[9]])[1].splitlines(keepends=True)
    three_hosts = [(1, 1), (2, 1), (3, 1)]
    fault_script = os.path.join(shared, "fault.sh")
    with open(fault_script, "w") as f:
        f.write('#!/bin/sh\ncase $(hostname) in\n'
                '  host1) export FASTBLAKE_DELAY_PATH=sub/target FASTBLAKE_DELAY_US=200000 ;;\n'
                '  host2) export FASTBLAKE_FAIL_PATH=sub/target ;;\nesac\n'
                f'export LD_PRELOAD="{FAIL_IO}"\nexec "$@"\n')
    os.chmod(fault_script, 0o755)

    def ended(name, run, said=(), target_done=False):
        """A job that ended within the bound, non-zero, with right digests only: for the files
        before the target, and the target's where target_done allows (it may have been hashed
        whole before the fault); its standard error holding all the words of one of said."""
        status, out, err, seconds = run
        lines = out.splitlines(keepends=True)
        if status in (0, "timed out") or seconds > BOUND or lines != good[:len(lines)] or \
                (good[1] in lines and not target_done) or \
                (said and not any(all(w in err for w in words) for words in said)):
            failures.append(f"{name}: status {status} after {seconds:.1f} s, output {out!r}, "
                            f"errors {err[-3000:]!r}")

    def refused(name, run, message):
        """The target failed with message, within the bound; the other files hashed."""
        status, out, err, seconds = run
        check(f"{name} ({seconds:.1f} s)", (status, out, err, seconds <= BOUND),
              (1, good[0] + good[2], b"b3sum: sub/target: " + message + b"\n", True))

    def with_fault(op):
        return mpi(three_hosts, ["--no-mmap", names[3], target, names[9]],
                   env=dict(small, FASTBLAKE_FAIL_OP=op), wrapper=[fault_script])

    ended("a rank killed on host 2", with_fault("kill"))
    reset(2)
    refused("a read failing on host 2", with_fault("read"), b"Input/output error (os error 5)")
    reset(2)
    # Host 2 cannot see the file (its directory hidden there), or sees an older, shorter one.
    hosts("view", state, "2", "hide", os.path.join(shared, "sub"))
    refused("a file host 2 cannot see", with_fault("none"),
            b"No such file or directory (os error 2)")
    reset(2)
    with open(os.path.join(state, "stale"), "wb") as f:
        f.write(rng.randbytes(20 * piece))
    hosts("view", state, "2", "replace", os.path.join(shared, target), os.path.join(state, "stale"))
    refused("a file host 2 sees with another size", with_fault("none"),
            b"the file changed size while it was being hashed")
    reset(2)
    # A host's link down while it hashes: Open MPI's daemon channel misses its keepalives and
    # the job ends; without -q, Open MPI says so: "lost communication with a remote daemon"
    # naming the host, or (Open MPI 4.1, as the daemons' wiring stood) that it "was unable to
    # reliably start one or more daemons".
    env = dict(small, FASTBLAKE_DELAY_PATH="sub/target", FASTBLAKE_DELAY_US="200000",
               LD_PRELOAD=FAIL_IO)
    job = subprocess.Popen(mpirun(three_hosts, env, quiet=False) +
                           ["--no-mmap", names[3], target, names[9]],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=shared, env=ENV)
    # Once the job is under way (the first file's line out), while the target is hashed.
    first = job.stdout.readline()
    started = time.monotonic()
    hosts("link", state, "2", "down")
    try:
        out, err = job.communicate(timeout=BOUND + 30)
        status = job.returncode
    except subprocess.TimeoutExpired:
        job.kill()
        out, err = job.communicate()
        status = "timed out"
    # (Host 2 is all but always holding a piece of the target when its link goes; where it
    # is not, the others may finish the target, and its digest is right.)
    ended("host 2's link down", (status, first + out, err, time.monotonic() - started),
          target_done=True,
          said=((b"lost communication with a remote daemon", addresses[1].encode()),
                (b"unable to reliably start one or more daemons",)))
    reset(2)
finally:
    hosts("down", state, check=False)
    shutil.rmtree(state, ignore_errors=True)

if failures:
    print("\n".join(failures))
    print(f"{len(failures)} failure(s)")
    sys.exit(1)
print(f"b3sum-mpi across {HOSTS} hosts: every case as the official b3sum, every fault bounded")
