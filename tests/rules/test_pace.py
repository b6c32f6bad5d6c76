"""The pace model (time use as a choice): natural play changes nothing, hurrying costs strength
in the game that decides 甲 only, stalling costs nothing."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy.special import ndtr

from knockout.exact.solver import solve
from knockout.rules.book.formats import BiddingMenu
from knockout.rules.book.presets import FORMATS
from knockout.rules.chain.match import MatchState
from knockout.rules.chain.pairing import Pairing
from knockout.rules.decisions.pace import deciding_game, no_pace_choice, pace_bounds, pace_shift
from knockout.rules.decisions.strategies import Rational
from knockout.rules.model.players import Player, Speed
from knockout.rules.model.strength import DEFAULT_MODEL


def test_the_game_that_decides_the_chooser() -> None:
    assert deciding_game(FORMATS["xq-bidding"]) == (1, 0)  # the rapid game
    assert deciding_game(FORMATS["single-slow"]) == (0, 0)  # the one slow game
    fmt = FORMATS["xq-bidding"].with_stage("rapid", games=2)
    assert deciding_game(fmt) == (1, 1)  # the last game of the block
    for preset in ("official-playoff", "armageddon-bid", "armageddon-lot", "blitz-pairs"):
        assert deciding_game(FORMATS[preset]) is None
        assert "no such incentive" in (no_pace_choice(FORMATS[preset]) or "")
    lot = FORMATS["xq-bidding"].with_stage("sudden_death", bidding=BiddingMenu(priority="lot"))
    assert deciding_game(lot) is None and "by lot" in (no_pace_choice(lot) or "")


@given(
    pace=st.floats(0.01, 1.0),
    natural=st.floats(0.01, 1.0),
    epd=st.floats(0.0, 400.0),
)
def test_hurrying_costs_stalling_does_not(pace: float, natural: float, epd: float) -> None:
    shift = float(pace_shift(epd, pace, natural))
    if pace >= natural:
        assert shift == 0.0
    else:
        assert shift == pytest.approx(epd * np.log2(pace / natural))
        assert shift <= 0.0
    lo, hi = pace_bounds(0.2, natural)
    assert lo <= natural <= hi and lo == min(0.2, natural) and hi == 1.0


def _pairing(
    preset: str, ratings: tuple[float, float], speeds: tuple[tuple[float, float], ...]
) -> Pairing:
    fmt = (
        FORMATS[preset]
        if preset != "two-rapid"
        else FORMATS["xq-bidding"].with_stage("rapid", games=2)
    )
    a = Player("A", ratings[0], speed=Speed(*speeds[0]))
    b = Player("B", ratings[1], speed=Speed(*speeds[1]))
    return Pairing.of(fmt, a, b, model=DEFAULT_MODEL, strategy=Rational())


@given(
    preset=st.sampled_from(["xq-bidding", "single-slow", "two-rapid"]),
    ratings=st.tuples(st.floats(2000, 2800), st.floats(2000, 2800)),
    speeds=st.tuples(
        st.tuples(st.floats(0.05, 1.0), st.floats(0.0, 0.5)),
        st.tuples(st.floats(0.05, 1.0), st.floats(0.0, 0.5)),
    ),
)
def test_natural_paces_change_nothing(
    preset: str, ratings: tuple[float, float], speeds: tuple[tuple[float, float], ...]
) -> None:
    plain = _pairing(preset, ratings, speeds)
    paced = plain.with_paces(speeds[0][0], speeds[1][0])
    one, two = solve(plain), solve(paced)
    for field in ("win", "decided", "chooser_advances", "chooser_is_a", "expected_minutes"):
        assert np.array_equal(getattr(one, field), getattr(two, field)), field


def test_a_pace_moves_only_the_deciding_game_and_the_chooser() -> None:
    plain = _pairing("xq-bidding", (2600, 2550), ((0.8, 0.1), (0.7, 0.1)))
    paced = plain.with_paces(0.4, 0.9)
    slow = MatchState(0, 0, 0, None)
    assert all(
        np.array_equal(x, y)
        for x, y in zip(plain.game_at(slow, 0), paced.game_at(slow, 0), strict=True)
    )
    rapid = MatchState(1, 0, 0, 1)
    # A hurries to half its natural time: one doubling (120 Elo) weaker; B's stalling is free
    red, _, _ = paced.game_at(rapid, 0)
    expected = plain.game_with_clocks(1, 0, (15.0, 15.0))
    shifted = _pairing("xq-bidding", (2480, 2550), ((0.8, 0.1), (0.7, 0.1)))
    assert float(red[0]) == pytest.approx(float(shifted.game(1, 0).red[0]), abs=1e-15)
    assert float(red[0]) < float(expected.red[0])
    sudden = MatchState(2, 0, 0, 0)
    # A aims at 0.4 of its clock, B at 0.9, on equal clocks: P(A uses less) = Phi(0.5 / s)
    assert float(paced.p_a_chooses(sudden)[0]) == pytest.approx(
        float(ndtr(0.5 / np.hypot(0.1, 0.1))), abs=1e-15
    )
    assert float(plain.p_a_chooses(sudden)[0]) < 0.5
