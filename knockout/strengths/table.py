"""The games table of real games (issue 38's columns), read for the strength fit and the backtest.

One row a game: ``id, event, round, date, year, red, black, red_team, black_team, result,
time_class, moves, final_fen, record, kind, sources`` (``knockout games import`` writes it;
docs/games.md). Only the columns the fit and the backtest use are required (``id, event, date,
year, red, black, result, time_class, kind, sources``); the rest may be present. A file ending in
``.xz``, ``.gz`` or ``.bz2`` is decompressed first; comment lines (``#``) before the header, which
carry a table's attribution, are skipped.

Every bad cell is one problem naming the file, the line and the column: a result other than
``1-0``, ``1/2-1/2``, ``0-1`` or ``*`` (an empty one included), a time class or kind the table
does not define, a year that is not a whole number, a game without an id. A missing player's
name, ``*`` (the result is not known) and an empty year are what a collection holds, not errors:
such games are counted and left out of the fit (``select_games``), never guessed.
"""

from __future__ import annotations

import bz2
import gzip
import lzma
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from pathlib import Path, PurePosixPath

from knockout.corpus.timeclass import time_class
from knockout.errors import InputError, Problem
from knockout.io.csvrows import Row, parse_rows
from knockout.io.text import decode

__all__ = [
    "OPTIONAL_COLUMNS",
    "REQUIRED_COLUMNS",
    "GameRow",
    "GameTable",
    "Outcome",
    "TableClass",
    "classical_by_event",
    "event_of",
    "parse_table",
    "read_table",
    "source_folder",
]

REQUIRED_COLUMNS = (
    "id",
    "event",
    "date",
    "year",
    "red",
    "black",
    "result",
    "time_class",
    "kind",
    "sources",
)
"""The columns the fit and the backtest read."""
OPTIONAL_COLUMNS = ("round", "red_team", "black_team", "moves", "final_fen", "record")
"""The other columns of the table: allowed, not read."""


class TableClass(StrEnum):
    """A game's time class as the table writes it: the model's three, and what the event text
    leaves open (``tiebreak``: a 加賽 game of unstated clocks; ``unknown``: no marker)."""

    CLASSICAL = "classical"
    RAPID = "rapid"
    BLITZ = "blitz"
    TIEBREAK = "tiebreak"
    UNKNOWN = "unknown"


class Outcome(StrEnum):
    """A result as the table writes it (``*``: not known)."""

    RED = "1-0"
    DRAW = "1/2-1/2"
    BLACK = "0-1"
    UNKNOWN = "*"

    @property
    def code(self) -> int:
        """0 for a Red win, 1 for a draw, 2 for a Black win (the order of the forecasts)."""
        return _OUTCOME_INDEX[self]


_OUTCOME_INDEX = {Outcome.RED: 0, Outcome.DRAW: 1, Outcome.BLACK: 2, Outcome.UNKNOWN: -1}
_KINDS = ("master", "engine")


@dataclass(frozen=True)
class GameRow:
    """One game of the table, as the fit and the backtest read it.

    Attributes:
        id: The table's id of the game.
        event: The event text.
        date: The date as written (may be partial or empty).
        year: The year, None where the table has none.
        red: Red's name ("" where the record gives none).
        black: Black's name ("" where the record gives none).
        result: The result.
        time_class: The time class as the table writes it.
        kind: ``master`` or ``engine``.
        folders: The source folders the game was filed in (:func:`source_folder` of each
            source path), sorted, without repeats.
    """

    id: str
    event: str
    date: str
    year: int | None
    red: str
    black: str
    result: Outcome
    time_class: TableClass
    kind: str
    folders: tuple[str, ...]


@dataclass(frozen=True)
class GameTable:
    """A games table read and checked.

    Attributes:
        source: The file's name, for messages and outputs.
        games: The games in file order.
    """

    source: str
    games: tuple[GameRow, ...]


_ROUND = re.compile(
    r"第\s*[0-9０-９一二三四五六七八九十百]+\s*[輪轮局]|決賽|决赛|半決賽|半决赛|四分之一|八分之一|"
    r"加賽|加赛|超快棋|快棋|[(（]"
)


def source_folder(path: str) -> str:
    """The folder of a source path that says how the collection filed the game: the component
    after the kind's folder (``大師對局/以棋手分類/呂欽/1.pgn`` is ``以棋手分類``, filed by player),
    or the first folder of a shorter path.

    >>> source_folder("Dataset/對局/大師對局/以賽事分類/五羊杯/00000042.pgn")
    '以賽事分類'
    >>> source_folder("mine/a.pgn"), source_folder("a.pgn")
    ('mine', '')
    """
    parts = PurePosixPath(path.replace("\\", "/")).parts
    for marker in ("大師對局", "電腦對局", "大师对局", "电脑对局"):
        if marker in parts:
            at = parts.index(marker)
            return parts[at + 1] if at + 2 < len(parts) else ""
    return parts[0] if len(parts) > 1 else ""


def event_of(game: GameRow) -> tuple[int | None, str]:
    """The event a game belongs to: its year and its event text up to the first round marker or
    player's name (see the module docstring).

    >>> g = GameRow("1", "2004年全國象棋甲級聯賽第八輪 廣東 許銀川 先和 湖北 汪洋", "", 2004,
    ...             "許銀川", "汪洋", Outcome.DRAW, TableClass.UNKNOWN, "master", ())
    >>> event_of(g)
    (2004, '2004年全國象棋甲級聯賽')
    """
    text = game.event
    cut = len(text)
    found = _ROUND.search(text)
    if found is not None:
        cut = found.start()
    for name in (game.red, game.black):
        at = text.find(name)
        if at >= 0:
            cut = min(cut, at)
    return game.year, text[:cut].strip(" \t\u3000,，:：-—")


