"""The sudden-death choice: 甲 announces a colour, 乙 accepts or objects (MODEL.md, strategies).

:class:`BiddingGame` turns the bidding menu and the model into the decision problem: for each
(announcement, reply) the chance that 甲 advances, as a function of ``x``, 甲's rating minus 乙's
(for the stage's time class). Every strategy decides from these values, so the engine, the exact
solver and the Monte Carlo kernel share one definition of who chooses what:

* ``rational``: 乙 objects exactly when objecting gives 甲 a strictly lower chance; 甲 announces
  the colour that is better for 甲 after 乙's best reply (Red on a tie).
* ``naive``: 甲 announces Red and 乙 accepts.
* ``believed``: the rational rule applied at each player's own belief ``x + Normal(0, belief_sd)``,
  drawn independently per player and per match. 甲 predicts 乙's reply with 甲's belief; 乙 replies
  to the actual announcement with 乙's belief. Each decision is a threshold rule in one player's
  belief, so its probability is a sum of Normal masses over the decision regions, whose ends are
  found with a root finder (:meth:`BiddingGame.regions`).

Arrays: ``x`` may be a scalar or an array of shape ``(n,)``; results have the same shape.
"""

from __future__ import annotations

import itertools
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import ClassVar, NamedTuple

import numpy as np
import numpy.typing as npt
from scipy.special import ndtr

from knockout.game import Colour, Reply
from knockout.rules.formats import BiddingMenu, Stage
from knockout.rules.model import DEFAULT_MODEL, ModelParams, TimeClass, game_probabilities

__all__ = [
    "STRATEGIES",
    "BeliefSampler",
    "Believed",
    "BidProbabilities",
    "BidSample",
    "BiddingGame",
    "DecisionSampler",
    "Naive",
    "Rational",
    "Regions",
    "SealedBidGame",
    "Strategy",
    "StrategySampler",
    "get_strategy",
    "inside",
]

FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]

#: Believed differences are searched for thresholds on [-REGION_SPAN, REGION_SPAN] Elo; beyond it
#: every outcome probability is within 1e-7 of 0 or 1 and decisions are taken as constant.
REGION_SPAN = 3000.0
_GRID_STEP = 1.0


@dataclass(frozen=True)
class Regions:
    """A set of disjoint intervals on the real line: ``[(lo, hi), ...]`` (ends may be infinite)."""

    intervals: tuple[tuple[float, float], ...]

    def normal_mass(self, mean: npt.ArrayLike, sd: float) -> FloatArray:
        """P(Normal(mean, sd) lies in the regions), broadcast over ``mean``."""
        m = np.asarray(mean, dtype=np.float64)
        total = np.zeros_like(m)
        for lo, hi in self.intervals:
            total = total + ndtr((hi - m) / sd) - ndtr((lo - m) / sd)
        return np.clip(total, 0.0, 1.0)

    def contains(self, y: npt.ArrayLike) -> BoolArray:
        """Elementwise membership."""
        y_arr = np.asarray(y, dtype=np.float64)
        inside = np.zeros(y_arr.shape, dtype=bool)
        for lo, hi in self.intervals:
            inside |= (y_arr >= lo) & (y_arr < hi)
        return inside

    @property
    def bounds(self) -> FloatArray:
        """The interval ends in order, ``[lo0, hi0, lo1, hi1, ...]``: ``y`` is inside exactly when
        an odd number of them are ``<= y`` (:func:`inside`)."""
        return np.array([end for interval in self.intervals for end in interval], dtype=np.float64)


def inside(bounds: FloatArray, y: FloatArray) -> BoolArray:
    """Membership in the regions with these :attr:`Regions.bounds`, as one sorted search: the
    same as :meth:`Regions.contains` (``lo <= y < hi``) for every ``y``, NaN included."""
    return np.asarray(np.searchsorted(bounds, y, side="right") & 1, dtype=bool)


