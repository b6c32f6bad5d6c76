"""You cut, I choose (``colours = "cut-choose"``) as a decision problem.

The cutter names Red's base minutes ``r`` against Black's fixed clock; the other player, the
chooser, then picks the colour. ``x`` is the cutter's rating minus the chooser's, ``z = -x`` the
chooser's. With the draw rule of the stage, ``R(d, r)`` is P(Red advances) when Red's rating
minus Black's is ``d``; the chooser's gain from taking Red rather than Black,
``R(z, r) - (1 - R(-z, r))``, is even in ``z``: whether Red or Black is the better colour
depends on how far apart the players are, not on who is stronger. It grows with ``r``, so

* the rational chooser takes Red exactly when the gain is >= 0 (Red on a tie);
* the rational cutter names the cut at which the chooser is indifferent, ``rational_cut``: any
  other cut leaves the chooser a colour worth more. Between equal players that is the fair
  split, at which P(Red advances) = 1/2.

Its sign changes at most once as the players grow apart, from + to - (far apart the colour
hardly matters and the gain tends to 0 from below; checked in the tests for the defaults, on
the truth and on a noisy posterior), so a chooser's rule on a noisy estimate is a threshold:
take Red when the estimate is within ``c(r)`` of zero.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from knockout.arrays import BoolArray, FloatArray
from knockout.game import Colour
from knockout.rules.book.formats import Stage
from knockout.rules.decisions.regions import REGION_SPAN
from knockout.rules.model.normal import gauss_hermite, ndtr
from knockout.rules.model.strength import DEFAULT_MODEL, ModelParams, TimeClass, game_probabilities

__all__ = ["CUT_GRID", "CutChooseGame"]

#: Step (minutes) of the tables of a chooser's threshold by cut.
CUT_GRID = 0.01


@dataclass(frozen=True)
class CutChooseGame:
    """The cut-and-choose game of a stage.

    Attributes:
        black_minutes: Black's base clock.
        min_red_minutes: The least Red may be given.
        max_red_minutes: The most Red may be given.
        draw_winner: Who a drawn game counts for.
        time_class: Model time class of the game.
        model: Model constants.
        increment_seconds: The stage's increment.
    """

    black_minutes: float
    min_red_minutes: float
    max_red_minutes: float
    draw_winner: Colour
    time_class: TimeClass = TimeClass.RAPID
    model: ModelParams = field(default=DEFAULT_MODEL)
    increment_seconds: float = 10.0

    @classmethod
    def from_stage(
        cls, stage: Stage, model: ModelParams, time_class: TimeClass | None = None
    ) -> CutChooseGame:
        """The decision problem of a cut-and-choose stage."""
        if stage.cut is None or stage.draw_winner is None:
            raise ValueError(f"stage {stage.name!r} is not a cut-and-choose stage")
        cut = stage.cut
        tc = stage.time_class_for(model.moves) if time_class is None else time_class
        return cls(
            cut.black_minutes,
            cut.min_red_minutes,
            cut.max_red_minutes,
            stage.draw_winner,
            tc,
            model,
            stage.increment_seconds,
        )

    def red_advances(self, d: npt.ArrayLike, r: npt.ArrayLike) -> FloatArray:
        """P(Red advances) when Red's rating minus Black's is ``d`` and Red has ``r`` minutes."""
        p = game_probabilities(
            d,
            0.0,
            self.time_class,
            model=self.model,
            red_minutes=self.model.effective(r, self.increment_seconds),
            black_minutes=self.model.effective(self.black_minutes, self.increment_seconds),
        )
        if self.draw_winner is Colour.RED:
            return np.asarray(p.red + p.draw, dtype=np.float64)
        return np.asarray(p.red, dtype=np.float64)

    def cutter_advances(
        self, x: npt.ArrayLike, r: npt.ArrayLike, chooser_red: npt.ArrayLike
    ) -> FloatArray:
        """P(the cutter advances): cutter's advantage ``x``, cut ``r``, the chooser's colour."""
        x_arr = np.asarray(x, dtype=np.float64)
        as_black = 1.0 - self.red_advances(-x_arr, r)
        as_red = self.red_advances(x_arr, r)
        return np.asarray(np.where(chooser_red, as_black, as_red), dtype=np.float64)

    def cutter_both(self, x: npt.ArrayLike, r: npt.ArrayLike) -> tuple[FloatArray, FloatArray]:
        """P(the cutter advances) when the chooser takes Red and when it takes Black: the
        values of :meth:`cutter_advances` for both colours, each game model evaluated once."""
        x_arr = np.asarray(x, dtype=np.float64)
        return 1.0 - self.red_advances(-x_arr, r), self.red_advances(x_arr, r)

    def chooser_gain(self, z: npt.ArrayLike, r: npt.ArrayLike) -> FloatArray:
        """The chooser's chance with Red minus with Black (chooser's advantage ``z``)."""
        z_arr = np.asarray(z, dtype=np.float64)
        return np.asarray(
            self.red_advances(z_arr, r) + self.red_advances(-z_arr, r) - 1.0, dtype=np.float64
        )

    def rational_red(self, z: npt.ArrayLike, r: npt.ArrayLike) -> BoolArray:
        """The rational chooser's colour: True = Red (Red on a tie)."""
        return np.asarray(self.chooser_gain(z, r) >= 0)

    @functools.cached_property
    def _cut_table(self) -> tuple[FloatArray, FloatArray]:
        """The rational cut on a grid of gaps ``|x|`` = 0, 1, ..., REGION_SPAN Elo."""
        gaps = np.arange(0.0, REGION_SPAN + 1.0, 1.0)
        return gaps, self._indifference(gaps, 0.0)

    def _indifference(self, gaps: FloatArray, sd: float) -> FloatArray:
        """The cut at which the chooser's (expected) gain is zero, for estimates ``gaps`` and a
        posterior sd (0: the truth), clipped to the allowed range (bisection, 64 steps)."""
        lo = np.full_like(gaps, self.min_red_minutes)
        hi = np.full_like(gaps, self.max_red_minutes)

        def gain(r: FloatArray) -> FloatArray:
            if sd == 0:
                return self.chooser_gain(gaps, r)
            z = gaps[:, None] + sd * gauss_hermite()[0]
            return np.asarray(
                np.sum(self.chooser_gain(z, r[:, None]) * gauss_hermite()[1], axis=-1)
            )

        for _ in range(64):
            mid = 0.5 * (lo + hi)
            up = gain(mid) >= 0  # Red already good enough: the indifference is lower
            hi = np.where(up, mid, hi)
            lo = np.where(up, lo, mid)
        cuts = 0.5 * (lo + hi)
        cuts = np.where(gain(np.full_like(gaps, self.min_red_minutes)) >= 0, lo, cuts)
        return np.asarray(np.where(gain(hi) < 0, self.max_red_minutes, cuts), dtype=np.float64)

    def rational_cut(self, x: npt.ArrayLike) -> FloatArray:
        """The rational cut of a cutter whose advantage (true or believed) is ``x`` (with a
        vectorised model: solved for each pair's constants, not read off a table)."""
        if self.model.size is not None:
            shape = np.broadcast_shapes(np.shape(x), (self.model.size,))
            gaps = np.abs(np.broadcast_to(np.asarray(x, dtype=np.float64), shape)).copy()
            return self._indifference(gaps, 0.0)
        gaps, cuts = self._cut_table
        return np.asarray(np.interp(np.abs(np.asarray(x, dtype=np.float64)), gaps, cuts))

    @property
    def fair_cut(self) -> float:
        """The rational cut between equal players: the fair split (one model)."""
        return float(self._cut_table[1][0])

    def fair_cuts(self, like: npt.ArrayLike) -> FloatArray:
        """The fair split shaped like ``like`` (with a vectorised model: each pair's own)."""
        if self.model.size is not None:
            return self.rational_cut(np.zeros(np.shape(like)))
        return np.full(np.shape(like), self.fair_cut)

    @functools.cached_property
    def cut_axis(self) -> FloatArray:
        """The cuts at which a chooser's threshold is tabulated (step :data:`CUT_GRID`)."""
        n = round((self.max_red_minutes - self.min_red_minutes) / CUT_GRID)
        return np.linspace(self.min_red_minutes, self.max_red_minutes, max(n, 1) + 1)

    def threshold(self, sd: float) -> FloatArray:
        """The chooser's threshold on :attr:`cut_axis`: a chooser holding the truth to be
        ``Normal(e, sd)`` (``sd = 0``: ``e``) takes Red exactly when ``|e| <= c(r)``
        (``-inf``: never; ``REGION_SPAN``: always, within the table)."""
        return _threshold_table(self, sd)

    def bayesian_cut(self, e: npt.ArrayLike, sd: float) -> FloatArray:
        """The cut of a cutter who holds its advantage to be ``Normal(e, sd)``: the one with
        the highest expected chance, over the truth and over the reply of a chooser deciding
        the same way on its own estimate (:meth:`threshold`)."""
        grid, cuts = _bayesian_cut_table(self, sd)
        return np.asarray(np.interp(np.asarray(e, dtype=np.float64), grid, cuts))

    def chooser_threshold(self, r: npt.ArrayLike, sd: float) -> FloatArray:
        """``c(r)`` at any cuts (linear between the tabulated cuts; below 0: never Red)."""
        table = self.threshold(sd)
        c = np.interp(np.asarray(r, dtype=np.float64), self.cut_axis, table)
        return np.asarray(c, dtype=np.float64)


