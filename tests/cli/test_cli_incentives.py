"""knockout incentives through the CLI: its JSON, its view, and one line per bad input."""

from __future__ import annotations

import pytest
from conftest import SCENARIOS, run_json
from typer.testing import CliRunner

from knockout.cli.incentives import GRID_DEFAULT
from knockout.program import app
from knockout.studies.incentives import DEFAULT_GRID

FINAL = str(SCENARIOS / "final-2600-vs-2550.toml")
A, B = "王天一", "郑惟桐"
runner = CliRunner()


def test_the_json_has_the_issue_keys_and_natural_play_is_knockout_odds() -> None:
    out = run_json("incentives", FINAL, "--json", "--grid", "11")
    assert {
        "version",
        "scenario",
        "natural",
        "best_response",
        "equilibria",
        "manipulation_gain",
    } <= set(out)
    natural = out["natural"]
    assert isinstance(natural, dict)
    assert natural["pace"] == {A: 0.8, B: 0.7}
    assert natural["win"] == run_json("odds", FINAL, "--json")["win"]
    best = out["best_response"]
    assert isinstance(best, dict) and set(best) == {A, B}
    assert set(best[A]) == {"pace", "win", "gain"}
    (eq,) = out["equilibria"]  # type: ignore[misc]
    assert set(eq) == {"pace", "win", "chooser_advances"}
    assert eq["pace"] == {A: 0.8, B: 0.7}
    (check,) = out["verification"]  # type: ignore[misc]
    assert check == {"deviation_gain": {A: 0.0, B: 0.0}, "grid_cells": 1}
    # a fraction of P(advance), not points
    assert out["manipulation_gain"] == 0.0 and out["strategy_proof"] is True
    assert out["scenario"]["incentives"] == {"pace_min": 0.2}  # type: ignore[index]
    assert out["grid"] == 11 and out["tolerance"] == 1e-6


def test_gains_are_fractions_of_the_match() -> None:
    out = run_json(
        "incentives", FINAL, "--json", "--grid", "11",
        "--set", "model.elo_per_doubling.rapid=0", "--set", "model.draw_nu.rapid=2",
    )  # fmt: skip
    gain = out["manipulation_gain"]
    assert isinstance(gain, float) and 0.01 < gain < 0.1  # 4.8 points
    best = out["best_response"][B]  # type: ignore[index]
    assert best["win"] - best["gain"] == pytest.approx(out["natural"]["win"][B], abs=1e-12)  # type: ignore[index]
    assert "not strategy-proof within 0.1 points" in " ".join(out["summary"])  # type: ignore[arg-type]


def test_the_view_fits_80_columns() -> None:
    result = runner.invoke(app, ["incentives", FINAL, "--grid", "11"], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert max(len(line) for line in lines) <= 80
    assert "strategy-proof within 0.1 points" in result.stdout
    assert "Pure-strategy equilibria" in result.stdout


def test_the_grid_default_is_the_core_one() -> None:
    assert GRID_DEFAULT == DEFAULT_GRID


@pytest.mark.parametrize(
    ("args", "says"),
    [
        ([str(SCENARIOS / "national-64.toml")], "incentives are per match"),
        ([FINAL, "--set", "format.preset=official-playoff"], "no such incentive"),
        ([FINAL, "--set", "format.preset=armageddon-bid"], "no such incentive"),
        ([FINAL, "--set", "format.sudden_death.priority=lot"], "names 甲 by lot"),
        ([FINAL, "--set", "incentives.pace_min=0"], "incentives.pace_min: expected a number > 0"),
        (
            [FINAL, "--set", "incentives.pace_min=1.5"],
            "incentives.pace_min: expected a number <= 1",
        ),
        ([FINAL, "--grid", "3"], "--grid: expected a whole number of paces from 5 to 401"),
        (
            [
                FINAL,
                "--set",
                'played=[{red = "王天一", black = "郑惟桐", stage = "slow", result = "draw"},'
                '{red = "郑惟桐", black = "王天一", stage = "slow", result = "draw"},'
                '{red = "王天一", black = "郑惟桐", stage = "rapid", result = "draw"}]',
            ],
            "the game that decides 甲 is already played",
        ),
        (
            [FINAL, "--set", f"players.{B}.withdrawn=true"],
            "withdrawn: the match is a walkover",
        ),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args: list[str], says: str) -> None:
    result = runner.invoke(app, ["incentives", *args])
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and says in lines[0], lines
    assert "Traceback" not in result.output