@dataclass(frozen=True)
class BiddingGame:
    """The sudden-death game as a decision problem for 甲 and 乙.

    Attributes:
        menu: Clock pairs and priority rule.
        draw_winner: Who a drawn game counts for.
        time_class: Model time class of the game.
        model: Model constants.
    """

    menu: BiddingMenu
    draw_winner: Colour
    time_class: TimeClass = TimeClass.BLITZ
    model: ModelParams = field(default=DEFAULT_MODEL)

    @classmethod
    def from_stage(cls, stage: Stage, model: ModelParams) -> BiddingGame:
        """The decision problem of a bidding stage."""
        if stage.bidding is None or stage.draw_winner is None:
            raise ValueError(f"stage {stage.name!r} is not a bidding stage")
        return cls(stage.bidding, stage.draw_winner, stage.time_class, model)

    def chooser_advances(self, announce: Colour, reply: Reply, x: npt.ArrayLike) -> FloatArray:
        """P(甲 advances) after ``announce``/``reply`` when 甲's rating minus 乙's is ``x``."""
        colour, (red_min, black_min) = self.menu.assignment(announce, reply)
        x_arr = np.asarray(x, dtype=np.float64)
        if colour is Colour.RED:
            p = game_probabilities(
                x_arr,
                0.0,
                self.time_class,
                model=self.model,
                red_minutes=red_min,
                black_minutes=black_min,
            )
            win = p.red
        else:
            p = game_probabilities(
                0.0,
                x_arr,
                self.time_class,
                model=self.model,
                red_minutes=red_min,
                black_minutes=black_min,
            )
            win = p.black
        if self.draw_winner is colour:
            return np.asarray(win + p.draw)
        return np.asarray(win)

    def rational_objects(self, announce: Colour, x: npt.ArrayLike) -> BoolArray:
        """乙's rational reply to ``announce``: True = object (strictly worse for 甲)."""
        return np.asarray(
            self.chooser_advances(announce, Reply.OBJECT, x)
            < self.chooser_advances(announce, Reply.ACCEPT, x)
        )

    def value_of_announcing(self, announce: Colour, x: npt.ArrayLike) -> FloatArray:
        """P(甲 advances) if 甲 announces ``announce`` and 乙 replies rationally at ``x``."""
        return np.asarray(
            np.where(
                self.rational_objects(announce, x),
                self.chooser_advances(announce, Reply.OBJECT, x),
                self.chooser_advances(announce, Reply.ACCEPT, x),
            )
        )

    def rational_announces_red(self, x: npt.ArrayLike) -> BoolArray:
        """甲's rational announcement at ``x``: True = Red (Red on a tie)."""
        return np.asarray(
            self.value_of_announcing(Colour.RED, x) >= self.value_of_announcing(Colour.BLACK, x)
        )

    @cached_property
    def regions(self) -> Mapping[str, Regions]:
        """Decision regions in ``x`` for the rational rule.

        Keys: ``announce_red`` (甲 announces Red), ``object_red`` / ``object_black`` (乙 objects to
        that announcement). Thresholds are bracketed on a 1-Elo grid over
        ``[-REGION_SPAN, REGION_SPAN]`` and refined with Brent's method to 1e-9 Elo.
        """

        def obj(announce: Colour) -> Callable[[float], float]:
            return lambda y: float(
                self.chooser_advances(announce, Reply.OBJECT, y)
                - self.chooser_advances(announce, Reply.ACCEPT, y)
            )

        red_minus_black: Callable[[float], float] = lambda y: float(  # noqa: E731
            self.value_of_announcing(Colour.RED, y) - self.value_of_announcing(Colour.BLACK, y)
        )
        grid = np.arange(-REGION_SPAN, REGION_SPAN + _GRID_STEP, _GRID_STEP)
        return {
            "announce_red": _regions(grid, self.rational_announces_red(grid), red_minus_black),
            "object_red": _regions(grid, self.rational_objects(Colour.RED, grid), obj(Colour.RED)),
            "object_black": _regions(
                grid, self.rational_objects(Colour.BLACK, grid), obj(Colour.BLACK)
            ),
        }


