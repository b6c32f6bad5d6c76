"""Custom scoring systems: a ``[scoring.NAME]`` table of points, in a scoring file or a study file.

Each table has ``red_win``, ``black_win``, ``red_draw``, ``black_draw`` (required) and ``loss``
(default 0), each a non-negative number (TOML integer or float, or a decimal string such as
``"1.9"``), and optionally a ``description``. For each colour a draw must be worth at least a
loss and at most a win. Points are exact decimals: a TOML float 1.9 is read as the decimal 1.9.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Annotated, Any

from pydantic import BeforeValidator, Field, ValidationError

from knockout.errors import InputError, Problem
from knockout.io.tomlfile import load_toml
from knockout.points import SCORING, ScoringSystem
from knockout.validation import Table, problems_of

__all__ = ["custom_systems", "read_scoring_file", "scoring_from_dict"]


def _to_decimal(value: object) -> Decimal:
    """A finite Decimal from a number or a decimal string (bools are not numbers)."""
    number: Decimal | None = None
    if isinstance(value, float) and math.isfinite(value):
        number = Decimal(repr(value))  # the shortest repr of a TOML float is the number meant
    elif isinstance(value, int | Decimal) and not isinstance(value, bool):
        number = Decimal(value)
    elif isinstance(value, str):
        try:
            number = Decimal(value.strip())
        except InvalidOperation:
            number = None
    if number is None or not number.is_finite():
        raise ValueError("expected a number")
    return number


Points = Annotated[Decimal, BeforeValidator(_to_decimal), Field(ge=0)]


class _SystemIn(Table):
    red_win: Points
    black_win: Points
    red_draw: Points
    black_draw: Points
    loss: Points = Decimal(0)
    description: str = ""


def _draw_bounds(system: _SystemIn, source: str, key: str) -> list[Problem]:
    """For each colour, a draw must be worth at least a loss and at most a win."""
    problems = []
    for colour in ("red", "black"):
        win, draw = getattr(system, f"{colour}_win"), getattr(system, f"{colour}_draw")
        if draw < system.loss:
            problems.append(
                Problem(
                    source,
                    f"{key}.{colour}_draw",
                    f"expected at least the loss points {system.loss}, got {draw}",
                )
            )
        if draw > win:
            problems.append(
                Problem(
                    source,
                    f"{key}.{colour}_draw",
                    f"expected at most {colour}_win = {win}, got {draw}",
                )
            )
    return problems


def scoring_from_dict(
    table: Mapping[str, object],
    *,
    name: str = "custom",
    source: str = "scenario",
    key: str = "scoring.custom",
) -> ScoringSystem:
    """A custom scoring system from a ``[scoring.NAME]`` table (see the module docstring).

    Args:
        table: The table's keys and values.
        name: The system's name.
        source: Where the table came from, for messages (a file name).
        key: The table's key path in ``source``, for messages.

    Raises:
        InputError: Listing every problem found, one per key.

    >>> from knockout.game import Result
    >>> s = scoring_from_dict({"red_win": 1.9, "black_win": "2.1", "red_draw": 1, "black_draw": 1})
    >>> s.points(Result.BLACK), s.decimals
    ((Decimal('0'), Decimal('2.1')), 1)
    """
    try:
        system = _SystemIn.model_validate(dict(table))
    except ValidationError as exc:
        raise InputError(problems_of(exc, source, _SystemIn, prefix=key)) from None
    problems = _draw_bounds(system, source, key)
    if problems:
        raise InputError(problems)
    return ScoringSystem(
        name,
        system.red_win,
        system.black_win,
        system.red_draw,
        system.black_draw,
        system.loss,
        description=system.description or f"custom ({source}: [{key}])",
    )


def custom_systems(
    tables: Mapping[str, Any], source: str
) -> tuple[dict[str, ScoringSystem], list[Problem]]:
    """The ``[scoring.NAME]`` tables as systems (a name may not shadow a built-in one), and one
    problem per thing wrong with them."""
    systems: dict[str, ScoringSystem] = {}
    problems: list[Problem] = []
    for name, table in tables.items():
        key = f"scoring.{name}"
        if name in SCORING:
            problems.append(Problem(source, key, "shadows a built-in scoring system"))
        elif not isinstance(table, dict):
            problems.append(Problem(source, key, f"expected a table, got {table!r}"))
        else:
            try:
                systems[name] = scoring_from_dict(table, name=name, source=source, key=key)
            except InputError as exc:
                problems.extend(exc.problems)
    return systems, problems


def read_scoring_file(path: Path, *, encoding: str | None = None) -> dict[str, ScoringSystem]:
    """Custom scoring systems declared in a TOML file, one per ``[scoring.NAME]`` table.

    Raises:
        InputError: If the file cannot be read or parsed, has no ``[scoring.*]`` table, a name
            shadows a built-in system, or any table is invalid (every problem is reported).
    """
    source = str(path)
    tables = load_toml(path, encoding=encoding).get("scoring")
    if not isinstance(tables, dict) or not tables:
        raise InputError.single(
            source, "scoring", "expected at least one [scoring.NAME] table of points"
        )
    systems, problems = custom_systems(tables, source)
    if problems:
        raise InputError(problems)
    return systems
