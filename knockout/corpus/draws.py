"""Seed 001's round-robin draw rule (part 二.4) applied to the corpus's real draws.

The rule scores a draw by its length in moves and, past 60 moves, by the attacking material left
on the board (:class:`knockout.points.MaterialDraws`, the ``round-robin`` scoring system). Here the
length is the record's (Red's count of moves) and the material that of the replayed final
position (:meth:`knockout.points.GameDetails.from_position`): the same code scores a user's
results file. Only drawn master games whose record replays to its end are scored (a broken record
has no final position); the others are counted.

Bands: up to 30 moves, 31-60, and past 60 by case: A neither side has attacking material, B one
side has, C both have unequal totals, D both equal.

A round robin in the corpus (:func:`round_robins`): the master games of one event and year
(event text up to its first space, in simplified characters) in which every two of its players
met, at least four players. It is complete when every two met equally often (once, or twice with
each having Red once); the collection holds none so (a game or two of each is missing, or extra
games are filed with it), so the ones where every pairing is present are ranked on the games the
corpus holds, and say how many times each pair met. Standings are by points alone, as played
(win 2, draw 1: seed 000's traditional points) and under seed 001 (win 3, draws as above);
players level on points share a rank.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from itertools import combinations
from typing import Any

from knockout.corpus.names import simplified
from knockout.corpus.summary import event_name
from knockout.corpus.table import GameRow
from knockout.game import Result
from knockout.points import ROUND_ROBIN, TRADITIONAL, GameDetails, MaterialDraws, ScoringSystem

__all__ = [
    "BANDS",
    "DrawScoring",
    "RoundRobin",
    "band",
    "draw_scoring",
    "round_robins",
]

BANDS = ("1-30", "31-60", "A", "B", "C", "D")
"""The bands a draw falls in: by length, then past 60 moves by material case."""

_RESULTS = {"1-0": Result.RED, "1/2-1/2": Result.DRAW, "0-1": Result.BLACK}
_RULE: MaterialDraws = ROUND_ROBIN.draw_rule  # type: ignore[assignment]

#: Fewest players of a round robin worth ranking.
MIN_PLAYERS = 4


def band(details: GameDetails, rule: MaterialDraws = _RULE) -> str:
    """The band of a draw with ``details`` (see :data:`BANDS`).

    >>> band(GameDetails(75, Decimal(5), Decimal(0))), band(GameDetails(12, None, None))
    ('B', '1-30')
    """
    assert details.moves is not None
    if details.moves <= rule.short_moves:
        return "1-30"
    if details.moves <= rule.long_moves:
        return "31-60"
    red, black = details.attack_red, details.attack_black
    assert red is not None and black is not None
    if red == black:
        return "A" if red == 0 else "D"
    return "B" if min(red, black) == 0 else "C"


@dataclass(frozen=True)
class DrawScoring:
    """The corpus's scored draws: how many fall in each band, and the points the rule gives."""

    counts: dict[str, int]
    red_points: dict[str, Decimal]
    black_points: dict[str, Decimal]
    unscored: int

    @property
    def scored(self) -> int:
        """Draws scored (complete records)."""
        return sum(self.counts.values())

    def to_json(self) -> dict[str, Any]:
        """Counts, shares and mean points by band, and over all."""
        total = self.scored
        bands = []
        for name in BANDS:
            n = self.counts[name]
            bands.append(
                {
                    "band": name,
                    "draws": n,
                    "share": n / total if total else None,
                    "red_points": float(self.red_points[name] / n) if n else None,
                    "black_points": float(self.black_points[name] / n) if n else None,
                }
            )
        red = sum(self.red_points.values(), Decimal(0))
        black = sum(self.black_points.values(), Decimal(0))
        return {
            "draws_scored": total,
            "draws_unscored": self.unscored,
            "bands": bands,
            "mean_red_points": float(red / total) if total else None,
            "mean_black_points": float(black / total) if total else None,
        }


def draw_scoring(rows: Iterable[GameRow]) -> DrawScoring:
    """Seed 001's draw rule over the drawn master games of ``rows``."""
    counts = dict.fromkeys(BANDS, 0)
    red = dict.fromkeys(BANDS, Decimal(0))
    black = dict.fromkeys(BANDS, Decimal(0))
    unscored = 0
    for row in rows:
        if row.kind != "master" or row.result != "1/2-1/2":
            continue
        if not row.complete:
            unscored += 1
            continue
        details = GameDetails.from_position(row.moves, row.final_fen)
        name = band(details)
        r, b = _RULE.points(details)
        counts[name] += 1
        red[name] += r
        black[name] += b
    return DrawScoring(counts, red, black, unscored)