def _regions(grid: FloatArray, inside: BoolArray, f: Callable[[float], float]) -> Regions:
    """Intervals where ``inside`` holds, with each switch point refined as a root of ``f``."""
    from scipy.optimize import brentq  # noqa: PLC0415  (heavy import, only needed here)

    switches = np.flatnonzero(inside[1:] != inside[:-1])
    cuts: list[float] = []
    for i in switches:
        lo, hi = float(grid[i]), float(grid[i + 1])
        f_lo, f_hi = f(lo), f(hi)
        if f_lo == 0.0:
            cuts.append(lo)
        elif f_hi == 0.0 or np.sign(f_lo) == np.sign(f_hi):
            # The decision flips without a sign change of f (a jump at the end): keep the midpoint
            # of the 1-Elo cell, whose mass is negligible.
            cuts.append(0.5 * (lo + hi) if f_hi != 0.0 else hi)
        else:
            cuts.append(float(brentq(f, lo, hi, xtol=1e-9, rtol=1e-15)))
    edges = [-np.inf, *cuts, np.inf]
    state = bool(inside[0])
    intervals: list[tuple[float, float]] = []
    for lo_edge, hi_edge in itertools.pairwise(edges):
        if state:
            intervals.append((float(lo_edge), float(hi_edge)))
        state = not state
    return Regions(tuple(intervals))


@dataclass(frozen=True)
class SealedBidGame:
    """The sealed-bid Armageddon as a decision problem.

    Each player bids the minutes they would accept as Black; the lower bid plays Black with that
    clock against Red's ``red_minutes``; equal bids are settled by a lot. ``x`` is always A's
    rating minus B's (for the stage's time class).

    The rational bid is the indifference point: the Black clock ``t`` at which a player's chance
    to advance as Black equals their chance as Red against a Black with ``t``. That equation is
    the same for both players and depends on the rating gap only through its size, so with true
    ratings both bid the same and the lot decides; with private beliefs the player who believes
    the gap is larger bids lower and gets Black.
    """

    red_minutes: float
    min_black_minutes: float
    draw_winner: Colour
    time_class: TimeClass = TimeClass.BLITZ
    model: ModelParams = field(default=DEFAULT_MODEL)

    @classmethod
    def from_stage(cls, stage: Stage, model: ModelParams) -> SealedBidGame:
        """The decision problem of a sealed-bid stage."""
        if stage.sealed_bid is None or stage.draw_winner is None:
            raise ValueError(f"stage {stage.name!r} is not a sealed-bid stage")
        bid = stage.sealed_bid
        return cls(
            bid.red_minutes, bid.min_black_minutes, stage.draw_winner, stage.time_class, model
        )

    def _game(
        self, red_minus_black: npt.ArrayLike, black_minutes: npt.ArrayLike
    ) -> tuple[FloatArray, FloatArray]:
        """(P(Red advances), P(Black advances)) for a rating gap and Black's clock."""
        p = game_probabilities(
            red_minus_black,
            0.0,
            self.time_class,
            model=self.model,
            red_minutes=self.red_minutes,
            black_minutes=black_minutes,
        )
        if self.draw_winner is Colour.BLACK:
            return np.asarray(p.red), np.asarray(p.draw + p.black)
        return np.asarray(p.red + p.draw), np.asarray(p.black)

    def as_black(self, x: npt.ArrayLike, t: npt.ArrayLike) -> FloatArray:
        """P(A advances) with A Black on ``t`` minutes against B Red."""
        return self._game(-np.asarray(x, dtype=np.float64), t)[1]

    def as_red(self, x: npt.ArrayLike, t: npt.ArrayLike) -> FloatArray:
        """P(A advances) with A Red against B Black on ``t`` minutes."""
        return self._game(np.asarray(x, dtype=np.float64), t)[0]

    def a_advances(
        self, x: npt.ArrayLike, bid_a: npt.ArrayLike, bid_b: npt.ArrayLike
    ) -> FloatArray:
        """P(A advances) once both bids are known (equal bids: a lot)."""
        ba, bb = np.asarray(bid_a, dtype=np.float64), np.asarray(bid_b, dtype=np.float64)
        a_black = self.as_black(x, ba)
        b_black = self.as_red(x, bb)
        return np.asarray(
            np.where(ba < bb, a_black, np.where(bb < ba, b_black, 0.5 * (a_black + b_black)))
        )

    @cached_property
    def _bid_table(self) -> tuple[FloatArray, FloatArray]:
        """The rational bid on a grid of rating gaps ``|y|`` = 0, 1, ..., REGION_SPAN Elo."""
        gaps = np.arange(0.0, REGION_SPAN + _GRID_STEP, _GRID_STEP)
        lo = np.full_like(gaps, self.min_black_minutes)
        hi = np.full_like(gaps, self.red_minutes)

        def indifference(t: FloatArray) -> FloatArray:
            return self.as_black(gaps, t) - self.as_red(gaps, t)

        # Black's chance grows and Red's falls with Black's clock: bisect the crossing.
        for _ in range(60):
            mid = 0.5 * (lo + hi)
            up = indifference(mid) > 0  # Black already better: the indifference is lower
            hi = np.where(up, mid, hi)
            lo = np.where(up, lo, mid)
        bids = 0.5 * (lo + hi)
        bids = np.where(
            indifference(np.full_like(gaps, self.red_minutes)) <= 0, self.red_minutes, bids
        )
        bids = np.where(
            indifference(np.full_like(gaps, self.min_black_minutes)) >= 0,
            self.min_black_minutes,
            bids,
        )
        return gaps, bids

    def rational_bid(self, y: npt.ArrayLike) -> FloatArray:
        """The indifference bid of a player who believes A's rating minus B's is ``y``."""
        gaps, bids = self._bid_table
        return np.asarray(np.interp(np.abs(np.asarray(y, dtype=np.float64)), gaps, bids))

    @property
    def naive_bid(self) -> float:
        """The rule-of-thumb bid: half of Red's clock (at least the minimum)."""
        return max(self.min_black_minutes, self.red_minutes / 2)

    def believed_a_advances(
        self, x: npt.ArrayLike, belief_sd: float, *, cells: int = 4001
    ) -> FloatArray:
        """P(A advances) when both bid rationally on beliefs ``x + Normal(0, belief_sd)``.

        The two beliefs are independent with the same distribution. The belief axis is cut into
        ``cells`` cells of exact Normal mass over +-8 sd; the bids are ranked, so for each cell
        the chance that the other player bids higher (or the same) is a cumulative sum. Accurate
        to about 1e-6 (tested against a finer grid and against sampling).
        """
        x_arr = np.atleast_1d(np.asarray(x, dtype=np.float64))
        edges = np.linspace(-8.0, 8.0, cells + 1)
        mass = np.diff(ndtr(edges))
        mass /= mass.sum()
        z = 0.5 * (edges[:-1] + edges[1:])
        out = np.empty_like(x_arr)
        for i, xi in enumerate(x_arr.ravel()):
            beliefs = xi + belief_sd * z
            bids = self.rational_bid(beliefs)
            order = np.argsort(bids, kind="stable")
            b, w = bids[order], mass[order]
            values, start = np.unique(b, return_index=True)
            weight = np.add.reduceat(w, start)
            higher = 1.0 - np.cumsum(weight)  # P(the other bid is strictly higher)
            value = self.as_black(xi, values) + self.as_red(xi, values)
            total = np.sum(weight * higher * value) + np.sum(weight**2 * 0.5 * value)
            out.ravel()[i] = total
        return out.reshape(np.shape(x))


