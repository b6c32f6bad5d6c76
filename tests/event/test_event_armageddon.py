"""Organiser mode at a sealed-bid Armageddon (``armageddon-bid``, ``armageddon-vickrey``) and at
cut-and-choose (``cut-choose``): ``event next`` asks for the decision, ``event sealed`` and
``event cut`` record it (journal kinds ``sealed`` and ``cut``), undo takes it back, ``amend``
renames it, ``correct --cascade`` checks it, the export carries it as ``[[played]]`` so that
``knockout odds`` on the export equals ``event odds``, bad input is one line and exit code 2,
and a schema-2 file migrates to take the new kinds."""

from __future__ import annotations

import sqlite3
import tomllib
from pathlib import Path
from typing import Any

import pytest
from conftest import run_json
from typer.testing import CliRunner, Result

from knockout.dashboard.web.pages import Site
from knockout.event import database
from knockout.event.decisions import sealed_answer
from knockout.event.entries import describe
from knockout.event.errors import EventRefused
from knockout.event.store import journal_head, load_event, record_decision
from knockout.program import app

runner = CliRunner()

PLAYERS = (
    '[[players]]\nname = "王天一"\nrating = 2600\n[[players]]\nname = "郑惟桐"\nrating = 2550\n'
)
WANG, ZHENG = "王天一", "郑惟桐"


def run(*args: str) -> Result:
    return runner.invoke(app, ["event", *args])


def ok(*args: str) -> str:
    result = run(*args)
    assert result.exit_code == 0, result.output
    return result.stdout


def refused(db: str, *args: str, says: str) -> None:
    """The command exits with code 2, one error line, and the event file is unchanged."""
    before = Path(db).read_bytes(), journal_head(db)
    result = run(*args)
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and says in lines[0], lines
    assert "Traceback" not in result.output
    assert (Path(db).read_bytes(), journal_head(db)) == before


def next_json(db: str) -> dict[str, Any]:
    return run_json("event", "next", db, "--json")


def at_the_decider(tmp_path: Path, preset: str, *, times: bool = True, extra: str = "") -> str:
    """A two-player event of ``preset`` whose first three games are drawn (王天一 used less
    time in the rapid game when ``times``)."""
    scenario = tmp_path / f"{preset}.toml"
    scenario.write_text(
        f'name = "Final"\n[format]\npreset = "{preset}"\n{extra}{PLAYERS}', encoding="utf-8"
    )
    db = str(tmp_path / f"{preset}.db")
    ok("new", db, "--scenario", str(scenario), "--seed", "3")
    ok("record", db, "R1-M1", "1", "1/2")
    ok("record", db, "R1-M1", "2", "1/2")
    used = ["--time-used", f"{WANG}=20:00", "--time-used", f"{ZHENG}=25:00"] if times else []
    ok("record", db, "R1-M1", "3", "1/2", *used)
    return db


def last_entry(db: str) -> str:
    """What the journal's last entry records, in words (as ``event log`` says it)."""
    return describe(load_event(db).entries[-1], {})


def exported(db: str, tmp_path: Path) -> tuple[Path, dict[str, Any]]:
    path = tmp_path / "export.toml"
    path.write_text(ok("export", db, "--format", "scenario"), encoding="utf-8")
    return path, tomllib.loads(path.read_text(encoding="utf-8"))["played"][-1]


def odds_agree(db: str, tmp_path: Path) -> dict[str, float]:
    """``event odds`` equals ``knockout odds`` on the exported scenario; the odds."""
    path, _ = exported(db, tmp_path)
    event = run_json("event", "odds", db, "--json")
    assert event == run_json("odds", str(path), "--json")
    win: dict[str, float] = event["win"]  # type: ignore[assignment]
    return win


