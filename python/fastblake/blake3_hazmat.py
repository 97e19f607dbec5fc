"""BLAKE3's subtree API (the Rust crate's blake3::hazmat): hash pieces of one input anywhere
(threads, processes, machines), then merge their chaining values into the whole input's hash.
See the compiled module's docstrings."""
from ._fastblake import blake3_hazmat as _hazmat

CHUNK_LEN = _hazmat.CHUNK_LEN
set_input_offset = _hazmat.set_input_offset
finalize_non_root = _hazmat.finalize_non_root
merge_subtrees_non_root = _hazmat.merge_subtrees_non_root
merge_subtrees_root = _hazmat.merge_subtrees_root
left_subtree_len = _hazmat.left_subtree_len
max_subtree_len = _hazmat.max_subtree_len

__all__ = ["CHUNK_LEN", "set_input_offset", "finalize_non_root", "merge_subtrees_non_root",
           "merge_subtrees_root", "left_subtree_len", "max_subtree_len"]
