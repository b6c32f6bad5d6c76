"""A long simulation says what it is starting and, off a terminal, how far it has got."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from knockout.dashboard.simulation import estimate_line, progress_lines
from knockout.io.scenario import load_scenario
from knockout.program import app
from sims.run import run_time_estimate

ROOT = Path(__file__).resolve().parents[2]
FINAL = ROOT / "scenarios" / "final-2600-vs-2550.toml"
NATIONAL = ROOT / "scenarios" / "national-64.toml"


@pytest.mark.parametrize("path", [FINAL, NATIONAL], ids=["match", "bracket"])
def test_a_hundred_trillion_runs_are_estimated_in_hours(path: Path) -> None:
    # a hundred trillion: the rational final draws its exit counts per block (about 0.4e-9 s a
    # run), so ten trillion runs of it on two processes can take under an hour on a quiet machine.
    # How long the estimate itself takes is a goal of `knockout bench` (estimate_pilot), not
    # asserted here: a loaded machine would fail it.
    seconds = run_time_estimate(load_scenario(path), 10**14)
    assert seconds is not None and seconds > 3600


def test_a_short_run_is_not_piloted() -> None:
    assert run_time_estimate(load_scenario(FINAL), 1_000_000) is None


def test_estimate_line_has_units() -> None:
    line = estimate_line(3 * 3600 + 5 * 60, 10**12, 2)
    assert line.startswith("1,000,000,000,000 runs on 2 processes will take about 3 h 05 min")


def test_progress_lines_now_and_then_with_the_time_left() -> None:
    out = io.StringIO()
    now = [0.0]
    _, update = progress_lines(Console(file=out, width=80), every=30.0, clock=lambda: now[0])
    for t, done in ((10.0, 100), (31.0, 1_000), (45.0, 1_500), (62.0, 2_000), (70.0, 10_000)):
        now[0] = t
        update(done, 10_000)
    lines = out.getvalue().splitlines()
    assert lines == [
        "simulated 1,000 of 10,000 runs (10.0%), about 5 min left",
        "simulated 2,000 of 10,000 runs (20.0%), about 4 min left",
    ]


def test_simulate_tells_the_estimate_before_starting(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sims.run.run_time_estimate", lambda *a, **k: 7384.0)
    result = CliRunner().invoke(
        app, ["simulate", str(FINAL), "--runs", "1000", "--seed", "1", "--workers", "1"]
    )
    assert result.exit_code == 0, result.output
    assert result.stderr.splitlines()[0].startswith(
        "1,000 runs on one process will take about 2 h 03 min"
    )
