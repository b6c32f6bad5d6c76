"""Re-scoring an individual event's results under any scoring system.

:func:`rescore` turns :class:`~knockout.scoring.results.Results` into a :class:`ScoreTable`: each
player's points per round, running totals, total and progressive score (累进分: the sum of the
running totals after each round), ranked by points and then by the tie-breaks asked for (default:
the progressive score, as seed 000 does). The results become a
:class:`~knockout.standings.records.CrossTable` whose entries carry the chosen system's points, and
the totals, progressive scores and ranking come from the tie-break registry
(:mod:`knockout.standings.tiebreaks`), so every tie-break works in the chosen system. Players tied
on everything share a rank (1, 2, 2, 4). A round in which a player with rows has no row is an
absence (FIDE: a voluntarily unplayed round, 0 points).

Only players with rows are ranked. An opponent without rows enters the cross table as a
placeholder holding only the games the file shows, at -1 point each, so that it ranks below every
real player (whose totals are never negative) and never joins their ties; placeholders are left
out of the table. Tie-breaks that need opponents' totals (Buchholz and Sonneborn-Berger, with any
modifier) are therefore refused unless every opponent has rows.

The tie-breaks follow the same conventions as ``knockout standings``
(:class:`~knockout.standings.conventions.Conventions`): FIDE's rules in force on the event's start
date (a results file carries no date, so the newest unless a date or a version is given), and
round-robin conventions when every two players met equally often, once or twice.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from typing import Any

import numpy as np

from knockout.errors import InputError, Problem
from knockout.io.envelope import envelope
from knockout.points import ScoringSystem
from knockout.scoring.results import GameRow, Results
from knockout.standings.conventions import Conventions, Rules, TournamentKind
from knockout.standings.records import CrossTable, Entry, Kind, PointScale
from knockout.standings.tiebreaks import (
    TieBreak,
    get_tiebreak,
    json_number,
    progressive_score,
    rank_players,
    running_totals,
)

__all__ = [
    "PLACEHOLDER_POINTS",
    "RankMove",
    "ScoreTable",
    "Standing",
    "compare",
    "cross_table",
    "event_conventions",
    "needs_opponents",
    "point_scale",
    "rescore",
    "to_json",
]

#: Points of each game entry of an opponent who has no rows of its own.
PLACEHOLDER_POINTS = Decimal(-1)


def needs_opponents(tiebreak: TieBreak) -> bool:
    """Whether ``tiebreak`` uses opponents' totals (Buchholz, Sonneborn-Berger, any modifier)."""
    return tiebreak.code.startswith(("BH", "SB"))


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
        tiebreaks: Each tie-break's value by code (None where it does not apply).
        games: The player's game in each round; None where the player has no game.
    """

    name: str
    rank: int
    points: Decimal
    progressive: Decimal
    running: tuple[Decimal, ...]
    round_points: tuple[Decimal | None, ...]
    tiebreaks: Mapping[str, Decimal | None]
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
        conventions: The tie-break rules version and tournament kind used.
    """

    source: str
    scoring: ScoringSystem
    tiebreaks: tuple[str, ...]
    rounds: int
    standings: tuple[Standing, ...]
    conventions: Conventions = field(default_factory=Conventions)

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


def _draw_points(scoring: ScoringSystem) -> Decimal:
    """What a draw is worth where FIDE C.07 counts an unplayed round "as a draw"."""
    if scoring.draw_rule is not None:
        return scoring.draw_rule.bare
    return (scoring.red_draw + scoring.black_draw) / 2


def point_scale(scoring: ScoringSystem) -> PointScale:
    """The points of every kind of entry under ``scoring``: games by its table, an unplayed win
    (forfeit win, full-point or pairing-allocated bye) the larger of its two wins, an unplayed
    draw (a half-point bye) its draw as FIDE C.07 counts one, an unplayed loss nothing.

    >>> from knockout.points import get_scoring
    >>> from knockout.standings.records import Kind, Outcome
    >>> point_scale(get_scoring("difference")).points(Kind.PAIRING_BYE, Outcome.WIN, None)
    Decimal('2.1')
    """
    return PointScale(
        scoring.name, scoring, max(scoring.red_win, scoring.black_win), _draw_points(scoring)
    )


def _points(scoring: ScoringSystem, row: GameRow, source: str) -> Decimal:
    try:
        return scoring.points_for(row.colour, row.result, row.details)
    except ValueError as exc:
        raise InputError.single(
            source, f"line {row.line}", f"{exc} (scoring {scoring.name!r})"
        ) from None


def cross_table(results: Results, scoring: ScoringSystem) -> CrossTable:
    """The cross table of ``results`` with every game's points under ``scoring``.

    Opponents without rows are placeholders (see the module docstring).

    Raises:
        InputError: If ``scoring`` needs moves or material that a drawn game lacks (every such
            row is reported).
    """
    problems: list[Problem] = []
    placeholders = set(results.opponents_without_rows)
    entries: list[tuple[str, Entry]] = []
    for row in results.rows:
        try:
            points = _points(scoring, row, results.source)
        except InputError as exc:
            problems.extend(exc.problems)
            continue
        entries.append(
            (
                row.player,
                Entry(row.round, row.opponent, row.colour, row.outcome, Kind.PLAYED, points),
            )
        )
        if row.opponent in placeholders:
            mirror = Entry(
                row.round,
                row.player,
                row.colour.other,
                row.outcome.reverse,
                Kind.PLAYED,
                PLACEHOLDER_POINTS,
            )
            entries.append((row.opponent, mirror))
    if problems:
        raise InputError(problems)
    draw = _draw_points(scoring)
    scale = point_scale(scoring)
    return CrossTable.from_entries(
        [*results.players, *results.opponents_without_rows],
        entries,
        rounds=results.rounds,
        draw_points=draw,
        title=results.source,
        scale=scale,
    )