class BidProbabilities(NamedTuple):
    """Decision probabilities, each shaped like ``x``."""

    announce_red: FloatArray
    object_if_red: FloatArray
    object_if_black: FloatArray

    def joint(self) -> dict[tuple[Colour, Reply], FloatArray]:
        """P(announce, reply) for all four branches (the two decisions are independent)."""
        a_red = self.announce_red
        return {
            (Colour.RED, Reply.ACCEPT): a_red * (1 - self.object_if_red),
            (Colour.RED, Reply.OBJECT): a_red * self.object_if_red,
            (Colour.BLACK, Reply.ACCEPT): (1 - a_red) * (1 - self.object_if_black),
            (Colour.BLACK, Reply.OBJECT): (1 - a_red) * self.object_if_black,
        }


class BidSample(NamedTuple):
    """Sampled decisions, each a bool array shaped like ``x``."""

    announce_red: BoolArray
    objects: BoolArray


class DecisionSampler(ABC):
    """A strategy's decisions for one bidding game as array operations, built once (e.g. per
    kernel table) and shipped to workers: everything it needs is in its own arrays."""

    @abstractmethod
    def sample(self, x: FloatArray, rng: np.random.Generator) -> BidSample:
        """Draw decisions for matches whose true advantages (甲 minus 乙) are ``x``, shape
        ``(n,)``; consumes ``rng`` exactly as :meth:`Strategy.sample` does."""


