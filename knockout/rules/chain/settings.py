"""Settings from a scenario: the bracket, the schedule, the final ranking and the pace game."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from knockout.rules.book.bracket import Seeding
from knockout.rules.decisions.pace import DEFAULT_PACE_MIN

__all__ = ["BracketSettings", "IncentiveSettings", "RankingSettings", "ScheduleSettings"]


@dataclass(frozen=True)
class BracketSettings:
    """``[bracket]``: how the draw is made.

    Attributes:
        seeding: ``rating``, ``given`` (each player's ``seed``) or ``random``.
        draw_seed: Seed of the random draw (the odds are for the bracket it gives).
        third_place: Play a match for third place between the losing semi-finalists.
    """

    seeding: Seeding = "rating"
    draw_seed: int = 1
    third_place: bool = False

    def to_dict(self) -> dict[str, Any]:
        """Scenario-file keys."""
        return {
            "seeding": self.seeding,
            "draw_seed": self.draw_seed,
            "third_place": self.third_place,
        }


@dataclass(frozen=True)
class ScheduleSettings:
    """``[schedule]``: boards and breaks for the SimPy event engine.

    Attributes:
        boards: Games that can be played at once (a SimPy resource).
        gap_minutes: Break between consecutive games of a match.
        round_gap_minutes: Break between the end of a round and the start of the next.
    """

    boards: int = 8
    gap_minutes: float = 15.0
    round_gap_minutes: float = 60.0

    def to_dict(self) -> dict[str, Any]:
        """Scenario-file keys."""
        return {
            "boards": self.boards,
            "gap_minutes": self.gap_minutes,
            "round_gap_minutes": self.round_gap_minutes,
        }


@dataclass(frozen=True)
class RankingSettings:
    """``[ranking]``: how eliminated players are ordered after the round they reached and their
    per-game points.

    Attributes:
        tiebreaks: Tie-break codes from :mod:`knockout.standings.tiebreaks`, in order.
        lots: End with a seeded drawing of lots (else players still tied share a rank).
        rules: The version of FIDE's tie-break rules: ``"2024"`` or ``"2026"`` (from 1 March 2026).
    """

    tiebreaks: tuple[str, ...] = field(default=("WON", "BWG"))
    lots: bool = False
    rules: Literal["2024", "2026"] = "2026"

    def to_dict(self) -> dict[str, Any]:
        """Scenario-file keys."""
        return {"tiebreaks": list(self.tiebreaks), "lots": self.lots, "rules": self.rules}


@dataclass(frozen=True)
class IncentiveSettings:
    """``[incentives]``: the pace game of ``knockout incentives``
    (:mod:`knockout.rules.decisions.pace`).

    Attributes:
        pace_min: The lowest pace (fraction of the effective clock) a player may aim for in the
            game that decides 甲, in (0, 1]; a natural pace below it widens the range.
    """

    pace_min: float = DEFAULT_PACE_MIN

    def to_dict(self) -> dict[str, Any]:
        """Scenario-file keys."""
        return {"pace_min": self.pace_min}
