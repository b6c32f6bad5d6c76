"""``knockout calibrate``: JSON contract, table, model file, exit codes and messages."""

from __future__ import annotations

import math
from pathlib import Path

from conftest import run_json
from typer.testing import CliRunner

from knockout.io.scenario import load_scenario
from knockout.program import app
from knockout.rules.model.strength import DEFAULT_DRAW_NU, DEFAULT_RED_ADVANTAGE
from knockout.version import __version__

SEED_GAMES = str(Path(__file__).resolve().parents[2] / "scenarios" / "data" / "seed000-games.csv")
HEADER = "red_rating,black_rating,time_class,red_minutes,black_minutes,increment_seconds,result"
PLAYERS = '\n[[players]]\nname = "A"\nrating = 2500\n\n[[players]]\nname = "B"\nrating = 2450\n'
runner = CliRunner()


def test_json_on_the_seeds_games() -> None:
    data = run_json("calibrate", SEED_GAMES, "--json")
    # scoring: seed 000's derivation with its error (classical games on equal clocks)
    assert list(data) == ["version", "source", "classical", "scoring"]
    assert data["version"] == __version__ and data["source"] == SEED_GAMES
    classical = data["classical"]
    assert isinstance(classical, dict)
    assert abs(classical["red_advantage"]["estimate"] - DEFAULT_RED_ADVANTAGE) < 1e-6
    assert abs(classical["draw_nu"]["estimate"] - DEFAULT_DRAW_NU.classical) < 1e-6
    assert set(classical["red_advantage"]) == {"estimate", "stderr"}
    assert classical["elo_per_doubling"] == {
        "estimate": None,
        "stderr": None,
        "reason": "every game was on equal effective clocks, so the data say nothing about "
        "time odds",
    }


def test_table_view_shows_estimates_and_notes() -> None:
    result = runner.invoke(app, ["calibrate", SEED_GAMES])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "classical" in out and "391/557/270" in out
    assert "64.33" in out and "± 13.75" in out and "1.7143" in out and "± 0.0994" in out
    assert "[1] classical elo_per_doubling: every game was on equal effective clocks" in out


def test_write_model_gives_a_model_table_a_scenario_accepts(tmp_path: Path) -> None:
    model_file = tmp_path / "fitted.toml"
    result = runner.invoke(  # wide: the line names a temporary path, longer under pytest-xdist
        app,
        ["calibrate", SEED_GAMES, "--write-model", str(model_file), "--json"],
        env={"COLUMNS": "400"},
    )
    assert result.exit_code == 0, result.output
    assert f"wrote {model_file}" in result.stderr
    text = model_file.read_text(encoding="utf-8")
    assert "[model]" in text and "elo_per_doubling =" not in text
    scenario = tmp_path / "scenario.toml"
    scenario.write_text(text + PLAYERS, encoding="utf-8")
    model = load_scenario(scenario).model
    assert math.isclose(model.red_advantage.classical, DEFAULT_RED_ADVANTAGE, abs_tol=1e-9)
    assert math.isclose(model.draw_nu.classical, DEFAULT_DRAW_NU.classical, abs_tol=1e-9)
    odds = run_json("odds", str(scenario), "--json")
    fitted = odds["scenario"]["model"]["red_advantage"]["classical"]  # type: ignore[index]
    assert fitted == model.red_advantage.classical


def test_moves_and_encoding(tmp_path: Path) -> None:
    games = tmp_path / "g.csv"
    games.write_text(
        HEADER + ",count\n2500,2500,,55,55,5,red,30\n2500,2500,,55,55,5,black,20\n",
        encoding="utf-16",
    )
    assert "classical" in run_json("calibrate", str(games), "--json", "--encoding", "utf-16")
    assert "rapid" in run_json("calibrate", str(games), "--json", "--moves", "30")


def test_bad_rows_exit_2_one_line_each(tmp_path: Path) -> None:
    games = tmp_path / "g.csv"
    games.write_text(
        HEADER + "\n2500,2500,,60,60,10,red\n2500,2500,,60,60,10,x\n2500,2500,,60,0,10,red\n",
        encoding="utf-8",
    )
    result = runner.invoke(app, ["calibrate", str(games)])
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    assert result.stderr.strip().splitlines() == [
        f"error: {games}: line 3, result: expected red, draw or black, got 'x'",
        f"error: {games}: line 4, black_minutes: expected minutes > 0, got '0'",
    ]


def test_bad_options_exit_2(tmp_path: Path) -> None:
    result = runner.invoke(app, ["calibrate", SEED_GAMES, "--moves", "0"])
    assert result.exit_code == 2
    assert result.stderr.strip() == "error: --moves: expected a number >= 1, got 0"
    result = runner.invoke(app, ["calibrate", "nope.csv"])
    assert result.exit_code == 2
    assert result.stderr.strip() == (
        "error: nope.csv: cannot read the file: No such file or directory"
    )
    result = runner.invoke(
        app, ["calibrate", SEED_GAMES, "--write-model", str(tmp_path / "no" / "m.toml")]
    )
    assert result.exit_code == 2 and "error: --write-model: cannot write" in result.stderr


def test_help_has_an_example() -> None:
    result = runner.invoke(app, ["calibrate", "--help"])
    assert result.exit_code == 0
    assert "Example" in result.stdout and "knockout calibrate" in result.stdout
    assert "[model]" in result.stdout
