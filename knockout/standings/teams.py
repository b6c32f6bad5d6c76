"""Team events (seed 003's 场分 and 局分): match points, game points, then the other tie-breaks.

A team match is several boards between two teams. Each board is a game scored 1 / 0.5 / 0; a
team's **game points** (局分) are the sum of its boards' results, and the team with more game
points wins the match: **match points** (场分) 2 for a win, 1 for a draw (equal game points), 0
for a loss. Seed 003's example: A 2.5 : B 0.5 gives A 2 match points and B 0.

Teams are ranked by match points, then by game points, then by the tie-breaks the user orders
(:func:`rank_teams`). The other tie-breaks are the registry's
(:mod:`knockout.standings.tiebreaks`), computed over a cross table of teams whose entries are the
matches and whose points are match points (:func:`team_crosstable`): ``BH`` is then the sum of
the opponents' match points, ``DE`` the match points among the tied teams, ``WIN`` the matches
won, as FIDE C.07 defines them for team events. A match has no colour; in the cross table the
team named first (``home``) counts as Red, as FIDE names first the team with White on board 1,
so ``BPG`` counts a team's matches as the second-named team.

The team results file (CSV, UTF-8 with or without a byte-order mark), one row per board::

    round,home,away,board,result
    1,红队,蓝队,1,win

``result`` is the home side's player's: ``win``, ``draw`` or ``loss`` (also ``1-0``,
``1/2-1/2``, ``0-1``; ``+-`` and ``-+`` for a board won or lost by forfeit, counted as a win or a
loss). Optional columns ``home_colour`` (``red`` or ``black``, the home player's colour),
``home_player`` and ``away_player`` are checked and kept but do not change the ranking, so seed
001's league files (``knockout league``) are team results files too.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal

import numpy as np

from knockout.errors import InputError, Problem
from knockout.game import Colour
from knockout.io.csvrows import Row, parse_rows
from knockout.points import ScoringSystem
from knockout.standings.conventions import Conventions
from knockout.standings.records import (
    CrossTable,
    Entry,
    Kind,
    Outcome,
    PointScale,
    normalise_name,
)
from knockout.standings.tiebreaks import (
    Standings,
    TieBreak,
    TieValue,
    get_tiebreak,
    rank_players,
)

__all__ = [
    "GAME_POINTS",
    "MATCH_POINTS",
    "TEAM_COLUMNS",
    "TEAM_OPTIONAL",
    "TeamBoard",
    "TeamEvent",
    "TeamMatch",
    "game_points_tiebreak",
    "is_team_header",
    "parse_team_results",
    "rank_teams",
    "team_crosstable",
]

D = Decimal
TEAM_COLUMNS = ("round", "home", "away", "board", "result")
"""The required header columns of a team results file."""
TEAM_OPTIONAL = ("home_colour", "home_player", "away_player")

#: A board's game points for the home player's outcome (seed 003's 局分: win 1, draw 1/2).
GAME_POINTS: Mapping[Outcome, Decimal] = {
    Outcome.WIN: D(1),
    Outcome.DRAW: D("0.5"),
    Outcome.LOSS: D(0),
}
#: Match points (场分): win 2, draw 1, loss 0.
MATCH_POINTS: Mapping[Outcome, Decimal] = {
    Outcome.WIN: D(2),
    Outcome.DRAW: D(1),
    Outcome.LOSS: D(0),
}
#: The points of the team cross table's entries: match points, whatever the colour.
MATCH_SCALE = PointScale(
    "match points",
    ScoringSystem(
        "match points",
        MATCH_POINTS[Outcome.WIN],
        MATCH_POINTS[Outcome.WIN],
        MATCH_POINTS[Outcome.DRAW],
        MATCH_POINTS[Outcome.DRAW],
        description="team match: win 2, draw 1, loss 0 (seed 003's 场分)",
    ),
    unplayed_win=MATCH_POINTS[Outcome.WIN],
    unplayed_draw=MATCH_POINTS[Outcome.DRAW],
)

_RESULTS: Mapping[str, tuple[Outcome, bool]] = {
    "win": (Outcome.WIN, False),
    "1-0": (Outcome.WIN, False),
    "draw": (Outcome.DRAW, False),
    "1/2-1/2": (Outcome.DRAW, False),
    "loss": (Outcome.LOSS, False),
    "0-1": (Outcome.LOSS, False),
    "+-": (Outcome.WIN, True),
    "-+": (Outcome.LOSS, True),
}


@dataclass(frozen=True)
class TeamBoard:
    """One board of a team match.

    Attributes:
        number: Board number (1 first).
        outcome: The home side's player's result.
        forfeit: Whether it was won or lost by forfeit (game points count it all the same).
        home_colour: The home player's colour, if the file says.
        home_player: The home player, if the file says.
        away_player: The away player, if the file says.
        line: The row's line in the file (0 if not from a file).
    """

    number: int
    outcome: Outcome
    forfeit: bool = False
    home_colour: Colour | None = None
    home_player: str = ""
    away_player: str = ""
    line: int = 0


@dataclass(frozen=True)
class TeamMatch:
    """One match between two teams.

    Attributes:
        round: Round number.
        home: The team named first.
        away: The other.
        boards: Its boards, in board order.
    """

    round: int
    home: str
    away: str
    boards: tuple[TeamBoard, ...]

    @property
    def game_points(self) -> tuple[Decimal, Decimal]:
        """``(home, away)`` game points (局分): the sum of each side's board results.

        >>> m = TeamMatch(1, "A", "B", tuple(TeamBoard(n, o) for n, o in enumerate(
        ...     (Outcome.WIN, Outcome.WIN, Outcome.DRAW), 1)))
        >>> m.game_points, m.match_points
        ((Decimal('2.5'), Decimal('0.5')), (Decimal('2'), Decimal('0')))
        """
        home = sum((GAME_POINTS[b.outcome] for b in self.boards), D(0))
        away = sum((GAME_POINTS[b.outcome.reverse] for b in self.boards), D(0))
        return home, away

    @property
    def outcome(self) -> Outcome:
        """The home team's match result: more game points wins."""
        home, away = self.game_points
        return Outcome.WIN if home > away else Outcome.LOSS if home < away else Outcome.DRAW

    @property
    def match_points(self) -> tuple[Decimal, Decimal]:
        """``(home, away)`` match points (场分): 2 / 1 / 0."""
        return MATCH_POINTS[self.outcome], MATCH_POINTS[self.outcome.reverse]