def classical_by_event(table: GameTable, events: Sequence[str]) -> tuple[GameTable, int]:
    """``table`` with its ``unknown`` games of the ``events`` known to be slow read as
    ``classical`` (``--classical-events``: a game whose event text contains a line, both in
    simplified characters, spaces ignored, as ``knockout games import`` reads the same file),
    and how many games that made classical. Games the event text marks faster stay as they are.

    >>> t = parse_table(
    ...     "id,event,date,year,red,black,result,time_class,kind,sources\\n"
    ...     "g1,全國象棋個人賽 第3輪,2001,2001,A,B,1-0,unknown,master,x.pgn\\n"
    ...     "g2,五羊杯,2001,2001,A,B,1-0,unknown,master,x.pgn\\n",
    ...     source="t.csv",
    ... )
    >>> marked, n = classical_by_event(t, ["全国象棋个人赛"])
    >>> n, [g.time_class.value for g in marked.games]
    (1, ['classical', 'unknown'])
    """
    games = []
    marked = 0
    for g in table.games:
        if g.time_class is TableClass.UNKNOWN and time_class(g.event, "", events) == "classical":
            games.append(replace(g, time_class=TableClass.CLASSICAL))
            marked += 1
        else:
            games.append(g)
    return GameTable(table.source, tuple(games)), marked


def _split_sources(cell: str) -> tuple[str, ...]:
    """The source paths of a ``sources`` cell (separated by ``|`` or ``;``)."""
    for sep in ("|", ";"):
        if sep in cell:
            return tuple(p.strip() for p in cell.split(sep) if p.strip())
    return (cell.strip(),) if cell.strip() else ()


def read_table(path: str | Path, *, encoding: str | None = None) -> GameTable:
    """The games table at ``path`` (``.xz``, ``.gz`` and ``.bz2`` are decompressed).

    Raises:
        InputError: Every problem found (unreadable file, bad header, one per bad cell).
    """
    source = str(path)
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise InputError.single(source, "", f"cannot read the file: {exc.strerror}") from None
    opener = {".xz": lzma.decompress, ".gz": gzip.decompress, ".bz2": bz2.decompress}.get(
        Path(path).suffix.lower()
    )
    if opener is not None:
        try:
            data = opener(data)
        except (lzma.LZMAError, OSError, EOFError, ValueError) as exc:
            raise InputError.single(
                source, "", f"expected a {Path(path).suffix} archive, cannot unpack it: {exc}"
            ) from None
    return parse_table(decode(data, source=source, encoding=encoding), source=source)


def parse_table(text: str, *, source: str) -> GameTable:
    """The games in CSV ``text`` (see the module docstring).

    >>> t = parse_table(
    ...     "id,event,date,year,red,black,result,time_class,kind,sources\\n"
    ...     "g1,Cup,2001.5.1,2001,A,B,1-0,unknown,master,x/大師對局/以賽事分類/1.pgn\\n",
    ...     source="t.csv",
    ... )
    >>> g = t.games[0]; (g.red, g.result.code, g.year, g.folders)
    ('A', 0, 2001, ('以賽事分類',))

    Raises:
        InputError: Every problem found, one per bad cell, each naming the line and column.
    """
    problems: list[Problem] = []
    games: list[GameRow] = []
    for row in parse_rows(
        _blank_comments(text), source=source, required=REQUIRED_COLUMNS, optional=OPTIONAL_COLUMNS
    ):
        if isinstance(row, Problem):
            problems.append(row)
            continue
        game = _game(row, source, problems)
        if game is not None:
            games.append(game)
    if not problems and not games:
        problems.append(Problem(source, "", "expected at least one game, got none"))
    if problems:
        raise InputError(problems)
    return GameTable(source, tuple(games))


def _blank_comments(text: str) -> str:
    """``text`` with the comment lines (``#``) before the header blanked, so the line numbers
    of messages stay the file's (a table carries its source's attribution there)."""
    lines = text.splitlines(keepends=True)
    for i, line in enumerate(lines):
        if not line.startswith("#"):
            break
        lines[i] = "\n"
    return "".join(lines)


def _choice(
    row: Row, column: str, values: Sequence[str], source: str, problems: list[Problem]
) -> str | None:
    text = row.cells[column]
    if text in values:
        return text
    problems.append(
        Problem(source, row.where(column), f"expected one of {', '.join(values)}, got {text!r}")
    )
    return None


def _game(row: Row, source: str, problems: list[Problem]) -> GameRow | None:
    """The game of one line, or None after adding one problem per bad cell."""
    before = len(problems)
    cells = row.cells
    result = _choice(row, "result", [o.value for o in Outcome], source, problems)
    tc = _choice(row, "time_class", [t.value for t in TableClass], source, problems)
    kind = _choice(row, "kind", _KINDS, source, problems)
    year: int | None = None
    if cells["year"]:
        try:
            year = int(cells["year"])
        except ValueError:
            problems.append(
                Problem(
                    source,
                    row.where("year"),
                    f"expected a whole year or nothing, got {cells['year']!r}",
                )
            )
    if not cells["id"]:
        problems.append(Problem(source, row.where("id"), "expected the game's id, got none"))
    if len(problems) > before:
        return None
    assert result is not None and tc is not None and kind is not None
    folders = tuple(sorted({source_folder(p) for p in _split_sources(cells["sources"])}))
    return GameRow(
        cells["id"],
        cells["event"],
        cells["date"],
        year,
        cells["red"],
        cells["black"],
        Outcome(result),
        TableClass(tc),
        kind,
        folders,
    )
