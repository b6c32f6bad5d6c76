"""``knockout event``: the bundled 16-player event run start to finish by CLI calls, and the
command-line contract (JSON keys, exit codes, one-line errors, help with examples)."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import pytest
from conftest import run_json
from event_helpers import CUP_PLAYERS, CUP_SCENARIO, ROOT, snapshot
from typer.testing import CliRunner, Result

from knockout.event.store import load_event
from knockout.game import Colour
from knockout.io.scenario import load_scenario
from knockout.program import app
from knockout.rules.model.strength import game_probabilities
from knockout.rules.scenario.aggregate import Scenario

runner = CliRunner()
CUP_SCENARIO_WITH_PLAYERS = ROOT / "scenarios" / "example.toml"

NEXT_KEYS = {"version", "games", "bids", "decisions", "byes", "finished", "champion"}
GAME_KEYS = {"match", "game", "stage", "red", "black", "clock", "board"}
EXPORT_KEYS = {
    "version", "event", "games", "bids", "ranking", "matches", "withdrawn", "scenario",
}  # fmt: skip
EXPORT_GAME_KEYS = {"match", "game", "stage", "red", "black", "clock", "result", "time_used"}


def run(*args: str) -> Result:
    return runner.invoke(app, ["event", *args])


def ok(*args: str) -> str:
    result = run(*args)
    assert result.exit_code == 0, result.output
    return result.stdout


def refused(db: str, *args: str, says: str) -> None:
    """The command exits with code 2, one error line, and the event is unchanged: its exports
    (made in this process, not by three CLI calls each side) and its journal's length."""
    before = snapshot(Path(db))
    result = run(*args)
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and says in lines[0], lines
    assert "Traceback" not in result.output
    assert snapshot(Path(db)) == before


def next_json(db: str) -> dict[str, Any]:
    data = run_json("event", "next", db, "--json")
    assert set(data) == NEXT_KEYS
    for g in data["games"]:  # type: ignore[union-attr]
        assert set(g) == GAME_KEYS
    return data


def result_for(game: dict[str, Any], winner: str | None) -> str:
    if winner is None:
        return "1/2"
    return "1-0" if winner == game["red"] else "0-1"


class Arbiter:
    """Plays the event through the CLI: each match's first-listed player (its upper line) wins
    game 1 and draws game 2, unless a match has its own plan."""

    def __init__(self, db: str) -> None:
        self.db = db
        self.plans: dict[str, list[str | None]] = {}
        self.players: dict[str, tuple[str, str]] = {}

    def winner_of(self, game: dict[str, Any]) -> str | None:
        match, number = game["match"], game["game"]
        pair = self.players.setdefault(match, (game["red"], game["black"]))
        plan = self.plans.get(match, [pair[0], None])
        return plan[number - 1] if number <= len(plan) else pair[0]

    def play(self, game: dict[str, Any]) -> None:
        winner = self.winner_of(game)
        args = ["record", self.db, game["match"], str(game["game"]), result_for(game, winner)]
        if game["stage"] == "rapid":
            args += ["--time-used", f"{game['red']}=500", "--time-used", f"{game['black']}=11:00"]
        ok(*args)


@pytest.mark.slow
def test_bundled_event_start_to_finish(tmp_path: Path) -> None:
    db = str(tmp_path / "cup.db")
    out = ok("new", db, "--scenario", str(CUP_SCENARIO), "--players", str(CUP_PLAYERS))
    assert "16 players" in out and "third-place match" in out
    first = next_json(db)
    assert len(first["games"]) == 8 and first["bids"] == [] and first["finished"] is False
    assert [g["board"] for g in first["games"]] == list(range(1, 9))
    assert first["champion"] is None
    arbiter = Arbiter(db)
    m1 = first["games"][0]
    # R1-M1 goes to a sudden death: each wins a slow game, the rapid game is drawn (Red used
    # less time: 500 s against 11:00), then 甲 announces red and 乙 objects.
    arbiter.players["R1-M1"] = (m1["red"], m1["black"])
    arbiter.plans["R1-M1"] = [m1["red"], m1["black"], None]  # Red wins both slow games

    # An undo: a wrong result for R1-M2 game 1, corrected.
    m2 = first["games"][1]
    wrong = result_for(m2, m2["black"])
    ok("record", db, "R1-M2", "1", wrong)
    log = ok("log", db)
    assert "<- undo" in log
    refused(db, "record", db, "R1-M2", "1", "1-0", says="already has a result")
    assert "Undid #2" in ok("undo", db)

    # A withdrawal in the middle of R1-M5: its upper player wins game 1, then withdraws.
    m5 = first["games"][4]
    arbiter.players["R1-M5"] = (m5["red"], m5["black"])
    ok("record", db, "R1-M5", "1", result_for(m5, m5["red"]))
    out = ok("withdraw", db, m5["red"])
    assert "withdrew after 1 game" in out and m5["black"] in out

    champion = play_to_the_end(db, arbiter, m1, tmp_path)
    check_the_finished_event(db, tmp_path, champion)


