"""The table views show each interval beside its value, from the numbers of the JSON."""

from __future__ import annotations

from typer.testing import CliRunner

from knockout.program import app
from tests.conftest import SCENARIOS, run_json

HOW_SURE = str(SCENARIOS / "final-how-sure.toml")
runner = CliRunner()


def _view(*args: str) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return result.stdout


def test_odds_shows_the_interval_beside_the_value() -> None:
    win = run_json("odds", HOW_SURE, "--json")["model_uncertainty"]["figures"]["win.王天一"]  # type: ignore[index]
    out = _view("odds", HOW_SURE)
    assert f"[{100 * win['q025']:.1f}, {100 * win['q975']:.1f}]" in out
    assert "the central 95 % of the figure over the uncertain constants" in " ".join(out.split())
    assert max(len(line) for line in out.splitlines()) <= 80


def test_fair_says_how_sure() -> None:
    out = " ".join(_view("fair", HOW_SURE, "--seed", "1").split())
    assert "How sure:" in out and "P(edge > 0)" in out
    assert "contributes most to the spread of the seed menu's edge is elo_per_doubling.rapid" in out


def test_compare_and_simulate_show_intervals() -> None:
    out = _view("compare", HOW_SURE, "--formats", "xq-bidding,armageddon-lot")
    assert ".." in out and "Under each number" in " ".join(out.split())
    out = _view("simulate", HOW_SURE, "--runs", "20000", "--seed", "2")
    assert "exact 95 %" in out


def test_plain_scenarios_show_no_intervals() -> None:
    out = _view("odds", str(SCENARIOS / "final-2600-vs-2550.toml"))
    assert "95 %" not in out and "uncertain constants" not in out
