"""Closed vocabularies of a game: colours, results, bidding replies; moves a game lasts."""

from __future__ import annotations

from enum import StrEnum

__all__ = ["DEFAULT_MOVES", "Colour", "Reply", "Result"]

#: Moves a side makes in a game, for the effective clock ``base + moves * increment / 60``
#: (the model's default ``[model] moves``).
DEFAULT_MOVES = 60.0


class Colour(StrEnum):
    """A side of the board. Red (红) moves first."""

    RED = "red"
    BLACK = "black"

    @property
    def other(self) -> Colour:
        """The opposite colour."""
        return Colour.BLACK if self is Colour.RED else Colour.RED


class Result(StrEnum):
    """A game's result as recorded over the board (a drawn sudden-death game is ``DRAW``)."""

    RED = "red"
    DRAW = "draw"
    BLACK = "black"


class Reply(StrEnum):
    """The bidder's (乙's) answer to the chooser's (甲's) announcement."""

    ACCEPT = "accept"
    OBJECT = "object"
