"""The colour lot's uniform, computed without numpy.random, is numpy's to the last bit."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from knockout.event.lot import first_uniform
from knockout.event.state import lot_red

WORDS = st.integers(0, 2**32 - 1) | st.integers(0, 2**64 - 1) | st.integers(0, 2**100)


@settings(max_examples=400, deadline=None)
@given(st.lists(WORDS, min_size=1, max_size=7))
def test_first_uniform_is_numpys_default_rng(entropy: list[int]) -> None:
    assert first_uniform(entropy) == np.random.default_rng(entropy).random()


@pytest.mark.parametrize("seed", [0, 1, 7, 2026, 2**40 + 3])
def test_every_lot_of_an_event_is_as_numpy_drew_it(seed: int) -> None:
    for key in [(1, 0), (1, 7), (3, 1), (5, 2)]:
        for number in range(1, 6):
            rng = np.random.default_rng([seed, key[0], key[1], number])
            assert lot_red(seed, key, number) == (0 if rng.random() < 0.5 else 1)


def test_negative_entropy_is_refused_as_numpy_does() -> None:
    with pytest.raises(ValueError, match="non-negative"):
        first_uniform([-1])
    with pytest.raises(ValueError):
        np.random.default_rng([-1])
