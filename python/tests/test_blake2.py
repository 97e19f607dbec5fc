"""fastblake.blake2b/blake2s against hashlib: random parameter sets (valid and not), lengths and
split points, with the same results and the same errors, messages included; blake2bp and
blake2sp against the official KAT; blake2xb and blake2xs against BLAKE2X in plain Python
(blake2_reference.py, itself held to hashlib here)."""
import hashlib
import pickle

import pytest

import fastblake
from blake2_reference import blake2, blake2x, param_block
from conftest import VECTORS, failure, interesting_lengths, outcome, random_bytes

FAMILIES = [("blake2b", fastblake.blake2b, hashlib.blake2b, 64, 16, 2**64 - 1),
            ("blake2s", fastblake.blake2s, hashlib.blake2s, 32, 8, 2**48 - 1)]


def random_params(rng, out, salt, max_offset, valid=True):
    """Keyword arguments for hashlib.blake2b/s: in range, or (valid=False) with one or two
    values out of range or of the wrong type."""
    p = {}
    if rng.random() < 0.7:
        p["digest_size"] = rng.randint(1, out)
    if rng.random() < 0.5:
        p["key"] = random_bytes(rng, rng.randint(0, out))
    if rng.random() < 0.4:
        p["salt"] = random_bytes(rng, rng.randint(0, salt))
    if rng.random() < 0.4:
        p["person"] = random_bytes(rng, rng.randint(0, salt))
    if rng.random() < 0.3:
        p["fanout"] = rng.randint(0, 255)
    if rng.random() < 0.3:
        p["depth"] = rng.randint(1, 255)
    if rng.random() < 0.3:
        p["leaf_size"] = rng.randint(0, 2**32 - 1)
    if rng.random() < 0.3:
        p["node_offset"] = rng.choice([0, 1, rng.randint(0, max_offset), max_offset])
    if rng.random() < 0.3:
        p["node_depth"] = rng.randint(0, 255)
    if rng.random() < 0.3:
        p["inner_size"] = rng.randint(0, out)
    if rng.random() < 0.3:
        p["last_node"] = rng.choice([True, False, 0, 1, None, "yes"])
    if rng.random() < 0.2:
        p["usedforsecurity"] = rng.choice([True, False])
    if not valid:
        bad = {
            "digest_size": [0, out + 1, -1, 2**31, 2**70, "3", 1.5, None],
            "key": [b"k" * (out + 1), "text", 5, None],
            "salt": [b"s" * (salt + 1), "text", 7],
            "person": [b"p" * (salt + 1), "text"],
            "fanout": [-1, 256, 2**40, 1.0],
            "depth": [0, 256, -5, "1"],
            "leaf_size": [-1, 2**32, 2**64, 2**65, 0.5],
            "node_offset": [-1, max_offset + 1, 2**64, 2**80, "0"],
            "node_depth": [-1, 256, 2**33],
            "inner_size": [-1, out + 1, 2**31 + 5],
        }
        for name in rng.sample(sorted(bad), rng.choice([1, 2])):
            p[name] = rng.choice(bad[name])
    return p


@pytest.mark.parametrize("name,ours,theirs,out,salt,max_offset", FAMILIES)
def test_random_parameters_lengths_and_splits_match_hashlib(rng, name, ours, theirs, out, salt,
                                                            max_offset):
    for _ in range(1500):
        params = random_params(rng, out, salt, max_offset)
        data = random_bytes(rng, rng.choice(interesting_lengths(rng, 3000)))
        a, b = ours(**params), theirs(**params)
        cut = sorted(rng.randint(0, len(data)) for _ in range(rng.randint(0, 3)))
        for start, end in zip([0] + cut, cut + [len(data)]):
            assert a.update(data[start:end]) is None
            b.update(data[start:end])
        assert a.digest() == b.digest(), (params, len(data), cut)
        assert a.hexdigest() == b.hexdigest()
        assert a.digest_size == b.digest_size
        # Positional data in the constructor, as hashlib takes it.
        assert ours(data, **params).digest() == b.digest()


@pytest.mark.parametrize("name,ours,theirs,out,salt,max_offset", FAMILIES)
def test_invalid_parameters_raise_what_hashlib_raises(rng, name, ours, theirs, out, salt,
                                                      max_offset):
    for _ in range(2000):
        params = random_params(rng, out, salt, max_offset, valid=False)
        expected = failure(lambda: theirs(b"data", **params))
        assert failure(lambda: ours(b"data", **params)) == expected, params


@pytest.mark.parametrize("name,ours,theirs,out,salt,max_offset", FAMILIES)
def test_attributes_and_copy_match_hashlib(name, ours, theirs, out, salt, max_offset):
    for attr in ["SALT_SIZE", "PERSON_SIZE", "MAX_KEY_SIZE", "MAX_DIGEST_SIZE"]:
        assert getattr(ours, attr) == getattr(theirs, attr), attr
    a, b = ours(b"abc", digest_size=20), theirs(b"abc", digest_size=20)
    assert (a.name, a.digest_size, a.block_size) == (b.name, b.digest_size, b.block_size)
    fork = a.copy()
    a.update(b"more")
    assert fork.digest() == theirs(b"abc", digest_size=20).digest()
    assert a.digest() == theirs(b"abcmore", digest_size=20).digest()
    assert a.digest() == a.digest(), "digest() leaves the state alone"


