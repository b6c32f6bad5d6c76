"""The scenario's tables are checked without pydantic where they are valid (knockout.schema).

The check must be sound: whatever it accepts, pydantic accepts too, with the same values of the
same types; where it is not sure it says so (None) and pydantic decides. Tested on the bundled
scenarios and on random tables built from the schemas (valid ones and near misses), against
pydantic itself.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from knockout.rules.scenario.models import MODELS, compiled_schemas
from knockout.rules.scenario.schema import SCHEMAS
from knockout.schema import Record, check

ROOT = Path(__file__).resolve().parents[2]


def test_the_compiled_schemas_are_the_models() -> None:
    """knockout/rules/scenario/schema.py is current: run ``make schema`` after changing a model."""
    assert compiled_schemas() == SCHEMAS


def _scenario_files() -> list[Path]:
    out = []
    for path in sorted((ROOT / "scenarios").rglob("*.toml")):
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        if "players" in data:
            out.append(path)
    return out


@pytest.mark.system
def test_every_bundled_scenario_loads_without_pydantic() -> None:
    files = [str(p) for p in _scenario_files()]
    assert len(files) >= 10
    code = (
        "import json, sys\n"
        "from knockout.io.scenario import load_scenario\n"
        "for f in sys.argv[1:]:\n    load_scenario(f)\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] == 'pydantic')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, *files], check=True, capture_output=True, text=True
    ).stdout
    assert json.loads(out.splitlines()[-1]) == []


def same(a: Any, b: Any) -> bool:
    """Equal values of the same types, all the way down."""
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    return type(a) is type(b) and a == b


def agrees_with_pydantic(name: str, data: Any) -> Record | None:
    """What the check says about ``data``, after asserting it is sound against pydantic."""
    from pydantic import ValidationError

    record = check(SCHEMAS[name], data)
    if record is None:
        return None
    try:
        model = MODELS[name].model_validate(data)
    except ValidationError as exc:  # pragma: no cover - a failure shows the case
        pytest.fail(f"the check accepted what pydantic refuses: {data!r}: {exc}")
    assert same(record.model_dump(), model.model_dump()), data
    return record


@pytest.mark.parametrize("path", _scenario_files(), ids=lambda p: p.name)
def test_bundled_scenarios_are_accepted_with_pydantics_values(path: Path) -> None:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    assert agrees_with_pydantic("scenario", data) is not None


JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**60), 2**60),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=3),
    st.lists(st.integers(-3, 3), max_size=3),
    st.dictionaries(st.text(max_size=2), st.integers(), max_size=2),
)


def _number(schema: dict[str, Any], whole: bool) -> st.SearchStrategy[Any]:
    """Numbers in the schema's bounds, its bounds themselves, and ints for floats."""
    lo = schema.get("minimum", schema.get("exclusiveMinimum", -50))
    hi = schema.get("maximum", schema.get("exclusiveMaximum", 4000))
    edges = st.sampled_from([lo, hi, float(lo), float(hi), 0, 1])
    if whole:
        return st.one_of(st.integers(math.ceil(lo), math.floor(hi)), edges)
    inside = st.floats(lo, hi, allow_nan=False)
    return st.one_of(inside, st.integers(math.ceil(lo), math.floor(hi)), edges)


def values(schema: dict[str, Any], defs: dict[str, Any], depth: int = 0) -> st.SearchStrategy[Any]:
    """Values of ``schema``'s shape, each node now and then a near miss or junk instead."""

    @st.composite
    def value(draw: st.DrawFn) -> Any:
        if draw(st.integers(0, 30)) == 0:
            return draw(JUNK)
        return draw(_shaped(schema, defs, depth))

    return value()