@functools.lru_cache(maxsize=64)
def _threshold_table(game: CutChooseGame, sd: float) -> FloatArray:
    """``c(r)`` on the cut axis, by bisection on ``|e|`` in [0, REGION_SPAN] (60 steps); -1 where
    the chooser takes Black even at ``e = 0`` (any negative value means never)."""
    r = game.cut_axis

    def gain(e: FloatArray) -> FloatArray:
        if sd == 0:
            return game.chooser_gain(e, r)
        z = e[:, None] + sd * gauss_hermite()[0]
        return np.asarray(np.sum(game.chooser_gain(z, r[:, None]) * gauss_hermite()[1], axis=-1))

    lo = np.zeros_like(r)
    hi = np.full_like(r, REGION_SPAN)
    for _ in range(60):
        mid = 0.5 * (lo + hi)
        red = gain(mid) >= 0
        lo = np.where(red, mid, lo)
        hi = np.where(red, hi, mid)
    c = 0.5 * (lo + hi)
    c = np.where(gain(np.zeros_like(r)) < 0, -1.0, c)
    return np.asarray(
        np.where(gain(np.full_like(r, REGION_SPAN)) >= 0, REGION_SPAN, c), dtype=np.float64
    )


def _expected_cutter(game: CutChooseGame, e: FloatArray, r: FloatArray, sd: float) -> FloatArray:
    """A Bayesian cutter's expected chance: estimate ``e``, cut ``r`` (broadcast together)."""
    x = e[..., None] + sd * gauss_hermite()[0]
    rr = r[..., None]
    c = game.chooser_threshold(rr, sd)
    q = ndtr((c + x) / sd) - ndtr((-c + x) / sd)  # the chooser's estimate ~ Normal(-x, sd)
    q = np.where(c >= 0, q, 0.0)
    red, black = game.cutter_both(x, rr)
    value = q * red + (1 - q) * black
    return np.asarray(np.sum(value * gauss_hermite()[1], axis=-1), dtype=np.float64)


