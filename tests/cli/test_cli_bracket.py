"""The CLI on brackets: JSON contracts, live, schedule, exports."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import run_json
from typer.testing import CliRunner

from knockout.program import app

ROOT = Path(__file__).resolve().parents[2]
OPEN12 = str(ROOT / "scenarios" / "open-12-in-progress.toml")
NATIONAL = str(ROOT / "scenarios" / "national-64.toml")
runner = CliRunner()


def test_odds_bracket_json() -> None:
    data = run_json("odds", OPEN12, "--json")
    win, reach = data["win"], data["reach"]
    assert isinstance(win, dict) and isinstance(reach, dict)
    assert sum(win.values()) == pytest.approx(1.0)
    assert set(win) == set(reach) == set(data["players"])  # type: ignore[arg-type]
    assert all(len(r) == 5 for r in reach.values())  # 4 rounds, then P(win)
    assert all(r[-1] == win[n] for n, r in reach.items())
    assert reach["Liu Wei"][:2] == [1.0, 1.0]  # a bye counts as still in
    assert reach["冯涛"][1] == 0.0 and reach["许静"][1] == 0.0


def test_simulate_bracket_json_has_stderr() -> None:
    data = run_json("simulate", OPEN12, "--runs", "8192", "--seed", "5", "--json")
    assert data["runs"] == 8192 and data["seed"] == 5
    stderr = data["stderr"]
    assert isinstance(stderr, dict)
    assert set(stderr["win"]) == set(data["win"])  # type: ignore[arg-type]
    assert set(stderr["reach"]) == set(data["reach"])  # type: ignore[arg-type]
    event = data["event"]
    assert isinstance(event, dict) and {"top_rated_wins", "upsets", "games"} <= set(event)
    again = run_json("simulate", OPEN12, "--runs", "8192", "--seed", "5", "--json")
    assert again == data


def test_play_bracket_json() -> None:
    data = run_json("play", OPEN12, "--seed", "3", "--json")
    assert data["seed"] == 3
    matches = data["matches"]
    assert isinstance(matches, list) and len(matches) == 12 - 1 + 1  # third-place match too
    for m in matches:
        assert {"players", "winner", "games"} <= set(m)
    ranking = data["ranking"]
    assert isinstance(ranking, list) and [r["rank"] for r in ranking] == sorted(
        r["rank"] for r in ranking
    )
    assert ranking[0]["name"] == data["champion"]
    rounds = data["rounds"]
    assert isinstance(rounds, list)
    assert [r["name"] for r in rounds[-2:]] == ["final", "third place"]  # as the table shows them
    assert {r["round"] for r in rounds} == {m["round"] for m in matches}


def test_schedule_json() -> None:
    data = run_json("schedule", OPEN12, "--runs", "5", "--seed", "1", "--json")
    ends = data["ends"]
    assert isinstance(ends, dict) and "event" in ends and "final" in ends
    assert ends["event"]["min"] <= ends["event"]["median"] <= ends["event"]["max"]


def test_exports(tmp_path: Path) -> None:
    svg, html = tmp_path / "odds.svg", tmp_path / "play.html"
    assert runner.invoke(app, ["odds", OPEN12, "--export", str(svg)]).exit_code == 0
    assert svg.read_text(encoding="utf-8").lstrip().startswith("<svg")
    assert runner.invoke(app, ["play", OPEN12, "--seed", "1", "--export", str(html)]).exit_code == 0
    assert "<html" in html.read_text(encoding="utf-8").lower()
    bad = runner.invoke(app, ["odds", OPEN12, "--export", str(tmp_path / "x.png")])
    assert bad.exit_code == 2 and "expected a .svg or .html file" in bad.stderr


def test_live_needs_a_bracket() -> None:
    final = str(ROOT / "scenarios" / "final-2600-vs-2550.toml")
    result = runner.invoke(app, ["play", final, "--live"])
    assert result.exit_code == 2 and "--live shows a bracket" in result.stderr


@pytest.mark.slow
def test_national_64_plays_live_end_to_end() -> None:
    result = runner.invoke(app, ["play", NATIONAL, "--live", "--speed", "1000000", "--seed", "8"])
    assert result.exit_code == 0, result.output
    assert "champion" in result.stdout and "Final ranking" in result.stdout