def sudden_death_by_hand(sc: Scenario, red: str, black: str, clock: list[float]) -> float:
    """P(Red advances) in a sudden-death game on ``clock``: the model's Davidson probabilities
    on the effective clocks (base + moves x increment), in the stage's time class, with the
    stage's draw winner."""
    stage = sc.format.stage("sudden_death")
    moves, inc = sc.model.moves, stage.increment_seconds
    tc = stage.time_class_for(moves)
    p = game_probabilities(
        sc.player(red).rating_for(tc),
        sc.player(black).rating_for(tc),
        tc,
        model=sc.model,
        red_minutes=clock[0] + moves * inc / 60,
        black_minutes=clock[1] + moves * inc / 60,
    )
    return float(p.red + (p.draw if stage.draw_winner is Colour.RED else 0.0))


def check_export_after_a_bid(db: str, tmp_path: Path, match: str, game: dict[str, Any]) -> None:
    """An export taken after a bid and before its game (``game``: that game as ``next`` gives
    it): knockout odds on it gives the match's players the chance event odds gives, that one
    game's, and knockout play plays it on the bid's colours and clocks."""
    toml = tmp_path / f"{match}-bid.toml"
    toml.write_text(ok("export", db, "--format", "scenario"), encoding="utf-8")
    bid = next(b for b in run_json("event", "export", db)["bids"] if b["match"] == match)  # type: ignore[union-attr]
    assert tomllib.loads(toml.read_text(encoding="utf-8"))["played"][-1] == {
        "stage": "sudden_death",
        "chooser": bid["chooser"],
        "announce": bid["announce"],
        "reply": bid["reply"],
    }
    odds = run_json("odds", str(toml), "--json")
    assert run_json("event", "odds", db, "--json") == odds
    red, black = game["red"], game["black"]
    p_red = sudden_death_by_hand(load_scenario(toml), red, black, game["clock"])
    reach: dict[str, list[float]] = odds["reach"]  # type: ignore[assignment]
    assert reach[red][1] == pytest.approx(p_red, abs=1e-12)
    assert reach[black][1] == pytest.approx(1 - p_red, abs=1e-12)
    play = run_json("play", str(toml), "--seed", "1", "--json")
    played = next(m for m in play["matches"] if set(m["players"]) == {red, black})  # type: ignore[union-attr]
    sudden = played["games"][game["game"] - 1]
    expected = {
        "stage": "sudden_death",
        "red": red,
        "black": black,
        "clock": game["clock"],
        "chooser": bid["chooser"],
        "announce": bid["announce"],
        "reply": bid["reply"],
        "replayed": False,
    }
    assert expected.items() <= sudden.items()


def play_to_the_end(db: str, arbiter: Arbiter, m1: dict[str, Any], tmp_path: Path) -> str:
    """Record every game and bid ``next`` offers until the event is over; the champion."""
    seen_bid = seen_third = False
    for _ in range(100):
        data = next_json(db)
        if data["finished"]:
            break
        for bid in data["bids"]:
            assert set(bid) == {"match", "chooser", "bidder"}
            if bid["match"] == "R1-M1":
                assert bid["chooser"] == m1["red"] or bid["chooser"] == m1["black"]
                refused(db, "record", db, "R1-M1", "4", "1-0", says="expected the bid first")
                out = ok("bid", db, "R1-M1", "--announce", "red", "--reply", "object")
                assert "objects" in out and "10 min" in out
                sudden = next(g for g in next_json(db)["games"] if g["match"] == "R1-M1")
                assert sudden["clock"] == [10.0, 30.0]
                check_export_after_a_bid(db, tmp_path, "R1-M1", sudden)
                seen_bid = True
            else:
                ok("bid", db, bid["match"], "--announce", "red", "--reply", "accept")
        for game in data["games"]:
            seen_third |= game["match"] == "3RD"
            arbiter.play(game)
    assert data["finished"] is True and seen_bid and seen_third
    champion = data["champion"]
    assert isinstance(champion, str)
    return champion


