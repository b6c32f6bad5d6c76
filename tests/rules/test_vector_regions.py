"""The decisions under a vectorised model (one set of constants per pair) are the one-model
decisions: regions, decision probabilities, the rational sealed bid, colour choices."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import SCENARIOS

from knockout.io.scenario import load_scenario
from knockout.rules.decisions.bidding import BiddingGame
from knockout.rules.decisions.choice import ChoiceGame
from knockout.rules.decisions.sealed import SealedBidGame
from knockout.rules.decisions.strategies import Believed, Naive, Rational, get_strategy
from knockout.rules.model.sd import ModelSd, design
from knockout.rules.model.strength import PerClass

SD = ModelSd(
    red_advantage=PerClass(0.0, 30.0, 30.0),
    draw_nu=PerClass(0.0, 0.35, 0.35),
    elo_per_doubling=PerClass(0.0, 60.0, 60.0),
)


def _draws(path: str, n: int = 32):  # type: ignore[no-untyped-def]
    sc = load_scenario(path)
    des = design(sc.model, SD, draws=n, replicates=8)
    return sc, des, des.model(sc.model)


def test_bidding_regions_agree_with_the_one_model_rule() -> None:
    sc, des, vm = _draws(str(SCENARIOS / "final-2600-vs-2550.toml"))
    stage = sc.format.bidding_stage
    assert stage is not None
    bounds = BiddingGame.from_stage(stage, vm).vector_regions
    for i in range(des.size):
        one = BiddingGame.from_stage(stage, des.model_at(sc.model, i)).regions
        for key, region in one.items():
            b, ends = bounds[key][i], region.bounds
            assert len(ends) <= len(b) and (b[len(ends) :] == np.inf).all()
            assert np.allclose(b[: len(ends)], ends, atol=1e-8, rtol=0), (key, i)


@pytest.mark.parametrize("kind", ["rational", "naive", "believed"])
def test_decision_probabilities_agree(kind: str) -> None:
    sc, des, vm = _draws(str(SCENARIOS / "final-2600-vs-2550.toml"))
    stage = sc.format.bidding_stage
    assert stage is not None
    strategy = get_strategy(kind, belief_sd=120.0)
    x = np.linspace(-400, 400, des.size)
    many = strategy.probabilities(BiddingGame.from_stage(stage, vm), x)
    for i in range(0, des.size, 5):
        one = strategy.probabilities(BiddingGame.from_stage(stage, des.model_at(sc.model, i)), x[i])
        assert np.allclose([float(m[i]) for m in many], [float(o) for o in one], atol=1e-9)


def test_colour_choices_agree() -> None:
    sc, des, vm = _draws(str(SCENARIOS / "official-playoff.toml"))
    stage = next(s for s in sc.format.playable if s.is_choice)
    x = np.linspace(-300, 300, des.size)
    for strategy in (Rational(), Naive(), Believed(80.0)):
        many = strategy.choice_probability(ChoiceGame.from_stage(stage, vm), x)
        for i in range(0, des.size, 7):
            game = ChoiceGame.from_stage(stage, des.model_at(sc.model, i))
            assert abs(float(many[i]) - float(strategy.choice_probability(game, x[i]))) < 1e-9


def test_the_rational_sealed_bid_is_solved_per_pair() -> None:
    sc, des, vm = _draws(str(SCENARIOS / "armageddon-bid.toml"))
    stage = sc.format.sealed_bid_stage
    assert stage is not None
    x = np.linspace(0, 300, des.size)
    many = SealedBidGame.from_stage(stage, vm).rational_bid(x)
    for i in range(0, des.size, 6):
        one = SealedBidGame.from_stage(stage, des.model_at(sc.model, i)).rational_bid(x[i])
        # the one-model bid reads a 1-Elo table linearly: within 1e-4 minutes of the solution
        assert abs(float(many[i]) - float(one)) < 1e-4
