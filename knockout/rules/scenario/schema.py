"""The JSON schemas of a scenario file's tables, compiled from their pydantic models.

They are kept in ``schema.json`` beside this module (JSON loads about 50x faster than the same
data written as a Python literal), written by ``python -m knockout.rules.scenario.models`` (``make
schema``) from :mod:`knockout.rules.scenario.models`: do not edit it by hand.
tests/rules/test_scenario_schema.py checks that it equals the models, so it cannot drift from them.
:func:`validated_table` checks a table against them.
"""

import json
import sys
from pathlib import Path
from typing import Any

from knockout.errors import Problem
from knockout.schema import Record, check

__all__ = ["SCHEMAS", "validated_table"]

SCHEMAS: dict[str, Any] = json.loads(
    Path(__file__).with_name("schema.json").read_text(encoding="utf-8")
)


def validated_table(
    name: str, data: Any, source: str, prefix: str = ""
) -> tuple[Any, list[Problem]]:
    """Table ``name`` of a scenario file validated: the table (None if it is bad) and its
    problems. Checked without pydantic (:mod:`knockout.schema`), against the schema compiled
    from the models, until pydantic is loaded; a table that check cannot accept goes to
    pydantic, which accepts it too or says what is wrong. Both accept the same tables with the
    same values (tests/rules/test_scenario_schema.py)."""
    if "pydantic" not in sys.modules:  # a valid table need not load pydantic
        record: Record | None = check(SCHEMAS[name], data)
        if record is not None:
            return record, []
    # once loaded, pydantic's compiled validator is faster than the check (a study's points)
    from knockout.rules.scenario.models import validated  # noqa: PLC0415 (start-up: pydantic)

    return validated(name, data, source, prefix)
