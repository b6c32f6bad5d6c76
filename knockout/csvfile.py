"""Reading small CSV tables of results: encoding, header, rows, and player names.

Every problem is reported as a :class:`~knockout.errors.Problem` naming the file, the line and the
column, so a caller can collect all of them and raise one :class:`~knockout.errors.InputError`.
"""

from __future__ import annotations

import codecs
import csv
import io
import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from knockout.errors import InputError, Problem

__all__ = ["Row", "normalise_name", "parse_rows", "read_text"]

_SPACE = re.compile(r"\s+")
# CJK ideographs (BMP, compatibility block, and the supplementary planes' extensions).
_CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003ffff"
_SPACE_BETWEEN_CJK = re.compile(f"(?<=[{_CJK}]) (?=[{_CJK}])")


def normalise_name(name: str) -> str:
    """A player or team name with its white space normalised.

    Leading and trailing white space goes; runs of white space (including the ideographic space
    U+3000) become one space; a space between two Chinese characters goes, since the seed writes
    the same player as 程 鸣 and 程鸣. Latin names keep their single spaces.

    >>> [normalise_name(n) for n in (" 程 鸣 ", "才\u3000\u3000溢", "Wang  Tianyi")]
    ['程鸣', '才溢', 'Wang Tianyi']
    """
    text = _SPACE.sub(" ", unicodedata.normalize("NFC", name)).strip()
    return _SPACE_BETWEEN_CJK.sub("", text)


def read_text(path: Path, *, encoding: str = "utf-8") -> str:
    """The text of ``path`` decoded with ``encoding``, without a leading byte-order mark.

    Raises:
        InputError: If the file cannot be read, the encoding is unknown or the bytes are not valid
            in it (the message gives the offending byte and its offset).
    """
    source = str(path)
    try:
        codecs.lookup(encoding)
    except LookupError:
        raise InputError.single(source, "", f"unknown encoding {encoding!r}") from None
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise InputError.single(source, "", "no such file") from None
    except OSError as exc:
        raise InputError.single(source, "", f"cannot read: {exc.strerror or exc}") from None
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as exc:
        bad = data[exc.start : exc.end].hex(" ")
        raise InputError.single(
            source,
            f"byte {exc.start}",
            f"expected {encoding} text, got bytes {bad} (another encoding, such as gb18030?)",
        ) from None
    return text.removeprefix("\ufeff")


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


def parse_rows(
    text: str, *, source: str, required: Sequence[str], optional: Sequence[str] = ()
) -> list[Row | Problem]:
    """The data rows of a CSV table, in file order; a row that does not fit the header is a
    problem instead.

    The header must name every ``required`` column, may name ``optional`` ones, in any order, and
    nothing else (a misspelt column is an error, not silently ignored). Blank lines are skipped.

    Raises:
        InputError: If the header itself is wrong (every header problem at once).
    """
    reader = csv.reader(io.StringIO(text, newline=""))
    header: list[str] | None = None
    for cells in reader:
        if any(c.strip() for c in cells):
            header = [c.strip() for c in cells]
            header_line = reader.line_num
            break
    expected = ", ".join(required) + (f" (optional: {', '.join(optional)})" if optional else "")
    if header is None:
        raise InputError.single(source, "", f"empty file: expected a header line {expected}")
    key = f"line {header_line}, header"
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
