"""The ``[model]`` table of input files: the model constants per time class, validated.

Scenario files and team-match files (``knockout league-odds``) share it, so the same keys mean the
same thing everywhere: ``red_advantage``, ``draw_nu`` and ``elo_per_doubling``, each a table keyed
by time class (``classical``, ``rapid``, ``blitz``; a class left out keeps the model's default), and
``moves``. Values no player could have are refused (``draw_nu`` or ``elo_per_doubling`` below 0,
``moves`` below 1).
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from knockout.rules.model.strength import DEFAULT_MOVES, model_params
from knockout.validation import Table

__all__ = ["ModelIn", "PerClassIn", "PerClassNonNegIn", "model_params"]

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


class ModelIn(Table):
    """The ``[model]`` table."""

    red_advantage: PerClassIn = PerClassIn()
    draw_nu: PerClassNonNegIn = PerClassNonNegIn()
    elo_per_doubling: PerClassNonNegIn = PerClassNonNegIn()
    moves: Annotated[float, Field(strict=True, ge=1)] = DEFAULT_MOVES
