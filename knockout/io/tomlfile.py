"""Reading TOML files: the one loader behind scenario, scoring and study files."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

from knockout.errors import InputError
from knockout.io.text import read_text

__all__ = ["load_toml", "parse_toml"]

_AT = re.compile(r"^(?P<what>.*?) \(at line (?P<line>\d+), column (?P<col>\d+)\)$")


def parse_toml(text: str, *, source: str) -> dict[str, Any]:
    """Parse TOML text.

    Raises:
        InputError: Not valid TOML: one line naming the line and column.

    >>> parse_toml("a = 1", source="x")
    {'a': 1}
    """
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        m = _AT.match(str(exc))
        if m is None:
            raise InputError.single(source, "", f"not valid TOML: {exc}") from None
        where = f"line {m['line']}, column {m['col']}"
        raise InputError.single(source, where, f"not valid TOML: {m['what']}") from None


def load_toml(path: str | Path, *, encoding: str | None = None) -> dict[str, Any]:
    """Read and parse a TOML file (any encoding, see :mod:`knockout.io.text`).

    Raises:
        InputError: Unreadable, undecodable or not TOML.
    """
    return parse_toml(read_text(path, encoding=encoding), source=str(path))
