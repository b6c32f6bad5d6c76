"""Game results of an individual event, one row per player and game, as read from a CSV file.

The CSV format (UTF-8, with or without a byte-order mark)::

    round,player,opponent,colour,result[,moves,attack_red,attack_black,fen]
    1,蒋川,郝继超,black,win
    2,蒋川,李少庚,red,win

Each row is one game seen from ``player``'s side: ``colour`` is ``red`` or ``black``, ``result``
``win``, ``draw`` or ``loss``. The opponent's row of the same game may be absent (the seed prints
only nine players' tables); when both rows are present they must agree (opposite colours, mirrored
results, the same details), or the file is refused naming both lines. ``moves`` (回合, a move by
each side) and the attacking material left to each side (``attack_red``, ``attack_black``) are
optional columns, needed only by the ``round-robin`` scoring system; a total that no position
can have (0.5, 26: :func:`~knockout.points.check_attacking_material`) is refused. ``fen``, the
game's final position, scores a game from its record: the attacking material is counted from the
position (:meth:`~knockout.points.GameDetails.from_position`), and the moves from its move number
when the ``moves`` cell is empty (the move number less one with Red to move, itself with Black
to move: a move Red began counts); typed totals or moves beside it must agree with it. A player with
rows who has no row in some round did not play that round (a bye or absence: no points). Names
are compared after :func:`~knockout.standings.records.normalise_name` (程 鸣 = 程鸣). Outcomes
are :class:`knockout.standings.records.Outcome`, as in the tie-break records.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from decimal import Decimal, InvalidOperation
from enum import StrEnum
from functools import cached_property
from pathlib import Path
from typing import TypeVar

from knockout.errors import InputError, Problem
from knockout.game import Colour, Result
from knockout.io.csvrows import Row, parse_rows
from knockout.io.text import read_text
from knockout.points import GameDetails, check_attacking_material
from knockout.standings.records import Outcome, normalise_name

__all__ = [
    "OPTIONAL_COLUMNS",
    "REQUIRED_COLUMNS",
    "GameRow",
    "Results",
    "parse_results",
    "read_results",
]

_E = TypeVar("_E", bound=StrEnum)

REQUIRED_COLUMNS = ("round", "player", "opponent", "colour", "result")
OPTIONAL_COLUMNS = ("moves", "attack_red", "attack_black", "fen")
#: The details a game carries (``fen`` is read into them).
_DETAILS = ("moves", "attack_red", "attack_black")


@dataclass(frozen=True)
class GameRow:
    """One game from one player's side.

    Attributes:
        round: Round number, from 1.
        player: The player whose row this is (normalised name).
        opponent: The opponent (normalised name).
        colour: The colour ``player`` had.
        outcome: ``player``'s result.
        details: Moves and attacking material, merged from both rows of the game.
        line: Line of the row in the file.
    """

    round: int
    player: str
    opponent: str
    colour: Colour
    outcome: Outcome
    details: GameDetails = field(default_factory=GameDetails)
    line: int = 0

    @property
    def result(self) -> Result:
        """The game's result over the board."""
        return self.outcome.to_result(self.colour)

    def describe(self) -> str:
        """``程鸣 red win`` (for messages)."""
        return f"{self.player} {self.colour} {self.outcome}"


@dataclass(frozen=True)
class Results:
    """Every game row of a results file.

    Attributes:
        source: Where the rows came from (the file name), for messages.
        rows: The rows, in file order.
    """

    source: str
    rows: tuple[GameRow, ...]

    @cached_property
    def rounds(self) -> int:
        """The number of rounds: the highest round number in the file."""
        return max((r.round for r in self.rows), default=0)

    @cached_property
    def players(self) -> tuple[str, ...]:
        """The players who have rows, in order of first appearance."""
        return tuple(dict.fromkeys(r.player for r in self.rows))

    @cached_property
    def by_player(self) -> Mapping[str, Mapping[int, GameRow]]:
        """Each player's rows keyed by round."""
        table: dict[str, dict[int, GameRow]] = {p: {} for p in self.players}
        for row in self.rows:
            table[row.player][row.round] = row
        return table

    @cached_property
    def opponents_without_rows(self) -> tuple[str, ...]:
        """Opponents who have no rows of their own, in order of first appearance."""
        have = set(self.players)
        return tuple(dict.fromkeys(r.opponent for r in self.rows if r.opponent not in have))


def _cell_int(row: Row, column: str, source: str, problems: list[Problem]) -> int | None:
    text = row.cells[column]
    if text.isascii() and text.isdigit() and int(text) >= 1:
        return int(text)
    problems.append(
        Problem(source, row.where(column), f"expected a whole number >= 1, got {text!r}")
    )
    return None


def _cell_material(row: Row, column: str, source: str, problems: list[Problem]) -> Decimal | None:
    text = row.cells.get(column, "")
    if not text:
        return None
    try:
        value = Decimal(text)
    except InvalidOperation:
        value = Decimal("NaN")
    if not value.is_finite() or value < 0:
        problems.append(
            Problem(source, row.where(column), f"expected attacking material >= 0, got {text!r}")
        )
        return None
    try:
        check_attacking_material(value)
    except ValueError as exc:
        problems.append(Problem(source, row.where(column), str(exc)))
        return None
    return value


