"""Equilibria under private estimates, checked by brute force written here.

Every check computes a player's best response directly: beliefs by sums of Normal densities on a
fine grid of true advantages, the other player's decisions by membership on a fine grid of their
estimates (no Gauss-Hermite rule, no closed-form Normal mass, none of the solvers' code).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from knockout.exact.odds import match_odds
from knockout.game import Colour, Reply
from knockout.rules.book.formats import BiddingMenu
from knockout.rules.book.presets import FORMATS
from knockout.rules.decisions.bidding import BiddingGame
from knockout.rules.decisions.cut import CutChooseGame
from knockout.rules.decisions.equilibrium import bidding_equilibria
from knockout.rules.decisions.sealed import SealedBidGame
from knockout.rules.decisions.strategies import Equilibrium
from knockout.rules.scenario.aggregate import parse_scenario

SD = 150.0
GAME = BiddingGame(BiddingMenu(), Colour.BLACK)
#: Brute-force grids: true advantages and estimates, +-10 sd around each point.
XS = np.linspace(-10, 10, 2001)


def _scenario(preset: str, kind: str, sd: float, gap: float = 60.0) -> object:
    return parse_scenario(
        {
            "name": "t",
            "format": {"preset": preset},
            "strategy": {"kind": kind, "belief_sd": sd},
            "players": [{"name": "A", "rating": 2500 + gap}, {"name": "B", "rating": 2500}],
        }
    )


@pytest.mark.parametrize(
    "preset", ["xq-bidding", "armageddon-bid", "armageddon-vickrey", "cut-choose"]
)
def test_without_noise_the_equilibrium_is_the_rational_rule_exactly(preset: str) -> None:
    eq = match_odds(_scenario(preset, "equilibrium", 0.0)).to_json()
    rational = match_odds(_scenario(preset, "rational", 0.0)).to_json()
    assert eq["win"] == rational["win"]
    assert eq["match"] == rational["match"]  # branch values (as_chooser) included


def _gauss(center: float, grid: np.ndarray) -> np.ndarray:
    w = np.exp(-0.5 * ((grid - center) / SD) ** 2)
    return w / w.sum()


def _p_in(region, x: float) -> float:  # type: ignore[no-untyped-def]
    """P(an estimate x + Normal(0, SD) lies in ``region``), by summing over a fine grid."""
    e = x + SD * XS
    return float(np.sum(_gauss(x, e) * region.contains(e)))


@pytest.mark.slow
def test_the_bidding_equilibrium_is_a_best_response_for_every_type() -> None:
    (eq,) = bidding_equilibria(GAME, SD)
    r = eq.regions
    v = {
        (a, k): (lambda y, a=a, k=k: GAME.chooser_advances(a, k, y)) for a in Colour for k in Reply
    }
    xs = np.linspace(-2500, 2500, 1001)
    obj = {
        Colour.RED: np.array([_p_in(r["object_red"], x) for x in xs]),
        Colour.BLACK: np.array([_p_in(r["object_black"], x) for x in xs]),
    }
    red_said = np.array([_p_in(r["announce_red"], x) for x in xs])

    def chooser_value(a: Colour) -> np.ndarray:
        acc, ob = v[(a, Reply.ACCEPT)](xs), v[(a, Reply.OBJECT)](xs)
        return acc + obj[a] * (ob - acc)

    worst = 0.0
    for e in np.arange(-900.0, 900.0, 7.0):
        w = np.exp(-0.5 * ((xs - e) / SD) ** 2)
        values = {a: float(np.sum(w * chooser_value(a)) / w.sum()) for a in Colour}
        played = Colour.RED if r["announce_red"].contains(e) else Colour.BLACK
        worst = max(worst, max(values.values()) - values[played])
        for a, said in ((Colour.RED, red_said), (Colour.BLACK, 1 - red_said)):
            post = w * said
            if post.sum() < 1e-12:
                continue
            gap = float(
                np.sum(post * (v[(a, Reply.OBJECT)](xs) - v[(a, Reply.ACCEPT)](xs))) / post.sum()
            )
            key = "object_red" if a is Colour.RED else "object_black"
            objects = bool(r[key].contains(e))
            worst = max(worst, gap if objects else -gap)  # objecting raises 甲's chance by gap
    assert worst <= 2e-5  # the brute-force grids' own accuracy


def test_cut_choose_between_equal_players_is_fair_and_cuts_the_fair_split() -> None:
    from knockout.studies.fair import fair_rules

    sc = _scenario("cut-choose", "rational", 0.0, gap=0.0)
    assert match_odds(sc).win == pytest.approx({"A": 0.5, "B": 0.5}, abs=1e-12)
    stage = FORMATS["cut-choose"].cut_stage
    assert stage is not None
    game = CutChooseGame.from_stage(stage, sc.model)
    seed = _scenario("xq-bidding", "rational", 0.0, gap=0.0)
    fair = fair_rules(seed, black_minutes=10.0, detail=False)
    assert fair.red is not None
    assert game.fair_cut == pytest.approx(fair.red, abs=1e-8)
    assert fair_rules(sc, black_minutes=10.0, detail=False).red == pytest.approx(
        fair.red, abs=1e-12
    )


def test_the_chooser_takes_red_only_near_an_even_match() -> None:
    """The structure cut-and-choose's threshold rules rest on: at every cut the chooser's gain
    from Red changes sign at most once in |z|, from + to - (Red pays only between close players;
    far apart the colour hardly matters and the gain tends to 0 from below), on the truth and on
    a Normal(e, SD) posterior (summed here on a fine grid)."""
    stage = FORMATS["cut-choose"].cut_stage
    assert stage is not None
    game = CutChooseGame.from_stage(
        stage,
        parse_scenario(
            {"name": "t", "players": [{"name": "A", "rating": 2500}, {"name": "B", "rating": 2500}]}
        ).model,
    )
    z = np.linspace(0, 2000, 401)
    for r in (1.0, 15.0, 26.0, 30.0, 45.0, 80.0, 100.0):
        for sd in (0.0, SD):
            if sd == 0:
                gain = game.chooser_gain(z, r)
            else:
                zs = z[:, None] + sd * XS[None, :]
                w = np.exp(-0.5 * XS**2)
                gain = np.sum(game.chooser_gain(zs, r) * w, axis=1) / w.sum()
            red = gain >= 0
            assert not np.any(red[1:] & ~red[:-1]), (r, sd)  # never back to Red once Black


def _bid_values(
    game: SealedBidGame, x: float, t: np.ndarray, points: np.ndarray, other: np.ndarray
) -> np.ndarray:
    """A bidder's chance bidding each of ``t`` against bids ``points`` (sorted) held with
    ``other``: the other's bids above, below and equal to each bid summed by running totals."""
    cum = np.concatenate([[0.0], np.cumsum(other)])
    lo, hi = np.searchsorted(points, t, side="left"), np.searchsorted(points, t, side="right")
    below, tie, above = cum[lo], cum[hi] - cum[lo], 1.0 - cum[hi]
    black, red = game.as_black(x, t), game.as_red(x, t)
    if game.price == "first":  # Black plays on the lower bid
        red_below = np.concatenate([[0.0], np.cumsum(other * game.as_red(x, points))])[lo]
        return np.asarray(above * black + red_below + tie * 0.5 * (black + red))
    black_all = np.concatenate([[0.0], np.cumsum(other * game.as_black(x, points))])
    return np.asarray(black_all[-1] - black_all[hi] + below * red + tie * 0.5 * (black + red))


