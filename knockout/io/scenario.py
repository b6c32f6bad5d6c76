"""Reading scenario files: TOML or JSON (any output's ``scenario``), with ``--set`` overrides.

The scenario itself, its tables and its invariants live in :mod:`knockout.rules.scenario.aggregate`;
this module reads files and says which file or ``--set`` a problem comes from.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from knockout.errors import InputError, Problem, ScenarioError
from knockout.io.overrides import SOURCE as OVERRIDE_SOURCE
from knockout.io.overrides import apply_overrides, parse_override
from knockout.io.text import read_text
from knockout.io.tomlfile import load_toml
from knockout.rules.scenario.aggregate import Scenario, parse_scenario

# The Scenario itself and parse_scenario live in knockout.rules.scenario.aggregate (the domain
# layer); this module only reads files into them.
__all__ = ["load_scenario"]


def load_scenario(
    path: str | Path, *, encoding: str | None = None, overrides: Sequence[str] = ()
) -> Scenario:
    """Read and validate a scenario file, with what-if overrides applied.

    A ``.json`` file is read as a scenario too: the ``scenario`` object of any output (or a
    whole output file, whose ``scenario`` key is used), so every result can be reproduced and
    varied from itself. Other files are TOML. Any encoding: :mod:`knockout.io.text`.

    Args:
        path: The scenario file.
        encoding: Its text encoding (default: by byte-order mark, else UTF-8).
        overrides: ``KEY=VALUE`` items (:mod:`knockout.io.overrides`), applied in order.

    Raises:
        ScenarioError: Listing every problem found (unreadable file, bad TOML or JSON, bad
            overrides, bad keys/values), each naming the file or ``--set`` and the key.
    """
    source = str(path)
    problems: list[Problem] = []
    parsed = []
    for text in overrides:
        try:
            parsed.append(parse_override(text))
        except InputError as exc:
            problems.extend(exc.problems)
    try:
        data = _read(path, encoding)
    except InputError as exc:
        raise ScenarioError(exc.problems) from None
    data, keys, path_problems = apply_overrides(data, parsed)
    problems += path_problems
    try:
        scenario = parse_scenario(data, source=source)
    except ScenarioError as exc:
        problems += [_blame(p, keys) for p in exc.problems]
    if problems:
        raise ScenarioError(problems)
    return scenario


def _read(path: str | Path, encoding: str | None) -> dict[str, Any]:
    """The raw scenario tables of a TOML file, or of a JSON scenario or output file."""
    if not str(path).lower().endswith(".json"):
        return load_toml(path, encoding=encoding)
    source = str(path)
    text = read_text(path, encoding=encoding)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        where = f"line {exc.lineno}, column {exc.colno}"
        raise InputError.single(source, where, f"not valid JSON: {exc.msg}") from None
    if isinstance(data, dict) and isinstance(data.get("scenario"), dict):
        data = data["scenario"]
    if not isinstance(data, dict):
        raise InputError.single(source, "", "expected a JSON object (a scenario or an output)")
    return data


def _blame(problem: Problem, overridden: Mapping[str, str]) -> Problem:
    """A problem with an overridden key is reported against ``--set``, not the file."""
    for key in overridden:
        if problem.key == key or problem.key.startswith((f"{key}.", f"{key}[")):
            return replace(problem, source=OVERRIDE_SOURCE)
    return problem
