"""The league file: a season of seed 001's team league, its captains and the lot for boards 2-4.

A TOML file::

    name = "象甲 2024"
    results = "league-example.csv"   # optional: the board results (knockout league's CSV),
                                     # a path relative to this file
    seed = 2024                      # the lot's seed for boards 2-4 (published with the draw)

    [[teams]]
    name = "广东"
    captain = "许银川"              # the declared captain (主将), one of the players
    players = ["许银川", "吕钦", "黄海林", "郑惟桐", "张学潮"]   # strongest first

    [[changes]]                      # a match played with another captain (announced)
    round = 2
    team = "广东"
    captain = "吕钦"

    [[fixtures]]                     # optional: matches not yet in the results, for the lot
    round = 4
    home = "广东"
    away = "北京"

Every problem is reported at once, one line each (:class:`~knockout.errors.InputError`): a
captain outside his squad, a change naming the declared captain, a fourth change of a team (with
the rounds of the earlier three), a team of the results or fixtures that is not among the teams,
a fixture that clashes with a result. The lot is drawn for every match of the results and
fixtures (:func:`knockout.scoring.captains.draw_boards`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

from pydantic import Field, ValidationError

from knockout.errors import InputError, Problem
from knockout.io.text import read_text
from knockout.io.tomlfile import load_toml
from knockout.scoring.captains import (
    MAX_CHANGES,
    CaptainChange,
    CaptainSchedule,
    DrawnBoards,
    Squad,
    captain_schedule,
    draw_boards,
    line_up,
)
from knockout.scoring.league import LeagueTable, league_table, parse_league
from knockout.standings.records import normalise_name
from knockout.validation import Table, dedupe, problems_of

__all__ = [
    "DEFAULT_SEED",
    "Fixture",
    "LeagueSeason",
    "parse_league_file",
    "read_league_file",
    "season_json",
]

#: The lot's seed when neither the file nor the command gives one.
DEFAULT_SEED = 0

Name = Annotated[str, Field(min_length=1)]
Round = Annotated[int, Field(strict=True, ge=1)]


class _TeamIn(Table):
    name: Name
    captain: Name
    players: Annotated[list[Name], Field(min_length=1)]


class _ChangeIn(Table):
    round: Round
    team: Name
    captain: Name


class _FixtureIn(Table):
    round: Round
    home: Name
    away: Name


class _LeagueFileIn(Table):
    name: str = ""
    results: str | None = None
    seed: Annotated[int, Field(strict=True, ge=0)] | None = None
    teams: Annotated[list[_TeamIn], Field(min_length=2)]
    changes: list[_ChangeIn] = Field(default_factory=list)
    fixtures: list[_FixtureIn] = Field(default_factory=list)


@dataclass(frozen=True)
class Fixture:
    """A match of the season (played or to be played)."""

    round: int
    home: str
    away: str


@dataclass(frozen=True)
class LeagueSeason:
    """A league file read and checked.

    Attributes:
        name: The league's name.
        source: The file.
        schedule: The captains, declared and changed.
        fixtures: Every match of the results and the fixtures, in round order.
        table: The league table of the results, if the file names them.
        seed: The lot's seed (the file's, or :data:`DEFAULT_SEED`).
    """

    name: str
    source: str
    schedule: CaptainSchedule
    fixtures: tuple[Fixture, ...]
    table: LeagueTable | None
    seed: int

    def draws(self, *, seed: int | None = None, round: int | None = None) -> list[DrawnBoards]:
        """The lot for boards 2-4 of every fixture (of ``round`` only, if given), with ``seed``
        in place of the file's."""
        used = self.seed if seed is None else seed
        return [
            draw_boards(
                f.round,
                f.home,
                f.away,
                line_up(self.schedule, f.home, f.round),
                line_up(self.schedule, f.away, f.round),
                seed=used,
            )
            for f in self.fixtures
            if round is None or f.round == round
        ]


def _names(raw: Mapping[str, Any]) -> dict[str, Any]:
    """Names normalised as the results CSV normalises them (white space between Chinese
    characters dropped), so the two files name teams and players alike."""
    return {
        k: [normalise_name(p) for p in v]
        if k == "players"
        else normalise_name(v)
        if k in ("name", "team", "captain", "home", "away") and isinstance(v, str)
        else v
        for k, v in raw.items()
    }