def _cell_choice(
    row: Row, column: str, kind: type[_E], source: str, problems: list[Problem]
) -> _E | None:
    text = row.cells[column]
    try:
        return kind(text)
    except ValueError:
        choices = " or ".join(repr(str(k)) for k in kind)
        problems.append(Problem(source, row.where(column), f"expected {choices}, got {text!r}"))
        return None


def _parse_row(row: Row, source: str, problems: list[Problem]) -> GameRow | None:
    before = len(problems)
    rnd = _cell_int(row, "round", source, problems)
    names = {}
    for column in ("player", "opponent"):
        names[column] = normalise_name(row.cells[column])
        if not names[column]:
            problems.append(Problem(source, row.where(column), "expected a name, got nothing"))
    if names["player"] and names["player"] == names["opponent"]:
        problems.append(
            Problem(source, row.where("opponent"), f"{names['player']!r} cannot play themself")
        )
    colour = _cell_choice(row, "colour", Colour, source, problems)
    outcome = _cell_choice(row, "result", Outcome, source, problems)
    moves = _cell_int(row, "moves", source, problems) if row.cells.get("moves") else None
    details = GameDetails(
        moves,
        _cell_material(row, "attack_red", source, problems),
        _cell_material(row, "attack_black", source, problems),
    )
    if row.cells.get("fen"):
        details = _from_position(row, details, source, problems)
    if len(problems) > before:
        return None
    assert rnd is not None and colour is not None and outcome is not None
    return GameRow(rnd, names["player"], names["opponent"], colour, outcome, details, row.line)


def _moves_of_position(fen: str) -> int | None:
    """The moves (回合) a game ending in ``fen`` had, from its move number: the number less one
    with Red to move, itself with Black to move (Red's last move began a move); None without
    one."""
    fields = fen.split()
    if len(fields) < 6 or not fields[5].isdigit() or fields[1] not in ("w", "b"):
        return None
    number = int(fields[5])
    return number - 1 if fields[1] == "w" else number


def _from_position(
    row: Row, typed: GameDetails, source: str, problems: list[Problem]
) -> GameDetails:
    """The details counted from the final position in ``fen``; a typed cell must agree."""
    fen = row.cells["fen"]
    try:
        counted = GameDetails.from_position(typed.moves or 0, fen)
    except ValueError as exc:
        problems.append(Problem(source, row.where("fen"), str(exc)))
        return typed
    moves = typed.moves if typed.moves is not None else _moves_of_position(fen)
    for column, value in (
        ("attack_red", counted.attack_red),
        ("attack_black", counted.attack_black),
    ):
        given = getattr(typed, column)
        if given is not None and given != value:
            problems.append(
                Problem(
                    source,
                    row.where(column),
                    f"the final position (fen) has {value}, the row says {given}",
                )
            )
    own = _moves_of_position(fen)
    if typed.moves is not None and own is not None and own != typed.moves:
        problems.append(
            Problem(
                source,
                row.where("moves"),
                f"the final position (fen) is after move {own}, the row says {typed.moves}",
            )
        )
    return GameDetails(moves, counted.attack_red, counted.attack_black)


def _show(details: GameDetails) -> str:
    return ", ".join(
        f"{name}={getattr(details, name)}"
        for name in _DETAILS
        if getattr(details, name) is not None
    )


def _merged(a: GameDetails, b: GameDetails) -> GameDetails | None:
    """Details given in either row; None if the rows give different values for one field."""
    pairs = ((a.moves, b.moves), (a.attack_red, b.attack_red), (a.attack_black, b.attack_black))
    if any(x is not None and y is not None and x != y for x, y in pairs):
        return None
    return GameDetails(
        a.moves if a.moves is not None else b.moves,
        a.attack_red if a.attack_red is not None else b.attack_red,
        a.attack_black if a.attack_black is not None else b.attack_black,
    )


