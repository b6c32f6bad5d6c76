"""The shared player-strength model (version 2): one game, and who gets the sudden-death choice.

A side's **effective clock** counts the increment over a game: ``T = base + moves * inc / 60``
minutes (``moves`` = 60 by default). A game between a Red player and a Black player of time class
``tc`` with effective clocks ``T_red``/``T_black`` has the strength difference::

    d = R_red - R_black + red_advantage[tc] + elo_per_doubling[tc] * log2(T_red / T_black)

and Davidson (1970) outcome probabilities with ``g = 10 ** (d / 400)``::

    P(Red wins) = g / z,  P(draw) = nu * sqrt(g) / z,  P(Black wins) = 1 / z,
    z = g + 1 + nu * sqrt(g)

A time class is fixed once per stage (:func:`time_class_of`): ``classical`` if the mean effective
clock of the stage's reference clocks is at least 60 minutes, ``blitz`` if at most 10, else
``rapid``.

Every function here broadcasts like a numpy ufunc: pass scalars for one game or arrays (any
shape) for many. This module is the only place the formula lives; the exact solver, the SimPy
engine and the Monte Carlo kernel all call it.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from enum import StrEnum
from fractions import Fraction
from functools import cached_property
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from knockout.arrays import FloatArray
from knockout.game import DEFAULT_MOVES
from knockout.rules.model.normal import ndtr

__all__ = [
    "BOUNDS",
    "DEFAULT_DRAW_NU",
    "DEFAULT_ELO_PER_DOUBLING",
    "DEFAULT_MODEL",
    "DEFAULT_MOVES",
    "DEFAULT_RED_ADVANTAGE",
    "MAX_MOVES",
    "SD_BOUNDS",
    "GameProbabilities",
    "ModelParams",
    "PerClass",
    "TimeClass",
    "classify",
    "davidson",
    "davidson_share",
    "effective_minutes",
    "game_probabilities",
    "model_params",
    "p_uses_less_time",
    "strength_difference",
]


#: Each constant's bounds, (low, high), beyond which no player's game could be: Red's first
#: move worth at most 800 Elo either way (seed 000 measures 64 ± 14; at 800 Red wins 99 % of
#: decisive games), ν at most 50 (99.9 % draws between equals, against 46 % in seed 000),
#: 1,000 Elo a doubling of thinking time (the estimates run 60-200).
BOUNDS: dict[str, tuple[float, float]] = {
    "red_advantage": (-800.0, 800.0),
    "draw_nu": (0.0, 50.0),
    "elo_per_doubling": (0.0, 1000.0),
}
#: The largest standard deviation ``[model.sd]`` may give each constant: 500 Elo, as a
#: player's ``rating_sd``, for the two in Elo; 5 for ν (a log-normal whose sd of log ν is 5 / ν
#: spans more than any draw rate).
SD_BOUNDS: dict[str, float] = {"red_advantage": 500.0, "draw_nu": 5.0, "elo_per_doubling": 500.0}
#: Moves a side per game at most (for the effective clock; FIDE's convention is 60).
MAX_MOVES = 1000.0


class TimeClass(StrEnum):
    """Time class of a game; each has its own model constants and player rating."""

    CLASSICAL = "classical"
    RAPID = "rapid"
    BLITZ = "blitz"


#: Each time class, and its name, to its field of :class:`PerClass`.
_CLASS_FIELDS: dict[str, str] = {tc.value: tc.value for tc in TimeClass}

# Seed 000: 391 Red wins, 557 draws, 270 Black wins in 1,218 national-level games.
_RED_WINS, _DRAWS, _BLACK_WINS = 391, 557, 270


@dataclass(frozen=True)
class PerClass:
    """One model constant per time class."""

    classical: float
    rapid: float
    blitz: float

    def __getitem__(self, tc: TimeClass | str) -> float:
        name = _CLASS_FIELDS.get(tc)  # a time class or its name (no enum call: this is hot)
        value: float = getattr(self, TimeClass(tc).value if name is None else name)
        return value

    def to_dict(self) -> dict[str, float]:
        """``{"classical": ..., "rapid": ..., "blitz": ...}``."""
        return {tc.value: self[tc] for tc in TimeClass}


DEFAULT_RED_ADVANTAGE = 400.0 * math.log10(_RED_WINS / _BLACK_WINS)
_NU_CLASSICAL = _DRAWS / math.sqrt(_RED_WINS * _BLACK_WINS)
DEFAULT_DRAW_NU = PerClass(classical=_NU_CLASSICAL, rapid=1.0, blitz=0.8)
DEFAULT_ELO_PER_DOUBLING = PerClass(classical=120.0, rapid=120.0, blitz=120.0)
#: Time-class boundaries on the mean effective clock (minutes): classical at or above, blitz at
#: or below.
CLASSICAL_FROM, BLITZ_UP_TO = 60, 10


def effective_minutes(
    base: npt.ArrayLike, increment_seconds: float, moves: float = DEFAULT_MOVES
) -> FloatArray:
    """A side's effective clock: ``base + moves * increment / 60`` minutes.

    >>> float(effective_minutes(30.0, 10.0))
    40.0
    """
    return np.asarray(np.add(base, moves * increment_seconds / 60.0), dtype=np.float64)


def classify(
    red_base: float, black_base: float, increment_seconds: float, moves: float
) -> TimeClass:
    """The time class of a game on these clocks, from its mean effective clock.

    Computed in exact fractions, so no rounding can move a game across a boundary.

    >>> classify(30, 10, 10, 60), classify(6, 4, 3, 60), classify(60, 60, 10, 60)
    (<TimeClass.RAPID: 'rapid'>, <TimeClass.BLITZ: 'blitz'>, <TimeClass.CLASSICAL: 'classical'>)
    """
    inc = Fraction(moves) * Fraction(increment_seconds) / 60
    mean = (Fraction(red_base) + Fraction(black_base)) / 2 + inc
    if mean >= CLASSICAL_FROM:
        return TimeClass.CLASSICAL
    if mean <= BLITZ_UP_TO:
        return TimeClass.BLITZ
    return TimeClass.RAPID


@dataclass(frozen=True)
class ModelParams:
    """The model constants, per time class. Defaults are MODEL.md's unrounded expressions."""

    red_advantage: PerClass = field(
        default_factory=lambda: PerClass(
            DEFAULT_RED_ADVANTAGE, DEFAULT_RED_ADVANTAGE, DEFAULT_RED_ADVANTAGE
        )
    )
    draw_nu: PerClass = DEFAULT_DRAW_NU
    elo_per_doubling: PerClass = DEFAULT_ELO_PER_DOUBLING
    moves: float = DEFAULT_MOVES

    def with_overrides(
        self,
        *,
        red_advantage: dict[str, float] | None = None,
        draw_nu: dict[str, float] | None = None,
        elo_per_doubling: dict[str, float] | None = None,
        moves: float | None = None,
    ) -> ModelParams:
        """A copy with some constants replaced (per-class keys are time-class names)."""
        return ModelParams(
            red_advantage=replace(self.red_advantage, **(red_advantage or {})),
            draw_nu=replace(self.draw_nu, **(draw_nu or {})),
            elo_per_doubling=replace(self.elo_per_doubling, **(elo_per_doubling or {})),
            moves=self.moves if moves is None else moves,
        )

    @cached_property
    def size(self) -> int | None:
        """How many sets of constants this holds: None for plain numbers (one model), else the
        length of its constant arrays (a vectorised model, one entry per pair of a pairing);
        found once per model."""
        for table in (self.red_advantage, self.draw_nu, self.elo_per_doubling):
            for tc in TimeClass:
                shape = np.shape(table[tc])
                if shape:
                    return int(shape[0])
        return None

    def mapped(self, f: Callable[[FloatArray], FloatArray]) -> ModelParams:
        """A copy with ``f`` applied to every constant that is an array (numbers stay numbers):
        how a vectorised model follows its pairs when they are indexed, repeated or reshaped."""

        def per_class(table: PerClass) -> PerClass:
            cells: list[Any] = [
                f(np.asarray(c)) if np.ndim(c) else c for c in (table[tc] for tc in TimeClass)
            ]
            return PerClass(*cells)

        return replace(
            self,
            red_advantage=per_class(self.red_advantage),
            draw_nu=per_class(self.draw_nu),
            elo_per_doubling=per_class(self.elo_per_doubling),
        )

    def take(self, index: npt.ArrayLike) -> ModelParams:
        """The constants of entries ``index`` of a vectorised model (a plain model: itself)."""
        idx = np.asarray(index, dtype=np.intp)
        return self if self.size is None else self.mapped(lambda a: a[idx])

    def effective(self, base: npt.ArrayLike, increment_seconds: float) -> FloatArray:
        """Effective clocks (minutes) of base clocks ``base`` with this model's ``moves``."""
        return effective_minutes(base, increment_seconds, self.moves)

    def to_dict(self) -> dict[str, object]:
        """The scenario-file ``[model]`` table with every class filled in."""
        return {
            "red_advantage": self.red_advantage.to_dict(),
            "draw_nu": self.draw_nu.to_dict(),
            "elo_per_doubling": self.elo_per_doubling.to_dict(),
            "moves": self.moves,
        }


