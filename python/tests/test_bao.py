"""fastblake.bao: Bao's own test vectors (tests/vectors/bao_test_vectors.json, as Bao publishes
them), chunk groups, and the errors: DecodeError with the failing node's offset and reason."""
import errno
import hashlib
import io
import json
import os
import random

import blake3 as reference_module
import pytest

import fastblake
from fastblake import bao
from conftest import VECTORS, random_bytes

CASES = json.loads((VECTORS / "bao_test_vectors.json").read_text())


def bao_input(n):
    """Bao's vector input: the little-endian 32-bit integers 1, 2, 3, ... cut to n bytes."""
    return b"".join((i + 1).to_bytes(4, "little") for i in range((n + 3) // 4))[:n]


def blake3_hex(data):
    return reference_module.blake3(data).hexdigest()


def flipped(data, at):
    b = bytearray(data)
    b[at] ^= 1
    return bytes(b)


def decode_error(call):
    with pytest.raises(bao.DecodeError) as info:
        call()
    assert isinstance(info.value, ValueError)
    assert info.value.reason in ("hash_mismatch", "truncated")
    return info.value


def test_hashes():
    for case in CASES["hash"]:
        data = bao_input(case["input_len"])
        assert bao.encode(data)[1].hex() == case["bao_hash"]
        assert bao.encode_outboard(data)[1].hex() == case["bao_hash"]


@pytest.mark.parametrize("kind", ["encode", "outboard"])
def test_encodings_and_their_corruptions(kind):
    for case in CASES[kind]:
        data = bao_input(case["input_len"])
        if kind == "encode":
            encoded, h = bao.encode(data)
            assert bao.decode(h, encoded) == data
            decode = lambda e, d: bao.decode(h, e)  # noqa: E731
            corruptions = case["corruptions"]
            assert bao.encoded_size(len(data)) == len(encoded)
        else:
            encoded, h = bao.encode_outboard(data)
            assert bao.decode_outboard(h, encoded, data) == data
            decode = lambda e, d: bao.decode_outboard(h, e, d)  # noqa: E731
            corruptions = case["outboard_corruptions"]
            assert bao.outboard_size(len(data)) == len(encoded)
            for at in case["input_corruptions"]:
                assert decode_error(lambda: decode(encoded, flipped(data, at))).offset == at
        assert len(encoded) == case["output_len"]
        assert h.hex() == case["bao_hash"]
        assert blake3_hex(encoded) == case["encoded_blake3"]
        for at in corruptions:
            error = decode_error(lambda: decode(flipped(encoded, at), data))
            if at != 0:
                assert error.offset == at and error.reason == "hash_mismatch"


def test_seeks_as_slices_to_the_end():
    for case in CASES["seek"]:
        data = bao_input(case["input_len"])
        encoded, h = bao.encode(data)
        outboard, _ = bao.encode_outboard(data)
        for offset in case["seek_offsets"]:
            rest = max(0, len(data) - offset)
            piece = bao.extract_slice(encoded, offset, rest)
            assert bao.extract_slice_outboard(outboard, data, offset, rest) == piece
            assert bao.decode_slice(h, piece, offset, rest) == data[offset:]


def test_slices_and_their_corruptions():
    count = 0
    for case in CASES["slice"]:
        data = bao_input(case["input_len"])
        h = bytes.fromhex(case["bao_hash"])
        encoded, _ = bao.encode(data)
        outboard, _ = bao.encode_outboard(data)
        for s in case["slices"]:
            count += 1
            start, n = s["start"], s["len"]
            piece = bao.extract_slice(encoded, start, n)
            assert len(piece) == s["output_len"]
            assert blake3_hex(piece) == s["output_blake3"]
            assert bao.extract_slice_outboard(outboard, data, start, n) == piece
            assert bao.decode_slice(h, piece, start, n) == data[start:start + n]
            for at in s["corruptions"]:
                error = decode_error(lambda: bao.decode_slice(h, flipped(piece, at), start, n))
                if at >= 8:
                    assert error.offset == at
    assert count == 222


def test_slice_decoder_reads_what_decode_slice_returns(tmp_path, rng):
    """SliceDecoder over the vectors' slices and random ones, from bytes and from a file: the
    bytes decode_slice returns, from start on; each corruption where decode_slice names it;
    positions before the slice and the length beyond it refused."""
    for case in CASES["slice"]:
        data = bao_input(case["input_len"])
        h = bytes.fromhex(case["bao_hash"])
        encoded, _ = bao.encode(data)
        for s in case["slices"]:
            start, n = s["start"], s["len"]
            piece = bao.extract_slice(encoded, start, n)
            decoder = bao.SliceDecoder(h, piece, start, n)
            assert decoder.tell() == start
            assert decoder.readall() == data[start:start + n]
            for at in s["corruptions"]:
                want = decode_error(lambda: bao.decode_slice(h, flipped(piece, at), start, n))
                got = decode_error(lambda: bao.SliceDecoder(h, flipped(piece, at), start, n).readall())
                assert (got.offset, got.reason) == (want.offset, want.reason)
    data = random_bytes(rng, 1024 * 1024 + 3000)
    for group_log in (0, 4):
        encoded, h = bao.encode(data, group_log=group_log)
        for start, n in ((0, len(data)), (5000, 300000), (len(data) - 10, 100), (len(data) + 5, 0)):
            piece = bao.extract_slice(encoded, start, n, group_log=group_log)
            (tmp_path / "slice").write_bytes(piece)
            with open(tmp_path / "slice", "rb") as f:
                for decoder in (bao.SliceDecoder(h, piece, start, n, group_log=group_log),
                                bao.SliceDecoder(h, f, start, n, group_log=group_log,
                                                 threads=True)):
                    with decoder:
                        assert isinstance(decoder, io.RawIOBase)
                        buffered = io.BufferedReader(decoder, 7000)
                        assert buffered.read() == data[start:start + n]
                        if start + n >= len(data):
                            assert decoder.length() == len(data)
                        else:
                            with pytest.raises(ValueError):
                                decoder.length()
                        if start > 0:
                            decoder.seek(start - 1)
                            with pytest.raises(ValueError):
                                decoder.read(1)
    with pytest.raises(TypeError):
        bao.SliceDecoder(h, encoded, 0)
    with pytest.raises(TypeError):
        bao.Decoder(h, encoded, group_log=4, start=0)


def test_groups_keep_the_hash(rng):
    for n in (0, 1, 1024, 1025, 16384 + 7, 100000):
        data = random_bytes(rng, n)
        for k in range(0, 9):
            encoded, h = bao.encode(data, group_log=k)
            outboard, h2 = bao.encode_outboard(data, group_log=k)
            assert h == h2 == fastblake.blake3(data).digest()
            assert len(encoded) == bao.encoded_size(n, group_log=k)
            assert len(outboard) == bao.outboard_size(n, group_log=k)
            assert bao.decode(h, encoded, group_log=k) == data
            assert bao.decode_outboard(h, memoryview(outboard), bytearray(data), group_log=k) == data
            piece = bao.extract_slice(encoded, n // 3, 5000, group_log=k)
            assert bao.decode_slice(h, piece, n // 3, 5000, group_log=k) == data[n // 3:n // 3 + 5000]


def test_arguments_are_checked():
    encoded, h = bao.encode(b"abc")
    with pytest.raises(ValueError):
        bao.encode(b"x", group_log=bao.MAX_GROUP_LOG + 1)
    with pytest.raises(OverflowError):
        bao.encode(b"x", group_log=-1)
    with pytest.raises(TypeError):
        bao.encode("text")
    with pytest.raises(TypeError):
        bao.encode(b"x", 0)  # group_log is keyword-only
    with pytest.raises(ValueError, match="32 bytes"):
        bao.decode(h[:31], encoded)
    with pytest.raises(TypeError):
        bao.decode(h, encoded, group_log="0")
    assert decode_error(lambda: bao.decode(h, encoded[:7])).reason == "truncated"
    assert decode_error(lambda: bao.decode(hashlib.sha256().digest(), encoded)).reason == \
        "hash_mismatch"
    assert bao.decode(h, encoded + b"garbage") == b"abc"


def test_decoder_is_a_binary_file(tmp_path, rng):
    """Decoder over bytes and over files, combined and outboard: read(), readinto(), seek()
    from each end, tell(), length(), io's wrappers; every read checked."""
    import io
    data = random_bytes(rng, 700 * 1024 + 5)
    for group_log in (0, 4):
        encoded, h = bao.encode(data, group_log=group_log)
        outboard, _ = bao.encode_outboard(data, group_log=group_log)
        (tmp_path / "encoded").write_bytes(encoded)
        (tmp_path / "data").write_bytes(data)
        (tmp_path / "outboard").write_bytes(outboard)
        with open(tmp_path / "encoded", "rb") as e, open(tmp_path / "outboard", "rb") as o, \
                open(tmp_path / "data", "rb") as d:
            for decoder in (bao.Decoder(h, encoded, group_log=group_log),
                            bao.Decoder(h, e, group_log=group_log),
                            bao.Decoder(h, bytearray(outboard), memoryview(data),
                                        group_log=group_log),
                            bao.Decoder(h, o, d, group_log=group_log),
                            bao.Decoder(h, e, group_log=group_log, threads=True),
                            bao.Decoder(h, outboard, data, group_log=group_log, threads=True)):
                with decoder:
                    assert isinstance(decoder, io.RawIOBase) and decoder.seekable()
                    assert decoder.readall() == data
                    assert decoder.length() == len(data)
                    assert decoder.seek(-10, io.SEEK_END) == len(data) - 10
                    assert decoder.read(100) == data[-10:] and decoder.read(5) == b""
                    assert decoder.seek(300000) == 300000 and decoder.read(7) == data[300000:300007]
                    assert decoder.seek(-7, io.SEEK_CUR) == 300000 and decoder.tell() == 300000
                    buffer = bytearray(70000)
                    assert decoder.readinto(buffer) == 70000 and buffer == data[300000:370000]
                    assert io.BufferedReader(decoder).read(1000) == data[370000:371000]
                    with pytest.raises(ValueError):
                        decoder.seek(-1)
                assert decoder.closed
                with pytest.raises(ValueError):
                    decoder.read(1)


def test_decoder_stops_at_a_bad_node_after_the_checked_bytes(rng):
    data = random_bytes(rng, 700 * 1024 + 5)
    encoded, h = bao.encode(data)
    bad = bytearray(encoded)
    bad[len(bad) // 2] ^= 1
    want = decode_error(lambda: bao.decode(h, bytes(bad)))
    for threads in (False, True):
        decoder = bao.Decoder(h, bytes(bad), threads=threads)
        got = bytearray()
        with pytest.raises(bao.DecodeError) as info:
            while chunk := decoder.read(10000):
                got += chunk
        assert info.value.offset == want.offset and info.value.reason == "hash_mismatch"
        assert 0 < len(got) < len(data) and data.startswith(got)
    # A lying length, a wrong hash, a short header.
    lie = bytearray(encoded)
    lie[0] ^= 1
    with pytest.raises(bao.DecodeError):
        bao.Decoder(h, bytes(lie)).length()
    with pytest.raises(bao.DecodeError):
        bao.Decoder(fastblake.blake3(b"other").digest(), encoded).read(1)
    assert decode_error(lambda: bao.Decoder(h, encoded[:5]).read(1)).reason == "truncated"


def test_decoder_passes_on_what_its_file_raises(rng):
    data = random_bytes(rng, 300000)
    encoded, h = bao.encode(data)

    class Failing:
        def __init__(self):
            self.position = 0

        def seek(self, position):
            self.position = position

        def readinto(self, view):
            if self.position > 100000:
                raise OSError(5, "the disk is gone")
            n = min(len(view), len(encoded) - self.position)
            view[:n] = encoded[self.position:self.position + n]
            self.position += n
            return n

    decoder = bao.Decoder(h, Failing())
    with pytest.raises(OSError, match="the disk is gone"):
        decoder.read()
    with pytest.raises(TypeError):
        bao.Decoder(h, "not bytes")
    with pytest.raises(TypeError):
        bao.Decoder(h)
    with pytest.raises(ValueError):
        bao.Decoder(h, encoded, group_log=33)


@pytest.mark.parametrize("strategy", ["auto", "read", "mmap", "mmap_parallel"])
def test_encode_file_writes_what_encode_makes(tmp_path, strategy):
    for n in (0, 1, 1025, 300000, (1 << 20) + 7):
        data = random_bytes(random.Random(n), n)
        source = tmp_path / "in"
        source.write_bytes(data)
        for group_log in (0, 4):
            for outboard in (False, True):
                want, want_hash = (bao.encode_outboard if outboard else bao.encode)(
                    data, group_log=group_log)
                target = tmp_path / "out"
                got_hash = bao.encode_file(source, target, outboard=outboard,
                                           group_log=group_log, strategy=strategy)
                assert got_hash == want_hash == fastblake.blake3(data).digest()
                assert target.read_bytes() == want
    # Into a binary file object (from its start, whatever was written to it) and a descriptor.
    with open(tmp_path / "file", "w+b") as f:
        f.write(b"x" * 10)
        assert bao.encode_file(str(source), f) == want_hash
        f.seek(0)
        assert f.read() == bao.encode(data)[0]
    fd = os.open(tmp_path / "fd", os.O_RDWR | os.O_CREAT, 0o600)
    try:
        assert bao.encode_file(bytes(source), fd, outboard=True) == want_hash
        assert os.pread(fd, 1 << 22, 0) == bao.encode_outboard(data)[0]
    finally:
        os.close(fd)


def test_encode_file_progress_and_errors(tmp_path):
    data = random_bytes(random.Random(3), 5 << 20)
    source = tmp_path / "in"
    source.write_bytes(data)
    reports = []
    bao.encode_file(source, tmp_path / "out", progress=lambda done, total: reports.append(
        (done, total)))
    assert reports and reports[-1] == (len(data), len(data))

    class Stop(Exception):
        pass

    def stop(done, total):
        raise Stop

    with pytest.raises(Stop):
        bao.encode_file(source, tmp_path / "out", strategy="read", progress=stop)
    with pytest.raises(TypeError):
        bao.encode_file(source, tmp_path / "out", progress=3)
    with pytest.raises(ValueError):
        bao.encode_file(source, tmp_path / "out", strategy="fast")
    with pytest.raises(ValueError):
        bao.encode_file(source, tmp_path / "out", group_log=33)
    with pytest.raises(FileNotFoundError) as info:
        bao.encode_file(tmp_path / "missing", tmp_path / "out")
    assert info.value.filename == tmp_path / "missing"
    with pytest.raises(IsADirectoryError):
        bao.encode_file(tmp_path, tmp_path / "out")
    with pytest.raises(FileNotFoundError) as info:
        bao.encode_file(source, tmp_path / "no" / "out")
    assert info.value.filename == tmp_path / "no" / "out"
    read_end, write_end = os.pipe()
    try:
        with pytest.raises(OSError) as info:
            bao.encode_file(f"/dev/fd/{read_end}", tmp_path / "out")
        assert info.value.errno == errno.EINVAL
    finally:
        os.close(read_end)
        os.close(write_end)
    with pytest.raises(TypeError):
        bao.encode_file(source)


@pytest.mark.parametrize("kind", ["combined", "outboard", "post_order"])
def test_encoder_of_unknown_length_writes_what_the_one_shot_encoders_make(tmp_path, rng, kind):
    options = {"combined": {}, "outboard": {"outboard": True},
               "post_order": {"outboard": True, "post_order": True}}[kind]
    one_shot = {"combined": bao.encode, "outboard": bao.encode_outboard,
                "post_order": bao.encode_post_order_outboard}[kind]
    data = random_bytes(rng, (9 << 20) + 1025)
    for n in (0, 1, 1025, 262145, 4 << 20, (9 << 20) + 1025):
        part = data[:n]
        want, h = one_shot(part, group_log=2)
        # Into a path, a descriptor, a file with fileno() and a file object without one.
        path = tmp_path / "out"
        encoder = bao.Encoder(path, group_log=2, **options)
        for at in range(0, n, 700000):
            assert encoder.update(memoryview(part)[at:at + 700000]) == len(part[at:at + 700000])
        assert encoder.count() == n
        assert encoder.finalize() == h
        assert path.read_bytes() == want
        fd = os.open(path, os.O_RDWR | os.O_TRUNC)
        try:
            encoder = bao.Encoder(fd, group_log=2, **options)
            encoder.write(part)
            assert encoder.finalize() == h
            assert os.pread(fd, len(want) + 1, 0) == want
        finally:
            os.close(fd)
        with open(path, "w+b") as f:
            encoder = bao.Encoder(f, group_log=2, **options)
            encoder.update(bytearray(part))
            assert encoder.finalize() == h
            f.seek(0)
            assert f.read() == want
        memory = io.BytesIO()
        encoder = bao.Encoder(memory, group_log=2, **options)
        for at in range(0, n, 3 << 20):
            encoder.write(part[at:at + (3 << 20)])
        assert encoder.finalize() == h
        assert memory.getvalue() == want
        with pytest.raises(ValueError):
            encoder.update(b"more")
        with pytest.raises(ValueError):
            encoder.finalize()


def test_post_order_outboards(rng):
    data = random_bytes(rng, 3 * 1024)
    pre, h = bao.encode_outboard(data)
    post, h2 = bao.encode_post_order_outboard(data)
    assert h == h2
    # The root's parent over (chunks 0 and 1) and chunk 2: post-order puts it last.
    assert post == pre[72:136] + pre[8:72] + pre[:8]
    big = random_bytes(rng, 300000)
    for k in (0, 3):
        pre, h = bao.encode_outboard(big, group_log=k)
        post, _ = bao.encode_post_order_outboard(big, group_log=k)
        assert bao.pre_order_outboard(post, group_log=k) == pre
        assert bao.post_order_outboard(pre, group_log=k) == post
        assert bao.decode_outboard(h, bao.pre_order_outboard(post, group_log=k), big,
                                   group_log=k) == big
    assert decode_error(lambda: bao.pre_order_outboard(post[1:])).reason == "truncated"
    with pytest.raises(TypeError):
        bao.pre_order_outboard("text")


def test_encoder_resumes_a_post_order_outboard(tmp_path, rng):
    """Encoder(resume=(data, hash)) goes on from the post-order outboard of data, in a path, a
    descriptor or io.BytesIO, the data as bytes or a file: the outboard of data and what is
    appended. Refused where outboard, data and hash disagree."""
    whole = random_bytes(rng, 9 * 1024 * 1024 + 1025)
    for group_log, prefix in ((0, 5000), (2, 4 * 1024 * 1024), (4, 6 * 1024 * 1024 + 3)):
        want, h = bao.encode_post_order_outboard(whole, group_log=group_log)
        old, old_hash = bao.encode_post_order_outboard(whole[:prefix], group_log=group_log)
        (tmp_path / "data").write_bytes(whole[:prefix])
        for kind in ("path", "fd", "bytesio"):
            (tmp_path / "outboard").write_bytes(old)
            with open(tmp_path / "data", "rb") as data_file, \
                    open(tmp_path / "outboard", "r+b") as f:
                output = {"path": tmp_path / "outboard", "fd": f.fileno(),
                          "bytesio": io.BytesIO(old)}[kind]
                data = whole[:prefix] if kind == "fd" else data_file
                e = bao.Encoder(output, outboard=True, post_order=True, group_log=group_log,
                                resume=(data, old_hash))
                assert e.count() == prefix
                e.update(whole[prefix:])
                assert e.finalize() == h
                got = output.getvalue() if kind == "bytesio" else (tmp_path / "outboard").read_bytes()
                assert got == want
        # Read back in place, beside the data, as the pre-order outboard it stands for.
        (tmp_path / "outboard").write_bytes(want)
        with open(tmp_path / "outboard", "rb") as f:
            for source in (want, f):
                with bao.Decoder(h, source, whole, group_log=group_log, post_order=True) as d:
                    assert d.readall() == whole
                    assert d.seek(prefix) == prefix and d.read(10) == whole[prefix:prefix + 10]
        with pytest.raises(bao.DecodeError):
            bao.Decoder(h, flipped(want, 0), whole, group_log=group_log, post_order=True).readall()
        with pytest.raises(ValueError):
            bao.Decoder(h, want, group_log=group_log, post_order=True)
        (tmp_path / "outboard").write_bytes(old)
        with pytest.raises(bao.DecodeError):
            bao.Encoder(tmp_path / "outboard", outboard=True, post_order=True,
                        group_log=group_log, resume=(whole[:prefix], h))
        with pytest.raises(ValueError):
            bao.Encoder(tmp_path / "outboard", outboard=True, post_order=True,
                        group_log=group_log, resume=(whole[:prefix + 1], old_hash))
        assert (tmp_path / "outboard").read_bytes() == old
    with pytest.raises(ValueError):
        bao.Encoder(io.BytesIO(), outboard=True, resume=(b"", h))
    with pytest.raises(TypeError):
        bao.Encoder(io.BytesIO(), outboard=True, post_order=True, resume=b"")
    with pytest.raises(FileNotFoundError):
        bao.Encoder(tmp_path / "missing", outboard=True, post_order=True, resume=(b"", h))


def test_encoder_errors(tmp_path):
    with pytest.raises(ValueError):
        bao.Encoder(tmp_path / "out", post_order=True)
    with pytest.raises(ValueError):
        bao.Encoder(tmp_path / "out", group_log=33)
    with pytest.raises(FileNotFoundError):
        bao.Encoder(tmp_path / "no" / "out")
    with pytest.raises(TypeError):
        bao.Encoder(tmp_path / "out").update("text")

    class WriteOnly(io.RawIOBase):
        def write(self, b):
            return len(b)

    with pytest.raises(TypeError, match="read back"):
        bao.Encoder(WriteOnly())

    class Full(io.BytesIO):
        def write(self, b):
            raise OSError(errno.ENOSPC, "full")

    encoder = bao.Encoder(Full())
    with pytest.raises(OSError) as info:
        encoder.update(bytes(5 << 20))
    assert info.value.errno == errno.ENOSPC
    with pytest.raises(ValueError):
        encoder.update(b"x")
    # A descriptor open for writing only cannot be read back when the encoding moves.
    path = tmp_path / "write-only"
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    try:
        encoder = bao.Encoder(fd)
        encoder.update(bytes(9 << 20))
        with pytest.raises(OSError) as info:
            encoder.finalize()
        assert info.value.errno == errno.EBADF
    finally:
        os.close(fd)