def _check_games(rows: list[GameRow], source: str) -> tuple[list[GameRow], list[Problem]]:
    """Check that the rows describe one consistent set of games; merge both rows' details."""
    problems: list[Problem] = []
    own: dict[tuple[int, str], GameRow] = {}
    for row in rows:
        first = own.setdefault((row.round, row.player), row)
        if first is not row:
            problems.append(
                Problem(
                    source,
                    f"lines {first.line} and {row.line}",
                    f"{row.player} has two rows in round {row.round}",
                )
            )
    with_rows = {r.player for r in rows}
    seated: dict[tuple[int, str], GameRow] = {}
    details: dict[int, GameDetails] = {}
    for row in own.values():
        mate = own.get((row.round, row.opponent))
        if mate is None:
            if row.opponent in with_rows:
                problems.append(
                    Problem(
                        source,
                        f"line {row.line}",
                        f"round {row.round}: {row.player} played {row.opponent}, "
                        f"who has rows but none for round {row.round}",
                    )
                )
            first = seated.setdefault((row.round, row.opponent), row)
            if first is not row:
                problems.append(
                    Problem(
                        source,
                        f"lines {first.line} and {row.line}",
                        f"{row.opponent} is the opponent in two games of round {row.round}",
                    )
                )
            continue
        if mate.opponent != row.player:
            problems.append(
                Problem(
                    source,
                    f"lines {row.line} and {mate.line}",
                    f"round {row.round}: line {row.line} says {row.player} played {row.opponent}, "
                    f"line {mate.line} says {mate.player} played {mate.opponent}",
                )
            )
            continue
        if row.line > mate.line:
            continue  # each pair of rows is checked once, from its first line
        merged = _merged(row.details, mate.details)
        if mate.colour is row.colour or mate.outcome is not row.outcome.reverse:
            said = f"line {row.line} says {row.describe()}, line {mate.line} says {mate.describe()}"
        elif merged is None:
            said = (
                f"line {row.line} says {_show(row.details)}, "
                f"line {mate.line} says {_show(mate.details)}"
            )
        else:
            details[row.line] = details[mate.line] = merged
            continue
        problems.append(
            Problem(
                source,
                f"lines {row.line} and {mate.line}",
                f"round {row.round}, the rows of {row.player} v {row.opponent} disagree: {said}",
            )
        )
    merged_rows = [replace(r, details=details[r.line]) if r.line in details else r for r in rows]
    return merged_rows, problems


def parse_results(text: str, *, source: str) -> Results:
    """The game rows of a results CSV (see the module docstring for the format).

    Args:
        text: The file's text.
        source: The file name, for messages.

    Raises:
        InputError: Listing every problem found: header, cells, and rows that disagree.
    """
    problems: list[Problem] = []
    rows: list[GameRow] = []
    if _games_layout(text):
        rows = _game_rows(text, source, problems)
    else:
        for item in parse_rows(
            text, source=source, required=REQUIRED_COLUMNS, optional=OPTIONAL_COLUMNS
        ):
            row = item if isinstance(item, Problem) else _parse_row(item, source, problems)
            if isinstance(row, Problem):
                problems.append(row)
            elif row is not None:
                rows.append(row)
    if not rows and not problems:
        problems.append(Problem(source, "", "no game rows after the header"))
    rows, game_problems = _check_games(rows, source)
    problems += game_problems
    if problems:
        raise InputError(problems)
    return Results(source, tuple(rows))


#: The games layout (one line a game, the one ``knockout standings`` reads), also accepted.
GAME_COLUMNS = ("round", "red", "black", "result")
#: Its results over the board, as the standings' games CSV writes them.
GAME_RESULTS: Mapping[str, Outcome] = {
    "red": Outcome.WIN,
    "1-0": Outcome.WIN,
    "draw": Outcome.DRAW,
    "1/2-1/2": Outcome.DRAW,
    "black": Outcome.LOSS,
    "0-1": Outcome.LOSS,
}


def _games_layout(text: str) -> bool:
    """Whether the header is the games layout (``round,red,black,result``), not per player."""
    first = next((line for line in text.splitlines() if line.strip()), "")
    columns = {c.strip().lower().lstrip("\ufeff") for c in first.split(",")}
    return set(GAME_COLUMNS) <= columns and "player" not in columns


def _game_rows(text: str, source: str, problems: list[Problem]) -> list[GameRow]:
    """The games layout read as per-player rows: each game is Red's row and Black's. Only
    games played over the board can be re-scored: a bye or forfeit is one line each."""
    rows: list[GameRow] = []
    for item in parse_rows(text, source=source, required=GAME_COLUMNS):
        if isinstance(item, Problem):
            problems.append(item)
            continue
        before = len(problems)
        rnd = _cell_int(item, "round", source, problems)
        red, black = (normalise_name(item.cells[c]) for c in ("red", "black"))
        for column, name in (("red", red), ("black", black)):
            if not name:
                problems.append(
                    Problem(
                        source,
                        item.where(column),
                        "expected a name, got nothing (rescore re-scores games played: a bye "
                        "has no result to re-score)",
                    )
                )
        if red and red == black:
            problems.append(Problem(source, item.where("black"), f"{red!r} cannot play themself"))
        result = item.cells["result"].strip().lower()
        outcome = GAME_RESULTS.get(result)
        if outcome is None:
            problems.append(
                Problem(
                    source,
                    item.where("result"),
                    f"expected {', '.join(GAME_RESULTS)} (a game played over the board), got "
                    f"{item.cells['result']!r}",
                )
            )
        if len(problems) > before:
            continue
        assert rnd is not None and outcome is not None
        rows.append(GameRow(rnd, red, black, Colour.RED, outcome, line=item.line))
        rows.append(GameRow(rnd, black, red, Colour.BLACK, outcome.reverse, line=item.line))
    return rows


def read_results(path: Path, *, encoding: str | None = None) -> Results:
    """:func:`parse_results` of the file at ``path``.

    Raises:
        InputError: If the file cannot be read or decoded, or any row is wrong.
    """
    return parse_results(read_text(path, encoding=encoding), source=str(path))
