"""Type stubs of fastblake.blake3_hazmat, BLAKE3's subtree API."""
from typing import Optional
import sys

if sys.version_info >= (3, 12):
    from collections.abc import Buffer
else:
    from typing_extensions import Buffer

from . import blake3

CHUNK_LEN: int

def set_input_offset(hasher: blake3, offset: int) -> blake3: ...
def finalize_non_root(hasher: blake3) -> bytes: ...
def merge_subtrees_non_root(left: Buffer, right: Buffer, *, key: Optional[Buffer] = ...,
                            derive_key_context: Optional[str] = ...) -> bytes: ...
def merge_subtrees_root(left: Buffer, right: Buffer, *, key: Optional[Buffer] = ...,
                        derive_key_context: Optional[str] = ..., length: int = ...,
                        seek: int = ...) -> bytes: ...
def left_subtree_len(input_len: int) -> int: ...
def max_subtree_len(offset: int) -> Optional[int]: ...