def check_the_finished_event(db: str, tmp_path: Path, champion: str) -> None:
    """Exports, odds and the dashboard of the finished event; nothing more is accepted."""
    exported = run_json("event", "export", db, "--format", "json")
    assert set(exported) == EXPORT_KEYS and exported["event"] == "City Cup 2026"
    games = exported["games"]
    assert isinstance(games, list) and all(set(g) == EXPORT_GAME_KEYS for g in games)
    assert all(g["result"] in ("red", "draw", "black") for g in games)
    assert any(g["stage"] == "sudden_death" and g["clock"] == [10.0, 30.0] for g in games)
    bids = exported["bids"]
    assert isinstance(bids, list) and {"match": "R1-M1"}.items() <= bids[0].items()
    assert set(bids[0]) == {"match", "chooser", "announce", "reply"}
    ranking = exported["ranking"]
    assert isinstance(ranking, list) and len(ranking) == 16
    assert ranking[0] == {"name": champion, "rank": 1, "points": ranking[0]["points"]}
    assert set(ranking[0]) == {"name", "rank", "points"}

    # The exported scenario is accepted by knockout odds, and event odds gives the same JSON.
    toml = tmp_path / "cup-final.toml"
    toml.write_text(ok("export", db, "--format", "scenario"), encoding="utf-8")
    odds = run_json("odds", str(toml), "--json")
    assert odds["win"] == {name: (1.0 if name == champion else 0.0) for name in odds["win"]}  # type: ignore[union-attr]
    assert run_json("event", "odds", db, "--json") == odds
    play = run_json("play", str(toml), "--seed", "1", "--json")
    assert play["champion"] == champion

    csv_text = ok("export", db, "--format", "csv")
    assert csv_text.splitlines()[0].startswith("match,game,stage,red,black")
    assert len(csv_text.splitlines()) == 1 + len(games)

    shown = ok("show", db)
    assert "Final ranking" in shown and champion in shown
    refused(db, "record", db, "R4-M1", "3", "1-0", says="already decided")
    refused(db, "withdraw", db, champion, says="with a match left")


def test_event_odds_match_knockout_odds_mid_event(tmp_path: Path) -> None:
    db = str(tmp_path / "cup.db")
    ok("new", db, "--scenario", str(CUP_SCENARIO), "--players", str(CUP_PLAYERS))
    first = next_json(db)
    for game in first["games"][:3]:
        ok("record", db, game["match"], "1", result_for(game, game["black"]))
    ok("withdraw", db, first["games"][5]["red"])
    toml = tmp_path / "now.toml"
    toml.write_text(ok("export", db, "--format", "scenario"), encoding="utf-8")
    assert run_json("event", "odds", db, "--json") == run_json("odds", str(toml), "--json")
    assert "exact chances per round" in ok("odds", db)


