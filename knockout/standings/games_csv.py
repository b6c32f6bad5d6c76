"""A plain CSV file of games: ``round,red,black,result``, one game per line.

``result`` is ``red``, ``draw`` or ``black`` (also ``1-0``, ``1/2-1/2`` and ``0-1``; case does not
matter). Two extensions cover what a Swiss event also needs:

* forfeits: ``+-`` (Red wins by forfeit), ``-+`` (Black wins by forfeit), ``--`` (neither came);
* byes: leave ``black`` empty and write ``bye`` (pairing-allocated bye), ``full-bye``,
  ``half-bye`` or ``zero-bye``.

A player with no line in a round was not paired (absent). Players are listed in order of first
appearance; names are trimmed, inner white space collapsed, and spaces between Chinese characters
dropped (``程 鸣`` is ``程鸣``). Other columns are ignored. The file is UTF-8, with or without a
byte-order mark, unless another encoding (such as ``gb18030``) is given.
"""

from __future__ import annotations

import _csv
import csv
import io
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from knockout.errors import InputError, Problem
from knockout.game import Colour, Result
from knockout.io.text import read_text
from knockout.standings.records import (
    CLASSICAL,
    CrossTable,
    Entry,
    Kind,
    Outcome,
    PointScale,
    bye_entry,
    forfeit_entries,
    game_entries,
    normalise_name,
)

__all__ = ["COLUMNS", "RESULTS", "parse_games_csv", "read_games_csv"]

COLUMNS = ("round", "red", "black", "result")
"""The required header columns."""

RESULTS: Mapping[str, Result] = {
    "red": Result.RED,
    "1-0": Result.RED,
    "draw": Result.DRAW,
    "1/2-1/2": Result.DRAW,
    "black": Result.BLACK,
    "0-1": Result.BLACK,
}
"""Results of games played over the board."""

_FORFEITS: Mapping[str, Outcome] = {"+-": Outcome.WIN, "-+": Outcome.LOSS, "--": Outcome.LOSS}
_BYES: Mapping[str, Kind] = {
    "bye": Kind.PAIRING_BYE,
    "full-bye": Kind.FULL_BYE,
    "half-bye": Kind.HALF_BYE,
    "zero-bye": Kind.ZERO_BYE,
}
_EXPECTED_RESULT = "red, draw, black, 1-0, 1/2-1/2, 0-1, +-, -+ or --"


@dataclass(frozen=True)
class _Game:
    """One line of the file, checked: a game, a forfeit or a bye (``black`` empty)."""

    line: int
    round: int
    red: str
    black: str
    result: str

    @property
    def names(self) -> tuple[str, ...]:
        return (self.red,) if self.result in _BYES else (self.red, self.black)


@dataclass
class _Collected:
    """The games read so far: players in order of appearance, entries, who played when."""

    players: dict[str, None] = field(default_factory=dict)
    entries: list[tuple[str, Entry]] = field(default_factory=list)
    seen: dict[tuple[int, str], int] = field(default_factory=dict)
    rounds: set[int] = field(default_factory=set)

    def add(self, game: _Game, source: str, problems: list[Problem], scale: PointScale) -> None:
        """Record ``game``, unless a player of it already has a game in its round."""
        clash = False
        for name in game.names:
            if (game.round, name) in self.seen:
                problems.append(
                    Problem(
                        source,
                        f"line {game.line}",
                        f"{name!r} already has a game in round {game.round} "
                        f"(line {self.seen[game.round, name]})",
                    )
                )
                clash = True
        if clash:
            return
        for name in game.names:
            self.seen[game.round, name] = game.line
            self.players.setdefault(name)
        self.rounds.add(game.round)
        self.entries.extend(_entries(game.round, game.red, game.black, game.result, scale))


def parse_games_csv(
    text: str, *, source: str = "<csv>", scale: PointScale = CLASSICAL
) -> CrossTable:
    """A cross table from the text of a games CSV file.

    Args:
        text: The file's text.
        source: The file's name, for messages.
        scale: Points of each result.

    Raises:
        InputError: Listing every problem found (file, line, column, expected vs found).
    """
    problems: list[Problem] = []
    reader = csv.reader(io.StringIO(text, newline=""))
    columns = _header(reader, source)
    at = {c: columns.index(c) for c in COLUMNS}
    found = _Collected()
    for line, row in _rows(reader, source, problems):
        if len(row) < len(columns):
            problems.append(
                Problem(
                    source,
                    f"line {line}",
                    f"expected {len(columns)} fields ({','.join(columns)}), got {len(row)}",
                )
            )
            continue
        game = _game(line, {c: row[i].strip() for c, i in at.items()}, source, problems)
        if game is not None:
            found.add(game, source, problems, scale)
    if not found.entries and not problems:
        problems.append(Problem(source, "", "expected at least one game, got none"))
    problems += _round_gaps(found.rounds, source)
    if problems:
        raise InputError(problems)
    return CrossTable.from_entries(
        list(found.players), found.entries, draw_points=scale.unplayed_draw, scale=scale
    )


