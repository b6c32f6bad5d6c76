"""The shared game model (MODEL.md): calibration, broadcasting, edge cases."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from knockout.rules.model.strength import (
    DEFAULT_DRAW_NU,
    DEFAULT_ELO_PER_DOUBLING,
    DEFAULT_MODEL,
    DEFAULT_RED_ADVANTAGE,
    TimeClass,
    classify,
    davidson,
    davidson_share,
    effective_minutes,
    game_probabilities,
    p_uses_less_time,
    strength_difference,
)


def test_equal_ratings_classical_reproduce_seed_000_exactly() -> None:
    p = game_probabilities(2500, 2500, TimeClass.CLASSICAL)
    assert float(p.red) == pytest.approx(391 / 1218, rel=1e-13)
    assert float(p.draw) == pytest.approx(557 / 1218, rel=1e-13)
    assert float(p.black) == pytest.approx(270 / 1218, rel=1e-13)


def test_defaults_are_the_unrounded_expressions() -> None:
    assert 400 * math.log10(391 / 270) == DEFAULT_RED_ADVANTAGE
    assert DEFAULT_DRAW_NU.classical == 557 / math.sqrt(391 * 270)
    assert (DEFAULT_DRAW_NU.rapid, DEFAULT_DRAW_NU.blitz) == (1.0, 0.8)
    assert DEFAULT_ELO_PER_DOUBLING.to_dict() == {"classical": 120, "rapid": 120, "blitz": 120}
    assert round(DEFAULT_RED_ADVANTAGE, 1) == 64.3
    assert round(DEFAULT_DRAW_NU.classical, 3) == 1.714


def test_time_odds_term() -> None:
    d = strength_difference(
        2500, 2500, red_advantage=64.3, elo_per_doubling=120, red_minutes=30, black_minutes=10
    )
    assert float(d) == pytest.approx(64.3 + 120 * math.log2(3))


def test_broadcasting_over_arrays() -> None:
    red = np.array([[2400.0], [2500.0], [2600.0]])
    black = np.array([2450.0, 2550.0])
    p = game_probabilities(red, black, TimeClass.BLITZ, red_minutes=30, black_minutes=10)
    assert p.red.shape == (3, 2)
    assert np.allclose(p.red + p.draw + p.black, 1.0)
    # scalar call agrees with the broadcast element
    q = game_probabilities(2500.0, 2550.0, TimeClass.BLITZ, red_minutes=30, black_minutes=10)
    assert float(q.red) == pytest.approx(float(p.red[1, 1]))


@given(d=st.floats(-1e6, 1e6), nu=st.floats(0, 50))
def test_probabilities_valid_for_any_difference(d: float, nu: float) -> None:
    p = davidson(d, nu)
    values = [float(x) for x in p]
    assert all(0.0 <= v <= 1.0 for v in values)
    assert sum(values) == pytest.approx(1.0)


@given(d=st.floats(-3000, 3000), nu=st.floats(0, 5))
def test_colour_symmetry(d: float, nu: float) -> None:
    p, q = davidson(d, nu), davidson(-d, nu)
    assert float(p.red) == pytest.approx(float(q.black), abs=1e-15)
    assert float(p.draw) == pytest.approx(float(q.draw), abs=1e-15)


@given(d=st.floats(-2000, 2000), step=st.floats(0.1, 500), nu=st.floats(0, 5))
def test_red_wins_more_and_loses_less_as_d_grows(d: float, step: float, nu: float) -> None:
    lo, hi = davidson(d, nu), davidson(d + step, nu)
    assert float(hi.red) >= float(lo.red)
    assert float(hi.black) <= float(lo.black)


def test_per_class_overrides_only_touch_their_class() -> None:
    m = DEFAULT_MODEL.with_overrides(draw_nu={"blitz": 0.3})
    assert m.draw_nu.blitz == 0.3
    assert m.draw_nu.classical == DEFAULT_DRAW_NU.classical
    assert m.to_dict()["draw_nu"]["rapid"] == 1.0


def test_chooser_probability() -> None:
    assert float(p_uses_less_time(0.75, 0.1, 0.75, 0.1)) == 0.5
    faster = float(p_uses_less_time(0.6, 0.1, 0.8, 0.1))
    assert faster == pytest.approx(0.9213503964748575)  # Phi(0.2 / sqrt(0.02))
    assert float(p_uses_less_time(0.6, 0, 0.8, 0)) == 1.0
    assert float(p_uses_less_time(0.8, 0, 0.8, 0)) == 0.5
    # unequal base clocks: 0.5 of 10 min beats 0.75 of 30 min
    assert float(p_uses_less_time(0.5, 0.0, 0.75, 0.0, base_a=10, base_b=30)) == 1.0


def test_chooser_probability_matches_sampling() -> None:
    rng = np.random.default_rng(1)
    a = rng.normal(0.7, 0.12, 200_000)
    b = rng.normal(0.75, 0.08, 200_000)
    assert float(p_uses_less_time(0.7, 0.12, 0.75, 0.08)) == pytest.approx(
        float(np.mean(a < b)), abs=4 * 0.5 / 200_000**0.5
    )


@pytest.mark.parametrize(
    ("clocks", "increment", "moves", "expected"),
    [
        ((60, 60), 10, 60, "classical"),  # the seed's slow game: 70 minutes
        ((15, 15), 10, 60, "rapid"),  # the seed's rapid game: 25
        ((30, 10), 10, 60, "rapid"),  # the sudden-death accept pair: 40/20, mean 30
        ((6, 4), 3, 60, "blitz"),  # the official decider: 9/7, mean 8
        ((5, 5), 3, 60, "blitz"),  # super-rapid: 8
        ((50, 50), 10, 60, "classical"),  # exactly 60 on the boundary: classical
        ((7, 7), 3, 60, "blitz"),  # exactly 10 on the boundary: blitz
        ((7, 7), 3, 61, "rapid"),  # one more move tips it over
        ((0.1, 0.2), 0.1, 60, "blitz"),  # fractions that are inexact in binary
    ],
)
def test_time_class_from_the_mean_effective_clock(
    clocks: tuple[float, float], increment: float, moves: float, expected: str
) -> None:
    assert classify(clocks[0], clocks[1], increment, moves).value == expected


def test_effective_clock_ratio_of_the_seed_menu() -> None:
    # 30/10 + 10 s is a ratio of 2 (40/20), not 3; 35/5 + 10 s is 45/15, a ratio of 3.
    assert float(effective_minutes(30, 10) / effective_minutes(10, 10)) == 2.0
    assert float(effective_minutes(35, 10) / effective_minutes(5, 10)) == 3.0


@given(
    d=st.lists(
        st.one_of(
            st.floats(min_value=-2e5, max_value=2e5, allow_nan=False),
            st.sampled_from([0.0, -0.0, 5e-324, -5e-324, 1e-300, 3000.0, -3000.0]),
        ),
        min_size=1,
        max_size=64,
    ),
    nu=st.one_of(st.just(0.0), st.floats(min_value=0.0, max_value=50.0)),
    red=st.booleans(),
    with_draw=st.booleans(),
)
def test_one_sides_share_is_davidsons_bit_for_bit(
    d: list[float], nu: float, red: bool, with_draw: bool
) -> None:
    """The in-place share (the decision grids' fast path) does davidson's arithmetic exactly:
    the same bits, not merely close values."""
    x = np.array(d, dtype=np.float64)
    p = davidson(x, nu)
    side = p.red if red else p.black
    want = side + p.draw if with_draw else side
    got = davidson_share(x.copy(), nu, red=red, with_draw=with_draw)
    assert np.array_equal(np.asarray(want).view(np.int64), got.view(np.int64))
