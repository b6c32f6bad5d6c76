"""The run-size guard of ``knockout study``: a run of more than 10^6 grid points or estimated
above 10 minutes needs --yes, saying how long; nothing at or below 50 x 50 points at 200,000
runs a point is ever refused."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from knockout.program import app
from knockout.studies import estimate
from knockout.studies.estimate import RunEstimate, estimate_run, needs_yes
from knockout.studies.sweep import Sweep, parse_sweep

ROOT = Path(__file__).resolve().parents[2]
FINAL = (ROOT / "scenarios" / "final-2600-vs-2550.toml").as_posix()
runner = CliRunner()


@pytest.mark.parametrize(
    ("points", "runs", "seconds", "refused"),
    [
        (2500, 200_000, 1e9, False),  # 50 x 50 at 200,000 runs: never, whatever the estimate
        (2500, None, 1e9, False),
        (2500, 200_001, 601.0, True),
        (2501, None, 601.0, True),
        (2501, None, 599.0, False),
        (1_000_000, None, 1.0, False),
        (1_000_001, None, 1.0, True),
        (100, 100_000_000, 3600.0, True),
        (100, 100_000_000, None, False),
    ],
)
def test_the_guard(points: int, runs: int | None, seconds: float | None, refused: bool) -> None:
    assert needs_yes(RunEstimate(points, runs, seconds, "test")) is refused


def test_the_estimate_is_points_times_a_measured_cost_linear_in_the_runs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With a clock that measures a made-up cost (exact outputs 3 ms a point; a Monte Carlo point
    20 ms plus 1 microsecond a run), the estimate is the grid's size times that cost."""
    now = [0.0]

    def fake_block(
        sweep: Sweep, block: Sequence[Any], outputs: Sequence[str], executor: str, workers: int
    ) -> list[Any]:
        for output in outputs:
            cost = 0.02 + 1e-6 * sweep.runs if output == "simulate" else 0.003
            now[0] += cost * len(block)
        return []

    monkeypatch.setattr(estimate, "measure_block", fake_block)
    sweep = parse_sweep(
        {
            "scenario": FINAL,
            "metrics": ["odds.win.王天一", "simulate.win.王天一"],
            "runs": 50_000_000,
            "grid": {"model.draw_nu.rapid": {"from": 0.5, "to": 1.5, "steps": 30}},
        },
        source="s.toml",
        folder=ROOT,
    )
    est = estimate_run(sweep, clock=lambda: now[0])
    assert est.points == 30 and est.runs == 50_000_000
    assert est.seconds == pytest.approx(30 * (0.003 + 0.02 + 1e-6 * 50_000_000), rel=1e-9)
    assert "timed on 8 of the 30 grid points" in est.basis


def _study(tmp_path: Path, grid: str, extra: str = "") -> str:
    path = tmp_path / "study.toml"
    path.write_text(
        f'scenario = "{FINAL}"\nmetrics = ["odds.win.王天一"]\n{extra}[grid]\n{grid}',
        encoding="utf-8",
    )
    return str(path)


def test_more_than_a_million_points_is_refused_saying_how_long(tmp_path: Path) -> None:
    study = _study(
        tmp_path,
        '"model.draw_nu.rapid" = {from = 0.3, to = 2.0, steps = 1001}\n'
        '"model.elo_per_doubling.rapid" = {from = 0, to = 200, steps = 1000}\n',
    )
    result = runner.invoke(app, ["study", study, "--out", str(tmp_path / "o")])
    assert result.exit_code == 2
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith(f"error: {study}: 1,001,000 grid points, about ")
    assert "--yes" in line and "timed on 8 of the 1,001,000 grid points" in line
    assert not (tmp_path / "o").exists()


def test_a_path_too_long_to_hold_is_refused_even_with_yes(tmp_path: Path) -> None:
    study = _study(tmp_path, '"model.draw_nu.rapid" = {from = 0.3, to = 2.0, steps = 100000000}\n')
    result = runner.invoke(app, ["study", study, "--yes", "--out", str(tmp_path / "o")])
    assert result.exit_code == 2
    (line,) = result.stderr.strip().splitlines()
    assert "grid.model.draw_nu.rapid: expected at most 10,000,000 values" in line
    assert "got 100,000,000" in line


def _fake_estimate(points: int, runs: int | None, seconds: float) -> Any:
    def fake(sweep: Sweep, **_: object) -> RunEstimate:
        return RunEstimate(points, runs, seconds, "made up for the test")

    return fake


def test_yes_runs_what_the_guard_refuses(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(estimate, "estimate_run", _fake_estimate(2501, None, 3 * 3600.0))
    study = _study(tmp_path, '"model.draw_nu.rapid" = [0.5, 1.0]\n')
    refused = runner.invoke(app, ["study", study, "--out", str(tmp_path / "o")])
    assert refused.exit_code == 2
    assert "2,501 grid points, about 3 h 00 min (made up for the test)" in refused.stderr
    ran = runner.invoke(app, ["study", study, "--yes", "--out", str(tmp_path / "o")])
    assert ran.exit_code == 0, ran.output
    assert "2,501 grid points, about 3 h 00 min" in ran.stderr  # said, then run


def test_fifty_by_fifty_at_200000_runs_is_never_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(estimate, "estimate_run", _fake_estimate(2500, 200_000, 10 * 3600.0))
    study = _study(tmp_path, '"model.draw_nu.rapid" = [0.5, 1.0]\n')
    result = runner.invoke(app, ["study", study, "--out", str(tmp_path / "o")])
    assert result.exit_code == 0, result.output
    assert "about 10 h 00 min" in result.stderr