def _shaped(schema: dict[str, Any], defs: dict[str, Any], depth: int) -> st.SearchStrategy[Any]:
    if "$ref" in schema:
        return _shaped(defs[schema["$ref"].removeprefix("#/$defs/")], defs, depth)
    if "anyOf" in schema:
        return st.one_of(*(values(b, defs, depth) for b in schema["anyOf"]))
    if "enum" in schema:
        return st.one_of(st.sampled_from(schema["enum"]), st.sampled_from(["", "Lot", 2024]))
    kind = schema.get("type")
    if kind in ("number", "integer"):
        return _number(schema, kind == "integer")
    if kind == "string":
        return st.text(min_size=schema.get("minLength", 0), max_size=4)
    if kind == "boolean":
        return st.booleans()
    if kind == "null":
        return st.none()
    if kind == "array":
        least = schema.get("minItems", 0)
        most = min(schema.get("maxItems", least + 2), least + (2 if depth < 2 else 0))
        return st.lists(
            values(schema.get("items", {}), defs, depth + 1), min_size=least, max_size=most
        )
    if kind == "object" and "properties" in schema:
        return _tables(schema, defs, depth)
    if kind == "object":
        extra = schema.get("additionalProperties", True)
        inner = JUNK if extra is True else values(extra, defs, depth + 1)
        return st.dictionaries(st.sampled_from(["a", "b", "王"]), inner, max_size=2)
    return JUNK


def _tables(schema: dict[str, Any], defs: dict[str, Any], depth: int) -> st.SearchStrategy[Any]:
    props = schema["properties"]
    fields = {k: values(v, defs, depth + 1) for k, v in props.items()}
    required = list(schema.get("required", []))

    @st.composite
    def table(draw: st.DrawFn) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, strategy in fields.items():
            if key in required or draw(st.integers(0, 3)) == 0:
                out[key] = draw(strategy)
        if draw(st.integers(0, 30)) == 0:
            out[draw(st.sampled_from(["extra", "ratng", "Name"]))] = 1
        if required and draw(st.integers(0, 30)) == 0:
            out.pop(draw(st.sampled_from(required)), None)
        return out

    return table()


@pytest.mark.parametrize("name", sorted(SCHEMAS))
@settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(data=st.data())
@pytest.mark.slow
def test_what_the_check_accepts_pydantic_accepts_alike(name: str, data: st.DataObject) -> None:
    schema = SCHEMAS[name]
    value = data.draw(values(schema, schema.get("$defs", {})))
    agrees_with_pydantic(name, value)


def test_valid_tables_are_mostly_accepted_without_pydantic() -> None:
    """The check is narrow but not useless: typical valid tables pass it."""
    stage = {"games": 2, "minutes": [30, 10], "colours": "bidding", "repeat": True}
    assert agrees_with_pydantic("stage", stage) is not None
    custom = {"name": "slow", "games": 2, "minutes": 60.0, "time_class": "classical"}
    assert agrees_with_pydantic("custom_stage", custom) is not None


@pytest.mark.parametrize(
    ("data", "why"),
    [
        ({"minutes": True}, "a boolean is not a number"),
        ({"minutes": math.nan}, "not finite"),
        ({"minutes": math.inf}, "not finite"),
        ({"minutes": 0}, "not > 0"),
        ({"minutes": [30]}, "a pair has two"),
        ({"games": 2.0}, "a whole number is an int"),
        ({"games": -1}, "at least 0"),
        ({"gamez": 2}, "unknown key: pydantic names it"),
        ({"time_class": "lightning"}, "not one of the classes"),
        ({"minutes": 2**60}, "too large to be sure of its float"),
        ("slow", "not a table"),
    ],
)
def test_the_check_leaves_doubtful_tables_to_pydantic(data: Any, why: str) -> None:
    assert check(SCHEMAS["stage"], data) is None, why


def test_a_number_given_as_an_integer_becomes_a_float_as_in_pydantic() -> None:
    record = agrees_with_pydantic("stage", {"minutes": 30})
    assert record is not None
    assert type(record.minutes) is float


def test_a_record_is_frozen_and_copies_with_updates() -> None:
    record = check(SCHEMAS["stage"], {"games": 2})
    assert record is not None
    with pytest.raises(AttributeError):
        record.games = 3  # type: ignore[misc]
    assert record.model_copy(update={"games": 3}).games == 3
    assert record.games == 2