def event_conventions(
    results: Results,
    scoring: ScoringSystem,
    *,
    rules: Rules | None = None,
    tournament: TournamentKind | None = None,
    on: date | None = None,
) -> Conventions:
    """The tie-break conventions of the event in ``results``, unless overridden.

    See :meth:`~knockout.standings.conventions.Conventions.for_event`; a results file has no
    date, so the rules are the newest unless ``rules`` or a start date ``on`` says otherwise.

    Raises:
        InputError: As :func:`cross_table`.
    """
    table = cross_table(results, scoring)
    return Conventions.for_event(table, rules=rules, tournament=tournament, on=on)


def rescore(
    results: Results,
    scoring: ScoringSystem,
    *,
    tiebreaks: Sequence[TieBreak | str] = ("PS",),
    rng: np.random.Generator | None = None,
    conventions: Conventions | None = None,
) -> ScoreTable:
    """Re-score ``results`` under ``scoring`` and rank the players who have rows.

    Args:
        results: The event's game rows.
        scoring: Points per game.
        tiebreaks: Tie-breaks of :mod:`knockout.standings.tiebreaks` (or their codes) after points.
        rng: Random generator, needed only for the drawing of lots (``lots``).
        conventions: Rules version and tournament kind of the tie-breaks; default: those of the
            event (:meth:`~knockout.standings.conventions.Conventions.for_event`).

    Raises:
        InputError: If ``scoring`` needs moves or material that a drawn game lacks, or a
            tie-break needs opponents who have no rows.
        ValueError: For an unknown or repeated tie-break, or ``lots`` without ``rng``.
    """
    chosen = tuple(tb if isinstance(tb, TieBreak) else get_tiebreak(tb) for tb in tiebreaks)
    missing = results.opponents_without_rows
    for tb in chosen:
        if needs_opponents(tb) and missing:
            shown = ", ".join(missing[:5]) + (", ..." if len(missing) > 5 else "")
            raise InputError.single(
                results.source,
                f"tie-break {tb.code}",
                f"needs every opponent's total, but {len(missing)} opponents have no rows "
                f"({shown}); use PS, or add their rows",
            )
    table = cross_table(results, scoring)
    ranked = rank_players(table, chosen, rng=rng, conventions=conventions)
    lines = []
    for s in ranked.players[: len(results.players)]:
        games = tuple(results.by_player[s.name].get(r) for r in range(1, results.rounds + 1))
        entries = table.entries[s.name]
        lines.append(
            Standing(
                name=s.name,
                rank=s.rank,
                points=s.points,
                progressive=progressive_score(table, s.name),
                running=running_totals(table, s.name),
                round_points=tuple(
                    None if g is None else e.points for g, e in zip(games, entries, strict=True)
                ),
                tiebreaks=s.tiebreaks,
                games=games,
            )
        )
    # Placeholders rank below every real player (their totals are negative, real ones are not).
    assert {s.name for s in lines} == set(results.players)
    return ScoreTable(
        results.source, scoring, ranked.codes, results.rounds, tuple(lines), ranked.conventions
    )


def compare(table: ScoreTable, baseline: ScoreTable) -> tuple[RankMove, ...]:
    """How ranks move from ``baseline`` to ``table`` (same players), in ``table``'s order."""
    base = {s.name: s for s in baseline.standings}
    return tuple(
        RankMove(s.name, s.rank, s.points, base[s.name].rank, base[s.name].points)
        for s in table.standings
    )


def _standing_json(s: Standing) -> dict[str, Any]:
    return {
        "name": s.name,
        "rank": s.rank,
        "points": json_number(s.points),
        "progressive": json_number(s.progressive),
        "running": [json_number(x) for x in s.running],
        "round_points": [json_number(x) for x in s.round_points],
        "tiebreaks": {code: json_number(v) for code, v in s.tiebreaks.items()},
    }


def to_json(
    table: ScoreTable, *, baseline: ScoreTable | None = None, seed: int | None = None
) -> dict[str, Any]:
    """The JSON document of ``knockout rescore --json``.

    ``{"version", "seed" (when one was given), "source", "scoring", "tiebreaks", "rules",
    "tournament", "rounds", "players": [{"name", "rank", "points", "progressive", "running",
    "round_points", "tiebreaks"}]}``; ``rules`` and ``tournament`` are the conventions the
    tie-breaks were computed under. With a ``baseline``, each player also has ``baseline_rank``
    and ``rank_change`` (places gained), and ``"compare"`` holds the baseline's own ``scoring``
    and ``players``. Numbers are JSON numbers without binary noise
    (:func:`knockout.standings.tiebreaks.json_number`).
    """
    players = [_standing_json(s) for s in table.standings]
    doc: dict[str, Any] = {
        "source": table.source,
        "scoring": table.scoring.name,
        "tiebreaks": list(table.tiebreaks),
        **table.conventions.to_json(),
        "rounds": table.rounds,
        "players": players,
    }
    if baseline is not None:
        for entry, move in zip(players, compare(table, baseline), strict=True):
            entry["baseline_rank"] = move.baseline_rank
            entry["rank_change"] = move.change
        doc["compare"] = {
            "scoring": baseline.scoring.name,
            "players": [_standing_json(s) for s in baseline.standings],
        }
    return envelope(doc, seed=seed)
