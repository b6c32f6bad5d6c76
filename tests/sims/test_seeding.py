"""A block's generator seeded faster is numpy's own: same state, same stream, same children."""

from __future__ import annotations

import pickle
from typing import Any

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from sims.runner import block_rng
from sims.seeding import BATCH, block_generator, block_state_words

SEEDS = st.one_of(
    st.integers(0, 16),
    st.integers(0, 2**32 - 1),
    st.integers(2**32, 2**64),
    st.integers(2**64, 2**200),
)
INDICES = st.one_of(st.integers(0, 4_096), st.integers(0, 2**32 + 5), st.integers(2**32, 2**100))


def numpy_rng(seed: int, index: int) -> np.random.Generator:
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(index,)))


@settings(max_examples=400, deadline=None)
@given(SEEDS, INDICES)
def test_the_state_is_numpys(seed: int, index: int) -> None:
    ref = numpy_rng(seed, index)
    words = ref.bit_generator.seed_seq.generate_state(4, np.uint64).tolist()
    assert block_state_words(seed, index) == words
    assert block_rng(seed, index).bit_generator.state == ref.bit_generator.state


def test_batch_edges_are_numpys() -> None:
    """Blocks are seeded BATCH at a time below 2**32 and one by one above."""
    for seed in (0, 3, 2**64 + 1):
        for index in (0, BATCH - 1, BATCH, 5 * BATCH + 7, 2**32 - 1, 2**32, 2**32 + BATCH):
            state = block_rng(seed, index).bit_generator.state
            assert state == numpy_rng(seed, index).bit_generator.state, (seed, index)


def test_the_stream_children_and_pickles_are_numpys() -> None:
    rng, ref = block_rng(7, 3), numpy_rng(7, 3)
    assert np.array_equal(rng.random(1_000), ref.random(1_000))
    for n in (2, 3):  # spawning twice goes on from the children already spawned
        mine, theirs = rng.spawn(n), ref.spawn(n)
        assert [c.integers(1 << 62) for c in mine] == [c.integers(1 << 62) for c in theirs]
    copy = pickle.loads(pickle.dumps(rng))
    assert copy.random() == rng.random()
    seq = rng.bit_generator.seed_seq
    assert np.array_equal(
        seq.generate_state(3), np.random.SeedSequence(7, spawn_key=(3,)).generate_state(3)
    )


def test_other_seeds_go_to_numpy() -> None:
    cases: list[tuple[Any, Any]] = [(np.int64(5), 2), (5, np.int64(2)), (True, 0)]
    for seed, index in cases:
        ref = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(index,)))
        assert block_generator(seed, index).bit_generator.state == ref.bit_generator.state
