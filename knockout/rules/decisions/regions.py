"""Decision regions: where a rule holds, as intervals of a rating difference or pointwise.

Every strategy's decision is a region of a player's estimate of the rating difference
(:class:`Regions`, or a :class:`PointRule` at the truth). This module holds the regions, their
Normal masses and the searches that find their ends: on a 1-Elo grid for one model
(:func:`regions_where`), and for vectorised models on a coarser grid refined by bisection
(:func:`vector_bounds`).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from knockout.arrays import BoolArray, FloatArray
from knockout.rules.model.normal import gauss_hermite, ndtr
from knockout.rules.model.strength import (
    ModelParams,
    TimeClass,
)

__all__ = [
    "PointRule",
    "Region",
    "Regions",
    "expect",
    "inside",
]

#: Believed differences are searched for thresholds on [-REGION_SPAN, REGION_SPAN] Elo; beyond it
#: every outcome probability is within 1e-7 of 0 or 1 and decisions are taken as constant.
REGION_SPAN = 3000.0


GRID_STEP = 1.0


def expect(f: Callable[[FloatArray], FloatArray], e: npt.ArrayLike, sd: float) -> FloatArray:
    """``E[f(X)]`` for ``X ~ Normal(e, sd)``, broadcast over ``e`` (``sd = 0``: ``f(e)``), by
    48-node Gauss-Hermite (:func:`~knockout.rules.model.normal.gauss_hermite`: exact for polynomials
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
            # an infinite end's mass is exactly ndtr's there, 1 or 0, without computing it
            upper = 1.0 if hi == math.inf else ndtr((hi - m) / sd)
            lower = 0.0 if lo == -math.inf else ndtr((lo - m) / sd)
            total = total + upper - lower
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


def as_intervals(region: Region) -> Regions:
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
    on a :data:`VECTOR_STEP`-Elo grid over ``[-REGION_SPAN, REGION_SPAN]`` (:func:`regions_where`,
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


def bounds_mass(bounds: FloatArray, mean: npt.ArrayLike, sd: float) -> FloatArray:
    """P(Normal(mean, sd) lies in the regions) for padded bounds ``(n, 2 J)`` and ``mean``
    broadcast to ``(n,)`` (the vectorised :meth:`Regions.normal_mass`)."""
    m = np.asarray(mean, dtype=np.float64)[..., None]
    lo, hi = bounds[:, 0::2], bounds[:, 1::2]
    total = np.sum(ndtr((hi - m) / sd) - ndtr((lo - m) / sd), axis=-1)
    return np.asarray(np.clip(total, 0.0, 1.0), dtype=np.float64)


#: Switch points are refined to SWITCH_XTOL + SWITCH_RTOL * |x| Elo (far below any rating's
#: precision: a region's Normal mass moves by less than 1e-11).
SWITCH_XTOL = 1e-9
SWITCH_RTOL = 1e-15


def regions_of_cuts(inside_first: bool, cuts: Sequence[float]) -> Regions:
    """The intervals of :func:`regions_where` from the grid's first decision and the switches."""
    edges = [-np.inf, *cuts, np.inf]
    state = inside_first
    intervals: list[tuple[float, float]] = []
    for lo_edge, hi_edge in itertools.pairwise(edges):
        if state:
            intervals.append((float(lo_edge), float(hi_edge)))
        state = not state
    return Regions(tuple(intervals))


def regions_where(
    grid: FloatArray, inside: BoolArray, f: Callable[[FloatArray], FloatArray]
) -> Regions:
    """Intervals where ``inside`` holds, with each switch point refined as a root of ``f`` (an
    elementwise function: :func:`switch_points`)."""
    switches = np.flatnonzero(inside[1:] != inside[:-1])
    cuts = switch_points(lambda y, _: f(y), grid[switches], grid[switches + 1])
    return regions_of_cuts(bool(inside[0]), cuts.tolist())


def switch_points(
    f: Callable[[FloatArray, npt.NDArray[np.intp]], FloatArray], lo: FloatArray, hi: FloatArray
) -> FloatArray:
    """Each switch of a decision between ``lo`` and ``hi``, where ``f`` (whose sign is the
    decision) is evaluated as ``f(y, index)``: the functions ``index`` (positions in ``lo``) at
    ``y``, elementwise. An end where ``f`` is 0 there; where ``f`` does not change sign (the
    decision flips with a jump at the end), the cell's midpoint, or its upper end if ``f`` is 0
    there (the cell's mass is negligible); else ``f``'s root, by scipy's elementwise root
    finder, all at once, to :data:`SWITCH_XTOL` Elo.

    Each root depends only on its own function and cell, so a search of many cells together
    finds what each cell's search alone finds, bit for bit.

    Raises:
        RuntimeError: If a root is not found.
    """
    if lo.size == 0:
        return np.zeros(0)
    everyone = np.arange(lo.size)
    f_lo, f_hi = f(lo, everyone), f(hi, everyone)
    out = np.where(f_hi != 0.0, 0.5 * (lo + hi), hi)
    out = np.where(f_lo == 0.0, lo, out)
    at = np.flatnonzero((f_lo != 0.0) & (f_hi != 0.0) & (np.sign(f_lo) != np.sign(f_hi)))
    if at.size:
        # scipy.optimize loads when a search needs it, not when a short command starts
        from scipy.optimize import elementwise  # noqa: PLC0415 (start-up: scipy.optimize)

        found = elementwise.find_root(
            lambda y, index: f(y, at[index.astype(np.intp)]),
            (lo[at], hi[at]),
            args=(np.arange(at.size, dtype=np.float64),),
            tolerances={"xatol": SWITCH_XTOL, "xrtol": SWITCH_RTOL},
        )
        if not np.all(found.success):
            raise RuntimeError("a switch point of a decision was not found")
        out[at] = found.x
    return np.asarray(out, dtype=np.float64)


def threshold_regions(f: Callable[[FloatArray], FloatArray], sd: float, *, strict: bool) -> Regions:
    """Where ``E[f(X)]`` over ``X ~ Normal(e, sd)`` is below zero (``strict``) or at least zero
    (not ``strict``), as regions in ``e``: the sign is read on the 1-Elo grid and each switch is
    refined to 1e-9 Elo (:func:`switch_points`) on the Gauss-Hermite expectation."""
    grid = np.arange(-REGION_SPAN, REGION_SPAN + GRID_STEP, GRID_STEP)
    smooth = expect(f, grid, sd)
    inside = smooth < 0 if strict else smooth >= 0
    return regions_where(grid, inside, lambda e: expect(f, e, sd))
