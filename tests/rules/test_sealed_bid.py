"""The sealed-bid Armageddon: bids, the exact integral over beliefs, and the scenario keys."""

from __future__ import annotations

import numpy as np
import pytest

from knockout.exact.solver import solve
from knockout.game import Colour
from knockout.rules.book.presets import get_format
from knockout.rules.chain.pairing import Pairing
from knockout.rules.decisions.sealed import SealedBidGame
from knockout.rules.decisions.strategies import Believed, Naive, Rational
from knockout.rules.model.players import Player
from knockout.rules.model.strength import ModelParams, PerClass
from knockout.rules.scenario.aggregate import parse_scenario

GAME = SealedBidGame(10.0, 1.0, Colour.BLACK)


def test_rational_bid_is_the_indifference_point() -> None:
    for gap in (0.0, 150.0, -150.0, 600.0):
        t = float(GAME.rational_bid(gap))
        assert 1.0 < t < 10.0
        assert float(GAME.as_black(gap, t)) == pytest.approx(float(GAME.as_red(gap, t)), abs=1e-6)
    # the bid depends only on the size of the gap, and falls as the gap grows
    assert float(GAME.rational_bid(200)) == pytest.approx(float(GAME.rational_bid(-200)))
    assert (
        float(GAME.rational_bid(0)) > float(GAME.rational_bid(400)) > float(GAME.rational_bid(800))
    )


def test_rational_bids_tie_and_the_lot_decides() -> None:
    x = np.array([120.0])
    a, b = Rational().sealed_bids(GAME, x, np.random.default_rng(0))
    assert a[0] == b[0]
    expected = 0.5 * (GAME.as_black(120.0, a[0]) + GAME.as_red(120.0, a[0]))
    assert float(Rational().sealed_bid_advances(GAME, x)[0]) == pytest.approx(float(expected))


def test_bids_clamp_when_black_is_never_or_always_better() -> None:
    model = ModelParams(PerClass(300, 300, 300), PerClass(0.0, 0.0, 0.0), PerClass(0, 0, 0))
    red_always = SealedBidGame(10.0, 1.0, Colour.BLACK, model=model)  # Red too strong
    assert float(red_always.rational_bid(0.0)) == 10.0
    model = ModelParams(PerClass(-300, -300, -300), PerClass(3, 3, 3), PerClass(0, 0, 0))
    black_always = SealedBidGame(10.0, 1.0, Colour.BLACK, model=model)
    assert float(black_always.rational_bid(0.0)) == 1.0


@pytest.mark.parametrize("x", [0.0, 100.0, -250.0])
def test_believed_integral_is_accurate(x: float) -> None:
    coarse = float(GAME.believed_a_advances(x, 150.0))
    fine = float(GAME.believed_a_advances(x, 150.0, cells=16001))
    assert coarse == pytest.approx(fine, abs=2e-6)
    n = 400_000
    rng = np.random.default_rng(4)
    a, b = Believed(150.0).sealed_bids(GAME, np.full(n, x), rng)
    sampled = float(np.mean(GAME.a_advances(x, a, b)))
    se = 0.5 / n**0.5
    assert sampled == pytest.approx(coarse, abs=4 * se)


def test_believed_larger_gap_belief_bids_lower_and_gets_black() -> None:
    a, b = GAME.rational_bid(np.array([50.0, 400.0]))
    assert b < a


def test_naive_bids_half_of_red() -> None:
    a, b = Naive().sealed_bids(GAME, np.zeros(2), np.random.default_rng(0))
    assert list(a) == list(b) == [5.0, 5.0]


def test_solver_gives_the_strategies_exact_answers() -> None:
    fmt = get_format("armageddon-bid")
    a, b = Player("A", 2600), Player("B", 2500)
    for strategy in (Rational(), Naive(), Believed(150.0)):
        sol = solve(Pairing.of(fmt, a, b, strategy=strategy))
        assert float(sol.win.sum()) == pytest.approx(1.0)
        stage = fmt.playable[2]
        assert stage.sealed_bid is not None
        game = SealedBidGame.from_stage(stage, ModelParams())
        p_sd = float(strategy.sealed_bid_advances(game, 100.0))
        share = float(sol.decided[0, 2, 0] / sol.decided[0, 2].sum())
        assert share == pytest.approx(p_sd, abs=1e-12)


def test_scenario_keys_and_round_trip() -> None:
    sc = parse_scenario(
        {
            "format": {
                "preset": "armageddon-bid",
                "armageddon": {"red_minutes": 12, "min_black_minutes": 2, "draw_winner": "black"},
            },
            "players": [{"name": "A", "rating": 2500}, {"name": "B", "rating": 2450}],
        }
    )
    stage = sc.format.stage("armageddon")
    assert stage.sealed_bid is not None and stage.sealed_bid.red_minutes == 12
    d = sc.to_dict()["format"]
    assert d["armageddon"]["red_minutes"] == 12 and "armageddon_games" not in d
    assert parse_scenario(sc.to_dict()) == sc
    with pytest.raises(ValueError, match="min_black_minutes"):
        parse_scenario(
            {
                "format": {"preset": "armageddon-bid", "armageddon": {"min_black_minutes": 20}},
                "players": [{"name": "A", "rating": 2500}, {"name": "B", "rating": 2450}],
            }
        )


def test_custom_sealed_bid_format() -> None:
    sc = parse_scenario(
        {
            "format": {
                "preset": "custom",
                "stages": [
                    {"name": "classical", "games": 2, "time_class": "classical", "minutes": 90},
                    {
                        "name": "armageddon",
                        "games": 1,
                        "time_class": "blitz",
                        "colours": "sealed-bid",
                        "draw_winner": "black",
                        "red_minutes": 5,
                        "min_black_minutes": 0.5,
                    },
                ],
            },
            "players": [{"name": "A", "rating": 2500}, {"name": "B", "rating": 2450}],
        }
    )
    assert sc.format.sealed_bid_stage is not None
    assert parse_scenario(sc.to_dict()) == sc
