"""Type stubs of fastblake (the compiled module fastblake._fastblake and its re-exports)."""
import os
import sys
from typing import Callable, Iterable, Optional, Union

if sys.version_info >= (3, 12):
    from collections.abc import Buffer
else:
    from typing_extensions import Buffer

from . import bao as bao
from . import blake3_hazmat as blake3_hazmat

__version__: str
AUTO: int

_Path = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]

class blake3:
    """An incremental BLAKE3 hasher: the blake3 package's interface."""
    name: str
    digest_size: int
    block_size: int
    key_size: int
    AUTO: int
    def __init__(self, data: Buffer = ..., /, *, key: Optional[Buffer] = ...,
                 derive_key_context: Optional[str] = ..., max_threads: int = ...,
                 usedforsecurity: bool = ...) -> None: ...
    def update(self, data: Buffer, /) -> "blake3": ...
    def update_mmap(self, path: _Path) -> "blake3": ...
    def copy(self) -> "blake3": ...
    def reset(self) -> None: ...
    def digest(self, length: int = ..., *, seek: int = ...) -> bytes: ...
    def hexdigest(self, length: int = ..., *, seek: int = ...) -> str: ...

class _blake2_base:
    name: str
    digest_size: int
    block_size: int
    MAX_KEY_SIZE: int
    MAX_DIGEST_SIZE: int
    def update(self, data: Buffer, /) -> None: ...
    def digest(self) -> bytes: ...
    def hexdigest(self) -> str: ...

class _blake2_sequential(_blake2_base):
    SALT_SIZE: int
    PERSON_SIZE: int
    def __init__(self, data: Buffer = ..., /, *, digest_size: int = ..., key: Buffer = ...,
                 salt: Buffer = ..., person: Buffer = ..., fanout: int = ..., depth: int = ...,
                 leaf_size: int = ..., node_offset: int = ..., node_depth: int = ...,
                 inner_size: int = ..., last_node: bool = ...,
                 usedforsecurity: bool = ...) -> None: ...

class blake2b(_blake2_sequential):
    """hashlib.blake2b's interface."""
    def copy(self) -> "blake2b": ...

class blake2s(_blake2_sequential):
    """hashlib.blake2s's interface."""
    def copy(self) -> "blake2s": ...

class _blake2_parallel(_blake2_base):
    def __init__(self, data: Buffer = ..., /, *, digest_size: int = ..., key: Buffer = ...,
                 usedforsecurity: bool = ...) -> None: ...

class blake2bp(_blake2_parallel):
    def copy(self) -> "blake2bp": ...

class blake2sp(_blake2_parallel):
    def copy(self) -> "blake2sp": ...

class _blake2x(_blake2_base):
    SALT_SIZE: int
    PERSON_SIZE: int
    def __init__(self, data: Buffer = ..., /, *, digest_size: int = ..., key: Buffer = ...,
                 salt: Buffer = ..., person: Buffer = ..., usedforsecurity: bool = ...) -> None: ...

class blake2xb(_blake2x):
    def copy(self) -> "blake2xb": ...

class blake2xs(_blake2x):
    def copy(self) -> "blake2xs": ...

def hash_many(inputs: Iterable[Buffer], *, key: Optional[Buffer] = ...,
              derive_key_context: Optional[str] = ...) -> list[bytes]: ...
def hash_file(path: _Path, *, key: Optional[Buffer] = ..., derive_key_context: Optional[str] = ...,
              strategy: str = ..., progress: Optional[Callable[[int, int], object]] = ...,
              length: int = ...) -> bytes: ...
def backend() -> str: ...
def available_backends() -> list[str]: ...
def use_backend(name: str) -> bool: ...
def variant() -> str: ...
def available_variants() -> list[str]: ...
def variant_choice() -> str: ...
def use_variant(name: str) -> bool: ...
