"""The sealed-bid Armageddon as a decision problem: each player bids the minutes it would
take as Black; the lower bid plays Black with those minutes.

:class:`SealedBidGame` gives each side's chance from the two bids; the rational and ``bayesian``
bids are the indifference bids of the truth and of each player's estimate.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Literal

import numpy as np
import numpy.typing as npt

from knockout.arrays import FloatArray
from knockout.game import Colour
from knockout.rules.book.formats import Stage
from knockout.rules.decisions.regions import GRID_STEP, REGION_SPAN, expect
from knockout.rules.model.normal import ndtr
from knockout.rules.model.strength import (
    DEFAULT_MODEL,
    ModelParams,
    TimeClass,
    game_probabilities,
)

__all__ = [
    "SealedBidGame",
    "lower_of_two",
]


@functools.lru_cache(maxsize=64)
def _bayesian_bid_table(game: SealedBidGame, sd: float) -> tuple[FloatArray, FloatArray]:
    return game._indifference_table(sd)


@dataclass(frozen=True)
class SealedBidGame:
    """The sealed-bid Armageddon as a decision problem.

    Each player bids the minutes they would accept as Black; the lower bid plays Black against
    Red's ``red_minutes``, on its own bid (``price = "first"``) or on the higher bid (``second``,
    Vickrey); equal bids are settled by a lot. ``x`` is always A's rating minus B's (for the
    stage's time class).

    The rational bid is the indifference point: the Black clock ``t`` at which a player's chance
    to advance as Black equals their chance as Red against a Black with ``t``. That equation is
    the same for both players and depends on the rating gap only through its size, so with true
    ratings both bid the same and the lot decides; with private beliefs the player who believes
    the gap is larger bids lower and gets Black.
    """

    red_minutes: float
    min_black_minutes: float
    draw_winner: Colour
    time_class: TimeClass = TimeClass.RAPID
    model: ModelParams = field(default=DEFAULT_MODEL)
    increment_seconds: float = 2.0
    price: Literal["first", "second"] = "first"

    @classmethod
    def from_stage(
        cls, stage: Stage, model: ModelParams, time_class: TimeClass | None = None
    ) -> SealedBidGame:
        """The decision problem of a sealed-bid stage."""
        if stage.sealed_bid is None or stage.draw_winner is None:
            raise ValueError(f"stage {stage.name!r} is not a sealed-bid stage")
        bid = stage.sealed_bid
        tc = stage.time_class_for(model.moves) if time_class is None else time_class
        return cls(
            bid.red_minutes,
            bid.min_black_minutes,
            stage.draw_winner,
            tc,
            model,
            stage.increment_seconds,
            bid.price,
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
            red_minutes=self.model.effective(self.red_minutes, self.increment_seconds),
            black_minutes=self.model.effective(black_minutes, self.increment_seconds),
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
        clock = self.black_clock(ba, bb)
        a_black = self.as_black(x, clock)
        b_black = self.as_red(x, clock)
        return np.asarray(
            np.where(ba < bb, a_black, np.where(bb < ba, b_black, 0.5 * (a_black + b_black)))
        )

    def black_clock(self, bid_a: npt.ArrayLike, bid_b: npt.ArrayLike) -> FloatArray:
        """Black's base minutes once both bids are known: the lower (first price) or the higher
        (second price)."""
        ba, bb = np.asarray(bid_a, dtype=np.float64), np.asarray(bid_b, dtype=np.float64)
        return np.asarray(np.minimum(ba, bb) if self.price == "first" else np.maximum(ba, bb))

    @cached_property
    def _bid_table(self) -> tuple[FloatArray, FloatArray]:
        """The rational bid on a grid of rating gaps ``|y|`` = 0, 1, ..., REGION_SPAN Elo."""
        return self._indifference_table(0.0)

    def _indifference_table(self, belief_sd: float) -> tuple[FloatArray, FloatArray]:
        """The bid on a grid of estimates ``|e|``: the Black clock at which the expected chance
        as Black equals the expected chance as Red, the truth being ``Normal(e, belief_sd)``
        (``belief_sd = 0``: the truth is ``e``, the rational bid)."""
        gaps = np.arange(0.0, REGION_SPAN + GRID_STEP, GRID_STEP)
        return gaps, self._indifference_bids(gaps, belief_sd)

    def _indifference_bids(self, gaps: FloatArray, belief_sd: float) -> FloatArray:
        """The indifference bids at estimates ``gaps`` (>= 0; broadcast with the constants of
        a vectorised model), by bisection."""
        lo = np.full_like(gaps, self.min_black_minutes)
        hi = np.full_like(gaps, self.red_minutes)

        def indifference(t: FloatArray) -> FloatArray:
            return expect(
                lambda y: (
                    self.as_black(y, t[..., None] if y.ndim > t.ndim else t)
                    - self.as_red(y, t[..., None] if y.ndim > t.ndim else t)
                ),
                gaps,
                belief_sd,
            )

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
        return np.asarray(bids, dtype=np.float64)

    def rational_bid(self, y: npt.ArrayLike) -> FloatArray:
        """The indifference bid of a player who believes A's rating minus B's is ``y`` (with a
        vectorised model: solved for each pair's constants, not read off a table)."""
        if self.model.size is not None:
            shape = np.broadcast_shapes(np.shape(y), (self.model.size,))
            gaps = np.abs(np.broadcast_to(np.asarray(y, dtype=np.float64), shape)).copy()
            return self._indifference_bids(gaps, 0.0)
        gaps, bids = self._bid_table
        return np.asarray(np.interp(np.abs(np.asarray(y, dtype=np.float64)), gaps, bids))

    def bayesian_bid(self, e: npt.ArrayLike, belief_sd: float) -> FloatArray:
        """The bid of a player whose estimate of A's rating minus B's is ``e`` and who holds the
        truth to be ``Normal(e, belief_sd)``: the indifference in expectation. (The difference
        of the two chances is even in the gap, so the bid depends on ``|e|`` only.)"""
        gaps, bids = _bayesian_bid_table(self, belief_sd)
        return np.asarray(np.interp(np.abs(np.asarray(e, dtype=np.float64)), gaps, bids))

    @property
    def naive_bid(self) -> float:
        """The rule-of-thumb bid: half of Red's clock (at least the minimum)."""
        return max(self.min_black_minutes, self.red_minutes / 2)

    def believed_lower_bid(
        self,
        x: float,
        belief_sd: float,
        *,
        cells: int = 4001,
        bid: Callable[[FloatArray], FloatArray] | None = None,
    ) -> tuple[FloatArray, FloatArray]:
        """The distribution of the lower of two bids when both bid on beliefs
        ``x + Normal(0, belief_sd)`` (``bid``: the bid of a belief, default the rational one),
        on the same grid of exact Normal masses as :meth:`believed_a_advances`: values and
        probabilities."""
        bid_of = self.rational_bid if bid is None else bid
        edges = np.linspace(-8.0, 8.0, cells + 1)
        mass = np.diff(ndtr(edges))
        mass /= mass.sum()
        z = 0.5 * (edges[:-1] + edges[1:])
        bids = bid_of(x + belief_sd * z)
        if self.price == "first":
            return lower_of_two(bids, mass)
        values, p = lower_of_two(-bids, mass)  # the higher of two is minus the lower of minus
        return -values[::-1], p[::-1]

    def red_advances(
        self, red_minus_black: npt.ArrayLike, black_minutes: npt.ArrayLike
    ) -> FloatArray:
        """P(Red advances) for a rating gap (Red minus Black) and Black's clock."""
        return self._game(red_minus_black, black_minutes)[0]

    def believed_a_advances(
        self,
        x: npt.ArrayLike,
        belief_sd: float,
        *,
        cells: int = 4001,
        bid: Callable[[FloatArray], FloatArray] | None = None,
    ) -> FloatArray:
        """P(A advances) when both bid on beliefs ``x + Normal(0, belief_sd)`` (``bid``: the bid
        of a belief, default the rational one; it must be even in the belief, as the rational
        and Bayesian bids are).

        The two beliefs are independent with the same distribution. The belief axis is cut into
        ``cells`` cells of exact Normal mass over +-8 sd; the bids are ranked, so for each cell
        the chance that the other player bids higher (or the same) is a cumulative sum. Accurate
        to about 1e-6 (tested against a finer grid and against sampling).
        """
        bid_of = self.rational_bid if bid is None else bid
        x_arr = np.atleast_1d(np.asarray(x, dtype=np.float64))
        edges = np.linspace(-8.0, 8.0, cells + 1)
        mass = np.diff(ndtr(edges))
        mass /= mass.sum()
        z = 0.5 * (edges[:-1] + edges[1:])
        out = np.empty_like(x_arr)
        for i, xi in enumerate(x_arr.ravel()):
            beliefs = xi + belief_sd * z
            bids = bid_of(beliefs)
            order = np.argsort(bids, kind="stable")
            b, w = bids[order], mass[order]
            values, start = np.unique(b, return_index=True)
            weight = np.add.reduceat(w, start)
            higher = 1.0 - np.cumsum(weight)  # P(the other bid is strictly higher)
            lower = np.cumsum(weight) - weight  # P(the other bid is strictly lower)
            value = self.as_black(xi, values) + self.as_red(xi, values)
            # first price: Black plays on the lower bid, here ``values``, when the other bids
            # higher; second price: on the higher bid, ``values``, when the other bids lower
            other = higher if self.price == "first" else lower
            total = np.sum(weight * other * value) + np.sum(weight**2 * 0.5 * value)
            out.ravel()[i] = total
        return out.reshape(np.shape(x))


def lower_of_two(values: FloatArray, mass: FloatArray) -> tuple[FloatArray, FloatArray]:
    """The distribution of min(U, V) for two independent draws with these values and masses.

    Returns the values (sorted) and P(min = value) for each; equal values may repeat, and their
    masses add up correctly.

    >>> v, p = lower_of_two(np.array([1.0, 2.0]), np.array([0.5, 0.5]))
    >>> p.tolist()
    [0.75, 0.25]
    """
    order = np.argsort(values, kind="stable")
    v, w = values[order], mass[order]
    at_least = np.cumsum(w[::-1])[::-1]  # P(a draw >= v_i), ties counted with the cell
    above = at_least - w
    # P(min = v_i) = P(U = v_i) P(V >= v_i) + P(U > v_i) P(V = v_i)
    return v, w * at_least + above * w
