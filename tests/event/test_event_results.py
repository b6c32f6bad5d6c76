"""Exports that are results files: who won each match and how, read back by other programs.

The JSON export loads back into ``knockout odds`` (the same answer as ``knockout event odds``);
the TRF-16 export is read by ``knockout standings`` and by FIDE's own checker (gacrux); the PGN
export by python-chess; the CSV exports by Python's csv module, with no cell a spreadsheet would
run as a formula.
"""

from __future__ import annotations

import csv
import io
import json
from decimal import Decimal
from pathlib import Path
from typing import Any

import chess.pgn
import pytest
from conftest import run_json
from event_helpers import decide, level_to_sudden_death, new_event, upper, write_scenario
from gacrux.tiebreak import tiebreak as GacruxTiebreak
from gacrux.trf2json import trf2json as GacruxTrf
from typer.testing import CliRunner

from knockout.cli import app
from knockout.event.decisions import bid_answer
from knockout.event.export import MATCH_COLUMNS, csv_cell, to_csv, to_json
from knockout.event.facts import match_facts
from knockout.event.resultfiles import to_pgn, to_trf_text
from knockout.event.state import Event, NextGame
from knockout.event.store import create_event, load_event, record_decision, record_game, withdraw
from knockout.standings.conventions import Conventions
from knockout.standings.tiebreaks import rank_players
from knockout.standings.trf import parse_trf

runner = CliRunner()


def play(path: Path, match: str, results: list[str]) -> Event:
    """Record ``results`` (Red's score first) as the next games of ``match``."""
    event = load_event(path)
    for result in results:
        step = event.next_step(event.find_match(match))
        assert isinstance(step, NextGame)
        _, event = record_game(path, match, step.number, result)
    return event


def eventful(tmp_path: Path) -> Path:
    """An 8-player event with every way a match ends: R1-M1 a sudden-death draw (Black goes
    through), R1-M2 two slow games, R1-M3 a withdrawal after one game, R1-M4 a walkover."""
    path = new_event(tmp_path)
    level_to_sudden_death(path, "R1-M1")
    record_decision(path, "R1-M1", bid_answer(announce="red", reply="accept"))
    play(path, "R1-M1", ["1/2"])
    decide(path, "R1-M2")  # the upper player wins game 1 and draws game 2
    event = load_event(path)
    first = event.next_step(event.find_match("R1-M3"))
    assert isinstance(first, NextGame)
    play(path, "R1-M3", ["1-0" if first.red == upper(event, "R1-M3") else "0-1"])
    withdraw(path, upper(event, "R1-M3"))
    withdraw(path, upper(event, "R1-M4"))
    return path


