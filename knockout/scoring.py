"""Scoring systems: points per game by colour and result, defined once, in exact decimals.

Each system is a :class:`ScoringSystem` in the :data:`SCORING` registry. The knockout per-game
points of RULES.md section 1 (seed 001, 三.5) are two entries: ``knockout`` for ordinary games
and ``knockout-sudden-death`` for games whose draw counts as a win for Black in the match (the
sudden-death game, and any other stage with a ``draw_winner``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal

from knockout.game import Colour, Result

__all__ = [
    "KNOCKOUT",
    "KNOCKOUT_SUDDEN_DEATH",
    "SCORING",
    "ScoringSystem",
    "get_scoring",
    "knockout_points",
]


@dataclass(frozen=True)
class ScoringSystem:
    """Points for each player of a game, by the colour they played and the result.

    Attributes:
        name: Registry key.
        red_win: Points for a win with Red.
        black_win: Points for a win with Black.
        red_draw: Points for Red in a drawn game.
        black_draw: Points for Black in a drawn game.
        loss: Points for a loss (either colour).
        description: One line for listings.
    """

    name: str
    red_win: Decimal
    black_win: Decimal
    red_draw: Decimal
    black_draw: Decimal
    loss: Decimal = Decimal(0)
    description: str = ""

    def points(self, result: Result) -> tuple[Decimal, Decimal]:
        """``(Red's points, Black's points)`` for a game with ``result``.

        >>> KNOCKOUT_SUDDEN_DEATH.points(Result.DRAW)
        (Decimal('1'), Decimal('1.5'))
        """
        if result is Result.RED:
            return self.red_win, self.loss
        if result is Result.BLACK:
            return self.loss, self.black_win
        return self.red_draw, self.black_draw

    def points_for(self, colour: Colour, result: Result) -> Decimal:
        """Points of the player who had ``colour``."""
        red, black = self.points(result)
        return red if colour is Colour.RED else black


KNOCKOUT = ScoringSystem(
    "knockout",
    Decimal(3),
    Decimal(3),
    Decimal(1),
    Decimal(1),
    description="knockout per-game points (seed 001, 三.5): win 3, draw 1 each, loss 0",
)
KNOCKOUT_SUDDEN_DEATH = ScoringSystem(
    "knockout-sudden-death",
    Decimal(3),
    Decimal(3),
    Decimal(1),
    Decimal("1.5"),
    description="sudden-death game (seed 001, 三.5): win 3, draw Black 1.5 / Red 1, loss 0",
)

SCORING: Mapping[str, ScoringSystem] = {s.name: s for s in (KNOCKOUT, KNOCKOUT_SUDDEN_DEATH)}


def get_scoring(name: str) -> ScoringSystem:
    """The scoring system called ``name``.

    Raises:
        ValueError: For an unknown name.
    """
    try:
        return SCORING[name]
    except KeyError:
        raise ValueError(
            f"unknown scoring system: {name!r} (known: {', '.join(SCORING)})"
        ) from None


def knockout_points(result: Result, *, draw_winner: Colour | None) -> tuple[Decimal, Decimal]:
    """Knockout per-game points ``(Red, Black)``.

    In a game whose draw decides the match (``draw_winner``: the sudden-death game), a draw gives
    the colour that advances 1.5 and the other 1; otherwise a draw gives 1 each.
    """
    if draw_winner is Colour.RED and result is Result.DRAW:
        black, red = KNOCKOUT_SUDDEN_DEATH.points(result)
        return red, black
    system = KNOCKOUT if draw_winner is None else KNOCKOUT_SUDDEN_DEATH
    return system.points(result)
