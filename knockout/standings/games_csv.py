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

import csv
import io
from collections.abc import Mapping
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
    try:
        header = next(reader, None)
    except csv.Error as exc:
        raise InputError.single(source, "line 1", f"expected CSV, got {exc}") from None
    columns = [c.strip().lower() for c in header] if header else []
    missing = [c for c in COLUMNS if c not in columns]
    if missing:
        got = ",".join(header) if header else "an empty file"
        raise InputError.single(
            source, "line 1", f"expected the header {','.join(COLUMNS)}, got {got!r}"
        )
    at = {c: columns.index(c) for c in COLUMNS}
    players: dict[str, None] = {}
    entries: list[tuple[str, Entry]] = []
    seen: dict[tuple[int, str], int] = {}
    rounds: set[int] = set()
    while True:
        try:
            row = next(reader)
        except StopIteration:
            break
        except csv.Error as exc:
            problems.append(Problem(source, f"line {reader.line_num}", f"expected CSV, got {exc}"))
            break
        line = reader.line_num
        if not any(cell.strip() for cell in row):
            continue
        if len(row) < len(columns):
            problems.append(
                Problem(
                    source,
                    f"line {line}",
                    f"expected {len(columns)} fields ({','.join(columns)}), got {len(row)}",
                )
            )
            continue
        cells = {c: row[i].strip() for c, i in at.items()}
        bad = len(problems)
        rnd = _round(cells["round"], source, line, problems)
        red = normalise_name(cells["red"])
        black = normalise_name(cells["black"])
        result = cells["result"].lower().replace(" ", "")
        if not red:
            problems.append(Problem(source, f"line {line}, red", "expected a name, got none"))
        if result in _BYES:
            if black:
                problems.append(
                    Problem(
                        source,
                        f"line {line}, black",
                        f"expected no opponent for a {result}, got {black!r}",
                    )
                )
        elif result not in RESULTS and result not in _FORFEITS:
            problems.append(
                Problem(
                    source,
                    f"line {line}, result",
                    f"expected {_EXPECTED_RESULT} (or a bye), got {cells['result']!r}",
                )
            )
        elif not black:
            problems.append(Problem(source, f"line {line}, black", "expected a name, got none"))
        elif black == red:
            problems.append(
                Problem(source, f"line {line}, black", f"expected an opponent, got {red!r} again")
            )
        if len(problems) > bad or rnd is None:
            continue
        names = [red] if result in _BYES else [red, black]
        clash = False
        for name in names:
            if (rnd, name) in seen:
                problems.append(
                    Problem(
                        source,
                        f"line {line}",
                        f"{name!r} already has a game in round {rnd} (line {seen[rnd, name]})",
                    )
                )
                clash = True
        if clash:
            continue
        for name in names:
            seen[rnd, name] = line
            players.setdefault(name)
        rounds.add(rnd)
        entries.extend(_entries(rnd, red, black, result, scale))
    if not entries and not problems:
        problems.append(Problem(source, "", "expected at least one game, got none"))
    if rounds:
        gaps = sorted(set(range(1, max(rounds) + 1)) - rounds)
        if gaps:
            problems.append(
                Problem(
                    source,
                    "round",
                    f"expected games in every round 1-{max(rounds)}, got none in round "
                    + ", ".join(str(g) for g in gaps),
                )
            )
    if problems:
        raise InputError(problems)
    return CrossTable.from_entries(
        list(players), entries, draw_points=scale.unplayed_draw, scale=scale
    )


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