@pytest.mark.slow
def test_pending_bid_is_part_of_the_scenario_export(tmp_path: Path) -> None:
    db = str(tmp_path / "cup.db")
    ok("new", db, "--scenario", str(CUP_SCENARIO), "--players", str(CUP_PLAYERS))
    game = next_json(db)["games"][0]
    red, black = game["red"], game["black"]
    ok("record", db, "R1-M1", "1", "1-0")
    ok("record", db, "R1-M1", "2", "1-0")
    ok("record", db, "R1-M1", "3", "1/2")  # no times: 甲 by the arbiter's lot
    data = next_json(db)
    assert data["bids"] == [{"match": "R1-M1", "chooser": None, "bidder": None}]
    pending = next(g for g in data["games"] if g["match"] == "R1-M1")
    assert (pending["game"], pending["red"], pending["black"], pending["clock"]) == (
        4,
        None,
        None,
        None,
    )
    assert data["decisions"] == [{"match": "R1-M1", "game": 4, "kind": "bid", "chooser": None}]
    refused(db, "bid", db, "R1-M1", "--announce", "black", "--reply", "accept", says="--chooser")
    before = run_json("event", "odds", db, "--json")
    ok("bid", db, "R1-M1", "--announce", "black", "--reply", "accept", "--chooser", black)
    sd = next(g for g in next_json(db)["games"] if g["match"] == "R1-M1")
    assert (sd["red"], sd["black"], sd["clock"], sd["game"]) == (red, black, [30.0, 10.0], 4)
    text = ok("export", db, "--format", "scenario")
    exported_keys = set(tomllib.loads(text))
    # the scenario's keys, and the [event] table that carries the event on (seed, withdrawals)
    assert exported_keys == set(load_scenario(CUP_SCENARIO_WITH_PLAYERS).to_dict()) | {"event"}
    check_export_after_a_bid(db, tmp_path, "R1-M1", sd)
    # the bid moved the odds: before it, the choice was still to be made
    after = run_json("event", "odds", db, "--json")
    assert after["reach"][red][1] != pytest.approx(before["reach"][red][1], abs=1e-6)  # type: ignore[index]
    exported = run_json("event", "export", db)
    assert exported["bids"] == [
        {"match": "R1-M1", "chooser": black, "announce": "black", "reply": "accept"}
    ]
    unplayed = [g for g in exported["games"] if g["result"] is None]  # type: ignore[union-attr]
    assert {"match": "R1-M1", "game": 4, "clock": [30.0, 10.0]}.items() <= unplayed[0].items()
    # a new event from the export carries the bid on: the same next game, the same odds
    again = str(tmp_path / "again.db")
    toml = tmp_path / "R1-M1-bid.toml"
    ok("new", again, "--scenario", str(toml))
    assert next(g for g in next_json(again)["games"] if g["match"] == "R1-M1") == sd
    assert run_json("event", "export", again)["bids"] == exported["bids"]
    assert run_json("event", "odds", again, "--json")["win"] == after["win"]


def test_bad_input_is_one_line_and_exit_2(tmp_path: Path) -> None:
    db = str(tmp_path / "cup.db")
    bad_csv = tmp_path / "bad.csv"
    bad_csv.write_text("name,rating,club\nA,2500,x\n", encoding="utf-8")
    result = run("new", db, "--scenario", str(CUP_SCENARIO), "--players", str(bad_csv))
    assert result.exit_code == 2 and "unknown column 'club'" in result.stderr
    assert not Path(db).exists()
    result = run("next", db)
    assert result.exit_code == 2 and "no such event file" in result.stderr
    ok("new", db, "--scenario", str(CUP_SCENARIO), "--players", str(CUP_PLAYERS))
    refused(db, "record", db, "R1-M1", "1", "win", says="expected 1-0, 0-1, 1/2")
    refused(db, "record", db, "QF1", "1", "1-0", says="expected a match ID")
    refused(db, "record", db, "R1-M1", "1", "1-0", "--time-used", "王立新", says="NAME=SECONDS")
    refused(db, "withdraw", db, "Nobody Atall", says="expected a player of this event")
    refused(db, "undo", db, says="found none")
    refused(db, "bid", db, "3RD", "--announce", "red", "--reply", "accept", says="not scheduled")
    result = run("show", db, "--live", "--export", str(tmp_path / "x.svg"))
    assert result.exit_code == 2


def test_new_with_a_gb18030_entry_list(tmp_path: Path) -> None:
    db = str(tmp_path / "cup.db")
    players = tmp_path / "players.csv"
    players.write_bytes(CUP_PLAYERS.read_text(encoding="utf-8").encode("gb18030"))
    result = run("new", db, "--scenario", str(CUP_SCENARIO), "--players", str(players))
    assert result.exit_code == 2 and "gb18030" in result.stderr
    ok(
        "new", db, "--scenario", str(CUP_SCENARIO), "--players", str(players),
        "--encoding", "gb18030",
    )  # fmt: skip
    names = {g["red"] for g in next_json(db)["games"]} | {
        g["black"] for g in next_json(db)["games"]
    }
    assert "王立新" in names and "赵雪" in names


def test_log_shows_what_when_and_which_command(tmp_path: Path) -> None:
    db = str(tmp_path / "cup.db")
    ok("new", db, "--scenario", str(CUP_SCENARIO), "--players", str(CUP_PLAYERS))
    ok("record", db, "r1-m1", "1", "draw", "--time-used", "王立新=2400", "--moves", "61")
    out = ok("log", db)
    assert "event created" in out and "R1-M1 game 1 (slow)" in out and "<- undo" in out
    assert "(slow)" in out
    entry = load_event(db).entries[1]
    assert (
        entry.command
        == f"knockout event record {db} r1-m1 1 draw '--time-used=王立新=2400' --moves 61"
    )


