"""Custom scoring systems declared in a TOML file (``knockout rescore --scoring-file``)."""

from __future__ import annotations

import tomllib
from pathlib import Path

from knockout.errors import InputError, Problem
from knockout.io.text import read_text
from knockout.points import SCORING, ScoringSystem, scoring_from_dict

__all__ = ["read_scoring_file"]


def read_scoring_file(path: Path, *, encoding: str | None = None) -> dict[str, ScoringSystem]:
    """Custom scoring systems declared in a TOML file, one per ``[scoring.NAME]`` table.

    Raises:
        InputError: If the file cannot be read or parsed, has no ``[scoring.*]`` table, a name
            shadows a built-in system, or any table is invalid (every problem is reported).
    """
    source = str(path)
    text = read_text(path, encoding=encoding)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InputError.single(source, "", f"expected TOML: {exc}") from None
    tables = data.get("scoring")
    if not isinstance(tables, dict) or not tables:
        raise InputError.single(
            source, "scoring", "expected at least one [scoring.NAME] table of points"
        )
    systems: dict[str, ScoringSystem] = {}
    problems: list[Problem] = []
    for name, table in tables.items():
        if name in SCORING:
            problems.append(Problem(source, f"scoring.{name}", "shadows a built-in scoring system"))
        elif not isinstance(table, dict):
            problems.append(Problem(source, f"scoring.{name}", f"expected a table, got {table!r}"))
        else:
            try:
                systems[name] = scoring_from_dict(
                    table, name=name, source=source, key=f"scoring.{name}"
                )
            except InputError as exc:
                problems.extend(exc.problems)
    if problems:
        raise InputError(problems)
    return systems
