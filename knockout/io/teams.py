"""Team-match files (TOML) for ``knockout league-odds``: two teams of four players and the clocks.

Layout (public interface; see docs/scoring.md)::

    name = "甲队 v 乙队"               # optional title
    captain_colour = "red"            # the home captain's colour: red, black or best
    home_team = "甲队"                 # optional team names (default "home", "away")
    away_team = "乙队"
    [clocks]                          # optional: seed 001's 60+10 captains, 40+10 the others
    minutes = [60, 40, 40, 40]        # base minutes per board, board 1 (the captains') first
    increment_seconds = 10            # one number for every board, or four
    [model]                           # optional, as in a scenario: per time class
    red_advantage = { rapid = 30 }
    [[home]]                          # board 1 (the captain) first; four entries
    name = "甲1"
    rating = 2500                     # rating_rapid, rating_blitz optional, as in a scenario
    [[away]]
    name = "乙1"
    rating = 2500

Every problem is reported at once (:class:`~knockout.errors.InputError`, one line each naming the
key): a team without exactly four players, a colour other than red/black/best, a team playing
itself (the same team name on both sides, or a player in both teams), a name used twice. A
``.json`` file is read as the ``scenario`` object of ``knockout league-odds --json``'s output, so
every answer can be reproduced from itself; ``--set KEY=VALUE`` overrides apply before
validation (``home.甲1.rating=2550``, ``model.red_advantage.rapid=0``, ``captain_colour=black``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import Field, ValidationError

from knockout.errors import InputError, Problem
from knockout.io.overrides import SOURCE as OVERRIDE_SOURCE
from knockout.io.overrides import apply_overrides, parse_override
from knockout.io.text import read_text
from knockout.io.tomlfile import load_toml
from knockout.rules.model.players import Player
from knockout.rules.model.strength import DEFAULT_MODEL, ModelParams, TimeClass, classify
from knockout.rules.model.table import ModelIn, model_params
from knockout.validation import Table, dedupe, problems_of

__all__ = [
    "BOARDS",
    "SEED_CLOCKS",
    "BoardClock",
    "CaptainChoice",
    "ClocksIn",
    "TeamMatchFile",
    "clocks_from",
    "load_team_match",
    "parse_team_match",
]

#: Boards of a team match (seed 001, 一: four boards, board 1 the captains').
BOARDS = 4
CaptainChoice = Literal["red", "black", "best"]
NonNegative = Annotated[float, Field(strict=True, ge=0)]
Positive = Annotated[float, Field(strict=True, gt=0)]


@dataclass(frozen=True)
class BoardClock:
    """Both players' clock on one board: base minutes and seconds added a move."""

    minutes: float
    increment_seconds: float

    def time_class(self, model: ModelParams) -> TimeClass:
        """The model's time class of a game on this clock (equal clocks: the mean rule)."""
        return classify(self.minutes, self.minutes, self.increment_seconds, model.moves)


#: Seed 001 (一.4): captains 60 minutes + 10 s a move, the other boards 40 minutes + 10 s.
SEED_CLOCKS = (BoardClock(60, 10), *(BoardClock(40, 10) for _ in range(BOARDS - 1)))


@dataclass(frozen=True)
class TeamMatchFile:
    """A parsed team-match file.

    Attributes:
        name: Title.
        captain_colour: The home captain's colour as the file asks (``best``: the home side picks).
        home_team: The home team's name.
        away_team: The away team's name.
        home: The home team's players, board 1 (the captain) first.
        away: The away team's players, board 1 first.
        clocks: The clock of each board.
        model: The game model.
        source: Where it came from.
    """

    name: str
    captain_colour: CaptainChoice
    home_team: str
    away_team: str
    home: tuple[Player, ...]
    away: tuple[Player, ...]
    clocks: tuple[BoardClock, ...] = SEED_CLOCKS
    model: ModelParams = DEFAULT_MODEL
    source: str = ""

    def time_classes(self) -> tuple[TimeClass, ...]:
        """The time class of each board."""
        return tuple(c.time_class(self.model) for c in self.clocks)

    def to_dict(self) -> dict[str, Any]:
        """The file with every default filled in; it parses back to an equal file."""

        def player(p: Player) -> dict[str, Any]:
            out: dict[str, Any] = {"name": p.name, "rating": p.rating}
            if p.rating_rapid is not None:
                out["rating_rapid"] = p.rating_rapid
            if p.rating_blitz is not None:
                out["rating_blitz"] = p.rating_blitz
            return out

        return {
            "name": self.name,
            "captain_colour": self.captain_colour,
            "home_team": self.home_team,
            "away_team": self.away_team,
            "clocks": {
                "minutes": [c.minutes for c in self.clocks],
                "increment_seconds": [c.increment_seconds for c in self.clocks],
            },
            "model": self.model.to_dict(),
            "home": [player(p) for p in self.home],
            "away": [player(p) for p in self.away],
        }