DEFAULT_MODEL = ModelParams()


class GameProbabilities(NamedTuple):
    """P(Red wins), P(draw), P(Black wins); each broadcast to the inputs' shape."""

    red: FloatArray
    draw: FloatArray
    black: FloatArray


def strength_difference(
    red_rating: npt.ArrayLike,
    black_rating: npt.ArrayLike,
    *,
    red_advantage: npt.ArrayLike,
    elo_per_doubling: npt.ArrayLike = 0.0,
    red_minutes: npt.ArrayLike = 1.0,
    black_minutes: npt.ArrayLike = 1.0,
) -> FloatArray:
    """``d = R_red - R_black + red_advantage + elo_per_doubling * log2(t_red / t_black)``."""
    time_odds = np.log2(np.divide(red_minutes, black_minutes, dtype=np.float64))
    d = (
        np.subtract(red_rating, black_rating, dtype=np.float64)
        + np.asarray(red_advantage, dtype=np.float64)
        + np.multiply(elo_per_doubling, time_odds)
    )
    return np.asarray(d, dtype=np.float64)


#: ``-ln(10) / 400``: ``10 ** (-x / 400) == exp(x * _MINUS_LN10_400)`` (to within an ulp or two).
_MINUS_LN10_400 = -math.log(10.0) / 400.0


