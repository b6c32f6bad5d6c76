"""Re-scoring an individual event's results under any scoring system.

:func:`rescore` turns :class:`~knockout.results.Results` into a :class:`ScoreTable`: each player's
points per round, running totals, total and progressive score (累进分: the sum of the running totals
after each round), ranked by points and then by the tie-breaks asked for (by default the
progressive score, as seed 000 does). Players tied on everything share a rank (1, 2, 2, 4). Only
players who have rows are ranked; opponents without rows have unknown totals.

Tie-breaks that need the opponents' totals (Buchholz and Sonneborn-Berger variants) are computed
in the chosen scoring system, and only when every opponent has rows; otherwise they are refused.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from itertools import accumulate
from typing import Any

from knockout import __version__
from knockout.errors import InputError, KnockoutError, Problem
from knockout.game import Result
from knockout.results import GameRow, Results
from knockout.scoring import ScoringSystem

__all__ = [
    "AVAILABLE_TIEBREAKS",
    "OPPONENT_TIEBREAKS",
    "RankMove",
    "ScoreTable",
    "Standing",
    "compare",
    "json_number",
    "parse_tiebreaks",
    "rescore",
    "to_json",
]

#: Tie-breaks this module computes itself.
AVAILABLE_TIEBREAKS = ("PS",)
#: Tie-breaks that need every opponent's total (and so every opponent's rows).
OPPONENT_TIEBREAKS = frozenset({"BH", "BH-M1", "BH-C1", "SB", "SB-C1"})
# The tie-break registry's codes (knockout.tiebreaks, from the standings work).
_REGISTRY_TIEBREAKS = (
    *("DE", "BH", "BH-M1", "BH-C1", "SB", "SB-C1", "PS", "WIN", "WON", "BWG", "BPG"),
)


@dataclass(frozen=True)
class Standing:
    """One player's line of a :class:`ScoreTable`.

    Attributes:
        name: The player.
        rank: Rank (tied players share the best rank of their group).
        points: Total points.
        progressive: Progressive score: the sum of ``running``.
        running: Total after each round, one per round of the event.
        round_points: Points scored in each round; None where the player has no game.
        tiebreaks: The tie-break values, in the order of :attr:`ScoreTable.tiebreaks`.
        games: The player's game in each round; None where the player has no game.
    """

    name: str
    rank: int
    points: Decimal
    progressive: Decimal
    running: tuple[Decimal, ...]
    round_points: tuple[Decimal | None, ...]
    tiebreaks: tuple[Decimal, ...]
    games: tuple[GameRow | None, ...] = ()


@dataclass(frozen=True)
class ScoreTable:
    """An event's results re-scored under one system.

    Attributes:
        source: Where the results came from.
        scoring: The scoring system.
        tiebreaks: Tie-break codes used after points, in order.
        rounds: Number of rounds.
        standings: One line per player with rows, best first.
    """

    source: str
    scoring: ScoringSystem
    tiebreaks: tuple[str, ...]
    rounds: int
    standings: tuple[Standing, ...]

    def standing(self, name: str) -> Standing:
        """The line of player ``name``.

        Raises:
            KeyError: If the player has no rows.
        """
        for s in self.standings:
            if s.name == name:
                return s
        raise KeyError(name)


@dataclass(frozen=True)
class RankMove:
    """How one player's rank moves from a baseline system to the chosen one.

    Attributes:
        name: The player.
        rank: Rank under the chosen system.
        points: Points under the chosen system.
        baseline_rank: Rank under the baseline system.
        baseline_points: Points under the baseline system.
    """

    name: str
    rank: int
    points: Decimal
    baseline_rank: int
    baseline_points: Decimal

    @property
    def change(self) -> int:
        """Places gained under the chosen system (negative: places lost)."""
        return self.baseline_rank - self.rank


def parse_tiebreaks(text: str) -> tuple[str, ...]:
    """Tie-break codes from a comma-separated list (``"ps, bh"`` gives ``("PS", "BH")``).

    Raises:
        ValueError: For an unknown or repeated code.
    """
    codes = tuple(c.strip().upper() for c in text.split(",") if c.strip())
    for code in codes:
        if code not in _REGISTRY_TIEBREAKS:
            raise ValueError(
                f"unknown tie-break: {code!r} (known: {', '.join(_REGISTRY_TIEBREAKS)})"
            )
    repeated = sorted({c for c in codes if codes.count(c) > 1})
    if repeated:
        raise ValueError(f"tie-break listed twice: {', '.join(repeated)}")
    return codes


def _check_details(results: Results, scoring: ScoringSystem) -> None:
    """Every draw has what ``scoring``'s draw rule needs, or an InputError lists each row."""
    if scoring.draw_rule is None:
        return
    problems = []
    for row in results.rows:
        if row.result is not Result.DRAW:
            continue
        try:
            scoring.points(row.result, row.details)
        except ValueError as exc:
            problems.append(
                Problem(results.source, f"line {row.line}", f"{exc} (scoring {scoring.name!r})")
            )
    if problems:
        raise InputError(problems)


