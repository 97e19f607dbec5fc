"""fastblake.bao against hostile input: headers that claim any length (memory follows the
bytes given, never the claim), sizes past 2^64 - 1 (OverflowError, never a wrapped number),
an output that is the input (refused, the input left whole), and a wrong hash with a count of
0 (still checked)."""
import os
import struct
import subprocess
import sys

import pytest

from fastblake import bao

CLAIMS = (1 << 30, 16 << 30, 1 << 63, 2**64 - 1)


def test_sizes_past_64_bits_are_refused_not_wrapped():
    with pytest.raises(OverflowError):
        bao.encoded_size(2**64 - 1)
    with pytest.raises(OverflowError):
        bao.encoded_size(2**64 - 2, group_log=32)
    assert bao.outboard_size(2**64 - 1) == 8 + (2**64 - 2) // 1024 * 64
    # The largest length whose encoding fits has its size, exactly.
    n = (2**64 - 1 - 8 + 64) * 16 // 17
    while 8 + (n - 1) // 1024 * 64 + n > 2**64 - 1:
        n -= 1
    assert bao.encoded_size(n) == 8 + (n - 1) // 1024 * 64 + n
    with pytest.raises(OverflowError):
        bao.encoded_size(n + 1)


# Runs in a child process, whose peak memory is its own: every entry point over 108 bytes that
# claim each length, at every group size.
HOSTILE = r"""
import io, struct, sys
from fastblake import bao
claims = [int(c) for c in sys.argv[1:]]
bad = bytes(32)
for claim in claims:
    for k in range(0, bao.MAX_GROUP_LOG + 1, 4):
        body = struct.pack("<Q", claim) + b"\x5a" * 100
        calls = [
            lambda: bao.decode(bad, body, group_log=k),
            lambda: bao.decode_outboard(bad, body, body[8:], group_log=k),
            lambda: bao.decode_slice(bad, body, 0, 1 << 40, group_log=k),
            lambda: bao.Decoder(bad, body, group_log=k).read(),
            lambda: bao.Decoder(bad, io.BytesIO(body), group_log=k, threads=True).read(),
            lambda: bao.Decoder(bad, body, body[8:], group_log=k).read(),
            lambda: bao.SliceDecoder(bad, io.BytesIO(body), 0, 1 << 40, group_log=k).read(),
        ]
        for call in calls:
            try:
                call()
            except bao.DecodeError:
                continue
            raise SystemExit(f"claim {claim}, group_log {k}: no DecodeError")
# The peak of this process's own memory (VmHWM, KiB): its rusage would count the memory of the
# process it was started from, which the exec replaced.
with open("/proc/self/status") as status:
    print(next(line.split()[1] for line in status if line.startswith("VmHWM:")))
"""


def test_hostile_headers_take_memory_for_the_bytes_given_only():
    env = dict(os.environ)
    if "libasan" in env.get("LD_PRELOAD", ""):
        # ASan keeps freed blocks in a quarantine (256 MB by default), which the peak would
        # count as the module's.
        env["ASAN_OPTIONS"] = env.get("ASAN_OPTIONS", "") + ":quarantine_size_mb=16"
    p = subprocess.run([sys.executable, "-c", HOSTILE] + [str(c) for c in CLAIMS],
                       capture_output=True, text=True, timeout=300, env=env)
    assert p.returncode == 0, p.stderr
    # KiB: the interpreter and the module, and the reader's buffers; a regression reads the
    # claimed gigabytes.
    assert int(p.stdout) < 256 * 1024


def test_encode_file_refuses_an_output_that_is_its_input(tmp_path):
    data = os.urandom(100_000)
    path = tmp_path / "input"
    path.write_bytes(data)
    link = tmp_path / "link"
    link.symlink_to(path)
    hard = tmp_path / "hard"
    os.link(path, hard)
    for output in (path, str(path), link, hard):
        with pytest.raises(ValueError, match="the output is the input"):
            bao.encode_file(path, output)
        assert path.read_bytes() == data
    for mode in ("rb+", "ab"):
        with open(path, mode) as f:
            for output in (f, f.fileno()):
                with pytest.raises(ValueError, match="the output is the input"):
                    bao.encode_file(path, output, outboard=True)
        assert path.read_bytes() == data
    # Another file is written as before.
    h = bao.encode_file(path, tmp_path / "encoding")
    assert bao.decode(h, (tmp_path / "encoding").read_bytes()) == data


def test_a_count_of_0_still_checks_the_path_it_reads():
    data = os.urandom(3073)
    encoding, h = bao.encode(data)
    wrong = bytes(32)
    for start in (0, 1, 1024, 2048, 3072, 3073, 5000):
        slice_bytes = bao.extract_slice(encoding, start, 0)
        assert bao.decode_slice(h, slice_bytes, start, 0) == b""
        with pytest.raises(bao.DecodeError):
            bao.decode_slice(wrong, slice_bytes, start, 0)
        with pytest.raises(bao.DecodeError):
            bao.SliceDecoder(wrong, slice_bytes, start, 0).read()
        assert bao.SliceDecoder(h, slice_bytes, start, 0).read() == b""


def test_the_claim_in_a_header_is_readable_unchecked_only_through_length():
    body = struct.pack("<Q", 2**64 - 1) + b"\x5a" * 100
    decoder = bao.Decoder(bytes(32), body)
    with pytest.raises(bao.DecodeError):
        decoder.length()
    with pytest.raises(bao.DecodeError):
        decoder.seek(0, os.SEEK_END)