@dataclass(frozen=True)
class StrategySampler(DecisionSampler):
    """Any strategy's own :meth:`Strategy.sample` for a fixed game (the default sampler)."""

    strategy: Strategy
    game: BiddingGame

    def sample(self, x: FloatArray, rng: np.random.Generator) -> BidSample:
        return self.strategy.sample(self.game, x, rng)


@dataclass(frozen=True)
class BeliefSampler(DecisionSampler):
    """The rational rule at private beliefs ``x + Normal(0, belief_sd)``: two Normal draws per
    match (甲's belief, then 乙's) and one sorted search per decision in the rule's regions.

    Attributes:
        belief_sd: Standard deviation of each belief's error (Elo).
        announce_red: :attr:`Regions.bounds` where 甲 announces Red.
        object_red: Where 乙 objects to Red.
        object_black: Where 乙 objects to Black.
    """

    belief_sd: float
    announce_red: FloatArray
    object_red: FloatArray
    object_black: FloatArray

    @classmethod
    def of(cls, game: BiddingGame, belief_sd: float) -> BeliefSampler:
        """The sampler of ``game`` (its decision regions are found here, once)."""
        r = game.regions
        return cls(
            belief_sd,
            r["announce_red"].bounds,
            r["object_red"].bounds,
            r["object_black"].bounds,
        )

    def sample(self, x: FloatArray, rng: np.random.Generator) -> BidSample:
        x_arr = np.asarray(x, dtype=np.float64)
        chooser_belief = x_arr + rng.normal(0.0, self.belief_sd, size=x_arr.shape)
        bidder_belief = x_arr + rng.normal(0.0, self.belief_sd, size=x_arr.shape)
        red = inside(self.announce_red, chooser_belief)
        objects = np.where(
            red, inside(self.object_red, bidder_belief), inside(self.object_black, bidder_belief)
        )
        return BidSample(red, np.asarray(objects))


class Strategy(ABC):
    """How 甲 and 乙 decide. Implementations are small, immutable and registered in STRATEGIES."""

    kind: ClassVar[str]

    @property
    def is_deterministic(self) -> bool:
        """True if decisions depend only on the true ratings (so can be computed per pairing)."""
        return True

    @abstractmethod
    def probabilities(self, game: BiddingGame, x: npt.ArrayLike) -> BidProbabilities:
        """Exact decision probabilities when 甲's true rating advantage is ``x``."""

    @abstractmethod
    def sample(self, game: BiddingGame, x: npt.ArrayLike, rng: np.random.Generator) -> BidSample:
        """Draw decisions for matches whose true advantages are ``x`` (consumes ``rng``)."""

    def sampler(self, game: BiddingGame) -> DecisionSampler:
        """The decisions for ``game`` as a self-contained array sampler (the Monte Carlo kernel
        builds it once per table). Strategies with precomputable rules override this; the
        default calls :meth:`sample`."""
        return StrategySampler(self, game)

    def to_dict(self) -> dict[str, object]:
        """The scenario-file ``[strategy]`` table."""
        return {"kind": self.kind}

    def sealed_bids(
        self, game: SealedBidGame, x: npt.ArrayLike, rng: np.random.Generator
    ) -> tuple[FloatArray, FloatArray]:
        """A's and B's sealed bids when A's true advantage is ``x`` (rational: the same bid)."""
        bid = game.rational_bid(x)
        return bid, bid.copy()

    def sealed_bid_advances(self, game: SealedBidGame, x: npt.ArrayLike) -> FloatArray:
        """Exact P(A advances) in the sealed-bid game."""
        bid = game.rational_bid(x)
        return game.a_advances(x, bid, bid)


@dataclass(frozen=True)
class Rational(Strategy):
    """Both players know the model and the true ratings."""

    kind: ClassVar[str] = "rational"

    def probabilities(self, game: BiddingGame, x: npt.ArrayLike) -> BidProbabilities:
        return BidProbabilities(
            game.rational_announces_red(x).astype(np.float64),
            game.rational_objects(Colour.RED, x).astype(np.float64),
            game.rational_objects(Colour.BLACK, x).astype(np.float64),
        )

    def sample(self, game: BiddingGame, x: npt.ArrayLike, rng: np.random.Generator) -> BidSample:
        red = game.rational_announces_red(x)
        objects = np.where(
            red, game.rational_objects(Colour.RED, x), game.rational_objects(Colour.BLACK, x)
        )
        return BidSample(red, np.asarray(objects))