class _PlayerIn(Table):
    name: Annotated[str, Field(min_length=1)]
    rating: NonNegative
    rating_rapid: NonNegative | None = None
    rating_blitz: NonNegative | None = None


class ClocksIn(Table):
    """The ``[clocks]`` table: base minutes per board, and the increment (one or per board)."""

    minutes: list[Positive] = Field(default_factory=lambda: [c.minutes for c in SEED_CLOCKS])
    increment_seconds: NonNegative | list[NonNegative] = 10.0


class _TeamMatchIn(Table):
    name: str = "team match"
    captain_colour: CaptainChoice = "best"
    home_team: Annotated[str, Field(min_length=1)] = "home"
    away_team: Annotated[str, Field(min_length=1)] = "away"
    clocks: ClocksIn = ClocksIn()
    model: ModelIn = ModelIn()
    home: list[_PlayerIn]
    away: list[_PlayerIn]


def _team_problems(data: Mapping[str, Any], source: str) -> list[Problem]:
    """Four players a side, no name twice, no player in both teams, no team against itself."""
    problems: list[Problem] = []
    sides: dict[str, dict[str, int]] = {}
    for side in ("home", "away"):
        players = data.get(side)
        if not isinstance(players, list):
            continue
        if len(players) != BOARDS:
            problems.append(
                Problem(
                    source,
                    side,
                    f"expected {BOARDS} players (a [[{side}]] table each, board 1, the captain, "
                    f"first), got {len(players)}",
                )
            )
        seen: dict[str, int] = {}
        for i, p in enumerate(players):
            raw = p.get("name") if isinstance(p, Mapping) else None
            if not isinstance(raw, str) or not raw.strip():
                continue
            name = raw.strip()
            if name in seen:
                problems.append(
                    Problem(
                        source,
                        f"{side}[{i}].name",
                        f"duplicate name {name!r} (also {side}[{seen[name]}])",
                    )
                )
            else:
                seen[name] = i
        sides[side] = seen
    for name, i in sides.get("away", {}).items():
        if name in sides.get("home", {}):
            problems.append(
                Problem(
                    source,
                    f"away[{i}].name",
                    f"{name!r} also plays for the home team (home[{sides['home'][name]}]): a "
                    "team cannot play itself",
                )
            )
    home, away = data.get("home_team", "home"), data.get("away_team", "away")
    if isinstance(home, str) and isinstance(away, str) and home.strip() == away.strip():
        problems.append(
            Problem(source, "away_team", f"{away.strip()!r} cannot play itself (home_team too)")
        )
    return problems


def clocks_from(parsed: ClocksIn, source: str) -> tuple[tuple[BoardClock, ...], list[Problem]]:
    """The clock of each board, or the problems (a list that is not one entry per board)."""
    minutes = parsed.minutes
    inc = parsed.increment_seconds
    increments = [inc] * BOARDS if isinstance(inc, float | int) else list(inc)
    problems = []
    if len(minutes) != BOARDS:
        problems.append(
            Problem(
                source,
                "clocks.minutes",
                f"expected {BOARDS} base times in minutes, board 1 first, got {len(minutes)}",
            )
        )
    if len(increments) != BOARDS:
        problems.append(
            Problem(
                source,
                "clocks.increment_seconds",
                f"expected one number or {BOARDS} (board 1 first), got {len(increments)}",
            )
        )
    if problems:
        return (), problems
    return tuple(BoardClock(m, i) for m, i in zip(minutes, increments, strict=True)), []


