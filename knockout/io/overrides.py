"""What-if overrides: ``--set KEY=VALUE`` applied to a scenario before it is validated.

``KEY`` is a dotted path into the scenario file's tables (``model.draw_nu.rapid``,
``format.sudden_death.accept``, ``strategy.kind``); players are addressed by name
(``players.Alpha.rating``; a team-match file's players ``home.甲1.rating``). ``VALUE`` is a
TOML value (``0.5``, ``[30, 15]``, ``"naive"``, ``true``); a word that is not valid TOML is taken
as text, so ``--set strategy.kind=naive`` works unquoted.
The result is validated exactly like the file, and a problem with an overridden key is reported
against ``--set`` rather than the file.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from knockout.errors import InputError, Problem

__all__ = ["Override", "apply_overrides", "parse_override"]

SOURCE = "--set"


@dataclass(frozen=True)
class Override:
    """One ``--set`` item.

    Attributes:
        text: As given (``model.draw_nu.rapid=0.5``).
        path: The dotted key, split (``("model", "draw_nu", "rapid")``).
        value: The value, parsed.
    """

    text: str
    path: tuple[str, ...]
    value: Any


def parse_override(text: str) -> Override:
    """Parse ``KEY=VALUE``.

    Raises:
        InputError: Without ``=`` or with an empty key part.

    >>> parse_override("format.sudden_death.accept=[30, 15]").value
    [30, 15]
    >>> parse_override("strategy.kind=naive").value
    'naive'
    """
    key, sep, raw = text.partition("=")
    path = tuple(part.strip() for part in key.strip().split("."))
    if not sep or not all(path):
        raise InputError.single(
            SOURCE, text, "expected KEY=VALUE with a dotted KEY, e.g. model.draw_nu.rapid=0.5"
        )
    raw = raw.strip()
    try:
        value = tomllib.loads(f"v = {raw}")["v"]
    except tomllib.TOMLDecodeError:
        if not raw or any(c in raw for c in "[]{}\"'="):
            raise InputError.single(
                SOURCE, text, f"expected a TOML value after '=', got {raw!r}"
            ) from None
        value = raw  # a bare word: text
    return Override(text, path, value)


def apply_overrides(
    data: Mapping[str, Any],
    overrides: Sequence[Override],
    *,
    named: Sequence[str] = ("players",),
) -> tuple[dict[str, Any], dict[str, str], list[Problem]]:
    """A copy of ``data`` with every override that can be applied, applied.

    Only the tables and arrays on an override's path are copied (the rest is shared with
    ``data``, which is never changed): a study makes a scenario for each of thousands of points.
    Entries of the top-level arrays of tables ``named`` are addressed by their ``name``.

    Returns:
        The new data; for each applied override the key path the validator will report
        problems under (``players.Alpha.rating`` becomes ``players[0].rating``), mapped to its
        text; and one problem per override whose path cannot be followed (a player who is not
        there, a key under a value that is not a table).
    """
    out = dict(data)
    keys: dict[str, str] = {}
    problems: list[Problem] = []
    for o in overrides:
        try:
            keys[_apply(out, o, named)] = o.text
        except _PathError as exc:
            problems.append(Problem(SOURCE, ".".join(o.path), str(exc)))
    return out, keys, problems


class _PathError(ValueError):
    pass


def _apply(data: dict[str, Any], o: Override, named: Sequence[str]) -> str:
    """Set ``o.value`` at ``o.path`` in ``data``; returns the validator's key for it."""
    node: Any = data
    shown: list[str] = []
    parts = list(o.path)
    while len(parts) > 1:
        part = parts.pop(0)
        if part in named and isinstance(node, dict) and node is data:
            index, player = _player(data, parts.pop(0), part)
            entries = list(data[part])  # copied on the way down: ``data``'s own stay as they are
            node = entries[index] = dict(player)
            data[part] = entries
            shown.append(f"{part}[{index}]")
            if not parts:
                raise _PathError("expected a key after the player's name, e.g. .rating")
            continue
        if not isinstance(node, dict):
            raise _PathError(f"{'.'.join(shown) or 'the scenario'} is not a table")
        child = node.get(part, {})
        if not isinstance(child, dict):
            raise _PathError(f"{'.'.join([*shown, part])} is {child!r}, not a table")
        node[part] = node = dict(child)
        shown.append(part)
    if not isinstance(node, dict):
        raise _PathError(f"{'.'.join(shown)} is not a table")
    node[parts[0]] = o.value
    return ".".join([*shown, parts[0]])


def _player(data: dict[str, Any], name: str, key: str = "players") -> tuple[int, dict[str, Any]]:
    players = data.get(key)
    if not isinstance(players, list):
        what = "the scenario" if key == "players" else "the file"
        raise _PathError(f"{what} has no [[{key}]] to address by name")
    names = [str(p.get("name", "")).strip() for p in players if isinstance(p, dict)]
    for i, p in enumerate(players):
        if isinstance(p, dict) and str(p.get("name", "")).strip() == name:
            return i, p
    import difflib  # noqa: PLC0415  (only for a misspelt name: slow to load)

    close = difflib.get_close_matches(name, names, n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else f" (players: {', '.join(names)})"
    where = "" if key == "players" else f" in [[{key}]]"
    raise _PathError(f"no player named {name!r}{where}{hint}")
