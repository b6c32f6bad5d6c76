"""Bidding decisions as array operations: the believed strategy's sampler against its regions."""

from __future__ import annotations

import pickle

import numpy as np
import numpy.typing as npt
import pytest

from knockout.io.scenario import load_scenario
from knockout.rules.chain.pairing import Pairing
from knockout.rules.decisions.bidding import BiddingGame
from knockout.rules.decisions.regions import Regions, inside
from knockout.rules.decisions.strategies import BeliefSampler, Believed, Rational, StrategySampler
from sims.kernel import BiddingTable, MatchTables
from tests.sims.test_runner import FINAL


def game() -> BiddingGame:
    sc = load_scenario(FINAL)
    g = Pairing.of(sc.format, *sc.players, model=sc.model, strategy=sc.strategy).bidding_game
    assert g is not None
    return g


@pytest.mark.parametrize(
    "intervals",
    [
        (),
        ((-np.inf, np.inf),),
        ((-np.inf, -3.5),),
        ((2.0, np.inf),),
        ((-np.inf, -10.0), (-10.0, 4.0), (7.5, 7.5), (9.0, np.inf)),
        ((-1.0, 1.0), (3.0, 5.0)),
    ],
)
def test_sorted_search_is_membership(intervals: tuple[tuple[float, float], ...]) -> None:
    regions = Regions(intervals)
    ends = regions.bounds
    y = np.concatenate(
        [
            np.random.default_rng(0).normal(0, 8, 5000),
            ends,
            np.nextafter(ends, np.inf),
            np.nextafter(ends, -np.inf),
            np.array([np.inf, -np.inf, np.nan, 0.0, -0.0]),
        ]
    )
    assert np.array_equal(inside(regions.bounds, y), regions.contains(y))


def old_believed_sample(
    g: BiddingGame, sd: float, x: npt.NDArray[np.float64], rng: np.random.Generator
) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_]]:
    """The believed sample as it was written before (a loop over intervals per decision)."""
    chooser = x + rng.normal(0.0, sd, size=x.shape)
    bidder = x + rng.normal(0.0, sd, size=x.shape)
    r = g.regions
    red = r["announce_red"].contains(chooser)
    objects = np.where(red, r["object_red"].contains(bidder), r["object_black"].contains(bidder))
    return red, objects


def test_belief_sampler_draws_as_the_regions_did() -> None:
    g = game()
    x = np.linspace(-600, 600, 30_001)
    new = Believed(90).sample(g, x, np.random.default_rng(4))
    red, objects = old_believed_sample(g, 90, x, np.random.default_rng(4))
    assert np.array_equal(new.announce_red, red) and np.array_equal(new.objects, objects)
    # and the rule itself: at the belief 甲 holds, the announcement is the rational one
    beliefs = x + np.random.default_rng(4).normal(0.0, 90, size=x.shape)
    assert np.array_equal(red, g.rational_announces_red(beliefs))
    assert np.array_equal(Rational().sample(g, beliefs, np.random.default_rng(0)).announce_red, red)


def test_tables_carry_ready_samplers() -> None:
    sc = load_scenario(FINAL)
    for strategy, kind in ((Believed(120), BeliefSampler), (Rational(), None)):
        pairing = Pairing.of(sc.format, *sc.players, model=sc.model, strategy=strategy)
        tables = MatchTables.from_pairing(pairing)
        bidding = [t for t in tables.stages if isinstance(t, BiddingTable)]
        if kind is None:
            assert not bidding  # rational: decisions are in the stage's exit table
            assert isinstance(Rational().sampler(game()), StrategySampler)
            continue
        (table,) = bidding
        assert isinstance(table.sampler, kind)
        shipped = pickle.loads(pickle.dumps(table.sampler))
        assert np.array_equal(shipped.announce_red, table.sampler.announce_red)
        assert table.sampler.announce_red.size > 0
