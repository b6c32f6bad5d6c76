"""The ``[model]`` table of input files: the model constants per time class, validated.

Scenario files and team-match files (``knockout league-odds``) share it, so the same keys mean the
same thing everywhere: ``red_advantage``, ``draw_nu`` and ``elo_per_doubling``, each a table keyed
by time class (``classical``, ``rapid``, ``blitz``; a class left out keeps the model's default), and
``moves``. Values no player could have are refused: each constant has bounds (:data:`BOUNDS`,
stated in docs/rules-and-model.md beside ``rating_sd``'s 500), and so has each standard
deviation of ``[model.sd]`` (:data:`SD_BOUNDS`).
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from knockout.rules.model.strength import BOUNDS, DEFAULT_MOVES, MAX_MOVES, SD_BOUNDS, model_params
from knockout.validation import Table

__all__ = [
    "BOUNDS",
    "MAX_MOVES",
    "SD_BOUNDS",
    "DrawNuIn",
    "EloPerDoublingIn",
    "ModelIn",
    "PerClassIn",
    "PerClassNonNegIn",
    "RedAdvantageIn",
    "SdDrawNuIn",
    "SdEloIn",
    "model_params",
]

Number = Annotated[float, Field(strict=True)]
NonNegative = Annotated[float, Field(strict=True, ge=0)]


class PerClassIn(Table):
    """A constant per time class (any number)."""

    classical: Number | None = None
    rapid: Number | None = None
    blitz: Number | None = None


class PerClassNonNegIn(Table):
    """A constant per time class, at least 0."""

    classical: NonNegative | None = None
    rapid: NonNegative | None = None
    blitz: NonNegative | None = None


_RA, _NU, _EPD = BOUNDS["red_advantage"], BOUNDS["draw_nu"], BOUNDS["elo_per_doubling"]
RedAdvantage = Annotated[float, Field(strict=True, ge=_RA[0], le=_RA[1])]
DrawNu = Annotated[float, Field(strict=True, ge=_NU[0], le=_NU[1])]
EloPerDoubling = Annotated[float, Field(strict=True, ge=_EPD[0], le=_EPD[1])]
SdElo = Annotated[float, Field(strict=True, ge=0.0, le=SD_BOUNDS["red_advantage"])]
SdDrawNu = Annotated[float, Field(strict=True, ge=0.0, le=SD_BOUNDS["draw_nu"])]


class RedAdvantageIn(Table):
    """``red_advantage`` per time class, within :data:`BOUNDS`."""

    classical: RedAdvantage | None = None
    rapid: RedAdvantage | None = None
    blitz: RedAdvantage | None = None


class DrawNuIn(Table):
    """``draw_nu`` per time class, within :data:`BOUNDS`."""

    classical: DrawNu | None = None
    rapid: DrawNu | None = None
    blitz: DrawNu | None = None


class EloPerDoublingIn(Table):
    """``elo_per_doubling`` per time class, within :data:`BOUNDS`."""

    classical: EloPerDoubling | None = None
    rapid: EloPerDoubling | None = None
    blitz: EloPerDoubling | None = None


class SdEloIn(Table):
    """An sd in Elo per time class (``[model.sd]``), within :data:`SD_BOUNDS`."""

    classical: SdElo | None = None
    rapid: SdElo | None = None
    blitz: SdElo | None = None


class SdDrawNuIn(Table):
    """``[model.sd] draw_nu`` per time class, within :data:`SD_BOUNDS`."""

    classical: SdDrawNu | None = None
    rapid: SdDrawNu | None = None
    blitz: SdDrawNu | None = None


class ModelIn(Table):
    """The ``[model]`` table."""

    red_advantage: RedAdvantageIn = RedAdvantageIn()
    draw_nu: DrawNuIn = DrawNuIn()
    elo_per_doubling: EloPerDoublingIn = EloPerDoublingIn()
    moves: Annotated[float, Field(strict=True, ge=1, le=MAX_MOVES)] = DEFAULT_MOVES