@dataclass(frozen=True)
class Standing:
    """A player's points and rank in a round robin, as played and under seed 001."""

    player: str
    points_before: Decimal
    rank_before: int
    points_after: Decimal
    rank_after: int


@dataclass(frozen=True)
class RoundRobin:
    """A complete round robin the corpus holds."""

    event: str
    year: int | None
    players: int
    games: int
    complete: bool
    meetings: dict[int, int]
    standings: tuple[Standing, ...]

    @property
    def reordered(self) -> bool:
        """Whether seed 001's rule changes any rank."""
        return any(s.rank_before != s.rank_after for s in self.standings)

    def to_json(self) -> dict[str, Any]:
        """The event and its standings before and after."""
        return {
            "event": self.event,
            "year": self.year,
            "players": self.players,
            "games": self.games,
            "complete": self.complete,
            "pairs_by_meetings": {str(k): v for k, v in sorted(self.meetings.items())},
            "reordered": self.reordered,
            "standings": [
                {
                    "player": s.player,
                    "points_before": float(s.points_before),
                    "rank_before": s.rank_before,
                    "points_after": float(s.points_after),
                    "rank_after": s.rank_after,
                }
                for s in self.standings
            ],
        }


def _ranks(points: dict[str, Decimal]) -> dict[str, int]:
    """Rank by points, level players sharing a rank (1, 2, 2, 4)."""
    ordered = sorted(points.values(), reverse=True)
    return {p: ordered.index(v) + 1 for p, v in points.items()}


def _points(games: Sequence[GameRow], system: ScoringSystem) -> dict[str, Decimal]:
    out = {p: Decimal(0) for g in games for p in (g.red, g.black)}
    for game in games:
        result = _RESULTS[game.result]
        details = (
            GameDetails.from_position(game.moves, game.final_fen)
            if system.needs_details and result is Result.DRAW
            else GameDetails()
        )
        red, black = system.points(result, details)
        out[game.red] += red
        out[game.black] += black
    return out


def _meetings(games: Sequence[GameRow]) -> tuple[dict[int, int], bool] | None:
    """How many pairs met how many times, and whether the round robin is complete; None if some
    pair never met (or a player met themself)."""
    players = sorted({p for g in games for p in (g.red, g.black)})
    met = Counter(frozenset((g.red, g.black)) for g in games)
    reds = Counter((g.red, g.black) for g in games)
    if len(players) < MIN_PLAYERS or any(g.red == g.black for g in games):
        return None
    pairs = [frozenset(p) for p in combinations(players, 2)]
    if any(met[p] == 0 for p in pairs):
        return None
    counts = dict(Counter(met[p] for p in pairs))
    single = counts == {1: len(pairs)}
    double = counts == {2: len(pairs)} and all(
        reds[(a, b)] == reds[(b, a)] == 1 for a, b in combinations(players, 2)
    )
    return counts, single or double


def round_robins(rows: Iterable[GameRow]) -> list[RoundRobin]:
    """The round robins of the master games of ``rows`` in which every pairing is present and
    every draw can be scored (a complete record), by year and event."""
    events: dict[tuple[str, int | None], list[GameRow]] = {}
    for row in rows:
        if row.kind != "master" or row.result == "*" or not row.red or not row.black:
            continue
        name = event_name(row.event)
        if name:
            events.setdefault(("".join(simplified(name).split()), row.year), []).append(row)
    found = []
    for (_, year), games in sorted(events.items(), key=lambda kv: (kv[0][1] or 0, kv[0][0])):
        held = _meetings(games)
        if held is None:
            continue
        if any(g.result == "1/2-1/2" and not g.complete for g in games):
            continue
        before = _points(games, TRADITIONAL)
        after = _points(games, ROUND_ROBIN)
        rank_b, rank_a = _ranks(before), _ranks(after)
        standings = tuple(
            sorted(
                (Standing(p, before[p], rank_b[p], after[p], rank_a[p]) for p in before),
                key=lambda s: (s.rank_before, s.rank_after, s.player),
            )
        )
        players = len(before)
        found.append(
            RoundRobin(
                event_name(games[0].event), year, players, len(games), held[1], held[0], standings
            )
        )
    return found