@dataclass(frozen=True)
class Naive(Strategy):
    """甲 always announces Red and 乙 always accepts."""

    kind: ClassVar[str] = "naive"

    def probabilities(self, game: BiddingGame, x: npt.ArrayLike) -> BidProbabilities:
        shape = np.shape(x)
        return BidProbabilities(np.ones(shape), np.zeros(shape), np.zeros(shape))

    def sample(self, game: BiddingGame, x: npt.ArrayLike, rng: np.random.Generator) -> BidSample:
        shape = np.shape(x)
        return BidSample(np.ones(shape, dtype=bool), np.zeros(shape, dtype=bool))

    def sealed_bids(
        self, game: SealedBidGame, x: npt.ArrayLike, rng: np.random.Generator
    ) -> tuple[FloatArray, FloatArray]:
        """Both bid half of Red's clock."""
        bid = np.full(np.shape(x), game.naive_bid)
        return bid, bid.copy()

    def sealed_bid_advances(self, game: SealedBidGame, x: npt.ArrayLike) -> FloatArray:
        bid = np.full(np.shape(x), game.naive_bid)
        return game.a_advances(x, bid, bid)


@dataclass(frozen=True)
class Believed(Strategy):
    """Rational play on private, noisy beliefs of the rating difference.

    Attributes:
        belief_sd: Standard deviation (Elo) of each player's belief error.
    """

    belief_sd: float = 100.0
    kind: ClassVar[str] = "believed"

    @property
    def is_deterministic(self) -> bool:
        return self.belief_sd == 0

    def probabilities(self, game: BiddingGame, x: npt.ArrayLike) -> BidProbabilities:
        if self.belief_sd == 0:
            return Rational().probabilities(game, x)
        r = game.regions
        return BidProbabilities(
            r["announce_red"].normal_mass(x, self.belief_sd),
            r["object_red"].normal_mass(x, self.belief_sd),
            r["object_black"].normal_mass(x, self.belief_sd),
        )

    def sample(self, game: BiddingGame, x: npt.ArrayLike, rng: np.random.Generator) -> BidSample:
        # The decision regions are the rational rule itself (checked point by point in the
        # tests), and far cheaper per match than evaluating the model at every belief.
        return self.sampler(game).sample(np.asarray(x, dtype=np.float64), rng)

    def sampler(self, game: BiddingGame) -> DecisionSampler:
        """Thresholds of the rational rule, searched per belief (:class:`BeliefSampler`)."""
        return BeliefSampler.of(game, self.belief_sd)

    def to_dict(self) -> dict[str, object]:
        return {"kind": self.kind, "belief_sd": self.belief_sd}

    def sealed_bids(
        self, game: SealedBidGame, x: npt.ArrayLike, rng: np.random.Generator
    ) -> tuple[FloatArray, FloatArray]:
        """Each bids rationally on their own belief (A's belief drawn first)."""
        x_arr = np.asarray(x, dtype=np.float64)
        a = game.rational_bid(x_arr + rng.normal(0.0, self.belief_sd, size=x_arr.shape))
        b = game.rational_bid(x_arr + rng.normal(0.0, self.belief_sd, size=x_arr.shape))
        return a, b

    def sealed_bid_advances(self, game: SealedBidGame, x: npt.ArrayLike) -> FloatArray:
        if self.belief_sd == 0:
            return Rational().sealed_bid_advances(game, x)
        return game.believed_a_advances(x, self.belief_sd)


STRATEGIES: Mapping[str, type[Strategy]] = {
    Rational.kind: Rational,
    Naive.kind: Naive,
    Believed.kind: Believed,
}


def get_strategy(kind: str, *, belief_sd: float = 100.0) -> Strategy:
    """The strategy called ``kind``.

    Raises:
        ValueError: For an unknown kind or a negative ``belief_sd``.
    """
    if kind not in STRATEGIES:
        raise ValueError(f"unknown strategy: {kind!r} (known: {', '.join(STRATEGIES)})")
    if kind == Believed.kind:
        if not belief_sd >= 0:
            raise ValueError(f"belief_sd must be >= 0, got {belief_sd}")
        return Believed(belief_sd)
    return STRATEGIES[kind]()
