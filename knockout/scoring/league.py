"""Team league of seed 001 (part 一; RULES.md section 3): board points, match points, table.

A match has four boards; board 1 is the captains' (主将). If a captain has Red, his three team-mates
all have Black, and vice versa (the home side chooses its captain's colour). Board points come from
two scoring systems (:data:`~knockout.points.LEAGUE_CAPTAIN`: win 5, draw Black 3 / Red 2;
:data:`~knockout.points.LEAGUE_BOARD`: win 3, draw Black 1.5 / Red 1). The side with more board
points takes 3 match points, the other 0, except that when the captains draw and the other three
boards are three draws or one win, one draw and one loss, the side with more board points takes 1
and the other 0.5. Under the colour rule the two sides' board points are never equal.

League ranking (seed 001, 一.7): match points; head-to-head; total board points; Black wins; Red
wins; Black draws; Red draws. Head-to-head is the match points earned in the matches among the
teams still tied, and counts only if each pair of them has met (as RULES.md section 4 says of the
direct encounter); the later criteria then split what is left. Teams equal on every criterion share
a rank.

The CSV format (UTF-8, with or without a byte-order mark), one row per board::

    round,home,away,board,home_colour,result
    1,红队,蓝队,1,red,draw

``home_colour`` is the colour of the home side's player on that board (``red``/``black``) and
``result`` is that player's result: ``win``, ``draw`` or ``loss`` (from the home side, like
``knockout rescore``'s rows). Nothing else is accepted.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from itertools import combinations
from pathlib import Path
from typing import Any

from knockout.errors import InputError, Problem
from knockout.game import Colour
from knockout.io.csvrows import Row, parse_rows
from knockout.io.text import read_text
from knockout.points import LEAGUE_BOARD, LEAGUE_CAPTAIN, ScoringSystem
from knockout.standings.records import Outcome, normalise_name
from knockout.standings.tiebreaks import json_number
from knockout.version import __version__

__all__ = [
    "COLUMNS",
    "LEAGUE_RULES",
    "RANKING_CHAIN",
    "Board",
    "LeagueMatch",
    "LeagueRules",
    "LeagueTable",
    "TeamLine",
    "league_table",
    "parse_league",
    "read_league",
    "to_json",
]

COLUMNS = ("round", "home", "away", "board", "home_colour", "result")
#: The seed's league ranking criteria, in order (seed 001, 一.7).
RANKING_CHAIN = (
    "match_points",
    "head_to_head",
    "board_points",
    "black_wins",
    "red_wins",
    "black_draws",
    "red_draws",
)
D = Decimal


@dataclass(frozen=True)
class LeagueRules:
    """Points of the seed's team league.

    Attributes:
        captain: Board points of the captains' board (board 1).
        board: Board points of the other boards.
        boards: Boards per match.
        win: Match points for more board points.
        narrow_win: Match points for more board points in a narrow match (captains drew and the
            other boards went three draws, or one win, one draw and one loss).
        narrow_loss: Match points for fewer board points in a narrow match.
        loss: Match points for fewer board points otherwise.
    """

    captain: ScoringSystem = LEAGUE_CAPTAIN
    board: ScoringSystem = LEAGUE_BOARD
    boards: int = 4
    win: Decimal = Decimal(3)
    narrow_win: Decimal = Decimal(1)
    narrow_loss: Decimal = Decimal("0.5")
    loss: Decimal = Decimal(0)

    def board_points(
        self, number: int, home_colour: Colour, outcome: Outcome
    ) -> tuple[Decimal, Decimal]:
        """``(home, away)`` board points of board ``number`` (1 is the captains')."""
        system = self.captain if number == 1 else self.board
        result = outcome.to_result(home_colour)
        home = system.points_for(home_colour, result)
        away = system.points_for(home_colour.other, result)
        return home, away

    def is_narrow(self, outcomes: Sequence[Outcome]) -> bool:
        """Whether a match with these board outcomes (board 1 first) scores 1 / 0.5."""
        others = Counter(outcomes[1:])
        return outcomes[0] is Outcome.DRAW and others in (
            Counter({Outcome.DRAW: 3}),
            Counter({Outcome.WIN: 1, Outcome.DRAW: 1, Outcome.LOSS: 1}),
        )


LEAGUE_RULES = LeagueRules()


@dataclass(frozen=True)
class Board:
    """One board of a match.

    Attributes:
        number: Board number, 1 (captains) to 4.
        home_colour: Colour of the home side's player.
        outcome: The home side's player's result.
        line: Line of the row in the file (0 if not from a file).
    """

    number: int
    home_colour: Colour
    outcome: Outcome
    line: int = 0


@dataclass(frozen=True)
class LeagueMatch:
    """One match between two teams.

    Attributes:
        round: Round number.
        home: Home team.
        away: Away team.
        boards: The boards in board order (1 first).
        rules: Points of the league.

    Raises:
        ValueError: If the boards are not 1 to ``rules.boards`` or break the colour rule.
    """

    round: int
    home: str
    away: str
    boards: tuple[Board, ...]
    rules: LeagueRules = field(default=LEAGUE_RULES, repr=False)

    def __post_init__(self) -> None:
        if [b.number for b in self.boards] != list(range(1, self.rules.boards + 1)):
            raise ValueError(f"expected boards 1 to {self.rules.boards} in order: {self.boards}")
        captain = self.boards[0].home_colour
        if any(b.home_colour is captain for b in self.boards[1:]):
            raise ValueError("the captain's team-mates must all have the other colour")

    @property
    def board_points(self) -> tuple[Decimal, Decimal]:
        """``(home, away)`` total board points."""
        pairs = [self.rules.board_points(b.number, b.home_colour, b.outcome) for b in self.boards]
        return sum((h for h, _ in pairs), D(0)), sum((a for _, a in pairs), D(0))

    @property
    def is_narrow(self) -> bool:
        """Whether this match scores 1 / 0.5 instead of 3 / 0."""
        return self.rules.is_narrow([b.outcome for b in self.boards])

    @property
    def match_points(self) -> tuple[Decimal, Decimal]:
        """``(home, away)`` match points."""
        home, away = self.board_points
        if home == away:  # the colour rule makes this impossible (tests enumerate every case)
            raise ValueError(f"equal board points {home}: the league rules do not say who wins")
        high, low = (
            (self.rules.narrow_win, self.rules.narrow_loss)
            if self.is_narrow
            else (self.rules.win, self.rules.loss)
        )
        return (high, low) if home > away else (low, high)

    def games_of(self, team: str) -> list[tuple[Colour, Outcome]]:
        """``team``'s colour and result on each board."""
        if team == self.home:
            return [(b.home_colour, b.outcome) for b in self.boards]
        return [(b.home_colour.other, b.outcome.reverse) for b in self.boards]

    def is_won_by(self, team: str) -> bool:
        """Whether ``team`` has more board points than its opponent."""
        home, away = self.board_points
        return home > away if team == self.home else away > home

    def points_of(self, team: str) -> tuple[Decimal, Decimal]:
        """``team``'s ``(match points, board points)``."""
        side = 0 if team == self.home else 1
        return self.match_points[side], self.board_points[side]


@dataclass(frozen=True)
class TeamLine:
    """One team's line of the league table.

    Attributes:
        team: The team.
        rank: Rank (teams equal on the whole chain share a rank).
        played: Matches played.
        won: Matches won 3-0.
        narrow_won: Narrow matches won (1 match point).
        narrow_lost: Narrow matches lost (0.5 match points).
        lost: Matches lost 0-3.
        match_points: Total match points.
        board_points: Total board points.
        black_wins: Games won with Black.
        red_wins: Games won with Red.
        black_draws: Games drawn with Black.
        red_draws: Games drawn with Red.
        head_to_head: Match points among the teams it was tied with on match points, when that
            criterion was used to split them; else None.
    """

    team: str
    rank: int
    played: int
    won: int
    narrow_won: int
    narrow_lost: int
    lost: int
    match_points: Decimal
    board_points: Decimal
    black_wins: int
    red_wins: int
    black_draws: int
    red_draws: int
    head_to_head: Decimal | None = None


@dataclass(frozen=True)
class LeagueTable:
    """A league's matches and its ranked table.

    Attributes:
        source: Where the results came from.
        matches: The matches, in round order.
        teams: The table, best first.
    """

    source: str
    matches: tuple[LeagueMatch, ...]
    teams: tuple[TeamLine, ...]


def _head_to_head(
    group: Sequence[str], matches: Sequence[LeagueMatch]
) -> dict[str, Decimal] | None:
    members = set(group)
    among = [m for m in matches if m.home in members and m.away in members]
    met = {frozenset((m.home, m.away)) for m in among}
    if any(frozenset(pair) not in met for pair in combinations(group, 2)):
        return None
    points = dict.fromkeys(group, D(0))
    for m in among:
        points[m.home] += m.match_points[0]
        points[m.away] += m.match_points[1]
    return points


def league_table(matches: Sequence[LeagueMatch], *, source: str = "") -> LeagueTable:
    """The league table of ``matches``, ranked by the seed's chain (:data:`RANKING_CHAIN`)."""
    ordered = tuple(sorted(matches, key=lambda m: m.round))
    teams = list(dict.fromkeys(t for m in ordered for t in (m.home, m.away)))
    stats: dict[str, dict[str, Any]] = {}
    for team in teams:
        played = [m for m in ordered if team in (m.home, m.away)]
        games = Counter(g for m in played for g in m.games_of(team))
        kinds = Counter((m.is_narrow, m.is_won_by(team)) for m in played)
        stats[team] = {
            "played": len(played),
            "won": kinds[False, True],
            "narrow_won": kinds[True, True],
            "narrow_lost": kinds[True, False],
            "lost": kinds[False, False],
            "match_points": sum((m.points_of(team)[0] for m in played), D(0)),
            "board_points": sum((m.points_of(team)[1] for m in played), D(0)),
            "black_wins": games[Colour.BLACK, Outcome.WIN],
            "red_wins": games[Colour.RED, Outcome.WIN],
            "black_draws": games[Colour.BLACK, Outcome.DRAW],
            "red_draws": games[Colour.RED, Outcome.DRAW],
            "head_to_head": None,
        }

    def simple(name: str) -> Callable[[Sequence[str]], dict[str, Decimal] | None]:
        return lambda group: {t: D(stats[t][name]) for t in group}

    def head_to_head(group: Sequence[str]) -> dict[str, Decimal] | None:
        values = _head_to_head(group, ordered)
        if values is not None:
            for t, v in values.items():
                stats[t]["head_to_head"] = v
        return values

    criteria = {name: simple(name) for name in RANKING_CHAIN if name != "head_to_head"}
    criteria["head_to_head"] = head_to_head
    groups: list[list[str]] = [teams]
    for name in RANKING_CHAIN:
        split: list[list[str]] = []
        for group in groups:
            values = criteria[name](group) if len(group) > 1 else None
            if values is None:
                split.append(group)
                continue
            for value in sorted(set(values.values()), reverse=True):
                split.append([t for t in group if values[t] == value])
        groups = split
    lines: list[TeamLine] = []
    for group in groups:
        rank = len(lines) + 1
        lines += [TeamLine(team=t, rank=rank, **stats[t]) for t in group]
    return LeagueTable(source, ordered, tuple(lines))


def _parse_board(row: Row, source: str, problems: list[Problem]) -> tuple[Any, ...] | None:
    before = len(problems)
    cells = row.cells
    values: dict[str, Any] = {}
    for column in ("round", "board"):
        text = cells[column]
        if text.isascii() and text.isdigit() and int(text) >= 1:
            values[column] = int(text)
        else:
            problems.append(
                Problem(source, row.where(column), f"expected a whole number >= 1, got {text!r}")
            )
    if "board" in values and values["board"] > LEAGUE_RULES.boards:
        problems.append(
            Problem(
                source,
                row.where("board"),
                f"expected a board from 1 to {LEAGUE_RULES.boards}, got {cells['board']!r}",
            )
        )
    for column in ("home", "away"):
        values[column] = normalise_name(cells[column])
        if not values[column]:
            problems.append(Problem(source, row.where(column), "expected a team, got nothing"))
    if values["home"] and values["home"] == values["away"]:
        problems.append(
            Problem(source, row.where("away"), f"{values['home']!r} cannot play itself")
        )
    for column, kind in (("home_colour", Colour), ("result", Outcome)):
        try:
            values[column] = kind(cells[column])
        except ValueError:
            choices = " or ".join(repr(str(k)) for k in kind)
            problems.append(
                Problem(source, row.where(column), f"expected {choices}, got {cells[column]!r}")
            )
    if len(problems) > before:
        return None
    return (
        values["round"],
        values["home"],
        values["away"],
        Board(values["board"], values["home_colour"], values["result"], row.line),
    )


def _double_bookings(
    rnd: int,
    home: str,
    away: str,
    playing: dict[tuple[int, str], tuple[str, str]],
    source: str,
    where: str,
    what: str,
) -> list[Problem]:
    """A problem for each team of ``home v away`` that already plays another match of ``rnd``.

    ``playing`` records the match each team plays in each round; it is updated.
    """
    problems = []
    for team in (home, away):
        other = playing.setdefault((rnd, team), (home, away))
        if other != (home, away):
            problems.append(
                Problem(
                    source, where, f"{what}: {team} also plays {' v '.join(other)} in round {rnd}"
                )
            )
    return problems


def _board_set_problems(given: list[Board], source: str, where: str, what: str) -> list[Problem]:
    """Problems unless the match has each of boards 1-4 exactly once."""
    numbers = Counter(b.number for b in given)
    twice = sorted(n for n, k in numbers.items() if k > 1)
    missing = [n for n in range(1, LEAGUE_RULES.boards + 1) if n not in numbers]
    problems = []
    if twice:
        problems.append(
            Problem(source, where, f"{what}: board {', '.join(map(str, twice))} given twice")
        )
    if missing:
        problems.append(
            Problem(
                source,
                where,
                f"{what}: board {', '.join(map(str, missing))} missing (expected boards 1-4)",
            )
        )
    return problems


def _captain_colour_problem(
    ordered: list[Board], source: str, where: str, what: str
) -> Problem | None:
    """A problem if a home player of boards 2-4 has the home captain's colour."""
    captain = ordered[0].home_colour
    wrong = [b for b in ordered[1:] if b.home_colour is captain]
    if not wrong:
        return None
    return Problem(
        source,
        f"line {wrong[0].line}" if len(wrong) == 1 else where,
        f"{what}: the home captain (board 1, line {ordered[0].line}) has {captain}, "
        f"so boards 2-4 must have {captain.other}; board "
        f"{', '.join(str(b.number) for b in wrong)} has {captain}",
    )


def parse_league(text: str, *, source: str) -> tuple[LeagueMatch, ...]:
    """The matches of a league results CSV (see the module docstring for the format).

    Raises:
        InputError: Listing every problem: bad cells, a match without exactly boards 1-4, a board
            given twice, colours that break the captain rule, a team in two matches of a round.
    """
    problems: list[Problem] = []
    parsed = []
    for item in parse_rows(text, source=source, required=COLUMNS):
        board = item if isinstance(item, Problem) else _parse_board(item, source, problems)
        if isinstance(board, Problem):
            problems.append(board)
        elif board is not None:
            parsed.append(board)
    if not parsed and not problems:
        problems.append(Problem(source, "", "no board rows after the header"))
    boards: dict[tuple[int, str, str], list[Board]] = {}
    for rnd, home, away, board in parsed:
        boards.setdefault((rnd, home, away), []).append(board)
    matches: list[LeagueMatch] = []
    playing: dict[tuple[int, str], tuple[str, str]] = {}
    for (rnd, home, away), given in boards.items():
        lines = ", ".join(str(b.line) for b in given)
        where = f"lines {lines}" if len(given) > 1 else f"line {lines}"
        what = f"round {rnd}, {home} v {away}"
        problems += _double_bookings(rnd, home, away, playing, source, where, what)
        board_problems = _board_set_problems(given, source, where, what)
        if board_problems:
            problems += board_problems
            continue
        ordered = sorted(given, key=lambda b: b.number)
        colour_problem = _captain_colour_problem(ordered, source, where, what)
        if colour_problem is not None:
            problems.append(colour_problem)
            continue
        matches.append(LeagueMatch(rnd, home, away, tuple(ordered)))
    if problems:
        raise InputError(problems)
    return tuple(matches)


def read_league(path: Path, *, encoding: str | None = None) -> LeagueTable:
    """The league table of the results file at ``path``.

    Raises:
        InputError: If the file cannot be read or decoded, or any row is wrong.
    """
    source = str(path)
    matches = parse_league(read_text(path, encoding=encoding), source=source)
    return league_table(matches, source=source)


def _team_json(line: TeamLine) -> dict[str, Any]:
    doc: dict[str, Any] = {}
    for name, value in vars(line).items():
        doc[name] = json_number(value) if isinstance(value, Decimal) else value
    return doc


def to_json(table: LeagueTable) -> dict[str, Any]:
    """The JSON document of ``knockout league --json``: ``{"version", "source", "matches",
    "teams"}``, each match with its board points and match points ``[home, away]``."""
    return {
        "version": __version__,
        "source": table.source,
        "ranking": list(RANKING_CHAIN),
        "matches": [
            {
                "round": m.round,
                "home": m.home,
                "away": m.away,
                "board_points": [json_number(x) for x in m.board_points],
                "match_points": [json_number(x) for x in m.match_points],
                "narrow": m.is_narrow,
            }
            for m in table.matches
        ],
        "teams": [_team_json(line) for line in table.teams],
    }
