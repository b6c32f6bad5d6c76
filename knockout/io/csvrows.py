"""Reading small CSV tables of results with a strict header.

Every problem is reported as a :class:`~knockout.errors.Problem` naming the file, the line and the
column, so a caller can collect all of them and raise one :class:`~knockout.errors.InputError`.
Files are decoded by :func:`knockout.io.text.read_text`; names are normalised by
:func:`knockout.standings.records.normalise_name`.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from knockout.errors import InputError, Problem

__all__ = ["Row", "parse_rows"]


@dataclass(frozen=True)
class Row:
    """One data row of a CSV table.

    Attributes:
        line: Line number in the file (1 is the header).
        cells: Column name to the cell's text, stripped of surrounding white space.
    """

    line: int
    cells: Mapping[str, str]

    def where(self, column: str) -> str:
        """The problem key for ``column`` of this row: ``line 7, colour``."""
        return f"line {self.line}, {column}"


#: Separators spreadsheets use instead of commas, as a message names them.
_SEPARATORS = {";": "semicolons (;)", "\t": "tabs", "|": "vertical bars (|)"}


def _column(cell: str, known: Sequence[str]) -> str:
    """A header cell: stripped, and in the known columns' spelling when it differs only in
    case (``Name`` is ``name``)."""
    name = cell.strip()
    return next((k for k in known if k.casefold() == name.casefold()), name)


def _wrong_separator(header: Sequence[str], required: Sequence[str]) -> str | None:
    """How the columns are separated, if not by commas: a header cell holding the required
    columns joined by another separator (``name;rating``)."""
    for cell in header:
        for sep, label in _SEPARATORS.items():
            names = [c.strip().casefold() for c in cell.split(sep)]
            if len(names) > 1 and all(r.casefold() in names for r in required):
                return label
    return None


def parse_rows(
    text: str, *, source: str, required: Sequence[str], optional: Sequence[str] = ()
) -> list[Row | Problem]:
    """The data rows of a CSV table, in file order; a row that does not fit the header is a
    problem instead.

    The header must name every ``required`` column, may name ``optional`` ones, in any order and
    in any case (``Name`` is ``name``), and nothing else (a misspelt column is an error, not
    silently ignored); a header separated by semicolons or tabs is named as such. Blank lines
    are skipped.

    Raises:
        InputError: If the header itself is wrong (every header problem at once).
    """
    reader = csv.reader(io.StringIO(text, newline=""))
    header: list[str] | None = None
    for cells in reader:
        if any(c.strip() for c in cells):
            header = [_column(c, (*required, *optional)) for c in cells]
            header_line = reader.line_num
            break
    expected = ", ".join(required) + (f" (optional: {', '.join(optional)})" if optional else "")
    if header is None:
        raise InputError.single(source, "", f"empty file: expected a header line {expected}")
    key = f"line {header_line}, header"
    separator = _wrong_separator(header, required)
    if separator is not None:
        raise InputError.single(
            source,
            key,
            f"expected columns separated by commas, found them separated by {separator} "
            f"({', '.join(required)} in one cell): save the file as CSV with commas",
        )
    problems = [
        Problem(source, key, f"unknown column {name!r}: expected {expected}")
        for name in header
        if name not in required and name not in optional
    ]
    problems += [
        Problem(source, key, f"column {name!r} appears more than once")
        for name in sorted(set(header))
        if header.count(name) > 1
    ]
    problems += [
        Problem(source, key, f"missing column {name!r}: expected {expected}")
        for name in required
        if name not in header
    ]
    if problems:
        raise InputError(problems)
    rows: list[Row | Problem] = []
    for cells in reader:
        if not any(c.strip() for c in cells):
            continue
        line = reader.line_num
        if len(cells) != len(header):
            rows.append(
                Problem(
                    source,
                    f"line {line}",
                    f"expected {len(header)} cells ({', '.join(header)}), got {len(cells)}",
                )
            )
            continue
        rows.append(Row(line, {name: c.strip() for name, c in zip(header, cells, strict=True)}))
    return rows
