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
* ``bayesian``: the same private estimates, each player averaging over the truth around its
  own estimate (:func:`bayesian_regions`).
* ``equilibrium``: a perfect Bayesian equilibrium on those estimates, 乙 updating on 甲's
  announcement (:mod:`knockout.rules.equilibrium`; the sealed bids and cut-and-choose:
  :mod:`knockout.rules.gridgames`).

Every strategy also plays the other decisions: the colour choice (:class:`ChoiceGame`), the
sealed bids of either price (:class:`SealedBidGame`) and cut-and-choose
(:class:`~knockout.rules.cutgame.CutChooseGame`).

Arrays: ``x`` may be a scalar or an array of shape ``(n,)``; results have the same shape.
"""

from __future__ import annotations

import functools
import itertools
import math
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import TYPE_CHECKING, Any, ClassVar, Literal, NamedTuple, TypeAlias

import numpy as np
import numpy.typing as npt

from knockout.game import Colour, Reply
from knockout.rules.cutgame import CutChooseGame
from knockout.rules.formats import BiddingMenu, Stage
from knockout.rules.model import (
    DEFAULT_MODEL,
    ModelParams,
    PerClass,
    TimeClass,
    davidson_share,
    game_probabilities,
    strength_difference,
)
from knockout.rules.normal import gauss_hermite, ndtr

if TYPE_CHECKING:
    from knockout.rules.gridgames import MixedBids, MixedCut

__all__ = [
    "BRANCHES",
    "BRANCH_NAMES",
    "STRATEGIES",
    "Bayesian",
    "BeliefSampler",
    "Believed",
    "BidProbabilities",
    "BidSample",
    "BiddingGame",
    "ChoiceGame",
    "CutRule",
    "DecisionSampler",
    "Equilibrium",
    "Naive",
    "PointRule",
    "Rational",
    "Region",
    "Regions",
    "SealedBidGame",
    "Strategy",
    "StrategySampler",
    "bayesian_regions",
    "expect",
    "get_strategy",
    "inside",
    "lower_of_two",
    "rational_regions_of",
]

FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]

#: The four (announcement, reply) branches of the bidding rule, in the order every table uses,
#: with the names outputs give them.
BRANCHES: tuple[tuple[Colour, Reply], ...] = (
    (Colour.RED, Reply.ACCEPT),
    (Colour.RED, Reply.OBJECT),
    (Colour.BLACK, Reply.ACCEPT),
    (Colour.BLACK, Reply.OBJECT),
)
BRANCH_NAMES: tuple[str, ...] = tuple(f"{a.value}_{r.value}" for a, r in BRANCHES)

#: Believed differences are searched for thresholds on [-REGION_SPAN, REGION_SPAN] Elo; beyond it
#: every outcome probability is within 1e-7 of 0 or 1 and decisions are taken as constant.
REGION_SPAN = 3000.0
_GRID_STEP = 1.0


def expect(f: Callable[[FloatArray], FloatArray], e: npt.ArrayLike, sd: float) -> FloatArray:
    """``E[f(X)]`` for ``X ~ Normal(e, sd)``, broadcast over ``e`` (``sd = 0``: ``f(e)``), by
    48-node Gauss-Hermite (:func:`~knockout.rules.normal.gauss_hermite`: exact for polynomials
    of degree 95; on the smooth, bounded chances here the error is below 1e-9).

    ``f`` is called once with an array of shape ``e.shape + (48,)`` (Gauss-Hermite nodes).

    >>> round(float(expect(lambda x: x**2, 1.0, 2.0)), 12)
    5.0
    """
    e_arr = np.asarray(e, dtype=np.float64)
    if sd == 0:
        return np.asarray(f(e_arr), dtype=np.float64)
    values = f(e_arr[..., None] + sd * gauss_hermite()[0])
    return np.asarray(np.sum(values * gauss_hermite()[1], axis=-1), dtype=np.float64)


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


@dataclass(frozen=True)
class PointRule:
    """A decision rule given pointwise: where it holds, evaluated at each estimate (vectorised
    over pairs and over model constants, which a :class:`Regions` of one pair cannot be). The
    rational rule at the truth is one; rules on private estimates need :class:`Regions` (their
    Normal masses)."""

    holds: Callable[[FloatArray], BoolArray]

    def contains(self, y: npt.ArrayLike) -> BoolArray:
        """Elementwise: whether the rule holds at ``y``."""
        return np.asarray(self.holds(np.asarray(y, dtype=np.float64)), dtype=bool)


#: A decision region: intervals (:class:`Regions`) or a pointwise rule (:class:`PointRule`).
Region = Regions | PointRule


def _intervals(region: Region) -> Regions:
    """The intervals of a region used with private estimates (Normal masses, sorted search)."""
    if not isinstance(region, Regions):
        raise TypeError("decisions on private estimates need a Regions (intervals)")
    return region


def inside(bounds: FloatArray, y: FloatArray) -> BoolArray:
    """Membership in the regions with these :attr:`Regions.bounds`, as one sorted search: the
    same as :meth:`Regions.contains` (``lo <= y < hi``) for every ``y``, NaN included."""
    return np.asarray(np.searchsorted(bounds, y, side="right") & 1, dtype=bool)


#: The vectorised regions bracket switches on a VECTOR_STEP-Elo grid (a region narrower than
#: that can be missed; the one-model regions use 1 Elo) and refine them by bisection to
#: VECTOR_STEP * 2**-46 Elo.
VECTOR_STEP = 4.0
_BISECT_STEPS = 46
#: Sets of constants whose decision grids are evaluated at once (memory: rows x 6,001 x 4).
_ROWS_AT_ONCE = 64


def _unique_rows(model: ModelParams) -> tuple[ModelParams, npt.NDArray[np.intp]]:
    """The distinct sets of constants of a vectorised model and, per entry, which one it is
    (a rating integral repeats each draw of the constants at every node)."""
    columns = [
        np.asarray(table[tc], dtype=np.float64)
        for table in (model.red_advantage, model.draw_nu, model.elo_per_doubling)
        for tc in TimeClass
    ]
    n = model.size or 1
    stacked = np.stack([np.broadcast_to(c, (n,)) for c in columns], axis=1)
    _, first, inverse = np.unique(stacked, axis=0, return_index=True, return_inverse=True)
    return model.take(first), np.asarray(inverse, dtype=np.intp).ravel()


def vector_bounds(
    decide: Callable[[ModelParams, FloatArray], dict[str, BoolArray]],
    model: ModelParams,
    keys: tuple[str, ...],
) -> dict[str, FloatArray]:
    """Decision regions of a vectorised model, one per set of constants, as padded
    :attr:`Regions.bounds` arrays ``(n, 2 J)`` (unused pairs are ``+inf``: empty).

    ``decide(m, x)`` gives each decision (``keys``) as booleans for ``x`` of shape ``(k, G)``
    under a vectorised model ``m`` of ``k`` entries shaped ``(k, 1)``. Switches are bracketed
    on a :data:`VECTOR_STEP`-Elo grid over ``[-REGION_SPAN, REGION_SPAN]`` (:func:`_regions`,
    for one model, uses 1 Elo) and refined by bisection of the decision itself; the two agree
    to 1e-9 Elo (``tests/rules/test_vector_regions.py``) wherever no region is narrower than
    the grid step.
    """
    distinct, which = _unique_rows(model)
    k = distinct.size or 1
    grid = np.arange(-REGION_SPAN, REGION_SPAN + VECTOR_STEP, VECTOR_STEP)
    cuts: dict[str, list[list[float]]] = {key: [[] for _ in range(k)] for key in keys}
    first: dict[str, npt.NDArray[np.bool_]] = {key: np.zeros(k, dtype=bool) for key in keys}
    rows: dict[str, list[FloatArray]] = {key: [] for key in keys}
    cells: dict[str, list[FloatArray]] = {key: [] for key in keys}
    for lo in range(0, k, _ROWS_AT_ONCE):
        idx = np.arange(lo, min(k, lo + _ROWS_AT_ONCE))
        part = distinct.take(idx).mapped(lambda a: a[:, None])
        found = decide(part, np.broadcast_to(grid, (idx.size, grid.size)))
        for key in keys:
            inside_grid = found[key]
            first[key][idx] = inside_grid[:, 0]
            r, c = np.nonzero(inside_grid[:, 1:] != inside_grid[:, :-1])
            rows[key].append(idx[r].astype(np.float64))
            cells[key].append(c.astype(np.float64))
    for key in keys:
        r = np.concatenate(rows[key]).astype(np.intp)
        c = np.concatenate(cells[key]).astype(np.intp)
        if r.size:
            sub = distinct.take(r)
            lo_x, hi_x = grid[c], grid[c + 1]
            at_lo = decide(sub, lo_x)[key]
            for _ in range(_BISECT_STEPS):
                mid = 0.5 * (lo_x + hi_x)
                same = decide(sub, mid)[key] == at_lo
                lo_x, hi_x = np.where(same, mid, lo_x), np.where(same, hi_x, mid)
            for row, cut in zip(r, 0.5 * (lo_x + hi_x), strict=True):
                cuts[key][row].append(float(cut))
    out = {}
    for key in keys:
        bounds = [_bounds(bool(first[key][i]), sorted(cuts[key][i])) for i in range(k)]
        width = max((len(b) for b in bounds), default=0) or 2
        padded = np.full((k, width), np.inf)
        for i, b in enumerate(bounds):
            padded[i, : len(b)] = b
        out[key] = padded[which]
    return out


def _bounds(inside_first: bool, cuts: list[float]) -> list[float]:
    """Interval ends ``[lo0, hi0, ...]`` of a decision that holds from -inf when
    ``inside_first`` and flips at each cut."""
    edges = [-np.inf, *cuts, np.inf]
    out: list[float] = []
    state = inside_first
    for lo, hi in itertools.pairwise(edges):
        if state:
            out += [float(lo), float(hi)]
        state = not state
    return out


def bounds_contains(bounds: FloatArray, y: npt.ArrayLike) -> BoolArray:
    """Membership (``lo <= y < hi``) in padded bounds ``(n, 2 J)``, ``y`` broadcast to
    ``(n,)`` (the vectorised :meth:`Regions.contains`)."""
    v = np.asarray(y, dtype=np.float64)[..., None]
    lo, hi = bounds[:, 0::2], bounds[:, 1::2]
    return np.asarray(np.any((lo <= v) & (v < hi), axis=-1), dtype=bool)


def bounds_mass(bounds: FloatArray, mean: npt.ArrayLike, sd: float) -> FloatArray:
    """P(Normal(mean, sd) lies in the regions) for padded bounds ``(n, 2 J)`` and ``mean``
    broadcast to ``(n,)`` (the vectorised :meth:`Regions.normal_mass`)."""
    m = np.asarray(mean, dtype=np.float64)[..., None]
    lo, hi = bounds[:, 0::2], bounds[:, 1::2]
    total = np.sum(ndtr((hi - m) / sd) - ndtr((lo - m) / sd), axis=-1)
    return np.asarray(np.clip(total, 0.0, 1.0), dtype=np.float64)


def _branch_decisions(game: BiddingGame, x: FloatArray) -> dict[str, BoolArray]:
    """The rational rule's three decisions at ``x`` from the four branch values."""
    return _decisions_of([game.chooser_advances(a, r, x) for a, r in BRANCHES])


