"""What neither blake3-py nor hashlib has: hash_many, hash_file, the subtree API, backend(); and
one real-world program written against blake3-py's API, run on fastblake unchanged."""
import errno
import hashlib
import os

import blake3 as reference_module
import pytest

import fastblake
import fastblake.blake3_hazmat as hazmat
from conftest import failure, interesting_lengths, random_bytes


def test_hash_many_matches_one_hash_each(rng):
    inputs = [random_bytes(rng, n) for n in interesting_lengths(rng, 5000)] * 3
    inputs += [bytearray(b"abc"), memoryview(b"defgh")]
    assert fastblake.hash_many(inputs) == [fastblake.blake3(i).digest() for i in inputs]
    key = random_bytes(rng, 32)
    assert fastblake.hash_many(inputs, key=key) == \
        [fastblake.blake3(i, key=key).digest() for i in inputs]
    assert fastblake.hash_many(inputs, derive_key_context="ctx") == \
        [fastblake.blake3(i, derive_key_context="ctx").digest() for i in inputs]
    assert fastblake.hash_many([]) == []
    assert failure(lambda: fastblake.hash_many(["text"]))[0] is TypeError
    assert failure(lambda: fastblake.hash_many([b"x"], key=b"short"))[0] is ValueError


@pytest.mark.parametrize("strategy", ["auto", "read", "mmap", "mmap_parallel"])
def test_hash_file_with_every_strategy(tmp_path, rng, strategy):
    for size in [0, 1, 1025, 70000, (3 << 20) + 5]:
        data = random_bytes(rng, size)
        path = tmp_path / f"f{size}"
        path.write_bytes(data)
        assert fastblake.hash_file(path, strategy=strategy) == fastblake.blake3(data).digest()
        assert fastblake.hash_file(str(path), strategy=strategy, key=b"k" * 32, length=100) == \
            fastblake.blake3(data, key=b"k" * 32).digest(100)


def test_hash_file_reports_progress_and_errors(tmp_path):
    path = tmp_path / "big"
    path.write_bytes(b"\x01" * (130 << 20))
    seen = []
    digest = fastblake.hash_file(path, strategy="read", progress=lambda d, t: seen.append((d, t)))
    assert digest == fastblake.blake3(path.read_bytes()).digest()
    assert seen[-1] == (130 << 20, 130 << 20) and len(seen) >= 3
    assert all(a[0] < b[0] for a, b in zip(seen, seen[1:]))

    class Stop(Exception):
        pass

    def stop(done, total):
        raise Stop()
    with pytest.raises(Stop):
        fastblake.hash_file(path, progress=stop)
    with pytest.raises(OSError) as cancelled:
        fastblake.hash_file(path, strategy="read", progress=lambda d, t: False)
    assert cancelled.value.errno == errno.ECANCELED
    with pytest.raises(FileNotFoundError) as missing:
        fastblake.hash_file(tmp_path / "missing")
    assert missing.value.filename == tmp_path / "missing"
    assert failure(lambda: fastblake.hash_file(path, strategy="fast"))[0] is ValueError
    assert failure(lambda: fastblake.hash_file(path, progress=5))[0] is TypeError
    assert failure(lambda: fastblake.hash_file(tmp_path))[0] is IsADirectoryError


