"""How the games of a table ended, by group: counts and Red-win / draw / Black-win shares.

A share's standard error is the binomial one, ``sqrt(p (1 - p) / n)``, over the group's games with
a result (a ``*`` game, unknown or disputed, is left out of both). Groups are by time class, by
year or by event name (the event text up to its first space: collections add the game's players
or opening after a space, ``全國象棋個人錦標賽 五八炮對屏風馬``).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Literal

from knockout.corpus.table import GameRow
from knockout.corpus.timeclass import TIME_CLASSES

__all__ = ["GROUPINGS", "Grouping", "Share", "event_name", "summarise"]

Grouping = Literal["time_class", "year", "event"]
GROUPINGS: tuple[Grouping, ...] = ("time_class", "year", "event")


@dataclass(frozen=True)
class Share:
    """One group's games and how they ended."""

    key: str
    games: int
    red_wins: int
    draws: int
    black_wins: int

    def share(self, count: int) -> float | None:
        """``count`` as a share of the games (None without games)."""
        return count / self.games if self.games else None

    def stderr(self, count: int) -> float | None:
        """The share's binomial standard error."""
        p = self.share(count)
        return math.sqrt(p * (1 - p) / self.games) if p is not None else None

    def to_json(self) -> dict[str, Any]:
        """``{"key", "games", "red", "draw", "black", "red_se", "draw_se", "black_se"}``."""
        return {
            "key": self.key,
            "games": self.games,
            "red": self.share(self.red_wins),
            "draw": self.share(self.draws),
            "black": self.share(self.black_wins),
            "red_se": self.stderr(self.red_wins),
            "draw_se": self.stderr(self.draws),
            "black_se": self.stderr(self.black_wins),
        }


def event_name(event: str) -> str:
    """The event text up to its first space.

    >>> event_name("全國象棋個人錦標賽 五八炮對屏風馬")
    '全國象棋個人錦標賽'
    """
    return event.split(maxsplit=1)[0] if event.strip() else ""


def _key(row: GameRow, by: Grouping) -> str:
    if by == "time_class":
        return row.time_class
    if by == "year":
        return str(row.year) if row.year is not None else "unknown"
    return event_name(row.event) or "unknown"


def summarise(rows: Iterable[GameRow], by: Grouping = "time_class") -> list[Share]:
    """Each group's results (only games with one), in the groups' natural order: time classes
    fastest first, years ascending, events by number of games then name; ``unknown`` last."""
    counts: dict[str, list[int]] = {}
    for row in rows:
        if row.result == "*":
            continue
        tally = counts.setdefault(_key(row, by), [0, 0, 0])
        tally[("1-0", "1/2-1/2", "0-1").index(row.result)] += 1
    order: list[str]
    if by == "time_class":
        order = [c for c in TIME_CLASSES if c in counts]
    elif by == "year":
        order = sorted(counts, key=lambda k: (k == "unknown", k))
    else:
        order = sorted(counts, key=lambda k: (k == "unknown", -sum(counts[k]), k))
    return [Share(k, sum(counts[k]), *counts[k]) for k in order]
