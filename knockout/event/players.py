"""The entry list: players of an event from a CSV file, the way organisers keep them.

Columns ``name,rating`` and optionally ``rating_rapid,rating_blitz,seed,federation``, in any
order and any case; UTF-8 (with or without a byte-order mark) or another encoding such as
``gb18030``. Names are tidied and compared as :mod:`knockout.event.checks` says (``Chen Hao`` and
``chen hao`` are one name, listed twice); ratings lie in ``MIN_RATING..MAX_RATING``. Every bad
line is reported at once, one problem per line and column.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from knockout.errors import InputError, Problem
from knockout.event.checks import clean_name, name_key, name_problem, rating_problem
from knockout.i18n import _
from knockout.io.csvrows import Row, parse_rows
from knockout.io.text import read_text

__all__ = ["Entrant", "parse_players", "read_players"]

REQUIRED = ("name", "rating")
OPTIONAL = ("rating_rapid", "rating_blitz", "seed", "federation")


@dataclass(frozen=True)
class Entrant:
    """One line of the entry list.

    Attributes:
        name: The player's name (white space normalised).
        rating: Classical rating.
        rating_rapid: Rapid rating, if given.
        rating_blitz: Blitz rating, if given.
        seed: Seed (1 = top), if given; used with ``[bracket] seeding = "given"``.
        federation: Federation, club or province, if given (shown, not used by the rules).
    """

    name: str
    rating: float
    rating_rapid: float | None = None
    rating_blitz: float | None = None
    seed: int | None = None
    federation: str | None = None

    def to_scenario(self) -> dict[str, Any]:
        """The ``[[players]]`` table of a scenario file."""
        out: dict[str, Any] = {"name": self.name, "rating": self.rating}
        if self.rating_rapid is not None:
            out["rating_rapid"] = self.rating_rapid
        if self.rating_blitz is not None:
            out["rating_blitz"] = self.rating_blitz
        if self.seed is not None:
            out["seed"] = self.seed
        return out


def read_players(path: str | Path, *, encoding: str | None = None) -> tuple[Entrant, ...]:
    """The entry list in the CSV file at ``path``.

    Raises:
        InputError: Every problem in the file (unreadable, bad header, bad lines, duplicates).
    """
    return parse_players(read_text(path, encoding=encoding), source=str(path))


def parse_players(text: str, *, source: str) -> tuple[Entrant, ...]:
    """The entry list in CSV ``text``.

    >>> [p.name for p in parse_players("name,rating\\nWang  Tianyi,2650\\n程 鸣,2600\\n",
    ...                                source="x.csv")]
    ['Wang Tianyi', '程鸣']

    Raises:
        InputError: Every problem found.
    """
    problems: list[Problem] = []
    out: list[Entrant] = []
    seen: dict[str, tuple[str, int]] = {}
    for row in parse_rows(text, source=source, required=REQUIRED, optional=OPTIONAL):
        if isinstance(row, Problem):
            problems.append(row)
            continue
        entrant, row_problems = _entrant(row, source)
        problems += row_problems
        if entrant is None:
            continue
        key = name_key(entrant.name)
        if key in seen:
            first, line = seen[key]
            if first == entrant.name:
                message = _(
                    "expected a name not already listed, found {name} again (first on line {line})"
                ).format(name=repr(entrant.name), line=line)
            else:
                message = _(
                    "expected a name not already listed, found {name} again (first on line "
                    "{line}, as {first}: names are compared ignoring case and invisible "
                    "characters)"
                ).format(name=repr(entrant.name), line=line, first=repr(first))
            problems.append(Problem(source, row.where("name"), message))
            continue
        seen[key] = (entrant.name, row.line)
        out.append(entrant)
    if not problems and len(out) < 2:
        problems.append(
            Problem(source, "", _("expected at least two players, found {n}").format(n=len(out)))
        )
    if problems:
        raise InputError(problems)
    return tuple(out)


def _entrant(row: Row, source: str) -> tuple[Entrant | None, list[Problem]]:
    problems: list[Problem] = []
    name = clean_name(row.cells["name"])
    problem = name_problem(row.cells["name"])
    if problem is not None:
        problems.append(Problem(source, row.where("name"), problem))
    rating = _number(row, "rating", source, problems, required=True)
    rapid = _number(row, "rating_rapid", source, problems)
    blitz = _number(row, "rating_blitz", source, problems)
    seed = _seed(row, source, problems)
    federation = clean_name(row.cells.get("federation", "")) or None
    if problems or rating is None:
        return None, problems
    return Entrant(name, rating, rapid, blitz, seed, federation), problems


def _number(
    row: Row, column: str, source: str, problems: list[Problem], *, required: bool = False
) -> float | None:
    text = row.cells.get(column, "")
    if not text:
        if required:
            problems.append(
                Problem(source, row.where(column), _("expected a rating, found nothing"))
            )
        return None
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    problem = rating_problem(value, text)
    if problem is not None:
        problems.append(Problem(source, row.where(column), problem))
        return None
    return value


def _seed(row: Row, source: str, problems: list[Problem]) -> int | None:
    text = row.cells.get("seed", "")
    if not text:
        return None
    if not text.isdigit() or int(text) < 1:
        problems.append(
            Problem(
                source,
                row.where("seed"),
                _("expected a whole number >= 1, found {text}").format(text=repr(text)),
            )
        )
        return None
    return int(text)