def davidson(d: npt.ArrayLike, nu: npt.ArrayLike) -> GameProbabilities:
    """Davidson outcome probabilities for strength difference ``d`` (Elo) and draw parameter ``nu``.

    Computed in the form that stays finite for any ``d``: with ``h = 10 ** (-|d| / 400) <= 1`` the
    favourite's weight is 1 and the underdog's ``h``, so nothing overflows. :func:`davidson_share`
    is one side's share by the same operations (tested bit for bit): change both together.

    >>> p = davidson(400 * np.log10(391 / 270), 557 / np.sqrt(391 * 270))
    >>> [round(float(x) * 1218, 9) for x in p]
    [391.0, 557.0, 270.0]
    """
    d_arr = np.asarray(d, dtype=np.float64)
    nu_arr = np.asarray(nu, dtype=np.float64)
    h = np.exp(np.abs(d_arr) * _MINUS_LN10_400)  # 10 ** (-|d| / 400); exp is ~1.5x faster
    draw_weight = nu_arr * np.sqrt(h)
    z = 1.0 + h + draw_weight
    favourite = 1.0 / z
    underdog = h / z
    red_is_favourite = d_arr >= 0
    red = np.where(red_is_favourite, favourite, underdog)
    black = np.where(red_is_favourite, underdog, favourite)
    return GameProbabilities(red, np.asarray(draw_weight / z), black)


