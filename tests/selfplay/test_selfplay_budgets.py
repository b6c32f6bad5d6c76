"""Budgets, odds and how they are written as clocks for the calibration file."""

from __future__ import annotations

import math

import pytest

from knockout.errors import InputError
from knockout.rules.model.strength import effective_minutes
from knockout.selfplay.budgets import Pairing, pairings, parse_clock, parse_odds


def test_odds_and_clocks_parse() -> None:
    assert parse_odds(" 1.5 : 1 ") == (1.5, 1.0)
    assert parse_clock("30/10+10") == (30.0, 10.0, 10.0)
    assert parse_clock("3/1") == (3.0, 1.0, 0.0)


@pytest.mark.parametrize("text", ["2", "2:0", "-1:1", "a:b", "2:1:1", ""])
def test_bad_odds_are_refused(text: str) -> None:
    with pytest.raises(InputError, match="--odds"):
        parse_odds(text)


@pytest.mark.parametrize("text", ["30", "0/10+1", "30/10+", "30/10-1"])
def test_bad_clocks_are_refused(text: str) -> None:
    with pytest.raises(InputError, match="--clock"):
        parse_clock(text)


def test_every_odds_is_played_with_both_colours_once() -> None:
    found = pairings("nodes", 1000, [(1, 1), (2, 1), (1, 2)])
    assert [(p.red, p.black) for p in found] == [(1000, 1000), (2000, 1000), (1000, 2000)]
    assert pairings("nodes", 1000) == (Pairing("nodes", 1000, 1000),)
    assert pairings("clock", (30.0, 10.0, 10.0)) == (
        Pairing("clock", 30, 10, 10),
        Pairing("clock", 10, 30, 10),
    )


def test_odds_with_a_clock_are_refused() -> None:
    with pytest.raises(InputError, match="not with --clock"):
        pairings("clock", (30.0, 10.0, 10.0), [(2, 1)])


def test_the_calibration_clocks_keep_the_budgets_ratio() -> None:
    # Nodes: the effective clocks (60 moves) are in the ratio of the nodes.
    red, black, inc = Pairing("nodes", 8000, 4000).calibration_clocks()
    ratio = float(effective_minutes(red, inc, 60) / effective_minutes(black, inc, 60))
    assert math.isclose(ratio, 2.0)
    # A clock scaled down from the seed's 30/10 + 10 s keeps its effective ratio 40/20 = 2.
    red, black, inc = Pairing("clock", 3.6, 1.2, 0.02).calibration_clocks()
    ratio = float(effective_minutes(red, inc, 60) / effective_minutes(black, inc, 60))
    assert math.isclose(ratio, 2.0)
    # and 35/5 + 10 s, 45/15 = 3, likewise.
    assert math.isclose(Pairing("clock", 4.2, 0.6, 0.02).ratio(), 3.0)
