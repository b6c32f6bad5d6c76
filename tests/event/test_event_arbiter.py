"""The arbiter's table through the CLI: corrections that stay local, per-match undo, results
by name, late changes of player, and the checks that catch what a hall types.

Every refusal is checked the same way (:func:`refused`): exit code 2, one line on stderr
naming what was expected, and the event file and every export byte for byte as before.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import run_json
from event_helpers import CUP_PLAYERS, CUP_SCENARIO, new_event, snapshot
from typer.testing import CliRunner, Result

from knockout.cli import app
from knockout.event.entries import describe
from knockout.event.store import load_event

runner = CliRunner()


def run(*args: str) -> Result:
    return runner.invoke(app, ["event", *args])


def ok(*args: str) -> str:
    result = run(*args)
    assert result.exit_code == 0, result.output
    return result.stdout


def refused(db: str, *args: str, says: str) -> str:
    """Exit code 2, one error line containing ``says``, the file and its exports unchanged (the
    exports the CLI prints, made in this process: three CLI calls each side cost 0.3 s a
    refusal and prove no more)."""
    raw = Path(db).read_bytes()
    before = snapshot(Path(db))
    result = run(*args)
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and says in lines[0], lines
    assert "Traceback" not in result.output
    assert Path(db).read_bytes() == raw
    assert snapshot(Path(db)) == before
    return lines[0]


def cup(tmp_path: Path) -> str:
    db = str(tmp_path / "cup.db")
    ok("new", db, "--scenario", str(CUP_SCENARIO), "--players", str(CUP_PLAYERS), "--seed", "7")
    return db


def game(db: str, match: str) -> dict[str, object]:
    data = run_json("event", "next", db, "--json")
    return next(g for g in data["games"] if g["match"] == match)  # type: ignore[union-attr]


def result_of(db: str, match: str, number: int) -> str:
    data = run_json("event", "export", db)
    g = next(x for x in data["games"] if x["match"] == match and x["game"] == number)  # type: ignore[union-attr]
    return str(g["result"])


# --- corrections -------------------------------------------------------------------------------


def test_a_correction_stays_local(tmp_path: Path) -> None:
    db = cup(tmp_path)
    m3 = game(db, "R1-M3")
    ok("record", db, "R1-M3", "1", "1-0")  # arbiter A: the wrong result on board 3
    ok("record", db, "R1-M5", "1", "0-1")  # arbiter B, board 5
    out = ok("correct", db, "R1-M3", "1", "--winner", str(m3["black"]))
    first, *_ = out.splitlines()
    assert first.startswith("Correcting R1-M3 game 1 (slow): #2 has")
    assert f"now {m3['black']} (Black) beats {m3['red']} (Red), 0-1" in first
    assert "Recorded #4: correction of #2" in out
    assert result_of(db, "R1-M3", 1) == "black"
    assert result_of(db, "R1-M5", 1) == "black"  # B's entry untouched
    event = load_event(db)
    assert [e.kind for e in event.entries] == ["new", "game", "game", "correct"]
    assert [g.seq for g in event.games] == [4, 3]  # the correction in the game's place
    assert "correction of #2" in ok("log", db)
    # corrected again: the latest correction is in force; undo goes back one correction
    ok("correct", db, "R1-M3", "1", "1/2", "--time-used", f"{m3['red']}=40:00")
    assert result_of(db, "R1-M3", 1) == "draw"
    ok("undo", db, "--match", "R1-M3")
    assert result_of(db, "R1-M3", 1) == "black"


def test_a_correction_that_invalidates_later_entries_names_them(tmp_path: Path) -> None:
    db = cup(tmp_path)
    m1 = game(db, "R1-M1")
    winner, loser = str(m1["black"]), str(m1["red"])
    ok("record", db, "R1-M1", "1", "--winner", winner)
    ok("record", db, "R1-M1", "2", "--draw")  # #3: winner goes through
    ok("record", db, "R1-M2", "1", "1-0")
    ok("record", db, "R1-M2", "2", "1/2")
    ok("record", db, "R2-M1", "1", "1-0")  # #6 uses R1-M1's winner
    ok("record", db, "R1-M3", "1", "1-0")  # #7 another board: not affected
    line = refused(db, "correct", db, "R1-M1", "1", "--winner", loser, says="invalidate")
    assert "found 1 entry it would invalidate: #6 R2-M1 game 1" in line
    assert "#7" not in line and "--cascade" in line
    dry = ok("correct", db, "R1-M1", "1", "--winner", loser, "--cascade", "--dry-run")
    assert dry.splitlines()[0].startswith("Would undo #6") and "Nothing written" in dry
    out = ok("correct", db, "R1-M1", "1", "--winner", loser, "--cascade")
    assert "Undid #6 (entry #8)" in out and "Recorded #9: correction of #2" in out
    event = load_event(db)
    assert event.find_match("R1-M1").winner == loser
    assert event.find_match("R2-M1").games == ()
    assert event.find_match("R1-M3").games[0].seq == 7


def test_a_correction_inside_a_match_names_the_games_past_the_decision(tmp_path: Path) -> None:
    db = cup(tmp_path)
    m = game(db, "R1-M4")
    a, b = str(m["red"]), str(m["black"])
    ok("record", db, "R1-M4", "1", "--winner", a)
    ok("record", db, "R1-M4", "2", "--winner", b)  # 1-1: the rapid game follows
    ok("record", db, "R1-M4", "3", "1-0")
    # game 2 was a draw in fact: a decided the match after game 2, game 3 was never due
    line = refused(db, "correct", db, "R1-M4", "2", "--draw", says="#4 R1-M4 game 3")
    assert "would already be decided" in line
    ok("correct", db, "R1-M4", "2", "--draw", "--cascade")
    assert load_event(db).find_match("R1-M4").winner == a


def test_correction_refusals(tmp_path: Path) -> None:
    db = cup(tmp_path)
    m = game(db, "R1-M1")
    red = str(m["red"])
    refused(db, "correct", db, "R1-M1", "1", "1-0", says="no game is recorded yet")
    ok("record", db, "R1-M1", "1", "1-0", "--time-used", f"{red}=40:00")
    refused(db, "correct", db, "R1-M1", "2", "1-0", says="game 1 is recorded")
    refused(db, "correct", db, "R1-M1", "1", "1-0", says="expected a change, found what #2")
    refused(db, "correct", db, "R1-M1", "1", says="found none")
    refused(db, "correct", db, "R1-M1", "1", "1-0", "--draw", says="RESULT and --draw")
    refused(db, "correct", db, "R1-M1", "1", "1-0", "--time-used", f"{red}=61:99", says="99")
    refused(db, "correct", db, "R1-M1", "1", "0-1", "--moves", "0", says="from 1 to 1000")
    refused(db, "record", db, "R1-M1", "1", "0-1", says="knockout event correct")


# --- undo of one match -------------------------------------------------------------------------


def test_two_arbiters_undo_their_own_match(tmp_path: Path) -> None:
    db = cup(tmp_path)
    ok("record", db, "R1-M3", "1", "1-0")  # arbiter A, wrong
    ok("record", db, "R1-M5", "1", "0-1")  # arbiter B
    out = ok("undo", db, "--match", "R1-M3")
    assert "Undid #2 (entry #4)" in out
    event = load_event(db)
    assert [(g.match, g.number) for g in event.games] == [("R1-M5", 1)]
    by_seq = {e.seq: e for e in event.entries}
    assert describe(event.entries[-1], by_seq).startswith("undo #2 (undo --match R1-M3): R1-M3")
    refused(db, "undo", db, "--match", "R1-M3", says="to undo in R1-M3, found none")
    refused(db, "undo", db, "--cascade", says="--cascade goes with --match")
    refused(db, "undo", db, "--match", "R9-M1", says="expected a match ID")


def test_undo_of_a_match_others_depend_on(tmp_path: Path) -> None:
    db = cup(tmp_path)
    for mid in ("R1-M1", "R1-M2"):
        ok("record", db, mid, "1", "1-0")
        ok("record", db, mid, "2", "1/2")
    ok("record", db, "R2-M1", "1", "0-1")  # #6
    line = refused(db, "undo", db, "--match", "R1-M2", says="#6 R2-M1 game 1")
    assert "R2-M1 would not have its players yet" in line
    out = ok("undo", db, "--match", "R1-M2", "--cascade")
    assert out.index("Undid #6") < out.index("Undid #5")
    assert load_event(db).find_match("R1-M2").winner is None


# --- results as the slip says them -------------------------------------------------------------


def test_results_by_name_and_the_line_before_writing(tmp_path: Path) -> None:
    db = cup(tmp_path)
    m = game(db, "R1-M2")
    red, black = str(m["red"]), str(m["black"])
    raw = Path(db).read_bytes()
    dry = ok("record", db, "R1-M2", "1", "--winner", black.upper(), "--dry-run")
    assert dry.splitlines() == [
        f"Would record R1-M2 game 1 (slow, board 2): {black} (Black) beats {red} (Red), 0-1.",
        "Nothing written (--dry-run).",
    ]
    assert Path(db).read_bytes() == raw and len(load_event(db).entries) == 1
    out = ok("record", db, "R1-M2", "1", "--winner", black).splitlines()
    assert out[0].startswith("Recording R1-M2 game 1 (slow, board 2): ")
    assert out[1].startswith("Recorded #2") and result_of(db, "R1-M2", 1) == "black"
    out = ok("record", db, "R1-M2", "2", "--draw")
    assert "draw, ½-½" in out and result_of(db, "R1-M2", 2) == "draw"
    other = str(game(db, "R1-M1")["red"])
    refused(db, "record", db, "R1-M1", "1", "--winner", red, says="the players of R1-M1 game 1")
    refused(db, "record", db, "R1-M1", "1", "1-0", "--winner", other, says="RESULT and --winner")
    refused(db, "record", db, "R1-M1", "1", says="found none")
    refused(db, "record", db, "R1-M1", "1", "--winner", "Nobody", says="player of this event")


def test_the_game_that_decides_the_chooser_without_both_times_warns(tmp_path: Path) -> None:
    db = cup(tmp_path)
    m = game(db, "R1-M7")
    a, b = str(m["red"]), str(m["black"])
    ok("record", db, "R1-M7", "1", "--winner", a)
    ok("record", db, "R1-M7", "2", "--winner", b)
    result = run("record", db, "R1-M7", "3", "1/2", "--time-used", f"{a}=9:00")
    assert result.exit_code == 0, result.output
    (warning,) = result.stderr.strip().splitlines()
    assert warning.startswith("warning: R1-M7 game 3 decides 甲") and f"of {b} is not" in warning
    assert f"knockout event correct {db} R1-M7 3 1/2 --time-used '{b}=m:ss'" in warning
    assert run_json("event", "next", db, "--json")["bids"][0]["chooser"] is None  # type: ignore[index]
    result = run("correct", db, "R1-M7", "3", "1/2", "--time-used", f"{b}=10:00")
    assert result.exit_code == 0 and "warning" not in result.stderr
    bid = run_json("event", "next", db, "--json")["bids"][0]  # type: ignore[index]
    assert bid == {"match": "R1-M7", "chooser": a, "bidder": b}  # a used less: 9:00


# --- late changes ------------------------------------------------------------------------------


def test_late_changes_before_and_after_the_first_game(tmp_path: Path) -> None:
    db = cup(tmp_path)
    before = run_json("event", "next", db, "--json")["games"]
    out = ok("amend", db, "chen hao", "--name", "Chen  Hao\u200b", "--rating", "2200")
    assert "Recorded #2: Chen Hao: rating 2200" in out and "seeds pinned" in out
    assert run_json("event", "next", db, "--json")["games"] == before  # the draw stays
    ok("amend", db, "Chen Hao", "--name", "Chén Hao")
    refused(db, "amend", db, "Chen Hao", "--rating", "2300", says="'Chen Hao', which was renamed")
    refused(db, "amend", db, "Chén Hao", "--name", "zhang wei", says="already in the event")
    refused(db, "amend", db, "Chén Hao", "--rating", "1e9", says="from 0 to 4000")
    refused(db, "amend", db, "Chén Hao", "--rating", "2200", says="nothing different")
    m5 = game(db, "R1-M5")
    assert "Chén Hao" in (m5["red"], m5["black"])
    ok("record", db, "R1-M5", "1", "--winner", "Chén Hao")
    refused(db, "amend", db, "Chén Hao", "--rating", "2250", says="has played (R1-M5 game 1")
    out = ok("amend", db, "Chén Hao", "--name", "Chen Hao", "--federation", "Shanghai")
    assert "name 'Chén Hao' corrected to 'Chen Hao'" in out
    (played,) = load_event(db).games
    assert "Chen Hao" in (played.red, played.black) and played.result.value != "draw"
    exported = run_json("event", "export", db)
    g5 = next(g for g in exported["games"] if g["match"] == "R1-M5")  # type: ignore[union-attr]
    assert "Chen Hao" in (g5["red"], g5["black"]) and "Chén Hao" not in str(exported)


def test_a_no_show_replaced_by_a_reserve(tmp_path: Path) -> None:
    db = cup(tmp_path)
    m8 = game(db, "R1-M8")
    out = ok("replace", db, "Zhang Wei", "Liu Yang", "--rating", "2380", "--federation", "Hebei")
    assert "Recorded #2: Liu Yang replaces Zhang Wei (rating 2380)" in out
    assert "Next in R1-M8: game 1 (slow)" in out
    after = game(db, "R1-M8")
    swap = {"Zhang Wei": "Liu Yang"}
    assert after == {k: swap.get(v, v) if k in ("red", "black") else v for k, v in m8.items()}
    assert load_event(db).federations["Liu Yang"] == "Hebei"
    refused(db, "record", db, "R1-M8", "1", "--winner", "Zhang Wei", says="was replaced by")
    refused(db, "replace", db, "Liu Yang", "LIU YANG", "--rating", "2380", says="already in")
    refused(db, "replace", db, "赵雪", "Zhang Wei", "--rating", "2380", says="not used before")
    refused(db, "replace", db, "赵雪", "Wu Ming", "--rating", "1e308", says="from 0 to 4000")
    refused(db, "replace", db, "赵雪", "\u200b", "--rating", "2000", says="expected a name")
    ok("record", db, "R1-M8", "1", "1-0")
    refused(db, "replace", db, "Liu Yang", "Wu Ming", "--rating", "2000", says="has not played")
    # a no-show can also withdraw: the opponent goes through by walkover
    out = ok("withdraw", db, "赵雪")
    assert "walkover" in out
    refused(db, "replace", db, "赵雪", "Wu Ming", "--rating", "2000", says="withdrew")
    event = load_event(db)
    assert describe(event.entries[1], {}) == "Liu Yang replaces Zhang Wei (rating 2380)"
    ok("undo", db)  # the withdrawal
    entry = ok("undo", db, "--match", "R1-M8")  # the game; the replacement stays
    assert "Undid #3" in entry


def test_names_are_compared_without_case_and_invisible_characters(tmp_path: Path) -> None:
    db = cup(tmp_path)
    m5 = game(db, "R1-M5")
    assert ok("withdraw", db, "CHEN\u200b HAO").startswith("Recorded #2: Chen Hao withdraws")
    ok("undo", db)
    refused(db, "withdraw", db, "hao", says="expected a player of this event")
    greek = tmp_path / "greek"
    greek.mkdir()
    path = str(new_event(greek))
    line = refused(path, "withdraw", path, "ta", says="ambiguous: 'ta' is part of 5 names")
    assert "'Beta', 'Delta', 'Zeta', 'Eta', 'Theta'" in line
    assert ok("withdraw", path, "eta").startswith("Recorded #2: Eta withdraws")
    assert m5["match"] == "R1-M5"


# --- checks on the entry list and the command line ---------------------------------------------


@pytest.mark.parametrize(
    ("lines", "says"),
    [
        (["name,rating", "José,2400", "Jose\u0301,2300"], "'José' again (first on line 2)"),
        (["name,rating", "Chen Hao,2400", "chen hao,2300"], "as 'Chen Hao': names are compared"),
        (["name,rating", "Li\u200bMing,2400", "LiMing,2300"], "again"),
        (["name,rating", "A" * 5000 + ",2400", "B,2300"], "at most 80 characters, found 5000"),
        (["name,rating", "A,1e9", "B,2300"], "expected a rating from 0 to 4000, found '1e9'"),
        (["name,rating", "A,1e308", "B,2300"], "found '1e308'"),
        (["name;rating", "A;2400", "B;2300"], "separated by semicolons (;)"),
        (["name\trating", "A\t2400", "B\t2300"], "separated by tabs"),
        (["name,rating", "\u200b\u200d,2400", "B,2300"], "expected a name, found nothing visible"),
    ],
)
def test_entry_list_checks(tmp_path: Path, lines: list[str], says: str) -> None:
    players = tmp_path / "p.csv"
    players.write_text("\n".join(lines) + "\n", encoding="utf-8")
    db = tmp_path / "x.db"
    result = run("new", str(db), "--scenario", str(CUP_SCENARIO), "--players", str(players))
    assert result.exit_code == 2, result.output
    (line,) = result.stderr.strip().splitlines()
    assert says in line and "Traceback" not in result.output
    assert not db.exists()


def test_entry_list_headers_in_any_case(tmp_path: Path) -> None:
    players = tmp_path / "p.csv"
    players.write_text(
        "Name,RATING,Federation\nA,2400,X\nB,2300,Y\nC,2200,\nD,2100,Z\n", encoding="utf-8"
    )
    db = str(tmp_path / "x.db")
    ok("new", db, "--scenario", str(CUP_SCENARIO), "--players", str(players))
    assert load_event(db).federations == {"A": "X", "B": "Y", "C": None, "D": "Z"}


def test_scenario_players_are_checked_too(tmp_path: Path) -> None:
    sc = tmp_path / "s.toml"
    text = CUP_SCENARIO.read_text(encoding="utf-8")
    sc.write_text(
        text + '\n[[players]]\nname = "Chen Hao"\nrating = 2400\n'
        '[[players]]\nname = "CHEN HAO"\nrating = 1e9\n',
        encoding="utf-8",
    )
    result = run("new", str(tmp_path / "x.db"), "--scenario", str(sc))
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert "players[1].name: expected a name not already listed" in lines[0]
    assert "players[1].rating: expected a rating from 0 to 4000" in lines[1]


def test_times_and_moves_typed_in_a_hall(tmp_path: Path) -> None:
    db = cup(tmp_path)
    red = str(game(db, "R1-M1")["red"])
    refused(db, "record", db, "R1-M1", "1", "1-0", "--time-used", f"{red}=61:99", says="(99)")
    refused(db, "record", db, "R1-M1", "1", "1-0", "--time-used", f"{red}=61:30", says="1:01:30")
    refused(db, "record", db, "R1-M1", "1", "1-0", "--time-used", f"{red}=1:75:00", says="(75)")
    refused(db, "record", db, "R1-M1", "1", "1-0", "--time-used", f"{red}=1e9", says="m:ss")
    refused(db, "record", db, "R1-M1", "1", "1-0", "--moves", "1" + "0" * 30, says="31 digits")
    ok("record", db, "R1-M1", "1", "1-0", "--time-used", f"{red}=1:01:30", "--moves", "80")
    assert load_event(db).games[0].time_used == {red: 3690.0}


# --- new --seed, byes, usage errors ------------------------------------------------------------


def test_new_with_a_seed_is_reproducible(tmp_path: Path) -> None:
    a, b = str(tmp_path / "a.db"), str(tmp_path / "b.db")
    for db in (a, b):
        out = ok("new", db, "--scenario", str(CUP_SCENARIO), "--players", str(CUP_PLAYERS),
                 "--seed", "2026")  # fmt: skip
        assert "event seed 2026" in out
    assert run_json("event", "next", a, "--json") == run_json("event", "next", b, "--json")
    result = run("new", str(tmp_path / "c.db"), "--scenario", str(CUP_SCENARIO), "--seed", "-1")
    assert result.exit_code == 2 and "--seed" in result.stderr


def test_next_lists_the_byes(tmp_path: Path) -> None:
    path = str(new_event(tmp_path, 6))  # 6 players on 8 lines: the top two seeds have byes
    data = run_json("event", "next", path, "--json")
    assert data["byes"] == [
        {"player": "Alpha", "match": "R2-M1"},
        {"player": "Beta", "match": "R2-M2"},
    ]
    assert "Byes, straight to semi-final: Alpha (waits in R2-M1), Beta" in ok("next", path)


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["schedule", "X", "--runs", "0"], "knockout schedule: Invalid value for '--runs'"),
        (["event", "next", "cup.db", "--bogus"], "No such option: --bogus"),
        (["event", "record"], "Missing argument"),
        (["event", "record", "x.db", "R1-M1", "one"], "Invalid value for 'game'"),
    ],
)
def test_usage_errors_are_one_line_and_exit_2(
    argv: list[str], says: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from knockout.cli import main

    monkeypatch.setattr("sys.argv", ["knockout", *argv])
    with pytest.raises(SystemExit) as info:
        main()
    assert info.value.code == 2
    err = capsys.readouterr().err
    (line,) = err.strip().splitlines()
    assert line.startswith("error: knockout ") and says in line and "--help)" in line
