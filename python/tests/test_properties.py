"""Property tests (Hypothesis) of every class and function against blake3-py and hashlib:
random inputs split at random into updates, keys, contexts, every BLAKE2 parameter, output
lengths and seeks up to 2^64, thread settings, subtrees. Hypothesis shrinks a failure to its
smallest case and prints it; `--hypothesis-seed=N` replays a run."""
import hashlib

import blake3 as reference_module
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import fastblake
import fastblake.blake3_hazmat as hazmat
from blake2_reference import blake2x
from conftest import failure

theirs = reference_module.blake3
# No deadline: the machines are shared, and a slow example is not a wrong one.
settings.register_profile("fastblake", deadline=None, max_examples=300, database=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("fastblake")

TOP = 2**64

data_st = st.binary(max_size=9000)
# Inputs past the size from which threads are used: a random pattern, repeated.
big_data_st = st.builds(lambda pattern, count: pattern * count,
                        st.binary(min_size=1, max_size=64), st.integers(1, 20000))
cuts_st = st.lists(st.integers(0, 2**20), max_size=4)
mode_st = st.one_of(st.just({}), st.binary(min_size=32, max_size=32).map(lambda k: {"key": k}),
                    st.text(max_size=40).map(lambda c: {"derive_key_context": c}))
seek_st = st.one_of(st.integers(0, 5000), st.integers(0, TOP - 1),
                    st.integers(TOP - 5000, TOP - 1))


def pieces(data, cuts):
    points = sorted({c % (len(data) + 1) for c in cuts})
    return [data[a:b] for a, b in zip([0] + points, points + [len(data)])]


@given(data=st.one_of(data_st, big_data_st), cuts=cuts_st, mode=mode_st,
       threads=st.sampled_from([1, 2, 3, fastblake.AUTO]), length=st.integers(0, 1500),
       seek=seek_st)
def test_blake3_matches_blake3_py(data, cuts, mode, threads, length, seek):
    ours, ref = fastblake.blake3(max_threads=threads, **mode), theirs(**mode)
    for piece in pieces(data, cuts):
        ours.update(piece)
        ref.update(piece)
    length = min(length, TOP - seek)
    assert ours.digest(length, seek=seek) == ref.digest(length, seek=seek)
    assert ours.hexdigest() == ref.hexdigest()
    fork = ours.copy()
    fork.update(data[:100])
    ref.update(data[:100])
    assert fork.digest() == ref.digest()
    assert fastblake.blake3(data, **mode).digest() == theirs(data, **mode).digest()


@given(inputs=st.lists(st.one_of(st.binary(max_size=3000), big_data_st), max_size=40),
       mode=mode_st)
def test_hash_many_matches_one_blake3_py_hash_each(inputs, mode):
    assert fastblake.hash_many(inputs, **mode) == [theirs(i, **mode).digest() for i in inputs]
    assert fastblake.hash_many(iter(inputs), **mode) == fastblake.hash_many(inputs, **mode)


@given(data=st.binary(min_size=1025, max_size=40000), mode=mode_st,
       length=st.integers(0, 300), seek=seek_st)
def test_subtrees_merge_into_blake3_pys_hash(data, mode, length, seek):
    split = hazmat.left_subtree_len(len(data))
    left = hazmat.set_input_offset(fastblake.blake3(**mode), 0).update(data[:split])
    right = hazmat.set_input_offset(fastblake.blake3(**mode), split).update(data[split:])
    cvs = hazmat.finalize_non_root(left), hazmat.finalize_non_root(right)
    length = min(length, TOP - seek)
    assert hazmat.merge_subtrees_root(*cvs, length=length, seek=seek, **mode) == \
        theirs(data, **mode).digest(length, seek=seek)


def blake2_params(out, salt, max_offset):
    return st.fixed_dictionaries({}, optional={
        "digest_size": st.integers(1, out), "key": st.binary(max_size=out),
        "salt": st.binary(max_size=salt), "person": st.binary(max_size=salt),
        "fanout": st.integers(0, 255), "depth": st.integers(1, 255),
        "leaf_size": st.integers(0, 2**32 - 1), "node_offset": st.integers(0, max_offset),
        "node_depth": st.integers(0, 255), "inner_size": st.integers(0, out),
        "last_node": st.booleans(), "usedforsecurity": st.booleans()})


FAMILIES = [(fastblake.blake2b, hashlib.blake2b, blake2_params(64, 16, TOP - 1)),
            (fastblake.blake2s, hashlib.blake2s, blake2_params(32, 8, 2**48 - 1))]


@given(data=data_st, cuts=cuts_st, which=st.sampled_from([0, 1]), choice=st.data())
def test_blake2_matches_hashlib(data, cuts, which, choice):
    ours, ref, params_st = FAMILIES[which]
    params = choice.draw(params_st)
    a, b = ours(**params), ref(**params)
    for piece in pieces(data, cuts):
        a.update(piece)
        b.update(piece)
    assert a.digest() == b.digest()
    assert a.hexdigest() == b.hexdigest()
    assert a.copy().digest() == b.copy().digest()
    assert ours(data, **params).digest() == ref(data, **params).digest()


any_value_st = st.one_of(st.integers(-2**70, 2**70), st.binary(max_size=70), st.text(max_size=3),
                         st.none(), st.booleans(), st.floats(allow_nan=False))


@given(which=st.sampled_from([0, 1]),
       params=st.dictionaries(st.sampled_from(["digest_size", "key", "salt", "person", "fanout",
                                               "depth", "leaf_size", "node_offset", "node_depth",
                                               "inner_size", "last_node"]),
                              any_value_st, max_size=4))
def test_blake2_refuses_what_hashlib_refuses_with_its_message(which, params):
    ours, ref, _ = FAMILIES[which]
    assert failure(lambda: ours(b"x", **params).digest()) == \
        failure(lambda: ref(b"x", **params).digest())


@given(data=data_st, cuts=cuts_st, b=st.booleans(), length=st.integers(1, 2000),
       key=st.binary(max_size=32), salt=st.binary(max_size=8), person=st.binary(max_size=8))
def test_blake2x_matches_the_python_reference(data, cuts, b, length, key, salt, person):
    cls = fastblake.blake2xb if b else fastblake.blake2xs
    h = cls(digest_size=length, key=key, salt=salt, person=person)
    for piece in pieces(data, cuts):
        h.update(piece)
    assert h.digest() == blake2x(b, data, length, key, salt, person)


@given(data=st.one_of(data_st, big_data_st), cuts=cuts_st, b=st.booleans(),
       key=st.binary(max_size=32), size=st.integers(1, 32))
def test_blake2bp_and_sp_do_not_depend_on_the_split(data, cuts, b, key, size):
    cls = fastblake.blake2bp if b else fastblake.blake2sp
    h = cls(digest_size=size, key=key)
    for piece in pieces(data, cuts):
        h.update(piece)
    assert h.digest() == cls(data, digest_size=size, key=key).digest()
