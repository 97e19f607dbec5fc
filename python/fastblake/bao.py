"""Bao, verified streaming over BLAKE3's tree: encodings that let a reader holding only the
32-byte hash check any part of the data, byte for byte the Rust ``bao`` crate's format, with
iroh's chunk groups (``group_log``). See docs/bao.md and the compiled module's docstrings."""
from ._fastblake import bao as _bao

DecodeError = _bao.DecodeError
MAX_GROUP_LOG = _bao.MAX_GROUP_LOG
encode = _bao.encode
encode_outboard = _bao.encode_outboard
encoded_size = _bao.encoded_size
outboard_size = _bao.outboard_size
decode = _bao.decode
decode_outboard = _bao.decode_outboard
extract_slice = _bao.extract_slice
extract_slice_outboard = _bao.extract_slice_outboard
decode_slice = _bao.decode_slice

__all__ = ["DecodeError", "MAX_GROUP_LOG", "encode", "encode_outboard", "encoded_size",
           "outboard_size", "decode", "decode_outboard", "extract_slice",
           "extract_slice_outboard", "decode_slice"]
