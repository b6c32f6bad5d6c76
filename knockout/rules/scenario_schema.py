"""The JSON schemas of a scenario file's tables, compiled from their pydantic models.

They are kept in ``scenario_schema.json`` beside this module (JSON loads about 50x faster than the
same data written as a Python literal), written by ``python -m knockout.rules.scenario_models``
(``make schema``) from :mod:`knockout.rules.scenario_models`: do not edit it by hand.
tests/rules/test_scenario_schema.py checks that it equals the models, so it cannot drift from them.
"""

import json
from pathlib import Path
from typing import Any

__all__ = ["SCHEMAS"]

SCHEMAS: dict[str, Any] = json.loads(
    Path(__file__).with_name("scenario_schema.json").read_text(encoding="utf-8")
)
