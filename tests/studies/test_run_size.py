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
    (line,) = [x for x in result.stderr.strip().splitlines() if "timing a pilot" not in x]
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


@pytest.mark.parametrize(
    ("outputs", "refused"),
    [
        (("odds",), False),
        (("fair", "odds", "simulate"), False),
        (("compare", "equilibrium", "odds"), True),  # the 60-point study that ran 25 minutes
        (("incentives",), True),
    ],
)
def test_a_small_grid_of_slow_outputs_is_held_to_the_time_limit(
    outputs: tuple[str, ...], refused: bool
) -> None:
    """At or below 50 x 50 points only the outputs whose cost a point is bounded are never
    refused; an equilibrium or pace game a point is held to the 10-minute limit at any size."""
    assert needs_yes(RunEstimate(60, None, 13 * 60.0, "test", outputs)) is refused
    assert not needs_yes(RunEstimate(60, None, 9 * 60.0, "test", outputs))


def _compare_study(tmp_path: Path) -> str:
    path = tmp_path / "study.toml"
    path.write_text(
        f'scenario = "{FINAL}"\nmetrics = ["compare.rows.0.decider_edge"]\ngaps = [0]\n'
        '[grid]\n"model.draw_nu.rapid" = [0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0, 2.2]\n',
        encoding="utf-8",
    )
    return str(path)


def test_the_pilot_is_kept_for_the_run_and_shown_as_progress(tmp_path: Path) -> None:
    """The pilot measures its points on the study's own work; the run does not measure them
    again, and its answer is the one a run without a pilot gives, point for point."""
    from knockout.studies.sweep import load_sweep, run_sweep

    sweep = load_sweep(_compare_study(tmp_path))
    seen: list[tuple[int, int]] = []
    est = estimate_run(sweep, progress=lambda done, total: seen.append((done, total)))
    assert seen == [(k, 8) for k in range(1, 9)]
    assert len(est.measured) == 8 and "timed on 8 of the 10 grid points" in est.basis
    assert est.outputs == ("compare",) and not est.safe
    kept = run_sweep(sweep, measured=est.measured)
    plain = run_sweep(sweep)
    assert [pr.point for pr in kept.points] == [pr.point for pr in plain.points] == sweep.points
    assert [pr.values for pr in kept.points] == [pr.values for pr in plain.points]
    result = runner.invoke(app, ["study", _compare_study(tmp_path), "--out", str(tmp_path / "o")])
    assert result.exit_code == 0, result.output
    assert "timing a pilot: 8/8 points" in result.stderr


def test_ctrl_c_in_the_pilot_keeps_what_finished(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C while the pilot runs: the points it finished are written, marked interrupted, as
    a run stopped later is; exit code 130."""
    from knockout.studies import sweep as sweep_module

    real = sweep_module.measure_block
    calls = [0]

    def stopping(*args: Any, **kwargs: Any) -> Any:
        calls[0] += 1
        if calls[0] == 4:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(estimate, "measure_block", stopping)
    out = tmp_path / "o"
    result = runner.invoke(app, ["study", _compare_study(tmp_path), "--out", str(out)])
    assert result.exit_code == 130, result.output
    assert "interrupted while timing the pilot: 3 of 10 points finished" in result.stderr
    import json

    doc = json.loads((out / "results.json").read_text(encoding="utf-8"))
    assert doc["interrupted"] is True and len(doc["points"]) == 3
    assert "interrupted" in (out / "summary.md").read_text(encoding="utf-8")