@pytest.mark.parametrize(
    ("preset", "black_minutes"), [("armageddon-bid", 6.5), ("armageddon-vickrey", 8.25)]
)
@pytest.mark.slow
def test_sealed_bids_are_asked_recorded_and_honoured(
    tmp_path: Path, preset: str, black_minutes: float
) -> None:
    db = at_the_decider(tmp_path, preset)
    data = next_json(db)
    assert data["decisions"] == [
        {"match": "R1-M1", "game": 4, "kind": "sealed-bid", "chooser": None}
    ]
    (game,) = data["games"]
    assert (game["game"], game["red"], game["black"], game["clock"]) == (4, None, None, None)
    assert "knockout event sealed" in ok("next", db)
    before = odds_agree(db, tmp_path)
    refused(db, "record", db, "R1-M1", "4", "1-0", says="sealed bids first")
    refused(
        db,
        "cut",
        db,
        "R1-M1",
        "--red-minutes",
        "12",
        "--colour",
        "red",
        says="sealed bids of game 4",
    )
    refused(db, "bid", db, "R1-M1", "--announce", "red", "--reply", "accept", says="sealed bids")
    said = ok("sealed", db, "R1-M1", "--bid", f"{WANG}=6.5", "--bid", f"{ZHENG}=8.25")
    assert f"{WANG} Black {black_minutes:g} min v {ZHENG} Red 10 min" in said
    game = next_json(db)["games"][0]
    assert (game["red"], game["black"], game["clock"]) == (ZHENG, WANG, [10.0, black_minutes])
    assert next_json(db)["decisions"] == []
    _, entry = exported(db, tmp_path)
    assert entry == {"stage": "armageddon", "bids": {WANG: 6.5, ZHENG: 8.25}}
    after = odds_agree(db, tmp_path)
    assert after[WANG] > before[WANG]  # Black, a draw counting for Black, on 6.5 or 8.25 v 10
    refused(
        db,
        "sealed",
        db,
        "R1-M1",
        "--bid",
        f"{WANG}=7",
        "--bid",
        f"{ZHENG}=8",
        says="already recorded",
    )
    assert "sealed bids (" in last_entry(db) and ok("log", db)
    ok("record", db, "R1-M1", "4", "1/2")  # a draw: Black (王天一) advances
    assert next_json(db)["champion"] == WANG
    ok("undo", db)
    ok("undo", db)  # the bids are undone like any entry
    assert next_json(db)["decisions"][0]["kind"] == "sealed-bid"
    assert odds_agree(db, tmp_path) == before


def test_equal_sealed_bids_need_the_lot(tmp_path: Path) -> None:
    db = at_the_decider(tmp_path, "armageddon-vickrey")
    bids = ["--bid", f"{WANG}=7", "--bid", f"{ZHENG}=7"]
    refused(db, "sealed", db, "R1-M1", *bids, says="--lot-black NAME")
    refused(db, "sealed", db, "R1-M1", *bids, "--lot-black", "Nobody", says="expected a player")
    said = ok("sealed", db, "R1-M1", *bids, "--lot-black", ZHENG)
    assert f"{ZHENG} Black 7 min v {WANG} Red 10 min" in said
    _, entry = exported(db, tmp_path)
    assert entry["lot_black"] == ZHENG
    odds_agree(db, tmp_path)


@pytest.mark.parametrize(
    ("args", "says"),
    [
        ([f"--bid={WANG}=6.5"], f"none from {ZHENG}"),
        ([f"--bid={WANG}=6.5", f"--bid={WANG}=7"], "once, found twice"),
        ([f"--bid={WANG}=6.5", f"--bid={ZHENG}=10.5"], "from 1 to 10"),
        ([f"--bid={WANG}=0.5", f"--bid={ZHENG}=8"], "from 1 to 10"),
        ([f"--bid={WANG}=six", f"--bid={ZHENG}=8"], "a number of minutes"),
        ([f"--bid={WANG}=inf", f"--bid={ZHENG}=8"], "a number of minutes"),
        ([f"--bid={WANG}=6.5", "--bid=8"], "NAME=MINUTES"),
        ([f"--bid={WANG}=6.5", "--bid=Somebody=8"], "expected a player"),
        ([f"--bid={WANG}=6", f"--bid={ZHENG}=7", "--lot-black", WANG], "expected no --lot-black"),
    ],
)
def test_bad_sealed_bids_are_one_line(tmp_path: Path, args: list[str], says: str) -> None:
    db = at_the_decider(tmp_path, "armageddon-bid")
    refused(db, "sealed", db, "R1-M1", *args, says=says)


