"""Times are written one way in every view: with units (``19 h 25 min``, ``4 min 05 s``), never
as a bare ``19:25`` or ``+1d 13:39`` that reads like a time of day."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from knockout.dashboard.live import LiveEvent
from knockout.dashboard.match import clock_text
from knockout.dashboard.times import duration
from knockout.engine.event import EventRun
from knockout.io.scenario import load_scenario
from knockout.program import app

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "scenarios"
#: h:mm, m:ss or +Nd: the clock-like ways times were written before.
CLOCK_LIKE = re.compile(r"\b\d+:\d\d\b|\+\d+d\b")


@pytest.mark.parametrize(
    "args",
    [
        ["play", "final-2600-vs-2550.toml", "--seed", "7", "--log"],
        ["play", "national-64.toml", "--seed", "3"],
        ["play", "open-12-in-progress.toml", "--seed", "1", "--log"],
        ["schedule", "open-12-in-progress.toml", "--runs", "3", "--seed", "1"],
    ],
    ids=lambda args: f"{args[0]}-{args[1]}",
)
def test_views_write_times_with_units(args: list[str]) -> None:
    result = CliRunner().invoke(app, [args[0], str(SCENARIOS / args[1]), *args[2:]])
    assert result.exit_code == 0, result.output
    assert not CLOCK_LIKE.findall(result.stdout)
    assert re.search(r"\d+ (h \d\d )?min", result.stdout)


def test_the_live_view_writes_times_with_units() -> None:
    view = LiveEvent(EventRun(load_scenario(SCENARIOS / "national-64.toml"), seed=5))
    view.run.advance(22_000)
    out = io.StringIO()
    Console(file=out, width=120, height=60, color_system=None).print(view.frame())
    text = out.getvalue()
    assert "simulated time 6 h 07 min" in text
    assert not CLOCK_LIKE.findall(text)
    assert re.search(r"\d+ min \d\d s", text)  # the clocks on the boards, to the second


def test_one_convention() -> None:
    assert duration(37 * 3600 + 39 * 60) == "37 h 39 min"
    assert duration(65 * 60) == "1 h 05 min"
    assert duration(245, to_the_second=True) == "4 min 05 s"
    assert duration(float("nan"), to_the_second=True) == "-"


def test_sealed_bid_clocks_are_rounded() -> None:
    assert clock_text((30.0, 19.8858), 2.0) == "30/19.89+2"
    assert clock_text((60.0, 60.0), 10.0) == "60+10"


def test_the_log_rounds_a_sealed_bid_clock() -> None:
    result = CliRunner().invoke(
        app, ["play", str(SCENARIOS / "armageddon-bid.toml"), "--seed", "11", "--log"]
    )
    assert result.exit_code == 0, result.output
    assert "Black, 4.57+2)" in result.stdout and "4.56888" not in result.stdout