def davidson_share(d: FloatArray, nu: npt.ArrayLike, *, red: bool, with_draw: bool) -> FloatArray:
    """One side's share of :func:`davidson`: P(Red wins) (``red``) or P(Black wins), plus
    P(draw) if ``with_draw``, value for value the same floating-point operations, computed in
    ``d``'s own buffer (``d`` is overwritten and returned; it must be a float64 array of the
    result's shape). Half the passes over memory of the three full outcomes, for big grids
    of decisions (:func:`knockout.rules.decisions.bidding.rational_regions_of`)."""
    nu_arr = np.asarray(nu, dtype=np.float64)
    favourite = d >= 0 if red else d < 0  # where the side's weight is 1, not h
    h = np.abs(d, out=d)
    h *= _MINUS_LN10_400
    np.exp(h, out=h)
    draw_weight = np.sqrt(h)
    draw_weight *= nu_arr  # nu * sqrt(h): the product is the same either way round
    z = np.add(h, 1.0)  # 1.0 + h
    z += draw_weight
    # the side's weight, 1 or h: as 1.0 or 0.0 the mask is the larger (0 < h <= 1); a
    # maximum is 5x faster than a masked copy
    np.maximum(h, favourite, out=h)
    h /= z  # 1.0 / z or h / z, as davidson divides
    if with_draw:
        draw_weight /= z
        h += draw_weight
    return h


def game_probabilities(
    red_rating: npt.ArrayLike,
    black_rating: npt.ArrayLike,
    tc: TimeClass,
    *,
    model: ModelParams = DEFAULT_MODEL,
    red_minutes: npt.ArrayLike = 1.0,
    black_minutes: npt.ArrayLike = 1.0,
) -> GameProbabilities:
    """Outcome probabilities of one game (or many, broadcast) under ``model``.

    Args:
        red_rating: Red's rating for time class ``tc``.
        black_rating: Black's rating for time class ``tc``.
        tc: The game's time class.
        model: Model constants.
        red_minutes: Red's effective clock in minutes (only the ratio to Black's matters).
        black_minutes: Black's effective clock in minutes.
    """
    d = strength_difference(
        red_rating,
        black_rating,
        red_advantage=model.red_advantage[tc],
        elo_per_doubling=model.elo_per_doubling[tc],
        red_minutes=red_minutes,
        black_minutes=black_minutes,
    )
    return davidson(d, model.draw_nu[tc])


def p_uses_less_time(
    mean_a: npt.ArrayLike,
    sd_a: npt.ArrayLike,
    mean_b: npt.ArrayLike,
    sd_b: npt.ArrayLike,
    *,
    base_a: npt.ArrayLike = 1.0,
    base_b: npt.ArrayLike = 1.0,
) -> FloatArray:
    """P(player A uses less clock time than B in a game), ties broken by a fair lot.

    Each player's time used is ``base * Normal(mean, sd)`` (the fraction of their effective
    clock ``base``),
    independent of the result, so ``P = Phi((mean_b*base_b - mean_a*base_a) / s)`` with
    ``s = sqrt((sd_a*base_a)**2 + (sd_b*base_b)**2)``. With both sds zero the comparison is certain
    (0, 1, or 1/2 for an exact tie).
    """
    gap = np.multiply(mean_b, base_b) - np.multiply(mean_a, base_a)
    scale = np.hypot(np.multiply(sd_a, base_a), np.multiply(sd_b, base_b))
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        smooth = ndtr(gap / scale)
    certain = np.where(gap > 0, 1.0, np.where(gap < 0, 0.0, 0.5))
    return np.asarray(np.where(scale > 0, smooth, certain), dtype=np.float64)


def model_params(parsed: Any, base: ModelParams = DEFAULT_MODEL) -> ModelParams:
    """``base`` with the constants a validated ``[model]`` table gives replaced (``parsed``:
    the pydantic model of :mod:`knockout.rules.model.table`, or the same table checked without
    pydantic, a :class:`knockout.schema.Record`)."""

    def present(table: Any) -> dict[str, float]:
        return {k: v for k, v in table.model_dump().items() if v is not None}

    return base.with_overrides(
        red_advantage=present(parsed.red_advantage),
        draw_nu=present(parsed.draw_nu),
        elo_per_doubling=present(parsed.elo_per_doubling),
        moves=parsed.moves,
    )