@dataclass(frozen=True)
class TeamEvent:
    """A team event's matches.

    Attributes:
        matches: The matches, in round order.
        teams: Every team, in order of first appearance.
        title: The event's name (the file's).
    """

    matches: tuple[TeamMatch, ...]
    teams: tuple[str, ...]
    title: str = ""

    @classmethod
    def from_matches(cls, matches: Iterable[TeamMatch], *, title: str = "") -> TeamEvent:
        """The event of ``matches`` (teams in order of first appearance)."""
        ordered = tuple(sorted(matches, key=lambda m: m.round))
        teams = tuple(dict.fromkeys(t for m in ordered for t in (m.home, m.away)))
        return cls(ordered, teams, title)

    def game_points(self) -> dict[str, Decimal]:
        """Each team's game points over the event."""
        out = dict.fromkeys(self.teams, D(0))
        for m in self.matches:
            home, away = m.game_points
            out[m.home] += home
            out[m.away] += away
        return out


def team_crosstable(event: TeamEvent) -> CrossTable:
    """The cross table of teams: one entry per team and round, its points the match points.

    The home team counts as Red (the team named first), the away team as Black; a round without
    a match is an absence (0 match points), as a player's round without a game.
    """
    entries: list[tuple[str, Entry]] = []
    for m in event.matches:
        outcome = m.outcome
        for team, opponent, colour, own in (
            (m.home, m.away, Colour.RED, outcome),
            (m.away, m.home, Colour.BLACK, outcome.reverse),
        ):
            entries.append(
                (team, Entry(m.round, opponent, colour, own, Kind.PLAYED, MATCH_POINTS[own]))
            )
    return CrossTable.from_entries(
        event.teams,
        entries,
        draw_points=MATCH_POINTS[Outcome.DRAW],
        title=event.title,
        scale=MATCH_SCALE,
    )


def game_points_tiebreak(event: TeamEvent) -> TieBreak:
    """``GP``: the team's game points (局分), the first tie-break after match points."""
    points = event.game_points()

    def evaluate(
        table: CrossTable,
        group: Sequence[str],
        rng: np.random.Generator | None,
        conventions: Conventions,
    ) -> Mapping[str, TieValue]:
        return {name: TieValue(points[name], (points[name],)) for name in group}

    return TieBreak("GP", "game points", "sum of the team's board results (局分)", evaluate)


def rank_teams(
    event: TeamEvent,
    tiebreaks: Sequence[TieBreak | str],
    *,
    rng: np.random.Generator | None = None,
    conventions: Conventions | None = None,
) -> Standings:
    """Rank the teams by match points, then game points, then ``tiebreaks`` in order.

    ``GP`` (game points) comes first unless ``tiebreaks`` names it somewhere else. The other
    codes are the registry's, over :func:`team_crosstable` (points: match points).

    Raises:
        ValueError: For an unknown or repeated code, or ``lots`` without ``rng``.
    """
    gp = game_points_tiebreak(event)
    chosen: list[TieBreak] = []
    for tb in tiebreaks:
        if isinstance(tb, TieBreak):
            chosen.append(tb)
        else:
            chosen.append(gp if tb.strip().upper() == "GP" else get_tiebreak(tb))
    if all(tb.code != "GP" for tb in chosen):
        chosen.insert(0, gp)
    table = team_crosstable(event)
    standings = rank_players(table, chosen, rng=rng, conventions=conventions)
    return replace(standings, teams=True)


