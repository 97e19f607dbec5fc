"""Bao, verified streaming over BLAKE3's tree: encodings that let a reader holding only the
32-byte hash check any part of the data, byte for byte the Rust ``bao`` crate's format, with
iroh's chunk groups (``group_log``). See docs/bao.md and the compiled module's docstrings."""
import io

from ._fastblake import bao as _bao

DecodeError = _bao.DecodeError
MAX_GROUP_LOG = _bao.MAX_GROUP_LOG
encode = _bao.encode
encode_outboard = _bao.encode_outboard
encode_file = _bao.encode_file
encode_post_order_outboard = _bao.encode_post_order_outboard
pre_order_outboard = _bao.pre_order_outboard
post_order_outboard = _bao.post_order_outboard
Encoder = _bao.Encoder
encoded_size = _bao.encoded_size
outboard_size = _bao.outboard_size
decode = _bao.decode
decode_outboard = _bao.decode_outboard
extract_slice = _bao.extract_slice
extract_slice_outboard = _bao.extract_slice_outboard
decode_slice = _bao.decode_slice


class Decoder(io.RawIOBase):
    """The data a Bao encoding holds, as a binary file: every byte read() or readinto() hands
    out has been checked, with every node above it, against the hash; seek() moves anywhere
    (the next read checks the path to the new position only), SEEK_END from the checked length.
    ``encoded`` is a combined encoding, or, with ``data``, an outboard encoding and the data it
    describes: each a bytes-like object (kept while the decoder lives) or a binary file with
    seek() and readinto() (read in place, never closed here). A node that fails raises
    DecodeError, after the checked bytes before it were returned. Memory stays about 1 MiB
    whatever the size; with ``threads=True`` (for reading far in order) a subtree of up to
    4 MiB read from its start is checked at once on every core, in about 12 MiB, with the same
    bytes and errors. With ``post_order=True`` the outboard is a post-order one (bao-tree's),
    read in place as Bao's pre-order one."""

    def __init__(self, hash, encoded, data=None, *, group_log=0, threads=False, post_order=False):
        super().__init__()
        self._reader = _bao.Reader(hash, encoded, data, group_log=group_log, threads=threads,
                                   post_order=post_order)

    def readable(self):
        return True

    def seekable(self):
        return True

    def readinto(self, buffer):
        self._check_open()
        return self._reader.readinto(buffer)

    def seek(self, offset, whence=io.SEEK_SET):
        self._check_open()
        if whence == io.SEEK_SET:
            position = offset
        elif whence == io.SEEK_CUR:
            position = self._reader.tell() + offset
        elif whence == io.SEEK_END:
            position = self._reader.length() + offset
        else:
            raise ValueError(f"invalid whence ({whence}, should be 0, 1 or 2)")
        if position < 0:
            raise ValueError(f"negative seek position {position}")
        return self._reader.seek(position)

    def tell(self):
        self._check_open()
        return self._reader.tell()

    def length(self):
        """The data's length, checked: the path to its last chunk is read and checked first."""
        self._check_open()
        return self._reader.length()

    def _check_open(self):
        if self.closed:
            raise ValueError("I/O operation on closed file.")


class SliceDecoder(Decoder):
    """The data a slice for [start, start + count) holds (extract_slice's), as a binary file
    read from ``start`` on: each byte checked against the hash before read() hands it out, as
    decode_slice checks it, the slice read once, in order, in bounded memory whatever its size
    (``slice``: a bytes-like object, or a binary file with seek() and readinto(), read from its
    position 0). Reading ends at start + count or the data's end; a position before ``start``
    raises ValueError, and so does length() where the slice does not reach the data's end. A
    node that fails raises DecodeError, after the checked bytes before it were returned."""

    def __init__(self, hash, slice, start, count, *, group_log=0, threads=False):
        io.RawIOBase.__init__(self)
        self._reader = _bao.Reader(hash, slice, None, group_log=group_log, threads=threads,
                                   start=start, count=count)


__all__ = ["DecodeError", "Decoder", "SliceDecoder", "Encoder", "MAX_GROUP_LOG", "encode", "encode_outboard",
           "encode_file", "encode_post_order_outboard", "pre_order_outboard",
           "post_order_outboard", "encoded_size", "outboard_size", "decode", "decode_outboard",
           "extract_slice", "extract_slice_outboard", "decode_slice"]