def by_match(data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {m["match"]: m for m in data["matches"]}


def test_json_says_who_won_each_match_and_how(tmp_path: Path) -> None:
    path = eventful(tmp_path)
    event = load_event(path)
    data = to_json(event)
    matches = by_match(data)
    sd = matches["R1-M1"]
    last = sd["games"][-1]
    assert last["stage"] == "sudden_death" and last["result"] == "draw"
    assert last["score"] == "½-½"
    assert sd["winner"] == last["black"] and sd["how"] == "sudden-death draw"
    assert sd["sudden_death_draw"] is True and sd["walkover"] is False
    assert sd["decided_in"] == "sudden_death" and sd["status"] == "decided"
    slow = matches["R1-M2"]
    assert (slow["how"], slow["decided_in"], len(slow["games"])) == ("games", "slow", 2)
    assert slow["points"] == {slow["winner"]: 1.5, slow["loser"]: 0.5}
    mid = matches["R1-M3"]
    a3 = upper(event, "R1-M3")
    assert mid["how"] == "withdrawal" and mid["walkover"] is True and mid["loser"] == a3
    assert mid["withdrawn"] == [a3] and len(mid["games"]) == 1
    assert mid["points"][a3] == 1.0  # ahead on the board, and still out: the record says so
    wo = matches["R1-M4"]
    assert wo["how"] == "walkover" and wo["games"] == [] and wo["decided_in"] == "walkover"
    assert data["withdrawn"] == [
        {"name": a3, "match": "R1-M3"},
        {"name": upper(event, "R1-M4"), "match": "R1-M4"},
    ]
    assert matches["R2-M1"]["status"] == "playing" and matches["3RD"]["status"] == "waiting"
    assert matches["3RD"]["round"] == 3 and matches["R1-M2"]["round"] == 1


def test_json_export_loads_back_into_knockout_odds(tmp_path: Path) -> None:
    path = eventful(tmp_path)
    exported = tmp_path / "cup.json"
    result = runner.invoke(app, ["event", "export", str(path), "--format", "json"])
    assert result.exit_code == 0, result.output
    exported.write_text(result.stdout, encoding="utf-8")
    assert run_json("odds", str(exported), "--json") == run_json(
        "event", "odds", str(path), "--json"
    )


def test_trf_export_reads_back_in_knockout_standings_and_gacrux(tmp_path: Path) -> None:
    path = eventful(tmp_path)
    event = load_event(path)
    text = to_trf_text(event)
    table = parse_trf(text, source="cup.trf")
    assert not table.warnings  # the points column adds up
    data = to_json(event)
    for m in data["matches"]:
        for g in m["games"]:  # each game is in the table, on both sides
            red = [e for e in table.entries[g["red"]] if e.opponent == g["black"]]
            assert any(e.colour is not None and e.colour.value == "red" for e in red), g
    expected = {p.name: 0.0 for p in event.base.players}
    for m in data["matches"]:
        for g in m["games"]:
            r = {"red": 1.0, "draw": 0.5, "black": 0.0}[g["result"]]
            expected[g["red"]] += r
            expected[g["black"]] += 1 - r
        if m["how"] in ("walkover", "withdrawal"):
            expected[m["winner"]] += 1.0  # a forfeit win
    assert {n: float(table.score(n)) for n in table.players} == expected
    trf = tmp_path / "cup.trf"
    trf.write_text(text, encoding="utf-8")
    standings = run_json("standings", str(trf), "--json")
    points = {p["name"]: p["points"] for p in standings["players"]}  # type: ignore[union-attr]
    assert points == {n: v if v % 1 else int(v) for n, v in expected.items()}
    reader = GacruxTrf()  # FIDE's checker reads the same file
    reader.parse_file(text, 0)
    assert reader.chessjson["status"].get("code", 0) < 400, reader.chessjson["status"]
    names = {p["id"]: p["fideName"] for p in reader.chessjson["event"]["profiles"]}
    tournament = reader.get_tournament(1)
    gacrux_points = {
        names[c["profileId"]]: float(c["gamePoints"]) for c in tournament["competitors"]
    }
    assert gacrux_points == expected
    played = [g for g in tournament["gameList"] if g["played"]]
    assert len(played) == len(event.games)


#: Tie-breaks both knockout standings and gacrux compute (knockout's code: gacrux's).
SHARED_TIEBREAKS = {
    "BH": "BH",
    "BH-C1": "BH/C1",
    "SB": "SB",
    "PS": "PS",
    "WIN": "WIN",
    "WON": "WON",
    "BWG": "BWG",
    "BPG": "BPG",
}


def test_trf_export_with_walkovers_ranks_alike_in_gacrux(tmp_path: Path) -> None:
    """gacrux ranks the export of an event with a walkover and a withdrawal (each forfeit
    paired as TRF-16 pairs one: the opponent, a colour, ``+``/``-``) and every shared tie-break
    equals knockout standings' from the same file.

    By design these are not the event's own ranking: a knockout pairs a player only while they
    are in, so a player knocked out in round 1 has unpaired slots that Buchholz counts as FIDE
    C.07's unplayed rounds (against a virtual opponent), and the event ranks by the round
    reached first (``knockout event show``'s ranking), not by Buchholz."""
    event = load_event(eventful(tmp_path))
    text = to_trf_text(event)
    lines = {line[14:47].strip(): line for line in text.splitlines() if line.startswith("001")}
    walkover = by_match(to_json(event))["R1-M4"]
    assert walkover["how"] == "walkover"
    number = {name: line[4:8].strip() for name, line in lines.items()}
    won, lost = lines[walkover["winner"]], lines[walkover["loser"]]
    assert f"{number[walkover['loser']]:>4} w +" in won
    assert f"{number[walkover['winner']]:>4} b -" in lost
    reader = GacruxTrf()
    reader.parse_file(text, 0)
    assert reader.chessjson["status"].get("code", 0) < 400, reader.chessjson["status"]
    tournament = reader.get_tournament(1)
    params: dict[str, Any] = {
        "tiebreak": ["PTS", *SHARED_TIEBREAKS.values()],
        "check": False,
        "unrated": None,
    }
    theirs = GacruxTiebreak(tournament, -1, params).compute_tiebreaks(tournament, params)
    table = parse_trf(text)
    ranked = rank_players(table, list(SHARED_TIEBREAKS), conventions=Conventions.for_event(table))
    mine = {s.name: s.tiebreaks for s in ranked.players}
    compared = 0
    for c in theirs["competitors"]:
        name = table.players[c["cid"] - 1]
        assert Decimal(str(c["tiebreakScore"][0])) == table.score(name), name
        for code, value in zip(SHARED_TIEBREAKS, c["tiebreakScore"][1:], strict=True):
            assert Decimal(str(value)) == mine[name][code], (name, code)
            compared += 1
    assert compared == 8 * len(SHARED_TIEBREAKS)
    walked = walkover["winner"]  # the walkover counts a forfeit win, not a game won
    assert mine[walked]["WIN"] == 1 and mine[walked]["WON"] == 0


def test_pgn_export_reads_back_in_python_chess(tmp_path: Path) -> None:
    path = eventful(tmp_path)
    event = load_event(path)
    stream = io.StringIO(to_pgn(event))
    games = []
    while (game := chess.pgn.read_game(stream)) is not None:
        assert not game.errors
        games.append(game.headers)
    assert len(games) == len(event.games)
    for tags, g in zip(games, sorted(event.games, key=lambda g: (g.match, g.number)), strict=True):
        assert (tags["Red"], tags["Black"], tags["Match"]) == (g.red, g.black, g.match)
        assert tags["Event"] == event.name and tags["Stage"] == g.stage
        assert set(tags) >= {"Event", "Site", "Date", "Round", "Result", "TimeControl"}
    sd = next(t for t in games if t["Stage"] == "sudden_death")
    assert sd["Result"] == "1/2-1/2" and sd["MatchWinner"] == sd["Black"]
    assert sd["TimeControl"] == "?" and sd["RedTimeControl"] != sd["BlackTimeControl"]
    slow = next(t for t in games if t["Stage"] == "slow")
    assert slow["TimeControl"] == "3600+10"  # the test format's 60 minutes + 10 s a move
    # The match decided by a withdrawal after one game names no winner on that game.
    assert all("MatchWinner" not in t for t in games if t["Match"] == "R1-M3")


def test_matches_csv_has_the_match_facts(tmp_path: Path) -> None:
    path = eventful(tmp_path)
    event = load_event(path)
    result = runner.invoke(
        app, ["event", "export", str(path), "--format", "csv", "--table", "matches"]
    )
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert tuple(rows[0]) == MATCH_COLUMNS and len(rows) == len(event.matches)
    json_matches = by_match(to_json(event))
    for row in rows:
        m = json_matches[row["match"]]
        assert (row["winner"] or None) == m["winner"] and (row["how"] or None) == m["how"]
        assert row["status"] == m["status"] and int(row["games"]) == len(m["games"])
    assert {r["match"]: r["how"] for r in rows if r["how"]} == {
        "R1-M1": "sudden-death draw",
        "R1-M2": "games",
        "R1-M3": "withdrawal",
        "R1-M4": "walkover",
    }


def test_csv_cells_never_run_as_formulas(tmp_path: Path) -> None:
    players = tmp_path / "players.csv"
    names = ["=HYPERLINK(1)", "+Plus", "-Minus", "@At", "王立新", "Ann", "Bo", "Cy"]
    rows = [f'"{n}",{2600 - 10 * i}' for i, n in enumerate(names)]
    players.write_text("name,rating\n" + "\n".join(rows) + "\n", encoding="utf-8")
    rules = tmp_path / "rules.toml"
    rules.write_text('name = "=Cup"\n[format]\npreset = "xq-bidding"\n', encoding="utf-8")
    path = tmp_path / "cup.db"
    create_event(path, rules, players_path=players, seed=1)
    event = play(path, "R1-M1", ["1-0"])
    for table in ("games", "matches"):
        for row in csv.reader(io.StringIO(to_csv(event, table))):
            for cell in row:
                assert not cell.startswith(("=", "+", "-", "@")), (table, cell)
    games = list(csv.DictReader(io.StringIO(to_csv(event))))
    assert {g["red"] for g in games} | {g["black"] for g in games} >= {
        "'=HYPERLINK(1)",
        "'-Minus",
        "王立新",
    }
    assert csv_cell(-1.5) == "-1.5"  # a number stays a number


def test_unknown_format_and_misplaced_table_are_one_line(tmp_path: Path) -> None:
    path = str(new_event(tmp_path))
    for args, says in (
        (["--format", "xml"], "--format: expected json, csv, scenario, pgn or trf"),
        (["--format", "csv", "--table", "players"], "--table: expected games or matches"),
        (["--format", "pgn", "--table", "matches"], "only with --format csv"),
    ):
        result = runner.invoke(app, ["event", "export", path, *args])
        assert result.exit_code == 2, args
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: ") and says in lines[0], lines


@pytest.mark.parametrize("fmt", ["pgn", "trf"])
def test_new_event_exports_nothing_played(tmp_path: Path, fmt: str) -> None:
    event = load_event(new_event(tmp_path))
    if fmt == "pgn":
        assert to_pgn(event) == ""
    else:
        table = parse_trf(to_trf_text(event))
        assert all(float(table.score(n)) == 0 for n in table.players)
    assert json.loads(json.dumps(to_json(event)))["withdrawn"] == []


@pytest.mark.parametrize(
    ("encoding", "start"), [("utf-8", b"match,"), ("utf-8-sig", b"\xef\xbb\xbfmatch,")]
)
def test_csv_export_in_the_encoding_asked(tmp_path: Path, encoding: str, start: bytes) -> None:
    path = eventful(tmp_path)
    text = to_csv(load_event(path), "games")
    result = runner.invoke(
        app, ["event", "export", str(path), "--format", "csv", "--encoding", encoding]
    )
    assert result.exit_code == 0, result.output
    assert result.stdout_bytes.startswith(start)
    assert result.stdout_bytes.decode(encoding) == text


def test_csv_export_in_gb18030_and_refusals(tmp_path: Path) -> None:
    path = eventful(tmp_path)
    players = tmp_path / "chinese.csv"
    players.write_text("name,rating\n王立新,2600\n李文,2500\n", encoding="utf-8")
    chinese = tmp_path / "chinese.db"
    rules = write_scenario(tmp_path, third_place=False)
    create_event(chinese, rules, players_path=players, command="t", seed=1)
    record_game(chinese, "R1-M1", 1, "1-0")
    result = runner.invoke(
        app, ["event", "export", str(chinese), "--format", "csv", "--encoding", "GB18030"]
    )
    assert result.exit_code == 0, result.output
    assert "王立新".encode("gb18030") in result.stdout_bytes
    assert result.stdout_bytes.decode("gb18030") == to_csv(load_event(chinese), "games")
    for args, says in (
        (["--format", "csv", "--encoding", "latin-1"], "expected one of utf-8, utf-8-sig"),
        (["--format", "json", "--encoding", "gb18030"], "only with --format csv"),
    ):
        bad = runner.invoke(app, ["event", "export", str(path), *args])
        assert bad.exit_code == 2 and says in bad.stderr and len(bad.stderr.splitlines()) == 1


def test_the_event_name_is_tidied_like_player_names(tmp_path: Path) -> None:
    rules = write_scenario(tmp_path, third_place=False)
    text = rules.read_text(encoding="utf-8").replace('"Test cup"', '"City\\nCup\\u0007  2026"')
    rules.write_text(text, encoding="utf-8")
    players = tmp_path / "players.csv"
    players.write_text("name,rating\nAlpha,2600\nBeta,2500\n", encoding="utf-8")
    path = tmp_path / "cup.db"
    create_event(path, rules, players_path=players, command="t", seed=1)
    record_game(path, "R1-M1", 1, "1-0")
    event = load_event(path)
    assert event.name == "City Cup 2026"
    assert '[Event "City Cup 2026"]' in to_pgn(event).splitlines()
    assert to_trf_text(event).splitlines()[0] == "012 City Cup 2026"
    rules.write_text(text.replace("City\\nCup\\u0007  2026", " \\t\\u200b"), encoding="utf-8")
    bad = runner.invoke(
        app,
        [
            "event",
            "new",
            str(tmp_path / "b.db"),
            "--scenario",
            str(rules),
            "--players",
            str(players),
        ],
    )
    assert (
        bad.exit_code == 2
        and "name: expected the event's name, found nothing visible" in bad.stderr
    )


def test_chinese_names_are_written_in_latin_letters_with_the_original_beside(
    tmp_path: Path,
) -> None:
    """TRF-16 and PGN expect Latin letters where a name goes: a Chinese name is written in
    pinyin (王立新: Wang Lixin) and the original kept beside it (a TRF comment line, PGN's
    RedOriginal/BlackOriginal tags); gacrux, knockout standings and python-chess read them."""
    from hall_helpers import hall_event

    from knockout.i18n import speaking
    from knockout.i18n.names import has_han, latin_name

    event = load_event(hall_event(tmp_path))
    chinese = [p.name for p in event.base.players if has_han(p.name)]
    assert len(chinese) >= 4
    text = to_trf_text(event)
    players = [line[14:47].strip() for line in text.splitlines() if line.startswith("001")]
    assert players == [latin_name(p.name) for p in event.base.players]
    assert not any(has_han(name) for name in players) and "Wang Lixin" in players
    comments = [line for line in text.splitlines() if line.startswith("###")]
    assert comments == [
        f"### {i:>4} {latin_name(p.name)}: {p.name}"
        for i, p in enumerate(event.base.players, start=1)
        if has_han(p.name)
    ]
    table = parse_trf(text, source="cup.trf")  # the comments are skipped
    assert not table.warnings and list(table.players) == players
    reader = GacruxTrf()
    reader.parse_file(text, 0)
    assert reader.chessjson["status"].get("code", 0) < 400, reader.chessjson["status"]
    names = {p["fideName"] for p in reader.chessjson["event"]["profiles"]}
    assert names == set(players)
    with speaking("zh_CN"):
        pgn = to_pgn(event)
    stream = io.StringIO(pgn)
    games = []
    while (game := chess.pgn.read_game(stream)) is not None:
        games.append(game)
    assert len(games) == len(event.games)
    for game, g in zip(games, (g for f in match_facts(event) for g in f.games), strict=True):
        tags = game.headers
        assert (tags["Red"], tags["Black"]) == (latin_name(g.red), latin_name(g.black))
        assert tags.get("RedOriginal") == (g.red if has_han(g.red) else None)
        assert tags.get("BlackOriginal") == (g.black if has_han(g.black) else None)
        assert "局（" in game.comment and "game" not in game.comment  # the event's language
    assert "和棋判黑方胜" in pgn and "Wang Lixin" in pgn and "王立新" in pgn


def test_names_that_read_alike_stay_two_players() -> None:
    from knockout.event.resultfiles import latin_names

    assert latin_names(["王伟", "汪伟", "Wang Wei (2)", "魏王"]) == {
        "王伟": "Wang Wei",
        "汪伟": "Wang Wei (3)",
        "Wang Wei (2)": "Wang Wei (2)",
        "魏王": "Wei Wang",
    }
