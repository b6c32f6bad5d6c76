"""The command line: exit codes, messages, JSON contracts."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import run_json
from typer.testing import CliRunner

from knockout.program import app
from knockout.version import __version__

ROOT = Path(__file__).resolve().parents[2]
FINAL = str(ROOT / "scenarios" / "final-2600-vs-2550.toml")
SINGLE = str(ROOT / "scenarios" / "single-slow-rapid-specialist.toml")
runner = CliRunner()


def test_odds_json_contract() -> None:
    data = run_json("odds", FINAL, "--json")
    assert data["version"] == __version__
    assert data["players"] == ["王天一", "郑惟桐"]
    win = data["win"]
    assert isinstance(win, dict) and sum(win.values()) == pytest.approx(1.0)
    match = data["match"]
    assert isinstance(match, dict)
    assert list(match["decided"]) == ["slow", "rapid", "sudden_death"]
    assert 0 < match["chooser_advances"] < 1
    assert "seed" not in data
    scenario = data["scenario"]
    assert isinstance(scenario, dict) and scenario["format"]["slow_games"] == 2


def test_odds_single_slow_stage_keys() -> None:
    data = run_json("odds", SINGLE, "--json")
    match = data["match"]
    assert isinstance(match, dict) and list(match["decided"]) == ["slow", "sudden_death"]


def test_play_json_contract_and_determinism() -> None:
    one = run_json("play", FINAL, "--seed", "7", "--json")
    two = run_json("play", FINAL, "--seed", "7", "--json")
    assert one == two
    assert one["seed"] == 7
    matches = one["matches"]
    assert isinstance(matches, list) and len(matches) == 1
    m = matches[0]
    assert set(m) >= {"players", "winner", "games"}
    for g in m["games"]:
        assert g["stage"] in ("slow", "rapid", "sudden_death")
        assert g["result"] in ("red", "draw", "black")
        assert set(g["time_used"]) == {g["red"], g["black"]}
        assert set(g["points"]) == {g["red"], g["black"]}
        assert len(g["clock"]) == 2
        has_bid = {"chooser", "announce", "reply"} <= set(g)
        assert has_bid == (g["stage"] == "sudden_death")


def test_play_reaches_sudden_death_for_some_seed() -> None:
    for seed in range(40):
        data = run_json("play", FINAL, "--seed", str(seed), "--json")
        games = data["matches"][0]["games"]  # type: ignore[index]
        if games[-1]["stage"] == "sudden_death":
            sd = games[-1]
            assert sd["announce"] in ("red", "black") and sd["reply"] in ("accept", "object")
            assert sd["chooser"] in data["matches"][0]["players"]  # type: ignore[index]
            chooser_colour = "red" if sd["red"] == sd["chooser"] else "black"
            # the colour 甲 plays follows from the announcement and the reply (the menu)
            expected = (
                sd["announce"]
                if sd["reply"] == "accept"
                else ("black" if sd["announce"] == "red" else "red")
            )
            assert chooser_colour == expected
            return
    pytest.fail("no sudden-death game in 40 seeds")


def test_play_without_seed_reports_the_seed_it_used() -> None:
    data = run_json("play", FINAL, "--json")
    again = run_json("play", FINAL, "--json", "--seed", str(data["seed"]))
    assert again["matches"] == data["matches"]


def test_human_output_tables() -> None:
    result = runner.invoke(app, ["odds", FINAL])
    assert result.exit_code == 0
    assert "王天一" in result.stdout and "sudden_death" in result.stdout
    result = runner.invoke(app, ["play", FINAL, "--seed", "3", "--log"])
    assert result.exit_code == 0
    assert "advances" in result.stdout and "Event log" in result.stdout


def test_bad_scenario_exit_2_one_line_per_problem(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text(
        '[[players]]\nname = "A"\nrating = "abc"\n[[players]]\nname = "A"\nrating = 2500\n',
        encoding="utf-8",
    )
    result = runner.invoke(app, ["odds", str(bad)])
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert lines == [
        f"error: {bad}: players[0].rating: expected a number, got 'abc'",
        f"error: {bad}: players[1].name: duplicate name 'A' (also players[0])",
    ]
    assert "Traceback" not in result.output


def test_missing_file_exit_2() -> None:
    result = runner.invoke(app, ["play", "nope.toml"])
    assert result.exit_code == 2
    assert result.stderr.strip() == (
        "error: nope.toml: cannot read the file: No such file or directory"
    )


@pytest.mark.parametrize("command", ["odds", "play"])
def test_help_has_an_example(command: str) -> None:
    result = runner.invoke(app, [command, "--help"])
    assert result.exit_code == 0
    assert "Example" in result.stdout and f"knockout {command}" in result.stdout


def test_version() -> None:
    result = runner.invoke(app, ["--version"])
    assert result.stdout.strip() == f"knockout {__version__}"


@pytest.mark.slow
def test_every_command_has_help_with_an_example() -> None:
    import typer.main

    group = typer.main.get_command(app)
    names = sorted(group.commands)  # type: ignore[attr-defined]
    assert {
        "odds",
        "play",
        "simulate",
        "bench",
        "schedule",
        "standings",
        "rescore",
        "league",
    } <= set(names)
    for name in names:
        result = runner.invoke(app, [name, "--help"])
        assert result.exit_code == 0, name
        assert "Example" in result.stdout, name
