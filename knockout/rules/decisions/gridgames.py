"""Equilibria of the sealed bids and of cut-and-choose, on a grid, by regret matching.

In these games a player's action is a clock (a bid of Black's minutes, or the Red minutes a
cutter names), and best-response iteration does not settle: in a first-price sealed bid the
types whose bids are close undercut each other, in cut-and-choose the chooser reads the cut and
the cutter then hides behind a neighbouring one, round after round. So each game is solved as a
finite zero-sum game on a grid and the equilibrium is allowed to mix:

* a player's estimate (of their own rating advantage: the truth plus ``Normal(0, sd)``, a flat
  prior) is read to a cell of :attr:`Lattice.cell` Elo (a quarter of ``sd``, at least
  :data:`MIN_CELL`), over ``[-SPAN, SPAN]`` (an estimate beyond counts as the last cell);
* a clock is chosen as a cell of the clock axis (sealed bids: :data:`BID_CELL` minutes, halved
  where a point bid at a cell's edge would pay, and the least bid a cell of its own, of width 0;
  cuts: cells growing with the cut, :data:`CUT_RATIO`) and drawn uniformly within it, so the
  clock is a real number and ties (a lot) have probability 0 except at the least bid and within
  one cell, where each of two uniform draws is the lower with probability 1/2;
* a strategy gives each estimate cell a distribution over clock cells; the payoff of a pair of
  cells is its exact expectation (3-point Gauss-Legendre in each cell);
* the equilibrium is found by predictive regret matching (PRM+) with quadratically weighted
  averages, in self-play for the symmetric sealed bids and alternating for cut-and-choose, a
  method that converges in zero-sum games; in cut-and-choose the chooser's reply to a cut no
  cutter type names is the reply on its own posterior (no update), as the model says;
* it stops once no type gains more than :data:`TARGET` by any clock cell (checked every 50
  rounds) or after :data:`MAX_ROUNDS`, and reports the gain reached.

A type that mixes over several neighbouring cells is how a grid approximates a bid that lies
between its points; a type that mixes over cells far apart is a genuinely mixed equilibrium.
:attr:`MixedBids.pure` says which (see :func:`spread`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

import numpy as np
import numpy.typing as npt
from scipy.special import ndtr
from threadpoolctl import threadpool_limits

from knockout.arrays import FloatArray, IntArray
from knockout.rules.decisions.cut import CutChooseGame
from knockout.rules.decisions.sealed import SealedBidGame

__all__ = [
    "BID_CELL",
    "CUT_RATIO",
    "MAX_ROUNDS",
    "MIN_CELL",
    "REFINEMENTS",
    "SPAN",
    "TARGET",
    "Lattice",
    "MixedBids",
    "MixedCut",
    "black_clock",
    "cut_advances",
    "cut_equilibrium",
    "sealed_advances",
    "sealed_equilibrium",
    "sealed_payoff_cells",
    "spread",
]

Price = Literal["first", "second"]

#: Estimates are read on ``[-SPAN, SPAN]`` Elo.
SPAN = 1500.0
#: The smallest estimate cell (Elo).
MIN_CELL = 10.0
#: Estimate cells per belief sd.
CELLS_PER_SD = 4.0
#: The x lattice reaches this many sd beyond the estimate range.
MARGIN_SD = 7.0
#: Width of a sealed bid's cell (minutes).
BID_CELL = 0.1
#: A cut cell is this much wider than the one below it (0.2 minute at 25 minutes).
CUT_RATIO = 1.008
#: Stop once no type gains more than this (a share of its chance in the decisive game).
TARGET = 2e-5
#: Most rounds of regret matching (in each refinement of the sealed bids' cells).
MAX_ROUNDS = 2000
#: Most halvings of a sealed bid's cells (where a point bid at an edge pays).
REFINEMENTS = 4
_CHECK_EVERY = 50
#: Gauss-Legendre nodes on [0, 1] (3 points: exact for polynomials of degree 5).
_GL_U, _GL_W = np.polynomial.legendre.leggauss(3)
_GL_U, _GL_W = (_GL_U + 1) / 2, _GL_W / 2


@dataclass(frozen=True)
class Lattice:
    """Estimate cells and the lattice of true advantages for a belief sd.

    Attributes:
        sd: The belief sd (Elo).
    """

    sd: float

    @functools.cached_property
    def cell(self) -> float:
        """Width of an estimate cell (Elo)."""
        return max(MIN_CELL, self.sd / CELLS_PER_SD)

    @functools.cached_property
    def centers(self) -> FloatArray:
        """Estimate cell centres, symmetric about 0."""
        half = int(np.ceil(SPAN / self.cell))
        return np.arange(-half, half + 1, dtype=np.float64) * self.cell

    @functools.cached_property
    def inner_edges(self) -> FloatArray:
        """The edges between neighbouring cells (the end cells reach to infinity)."""
        return 0.5 * (self.centers[1:] + self.centers[:-1])

    @functools.cached_property
    def xs(self) -> FloatArray:
        """The lattice of true advantages, beyond the estimate range by MARGIN_SD sd."""
        half = int(np.ceil((SPAN + MARGIN_SD * self.sd) / self.cell))
        return np.arange(-half, half + 1, dtype=np.float64) * self.cell

    def cell_mass(self, mean: npt.ArrayLike) -> FloatArray:
        """P(the estimate falls in each cell) for estimates ``Normal(mean, sd)``: shape
        ``mean.shape + (cells,)``."""
        m = np.asarray(mean, dtype=np.float64)[..., None]
        cdf = ndtr((self.inner_edges - m) / self.sd)
        ones = np.ones((*cdf.shape[:-1], 1))
        full = np.concatenate([np.zeros_like(ones), cdf, ones], axis=-1)
        return np.asarray(np.clip(np.diff(full, axis=-1), 0.0, 1.0), dtype=np.float64)

    def cell_of(self, estimate: npt.ArrayLike) -> IntArray:
        """The cell of each estimate."""
        return np.asarray(np.searchsorted(self.inner_edges, estimate, side="right"), np.intp)

    @functools.cached_property
    def posterior(self) -> FloatArray:
        """``(cells, xs)``: a type's belief over the lattice of true advantages (flat prior:
        proportional to P(its cell | x))."""
        w = self.cell_mass(self.xs).T
        return np.asarray(w / w.sum(axis=1, keepdims=True), dtype=np.float64)


def _cell_average(
    f: Callable[[FloatArray], FloatArray], lo: FloatArray, hi: FloatArray
) -> FloatArray:
    """``E[f(U)]`` for U uniform on each cell ``[lo, hi]`` (``f`` broadcasts over a new last
    axis of nodes)."""
    t = lo[..., None] + (hi - lo)[..., None] * _GL_U
    return np.asarray(np.sum(f(t) * _GL_W, axis=-1), dtype=np.float64)


def _tie_average(
    f: Callable[[FloatArray], FloatArray], lo: FloatArray, hi: FloatArray, lower: bool
) -> FloatArray:
    """``E[f(min(U, V))]`` (``lower``) or ``E[f(max(U, V))]`` for two uniforms on each cell:
    the densities ``2(1 - u)`` and ``2u`` on [0, 1], by 3-point Gauss-Legendre on f(u) times
    the density (exact for f of degree 4)."""
    density = 2 * (1 - _GL_U) if lower else 2 * _GL_U
    t = lo[..., None] + (hi - lo)[..., None] * _GL_U
    return np.asarray(np.sum(f(t) * _GL_W * density, axis=-1), dtype=np.float64)


# --- sealed bids -------------------------------------------------------------------------


def sealed_payoff_cells(
    game: SealedBidGame, x: FloatArray, edges: FloatArray
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """A bidder's cell payoffs at true advantages ``x`` (shape ``(n,)``), each ``(n, cells)``:

    * ``win[a]``: its bid in cell ``a`` is the lower, against a higher bid: Black, on its own
      bid (first price: the average over cell ``a``) or on the other's (second price: this is
      then the value of *the other's* cell ``a`` being the higher);
    * ``lose[b]``: the other's bid in cell ``b`` is the lower, so it plays Red against Black on
      the other's bid (first price) or, second price, on its own bid in cell ``b``;
    * ``tie[a]``: both bids in cell ``a``: each is the lower with probability 1/2, Black on the
      lower (first price) or the higher (second price) of two uniform draws.
    """
    lo, hi = edges[:-1], edges[1:]
    xb = x[:, None, None]

    def black(t: FloatArray) -> FloatArray:
        return game.as_black(xb, t)

    def red(t: FloatArray) -> FloatArray:
        return game.as_red(xb, t)

    lo_n, hi_n = np.broadcast_to(lo, (len(x), len(lo))), np.broadcast_to(hi, (len(x), len(hi)))
    win = _cell_average(black, lo_n, hi_n)
    lose = _cell_average(red, lo_n, hi_n)
    first = game.price == "first"
    tie = 0.5 * (_tie_average(black, lo_n, hi_n, first) + _tie_average(red, lo_n, hi_n, first))
    return win, lose, tie


def _sealed_values(
    win: FloatArray, lose: FloatArray, tie: FloatArray, other: FloatArray, price: Price
) -> FloatArray:
    """``(n, cells)``: a bidder's chance bidding each cell against the other's cell
    distribution ``other`` ``(n, cells)`` (see :func:`sealed_payoff_cells`)."""
    cum = np.cumsum(other, axis=1)
    below = cum - other  # P(the other's cell is lower)
    above = 1.0 - cum  # P(the other's cell is higher)
    if price == "first":
        lose_below = np.cumsum(other * lose, axis=1) - other * lose
        return np.asarray(above * win + lose_below + other * tie, dtype=np.float64)
    wb = other * win
    win_above = wb.sum(axis=1, keepdims=True) - np.cumsum(wb, axis=1)
    return np.asarray(win_above + below * lose + other * tie, dtype=np.float64)


class _Regrets:
    """Predictive regret matching (PRM+) over the rows of a strategy table, with a
    quadratically weighted average strategy."""

    def __init__(self, start: FloatArray) -> None:
        self.strategy = start.copy()
        self.regret = np.zeros_like(start)
        self.total = np.zeros_like(start)
        self.weight = 0.0
        self.rounds = 0

    def update(self, values: FloatArray) -> None:
        instant = values - np.sum(values * self.strategy, axis=-1, keepdims=True)
        self.regret = np.maximum(self.regret + instant, 0.0)
        self.strategy = _matched(np.maximum(self.regret + instant, 0.0))
        self.rounds += 1
        w = float(self.rounds) ** 2
        self.total += w * self.strategy
        self.weight += w

    @property
    def average(self) -> FloatArray:
        return np.asarray(self.total / self.weight, dtype=np.float64)


def _matched(regret: FloatArray) -> FloatArray:
    total = regret.sum(axis=-1, keepdims=True)
    uniform = np.full_like(regret, 1.0 / regret.shape[-1])
    return np.asarray(np.where(total > 0, regret / np.where(total > 0, total, 1.0), uniform))


def spread(strategy: FloatArray, *, mass: float = 1e-3) -> IntArray:
    """For each row, the number of cells from the lowest to the highest holding at least
    ``mass``: 1 is a pure action, 2 a point between two neighbouring cells."""
    held = strategy >= mass
    first = np.argmax(held, axis=1)
    last = strategy.shape[1] - 1 - np.argmax(held[:, ::-1], axis=1)
    return np.asarray(last - first + 1, dtype=np.intp)


@dataclass(frozen=True)
class MixedBids:
    """A symmetric equilibrium of the sealed bids on the grid.

    Attributes:
        lattice: The estimate cells.
        edges: The bid cells' edges (minutes).
        table: ``(estimate cells, bid cells)``: each type's distribution over bid cells.
        price: ``first`` or ``second``.
        rounds: Rounds of regret matching (over every refinement).
        interim_gain: The most any type gains by any bid cell or any point bid at a cell edge
            (share of the decisive game).
        point_gain: The most any type gains by a point bid at a cell edge.
    """

    lattice: Lattice
    edges: FloatArray
    table: FloatArray
    price: Price
    rounds: int
    interim_gain: float
    point_gain: float = 0.0

    @property
    def finest_cell(self) -> float:
        """The narrowest bid cell (minutes; the floor's cell of width 0 aside)."""
        widths = np.diff(self.edges)
        return float(np.min(widths[widths > 0]))

    def cells(self, own_advantage: npt.ArrayLike) -> FloatArray:
        """A bidder's distribution over bid cells given its true advantage (its estimate
        averaged over): ``(n, bid cells)``."""
        x = np.atleast_1d(np.asarray(own_advantage, dtype=np.float64))
        return np.asarray(self.lattice.cell_mass(x) @ self.table, dtype=np.float64)

    def sample(self, own_advantage: npt.ArrayLike, rng: np.random.Generator) -> FloatArray:
        """Bids of players with these true advantages: an estimate, its cell's bid cell, then
        a uniform point of that cell (three draws per player, in that order)."""
        x = np.atleast_1d(np.asarray(own_advantage, dtype=np.float64))
        estimate = x + rng.normal(0.0, self.lattice.sd, size=x.shape)
        cdf = np.cumsum(self.table, axis=1)[self.lattice.cell_of(estimate)]
        cell = np.minimum((cdf < rng.random(x.shape)[:, None]).sum(axis=1), len(self.edges) - 2)
        lo, hi = self.edges[cell], self.edges[cell + 1]
        return np.asarray(lo + (hi - lo) * rng.random(x.shape), dtype=np.float64)

    @property
    def mean_bids(self) -> FloatArray:
        """Each type's expected bid."""
        mid = 0.5 * (self.edges[1:] + self.edges[:-1])
        return np.asarray(self.table @ mid, dtype=np.float64)

    @property
    def pure(self) -> bool:
        """Whether every type bids within two neighbouring cells (a point between them)."""
        return bool(np.all(spread(self.table) <= 2))


def _bid_edges(low: float, high: float) -> FloatArray:
    """The bid cells' edges: first the least bid itself (a cell of width 0: every type that
    bids the floor bids exactly it, and two such bids tie, to be settled by lot, as in the game
    itself), then cells of :data:`BID_CELL` minutes."""
    n = max(1, round((high - low) / BID_CELL))
    return np.concatenate([[low], np.linspace(low, high, n + 1)])


def _point_values(
    black: FloatArray,
    red: FloatArray,
    win: FloatArray,
    lose: FloatArray,
    other: FloatArray,
    price: Price,
) -> FloatArray:
    """``(n, edges)``: a bidder's chance bidding exactly each cell edge against the other's
    cell distribution ``other`` ``(n, cells)``; ``black``/``red`` ``(n, edges)`` are its chances
    as Black on the edge's minutes and as Red against Black on them (``win``/``lose`` as in
    :func:`sealed_payoff_cells`). An edge is above every cell below it and below every other."""
    zero = np.zeros((len(other), 1))
    below = np.concatenate([zero, np.cumsum(other, axis=1)], axis=1)
    if price == "first":  # the lower bid is Black's clock
        lose_below = np.concatenate([zero, np.cumsum(other * lose, axis=1)], axis=1)
        return np.asarray((1.0 - below) * black + lose_below, dtype=np.float64)
    won = np.concatenate([zero, np.cumsum(other * win, axis=1)], axis=1)
    return np.asarray(won[:, -1:] - won + below * red, dtype=np.float64)


def _split(edges: FloatArray, table: FloatArray, cells: IntArray) -> tuple[FloatArray, FloatArray]:
    """Halve ``cells``: the new edges, and the table with each halved cell's mass shared
    equally by its halves (the same strategy: a uniform draw in the cell)."""
    halve = np.zeros(len(edges) - 1, dtype=bool)
    halve[cells] = True
    counts = np.where(halve, 2, 1)
    mids = 0.5 * (edges[:-1] + edges[1:])[halve]
    new_edges = np.sort(np.concatenate([edges, mids]))
    new_table = np.repeat(table / counts, counts, axis=1)
    return new_edges, np.asarray(new_table, dtype=np.float64)


@functools.lru_cache(maxsize=32)
def sealed_equilibrium(game: SealedBidGame, sd: float) -> MixedBids:
    """The symmetric equilibrium of the sealed bids (see :func:`_sealed_equilibrium`)."""
    with threadpool_limits(limits=1, user_api="blas"):
        return _sealed_equilibrium(game, sd)


def _sealed_equilibrium(game: SealedBidGame, sd: float) -> MixedBids:
    """The symmetric equilibrium of the sealed bids (self-play PRM+ from the Bayesian bid),
    on bid cells refined where a point bid pays.

    A bidder's advantage is its own rating minus the other's: ``game.as_black(x, t)`` is its
    chance as Black on ``t`` minutes, ``game.as_red(x, t)`` as Red against Black on ``t``.

    A strategy draws its bid uniformly within a cell, so its chance is the average over the
    cell of a point bid's, and the point bid's chance is not flat across a cell where the other
    bids densely: a type's equilibrium on :data:`BID_CELL`-minute cells can be beaten by a
    point bid at a cell's edge (at second price by up to ~1e-3 of the decisive game at belief
    sd 200-300). So after each solve the chance of a point bid at every cell edge is computed
    for every type; the cells on either side of an edge that beats some type's equilibrium by
    more than :data:`TARGET` are halved (the strategy unchanged: each half holds half the
    mass) and the game is solved again from there, at most :data:`REFINEMENTS` times (cells
    down to ``BID_CELL / 2**REFINEMENTS``).
    """
    lattice = Lattice(sd)
    edges = _bid_edges(game.min_black_minutes, game.red_minutes)
    price = game.price
    other_mass = lattice.cell_mass(-lattice.xs)  # the other's cell, whose advantage is -x
    posterior = lattice.posterior
    start = game.bayesian_bid(lattice.centers, sd)
    first = np.clip(np.searchsorted(edges, start) - 1, 0, len(edges) - 2)
    table = np.zeros((len(lattice.centers), len(edges) - 1))
    table[np.arange(len(first)), first] = 1.0
    rounds = 0
    for level in range(REFINEMENTS + 1):
        win, lose, tie = sealed_payoff_cells(game, lattice.xs, edges)

        def values(
            t: FloatArray, cells: tuple[FloatArray, FloatArray, FloatArray] = (win, lose, tie)
        ) -> FloatArray:
            per_x = _sealed_values(*cells, other_mass @ t, price)
            return np.asarray(posterior @ per_x, dtype=np.float64)

        learner = _Regrets(table)
        gain = np.inf
        while learner.rounds < MAX_ROUNDS:
            learner.update(values(learner.strategy))
            if learner.rounds % _CHECK_EVERY == 0:
                avg = learner.average
                v = values(avg)
                gain = float(np.max(v.max(axis=1) - np.sum(v * avg, axis=1)))
                if gain <= TARGET:
                    break
        rounds += learner.rounds
        table = learner.average
        own = np.sum(values(table) * table, axis=1, keepdims=True)  # each type's chance
        xs = lattice.xs[:, None]
        black, red = game.as_black(xs, edges[None, :]), game.as_red(xs, edges[None, :])
        point = posterior @ _point_values(black, red, win, lose, other_mass @ table, price)
        edge_gain = np.max(point - own, axis=0)  # (edges,): the most any type gains there
        edge_gain[0] = -np.inf  # no bid lies below the floor (the floor itself is cell 0)
        point_gain = float(max(0.0, edge_gain.max()))
        paying = np.flatnonzero(edge_gain > TARGET)
        if len(paying) == 0 or level == REFINEMENTS:
            break
        cells = np.unique(np.clip(np.concatenate([paying - 1, paying]), 1, len(edges) - 2))
        edges, table = _split(edges, table, cells)
    return MixedBids(lattice, edges, table, price, rounds, max(gain, point_gain), point_gain)


def sealed_advances(game: SealedBidGame, eq: MixedBids, x: npt.ArrayLike) -> FloatArray:
    """Exact P(A advances) when both bid by ``eq`` (``x``: A's true advantage)."""
    x_arr = np.atleast_1d(np.asarray(x, dtype=np.float64))
    win, lose, tie = sealed_payoff_cells(game, x_arr, eq.edges)
    values = _sealed_values(win, lose, tie, eq.cells(-x_arr), game.price)
    return np.asarray(np.sum(eq.cells(x_arr) * values, axis=1)).reshape(np.shape(x))


def black_clock(game: SealedBidGame, eq: MixedBids, x: float) -> tuple[FloatArray, FloatArray]:
    """The distribution of Black's clock when both bid by ``eq``: quadrature points of the
    bid cells and their probabilities (the lower bid at first price, the higher at second)."""
    wa, wb = eq.cells(x)[0], eq.cells(-x)[0]
    lo, hi = eq.edges[:-1], eq.edges[1:]
    points = lo[:, None] + (hi - lo)[:, None] * _GL_U
    first = game.price == "first"
    # P(the other's cell is above / below each cell), for either bidder
    above_b, above_a = 1 - np.cumsum(wb), 1 - np.cumsum(wa)
    below_b, below_a = np.cumsum(wb) - wb, np.cumsum(wa) - wa
    # a cell holds Black's clock when its bid is the lower (first price) or the higher
    apart = wa * (above_b if first else below_b) + wb * (above_a if first else below_a)
    density = 2 * (1 - _GL_U) if first else 2 * _GL_U
    probs = apart[:, None] * _GL_W + (wa * wb)[:, None] * _GL_W * density
    return points.ravel(), probs.ravel()


# --- cut and choose ----------------------------------------------------------------------


@dataclass(frozen=True)
class MixedCut:
    """An equilibrium of cut-and-choose on the grid.

    Attributes:
        lattice: The estimate cells (each player's estimate of their own advantage).
        edges: The cut cells' edges (Red's minutes).
        cutter: ``(estimate cells, cut cells)``: each cutter type's distribution of cuts.
        chooser_red: ``(cut cells, estimate cells)``: P(the chooser takes Red) after a cut in
            that cell, by the chooser's estimate cell.
        on_path: ``(cut cells,)``: whether some cutter type names a cut in the cell (elsewhere
            the chooser replies on its own posterior).
        rounds: Rounds of regret matching.
        cutter_gain: The most any cutter type gains by any cut cell.
        chooser_gain: The most any chooser type gains by the other colour after a cut that is
            named (its chance given the cut, the cut's own rare types included).
    """

    lattice: Lattice
    edges: FloatArray
    cutter: FloatArray
    chooser_red: FloatArray
    on_path: npt.NDArray[np.bool_]
    rounds: int
    cutter_gain: float
    chooser_gain: float

    def cut_cells(self, cutter_advantage: npt.ArrayLike) -> FloatArray:
        """``(n, cut cells)``: the cut's cell given the cutter's true advantage."""
        x = np.atleast_1d(np.asarray(cutter_advantage, dtype=np.float64))
        return np.asarray(self.lattice.cell_mass(x) @ self.cutter, dtype=np.float64)

    def red_given(self, chooser_advantage: npt.ArrayLike) -> FloatArray:
        """``(n, cut cells)``: P(the chooser takes Red) after a cut in each cell, given the
        chooser's true advantage."""
        z = np.atleast_1d(np.asarray(chooser_advantage, dtype=np.float64))
        return np.asarray(self.lattice.cell_mass(z) @ self.chooser_red.T, dtype=np.float64)

    def sample_cut(
        self, cutter_advantage: npt.ArrayLike, rng: np.random.Generator
    ) -> tuple[FloatArray, IntArray]:
        """Cuts (minutes) and their cells: an estimate, its cut cell, a uniform point in it."""
        x = np.atleast_1d(np.asarray(cutter_advantage, dtype=np.float64))
        estimate = x + rng.normal(0.0, self.lattice.sd, size=x.shape)
        cdf = np.cumsum(self.cutter, axis=1)[self.lattice.cell_of(estimate)]
        cell = np.minimum((cdf < rng.random(x.shape)[:, None]).sum(axis=1), len(self.edges) - 2)
        lo, hi = self.edges[cell], self.edges[cell + 1]
        return np.asarray(lo + (hi - lo) * rng.random(x.shape)), np.asarray(cell, dtype=np.intp)

    def sample_red(
        self, chooser_advantage: npt.ArrayLike, cell: IntArray, rng: np.random.Generator
    ) -> npt.NDArray[np.bool_]:
        """The chooser's colour after cuts in ``cell``: an estimate, then its reply."""
        z = np.atleast_1d(np.asarray(chooser_advantage, dtype=np.float64))
        estimate = z + rng.normal(0.0, self.lattice.sd, size=z.shape)
        p = self.chooser_red[cell, self.lattice.cell_of(estimate)]
        return np.asarray(rng.random(z.shape) < p)

    @property
    def mean_cuts(self) -> FloatArray:
        """Each cutter type's expected cut."""
        mid = 0.5 * (self.edges[1:] + self.edges[:-1])
        return np.asarray(self.cutter @ mid, dtype=np.float64)

    @property
    def pure(self) -> bool:
        """Whether every cutter type names cuts within two neighbouring cells and every chooser
        type replies to every named cut with one colour."""
        chooser = self.chooser_red[self.on_path]
        mixed = (chooser > 1e-3) & (chooser < 1 - 1e-3)
        return bool(np.all(spread(self.cutter) <= 2) and not np.any(mixed))


def _cut_cell_payoffs(
    game: CutChooseGame, x: FloatArray, lo: FloatArray, hi: FloatArray
) -> tuple[FloatArray, FloatArray]:
    """The cutter's chance by cut cell ``[lo, hi]`` (uniform cuts) when the chooser takes Red
    and when it takes Black, at cutter advantages ``x`` (broadcast against a new last axis)."""
    t = lo[..., None] + (hi - lo)[..., None] * _GL_U
    red, black = game.cutter_both(x, t)
    return (
        np.asarray(np.sum(red * _GL_W, axis=-1), dtype=np.float64),
        np.asarray(np.sum(black * _GL_W, axis=-1), dtype=np.float64),
    )


def _cut_edges(game: CutChooseGame) -> FloatArray:
    """Cut cells from 3 minutes below the fair split to the rational cut of the widest gap
    read, each CUT_RATIO times wider than the one below."""
    low = max(game.min_red_minutes, game.fair_cut - 3.0)
    high = min(game.max_red_minutes, float(game.rational_cut(SPAN)) + 1.0)
    high = max(high, low + BID_CELL)
    n = max(1, int(np.ceil(np.log(high / low) / np.log(CUT_RATIO))))
    return np.asarray(low * (high / low) ** np.linspace(0.0, 1.0, n + 1), dtype=np.float64)


@dataclass(frozen=True)
class _CutProblem:
    """The cut-and-choose game on the lattice: cell payoffs and the players' cell masses."""

    game: CutChooseGame
    lattice: Lattice
    edges: FloatArray

    @functools.cached_property
    def payoffs(self) -> tuple[FloatArray, FloatArray]:
        """The cutter's chance by cut cell when the chooser takes Red / Black: ``(xs, cuts)``."""
        x = self.lattice.xs[:, None, None]
        n = len(self.lattice.xs)
        lo = np.broadcast_to(self.edges[:-1], (n, len(self.edges) - 1))
        hi = np.broadcast_to(self.edges[1:], lo.shape)
        return _cut_cell_payoffs(self.game, x, lo, hi)

    @functools.cached_property
    def cutter_mass(self) -> FloatArray:
        """``(xs, cells)``: the cutter's estimate cell given the cutter's advantage x."""
        return self.lattice.cell_mass(self.lattice.xs)

    @functools.cached_property
    def chooser_mass(self) -> FloatArray:
        """``(xs, cells)``: the chooser's estimate cell (its advantage is -x)."""
        return self.lattice.cell_mass(-self.lattice.xs)

    @functools.cached_property
    def own_posterior_red(self) -> FloatArray:
        """``(cuts, cells)``: the chooser's reply on its own posterior (no update)."""
        red, black = self.payoffs
        gain = self.chooser_mass.T @ (red - black)  # cutter's gain from Red: the chooser's loss
        return np.asarray((gain <= 0).T, dtype=np.float64)

    def chooser_values(self, cutter: FloatArray) -> tuple[FloatArray, FloatArray]:
        """``(cuts, cells)``: the chooser's reach-weighted chance with Red and with Black."""
        red, black = self.payoffs
        reach = self.cutter_mass @ cutter  # (xs, cuts): P(the cut's cell | x)
        with_red = (self.chooser_mass.T @ (reach * (1.0 - red))).T
        with_black = (self.chooser_mass.T @ (reach * (1.0 - black))).T
        return with_red, with_black

    def cutter_values(self, chooser_red: FloatArray) -> FloatArray:
        """``(cells, cuts)``: each cutter type's chance naming each cut cell."""
        red, black = self.payoffs
        q = self.chooser_mass @ chooser_red.T  # (xs, cuts): P(Red | x, cut cell)
        return np.asarray(self.lattice.posterior @ (q * red + (1.0 - q) * black), np.float64)

    def reply(
        self, cutter: FloatArray, learned: FloatArray
    ) -> tuple[FloatArray, npt.NDArray[np.bool_]]:
        """The chooser's reply: its learned strategy after the cuts some type names, its own
        posterior's after the others; and the named cuts."""
        on_path = np.asarray(cutter.max(axis=0) > 0)
        return np.where(on_path[:, None], learned, self.own_posterior_red), on_path


def _chooser_gain(problem: _CutProblem, cutter: FloatArray, chooser: FloatArray) -> float:
    with_red, with_black = problem.chooser_values(cutter)
    reach = (problem.cutter_mass @ cutter).T @ problem.chooser_mass  # (cuts, cells)
    now = chooser * with_red + (1 - chooser) * with_black
    best = np.maximum(with_red, with_black)
    with np.errstate(divide="ignore", invalid="ignore"):
        gain = np.where(reach > 1e-12, (best - now) / reach, 0.0)
    return float(np.max(gain))


def _clean(table: FloatArray, floor: float = 1e-6) -> FloatArray:
    """A strategy table without the dust regret matching leaves (below ``floor``)."""
    kept = np.where(table >= floor, table, 0.0)
    return np.asarray(kept / kept.sum(axis=1, keepdims=True), dtype=np.float64)


@functools.lru_cache(maxsize=32)
def cut_equilibrium(game: CutChooseGame, sd: float) -> MixedCut:
    """An equilibrium of cut-and-choose (see :func:`_cut_equilibrium`)."""
    with threadpool_limits(limits=1, user_api="blas"):
        return _cut_equilibrium(game, sd)


def _cut_equilibrium(game: CutChooseGame, sd: float) -> MixedCut:
    """An equilibrium of cut-and-choose (alternating PRM+ from the rational rules at the
    players' estimates)."""
    lattice = Lattice(sd)
    edges = _cut_edges(game)
    problem = _CutProblem(game, lattice, edges)
    mid = 0.5 * (edges[1:] + edges[:-1])
    start_cut = np.clip(
        np.searchsorted(edges, game.rational_cut(lattice.centers)) - 1, 0, len(mid) - 1
    )
    cutter0 = np.zeros((len(lattice.centers), len(mid)))
    cutter0[np.arange(len(start_cut)), start_cut] = 1.0
    chooser0 = np.asarray(game.rational_red(lattice.centers[None, :], mid[:, None]), np.float64)
    cut_learner = _Regrets(cutter0)
    pick = _Regrets(np.stack([chooser0, 1 - chooser0], axis=-1))
    gain = np.inf
    while cut_learner.rounds < MAX_ROUNDS:
        with_red, with_black = problem.chooser_values(cut_learner.strategy)
        pick.update(np.stack([with_red, with_black], axis=-1))
        chooser, _ = problem.reply(cut_learner.strategy, pick.strategy[..., 0])
        cut_learner.update(problem.cutter_values(chooser))
        if cut_learner.rounds % _CHECK_EVERY == 0:
            cutter = _clean(cut_learner.average)
            chooser, _ = problem.reply(cutter, pick.average[..., 0])
            v = problem.cutter_values(chooser)
            gain = float(np.max(v.max(axis=1) - np.sum(v * cutter, axis=1)))
            if gain <= TARGET:
                break
    cutter = _clean(cut_learner.average)
    chooser, on_path = problem.reply(cutter, pick.average[..., 0])
    if cut_learner.rounds >= MAX_ROUNDS:
        v = problem.cutter_values(chooser)
        gain = float(np.max(v.max(axis=1) - np.sum(v * cutter, axis=1)))
    return MixedCut(
        lattice,
        edges,
        cutter,
        chooser,
        on_path,
        cut_learner.rounds,
        gain,
        _chooser_gain(problem, cutter, chooser),
    )


def cut_advances(game: CutChooseGame, eq: MixedCut, x: npt.ArrayLike) -> FloatArray:
    """Exact P(the cutter advances) when both play ``eq`` (``x``: the cutter's advantage)."""
    x_arr = np.atleast_1d(np.asarray(x, dtype=np.float64))
    n = len(x_arr)
    lo = np.broadcast_to(eq.edges[:-1], (n, len(eq.edges) - 1))
    hi = np.broadcast_to(eq.edges[1:], lo.shape)
    xb = x_arr[:, None, None]
    red, black = _cut_cell_payoffs(game, xb, lo, hi)
    q = eq.red_given(-x_arr)
    value = np.sum(eq.cut_cells(x_arr) * (q * red + (1 - q) * black), axis=1)
    return np.asarray(value, dtype=np.float64).reshape(np.shape(x))