def test_subtrees_merge_into_the_whole_hash(rng):
    data = random_bytes(rng, 5 * 1024 + 77)
    for mode in [{}, {"key": b"K" * 32}, {"derive_key_context": "subtrees"}]:
        left_len = hazmat.left_subtree_len(len(data))
        assert left_len == 4096
        left = hazmat.set_input_offset(fastblake.blake3(**mode), 0)
        left.update(data[:left_len])
        right = hazmat.set_input_offset(fastblake.blake3(**mode), left_len)
        right.update(data[left_len:])
        l, r = hazmat.finalize_non_root(left), hazmat.finalize_non_root(right)
        whole = fastblake.blake3(data, **mode)
        assert hazmat.merge_subtrees_root(l, r, **mode) == whole.digest()
        assert hazmat.merge_subtrees_root(l, r, length=90, seek=7, **mode) == whole.digest(90, seek=7)
        # A subtree of two: the parent's chaining value, merged again with a right sibling.
        assert len(hazmat.merge_subtrees_non_root(l, r, **mode)) == 32
    assert hazmat.max_subtree_len(0) is None
    assert hazmat.max_subtree_len(4096) == 4096
    assert hazmat.CHUNK_LEN == 1024
    # Misuse is a ValueError: a misplaced offset, an empty subtree, a root hash of a subtree.
    assert failure(lambda: hazmat.set_input_offset(fastblake.blake3(), 100))[0] is ValueError
    assert failure(lambda: hazmat.finalize_non_root(fastblake.blake3()))[0] is ValueError
    sub = hazmat.set_input_offset(fastblake.blake3(), 1024).update(b"x")
    assert failure(lambda: sub.digest())[0] is ValueError
    assert failure(lambda: hazmat.left_subtree_len(1024))[0] is ValueError
    assert failure(lambda: hazmat.merge_subtrees_root(b"x", b"y" * 32))[0] is ValueError


def test_backends_are_reported_and_chosen():
    assert fastblake.backend() in fastblake.available_backends()
    original = fastblake.backend()
    data = bytes(range(256)) * 300
    for name in fastblake.available_backends():
        assert fastblake.use_backend(name)
        assert fastblake.backend() == name
        assert fastblake.blake3(data).digest() == reference_module.blake3(data).digest()
        assert fastblake.blake2b(data).digest() == hashlib.blake2b(data).digest()
    assert not fastblake.use_backend("no-such-backend")
    assert fastblake.use_backend(original)


def test_variants_are_reported_and_chosen():
    names = fastblake.available_variants()
    original = fastblake.variant()
    assert (original == "") == (names == []) == (fastblake.variant_choice() == "")
    # 3, 4 and 7 chunks and a part: the variants differ in the last three or four chunks.
    for size in (3 * 1024, 4 * 1024, 7 * 1024 + 100):
        data = bytes(range(251)) * (size // 251 + 1)
        for name in names:
            assert fastblake.use_variant(name=name)
            assert fastblake.variant() == name
            assert fastblake.variant_choice() == "use_variant"
            assert fastblake.blake3(data[:size]).digest() == \
                reference_module.blake3(data[:size]).digest()
    assert not fastblake.use_variant("no-such-variant")
    with pytest.raises(TypeError):
        fastblake.use_variant(b"rows512")
    if names:
        assert fastblake.use_variant(original)


# A small content-addressed store, as one would write it against the blake3 package. It names
# its module `blake3_module` and is run twice: on the blake3 package and on fastblake, whose
# one-line migration is `from fastblake import blake3`.
def content_store(blake3_module, root):
    blake3 = blake3_module.blake3

    class Store:
        def __init__(self, root, key):
            self.root = root
            self.key = key

        def put(self, data):
            name = blake3(data, key=self.key).hexdigest()
            path = os.path.join(self.root, name[:2], name[2:])
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "wb") as f:
                f.write(data)
            return name

        def put_file(self, path):
            hasher = blake3(key=self.key, max_threads=blake3.AUTO)
            hasher.update_mmap(path)
            name = hasher.hexdigest()
            with open(path, "rb") as src:
                return self.put(src.read()) if name else name

        def verify(self, name):
            path = os.path.join(self.root, name[:2], name[2:])
            hasher = blake3(key=self.key)
            with open(path, "rb") as f:
                for block in iter(lambda: f.read(65536), b""):
                    hasher.update(block)
            return hasher.hexdigest() == name

    store = Store(root, blake3(b"store key", derive_key_context="cas 2026 v1").digest())
    names = [store.put(bytes([i]) * (i * 1000)) for i in range(20)]
    sample = os.path.join(root, "sample.bin")
    with open(sample, "wb") as f:
        f.write(os.urandom(1 << 20))
    names.append(store.put_file(sample))
    assert all(store.verify(n) for n in names)
    return names


def test_a_content_addressed_store_runs_unchanged(tmp_path):
    import importlib
    ours = content_store(importlib.import_module("fastblake"), str(tmp_path / "ours"))
    theirs = content_store(reference_module, str(tmp_path / "theirs"))
    assert ours[:-1] == theirs[:-1]
    assert len(ours) == 21