#: A scenario's [model] keys that league-odds does not carry (it solves at fixed constants).
UNCARRIED_MODEL_KEYS = ("sd", "correlation")


def parse_team_match(data: Mapping[str, Any], *, source: str = "<teams>") -> TeamMatchFile:
    """Validate a team-match file given as a mapping (parsed TOML or :meth:`TeamMatchFile.to_dict`).

    Raises:
        InputError: Listing every problem found, each naming its key.
    """
    problems: list[Problem] = []
    model = data.get("model")
    if isinstance(model, Mapping) and any(k in model for k in UNCARRIED_MODEL_KEYS):
        # Said, not merely refused as an unknown key: a scenario's [model.sd] means something
        # elsewhere, and a reader copying it here should learn that league-odds drops it.
        for key in UNCARRIED_MODEL_KEYS:
            if key in model:
                problems.append(
                    Problem(
                        source,
                        f"model.{key}",
                        "league-odds works at the model's central constants and does not carry "
                        "their uncertainty: remove it (odds, compare, fair, incentives and "
                        "equilibrium integrate over a scenario's [model.sd])",
                    )
                )
        data = {
            **data,
            "model": {k: v for k, v in model.items() if k not in UNCARRIED_MODEL_KEYS},
        }
    parsed: _TeamMatchIn | None = None
    try:
        parsed = _TeamMatchIn.model_validate(dict(data))
    except ValidationError as exc:
        problems += problems_of(exc, source, _TeamMatchIn)
    problems += _team_problems(data, source)
    clocks: tuple[BoardClock, ...] = ()
    if parsed is not None:
        clocks, clock_problems = clocks_from(parsed.clocks, source)
        problems += clock_problems
    if problems or parsed is None:
        raise InputError(dedupe(problems))

    def players(entries: Sequence[_PlayerIn]) -> tuple[Player, ...]:
        return tuple(
            Player(p.name.strip(), p.rating, p.rating_rapid, p.rating_blitz) for p in entries
        )

    return TeamMatchFile(
        name=parsed.name,
        captain_colour=parsed.captain_colour,
        home_team=parsed.home_team.strip(),
        away_team=parsed.away_team.strip(),
        home=players(parsed.home),
        away=players(parsed.away),
        clocks=clocks,
        model=model_params(parsed.model),
        source=source,
    )


def _read(path: Path, encoding: str | None) -> dict[str, Any]:
    if path.suffix.lower() != ".json":
        return load_toml(path, encoding=encoding)
    text = read_text(path, encoding=encoding)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        where = f"line {exc.lineno}, column {exc.colno}"
        raise InputError.single(str(path), where, f"not valid JSON: {exc.msg}") from None
    if isinstance(data, dict) and isinstance(data.get("scenario"), dict):
        data = data["scenario"]
    if not isinstance(data, dict):
        raise InputError.single(str(path), "", "expected a JSON object (a team-match file)")
    return data


def load_team_match(
    path: Path, *, encoding: str | None = None, overrides: Sequence[str] = ()
) -> TeamMatchFile:
    """Read and validate a team-match file, with ``--set`` overrides applied.

    Raises:
        InputError: Listing every problem (unreadable file, bad TOML or JSON, bad overrides,
            bad keys or values); a problem with an overridden key names ``--set``.
    """
    problems: list[Problem] = []
    parsed = []
    for text in overrides:
        try:
            parsed.append(parse_override(text))
        except InputError as exc:
            problems += exc.problems
    data = _read(path, encoding)
    data, keys, path_problems = apply_overrides(data, parsed, named=("home", "away"))
    problems += path_problems
    try:
        teams = parse_team_match(data, source=str(path))
    except InputError as exc:
        for p in exc.problems:
            blamed = any(p.key == k or p.key.startswith((f"{k}.", f"{k}[")) for k in keys)
            problems.append(replace(p, source=OVERRIDE_SOURCE) if blamed else p)
    if problems:
        raise InputError(problems)
    return teams