def _decisions_of(values: Sequence[FloatArray]) -> dict[str, BoolArray]:
    """The rational rule's decisions from P(甲 advances) in each branch (``BRANCHES`` order)."""
    red_accept, red_object, black_accept, black_object = values
    red_value, black_value = _announcement_values(values)
    return {
        "announce_red": np.asarray(red_value >= black_value),
        "object_red": np.asarray(red_object < red_accept),
        "object_black": np.asarray(black_object < black_accept),
    }


def _announcement_values(values: Sequence[FloatArray]) -> tuple[FloatArray, FloatArray]:
    """P(甲 advances) if 甲 announces Red, and Black, 乙 replying rationally (objecting where
    that is strictly worse for 甲), from the four branch values (``BRANCHES`` order)."""
    red_accept, red_object, black_accept, black_object = values
    red_value = np.where(red_object < red_accept, red_object, red_accept)
    black_value = np.where(black_object < black_accept, black_object, black_accept)
    return red_value, black_value


def _grid_decisions(game: BiddingGame, x: FloatArray) -> dict[str, BoolArray]:
    """:func:`_branch_decisions` on a big grid, value for value: each branch's P(甲 advances)
    from the model's own strength difference and
    :func:`~knockout.rules.model.davidson_share` (davidson's operations, in place: fewer passes
    over memory than :meth:`BiddingGame.chooser_advances`). ``game``'s constants broadcast
    against ``x``."""
    model, tc = game.model, game.time_class
    values = []
    for announce, reply in BRANCHES:
        colour, clocks = game.menu.assignment(announce, reply)
        red_min, black_min = game.effective(clocks)
        red = colour is Colour.RED
        d = strength_difference(
            x if red else 0.0,  # 甲 as Red at x against 乙 at 0, or as Black
            0.0 if red else x,
            red_advantage=model.red_advantage[tc],
            elo_per_doubling=model.elo_per_doubling[tc],
            red_minutes=red_min,
            black_minutes=black_min,
        )
        values.append(
            davidson_share(d, model.draw_nu[tc], red=red, with_draw=game.draw_winner is colour)
        )
    return _decisions_of(values)


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
    time_class: TimeClass = TimeClass.RAPID
    model: ModelParams = field(default=DEFAULT_MODEL)
    increment_seconds: float = 10.0

    @classmethod
    def from_stage(
        cls, stage: Stage, model: ModelParams, time_class: TimeClass | None = None
    ) -> BiddingGame:
        """The decision problem of a bidding stage (its time class: as the stage resolves it
        under ``model``, unless given)."""
        if stage.bidding is None or stage.draw_winner is None:
            raise ValueError(f"stage {stage.name!r} is not a bidding stage")
        tc = stage.time_class_for(model.moves) if time_class is None else time_class
        return cls(stage.bidding, stage.draw_winner, tc, model, stage.increment_seconds)

    def effective(self, clocks: tuple[float, float]) -> tuple[float, float]:
        """Effective clocks (minutes) of a branch's base clocks."""
        red, black = (float(self.model.effective(m, self.increment_seconds)) for m in clocks)
        return red, black

    def chooser_advances(self, announce: Colour, reply: Reply, x: npt.ArrayLike) -> FloatArray:
        """P(甲 advances) after ``announce``/``reply`` when 甲's rating minus 乙's is ``x``."""
        colour, clocks = self.menu.assignment(announce, reply)
        red_min, black_min = self.effective(clocks)
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

    def branch_values(self, x: npt.ArrayLike) -> FloatArray:
        """P(甲 advances) in each branch (``BRANCHES`` order, last axis) at advantage ``x``."""
        return np.stack([self.chooser_advances(a, r, x) for a, r in BRANCHES], axis=-1).astype(
            np.float64
        )

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
        """Decision regions in ``x`` for the rational rule, computed once per distinct game
        (the exact companion and the kernel of a simulation, each point of a study, share
        them): :meth:`rational_regions`."""
        try:
            return _rational_regions(self)
        except TypeError:  # a game whose model constants are arrays is not hashable
            return self.rational_regions()

    def rational_regions(self) -> Mapping[str, Regions]:
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

    @cached_property
    def vector_regions(self) -> dict[str, FloatArray]:
        """:attr:`regions` for a vectorised model: per set of constants, the padded bounds
        (:func:`vector_bounds`) of ``announce_red``, ``object_red`` and ``object_black``."""

        def decide(m: ModelParams, x: FloatArray) -> dict[str, BoolArray]:
            return _branch_decisions(replace(self, model=m), x)

        return vector_bounds(decide, self.model, ("announce_red", "object_red", "object_black"))


