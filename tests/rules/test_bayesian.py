"""The bayesian strategy: decisions that average over the truth around a private estimate."""

from __future__ import annotations

import numpy as np
import pytest

from knockout.game import Colour, Reply
from knockout.rules.book.formats import BiddingMenu
from knockout.rules.decisions.bidding import BiddingGame, bayesian_regions
from knockout.rules.decisions.regions import Regions, expect
from knockout.rules.decisions.sealed import SealedBidGame
from knockout.rules.decisions.strategies import Bayesian, Believed, Rational, get_strategy
from knockout.rules.model.normal import ndtr

SD = 150.0
GAME = BiddingGame(BiddingMenu(), Colour.BLACK)


def by_quadrature(f, e: float, sd: float, n: int = 20_001) -> float:  # type: ignore[no-untyped-def]
    """E[f(X)], X ~ Normal(e, sd), by the trapezoid rule on +-10 sd (independent of the
    Gauss-Hermite rule the strategy uses)."""
    x = np.linspace(e - 10 * sd, e + 10 * sd, n)
    w = np.exp(-0.5 * ((x - e) / sd) ** 2)
    return float(np.trapezoid(f(x) * w, x) / np.trapezoid(w, x))


def objection_gap(announce: Colour):  # type: ignore[no-untyped-def]
    return lambda y: (
        GAME.chooser_advances(announce, Reply.OBJECT, y)
        - GAME.chooser_advances(announce, Reply.ACCEPT, y)
    )


def test_the_bidder_objects_where_the_expected_value_says_so() -> None:
    regions = bayesian_regions(GAME, SD)
    for announce, key in ((Colour.RED, "object_red"), (Colour.BLACK, "object_black")):
        for e in np.linspace(-900, 900, 61):
            expected = by_quadrature(objection_gap(announce), float(e), SD)
            if abs(expected) > 1e-7:  # not on a threshold
                assert bool(regions[key].contains(e)) == (expected < 0), (key, e)


def test_the_chooser_announces_where_the_expected_value_says_so() -> None:
    regions = bayesian_regions(GAME, SD)

    def value(announce: Colour, y: np.ndarray) -> np.ndarray:
        key = "object_red" if announce is Colour.RED else "object_black"
        q = regions[key].normal_mass(y, SD)
        return q * GAME.chooser_advances(announce, Reply.OBJECT, y) + (
            1 - q
        ) * GAME.chooser_advances(announce, Reply.ACCEPT, y)

    for e in np.linspace(-600, 600, 49):
        diff = by_quadrature(lambda y: value(Colour.RED, y) - value(Colour.BLACK, y), float(e), SD)
        if abs(diff) > 1e-7:
            assert bool(regions["announce_red"].contains(e)) == (diff >= 0), e


def test_thresholds_are_accurate() -> None:
    """At each threshold the expected gap is zero to 1e-8 by an independent quadrature."""
    regions = bayesian_regions(GAME, SD)
    (_, low), (high, _) = regions["object_black"].intervals
    for t in (low, high):
        assert abs(by_quadrature(objection_gap(Colour.BLACK), t, SD)) < 1e-8


def test_gauss_hermite_expectation() -> None:
    f = objection_gap(Colour.BLACK)
    for e in (-400.0, 0.0, 450.0):
        assert float(expect(f, e, SD)) == pytest.approx(by_quadrature(f, e, SD), abs=1e-9)


def test_exact_probabilities_match_sampled_estimates() -> None:
    strategy = Bayesian(SD)
    xs = np.array([-300.0, -250.0, 0.0, 250.0, 300.0, 500.0])
    exact = strategy.probabilities(GAME, xs)
    rng = np.random.default_rng(7)
    n = 100_000
    for i, x in enumerate(xs):
        s = strategy.sample(GAME, np.full(n, x), rng)
        tol = 4 * 0.5 / n**0.5
        assert float(np.mean(s.announce_red)) == pytest.approx(
            float(exact.announce_red[i]), abs=tol
        )
        joint = float((1 - exact.announce_red[i]) * exact.object_if_black[i])
        assert float(np.mean(~s.announce_red & s.objects)) == pytest.approx(joint, abs=tol)


def test_it_differs_from_believed_and_reduces_to_rational() -> None:
    xs = np.array([-300.0, 300.0, 480.0])
    bayes, believed = Bayesian(SD).probabilities(GAME, xs), Believed(SD).probabilities(GAME, xs)
    assert not np.allclose(bayes.object_if_black, believed.object_if_black, atol=1e-3)
    rational = Rational().probabilities(GAME, xs)
    for u, v in zip(Bayesian(0.0).probabilities(GAME, xs), rational, strict=True):
        assert np.array_equal(u, v)
    assert isinstance(get_strategy("bayesian", belief_sd=50), Bayesian)


def test_the_bayesian_sealed_bid_is_the_expected_indifference() -> None:
    game = SealedBidGame(10.0, 1.0, Colour.BLACK)
    for e in (0.0, 120.0, -300.0):
        bid = float(game.bayesian_bid(e, SD))
        gap = by_quadrature(
            lambda y, t=bid: game.as_black(y, t) - game.as_red(y, t),  # type: ignore[misc]
            e,
            SD,
        )
        assert abs(gap) < 1e-3  # the bid table is linear between 1-Elo grid points
    # ignorance moves the bid: with doubt a big favourite bids less boldly
    assert float(game.bayesian_bid(400.0, SD)) != pytest.approx(float(game.rational_bid(400.0)))
    exact = float(Bayesian(SD).sealed_bid_advances(game, 100.0))
    rng = np.random.default_rng(3)
    n = 100_000
    bid_a, bid_b = Bayesian(SD).sealed_bids(game, np.full(n, 100.0), rng)
    sampled = float(np.mean(game.a_advances(np.full(n, 100.0), bid_a, bid_b)))
    assert sampled == pytest.approx(exact, abs=4 * 0.5 / n**0.5)


def test_a_regions_normal_mass_takes_an_infinite_end_as_exactly_one_or_zero() -> None:
    """The mass of regions with infinite ends, computed without ndtr at the ends, is ndtr's
    sum to the last bit."""
    means = np.random.default_rng(3).normal(0, 300, 50_001)
    for intervals in (
        ((-np.inf, -515.6), (445.4, np.inf)),
        ((-np.inf, np.inf),),
        ((-267.7, 267.7),),
        ((-np.inf, 20.0), (30.0, 31.0)),
    ):
        total = np.zeros_like(means)
        for lo, hi in intervals:
            total = total + ndtr((hi - means) / 90.0) - ndtr((lo - means) / 90.0)
        expected = np.clip(total, 0.0, 1.0)
        np.testing.assert_array_equal(Regions(intervals).normal_mass(means, 90.0), expected)