@pytest.mark.slow
def test_the_sealed_bid_equilibrium_leaves_no_type_a_better_bid() -> None:
    """Every type's mixed bid against the others' equilibrium bids, against every bid on a
    0.01-minute grid: the interim gain stays below the stated tolerance."""
    from knockout.rules.decisions.gridgames import sealed_equilibrium

    stage = FORMATS["armageddon-bid"].sealed_bid_stage
    assert stage is not None
    game = SealedBidGame.from_stage(
        stage,
        parse_scenario(
            {"name": "t", "players": [{"name": "A", "rating": 2500}, {"name": "B", "rating": 2500}]}
        ).model,
    )
    eq = sealed_equilibrium(game, SD)
    bids = np.arange(game.min_black_minutes, game.red_minutes + 1e-9, 0.01)
    xs = np.linspace(-1800, 1800, 721)
    sub = (np.arange(10) + 0.5) / 10  # ten points in each bid cell
    points = (eq.edges[:-1, None] + np.diff(eq.edges)[:, None] * sub).ravel()
    worst = 0.0
    for y in (-500.0, -200.0, 0.0, 150.0, 400.0):
        w = np.exp(-0.5 * ((xs - y) / SD) ** 2)
        w /= w.sum()
        near = w > 1e-9
        u_best, u_mine = np.zeros(len(bids)), 0.0
        mine = np.repeat(eq.table[eq.lattice.cell_of(y)], 10) / 10
        held = mine > 0  # the type's own bids
        for x, wx in zip(xs[near], w[near], strict=True):
            other = np.repeat(eq.cells(-x)[0], 10) / 10
            u_best += wx * _bid_values(game, float(x), bids, points, other)
            own = _bid_values(game, float(x), points[held], points, other)
            u_mine += wx * float(mine[held] @ own)
        worst = max(worst, float(u_best.max()) - u_mine)
    assert worst <= 5e-4


def test_equilibrium_is_registered_and_round_trips() -> None:
    sc = _scenario("xq-bidding", "equilibrium", 120.0)
    assert isinstance(sc.strategy, Equilibrium)
    again = parse_scenario(sc.to_dict())
    assert again.strategy == sc.strategy
    assert replace(sc.strategy, belief_sd=0.0).is_deterministic