@functools.lru_cache(maxsize=256)
def _rational_regions(game: BiddingGame) -> Mapping[str, Regions]:
    return game.rational_regions()


#: Sets of constants whose switch points are refined at once (memory: a few arrays of one
#: entry per switch found, so the whole group).
_GAMES_AT_ONCE = 256
#: Grid cells evaluated at once when the decisions of many sets of constants are taken on the
#: 1-Elo grid: about 48,000 (8 sets' rows) keeps the pass's temporaries near the processor's
#: cache (measured on this 2-vCPU machine: with the in-place arithmetic of
#: :func:`_grid_decisions`, 2.5-3x faster than 64 rows at once; 1 row at a time is slower).
_GRID_CELLS_AT_ONCE = 48_000
#: Brent's method: scipy's default most iterations.
_BRENT_ITERATIONS = 100
#: The rational rule's decisions, in the order of :func:`_decision_gaps`' keys.
_REGION_KEYS = ("announce_red", "object_red", "object_black")


def rational_regions_of(games: Sequence[BiddingGame]) -> list[Mapping[str, Regions]]:
    """``[game.rational_regions() for game in games]``, bit for bit, for games that differ only
    in their model constants (plain numbers each), found together: the decisions on the 1-Elo
    grid for a few games at a time in one array pass (rows sized to stay in cache), and every
    switch point refined by :func:`_brent` (Brent's method taking the same steps as
    ``scipy.optimize.brentq``, for all switches at once). A study of many sets of constants
    pays a few array passes instead of one root search per set.

    Raises:
        ValueError: If the games differ in more than their constants, or a constant is an array.
    """
    if not games:
        return []
    first = games[0]
    shape = (first.menu, first.draw_winner, first.time_class, first.increment_seconds)
    for g in games:
        if (g.menu, g.draw_winner, g.time_class, g.increment_seconds) != shape:
            raise ValueError("rational_regions_of needs games that differ only in constants")
        if g.model.size is not None or g.model.moves != first.model.moves:
            raise ValueError("rational_regions_of needs plain constants and the same moves")
    grid = np.arange(-REGION_SPAN, REGION_SPAN + _GRID_STEP, _GRID_STEP)
    keys = _REGION_KEYS
    cuts: list[dict[str, list[float]]] = [{k: [] for k in keys} for _ in games]
    starts: list[dict[str, bool]] = [{} for _ in games]
    per_pass = max(1, _GRID_CELLS_AT_ONCE // grid.size)
    for lo in range(0, len(games), _GAMES_AT_ONCE):
        part = games[lo : lo + _GAMES_AT_ONCE]
        rows = replace(first, model=_stacked([g.model for g in part]))
        found: list[tuple[npt.NDArray[np.intp], ...]] = []  # (key, row, cell) of each switch
        for at in range(0, len(part), per_pass):
            stop = min(at + per_pass, len(part))
            column = replace(rows, model=rows.model.mapped(lambda a: a[at:stop, None]))  # noqa: B023
            decided = _grid_decisions(column, grid)  # the grid's decisions, as one game's
            for k, key in enumerate(keys):
                inside_grid = decided[key]
                for r in range(stop - at):
                    starts[lo + at + r][key] = bool(inside_grid[r, 0])
                row, cell = np.nonzero(inside_grid[:, 1:] != inside_grid[:, :-1])
                found.append((np.full(row.size, k, dtype=np.intp), row + at, cell))
        key_of, row, cell = (np.concatenate(parts) for parts in zip(*found, strict=True))
        points = _switch_points(rows, key_of, row, grid[cell], grid[cell + 1])
        # each game's switches of a decision come in grid order, as the one-game search's
        for k, r, cut in zip(key_of.tolist(), row.tolist(), points.tolist(), strict=True):
            cuts[lo + r][keys[k]].append(cut)
    out: list[Mapping[str, Regions]] = []
    for start, found_cuts in zip(starts, cuts, strict=True):
        out.append({k: _regions_of_cuts(start[k], found_cuts[k]) for k in keys})
    return out


def _stacked(models: Sequence[ModelParams]) -> ModelParams:
    """One model whose constants are arrays over ``models`` (the same moves)."""

    def table(name: str) -> PerClass:
        cells: list[Any] = [
            np.array([getattr(m, name)[tc] for m in models], dtype=np.float64) for tc in TimeClass
        ]
        return PerClass(*cells)

    return ModelParams(
        table("red_advantage"), table("draw_nu"), table("elo_per_doubling"), models[0].moves
    )


def _decision_gaps(game: BiddingGame, key: npt.NDArray[np.intp], y: FloatArray) -> FloatArray:
    """The functions whose roots are switches of the decisions ``_REGION_KEYS[key]`` (what
    :meth:`BiddingGame.rational_regions` refines), for a vectorised ``game`` whose entries
    match ``y``: the four branch values once, each entry's gap taken from them with the same
    arithmetic as the one-game search."""
    values = [game.chooser_advances(a, r, y) for a, r in BRANCHES]
    red_accept, red_object, black_accept, black_object = values
    red_value, black_value = _announcement_values(values)
    gaps = (red_value - black_value, red_object - red_accept, black_object - black_accept)
    return np.asarray(np.choose(key, gaps), dtype=np.float64)


def _switch_points(
    rows: BiddingGame,
    key: npt.NDArray[np.intp],
    row: npt.NDArray[np.intp],
    lo: FloatArray,
    hi: FloatArray,
) -> FloatArray:
    """Each switch of decision ``_REGION_KEYS[key]`` between ``lo`` and ``hi`` (game ``row``
    of ``rows``), as :func:`_regions` settles it: an end where the gap is 0 there, the cell's
    midpoint (or its upper end) where the gap does not change sign, else the gap's root by
    :func:`_brent` (every decision's switches in one search)."""
    if row.size == 0:
        return np.zeros(0)
    game = replace(rows, model=rows.model.take(row))
    f_lo, f_hi = _decision_gaps(game, key, lo), _decision_gaps(game, key, hi)
    out = np.where(f_hi != 0.0, 0.5 * (lo + hi), hi)
    out = np.where(f_lo == 0.0, lo, out)
    root = (f_lo != 0.0) & (f_hi != 0.0) & (np.sign(f_lo) != np.sign(f_hi))
    at = np.flatnonzero(root)
    if at.size:
        sub = replace(rows, model=rows.model.take(row[at]))
        sub_key = key[at]

        def gap(index: npt.NDArray[np.intp], y: FloatArray) -> FloatArray:
            return _decision_gaps(replace(sub, model=sub.model.take(index)), sub_key[index], y)

        out[at] = _brent(gap, lo[at], hi[at], xtol=1e-9, rtol=1e-15)
    return np.asarray(out, dtype=np.float64)


def _brent(
    f: Callable[[npt.NDArray[np.intp], FloatArray], FloatArray],
    xa: FloatArray,
    xb: FloatArray,
    *,
    xtol: float,
    rtol: float,
) -> FloatArray:
    """Roots of many functions at once by Brent's method, each taking the steps
    ``scipy.optimize.brentq`` takes on it alone (its C routine, written out in array form), so
    each root is the one ``brentq`` returns. ``f(index, y)`` evaluates functions ``index`` at
    ``y``; each function must change sign between its ``xa`` and ``xb``.

    Raises:
        RuntimeError: If some root is not found in scipy's default 100 iterations.
    """
    n = xa.size
    everyone = np.arange(n)
    xpre, xcur = xa.astype(np.float64), xb.astype(np.float64)
    fpre, fcur = f(everyone, xpre), f(everyone, xcur)
    xblk, fblk, spre, scur = np.zeros(n), np.zeros(n), np.zeros(n), np.zeros(n)
    out = np.where(fpre == 0, xpre, np.where(fcur == 0, xcur, np.nan))
    alive = np.flatnonzero((fpre != 0) & (fcur != 0))
    with np.errstate(all="ignore"):  # lanes whose step is not taken may divide by zero
        for _ in range(_BRENT_ITERATIONS):
            if alive.size == 0:
                return out
            xp, xc, xb_, fp, fc, fb = (a[alive] for a in (xpre, xcur, xblk, fpre, fcur, fblk))
            sp, sc = spre[alive], scur[alive]
            new_bracket = fp * fc < 0
            xb_ = np.where(new_bracket, xp, xb_)
            fb = np.where(new_bracket, fp, fb)
            sp = np.where(new_bracket, xc - xp, sp)
            sc = np.where(new_bracket, xc - xp, sc)
            swap = np.abs(fb) < np.abs(fc)
            xp, xc, xb_ = np.where(swap, xc, xp), np.where(swap, xb_, xc), np.where(swap, xc, xb_)
            fp, fc, fb = np.where(swap, fc, fp), np.where(swap, fb, fc), np.where(swap, fc, fb)
            delta = (xtol + rtol * np.abs(xc)) / 2
            sbis = (xb_ - xc) / 2
            done = (fc == 0) | (np.abs(sbis) < delta)
            out[alive[done]] = xc[done]
            interpolate = -fc * (xc - xp) / (fc - fp)
            dpre = (fp - fc) / (xp - xc)
            dblk = (fb - fc) / (xb_ - xc)
            extrapolate = -fc * (fb * dblk - fp * dpre) / (dblk * dpre * (fb - fp))
            stry = np.where(xp == xb_, interpolate, extrapolate)
            limit = np.abs(sp)
            other_limit = 3 * np.abs(sbis) - delta
            limit = np.where(limit < other_limit, limit, other_limit)  # C's MIN
            short = (np.abs(sp) > delta) & (np.abs(fc) < np.abs(fp)) & (2 * np.abs(stry) < limit)
            sp, sc = np.where(short, sc, sbis), np.where(short, stry, sbis)
            xp, fp = xc, fc
            xc = np.where(np.abs(sc) > delta, xc + sc, xc + np.where(sbis > 0, delta, -delta))
            keep = ~done
            alive = alive[keep]
            for array, values in (
                (xpre, xp), (xcur, xc), (xblk, xb_), (fpre, fp), (fblk, fb), (spre, sp),
                (scur, sc),
            ):  # fmt: skip
                array[alive] = values[keep]
            fcur[alive] = f(alive, xcur[alive]) if alive.size else fcur[alive]
    if alive.size:
        raise RuntimeError(f"Brent's method did not converge in {_BRENT_ITERATIONS} iterations")
    return out


def _regions_of_cuts(inside_first: bool, cuts: Sequence[float]) -> Regions:
    """The intervals of :func:`_regions` from the grid's first decision and the switches."""
    edges = [-np.inf, *cuts, np.inf]
    state = inside_first
    intervals: list[tuple[float, float]] = []
    for lo_edge, hi_edge in itertools.pairwise(edges):
        if state:
            intervals.append((float(lo_edge), float(hi_edge)))
        state = not state
    return Regions(tuple(intervals))


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
    return _regions_of_cuts(bool(inside[0]), cuts)


def _threshold_regions(
    f: Callable[[FloatArray], FloatArray], sd: float, *, strict: bool
) -> Regions:
    """Where ``E[f(X)]`` over ``X ~ Normal(e, sd)`` is below zero (``strict``) or at least zero
    (not ``strict``), as regions in ``e``: the sign is read on the 1-Elo grid and each switch is
    refined with Brent's method to 1e-9 Elo on the Gauss-Hermite expectation."""
    grid = np.arange(-REGION_SPAN, REGION_SPAN + _GRID_STEP, _GRID_STEP)
    smooth = expect(f, grid, sd)
    inside = smooth < 0 if strict else smooth >= 0
    return _regions(grid, inside, lambda e: float(expect(f, e, sd)))


@functools.lru_cache(maxsize=64)
def bayesian_regions(game: BiddingGame, sd: float) -> Mapping[str, Regions]:
    """Decision regions in each player's own estimate for the ``bayesian`` strategy.

    乙, holding the truth to be ``Normal(e, sd)`` around its estimate ``e``, objects to an
    announcement when that lowers 甲's expected chance. 甲 averages over the truth around its
    estimate and over 乙's reply, knowing 乙 decides the same way from the truth plus 乙's own
    noise: P(乙 objects | truth X) is the Normal mass of 乙's region around X.
    """

    def gap(announce: Colour) -> Callable[[FloatArray], FloatArray]:
        return lambda y: (
            game.chooser_advances(announce, Reply.OBJECT, y)
            - game.chooser_advances(announce, Reply.ACCEPT, y)
        )

    bidder = {a: _threshold_regions(gap(a), sd, strict=True) for a in (Colour.RED, Colour.BLACK)}

    def value(announce: Colour, y: FloatArray) -> FloatArray:
        q = bidder[announce].normal_mass(y, sd)
        return np.asarray(
            q * game.chooser_advances(announce, Reply.OBJECT, y)
            + (1 - q) * game.chooser_advances(announce, Reply.ACCEPT, y)
        )

    announce = _threshold_regions(
        lambda y: value(Colour.RED, y) - value(Colour.BLACK, y), sd, strict=False
    )
    return {
        "announce_red": announce,
        "object_red": bidder[Colour.RED],
        "object_black": bidder[Colour.BLACK],
    }


@functools.lru_cache(maxsize=64)
def bayesian_choice_region(game: ChoiceGame, sd: float) -> Regions:
    """Where the ``bayesian`` chooser, averaging over the truth around its estimate, takes Red."""
    return _threshold_regions(
        lambda y: game.value(True, y) - game.value(False, y), sd, strict=False
    )


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
        gaps = np.arange(0.0, REGION_SPAN + _GRID_STEP, _GRID_STEP)
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


@dataclass(frozen=True)
class ChoiceGame:
    """A colour choice (``colours = "choice"``): the chooser takes Red or Black for a game on the
    stage's clocks. ``x`` is the chooser's rating minus the other's (for the stage's class).

    The value of a colour is the chooser's expected match score from the game: a win, plus a
    draw when the draw counts for that colour (1/2 when a draw counts for nobody).
    """

    clocks: tuple[float, float]
    draw_winner: Colour | None
    time_class: TimeClass = TimeClass.BLITZ
    model: ModelParams = field(default=DEFAULT_MODEL)
    increment_seconds: float = 3.0

    @classmethod
    def from_stage(
        cls, stage: Stage, model: ModelParams, time_class: TimeClass | None = None
    ) -> ChoiceGame:
        """The choice of a stage's first game."""
        tc = stage.time_class_for(model.moves) if time_class is None else time_class
        return cls(stage.minutes, stage.draw_winner, tc, model, stage.increment_seconds)

    def value(self, red: bool, x: npt.ArrayLike) -> FloatArray:
        """The chooser's expected score from the game with Red (``red``) or Black."""
        x_arr = np.asarray(x, dtype=np.float64)
        red_min, black_min = (
            float(self.model.effective(m, self.increment_seconds)) for m in self.clocks
        )
        p = game_probabilities(
            x_arr if red else 0.0,
            0.0 if red else x_arr,
            self.time_class,
            model=self.model,
            red_minutes=red_min,
            black_minutes=black_min,
        )
        mine = p.red if red else p.black
        colour = Colour.RED if red else Colour.BLACK
        draw_share = 0.5 if self.draw_winner is None else float(self.draw_winner is colour)
        return np.asarray(mine + draw_share * p.draw, dtype=np.float64)

    def rational_red(self, x: npt.ArrayLike) -> BoolArray:
        """The rational choice at ``x``: True = Red (Red on a tie)."""
        return np.asarray(self.value(True, x) >= self.value(False, x))

    @cached_property
    def red_region(self) -> Regions:
        """Where the rational chooser takes Red, refined like :attr:`BiddingGame.regions`."""
        grid = np.arange(-REGION_SPAN, REGION_SPAN + _GRID_STEP, _GRID_STEP)
        gap: Callable[[float], float] = lambda y: float(  # noqa: E731
            self.value(True, y) - self.value(False, y)
        )
        return _regions(grid, self.rational_red(grid), gap)

    @cached_property
    def vector_red_region(self) -> FloatArray:
        """:attr:`red_region` for a vectorised model: padded bounds per set of constants."""

        def decide(m: ModelParams, x: FloatArray) -> dict[str, BoolArray]:
            return {"red": replace(self, model=m).rational_red(x)}

        return vector_bounds(decide, self.model, ("red",))["red"]


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
    """Decisions by regions of private beliefs ``x + Normal(0, belief_sd)`` (the rational rule's
    for ``believed``, the expected-value rule's for ``bayesian``): two Normal draws per match
    (甲's belief, then 乙's) and one sorted search per decision in the regions.

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
    def of(cls, regions: Mapping[str, Regions], belief_sd: float) -> BeliefSampler:
        """The sampler of a strategy's decision regions (found once, by the caller)."""
        r = regions
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


@dataclass(frozen=True)
class CutRule:
    """A pure rule of cut-and-choose, in each player's estimate of their own advantage.

    Attributes:
        cut: The cutter's cut (Red's minutes) as a function of its estimate.
        threshold: The chooser's threshold ``c(r)`` at cuts ``r``: it takes Red when its
            estimate is within ``c(r)`` of zero (negative: never).
        red: The chooser's rule pointwise (estimate, cut: True = Red), where it is given so
            (the rational rule at the truth); None: ``|estimate| <= threshold(cut)``.
    """

    cut: Callable[[FloatArray], FloatArray]
    threshold: Callable[[FloatArray], FloatArray]
    red: Callable[[FloatArray, FloatArray], BoolArray] | None = None

    def takes_red(self, estimate: npt.ArrayLike, cut: npt.ArrayLike) -> BoolArray:
        """Whether a chooser with this estimate takes Red after this cut (broadcast)."""
        e = np.asarray(estimate, dtype=np.float64)
        r = np.asarray(cut, dtype=np.float64)
        if self.red is not None:
            return np.asarray(self.red(e, r), dtype=bool)
        return np.asarray(np.abs(e) <= self.threshold(r))


#: A sealed-bid rule: a bid of an estimate, or a mixed equilibrium on a grid.
BidRule: TypeAlias = "Callable[[FloatArray], FloatArray] | MixedBids"
#: A cut-and-choose rule: pure (:class:`CutRule`) or a mixed equilibrium on a grid.
CutRuleLike: TypeAlias = "CutRule | MixedCut"


@dataclass(frozen=True)
class Strategy(ABC):
    """How 甲 and 乙 decide, in every decision problem (the bidding, a colour choice, sealed
    bids). Implementations are small, immutable and registered in STRATEGIES.

    A strategy is four hooks, one per decision problem, each a rule in a player's *estimate* of
    the rating difference: :meth:`regions` (where 甲 announces Red and 乙 objects), :meth:`choice_
    region` (where a chooser takes Red), :meth:`bid` (a sealed bid, or a mixed equilibrium on a
    grid) and :meth:`cut` (cut-and-choose: the cut and the chooser's threshold, or a mixed
    equilibrium on a grid). Whether players decide
    on the truth or on private noisy estimates is :attr:`noise`: ``belief_sd`` for the kinds with
    private beliefs (``private``), 0 otherwise. Everything the walkers ask (exact decision
    probabilities, samples, sealed-bid odds, the lower bid's distribution) is derived here from
    those hooks, once, for every kind.

    Every strategy carries the scenario's ``belief_sd`` (so the ``[strategy]`` table is stored
    once, in the strategy, and round-trips); only the private kinds use it.
    """

    kind: ClassVar[str]
    #: Whether decisions are taken on private noisy estimates (``belief_sd``).
    private: ClassVar[bool] = False
    #: Whether :meth:`regions` and :meth:`choice_region` are the rational rule's (then a
    #: vectorised model finds them per set of constants, :meth:`vector_regions`).
    rational_regions: ClassVar[bool] = False
    belief_sd: float = 100.0

    # --- the hooks -------------------------------------------------------------------------

    @abstractmethod
    def regions(self, game: BiddingGame) -> Mapping[str, Region]:
        """``announce_red``, ``object_red``, ``object_black``: regions in a player's estimate
        (intervals; a strategy on the truth may give them pointwise)."""

    @abstractmethod
    def choice_region(self, game: ChoiceGame) -> Region:
        """Where a chooser with that estimate takes Red."""

    @abstractmethod
    def bid(self, game: SealedBidGame) -> BidRule:
        """A player's sealed bid as a function of their estimate, or a mixed rule on a grid
        (:class:`~knockout.rules.gridgames.MixedBids`)."""

    @abstractmethod
    def cut(self, game: CutChooseGame) -> CutRuleLike:
        """Cut-and-choose: the cutter's cut and the chooser's threshold (:class:`CutRule`), or
        a mixed rule on a grid (:class:`~knockout.rules.gridgames.MixedCut`)."""

    # --- derived -----------------------------------------------------------------------------

    def bid_rule(self, game: SealedBidGame) -> BidRule:
        """The sealed-bid rule that decides (a private kind without noise: the rational one)."""
        return self._rules().bid(game)

    def cut_rule(self, game: CutChooseGame) -> CutRuleLike:
        """The cut-and-choose rule that decides (a private kind without noise: the rational
        one)."""
        return self._rules().cut(game)

    def vector_regions(self, game: BiddingGame) -> dict[str, FloatArray] | None:
        """:meth:`regions` on private estimates for a vectorised model (one set of constants
        per pair): padded bounds per set (:func:`vector_bounds`), for a kind whose regions are
        the rational rule's (:attr:`rational_regions`); None where the regions need one model
        at a time (rules on the truth need none: they are pointwise)."""
        return game.vector_regions if self.rational_regions else None

    def vector_choice_region(self, game: ChoiceGame) -> FloatArray | None:
        """:meth:`choice_region` on private estimates for a vectorised model, or None."""
        return game.vector_red_region if self.rational_regions else None

    @property
    def vectorises(self) -> bool:
        """Whether its exact decision probabilities take a vectorised model (one set of
        constants per pair): decisions on the truth (pointwise), and the private kinds whose
        regions are the rational rule's."""
        return self.noise == 0 or self.rational_regions

    @property
    def noise(self) -> float:
        """The sd of each player's estimate error (0: players decide on the truth)."""
        return self.belief_sd if self.private else 0.0

    @property
    def is_deterministic(self) -> bool:
        """True if decisions depend only on the true ratings (so can be computed per pairing)."""
        return self.noise == 0

    def _rules(self) -> Strategy:
        """Whose hooks decide: a private kind without noise knows the truth, so it decides as
        the rational rule does (pointwise, for many pairs and model constants at once)."""
        return Rational(self.belief_sd) if self.private and self.noise == 0 else self

    def to_dict(self) -> dict[str, object]:
        """The scenario-file ``[strategy]`` table."""
        return {"kind": self.kind, "belief_sd": self.belief_sd}

    def _mass(self, region: Region, x: npt.ArrayLike) -> FloatArray:
        """P(the deciding player's estimate of ``x`` lies in ``region``)."""
        if self.noise == 0:
            return region.contains(x).astype(np.float64)
        return _intervals(region).normal_mass(x, self.noise)

    def _beliefs(self, x: npt.ArrayLike, rng: np.random.Generator) -> FloatArray:
        x_arr = np.asarray(x, dtype=np.float64)
        return x_arr + rng.normal(0.0, self.noise, size=x_arr.shape)

    def probabilities(self, game: BiddingGame, x: npt.ArrayLike) -> BidProbabilities:
        """Exact decision probabilities when 甲's true rating advantage is ``x`` (a vectorised
        model with private estimates: each pair's regions under its own constants,
        :meth:`vector_regions`)."""
        if game.model.size is not None and self.noise > 0:
            b = self.vector_regions(game)
            if b is None:
                raise ValueError(f"{self.kind} decisions need one model at a time")
            return BidProbabilities(
                bounds_mass(b["announce_red"], x, self.noise),
                bounds_mass(b["object_red"], x, self.noise),
                bounds_mass(b["object_black"], x, self.noise),
            )
        r = self._rules().regions(game)
        return BidProbabilities(
            self._mass(r["announce_red"], x),
            self._mass(r["object_red"], x),
            self._mass(r["object_black"], x),
        )

    def sample(self, game: BiddingGame, x: npt.ArrayLike, rng: np.random.Generator) -> BidSample:
        """Draw decisions for matches whose true advantages are ``x`` (consumes ``rng`` only
        when players decide on estimates)."""
        x_arr = np.asarray(x, dtype=np.float64)
        if self.noise == 0:
            r = self._rules().regions(game)
            red = r["announce_red"].contains(x_arr)
            objects = np.where(
                red, r["object_red"].contains(x_arr), r["object_black"].contains(x_arr)
            )
            return BidSample(red, np.asarray(objects))
        return self.sampler(game).sample(x_arr, rng)

    def sampler(self, game: BiddingGame) -> DecisionSampler:
        """The decisions for ``game`` as a self-contained array sampler (the Monte Carlo kernel
        builds it once per table): the regions, searched per belief."""
        if self.noise == 0:
            return StrategySampler(self, game)
        regions = {k: _intervals(v) for k, v in self._rules().regions(game).items()}
        return BeliefSampler.of(regions, self.noise)

    def samplers(self, games: Sequence[BiddingGame]) -> list[DecisionSampler]:
        """``[self.sampler(game) for game in games]`` for games that differ only in their
        constants: a kind whose regions are the rational rule's finds every game's regions
        together (:func:`rational_regions_of`, the same regions bit for bit)."""
        if self.noise == 0 or not self.rational_regions or len(games) < 2:
            return [self.sampler(game) for game in games]
        found = rational_regions_of(games)
        return [
            BeliefSampler.of({k: _intervals(v) for k, v in r.items()}, self.noise) for r in found
        ]

    def choice_probability(self, game: ChoiceGame, x: npt.ArrayLike) -> FloatArray:
        """P(the chooser takes Red) when the chooser's true advantage is ``x``."""
        if game.model.size is not None and self.noise > 0:
            b = self.vector_choice_region(game)
            if b is None:
                raise ValueError(f"{self.kind} decisions need one model at a time")
            return bounds_mass(b, x, self.noise)
        return self._mass(self._rules().choice_region(game), x)

    def choice_sample(
        self, game: ChoiceGame, x: npt.ArrayLike, rng: np.random.Generator
    ) -> BoolArray:
        """Draw the chooser's colour (True = Red) for matches whose true advantages are ``x``."""
        region = self._rules().choice_region(game)
        return region.contains(x if self.noise == 0 else self._beliefs(x, rng))

    def sealed_bids(
        self, game: SealedBidGame, x: npt.ArrayLike, rng: np.random.Generator
    ) -> tuple[FloatArray, FloatArray]:
        """A's and B's sealed bids when A's true advantage is ``x`` (on private estimates: each
        bids on their own, A's drawn first)."""
        bid = self.bid_rule(game)
        x_arr = np.asarray(x, dtype=np.float64)
        if not callable(bid):  # a mixed rule: each draws an estimate, a bid cell, a point
            a = bid.sample(x_arr.ravel(), rng).reshape(x_arr.shape)
            return a, bid.sample(-x_arr.ravel(), rng).reshape(x_arr.shape)
        if self.noise == 0:
            b = np.asarray(bid(x_arr), dtype=np.float64)
            return b, b.copy()
        a = bid(self._beliefs(x_arr, rng))
        return a, bid(self._beliefs(x_arr, rng))

    def sealed_bid_advances(self, game: SealedBidGame, x: npt.ArrayLike) -> FloatArray:
        """Exact P(A advances) in the sealed-bid game."""
        bid = self.bid_rule(game)
        if not callable(bid):
            from knockout.rules.gridgames import sealed_advances  # noqa: PLC0415

            return sealed_advances(game, bid, x)
        if self.noise == 0:
            b = np.asarray(bid(np.asarray(x, dtype=np.float64)), dtype=np.float64)
            return game.a_advances(x, b, b)
        return game.believed_a_advances(x, self.noise, bid=bid)

    def black_clock(self, game: SealedBidGame, x: float) -> tuple[FloatArray, FloatArray]:
        """The distribution of Black's clock (the lower bid at first price, the higher at
        second) when A's advantage is ``x``: values and probabilities."""
        rule = self.bid_rule(game)
        if not callable(rule):
            from knockout.rules.gridgames import black_clock  # noqa: PLC0415

            return black_clock(game, rule, x)
        if self.noise == 0:
            return np.atleast_1d(rule(np.asarray(x, dtype=np.float64))), np.ones(1)
        return game.believed_lower_bid(x, self.noise, bid=rule)

    def expected_black_minutes(self, game: SealedBidGame, x: npt.ArrayLike) -> FloatArray:
        """E[Black's clock] in the sealed-bid game (on the truth, both bid the same: that
        bid)."""
        rule = self.bid_rule(game)
        if self.noise == 0 and callable(rule):
            bids = rule(np.asarray(x, dtype=np.float64))
            shape = np.broadcast_shapes(np.shape(x), np.shape(bids))
            return np.asarray(bids, dtype=np.float64).reshape(shape)
        x_arr = np.atleast_1d(np.asarray(x, dtype=np.float64))
        clocks = (self.black_clock(game, float(xi)) for xi in x_arr)
        means = [float(np.sum(v * p)) for v, p in clocks]
        return np.asarray(means, dtype=np.float64).reshape(np.shape(x))

    def cut_advances(self, game: CutChooseGame, x: npt.ArrayLike) -> FloatArray:
        """Exact P(the cutter advances) when the cutter's true advantage is ``x``."""
        rule = self.cut_rule(game)
        if not isinstance(rule, CutRule):
            from knockout.rules.gridgames import cut_advances  # noqa: PLC0415

            return cut_advances(game, rule, x)
        x_arr = np.asarray(x, dtype=np.float64)
        if self.noise == 0:
            cut = rule.cut(x_arr)
            return game.cutter_advances(x_arr, cut, rule.takes_red(-x_arr, cut))
        flat = np.atleast_1d(x_arr)
        cuts, mass = self._cuts(rule, flat)
        q = self.chooser_red_given(game, -flat[:, None], cuts)
        xb = flat[:, None]
        value = q * game.cutter_advances(xb, cuts, True)
        value += (1 - q) * game.cutter_advances(xb, cuts, False)
        return np.asarray(value @ mass, dtype=np.float64).reshape(np.shape(x))

    def _cuts(self, rule: CutRule, x: FloatArray) -> tuple[FloatArray, FloatArray]:
        """Cuts on a grid of the cutter's estimates around each ``x`` (``(n, cells)``) and the
        cells' Normal masses (801 cells over +-8 sd)."""
        edges = np.linspace(-8.0, 8.0, 802)
        mass = np.diff(ndtr(edges))
        z = 0.5 * (edges[:-1] + edges[1:])
        return rule.cut(x[:, None] + self.noise * z), mass / mass.sum()

    def cut_distribution(self, game: CutChooseGame, x: float) -> tuple[FloatArray, FloatArray]:
        """The cuts a pure cutter whose true advantage is ``x`` names: values and
        probabilities (on the truth: one cut)."""
        rule = self.cut_rule(game)
        if not isinstance(rule, CutRule):
            raise TypeError("a mixed cut has no list of cuts: read its cells (MixedCut)")
        if self.noise == 0:
            return np.atleast_1d(rule.cut(np.asarray(x, dtype=np.float64))), np.ones(1)
        cuts, mass = self._cuts(rule, np.array([x], dtype=np.float64))
        return cuts[0], mass

    def chooser_red_given(
        self, game: CutChooseGame, z: npt.ArrayLike, cut: npt.ArrayLike
    ) -> FloatArray:
        """P(a pure chooser takes Red) given its true advantage ``z`` and the cut (broadcast):
        its estimate within the rule's threshold of zero."""
        rule = self.cut_rule(game)
        if not isinstance(rule, CutRule):
            raise TypeError("a mixed chooser's reply is read off its table (MixedCut)")
        z_arr = np.asarray(z, dtype=np.float64)
        r = np.asarray(cut, dtype=np.float64)
        if self.noise == 0:
            return np.asarray(rule.takes_red(z_arr, r), dtype=np.float64)
        c = rule.threshold(r)
        inside = ndtr((c - z_arr) / self.noise) - ndtr((-c - z_arr) / self.noise)
        return np.asarray(np.where(c >= 0, inside, 0.0), dtype=np.float64)

    def cut_sample(
        self, game: CutChooseGame, x: npt.ArrayLike, rng: np.random.Generator
    ) -> tuple[FloatArray, BoolArray]:
        """Draw the cuts (Red's minutes) and the chooser's colours (True = Red) for matches
        whose cutters' true advantages are ``x`` (on estimates: the cutter's drawn first, then
        the chooser's; a mixed rule draws each player's estimate, then its cell, then a point)."""
        rule = self.cut_rule(game)
        x_arr = np.asarray(x, dtype=np.float64)
        if not isinstance(rule, CutRule):
            cut, cell = rule.sample_cut(x_arr.ravel(), rng)
            red = rule.sample_red(-x_arr.ravel(), cell, rng)
            return cut.reshape(x_arr.shape), red.reshape(x_arr.shape)
        if self.noise == 0:
            cut = rule.cut(x_arr)
            return cut, rule.takes_red(-x_arr, cut)
        cut = rule.cut(self._beliefs(x_arr, rng))
        chooser = self._beliefs(-x_arr, rng)
        return cut, np.asarray(np.abs(chooser) <= rule.threshold(cut))

    def expected_cut(self, game: CutChooseGame, x: npt.ArrayLike) -> FloatArray:
        """E[Red's minutes] in the cut-and-choose game."""
        rule = self.cut_rule(game)
        x_arr = np.atleast_1d(np.asarray(x, dtype=np.float64))
        if not isinstance(rule, CutRule):
            mid = 0.5 * (rule.edges[1:] + rule.edges[:-1])
            return np.asarray(rule.cut_cells(x_arr) @ mid, dtype=np.float64).reshape(np.shape(x))
        if self.noise == 0:
            return np.asarray(rule.cut(np.asarray(x, dtype=np.float64)), dtype=np.float64)
        cuts, mass = self._cuts(rule, x_arr)
        return np.asarray(cuts @ mass, dtype=np.float64).reshape(np.shape(x))


@dataclass(frozen=True)
class Rational(Strategy):
    """Both players know the model and the true ratings: the rational rule at the truth,
    pointwise (so it holds for many pairs and model constants at once), and the indifference
    bid."""

    kind: ClassVar[str] = "rational"

    def regions(self, game: BiddingGame) -> Mapping[str, Region]:
        return {
            "announce_red": PointRule(game.rational_announces_red),
            "object_red": PointRule(functools.partial(game.rational_objects, Colour.RED)),
            "object_black": PointRule(functools.partial(game.rational_objects, Colour.BLACK)),
        }

    def choice_region(self, game: ChoiceGame) -> Region:
        return PointRule(game.rational_red)

    def bid(self, game: SealedBidGame) -> Callable[[FloatArray], FloatArray]:
        return game.rational_bid

    def cut(self, game: CutChooseGame) -> CutRule:
        """The cut that leaves the chooser indifferent; the chooser's better colour."""
        return CutRule(
            game.rational_cut, functools.partial(game.chooser_threshold, sd=0.0), game.rational_red
        )


_EVERYWHERE = Regions(((-math.inf, math.inf),))
_NOWHERE = Regions(())


@dataclass(frozen=True)
class Naive(Strategy):
    """甲 always announces Red and 乙 always accepts; a chooser takes Red; both bid half of
    Red's clock."""

    kind: ClassVar[str] = "naive"

    def regions(self, game: BiddingGame) -> Mapping[str, Region]:
        return {"announce_red": _EVERYWHERE, "object_red": _NOWHERE, "object_black": _NOWHERE}

    def choice_region(self, game: ChoiceGame) -> Region:
        return _EVERYWHERE

    def bid(self, game: SealedBidGame) -> Callable[[FloatArray], FloatArray]:
        return lambda y: np.full(np.shape(y), game.naive_bid)

    def cut(self, game: CutChooseGame) -> CutRule:
        """The cutter names the fair split of equal players; the chooser takes Red."""
        return CutRule(
            game.fair_cuts,
            lambda r: np.full(np.shape(r), np.inf),
        )


@dataclass(frozen=True)
class _PrivateBeliefs(Strategy):
    """Decisions taken on private, noisy estimates of the rating difference: each player's
    estimate is the truth plus their own ``Normal(0, belief_sd)`` error, drawn independently per
    player and per match. Every decision is a threshold rule in one player's estimate, so its
    exact probability is a Normal mass over decision regions."""

    private: ClassVar[bool] = True


@dataclass(frozen=True)
class Believed(_PrivateBeliefs):
    """Rational play on private, noisy beliefs: each player takes their estimate for the truth.

    The regions are the rational rule's own (:attr:`BiddingGame.regions`).
    """

    kind: ClassVar[str] = "believed"
    rational_regions: ClassVar[bool] = True

    def regions(self, game: BiddingGame) -> Mapping[str, Regions]:
        return game.regions

    def choice_region(self, game: ChoiceGame) -> Regions:
        return game.red_region

    def bid(self, game: SealedBidGame) -> Callable[[FloatArray], FloatArray]:
        return game.rational_bid

    def cut(self, game: CutChooseGame) -> CutRule:
        return CutRule(game.rational_cut, functools.partial(game.chooser_threshold, sd=0.0))


@dataclass(frozen=True)
class Bayesian(_PrivateBeliefs):
    """The same private estimates as ``believed``, but a player does not take their estimate for
    the truth: given an estimate ``e`` they hold the truth to be ``Normal(e, belief_sd)`` and pick
    the option with the higher expected chance (:func:`bayesian_regions`: 甲 also averages over
    乙's reply, knowing 乙 decides the same way from the truth plus 乙's own noise).
    """

    kind: ClassVar[str] = "bayesian"

    def regions(self, game: BiddingGame) -> Mapping[str, Regions]:
        return bayesian_regions(game, self.belief_sd)

    def choice_region(self, game: ChoiceGame) -> Regions:
        return bayesian_choice_region(game, self.belief_sd)

    def bid(self, game: SealedBidGame) -> Callable[[FloatArray], FloatArray]:
        return functools.partial(game.bayesian_bid, belief_sd=self.belief_sd)

    def cut(self, game: CutChooseGame) -> CutRule:
        """The cut with the highest expected chance, over the truth around the estimate and the
        chooser's reply (a Bayesian chooser on its own estimate); the chooser takes the colour
        with the higher expected chance on its own posterior."""
        return CutRule(
            functools.partial(game.bayesian_cut, sd=self.belief_sd),
            functools.partial(game.chooser_threshold, sd=self.belief_sd),
        )


@dataclass(frozen=True)
class Equilibrium(_PrivateBeliefs):
    """Equilibrium play on the same private estimates: in the bidding rule a perfect Bayesian
    equilibrium in thresholds, 乙 updating on 甲's announcement
    (:func:`knockout.rules.equilibrium.bidding_equilibrium`); in a colour choice, the chooser's
    Bayesian choice (its only decision); in the sealed bids and cut-and-choose the (possibly
    mixed) equilibrium of :mod:`knockout.rules.gridgames`. With ``belief_sd = 0`` every decision
    is the rational one.
    """

    kind: ClassVar[str] = "equilibrium"

    def regions(self, game: BiddingGame) -> Mapping[str, Regions]:
        from knockout.rules.equilibrium import bidding_equilibrium  # noqa: PLC0415

        return bidding_equilibrium(game, self.belief_sd).regions

    def choice_region(self, game: ChoiceGame) -> Regions:
        return bayesian_choice_region(game, self.belief_sd)

    def bid(self, game: SealedBidGame) -> MixedBids:
        """The symmetric equilibrium of the sealed bids on the grid (it may mix)."""
        from knockout.rules.gridgames import sealed_equilibrium  # noqa: PLC0415

        return sealed_equilibrium(game, self.belief_sd)

    def cut(self, game: CutChooseGame) -> MixedCut:
        """The equilibrium of cut-and-choose on the grid (it may mix)."""
        from knockout.rules.gridgames import cut_equilibrium  # noqa: PLC0415

        return cut_equilibrium(game, self.belief_sd)


STRATEGIES: Mapping[str, type[Strategy]] = {
    Rational.kind: Rational,
    Naive.kind: Naive,
    Believed.kind: Believed,
    Bayesian.kind: Bayesian,
    Equilibrium.kind: Equilibrium,
}


def get_strategy(kind: str, *, belief_sd: float = 100.0) -> Strategy:
    """The strategy called ``kind``.

    Raises:
        ValueError: For an unknown kind or a negative ``belief_sd``.
    """
    if kind not in STRATEGIES:
        raise ValueError(f"unknown strategy: {kind!r} (known: {', '.join(STRATEGIES)})")
    if not (math.isfinite(belief_sd) and belief_sd >= 0):
        raise ValueError(f"belief_sd must be a number >= 0, got {belief_sd}")
    return STRATEGIES[kind](belief_sd)