def parse_league_file(
    data: Mapping[str, Any], *, source: str, base: Path | None = None, encoding: str | None = None
) -> LeagueSeason:
    """A :class:`LeagueSeason` from a league file's tables (``base``: the folder a relative
    ``results`` path is read from).

    Raises:
        InputError: Listing every problem (module docstring).
    """
    try:
        parsed = _LeagueFileIn.model_validate(dict(data))
    except ValidationError as exc:
        raise InputError(problems_of(exc, source, _LeagueFileIn)) from None
    squads, problems = _squads(parsed, source)
    known = [s.team for s in squads]
    changes = [
        CaptainChange(c["round"], c["team"], c["captain"], f"changes[{i}]")
        for i, c in enumerate(_names(c.model_dump()) for c in parsed.changes)
    ]
    schedule, refused = captain_schedule(squads, changes, source=source)
    problems += refused
    fixtures: dict[tuple[int, str], Fixture] = {}
    table = None
    if parsed.results is not None:
        path = Path(parsed.results) if base is None else base / parsed.results
        table, found = _results(path, encoding, known, fixtures, source)
        problems += found
    problems += _fixtures(parsed.fixtures, known, fixtures, source)
    problems = dedupe(problems)
    if problems:
        raise InputError(problems)
    ordered = tuple(sorted(set(fixtures.values()), key=lambda f: (f.round, f.home, f.away)))
    seed = DEFAULT_SEED if parsed.seed is None else parsed.seed
    return LeagueSeason(parsed.name, source, schedule, ordered, table, seed)


def _squads(parsed: _LeagueFileIn, source: str) -> tuple[list[Squad], list[Problem]]:
    problems: list[Problem] = []
    squads = []
    for i, raw in enumerate(parsed.teams):
        t = _names(raw.model_dump())
        squad = Squad(t["name"], t["captain"], tuple(t["players"]))
        problems += squad.problems(source, f"teams[{i}]")
        squads.append(squad)
    names = [s.team for s in squads]
    problems += [
        Problem(source, f"teams[{i}].name", f"{name!r} is named twice")
        for i, name in enumerate(names)
        if name in names[:i]
    ]
    return squads, problems


def _results(
    path: Path,
    encoding: str | None,
    known: list[str],
    fixtures: dict[tuple[int, str], Fixture],
    source: str,
) -> tuple[LeagueTable | None, list[Problem]]:
    """The results' league table, their matches added to ``fixtures``."""
    try:
        matches = parse_league(read_text(path, encoding=encoding), source=str(path))
    except InputError as exc:
        return None, list(exc.problems)
    table = league_table(matches, source=str(path))
    problems: list[Problem] = []
    for m in table.matches:
        problems += _unknown(source, f"results: round {m.round}", (m.home, m.away), known)
        fixture = Fixture(m.round, m.home, m.away)
        for side in (m.home, m.away):
            fixtures.setdefault((m.round, side), fixture)
    return table, problems


def _fixtures(
    given: list[_FixtureIn],
    known: list[str],
    fixtures: dict[tuple[int, str], Fixture],
    source: str,
) -> list[Problem]:
    """The ``[[fixtures]]`` added to ``fixtures``; a problem for each that clashes."""
    problems: list[Problem] = []
    for i, raw in enumerate(given):
        f = _names(raw.model_dump())
        fixture = Fixture(f["round"], f["home"], f["away"])
        key = f"fixtures[{i}]"
        problems += _unknown(source, key, (fixture.home, fixture.away), known)
        if fixture.home == fixture.away:
            problems.append(Problem(source, f"{key}.away", f"{fixture.home!r} cannot play itself"))
        for side in (fixture.home, fixture.away):
            other = fixtures.setdefault((fixture.round, side), fixture)
            if other != fixture:
                problems.append(
                    Problem(
                        source,
                        key,
                        f"round {fixture.round}: {side} already plays {other.home} v {other.away}",
                    )
                )
    return problems


def _unknown(source: str, key: str, teams: tuple[str, ...], known: list[str]) -> list[Problem]:
    return [
        Problem(source, key, f"team {team!r} is not among the teams ({', '.join(known)})")
        for team in teams
        if team not in known
    ]


def read_league_file(path: Path, *, encoding: str | None = None) -> LeagueSeason:
    """The league file at ``path`` (its ``results`` read relative to it).

    Raises:
        InputError: If it cannot be read, or for every problem in it.
    """
    data = load_toml(path, encoding=encoding)
    return parse_league_file(data, source=str(path), base=path.parent, encoding=encoding)


def season_json(
    season: LeagueSeason, *, seed: int | None = None, round: int | None = None
) -> dict[str, Any]:
    """The captains and the lot as JSON: ``{"name", "captains": [{"team", "captain", "changes":
    [{"round", "captain"}], "changes_left"}], "lot": {"seed", "round", "matches": [{"round",
    "home", "away", "boards": [[home, away], ...]}]}}``."""
    schedule = season.schedule
    used = season.seed if seed is None else seed
    return {
        "name": season.name,
        "max_changes": MAX_CHANGES,
        "captains": [
            {
                "team": team,
                "captain": squad.captain,
                "changes": [
                    {"round": c.round, "captain": c.captain} for c in schedule.changes[team]
                ],
                "changes_left": schedule.changes_left(team),
            }
            for team, squad in schedule.squads.items()
        ],
        "lot": {
            "seed": used,
            "round": round,
            "matches": [
                {
                    "round": d.round,
                    "home": d.home,
                    "away": d.away,
                    "boards": [list(pair) for pair in d.boards],
                }
                for d in season.draws(seed=used, round=round)
            ],
        },
    }
