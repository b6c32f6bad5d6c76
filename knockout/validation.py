"""Validating input tables with pydantic, and turning its errors into one clear line each.

Every file format with tables (scenarios, scoring files, study files) declares its keys as
pydantic models derived from :class:`Table` and reports problems through :func:`problems_of`, so
every file says the same things the same way: ``file: key.path: what was expected, got what``,
with a "did you mean" for a misspelt key and the fix for ``[players]`` written where
``[[players]]`` (an array of tables) was meant.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

from knockout.errors import Problem
from knockout.schema import dedupe, unknown_key

__all__ = ["Table", "dedupe", "problems_of", "unknown_key"]


class Table(BaseModel):
    """Base of every input table: unknown keys, NaN and infinities refused; no coercion."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False, strict=True, frozen=True)


def _shown(value: Any) -> str:
    if isinstance(value, dict):
        return "a table"
    return repr(value)


def _loc(loc: tuple[int | str, ...], prefix: str) -> str:
    out = prefix
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        elif part in ("list[constrained-float]", "constrained-float", "float", "int"):
            continue  # union branch names pydantic adds; not keys the user wrote
        else:
            out += f".{part}" if out else str(part)
    return out


def _too_long_or_short(key: str, ctx: dict[str, Any], got: str) -> str:
    if key == "players" or key.endswith(".players"):
        return f"expected at least two players, got {ctx.get('actual_length')}"
    least, most = ctx.get("min_length"), ctx.get("max_length")
    if 2 in (least, most):  # the clock pairs: [red, black]
        return f"expected a list of 2 numbers [red, black], got {got}"
    if least is not None and ctx.get("actual_length", 0) < least:
        count = "one entry" if least == 1 else f"{least} entries"
        return f"expected at least {count}, got {got}"
    return f"expected at most {most} entries, got {ctx.get('actual_length')}"


def _list_type(key: str, value: Any, got: str) -> str:
    if isinstance(value, dict):
        name = key.rsplit(".", 1)[-1].split("[", 1)[0]
        return (
            f"expected an array of tables, got a single table: write [[{name}]] for each "
            f"entry, not [{name}]"
        )
    return f"expected a list, got {got}"


_MESSAGES: dict[str, Callable[[str, dict[str, Any], str, Any], str]] = {
    "missing": lambda key, ctx, got, v: "required key is missing",
    "float_type": lambda key, ctx, got, v: f"expected a number, got {got}",
    "float_parsing": lambda key, ctx, got, v: f"expected a number, got {got}",
    "int_type": lambda key, ctx, got, v: f"expected a whole number, got {got}",
    "int_parsing": lambda key, ctx, got, v: f"expected a whole number, got {got}",
    "int_from_float": lambda key, ctx, got, v: f"expected a whole number, got {got}",
    "bool_type": lambda key, ctx, got, v: f"expected true or false, got {got}",
    "string_type": lambda key, ctx, got, v: f"expected text, got {got}",
    "finite_number": lambda key, ctx, got, v: f"expected a finite number, got {got}",
    "greater_than": lambda key, ctx, got, v: f"expected a number > {ctx.get('gt'):g}, got {got}",
    "greater_than_equal": lambda key, ctx, got, v: (
        f"expected a number >= {ctx.get('ge'):g}, got {got}"
    ),
    "less_than": lambda key, ctx, got, v: f"expected a number < {ctx.get('lt'):g}, got {got}",
    "less_than_equal": lambda key, ctx, got, v: (
        f"expected a number <= {ctx.get('le'):g}, got {got}"
    ),
    "literal_error": lambda key, ctx, got, v: f"expected one of {ctx.get('expected')}, got {got}",
    "enum": lambda key, ctx, got, v: f"expected one of {ctx.get('expected')}, got {got}",
    "too_short": lambda key, ctx, got, v: _too_long_or_short(key, ctx, got),
    "too_long": lambda key, ctx, got, v: _too_long_or_short(key, ctx, got),
    "list_type": lambda key, ctx, got, v: _list_type(key, v, got),
    "model_type": lambda key, ctx, got, v: f"expected a table, got {got}",
    "dict_type": lambda key, ctx, got, v: f"expected a table, got {got}",
    "model_attributes_type": lambda key, ctx, got, v: f"expected a table, got {got}",
    "string_too_short": lambda key, ctx, got, v: "expected non-empty text",
    "value_error": lambda key, ctx, got, v: f"{ctx.get('error')}, got {got}",
}


def problems_of(
    exc: ValidationError, source: str, model: type[BaseModel], *, prefix: str = ""
) -> list[Problem]:
    """One :class:`Problem` per thing pydantic found wrong, in the project's words."""
    out: list[Problem] = []
    for err in exc.errors():
        loc = tuple(err["loc"])
        key = _loc(loc, prefix)
        kind = err["type"]
        value = err.get("input")
        if kind == "extra_forbidden":
            parent = _fields_at(model, loc[:-1])
            message = unknown_key(str(loc[-1]), parent) if parent else "unknown key"
        elif kind in _MESSAGES:
            message = _MESSAGES[kind](key, err.get("ctx", {}), _shown(value), value)
        else:
            message = f"{err['msg']}, got {_shown(value)}"
        out.append(Problem(source, key, message))
    return dedupe(_drop_union_mismatches(out))


_MISMATCH = ("expected a list, got", "expected a number, got", "expected a whole number, got")


def _drop_union_mismatches(problems: list[Problem]) -> list[Problem]:
    """A value checked against ``number | [red, black]`` fails both branches; keep the one that
    says what is wrong with the value as given, not that it is of the other branch's type."""
    by_key: dict[str, list[Problem]] = {}
    for p in problems:
        by_key.setdefault(p.key, []).append(p)
    out: list[Problem] = []
    for p in problems:
        same = by_key[p.key]
        if len(same) == 1 or not p.message.startswith(_MISMATCH):
            out.append(p)
        elif all(q.message.startswith(_MISMATCH) for q in same) and p is same[0]:
            got = p.message.split(", got ", 1)[-1]
            out.append(
                Problem(p.source, p.key, f"expected a number or a list [red, black], got {got}")
            )
    return out


def _fields_at(model: type[BaseModel], loc: tuple[int | str, ...]) -> list[str]:
    """Field names of the (nested) model at ``loc``, for 'did you mean' hints."""
    current: Any = model
    for part in loc:
        if isinstance(part, int):
            continue
        if not (isinstance(current, type) and issubclass(current, BaseModel)):
            return []
        info = current.model_fields.get(str(part))
        if info is None:
            return []
        current = _model_in(info.annotation)
    if isinstance(current, type) and issubclass(current, BaseModel):
        return list(current.model_fields)
    return []


def _model_in(annotation: Any) -> Any:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for arg in getattr(annotation, "__args__", ()):
        found = _model_in(arg)
        if found is not None:
            return found
    return None
