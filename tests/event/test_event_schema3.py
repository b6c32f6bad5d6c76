"""Event files of the older schema (3) still open, read and migrate.

The four files in fixtures/schema3 were written by knockout before the one decision path
(commit 7c34188), through its own commands: each kind of decision was then its own kind of
journal entry (``bid``, ``choice``, ``sealed``, ``cut``; a bid without its game's number or
stage). Players A (2560) and B (2500), seed 7; every game before the decision drawn, A using
1500 s where it could. xq-bidding: B (less time) bid black, A objected; the bid undone and
recorded again; the sudden-death game then won by Black. official-1: B (the arbiter's lot)
chose black. armageddon-vickrey: equal bids of 7 min, B Black by lot; the game won by Black.
cut-choose: B (less time) cut Red 12.625 min, A took red.
"""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from knockout.event.database import SCHEMA_VERSION
from knockout.event.decisions import choice_answer, cut_answer
from knockout.event.entries import describe
from knockout.event.odds import event_odds
from knockout.event.state import NextGame, PendingDecision
from knockout.event.store import load_event, record_decision, undo
from knockout.game import Colour, Reply
from knockout.rules.decisions.made import MadeBid, MadeChoice, MadeCut, MadeSealed

FIXTURES = Path(__file__).parent / "fixtures" / "schema3"

#: Each file's decision, the colours and clocks it gave, and its line in the journal.
EXPECTED = {
    "xq-bidding": (
        MadeBid("B", Colour.BLACK, Reply.OBJECT),
        4,
        ("B", "A", (35.0, 5.0)),
        "R1-M1 bid: 甲 B announces black, 乙 A objects: B Red 35 min v A Black 5 min",
    ),
    "official-1": (
        MadeChoice("B", Colour.BLACK),
        3,
        ("A", "B", (6.0, 4.0)),
        "R1-M1 game 3 colour choice: B chooses black: A Red 6 min v B Black 4 min (chooser by "
        "the arbiter's lot)",
    ),
    "armageddon-vickrey": (
        MadeSealed({"A": 7.0, "B": 7.0}, "B"),
        4,
        ("A", "B", (10.0, 7.0)),
        "R1-M1 game 4 sealed bids (second price): bids A 7 min, B 7 min (equal bids: B Black by "
        "lot): B Black 7 min v A Red 10 min",
    ),
    "cut-choose": (
        MadeCut("B", 12.625, Colour.RED),
        4,
        ("A", "B", (12.625, 10.0)),
        "R1-M1 game 4 cut: B cuts Red 12.625 min v Black 10 min; A chooses red: A Red 12.625 min "
        "v B Black 10 min",
    ),
}


def _copy(preset: str, tmp_path: Path) -> Path:
    db = tmp_path / f"{preset}.db"
    shutil.copyfile(FIXTURES / f"{preset}.db", db)
    return db


def _version(db: Path) -> int:
    conn = sqlite3.connect(db)
    try:
        return int(conn.execute("PRAGMA user_version").fetchone()[0])
    finally:
        conn.close()


@pytest.mark.parametrize("preset", sorted(EXPECTED))
def test_a_schema_3_file_reads_its_decisions_as_one_kind(preset: str, tmp_path: Path) -> None:
    db = _copy(preset, tmp_path)
    assert _version(db) == 3
    made, number, (red, black, clock), line = EXPECTED[preset]
    event = load_event(db)
    recorded = event.decisions[("R1-M1", number)]
    assert (recorded.made, recorded.red, recorded.black, recorded.clock) == (
        made,
        red,
        black,
        clock,
    )
    entry = next(e for e in event.entries if e.seq == recorded.seq)
    assert entry.kind == "decision" and entry.fields["kind"] == made.kind
    entries = {e.seq: e for e in event.entries}
    assert describe(entry, entries) == line
    step = event.next_step(event.find_match("R1-M1"))
    m = event.find_match("R1-M1")
    if len(m.games) >= number:  # the game it set up was played (and decided the match)
        assert m.winner is not None and (m.games[-1].red, m.games[-1].black) == (red, black)
    else:
        assert isinstance(step, NextGame) and (step.red, step.black, step.clock) == (
            red,
            black,
            clock,
        )
        assert step.colours == made.kind
    assert sum(event_odds(event).win.values()) == pytest.approx(1.0)


@pytest.mark.parametrize(
    ("preset", "answer"),
    [
        ("official-1", choice_answer("black", chooser="B")),
        ("cut-choose", cut_answer("12.625", "red")),
    ],
)
def test_an_old_decision_is_undone_and_recorded_again_the_new_way(
    preset: str, answer: object, tmp_path: Path
) -> None:
    db = _copy(preset, tmp_path)
    before = load_event(db)
    old = before.next_step(before.find_match("R1-M1"))
    undo(db, command="test")  # the old row can be undone (the file migrates first)
    assert _version(db) == SCHEMA_VERSION
    assert (tmp_path / f"{preset}.db.schema3.bak").exists()
    pending = load_event(db).next_step(load_event(db).find_match("R1-M1"))
    assert isinstance(pending, PendingDecision)
    entry, after = record_decision(db, "R1-M1", answer)  # type: ignore[arg-type]
    assert entry.kind == "decision"
    assert after.next_step(after.find_match("R1-M1")) == old
    legacy = sqlite3.connect(db)
    kinds = [k for (k,) in legacy.execute("SELECT kind FROM journal ORDER BY seq")]
    legacy.close()
    assert kinds[-3:] == [EXPECTED[preset][0].kind, "undo", "decision"]
