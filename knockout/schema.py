"""Valid input tables accepted without pydantic, against a schema compiled from its models.

Importing pydantic and building the scenario's models costs about 0.25 s of CPU, more than the
rest of a short command (``knockout odds``, every ``knockout event`` command). So a table is first
checked here, in plain Python, against the JSON schema of its pydantic model (compiled once into
:mod:`knockout.rules.scenario.schema`, which a test keeps equal to the models). The check is
deliberately narrow: it accepts a value only where pydantic, in the models' strict mode, would
accept it and give the same result, and otherwise answers ``None`` ("not sure"). The caller
then asks pydantic, which either accepts it too or explains, one line per problem, what is wrong.
A valid file therefore never loads pydantic, and a bad one gets pydantic's messages unchanged.

Supported schema words: ``type`` (object, array, string, number, integer, boolean, null),
``properties``, ``required``, ``additionalProperties``, ``default``, ``$ref`` into ``$defs``,
``anyOf``, ``enum``, ``const``, ``minimum``, ``maximum``, ``exclusiveMinimum``,
``exclusiveMaximum``, ``minLength``, ``maxLength``, ``minItems`` and ``maxItems``. A schema
with any other word is not checked here (``None``).
"""

from __future__ import annotations

import copy
import math
from collections.abc import Iterable, Mapping
from typing import Any

from knockout.errors import Problem

__all__ = ["Record", "check", "dedupe", "unknown_key"]

#: Schema words :func:`check` understands (``title`` and ``description`` are dropped when the
#: schema is compiled); anything else makes it answer "not sure".
KNOWN_WORDS = frozenset(
    {
        "type",
        "properties",
        "required",
        "additionalProperties",
        "default",
        "$ref",
        "anyOf",
        "enum",
        "const",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "minLength",
        "maxLength",
        "minItems",
        "maxItems",
        "items",
        "$defs",
    }
)

#: Integers beyond this are not turned into floats here (pydantic decides).
_EXACT_INT = 2**53


class _Unsure(Exception):
    """The value is outside what :func:`check` decides on its own."""


class Record:
    """A validated table: its fields as attributes, like the pydantic model instance would be
    (``model_dump`` and ``model_copy(update=...)`` included). Immutable."""

    __slots__ = ("_fields",)

    def __init__(self, fields: Mapping[str, Any]) -> None:
        object.__setattr__(self, "_fields", dict(fields))

    def __getattr__(self, name: str) -> Any:
        try:
            return self._fields[name]
        except KeyError:
            raise AttributeError(name) from None

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"a validated table is frozen: cannot set {name!r}")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Record) and self._fields == other._fields

    def __hash__(self) -> int:
        return hash(tuple(self._fields))

    def __repr__(self) -> str:
        return f"Record({self._fields!r})"

    def model_dump(self) -> dict[str, Any]:
        """The fields as plain data, nested tables as dicts (as pydantic's ``model_dump``)."""
        return {k: _dumped(v) for k, v in self._fields.items()}

    def model_copy(self, *, update: Mapping[str, Any]) -> Record:
        """A copy with some fields replaced (unchecked, as pydantic's ``model_copy``)."""
        return Record({**self._fields, **update})


def _dumped(value: Any) -> Any:
    if isinstance(value, Record):
        return value.model_dump()
    if isinstance(value, list):
        return [_dumped(v) for v in value]
    if isinstance(value, dict):
        return {k: _dumped(v) for k, v in value.items()}
    return value


def check(schema: Mapping[str, Any], data: Any) -> Record | None:
    """``data`` validated against ``schema`` (an object schema, with its ``$defs``), or None
    when this module cannot be sure that pydantic would accept it with the same result."""
    defs = schema.get("$defs", {})
    try:
        out = _value(schema, data, defs)
    except _Unsure:
        return None
    return out if isinstance(out, Record) else None


