"""BLAKE3 and BLAKE2, fast: fastblake's C++ library for Python.

- ``fastblake.blake3`` is the ``blake3`` package's class (``from fastblake import blake3``
  runs code written for it unchanged);
- ``fastblake.blake2b`` and ``fastblake.blake2s`` are ``hashlib.blake2b`` and
  ``hashlib.blake2s``, every parameter included; ``blake2bp``, ``blake2sp``, ``blake2xb`` and
  ``blake2xs`` follow their style;
- ``hash_many``, ``hash_file``, ``blake3_hazmat`` (the subtree API), ``bao`` (verified
  streaming) and ``backend()`` go beyond both.
"""
from ._fastblake import (  # noqa: F401
    __version__,
    available_backends,
    available_variants,
    backend,
    blake2b,
    blake2bp,
    blake2s,
    blake2sp,
    blake2xb,
    blake2xs,
    blake3,
    hash_file,
    hash_many,
    use_backend,
    use_variant,
    variant,
    variant_choice,
)

from . import bao, blake3_hazmat  # noqa: E402

AUTO = blake3.AUTO

__all__ = [
    "AUTO", "available_backends", "backend", "bao", "blake2b", "blake2bp", "blake2s",
    "blake2sp", "blake2xb", "blake2xs", "blake3", "blake3_hazmat", "hash_file", "hash_many",
    "use_backend", "available_variants", "use_variant", "variant", "variant_choice",
]
