"""The table of games: one row a game, written and read as CSV (plain, ``.gz`` or ``.xz``).

Columns (:data:`COLUMNS`), in this order:

=============== ==============================================================================
``id``          12 hex digits, a hash of the game's identity (players, date, moves): the same
                archive gives the same ids
``event``       the ``Event`` tag as written
``round``       the round number (text), from the ``Round`` tag or the event text; may be empty
``date``        ``YYYY-MM-DD``, ``YYYY-MM`` or ``YYYY``; empty where the record gives none
``year``        from the date or the event text; empty where neither says
``red``         Red's name (team split off; one written form per player)
``black``       Black's name
``red_team``    the team before Red's name or in the ``RedTeam`` tag; may be empty
``black_team``  likewise for Black
``result``      ``1-0``, ``1/2-1/2``, ``0-1`` or ``*`` (unknown, or copies disagree)
``time_class``  ``blitz``, ``rapid``, ``tiebreak``, ``classical`` or ``unknown``
``moves``       the record's length in moves (Red's count)
``final_fen``   the final position (complete records); else the position where the replay stopped
``record``      ``complete``, ``broken at move N`` or ``no moves``
``kind``        ``master`` or ``engine``
``sources``     every file the game was found in, separated by `` | ``
=============== ==============================================================================

A file may begin with comment lines (``#``), which carry the source's attribution and licence;
readers skip them. :func:`write_table` writes the same bytes for the same rows (the rows sorted by
date and id; ``.xz`` and ``.gz`` without timestamps).
"""

from __future__ import annotations

import csv
import gzip
import io
import lzma
from collections.abc import Iterable, Sequence
from dataclasses import astuple, dataclass
from pathlib import Path

from knockout.errors import InputError, Problem

__all__ = [
    "COLUMNS",
    "KINDS",
    "GameRow",
    "read_table",
    "write_table",
]

COLUMNS = (
    "id",
    "event",
    "round",
    "date",
    "year",
    "red",
    "black",
    "red_team",
    "black_team",
    "result",
    "time_class",
    "moves",
    "final_fen",
    "record",
    "kind",
    "sources",
)

KINDS = ("master", "engine")

_RESULTS = ("1-0", "1/2-1/2", "0-1", "*")
_CLASSES = ("blitz", "rapid", "tiebreak", "classical", "unknown")


@dataclass(frozen=True)
class GameRow:
    """One game of the table (the columns of :data:`COLUMNS`)."""

    id: str
    event: str
    round: str
    date: str
    year: int | None
    red: str
    black: str
    red_team: str
    black_team: str
    result: str
    time_class: str
    moves: int
    final_fen: str
    record: str
    kind: str
    sources: tuple[str, ...]

    def cells(self) -> list[str]:
        """The row as CSV cells."""
        values = astuple(self)
        out = []
        for name, value in zip(COLUMNS, values, strict=True):
            if name == "sources":
                out.append(" | ".join(value))
            elif value is None:
                out.append("")
            else:
                out.append(str(value))
        return out

    @property
    def complete(self) -> bool:
        """Whether the record replays to its end."""
        return self.record == "complete"


def _sort_key(row: GameRow) -> tuple[str, str]:
    return (row.date or (f"{row.year}" if row.year is not None else "~"), row.id)


def table_text(rows: Iterable[GameRow], header: Sequence[str] = ()) -> str:
    """The table as CSV text: ``header`` as ``#`` comment lines, the column names, the rows sorted
    by date (or year) and id."""
    buffer = io.StringIO()
    for line in header:
        buffer.write(f"# {line}".rstrip() + "\n")
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(COLUMNS)
    for row in sorted(rows, key=_sort_key):
        writer.writerow(row.cells())
    return buffer.getvalue()


def write_table(path: Path, rows: Iterable[GameRow], header: Sequence[str] = ()) -> None:
    """Write the table to ``path``: plain CSV, or compressed by its suffix (``.xz``, ``.gz``),
    byte for byte the same for the same rows.

    Raises:
        OSError: If the file cannot be written.
    """
    data = table_text(rows, header).encode("utf-8")
    if path.suffix == ".xz":
        data = lzma.compress(data, preset=9 | lzma.PRESET_EXTREME)
    elif path.suffix == ".gz":
        data = gzip.compress(data, compresslevel=9, mtime=0)
    path.write_bytes(data)


def _open_text(path: Path) -> str:
    data = path.read_bytes()
    if path.suffix == ".xz" or data.startswith(b"\xfd7zXZ"):
        data = lzma.decompress(data)
    elif path.suffix == ".gz" or data.startswith(b"\x1f\x8b"):
        data = gzip.decompress(data)
    return data.decode("utf-8-sig")


def read_table(path: Path) -> list[GameRow]:
    """The rows of a table file written by :func:`write_table` (or by hand, same columns).

    Raises:
        InputError: If the file cannot be read, its header is not :data:`COLUMNS`, or rows are
            bad (one problem per cell, every row checked).
    """
    source = str(path)
    try:
        text = _open_text(path)
    except (OSError, lzma.LZMAError, EOFError, gzip.BadGzipFile, UnicodeDecodeError) as exc:
        raise InputError.single(source, "", f"cannot read the games table: {exc}") from None
    lines = text.splitlines(keepends=True)
    first = next((i for i, line in enumerate(lines) if not line.startswith("#")), len(lines))
    reader = csv.reader(lines[first:])
    header = next(reader, None)
    if header is None or tuple(header) != COLUMNS:
        found = ",".join(header) if header else "nothing"
        raise InputError.single(
            source, f"line {first + 1}", f"expected the header {','.join(COLUMNS)}, got {found}"
        )
    rows: list[GameRow] = []
    problems: list[Problem] = []
    for number, cells in enumerate(reader, start=first + 2):
        if not cells:
            continue
        row = _parse(cells, source, number, problems)
        if row is not None:
            rows.append(row)
    if problems:
        raise InputError(problems)
    return rows


def _parse(cells: list[str], source: str, line: int, problems: list[Problem]) -> GameRow | None:
    where = f"line {line}"
    if len(cells) != len(COLUMNS):
        problems.append(Problem(source, where, f"expected {len(COLUMNS)} cells, got {len(cells)}"))
        return None
    value = dict(zip(COLUMNS, cells, strict=True))
    before = len(problems)
    checks = (
        ("result", value["result"] in _RESULTS, " or ".join(_RESULTS)),
        ("time_class", value["time_class"] in _CLASSES, " or ".join(_CLASSES)),
        ("kind", value["kind"] in KINDS, " or ".join(KINDS)),
        ("moves", value["moves"].isdigit(), "a whole number >= 0"),
        ("year", value["year"] == "" or value["year"].isdigit(), "a year or nothing"),
    )
    for column, ok, expected in checks:
        if not ok:
            problems.append(
                Problem(source, f"{where}, {column}", f"expected {expected}, got {value[column]!r}")
            )
    if len(problems) > before:
        return None
    return GameRow(
        id=value["id"],
        event=value["event"],
        round=value["round"],
        date=value["date"],
        year=int(value["year"]) if value["year"] else None,
        red=value["red"],
        black=value["black"],
        red_team=value["red_team"],
        black_team=value["black_team"],
        result=value["result"],
        time_class=value["time_class"],
        moves=int(value["moves"]),
        final_fen=value["final_fen"],
        record=value["record"],
        kind=value["kind"],
        sources=tuple(s for s in value["sources"].split(" | ") if s),
    )
