"""A study point that sets only model constants is the base scenario with them set
(:meth:`Scenario.with_constants`): equal to parsing the point's tables, field by field, and
where a value is bad the point gets the parser's own messages."""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from knockout.errors import InputError, ScenarioError
from knockout.io.overrides import Override, apply_overrides
from knockout.rules.scenario.aggregate import parse_scenario
from knockout.studies.sweep import Axis, Sweep, parse_sweep

ROOT = Path(__file__).resolve().parents[2]
STUDIES = ROOT / "scenarios" / "studies"


def sweep_of(grid: dict[str, list[Any]], scenario: str = "../final-2600-vs-2550.toml") -> Sweep:
    """A sweep over ``grid`` (its values set as given: the file's own grid checks, which refuse
    a bad value before any point is made, are not what is tested here)."""
    first = {path: [1.0] for path in grid}
    data = {"name": "s", "scenario": scenario, "metrics": ["odds.win.x"], "grid": first}
    sweep = parse_sweep(data, source="s.toml", folder=STUDIES)
    return replace(sweep, axes=tuple(Axis(path, tuple(v)) for path, v in grid.items()))


def parsed_point(sweep: Sweep, point: tuple[Any, ...]) -> Any:
    """What the point's scenario is by parsing its tables (the path without the shortcut)."""
    values = dict(zip(sweep.paths, point, strict=True))
    values |= dict.fromkeys(sweep.held_constants, 0.0)
    overrides = [Override(f"{k}={v!r}", tuple(k.split(".")), v) for k, v in values.items()]
    data, _, problems = apply_overrides(sweep.base, overrides)
    assert not problems
    where = ", ".join(f"{k}={v!r}" for k, v in zip(sweep.paths, point, strict=True))
    return parse_scenario(data, source=f"{sweep.source} at {where}")


def same_scenario(a: Any, b: Any) -> None:
    assert a == b
    assert a.source == b.source
    assert a.to_dict() == b.to_dict()
    assert a.model_sd == b.model_sd
    assert a.event_state() == b.event_state()
    if not a.is_bracket:
        assert a.position == b.position


numbers = st.one_of(
    st.floats(min_value=-500, max_value=500, allow_nan=False),
    st.integers(min_value=-500, max_value=500),
)


@settings(max_examples=60, deadline=None)
@given(
    nu=numbers,
    elo=numbers,
    red=numbers,
    sd=st.floats(min_value=0, max_value=50),
    tc=st.sampled_from(["classical", "rapid", "blitz"]),
)
def test_constants_set_equal_the_parsed_point(
    nu: float, elo: float, red: float, sd: float, tc: str
) -> None:
    sweep = sweep_of(
        {
            f"model.draw_nu.{tc}": [nu],
            f"model.elo_per_doubling.{tc}": [elo],
            f"model.red_advantage.{tc}": [red],
            "model.sd.red_advantage.classical": [sd],
        }
    )
    point = sweep.points[0]
    try:
        expected = parsed_point(sweep, point)
    except ScenarioError as exc:
        with pytest.raises(ScenarioError) as found:
            sweep.scenario_at(point)
        assert found.value.problems == exc.problems  # the parser's own messages
        return
    same_scenario(sweep.scenario_at(point), expected)


def test_the_shortcut_is_taken_for_constants_and_not_for_other_paths() -> None:
    sweep = sweep_of({"model.draw_nu.rapid": [0.5, 1.5]})
    base = sweep._parsed_base
    assert base is not None
    assert base.with_constants({"draw_nu.rapid": 0.5}) is not None
    for refused in (
        {"moves": 40.0},
        {"draw_nu.rapid": True},
        {"draw_nu.rapid": "1"},
        {"draw_nu.rapid": math.inf},
        {"draw_nu.rapid": math.nan},
        {"draw_nu.rapid": -1.0},  # invalid: the parser says why
        {"sd.draw_nu.rapid": -1.0},
        {"draw_nu.hyper": 1.0},
        {"sd.sd.draw_nu.rapid": 1.0},
    ):
        assert base.with_constants(refused) is None, refused
    # a swept model constant is held at the point: its sd is 0 there, as parsing sets it
    point = sweep.scenario_at((1.5,))
    same_scenario(point, parsed_point(sweep, (1.5,)))


@pytest.mark.parametrize(
    ("grid", "scenario"),
    [
        ({"model.draw_nu.blitz": [0.2, 1.5], "model.sd.draw_nu.blitz": [0.0, 0.3]}, None),
        ({"model.red_advantage.rapid": [-40.0, 30]}, "../national-64.toml"),
        ({"model.elo_per_doubling.classical": [0, 150]}, "../open-12-in-progress.toml"),
        ({"model.moves": [40.0, 80.0]}, None),  # not a constant: parsed
        ({"players.王天一.rating": [2500, 2700]}, None),
    ],
)
def test_points_equal_their_parsed_tables(grid: dict[str, list[Any]], scenario: str | None) -> None:
    sweep = sweep_of(grid, scenario or "../final-2600-vs-2550.toml")
    for point in sweep.points:
        same_scenario(sweep.scenario_at(point), parsed_point(sweep, point))


def test_a_bad_constant_gets_the_parsers_message() -> None:
    sweep = sweep_of({"model.draw_nu.rapid": [-1.0]})
    with pytest.raises(InputError, match=r"model\.draw_nu\.rapid"):
        sweep.scenario_at(sweep.points[0])
