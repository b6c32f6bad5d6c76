"""The colour rule 'choice': a lot (or a named player) gives the right to choose colours."""

from __future__ import annotations

import math

import numpy as np
import pytest

from knockout.engine.match import play_match
from knockout.errors import ScenarioError
from knockout.exact.solver import solve
from knockout.rules.book.formats import ColourRule
from knockout.rules.book.presets import get_format
from knockout.rules.chain.pairing import Pairing
from knockout.rules.decisions.choice import ChoiceGame
from knockout.rules.decisions.strategies import Believed, Rational
from knockout.rules.model.players import Player
from knockout.rules.model.strength import DEFAULT_RED_ADVANTAGE, ModelParams, PerClass
from knockout.rules.scenario.aggregate import parse_scenario
from sims.kernel import MatchTables, simulate


def davidson(d: float, nu: float) -> tuple[float, float, float]:
    g = 10 ** (d / 400)
    z = g + 1 + nu * math.sqrt(g)
    return g / z, nu * math.sqrt(g) / z, 1 / z


def test_the_official_decider_is_a_choice_by_lot() -> None:
    decider = get_format("official-playoff").stage("decider")
    assert decider.colours is ColourRule.CHOICE and decider.chooser == "lot"


def test_choice_values_by_hand() -> None:
    """6/4 minutes + 3 s: effective 9 v 7 (blitz, nu 0.8, 120 Elo a doubling); draw -> Black."""
    game = ChoiceGame.from_stage(get_format("official-playoff").stage("decider"), ModelParams())
    odds = 120 * math.log2(9 / 7)
    for x in (-200.0, 0.0, 50.0):
        red_win = davidson(x + DEFAULT_RED_ADVANTAGE + odds, 0.8)[0]
        _, draw, black = davidson(-x + DEFAULT_RED_ADVANTAGE + odds, 0.8)
        assert float(game.value(True, x)) == pytest.approx(red_win, abs=1e-14)
        assert float(game.value(False, x)) == pytest.approx(draw + black, abs=1e-14)


def _decider_share(sol_decided: np.ndarray) -> float:
    return float(sol_decided[0, 3, 0] / sol_decided[0, 3].sum())


def test_a_named_chooser_takes_the_better_colour() -> None:
    """With a draw worth a win for Black and no first-move edge, Black can be the better colour:
    the named chooser then takes it, and the decider is theirs more often than by lot."""
    model = ModelParams(PerClass(0, 0, -150), PerClass(1.7, 1.0, 1.5), PerClass(120, 120, 0))
    a, b = Player("A", 2550), Player("B", 2500)
    fmt = get_format("official-playoff")
    game = ChoiceGame.from_stage(fmt.stage("decider"), model)
    as_red, as_black = float(game.value(True, 50.0)), float(game.value(False, 50.0))
    assert as_black > as_red  # Black is the better colour for A here
    named = fmt.with_stage("decider", chooser="A")
    sol = solve(Pairing.of(named, a, b, model=model, strategy=Rational()))
    assert _decider_share(sol.decided) == pytest.approx(as_black, abs=1e-12)
    # By lot: A chooses half the time (Black), B the other half (B takes its better colour).
    b_red, b_black = float(game.value(True, -50.0)), float(game.value(False, -50.0))
    by_lot = solve(Pairing.of(fmt, a, b, model=model, strategy=Rational()))
    expected = 0.5 * as_black + 0.5 * (1 - max(b_red, b_black))
    assert _decider_share(by_lot.decided) == pytest.approx(expected, abs=1e-12)


@pytest.mark.slow
def test_choice_under_private_beliefs_agrees_across_walkers() -> None:
    model = ModelParams(PerClass(0, 0, -80), PerClass(1.7, 1.0, 1.2), PerClass(120, 120, 60))
    strategy = Believed(150.0)
    a, b = Player("A", 2520), Player("B", 2500)
    fmt = get_format("official-playoff")
    exact = solve(Pairing.of(fmt, a, b, model=model, strategy=strategy))
    p = float(exact.win[0, 0])
    # Monte Carlo (exact stage exits)
    tables = MatchTables.from_pairing(Pairing.of(fmt, a, b, model=model, strategy=strategy))
    n = 400_000
    out = simulate(tables, n, np.random.default_rng(3))
    est = float(np.mean(out.winner == 0))
    assert abs(est - p) <= 4 * math.sqrt(p * (1 - p) / n)
    # the SimPy engine, its own decisions drawn per match
    rng = np.random.default_rng(5)
    m = 1500
    wins = sum(
        play_match(fmt, a, b, strategy=strategy, model=model, rng=rng)[0].winner == "A"
        for _ in range(m)
    )
    assert abs(wins / m - p) <= 4 * math.sqrt(p * (1 - p) / m)


def test_the_chooser_must_be_lot_or_a_player() -> None:
    data = {
        "format": {"preset": "official-playoff", "decider": {"chooser": "Nobody"}},
        "players": [{"name": "A", "rating": 2500}, {"name": "B", "rating": 2500}],
    }
    with pytest.raises(ScenarioError) as err:
        parse_scenario(data, source="s.toml")
    assert err.value.lines() == [
        "s.toml: format.decider.chooser: expected 'lot', 'higher-ranked', 'last-black', "
        "'first-black' or a player's name (A, B), got 'Nobody'"
    ]
    data["format"]["decider"]["chooser"] = "B"  # type: ignore[index]
    sc = parse_scenario(data)
    assert sc.to_dict()["format"]["decider"]["chooser"] == "B"
    assert parse_scenario(sc.to_dict()) == sc