def _value(schema: Mapping[str, Any], value: Any, defs: Mapping[str, Any]) -> Any:  # noqa: C901, PLR0912
    if not KNOWN_WORDS.issuperset(schema):
        raise _Unsure
    ref = schema.get("$ref")
    if ref is not None:
        if len(schema) > 1 and set(schema) - {"$ref", "default"}:
            raise _Unsure
        name = str(ref).removeprefix("#/$defs/")
        if name not in defs:
            raise _Unsure
        return _value(defs[name], value, defs)
    if "anyOf" in schema:
        return _any_of(schema["anyOf"], value, defs)
    if "const" in schema:
        _one_of_literals([schema["const"]], value)
    if "enum" in schema:
        _one_of_literals(schema["enum"], value)
    kind = schema.get("type")
    if kind == "object":
        return _object(schema, value, defs)
    if kind == "array":
        if type(value) is not list:
            raise _Unsure
        _length(schema, len(value), "minItems", "maxItems")
        items = schema.get("items")
        if items is None:
            raise _Unsure
        return [_value(items, v, defs) for v in value]
    if kind == "string":
        if type(value) is not str:
            raise _Unsure
        _length(schema, len(value), "minLength", "maxLength")
        return value
    if kind == "number":
        if type(value) is int and abs(value) <= _EXACT_INT:
            number = float(value)
        elif type(value) is float and math.isfinite(value):
            number = value
        else:
            raise _Unsure
        _bounds(schema, number)
        return number
    if kind == "integer":
        if type(value) is not int:
            raise _Unsure
        _bounds(schema, value)
        return value
    if kind == "boolean":
        if type(value) is not bool:
            raise _Unsure
        return value
    if kind == "null":
        if value is not None:
            raise _Unsure
        return None
    if kind is None and not (set(schema) - {"default"}):
        return value  # ``Any``
    raise _Unsure


def _any_of(branches: Any, value: Any, defs: Mapping[str, Any]) -> Any:
    """The one branch that takes ``value``: two taking it would leave pydantic a choice."""
    found: list[Any] = []
    for branch in branches:
        try:
            found.append(_value(branch, value, defs))
        except _Unsure:
            continue
    if len(found) != 1:
        raise _Unsure
    return found[0]


def _one_of_literals(allowed: Iterable[Any], value: Any) -> None:
    if not any(type(value) is type(a) and value == a for a in allowed):
        raise _Unsure


def _length(schema: Mapping[str, Any], n: int, least: str, most: str) -> None:
    if n < schema.get(least, 0) or n > schema.get(most, n):
        raise _Unsure


def _bounds(schema: Mapping[str, Any], x: float) -> None:
    lo, hi = schema.get("minimum"), schema.get("maximum")
    gt, lt = schema.get("exclusiveMinimum"), schema.get("exclusiveMaximum")
    if (lo is not None and not x >= lo) or (hi is not None and not x <= hi):
        raise _Unsure
    if (gt is not None and not x > gt) or (lt is not None and not x < lt):
        raise _Unsure


def _object(schema: Mapping[str, Any], value: Any, defs: Mapping[str, Any]) -> Any:
    if type(value) is not dict or not all(type(k) is str for k in value):
        raise _Unsure
    properties = schema.get("properties")
    extra = schema.get("additionalProperties", True)
    if properties is None:  # a mapping: ``dict[str, X]`` or ``dict[str, Any]``
        if extra is True:
            return dict(value)
        if not isinstance(extra, Mapping):
            raise _Unsure
        return {k: _value(extra, v, defs) for k, v in value.items()}
    if extra is not False or any(k not in properties for k in value):
        raise _Unsure  # pydantic names the unknown key
    fields: dict[str, Any] = {}
    required = set(schema.get("required", ()))
    for name, prop in properties.items():
        if name in value:
            fields[name] = _value(prop, value[name], defs)
        elif name in required or "default" not in prop:
            raise _Unsure
        else:
            fields[name] = _default(prop, defs)
    return Record(fields)


def _default(prop: Mapping[str, Any], defs: Mapping[str, Any]) -> Any:
    """A missing field's default, as pydantic gives it (not validated, except that a nested
    table's default becomes that table)."""
    default = prop["default"]
    if "$ref" in prop and isinstance(default, dict):
        return _value(prop, default, defs)
    return copy.deepcopy(default)


def unknown_key(key: str, allowed: Iterable[str]) -> str:
    """The message for an unknown key, with the closest allowed one.

    >>> unknown_key("ratng", ["name", "rating"])
    "unknown key (did you mean 'rating'?); expected one of: name, rating"
    """
    allowed = list(allowed)
    import difflib  # noqa: PLC0415  (only for a misspelt name: slow to load)

    close = difflib.get_close_matches(key, allowed, n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    return f"unknown key{hint}; expected one of: {', '.join(allowed)}"


def dedupe(problems: Iterable[Problem]) -> list[Problem]:
    """``problems`` without repeats, in order."""
    seen: set[Problem] = set()
    out = []
    for p in problems:
        if p not in seen:
            seen.add(p)
            out.append(p)
    return out
