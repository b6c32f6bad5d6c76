"""Equilibria of the sudden-death bidding rule when strengths are known only roughly.

Each player observes a private estimate of 甲's rating minus 乙's: the truth plus their own
``Normal(0, sd)`` error, independently, with a flat prior, so a player holding estimate ``e``
believes the truth is ``Normal(e, sd)``. 甲 announces from its estimate; 乙 sees the announcement
and its own estimate and updates on both: the announcement says in which region 甲's estimate
lies, so 乙's belief about the truth ``x`` is ``Normal(e2, sd)`` weighted by
``P(甲's estimate in the region | x)``. A perfect Bayesian equilibrium is a pair of threshold
rules, each a best response to the other under these beliefs; after an announcement 甲's rule
never makes, 乙 keeps its own posterior.

How it is found (:func:`bidding_equilibria`): best-response iteration. From a starting rule for
甲, 乙's best reply to each announcement is computed (the sign of its conditional expected gain
from objecting, read on a 4-Elo grid of estimates over ``[-REGION_SPAN, REGION_SPAN]``, every
switch refined by a root search to 1e-9 Elo), then 甲's best announcement against that
reply (the same way), and so on until no threshold moves by more than 1e-7 Elo. Expectations
over a belief use 48-node Gauss-Hermite quadrature; 乙's weights on 甲's region use log normal
masses, so they stay exact far in the tails. The iteration starts from four rules (the rational
one, the Bayesian one, always Red, always Black); the distinct fixed points are the equilibria
found. Each is verified: on a grid of estimates off the solver's own grid, no type of either
player gains more than :data:`TOLERANCE` by the other action.

The game is constant-sum (甲's chance and 乙's add up to 1), so best-response iteration need not
converge: when it cycles, :class:`NoEquilibrium` says so with the cycle's residual gain.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from scipy.special import log_ndtr, ndtr

from knockout.arrays import FloatArray
from knockout.game import Colour, Reply
from knockout.rules.decisions.bidding import BiddingGame, bayesian_regions
from knockout.rules.decisions.regions import REGION_SPAN, Regions, regions_where
from knockout.rules.model.normal import gauss_hermite

__all__ = [
    "MAX_ITERATIONS",
    "TOLERANCE",
    "BiddingEquilibrium",
    "NoEquilibrium",
    "bidding_equilibria",
    "bidding_equilibrium",
    "complement",
    "log_mass",
]

#: The verification tolerance: no type gains more than this (a fraction of its chance to win
#: the decisive game) by deviating from a threshold equilibrium.
TOLERANCE = 1e-7
#: Best-response rounds before the iteration is declared not to converge.
MAX_ITERATIONS = 200
#: Thresholds that move less than this (Elo) in a round have converged.
_STEADY = 1e-7
#: Two equilibria whose thresholds differ by less than this (Elo) are the same one.
_SAME = 1e-3

#: Decisions are read on this grid of estimates (Elo), then each switch is refined.
GRID_STEP = 4.0
_GRID = np.arange(-REGION_SPAN, REGION_SPAN + GRID_STEP, GRID_STEP)


class NoEquilibrium(ValueError):
    """Best-response iteration did not settle: no pure threshold equilibrium was found."""


@dataclass(frozen=True)
class BiddingEquilibrium:
    """A perfect Bayesian equilibrium of the bidding rule.

    Attributes:
        regions: ``announce_red`` (in 甲's estimate), ``object_red`` and ``object_black`` (in
            乙's estimate, after that announcement).
        starts: The starting rules that led here.
        iterations: Best-response rounds to converge (from the first start).
        interim_gain: The largest gain of any type (either player, any estimate on the check
            grid) by the other action, as a fraction of the decisive game's chance.
    """

    regions: Mapping[str, Regions]
    starts: tuple[str, ...]
    iterations: int
    interim_gain: float


def complement(regions: Regions) -> Regions:
    """The complement of a set of disjoint, sorted intervals."""
    edges = [-np.inf, *(e for iv in regions.intervals for e in iv), np.inf]
    out = [
        (float(lo), float(hi)) for lo, hi in zip(edges[::2], edges[1::2], strict=True) if lo < hi
    ]
    return Regions(tuple(out))


def log_mass(regions: Regions, mean: npt.ArrayLike, sd: float) -> FloatArray:
    """``log P(Normal(mean, sd) in regions)``, accurate far in the tails (``-inf`` if empty)."""
    m = np.asarray(mean, dtype=np.float64)
    if not regions.intervals:
        return np.full(m.shape, -np.inf)
    parts = []
    for lo, hi in regions.intervals:
        a, b = (lo - m) / sd, (hi - m) / sd
        upper = a > 0  # both ends above the mean: use the mirrored lower tail
        aa, bb = np.where(upper, -b, a), np.where(upper, -a, b)
        la, lb = log_ndtr(aa), log_ndtr(bb)
        with np.errstate(divide="ignore", invalid="ignore"):
            parts.append(lb + np.log1p(-np.exp(np.minimum(la - lb, 0.0))))
    return np.asarray(np.logaddexp.reduce(np.stack(parts), axis=0), dtype=np.float64)


def _mass(regions: Regions, mean: FloatArray, sd: float) -> FloatArray:
    """``P(Normal(mean, sd) in regions)``, each interval's mass taken from the nearer tail
    (no cancellation above the mean)."""
    m = np.asarray(mean, dtype=np.float64)
    total = np.zeros(m.shape)
    for lo, hi in regions.intervals:
        a, b = (lo - m) / sd, (hi - m) / sd
        upper = a > 0
        total += ndtr(np.where(upper, -a, b)) - ndtr(np.where(upper, -b, a))
    return np.asarray(np.clip(total, 0.0, 1.0), dtype=np.float64)


#: Below this, a row of masses is recomputed in logs (its normalisation would underflow).
_TINY = 1e-250


def _weights(regions: Regions, x: FloatArray, sd: float) -> FloatArray:
    """Quadrature weights times the mass of ``regions`` at each node, scaled so that each
    row's largest mass is 1 (exact in the far tails, where masses underflow)."""
    m = _mass(regions, x, sd)
    top = np.max(m, axis=-1, keepdims=True)
    small = top[..., 0] < _TINY
    scaled = m / np.where(top > 0, top, 1.0)
    if np.any(small):
        lm = log_mass(regions, x[small], sd)
        scaled[small] = np.exp(lm - np.max(lm, axis=-1, keepdims=True))
    return np.asarray(gauss_hermite()[1] * scaled, dtype=np.float64)


@dataclass(frozen=True)
class _Problem:
    """The bidding game at one belief sd, with its branch values at the quadrature nodes of
    every estimate of the grid (computed once)."""

    game: BiddingGame
    sd: float

    def nodes(self, e: FloatArray) -> FloatArray:
        return np.asarray(e[..., None] + self.sd * gauss_hermite()[0], dtype=np.float64)

    @functools.cached_property
    def grid_nodes(self) -> FloatArray:
        return self.nodes(_GRID)

    @functools.cached_property
    def grid_values(self) -> dict[tuple[Colour, Reply], FloatArray]:
        x = self.grid_nodes
        return {
            (a, r): self.game.chooser_advances(a, r, x)
            for a in (Colour.RED, Colour.BLACK)
            for r in (Reply.ACCEPT, Reply.OBJECT)
        }

    def _values(self, x: FloatArray, grid: bool) -> Callable[[Colour, Reply], FloatArray]:
        if grid:
            return lambda a, r: self.grid_values[(a, r)]
        return lambda a, r: self.game.chooser_advances(a, r, x)

    def _bidder(self, e: FloatArray, heard: Regions, announce: Colour, grid: bool) -> FloatArray:
        x = self.grid_nodes if grid else self.nodes(e)
        v = self._values(x, grid)
        # after an announcement 甲 never makes, 乙 keeps its own posterior
        w = (
            _weights(heard, x, self.sd)
            if heard.intervals
            else np.broadcast_to(gauss_hermite()[1], x.shape)
        )
        gap = v(announce, Reply.OBJECT) - v(announce, Reply.ACCEPT)
        return np.asarray(np.sum(w * gap, axis=-1) / np.sum(w, axis=-1))

    def _chooser(self, e: FloatArray, objects: Mapping[Colour, Regions], grid: bool) -> FloatArray:
        x = self.grid_nodes if grid else self.nodes(e)
        v = self._values(x, grid)
        total = np.zeros(x.shape)
        for announce, sign in ((Colour.RED, 1.0), (Colour.BLACK, -1.0)):
            q = _mass(objects[announce], x, self.sd)
            accept, objected = v(announce, Reply.ACCEPT), v(announce, Reply.OBJECT)
            total += sign * (accept + q * (objected - accept))
        return np.asarray(np.sum(total * gauss_hermite()[1], axis=-1))

    def bidder_criterion(
        self, heard: Regions, announce: Colour
    ) -> Callable[[FloatArray], FloatArray]:
        """乙's expected gap ``v(object) - v(accept)`` given its estimate and 甲's region
        ``heard``: below zero, objecting lowers 甲's chance."""
        return lambda e: self._bidder(np.asarray(e, dtype=np.float64), heard, announce, False)

    def chooser_criterion(
        self, objects: Mapping[Colour, Regions]
    ) -> Callable[[FloatArray], FloatArray]:
        """甲's expected chance announcing Red minus announcing Black, given its estimate."""
        return lambda e: self._chooser(np.asarray(e, dtype=np.float64), objects, False)

    def bidder_reply(self, announce_red: Regions) -> dict[Colour, Regions]:
        """乙's best reply to each announcement: where it objects."""
        heard = {Colour.RED: announce_red, Colour.BLACK: complement(announce_red)}
        out = {}
        for announce in (Colour.RED, Colour.BLACK):
            on_grid = self._bidder(_GRID, heard[announce], announce, True)
            f = self.bidder_criterion(heard[announce], announce)
            out[announce] = regions_where(_GRID, on_grid < 0, f)
        return out

    def chooser_reply(self, objects: Mapping[Colour, Regions]) -> Regions:
        """甲's best announcement against 乙's objections: where it announces Red."""
        on_grid = self._chooser(_GRID, objects, True)
        f = self.chooser_criterion(objects)
        return regions_where(_GRID, on_grid >= 0, f)

    def interim_gain(self, regions: Mapping[str, Regions]) -> float:
        """The largest gain of any type by the other action, on a grid off the solver's."""
        check = np.arange(-REGION_SPAN, REGION_SPAN, 1.0) + 0.37
        objects = {Colour.RED: regions["object_red"], Colour.BLACK: regions["object_black"]}
        d = self.chooser_criterion(objects)(check)
        red = regions["announce_red"].contains(check)
        gains = [np.where(red, -d, d)]
        heard = {
            Colour.RED: regions["announce_red"],
            Colour.BLACK: complement(regions["announce_red"]),
        }
        for announce in (Colour.RED, Colour.BLACK):
            g = self.bidder_criterion(heard[announce], announce)(check)
            objects_here = objects[announce].contains(check)
            gains.append(np.where(objects_here, g, -g))  # objecting when g > 0 costs g
        return float(max(0.0, *(float(np.max(x)) for x in gains)))


def _close(a: Regions, b: Regions, tol: float) -> bool:
    if len(a.intervals) != len(b.intervals):
        return False
    ea, eb = a.bounds, b.bounds
    same = ea == eb
    finite = np.isfinite(ea) & np.isfinite(eb)
    diff = np.abs(np.where(finite, ea, 0.0) - np.where(finite, eb, 0.0))
    return bool(np.all(same | (finite & (diff <= tol))))


def _starts(game: BiddingGame, sd: float) -> dict[str, Regions]:
    everywhere = Regions(((-np.inf, np.inf),))
    return {
        "bayesian": bayesian_regions(game, sd)["announce_red"],
        "rational": game.regions["announce_red"],
        "always red": everywhere,
        "always black": Regions(()),
    }


def _iterate(problem: _Problem, announce: Regions) -> tuple[dict[str, Regions], int]:
    """Best responses from 甲's rule ``announce`` until they settle."""
    residual = 0.0
    for it in range(1, MAX_ITERATIONS + 1):
        objects = problem.bidder_reply(announce)
        new = problem.chooser_reply(objects)
        if _close(new, announce, _STEADY):
            objects = problem.bidder_reply(new)
            regions = {
                "announce_red": new,
                "object_red": objects[Colour.RED],
                "object_black": objects[Colour.BLACK],
            }
            return regions, it
        announce = new
    residual = problem.interim_gain(
        {
            "announce_red": announce,
            "object_red": objects[Colour.RED],
            "object_black": objects[Colour.BLACK],
        }
    )
    raise NoEquilibrium(
        f"best-response iteration did not settle in {MAX_ITERATIONS} rounds (a type still gains "
        f"{residual:.2g} by deviating): no pure threshold equilibrium found"
    )


@functools.lru_cache(maxsize=64)
def bidding_equilibria(game: BiddingGame, sd: float) -> tuple[BiddingEquilibrium, ...]:
    """Every distinct perfect Bayesian equilibrium reached from the four starting rules, the
    one reached from the Bayesian rule first.

    Raises:
        NoEquilibrium: When the iteration settles from none of them.
        ValueError: For ``sd <= 0`` (without noise the rational rule is the equilibrium).
    """
    if not sd > 0:
        raise ValueError("an equilibrium under private information needs belief sd > 0")
    problem = _Problem(game, sd)
    found: list[tuple[dict[str, Regions], list[str], int]] = []
    failures: list[NoEquilibrium] = []
    for name, start in _starts(game, sd).items():
        try:
            regions, iterations = _iterate(problem, start)
        except NoEquilibrium as exc:
            failures.append(exc)
            continue
        for known, starts, _ in found:
            if all(_close(known[k], regions[k], _SAME) for k in regions):
                starts.append(name)
                break
        else:
            found.append((regions, [name], iterations))
    if not found:
        raise failures[0]
    return tuple(
        BiddingEquilibrium(regions, tuple(starts), it, problem.interim_gain(regions))
        for regions, starts, it in found
    )


def bidding_equilibrium(game: BiddingGame, sd: float) -> BiddingEquilibrium:
    """The equilibrium the ``equilibrium`` strategy plays: the one reached from the Bayesian
    rule (the first of :func:`bidding_equilibria`)."""
    return bidding_equilibria(game, sd)[0]
