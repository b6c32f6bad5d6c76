"""A colour choice as a decision problem: the chooser takes Red or Black for one game.

:class:`ChoiceGame` gives the value of each colour to the chooser; the rational chooser takes the
better one (Red on a tie), the ``bayesian`` chooser averages over the truth around its estimate
(:func:`bayesian_choice_region`).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field, replace
from functools import cached_property

import numpy as np
import numpy.typing as npt

from knockout.arrays import BoolArray, FloatArray
from knockout.game import Colour
from knockout.rules.book.formats import Stage
from knockout.rules.decisions.regions import (
    GRID_STEP,
    REGION_SPAN,
    Regions,
    regions_where,
    threshold_regions,
    vector_bounds,
)
from knockout.rules.model.strength import (
    DEFAULT_MODEL,
    ModelParams,
    TimeClass,
    game_probabilities,
)

__all__ = [
    "ChoiceGame",
]


@functools.lru_cache(maxsize=64)
def bayesian_choice_region(game: ChoiceGame, sd: float) -> Regions:
    """Where the ``bayesian`` chooser, averaging over the truth around its estimate, takes Red."""
    return threshold_regions(lambda y: game.value(True, y) - game.value(False, y), sd, strict=False)


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
        grid = np.arange(-REGION_SPAN, REGION_SPAN + GRID_STEP, GRID_STEP)
        return regions_where(
            grid, self.rational_red(grid), lambda y: self.value(True, y) - self.value(False, y)
        )

    @cached_property
    def vector_red_region(self) -> FloatArray:
        """:attr:`red_region` for a vectorised model: padded bounds per set of constants."""

        def decide(m: ModelParams, x: FloatArray) -> dict[str, BoolArray]:
            return {"red": replace(self, model=m).rational_red(x)}

        return vector_bounds(decide, self.model, ("red",))["red"]
