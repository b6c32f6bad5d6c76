"""What an arbiter types on a Chinese keyboard, and the words every output uses for a
withdrawal: swapped files named in one line, hints that name the real file, one wording."""

from __future__ import annotations

import json
from pathlib import Path

from event_helpers import CUP_PLAYERS, CUP_SCENARIO, level_to_sudden_death, new_event
from typer.testing import CliRunner

from knockout.cli import app
from knockout.dashboard.event_live import bracket_lines
from knockout.dashboard.web.pages import Site
from knockout.event.facts import match_facts
from knockout.event.store import load_event, record_game, withdraw

runner = CliRunner()


def one_line(args: list[str], *says: str) -> str:
    result = runner.invoke(app, ["event", *args])
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and all(s in lines[0] for s in says), lines
    return lines[0]


def test_swapped_scenario_and_players_are_named_in_one_line(tmp_path: Path) -> None:
    db = str(tmp_path / "cup.db")
    one_line(
        ["new", db, "--scenario", str(CUP_PLAYERS), "--players", str(CUP_SCENARIO)],
        "found an entry list (CSV",
        f"give it as --players {CUP_PLAYERS}",
    )
    one_line(
        ["new", db, "--scenario", str(CUP_SCENARIO), "--players", str(CUP_SCENARIO)],
        "--players: expected an entry list (CSV",
        f"found a scenario file (TOML): give it as --scenario {CUP_SCENARIO}",
    )
    assert not Path(db).exists()


def test_a_hint_names_the_event_file(tmp_path: Path) -> None:
    path = new_event(tmp_path)
    level_to_sudden_death(path, "R1-M1")
    line = one_line(["record", str(path), "R1-M1", "4", "1-0"], "expected the")
    assert f"knockout event bid {path} R1-M1" in line and "EVENT" not in line


def test_a_withdrawal_mid_match_reads_the_same_everywhere(tmp_path: Path) -> None:
    path = new_event(tmp_path)
    g = load_event(path).next_games()[0]
    record_game(path, g.match, g.number, "1-0")
    withdraw(path, g.black)
    event = load_event(path)
    facts = next(f for f in match_facts(event) if f.match == g.match)
    assert facts.how == "withdrawal"
    words = f"{g.black} withdrew after 1 game"
    assert facts.how_text() == f"{g.red} advances: {words}"
    exported = runner.invoke(app, ["event", "export", str(path), "--format", "json"])
    match = next(m for m in json.loads(exported.stdout)["matches"] if m["match"] == g.match)
    assert match["how"] == "withdrawal" and match["walkover"] is True
    console = runner.invoke(app, ["event", "show", str(path)]).stdout.replace("\n", " ")
    assert " ".join(words.split()) in " ".join(console.split())
    assert any(words in line.plain for line in bracket_lines(event, match_facts(event)))
    round_page = Site(event, command_file=str(path)).render("round-1.html")
    assert round_page is not None and words in round_page
    again = one_line(["record", str(path), g.match, "2", "1-0"], "already decided")
    assert "by walkover" in again