@pytest.mark.slow
def test_a_cut_is_asked_recorded_and_honoured(tmp_path: Path) -> None:
    db = at_the_decider(tmp_path, "cut-choose")
    assert next_json(db)["decisions"] == [
        {"match": "R1-M1", "game": 4, "kind": "cut", "chooser": WANG}
    ]
    assert f"{WANG} cuts" in ok("next", db)
    before = odds_agree(db, tmp_path)
    refused(db, "record", db, "R1-M1", "4", "1-0", says="the cut first")
    refused(
        db,
        "cut",
        db,
        "R1-M1",
        "--red-minutes",
        "17.3",
        "--colour",
        "black",
        "--cutter",
        ZHENG,
        says="used less time",
    )
    refused(
        db, "cut", db, "R1-M1", "--red-minutes", "0.5", "--colour", "black", says="from 1 to 100"
    )
    refused(
        db,
        "cut",
        db,
        "R1-M1",
        "--red-minutes",
        "seventeen",
        "--colour",
        "black",
        says="a number of minutes",
    )
    refused(
        db, "cut", db, "R1-M1", "--red-minutes", "17.3", "--colour", "green", says="red or black"
    )
    refused(
        db, "sealed", db, "R1-M1", "--bid", f"{WANG}=6", "--bid", f"{ZHENG}=7", says="cut of game 4"
    )
    said = ok("cut", db, "R1-M1", "--red-minutes", "17.3125", "--colour", "black")
    assert f"{WANG} cuts Red 17.3125 min v Black 10 min; {ZHENG} chooses black" in said
    game = next_json(db)["games"][0]
    assert (game["red"], game["black"], game["clock"]) == (WANG, ZHENG, [17.3125, 10.0])
    _, entry = exported(db, tmp_path)
    assert entry == {
        "stage": "sudden_death",
        "cutter": WANG,
        "red_minutes": 17.3125,
        "colour": "black",
    }
    assert odds_agree(db, tmp_path) != before
    refused(
        db, "cut", db, "R1-M1", "--red-minutes", "12", "--colour", "red", says="already recorded"
    )
    ok("record", db, "R1-M1", "4", "1-0")
    assert next_json(db)["champion"] == WANG
    record = run_json("event", "export", db, "--format", "json")
    assert record["games"][-1]["clock"] == [17.3125, 10.0]  # type: ignore[index]


def test_the_cutter_by_lot_and_a_correction_that_moves_it(tmp_path: Path) -> None:
    db = at_the_decider(tmp_path, "cut-choose", times=False)
    assert next_json(db)["decisions"][0]["chooser"] is None
    refused(db, "cut", db, "R1-M1", "--red-minutes", "20", "--colour", "red", says="--cutter NAME")
    ok("cut", db, "R1-M1", "--red-minutes", "20", "--colour", "red", "--cutter", ZHENG)
    assert last_entry(db).endswith("(cutter by the arbiter's lot)")
    odds_agree(db, tmp_path)
    # The rapid game's times now name 王天一 as the cutter: the cut by lot no longer fits.
    times = ["--time-used", f"{WANG}=20:00", "--time-used", f"{ZHENG}=25:00"]
    refused(db, "correct", db, "R1-M1", "3", "1/2", *times, says="R1-M1 cut")
    said = ok("correct", db, "R1-M1", "3", "1/2", *times, "--cascade")
    assert "Undid #5" in said and f"{WANG} cuts" in said
    assert next_json(db)["decisions"] == [
        {"match": "R1-M1", "game": 4, "kind": "cut", "chooser": WANG}
    ]


def test_a_cut_by_the_lot_rule(tmp_path: Path) -> None:
    db = at_the_decider(tmp_path, "cut-choose", extra='[format.sudden_death]\npriority = "lot"\n')
    assert next_json(db)["decisions"][0]["chooser"] is None  # times recorded, but a lot
    ok("cut", db, "R1-M1", "--red-minutes", "25", "--colour", "black", "--cutter", ZHENG)
    odds_agree(db, tmp_path)