def _check_tiebreaks(results: Results, tiebreaks: Sequence[str]) -> None:
    for code in tiebreaks:
        if code in OPPONENT_TIEBREAKS and results.opponents_without_rows:
            missing = results.opponents_without_rows
            shown = ", ".join(missing[:5]) + (", ..." if len(missing) > 5 else "")
            raise InputError.single(
                results.source,
                f"tie-break {code}",
                f"needs every opponent's total, but {len(missing)} opponents have no rows "
                f"({shown}); use PS, or add their rows",
            )
        if code not in AVAILABLE_TIEBREAKS:
            raise KnockoutError(
                f"tie-break {code} is not available yet (the tie-break registry has not landed); "
                f"available: {', '.join(AVAILABLE_TIEBREAKS)}"
            )


def _ranks(keys: Sequence[tuple[Decimal, ...]]) -> list[int]:
    """Competition ranks (1, 2, 2, 4) of rows already sorted best first by ``keys``."""
    ranks: list[int] = []
    for i, key in enumerate(keys):
        ranks.append(ranks[-1] if i and key == keys[i - 1] else i + 1)
    return ranks


def rescore(
    results: Results, scoring: ScoringSystem, *, tiebreaks: Sequence[str] = ("PS",)
) -> ScoreTable:
    """Re-score ``results`` under ``scoring`` and rank the players who have rows.

    Args:
        results: The event's game rows.
        scoring: Points per game.
        tiebreaks: Codes applied after points, in order (see :func:`parse_tiebreaks`).

    Raises:
        InputError: If ``scoring`` needs moves or material that a drawn game lacks, or a
            tie-break needs opponents who have no rows.
        KnockoutError: If a tie-break is not available.
    """
    _check_details(results, scoring)
    _check_tiebreaks(results, tiebreaks)
    unranked: list[Standing] = []
    for name in results.players:
        rows = results.by_player[name]
        games = tuple(rows.get(rnd) for rnd in range(1, results.rounds + 1))
        per_round = tuple(
            None if g is None else scoring.points_for(g.colour, g.result, g.details) for g in games
        )
        running = tuple(accumulate((x or Decimal(0) for x in per_round), initial=None))
        total = running[-1] if running else Decimal(0)
        progressive = sum(running, Decimal(0))
        values = {"PS": progressive}
        tb = tuple(values[c] for c in tiebreaks)
        unranked.append(Standing(name, 0, total, progressive, running, per_round, tb, games))
    unranked.sort(key=lambda s: (-s.points, *(-v for v in s.tiebreaks)))
    keys = [(s.points, *s.tiebreaks) for s in unranked]
    standings = tuple(replace(s, rank=rank) for rank, s in zip(_ranks(keys), unranked, strict=True))
    return ScoreTable(results.source, scoring, tuple(tiebreaks), results.rounds, standings)


def compare(table: ScoreTable, baseline: ScoreTable) -> tuple[RankMove, ...]:
    """How ranks move from ``baseline`` to ``table`` (same players), in ``table``'s order."""
    base = {s.name: s for s in baseline.standings}
    return tuple(
        RankMove(s.name, s.rank, s.points, base[s.name].rank, base[s.name].points)
        for s in table.standings
    )


def json_number(value: Decimal) -> int | float:
    """``value`` as a JSON number without binary noise (``16.4``, never ``16.399999``).

    A float's repr is the shortest decimal that round-trips, so a Decimal with at most 15
    significant digits comes back as written.
    """
    return int(value) if value == value.to_integral_value() else float(value)


def _standing_json(s: Standing, tiebreaks: Sequence[str]) -> dict[str, Any]:
    return {
        "name": s.name,
        "rank": s.rank,
        "points": json_number(s.points),
        "progressive": json_number(s.progressive),
        "running": [json_number(x) for x in s.running],
        "round_points": [None if x is None else json_number(x) for x in s.round_points],
        "tiebreaks": {c: json_number(v) for c, v in zip(tiebreaks, s.tiebreaks, strict=True)},
    }


def to_json(table: ScoreTable, *, baseline: ScoreTable | None = None) -> dict[str, Any]:
    """The JSON document of ``knockout rescore --json``.

    ``{"version", "source", "scoring", "tiebreaks", "rounds", "players": [{"name", "rank",
    "points", "progressive", "running", "round_points", "tiebreaks"}]}``; with a ``baseline``,
    each player also has ``baseline_rank`` and ``rank_change`` (places gained), and ``"compare"``
    holds the baseline's own ``scoring`` and ``players``.
    """
    players = [_standing_json(s, table.tiebreaks) for s in table.standings]
    doc: dict[str, Any] = {
        "version": __version__,
        "source": table.source,
        "scoring": table.scoring.name,
        "tiebreaks": list(table.tiebreaks),
        "rounds": table.rounds,
        "players": players,
    }
    if baseline is not None:
        for entry, move in zip(players, compare(table, baseline), strict=True):
            entry["baseline_rank"] = move.baseline_rank
            entry["rank_change"] = move.change
        doc["compare"] = {
            "scoring": baseline.scoring.name,
            "players": [_standing_json(s, baseline.tiebreaks) for s in baseline.standings],
        }
    return doc