@pytest.mark.slow
def test_every_event_command_has_help_with_an_example() -> None:
    import typer.main

    group = typer.main.get_command(app)
    event_group = group.commands["event"]  # type: ignore[attr-defined]
    names = sorted(event_group.commands)
    expected = ["new", "next", "record", "correct", "bid", "choose", "sealed", "cut", "withdraw"]
    expected += ["amend"]
    expected += ["replace", "show", "odds", "undo", "log", "export", "check", "publish", "serve"]
    assert names == sorted(expected)
    result = runner.invoke(app, ["event", "--help"])
    assert result.exit_code == 0 and "Example" in result.stdout
    for name in names:
        result = runner.invoke(app, ["event", name, "--help"])
        assert result.exit_code == 0, name
        assert "Example" in result.stdout and f"knockout event {name}" in result.stdout, name


@pytest.mark.parametrize("fmt", ["json", "csv", "scenario"])
def test_export_formats_on_a_new_event(tmp_path: Path, fmt: str) -> None:
    db = str(tmp_path / "cup.db")
    ok("new", db, "--scenario", str(CUP_SCENARIO), "--players", str(CUP_PLAYERS))
    text = ok("export", db, "--format", fmt)
    if fmt == "json":
        data = json.loads(text)
        assert len(data["games"]) == 8 and all(g["result"] is None for g in data["games"])
        assert len(data["ranking"]) == 16
    elif fmt == "scenario":
        path = tmp_path / "s.toml"
        path.write_text(text, encoding="utf-8")
        assert run_json("odds", str(path), "--json")["players"]


@pytest.mark.slow
def test_the_official_deciders_colour_choice_is_asked_and_recorded(tmp_path: Path) -> None:
    """The official playoff's decider: a lot decides who chooses the colours; organiser mode
    asks for that choice (it does not hand Red to anyone), records it, and every walker
    honours it (the export's knockout odds equal event odds)."""
    db = str(tmp_path / "op.db")
    ok("new", db, "--scenario", str(ROOT / "scenarios" / "official-playoff.toml"))
    for game in (1, 2, 3, 4):
        ok("record", db, "R1-M1", str(game), "1/2")
    data = next_json(db)
    assert data["decisions"] == [{"match": "R1-M1", "game": 5, "kind": "choice", "chooser": None}]
    (pending,) = data["games"]
    assert (pending["game"], pending["stage"], pending["red"], pending["black"]) == (
        5,
        "decider",
        None,
        None,
    )
    assert "knockout event choose" in ok("next", db)
    refused(db, "choose", db, "R1-M1", "black", says="--chooser")
    refused(db, "record", db, "R1-M1", "5", "1-0", says="colour choice first")
    refused(db, "bid", db, "R1-M1", "--announce", "red", "--reply", "accept", says="game 5")
    refused(db, "choose", db, "R1-M1", "green", "--chooser", "洪智", says="red or black")
    said = ok("choose", db, "R1-M1", "black", "--chooser", "洪智")
    assert "洪智 chooses black: 蒋川 Red 6 min v 洪智 Black 4 min" in said
    game = next_json(db)["games"][0]
    assert (game["red"], game["black"], game["clock"]) == ("蒋川", "洪智", [6.0, 4.0])
    assert next_json(db)["decisions"] == []
    refused(db, "choose", db, "R1-M1", "red", "--chooser", "洪智", says="already recorded")
    toml = tmp_path / "now.toml"
    toml.write_text(ok("export", db, "--format", "scenario"), encoding="utf-8")
    exported = tomllib.loads(toml.read_text(encoding="utf-8"))["played"][-1]
    assert {k: exported[k] for k in ("stage", "chooser", "colour")} == {
        "stage": "decider",
        "chooser": "洪智",
        "colour": "black",
    }
    assert run_json("event", "odds", db, "--json") == run_json("odds", str(toml), "--json")
    ok("record", db, "R1-M1", "5", "1/2")  # a draw: Black (洪智) advances
    assert next_json(db)["champion"] == "洪智"
    ok("undo", db)
    ok("undo", db)  # the choice is undone like any entry
    assert next_json(db)["decisions"][0]["kind"] == "choice"