def test_a_cut_on_a_match_not_at_a_cut_stage(tmp_path: Path) -> None:
    scenario = tmp_path / "c.toml"
    scenario.write_text(
        f'name = "Final"\n[format]\npreset = "cut-choose"\n{PLAYERS}', encoding="utf-8"
    )
    db = str(tmp_path / "c.db")
    ok("new", db, "--scenario", str(scenario), "--seed", "3")
    refused(
        db,
        "cut",
        db,
        "R1-M1",
        "--red-minutes",
        "20",
        "--colour",
        "red",
        says="whose colours the rules set",
    )
    refused(
        db, "sealed", db, "R1-M1", "--bid", f"{WANG}=6", "--bid", f"{ZHENG}=7", says="game 1 (slow)"
    )
    refused(db, "cut", db, "R9-M1", "--red-minutes", "20", "--colour", "red", says="match ID")


@pytest.mark.slow
def test_amend_renames_the_bids_and_the_cut(tmp_path: Path) -> None:
    db = at_the_decider(tmp_path, "armageddon-vickrey")
    ok("sealed", db, "R1-M1", "--bid", f"{WANG}=6.5", "--bid", f"{ZHENG}=8.25")
    ok("amend", db, WANG, "--name", "Wang Tianyi")
    _, entry = exported(db, tmp_path)
    assert entry["bids"] == {"Wang Tianyi": 6.5, ZHENG: 8.25}
    assert next_json(db)["games"][0]["black"] == "Wang Tianyi"
    odds_agree(db, tmp_path)
    db = at_the_decider(tmp_path, "cut-choose")
    ok("cut", db, "R1-M1", "--red-minutes", "17.5", "--colour", "red")
    ok("amend", db, ZHENG, "--name", "Zheng Weitong")
    _, entry = exported(db, tmp_path)
    assert entry["cutter"] == WANG
    assert next_json(db)["games"][0]["red"] == "Zheng Weitong"
    cut = load_event(db).recorded("cut")["R1-M1"]
    assert {cut.red, cut.black} - {cut.chooser} == {"Zheng Weitong"}  # who chose the colour
    odds_agree(db, tmp_path)


@pytest.mark.slow
def test_an_event_made_from_an_export_carries_the_decision_on(tmp_path: Path) -> None:
    for preset, args in (
        (
            "armageddon-vickrey",
            ["sealed", "--bid", f"{WANG}=7", "--bid", f"{ZHENG}=7", "--lot-black", WANG],
        ),
        ("cut-choose", ["cut", "--red-minutes", "12.625", "--colour", "red"]),
    ):
        db = at_the_decider(tmp_path, preset)
        ok(args[0], db, "R1-M1", *args[1:])
        path, _ = exported(db, tmp_path)
        again = str(tmp_path / f"again-{preset}.db")
        ok("new", again, "--scenario", str(path), "--seed", "3")
        assert [e.kind for e in load_event(again).entries] == [
            "new",
            "game",
            "game",
            "game",
            "decision",  # one kind of entry for every decision: its kind in the entry
        ]
        assert load_event(again).entries[-1].fields["kind"] == args[0]
        assert next_json(again)["games"] == next_json(db)["games"]
        assert (
            run_json("event", "odds", again, "--json")["win"]
            == run_json("event", "odds", db, "--json")["win"]
        )


def test_the_hall_asks_for_sealed_bids_and_the_cut(tmp_path: Path) -> None:
    db = at_the_decider(tmp_path, "armageddon-vickrey")
    index = Site(load_event(db)).pages()["index.html"]
    assert "sealed bids" in index and "take as Black" in index
    db = at_the_decider(tmp_path, "cut-choose")
    index = Site(load_event(db)).pages()["index.html"]
    assert "cut and choose" in index and f"{WANG} names Red" in index