@functools.lru_cache(maxsize=64)
def _bayesian_cut_table(game: CutChooseGame, sd: float) -> tuple[FloatArray, FloatArray]:
    """The Bayesian cut on a 25-Elo grid of estimates over [-REGION_SPAN, REGION_SPAN] (linear
    between): the best of a scan in half minutes, refined by golden-section search to 1e-6
    minute."""
    grid = np.arange(-REGION_SPAN, REGION_SPAN + 25.0, 25.0)
    scan = np.arange(game.min_red_minutes, game.max_red_minutes + 0.5, 0.5)
    scan = np.minimum(scan, game.max_red_minutes)
    values = np.stack([_expected_cutter(game, grid, np.full_like(grid, r), sd) for r in scan])
    best = np.argmax(values, axis=0)
    lo = scan[np.maximum(best - 1, 0)]
    hi = scan[np.minimum(best + 1, len(scan) - 1)]
    ratio = (np.sqrt(5.0) - 1) / 2
    a, b = lo + (1 - ratio) * (hi - lo), lo + ratio * (hi - lo)
    fa, fb = _expected_cutter(game, grid, a, sd), _expected_cutter(game, grid, b, sd)
    for _ in range(36):
        left = fa >= fb
        hi = np.where(left, b, hi)
        lo = np.where(left, lo, a)
        b_new = np.where(left, a, lo + ratio * (hi - lo))
        a_new = np.where(left, lo + (1 - ratio) * (hi - lo), b)
        fa_new = np.where(left, _expected_cutter(game, grid, a_new, sd), fb)
        fb = np.where(left, fa, _expected_cutter(game, grid, b_new, sd))
        fa, a, b = fa_new, a_new, b_new
    return grid, np.asarray(0.5 * (lo + hi), dtype=np.float64)