@pytest.mark.parametrize("name,ours,theirs,out,salt,max_offset", FAMILIES)
def test_data_by_name_where_hashlib_takes_it(name, ours, theirs, out, salt, max_offset):
    """Newer CPythons' hashlib (Debian 13's 3.13.5; not 3.13.0) takes data by name too, and by
    its old name string, one or the other: ours follows the Python it runs in, with its words."""
    calls = [lambda m: m(data=b"x").digest(), lambda m: m(string=b"x").digest(),
             lambda m: m(data=b"x", digest_size=8, key=b"k").digest(),
             lambda m: m(string=b"x", salt=b"s").digest(), lambda m: m(b"x", string=b"y"),
             lambda m: m(b"x", data=b"y"), lambda m: m(data=b"x", string=None),
             lambda m: m(string=None), lambda m: m(data="text"), lambda m: m(string=b"", foo=1)]
    for i, call in enumerate(calls):
        assert outcome(lambda: call(ours)) == outcome(lambda: call(theirs)), i
        assert failure(lambda: call(ours)) == failure(lambda: call(theirs)), i


@pytest.mark.parametrize("name,ours,theirs,out,salt,max_offset", FAMILIES)
def test_bad_data_raises_what_hashlib_raises(name, ours, theirs, out, salt, max_offset):
    import array
    cases = ["text", 5, None, 1.5, [1, 2], memoryview(b"abcdef")[::2], array.array("i", [1, 2])]
    try:
        import numpy
        cases += [numpy.arange(10, dtype=numpy.int32), numpy.arange(20).reshape(4, 5),
                  numpy.arange(20)[::2], numpy.zeros((3, 4)).T]
    except ImportError:
        pass
    for data in cases:
        assert failure(lambda: ours(data)) == failure(lambda: theirs(data)), repr(data)
        a, b = ours(), theirs()
        assert failure(lambda: a.update(data)) == failure(lambda: b.update(data)), repr(data)
        if failure(lambda: theirs(data)) == (None, None):
            assert ours(data).digest() == theirs(data).digest()
    # data is positional only, in both.
    assert failure(lambda: ours(data=b"x"))[0] is failure(lambda: theirs(data=b"x"))[0]


def test_pickling_is_refused_as_hashlib_refuses_it():
    with pytest.raises(TypeError):
        pickle.dumps(hashlib.blake2b())
    with pytest.raises(TypeError):
        pickle.dumps(fastblake.blake2b())


def kat(algorithm):
    """(keyed, length, digest) of the official KAT for one algorithm."""
    for line in (VECTORS / "blake2_kat.txt").read_text().splitlines():
        fields = line.split()
        if len(fields) == 4 and fields[0] == algorithm:
            yield fields[1] == "1", int(fields[2]), bytes.fromhex(fields[3])


@pytest.mark.parametrize("algorithm,cls,key_size",
                         [("bp", fastblake.blake2bp, 64), ("sp", fastblake.blake2sp, 32)])
def test_parallel_forms_match_the_official_kat(algorithm, cls, key_size):
    key = bytes(range(key_size))
    seen = 0
    for keyed, length, digest in kat(algorithm):
        data = bytes(i % 256 for i in range(length))
        h = cls(data, key=key) if keyed else cls(data)
        assert h.digest() == digest, (algorithm, keyed, length)
        split = cls(key=key) if keyed else cls()
        split.update(data[: length // 3])
        split.update(data[length // 3:])
        assert split.digest() == digest
        seen += 1
    assert seen == 512


@pytest.mark.parametrize("b,cls,most", [(True, fastblake.blake2xb, 2**32 - 2),
                                        (False, fastblake.blake2xs, 65534)])
def test_blake2x_matches_a_reference_in_python(rng, b, cls, most):
    out = 64 if b else 32
    for _ in range(60):
        length = rng.choice([1, out - 1, out, out + 1, 2 * out, rng.randint(1, 700)])
        key = random_bytes(rng, rng.choice([0, 1, out]))
        salt = random_bytes(rng, rng.choice([0, out // 4]))
        person = random_bytes(rng, rng.choice([0, out // 4]))
        data = random_bytes(rng, rng.randint(0, 600))
        h = cls(data, digest_size=length, key=key, salt=salt, person=person)
        assert h.digest() == blake2x(b, data, length, key, salt, person)
        assert h.digest_size == length
    assert failure(lambda: cls(digest_size=most))[0] is None
    assert failure(lambda: cls(digest_size=most + 1))[0] is ValueError
    assert failure(lambda: cls(digest_size=0))[0] is ValueError


def test_the_python_reference_is_hashlibs_blake2(rng):
    for b, theirs in [(True, hashlib.blake2b), (False, hashlib.blake2s)]:
        out = 64 if b else 32
        for _ in range(20):
            size = rng.randint(1, out)
            key = random_bytes(rng, rng.choice([0, 5, out]))
            salt, person = random_bytes(rng, out // 4), random_bytes(rng, out // 4)
            offset, depth = rng.randrange(2**32), rng.randint(1, 255)
            data = random_bytes(rng, rng.choice([0, 1, 64, 129, 300]))
            block = param_block(b, size, len(key), fanout=3, depth=depth, leaf=77,
                                node_offset=offset, node_depth=2, inner=9, salt=salt,
                                person=person)
            assert blake2(b, block, data, key) == theirs(
                data, digest_size=size, key=key, fanout=3, depth=depth, leaf_size=77,
                node_offset=offset, node_depth=2, inner_size=9, salt=salt, person=person).digest()
