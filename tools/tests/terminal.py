"""What a tool draws on a terminal: --progress tests of b3sum and bao."""
import os
import pty
import select
import subprocess
import time


def run_slowly_on_a_terminal(command, cwd, env, slow, delay_us):
    """Runs command with standard error a pseudo-terminal and the fault-injection library
    (FASTBLAKE_FAIL_IO) making each read of the file `slow`, or each mapped window of it, sleep
    delay_us microseconds. Standard output is read only at the end: it must stay small.
    Returns the status, standard output, what was drawn and the seconds it took."""
    leader, follower = pty.openpty()
    # A sanitizer build must accept the fault-injection library ahead of its runtime.
    env = dict(env, LD_PRELOAD=os.environ.get("FASTBLAKE_FAIL_IO", ""), FASTBLAKE_DELAY_PATH=slow,
               FASTBLAKE_DELAY_US=str(delay_us),
               ASAN_OPTIONS=env.get("ASAN_OPTIONS", "") + ":verify_asan_link_order=0")
    started = time.monotonic()
    p = subprocess.Popen(command, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=follower)
    os.close(follower)
    drawn = b""
    while True:
        ready, _, _ = select.select([leader], [], [], 30)
        if not ready:
            break
        try:
            chunk = os.read(leader, 65536)
        except OSError:
            break
        if not chunk:
            break
        drawn += chunk
    os.close(leader)
    out = p.stdout.read()
    return p.wait(timeout=60), out, drawn, time.monotonic() - started