def _header(reader: _csv.Reader, source: str) -> list[str]:
    """The header's column names (lower case); every required column must be there.

    Raises:
        InputError: If the first line is not CSV or lacks a required column.
    """
    try:
        header = next(reader, None)
    except csv.Error as exc:
        raise InputError.single(source, "line 1", f"expected CSV, got {exc}") from None
    columns = [c.strip().lower() for c in header] if header else []
    if any(c not in columns for c in COLUMNS):
        got = ",".join(header) if header else "an empty file"
        raise InputError.single(
            source, "line 1", f"expected the header {','.join(COLUMNS)}, got {got!r}"
        )
    return columns


def _rows(
    reader: _csv.Reader, source: str, problems: list[Problem]
) -> Iterator[tuple[int, list[str]]]:
    """``(line, row)`` for every row that is not blank; stops at the first row that is not CSV."""
    while True:
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            problems.append(Problem(source, f"line {reader.line_num}", f"expected CSV, got {exc}"))
            return
        if any(cell.strip() for cell in row):
            yield reader.line_num, row


def _game(line: int, cells: dict[str, str], source: str, problems: list[Problem]) -> _Game | None:
    """The game of one line, or None after adding a problem for each cell that is wrong."""
    bad = len(problems)
    rnd = _round(cells["round"], source, line, problems)
    red = normalise_name(cells["red"])
    black = normalise_name(cells["black"])
    result = cells["result"].lower().replace(" ", "")
    if not red:
        problems.append(Problem(source, f"line {line}, red", "expected a name, got none"))
    problem = _opponent_problem(line, red, black, result, cells["result"], source)
    if problem is not None:
        problems.append(problem)
    if len(problems) > bad or rnd is None:
        return None
    return _Game(line, rnd, red, black, result)


def _opponent_problem(
    line: int, red: str, black: str, result: str, raw: str, source: str
) -> Problem | None:
    """What is wrong with the result or the ``black`` cell of a line, if anything."""
    if result in _BYES:
        if black:
            return Problem(
                source, f"line {line}, black", f"expected no opponent for a {result}, got {black!r}"
            )
        return None
    if result not in RESULTS and result not in _FORFEITS:
        return Problem(
            source, f"line {line}, result", f"expected {_EXPECTED_RESULT} (or a bye), got {raw!r}"
        )
    if not black:
        return Problem(source, f"line {line}, black", "expected a name, got none")
    if black == red:
        return Problem(source, f"line {line}, black", f"expected an opponent, got {red!r} again")
    return None


def _round_gaps(rounds: set[int], source: str) -> list[Problem]:
    """A problem if some round before the last has no game."""
    if not rounds:
        return []
    gaps = sorted(set(range(1, max(rounds) + 1)) - rounds)
    if not gaps:
        return []
    return [
        Problem(
            source,
            "round",
            f"expected games in every round 1-{max(rounds)}, got none in round "
            + ", ".join(str(g) for g in gaps),
        )
    ]


def _round(text: str, source: str, line: int, problems: list[Problem]) -> int | None:
    if text.isdigit() and int(text) >= 1:
        return int(text)
    problems.append(
        Problem(source, f"line {line}, round", f"expected a round number (1, 2, ...), got {text!r}")
    )
    return None


def _entries(
    rnd: int, red: str, black: str, result: str, scale: PointScale
) -> tuple[tuple[str, Entry], ...]:
    if result in _BYES:
        return ((red, bye_entry(rnd, _BYES[result], scale=scale)),)
    if result in _FORFEITS:
        return forfeit_entries(
            rnd,
            red,
            black,
            _FORFEITS[result],
            first_colour=Colour.RED,
            double=result == "--",
            scale=scale,
        )
    return game_entries(rnd, red, black, RESULTS[result], scale=scale)


def read_games_csv(
    path: str | Path, *, encoding: str | None = None, scale: PointScale = CLASSICAL
) -> CrossTable:
    """A cross table from the games CSV at ``path`` (UTF-8 unless ``encoding`` says else).

    Raises:
        InputError: If the file cannot be read, decoded or understood.
    """
    return parse_games_csv(read_text(path, encoding=encoding), source=str(path), scale=scale)