def is_team_header(text: str) -> bool:
    """Whether a CSV's header names the team results columns (``board`` among them)."""
    for line in text.lstrip("\ufeff").splitlines():
        if line.strip():
            cells = {c.strip().casefold() for c in line.split(",")}
            return {"board", "home", "away"} <= cells
    return False


def _board(row: Row, source: str) -> tuple[tuple[int, str, str], TeamBoard] | list[Problem]:
    cells = row.cells
    problems: list[Problem] = []
    numbers: dict[str, int] = {}
    for column in ("round", "board"):
        text = cells[column]
        if text.isascii() and text.isdigit() and int(text) >= 1:
            numbers[column] = int(text)
        else:
            problems.append(
                Problem(source, row.where(column), f"expected a whole number >= 1, got {text!r}")
            )
    home, away = normalise_name(cells["home"]), normalise_name(cells["away"])
    for column, name in (("home", home), ("away", away)):
        if not name:
            problems.append(Problem(source, row.where(column), "expected a team, got nothing"))
    if home and home == away:
        problems.append(Problem(source, row.where("away"), f"{home!r} cannot play itself"))
    result = _RESULTS.get(cells["result"].strip().lower())
    if result is None:
        problems.append(
            Problem(
                source,
                row.where("result"),
                f"expected {', '.join(_RESULTS)} (the home player's result), got "
                f"{cells['result']!r}",
            )
        )
    colour: Colour | None = None
    if cells.get("home_colour", ""):
        try:
            colour = Colour(cells["home_colour"].strip().lower())
        except ValueError:
            problems.append(
                Problem(
                    source,
                    row.where("home_colour"),
                    f"expected 'red' or 'black', got {cells['home_colour']!r}",
                )
            )
    if problems or result is None:
        return problems
    board = TeamBoard(
        numbers["board"],
        result[0],
        result[1],
        colour,
        normalise_name(cells.get("home_player", "")),
        normalise_name(cells.get("away_player", "")),
        row.line,
    )
    return (numbers["round"], home, away), board


def parse_team_results(text: str, *, source: str, title: str = "") -> TeamEvent:
    """The team event in a team results CSV (see the module docstring for the format).

    Raises:
        InputError: Listing every problem: bad cells, a board given twice, a match whose boards
            are not 1 to n, matches of different sizes, a team in two matches of one round.
    """
    problems: list[Problem] = []
    boards: dict[tuple[int, str, str], list[TeamBoard]] = {}
    for item in parse_rows(text, source=source, required=TEAM_COLUMNS, optional=TEAM_OPTIONAL):
        parsed = [item] if isinstance(item, Problem) else _board(item, source)
        if isinstance(parsed, list):
            problems += parsed
            continue
        key, board = parsed
        boards.setdefault(key, []).append(board)
    if not boards and not problems:
        problems.append(Problem(source, "", "no board rows after the header"))
    matches: list[TeamMatch] = []
    playing: dict[tuple[int, str], tuple[str, str]] = {}
    sizes: dict[int, tuple[int, str]] = {}  # 0: the first match's board count and name
    for (rnd, home, away), given in boards.items():
        lines = ", ".join(str(b.line) for b in given)
        where = f"lines {lines}" if len(given) > 1 else f"line {lines}"
        what = f"round {rnd}, {home} v {away}"
        for team in (home, away):
            other = playing.setdefault((rnd, team), (home, away))
            if other != (home, away):
                problems.append(
                    Problem(
                        source,
                        where,
                        f"{what}: {team} also plays {' v '.join(other)} in round {rnd}",
                    )
                )
        numbers = sorted(b.number for b in given)
        if numbers != list(range(1, len(given) + 1)):
            problems.append(
                Problem(
                    source,
                    where,
                    f"{what}: expected boards 1 to {len(given)} once each, got "
                    f"{', '.join(map(str, numbers))}",
                )
            )
            continue
        size, first = sizes.setdefault(0, (len(given), what))
        if len(given) != size:
            problems.append(
                Problem(
                    source,
                    where,
                    f"{what}: {len(given)} boards, but {first} has {size}: every match of a "
                    "team event has the same number of boards",
                )
            )
            continue
        matches.append(TeamMatch(rnd, home, away, tuple(sorted(given, key=lambda b: b.number))))
    if problems:
        raise InputError(problems)
    return TeamEvent.from_matches(matches, title=title)
