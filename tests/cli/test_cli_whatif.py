"""What-if overrides (--set) and JSON scenarios, through the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import SCENARIOS, run_json
from typer.testing import CliRunner

from knockout.program import app

FINAL = str(SCENARIOS / "final-2600-vs-2550.toml")
runner = CliRunner()


def test_set_gives_the_same_numbers_as_the_edited_file(tmp_path: Path) -> None:
    text = Path(FINAL).read_text(encoding="utf-8")
    edited = tmp_path / "edited.toml"
    text = text.replace('kind = "rational"', 'kind = "naive"')
    edited.write_text(
        text.replace("[strategy]", "[model]\ndraw_nu = { rapid = 0.5 }\n\n[strategy]")
    )
    by_file = run_json("odds", str(edited), "--json")
    by_set = run_json(
        "odds", FINAL, "--set", "model.draw_nu.rapid=0.5", "--set", "strategy.kind=naive", "--json"
    )
    assert by_set["win"] == by_file["win"] and by_set["match"] == by_file["match"]


def test_set_reaches_players_by_name_and_menu_clocks() -> None:
    base = run_json("odds", FINAL, "--json")
    names = base["players"]
    assert isinstance(names, list)
    stronger = run_json("odds", FINAL, "--set", f"players.{names[1]}.rating=2700", "--json")
    assert stronger["win"][names[1]] > base["win"][names[1]]  # type: ignore[index]
    menu = run_json("odds", FINAL, "--set", "format.sudden_death.accept=[30,15]", "--json")
    assert menu["scenario"]["format"]["sudden_death"]["accept"] == [30, 15]  # type: ignore[index]


@pytest.mark.parametrize("whole_output", [True, False])
def test_a_json_output_loads_back_as_its_scenario(tmp_path: Path, whole_output: bool) -> None:
    out = run_json("odds", FINAL, "--set", "model.elo_per_doubling.rapid=60", "--json")
    path = tmp_path / "out.json"
    payload = out if whole_output else out["scenario"]
    path.write_text(json.dumps(payload, ensure_ascii=False), encoding="utf-8")
    again = run_json("odds", str(path), "--json")
    assert again["win"] == out["win"] and again["match"] == out["match"]
    assert again["scenario"] == out["scenario"]


def test_a_json_simulation_output_loads_back_too(tmp_path: Path) -> None:
    sim = run_json("simulate", FINAL, "--runs", "1000", "--seed", "1", "--json")
    path = tmp_path / "sim.json"
    path.write_text(json.dumps(sim, ensure_ascii=False), encoding="utf-8")
    assert run_json("odds", str(path), "--json")["win"] == run_json("odds", FINAL, "--json")["win"]


@pytest.mark.parametrize(
    ("args", "lines"),
    [
        (
            ["--set", "model.draw_nu.rapdi=0.5"],
            [
                "error: --set: model.draw_nu.rapdi: unknown key (did you mean 'rapid'?); "
                "expected one of: classical, rapid, blitz"
            ],
        ),
        (
            ["--set", "model.draw_nu.rapid=-1"],
            ["error: --set: model.draw_nu.rapid: expected a number >= 0, got -1"],
        ),
        (
            ["--set", "players.王天二.rating=2600"],
            [
                "error: --set: players.王天二.rating: no player named '王天二' "
                "(did you mean '王天一'?)"
            ],
        ),
        (
            ["--set", "strategy.kind.x=1"],
            ["error: --set: strategy.kind.x: strategy.kind is 'rational', not a table"],
        ),
        (
            ["--set", "model.draw_nu.rapid"],
            [
                "error: --set: model.draw_nu.rapid: expected KEY=VALUE with a dotted KEY, "
                "e.g. model.draw_nu.rapid=0.5"
            ],
        ),
        (
            ["--set", "format.sudden_death.accept=[30,"],
            [
                "error: --set: format.sudden_death.accept=[30,: expected a TOML value after '=', "
                "got '[30,'"
            ],
        ),
        (
            ["--set", "strategy.kind=clever", "--set", "model.moves=0"],
            [
                "error: --set: model.moves: expected a number >= 1, got 0",
                "error: --set: strategy.kind: expected one of 'rational', 'naive', "
                "'believed', 'bayesian' or 'equilibrium', got 'clever'",
            ],
        ),
    ],
)
def test_bad_overrides_are_one_line_each(args: list[str], lines: list[str]) -> None:
    result = runner.invoke(app, ["odds", FINAL, *args])
    assert result.exit_code == 2, result.output
    assert sorted(result.stderr.strip().splitlines()) == sorted(lines)
    assert "Traceback" not in result.output


def test_a_file_that_is_not_json_says_where(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text('{"players": [', encoding="utf-8")
    result = runner.invoke(app, ["odds", str(path)])
    assert result.exit_code == 2
    assert result.stderr.strip().startswith(f"error: {path}: line 1, column 14: not valid JSON")
