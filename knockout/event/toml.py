"""A small TOML writer for scenario files (the standard library reads TOML but cannot write it).

It writes what :meth:`knockout.rules.scenario.aggregate.Scenario.to_dict` produces: text, numbers,
booleans, lists of those, nested tables and lists of tables. ``tomllib.loads(dumps(data)) == data``
for any such mapping (tested).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["dumps"]

_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


def dumps(data: Mapping[str, Any], *, header: Sequence[str] = ()) -> str:
    """``data`` as a TOML document, preceded by ``header`` lines as comments.

    >>> print(dumps({"name": "A", "bracket": {"third_place": True}}), end="")
    name = "A"
    <BLANKLINE>
    [bracket]
    third_place = true

    Raises:
        ValueError: For a value TOML cannot hold (None, NaN, infinity, another type).
    """
    lines = [f"# {' '.join(line.splitlines())}".rstrip() for line in header]
    _table(lines, (), data)
    while lines and not lines[0]:
        lines.pop(0)
    return "\n".join(lines) + "\n"


def _string(text: str) -> str:
    """A TOML basic string (JSON's escapes, and DEL, which TOML forbids raw)."""
    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007f")


def _key(key: str) -> str:
    return key if _BARE_KEY.fullmatch(key) else _string(key)


def _is_table_list(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, Mapping) for v in value)


def _table(lines: list[str], path: tuple[str, ...], data: Mapping[str, Any]) -> None:
    nested = {k: v for k, v in data.items() if isinstance(v, Mapping) or _is_table_list(v)}
    for k, v in data.items():
        if k not in nested:
            lines.append(f"{_key(k)} = {_value(v)}")
    for k, v in nested.items():
        sub = (*path, _key(k))
        if isinstance(v, Mapping):
            if any(not isinstance(x, Mapping) for x in v.values()) or not v:
                lines += ["", f"[{'.'.join(sub)}]"]
            _table(lines, sub, v)
        else:
            for item in v:
                lines += ["", f"[[{'.'.join(sub)}]]"]
                _inline_rest(lines, item)


def _inline_rest(lines: list[str], item: Mapping[str, Any]) -> None:
    """The keys of one array-of-tables element; nested tables are written inline."""
    for k, v in item.items():
        lines.append(f"{_key(k)} = {_value(v)}")


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if not math.isfinite(v):
            raise ValueError(f"TOML cannot hold {v!r} here")
        return repr(v)
    if isinstance(v, str):
        return _string(v)
    if isinstance(v, Mapping):
        return "{ " + ", ".join(f"{_key(k)} = {_value(x)}" for k, x in v.items()) + " }"
    if isinstance(v, list | tuple):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    raise ValueError(f"TOML cannot hold {v!r}")
