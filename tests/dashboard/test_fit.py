"""Tables at 80 columns, the width of a small terminal and of piped output: numbers are never
cut short ("100.…"); names wrap and decorations give way instead."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from rich.cells import cell_len
from rich.console import Console
from rich.table import Table
from typer.testing import CliRunner

from knockout.dashboard.bracket import reach_view
from knockout.dashboard.fit import Fit, fitted, table
from knockout.exact.bracket import bracket_odds
from knockout.program import app
from knockout.rules.scenario.aggregate import parse_scenario

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "scenarios"
DATA = SCENARIOS / "data"
runner = CliRunner()


def render(renderable: object, width: int = 80) -> str:
    out = io.StringIO()
    Console(file=out, width=width, color_system=None, legacy_windows=False).print(renderable)
    return out.getvalue()


def assert_whole(text: str, width: int = 80) -> None:
    assert "…" not in text, text
    too_wide = [line for line in text.splitlines() if cell_len(line.rstrip()) > width]
    assert not too_wide, too_wide


def cli(*args: str) -> str:
    """A command's output as piped (80 columns)."""
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return result.stdout


@pytest.mark.parametrize(
    "args",
    [
        ["odds", str(SCENARIOS / "final-2600-vs-2550.toml")],
        ["odds", str(SCENARIOS / "national-64.toml")],
        ["odds", str(SCENARIOS / "official-playoff.toml")],
        ["simulate", str(SCENARIOS / "final-2600-vs-2550.toml"), "--runs", "70000", "--seed", "1"],
        [
            "simulate",
            str(SCENARIOS / "national-64.toml"),
            "--runs",
            "4096",
            "--seed",
            "1",
            "--set",
            "players.王天一.withdrawn=true",
        ],
        ["simulate", str(SCENARIOS / "open-12-in-progress.toml"), "--runs", "4096", "--seed", "1"],
        ["play", str(SCENARIOS / "final-2600-vs-2550.toml"), "--seed", "7", "--log"],
        ["play", str(SCENARIOS / "armageddon-bid.toml"), "--seed", "4"],
        ["play", str(SCENARIOS / "national-64.toml"), "--seed", "3"],
        ["schedule", str(SCENARIOS / "open-12-in-progress.toml"), "--runs", "3", "--seed", "1"],
        ["standings", str(DATA / "swiss-9.trf"), "-t", "BH-C1,BH,SB,WIN,WON,BWG,BPG,PS"],
        [
            "rescore",
            str(DATA / "2010-national-individual-men.csv"),
            "--scoring",
            "difference",
            "--compare",
            "traditional",
            "--rounds",
        ],
        ["league", str(DATA / "league-example.csv")],
        ["compare", str(SCENARIOS / "final-2600-vs-2550.toml")],
    ],
    ids=lambda args: "-".join(Path(a).stem for a in args[:2]),
)
def test_piped_views_cut_no_number(args: list[str]) -> None:
    assert_whole(cli(*args))


def test_a_withdrawn_player_keeps_every_percentage() -> None:
    text = cli(
        "simulate",
        str(SCENARIOS / "national-64.toml"),
        "--runs",
        "4096",
        "--seed",
        "1",
        "--set",
        "players.王天一.withdrawn=true",
    )
    row = next(line for line in text.splitlines() if line.lstrip().startswith("1 "))
    assert re.findall(r"\d+\.\d+%", row) == ["0.0%"] * 5 + ["0.00%", "0.00%"]


def test_event_views_cut_no_number(tmp_path: Path) -> None:
    db = str(tmp_path / "cup.db")
    events = SCENARIOS / "events"
    cli(
        "event",
        "new",
        db,
        "--scenario",
        str(events / "city-cup-16.toml"),
        "--players",
        str(events / "city-cup-16-players.csv"),
    )
    cli("event", "record", db, "R1-M1", "1", "1-0", "--time-used", "王立新=2400")
    for args in (["show", db], ["next", db], ["log", db], ["odds", db]):
        assert_whole(cli("event", *args))


@pytest.mark.slow
def test_a_thousand_players_keep_their_wins_column() -> None:
    sc = parse_scenario(
        {
            "name": "Open (1000 players)",
            "players": [{"name": f"Player {i:04d}", "rating": 2700 - 0.7 * i} for i in range(1000)],
        }
    )
    odds = bracket_odds(sc)
    text = render(reach_view(odds, sc))
    assert_whole(text)
    top = next(line for line in text.splitlines() if "Player 0000" in line)
    assert top.rstrip().endswith(f"{100 * odds.win['Player 0000']:.1f}%")
    assert "left out at this width (--json has every round)" in " ".join(text.split())
    wide = render(reach_view(odds, sc), width=200)
    assert "left out" not in wide and "R2" in wide  # every round where they fit


def test_fit_takes_the_first_layout_that_fits_and_fitted_keeps_numbers_whole() -> None:
    def build(with_bar: bool) -> Table:
        t = table("t")
        t.add_column("Name", overflow="fold")
        t.add_column("Value", justify="right", no_wrap=True)
        if with_bar:
            t.add_column("", no_wrap=True)
        t.add_row("a rather long name that can wrap", "100.00%", *(["█" * 30] if with_bar else []))
        return fitted(t)

    view = Fit(lambda: build(True), lambda: build(False))
    assert "█" in render(view, 120)
    narrow = render(view, 30)
    assert "█" not in narrow and "100.00%" in narrow
    assert_whole(narrow, 30)