def test_a_schema_2_file_migrates_and_takes_sealed_bids(tmp_path: Path) -> None:
    db = at_the_decider(tmp_path, "armageddon-vickrey")
    conn = sqlite3.connect(db)
    for verb in ("update", "delete"):
        conn.execute(f"DROP TRIGGER entry_kinds_no_{verb}")
    conn.execute("DELETE FROM entry_kinds WHERE kind IN ('sealed', 'cut')")
    for statement in database._never_changed(("entry_kinds",)):
        conn.execute(statement)
    conn.execute("DROP TRIGGER journal_checksummed")  # schema 2 had no checksums
    for table in ("event", "players", "journal"):
        conn.execute(f"ALTER TABLE {table} DROP COLUMN checksum")
    conn.execute("PRAGMA user_version = 2")
    conn.commit()
    with pytest.raises(sqlite3.IntegrityError, match="not a kind of journal entry"):
        conn.execute(
            "INSERT INTO journal (seq, at, kind, data, command) VALUES (5, 'x', 'sealed', '{}', '')"
        )
    conn.close()
    record_decision(
        Path(db), "R1-M1", sealed_answer(bids=[f"{WANG}=6.5", f"{ZHENG}=8.25"])
    )  # migrates first
    conn = sqlite3.connect(db)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == database.SCHEMA_VERSION == 5
    kinds = dict(conn.execute("SELECT kind, undoable FROM entry_kinds").fetchall())
    assert kinds["sealed"] == kinds["cut"] == kinds["decision"] == 1
    conn.close()
    backup = sqlite3.connect(tmp_path / "armageddon-vickrey.db.schema2.bak")
    assert backup.execute("PRAGMA user_version").fetchone()[0] == 2
    backup.close()
    assert load_event(db).recorded("sealed")["R1-M1"].made.to_fields()["bids"] == {
        WANG: 6.5,
        ZHENG: 8.25,
    }
    ok("undo", db)
    with pytest.raises(EventRefused, match=f"none from {ZHENG}"):
        record_decision(Path(db), "R1-M1", sealed_answer(bids=[f"{WANG}=6.5"]))


def _text(page: str) -> str:
    import html
    import re

    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


@pytest.mark.slow
def test_the_bid_forms_page_prints_sealed_slips_and_the_cut_form(tmp_path: Path) -> None:
    """At a sealed-bid decider the print page holds one slip per player (each writes their
    own bid, the range and the rule's price said); at a cut, one form naming the cutter and
    the chooser; with nothing pending, a blank form of the format's own rule."""
    for preset, where in (
        ("armageddon-vickrey", "the higher bid's"),
        ("armageddon-bid", "its own"),
    ):
        db = at_the_decider(tmp_path, preset)
        page = Site(load_event(db), command_file="cup.db").pages()["bid-forms.html"]
        assert page.count('data-kind="sealed-bid"') == 2
        text = _text(page)
        assert text.count("The minutes I would take as Black") == 2
        assert "(1 to 10)" in text and f"plays Black on {where} time v Red 10 min" in text
        assert WANG in text and ZHENG in text
        assert (
            f"knockout event sealed cup.db R1-M1 --bid {WANG}=MINUTES --bid {ZHENG}=MINUTES" in text
        )
        ok("sealed", db, "R1-M1", "--bid", f"{WANG}=6", "--bid", f"{ZHENG}=7")
        blank = Site(load_event(db)).pages()["bid-forms.html"]
        assert blank.count('data-kind="sealed-bid"') == 2 and "a blank form" in blank
    db = at_the_decider(tmp_path, "cut-choose")
    page = Site(load_event(db), command_file="cup.db").pages()["bid-forms.html"]
    assert page.count('data-kind="cut"') == 1
    text = _text(page)
    cutter_box = text.split("cuts (names Red's minutes)", 1)[1]
    assert cutter_box.lstrip().startswith(WANG)  # less time in the rapid game
    assert cutter_box.split("chooses (picks the colour)", 1)[1].lstrip().startswith(ZHENG)
    assert "(1 to 100; Black has 10 min)" in text
    assert "knockout event cut cup.db R1-M1 --red-minutes M --colour red|black" in text
    assert "--cutter NAME" not in text  # the times name the cutter
    (tmp_path / "lot").mkdir()
    lot = at_the_decider(tmp_path / "lot", "cut-choose", times=False)
    text = _text(Site(load_event(lot)).pages()["bid-forms.html"])
    assert "--cutter NAME" in text and "by the arbiter's lot" in text
