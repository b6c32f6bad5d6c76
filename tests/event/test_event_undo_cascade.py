"""One ``undo`` after ``correct --cascade`` takes back the whole change: the correction and the
cascade's undos, so the entries the cascade took back (a game, a sudden-death bid and its
result, a later round's game) are in force again, and every view is as before the correction."""

from __future__ import annotations

from pathlib import Path

from event_helpers import bid_and_play, decide, level_to_sudden_death, new_event, snapshot
from typer.testing import CliRunner

from knockout.cli import app
from knockout.event.journal import Entry, undone_by
from knockout.event.state import NextGame
from knockout.event.store import correct_game, load_event, record_game, undo, undo_entries


def _views(path: Path) -> tuple[object, ...]:
    """Everything the event gives out (the exports, the next games and decisions, boards)."""
    event = load_event(path)
    steps = [(type(s).__name__, s.match, s.number) for s in event.steps()]
    boards = {m.id: m.board for m in event.matches}
    as_json, as_csv, as_toml, _count = snapshot(path)
    rules = [x for x in as_toml.splitlines() if not x.startswith("#")]  # not the entry count
    return (as_json, as_csv, rules, steps, boards, [g.seq for g in event.games])


def _cascaded(tmp_path: Path) -> tuple[Path, tuple[object, ...], int]:
    """R1-M1 decided; R1-M2 level after three games, its bid and sudden-death game played;
    R2-M1's first game played. Returns the file, its views, and its journal's length."""
    db = new_event(tmp_path)
    decide(db, "R1-M1")
    level_to_sudden_death(db, "R1-M2")
    bid_and_play(db, "R1-M2", "red")
    event = load_event(db)
    step = event.next_step(event.find_match("R2-M1"))
    assert isinstance(step, NextGame)
    record_game(db, "R2-M1", step.number, "1-0")
    event = load_event(db)
    return db, _views(db), len(event.entries)


def _other_wins_game_1(db: Path) -> str:
    """The result that gives R1-M2's first game to the player who lost it: then that player
    leads 2-0 and wins the match, so the rapid game, the bid, the sudden-death game and the
    game of round 2 (whose player changes) no longer fit."""
    g1 = load_event(db).find_match("R1-M2").games[0]
    return "0-1" if g1.result.value == "red" else "1-0"


def test_one_undo_restores_the_state_before_a_cascaded_correction(tmp_path: Path) -> None:
    db, before, n = _cascaded(tmp_path)
    winner = _other_wins_game_1(db)
    written, after = correct_game(db, "R1-M2", 1, winner, cascade=True)
    undone = [e.undoes for e in written if e.kind == "undo"]
    kinds = {e.seq: e.kind for e in after.entries}
    # the rapid game, the bid, the sudden-death game and R2-M1's game: four entries taken back
    assert sorted(kinds[u] for u in undone if u is not None) == [
        "decision",
        "game",
        "game",
        "game",
    ]
    assert after.find_match("R2-M1").games == () and after.find_match("R1-M2").winner
    assert _views(db) != before
    entries, event = undo_entries(db)
    # one undo: the correction, then each of the cascade's undos (the earliest entry first)
    assert [e.undoes for e in entries] == [written[-1].seq, *[e.seq for e in written[-2::-1]]]
    assert _views(db) == before
    assert set(undone_by(event.entries)) == {written[-1].seq, *(e.seq for e in written[:-1])}
    assert len(event.entries) == n + 2 * len(written)
    # and it can all be done again, and undone entry by entry as before
    correct_game(db, "R1-M2", 1, winner, cascade=True)
    undo(db)
    assert _views(db) == before
    r2 = load_event(db).find_match("R2-M1").games[0].seq
    assert undo(db)[0].undoes == r2  # the restored game is the last entry in force again
    assert load_event(db).find_match("R2-M1").games == ()


def test_the_undo_says_and_the_log_shows_what_came_back(tmp_path: Path) -> None:
    db, before, _n = _cascaded(tmp_path)
    runner = CliRunner()
    result = _other_wins_game_1(db)
    fixed = runner.invoke(app, ["event", "correct", str(db), "R1-M2", "1", result, "--cascade"])
    assert fixed.exit_code == 0, fixed.output
    log = runner.invoke(app, ["event", "log", str(db)], env={"COLUMNS": "200"})
    assert "<- undo (with #" in log.stdout
    said = runner.invoke(app, ["event", "undo", str(db)])
    assert said.exit_code == 0, said.output
    lines = said.stdout.splitlines()
    assert lines[0].startswith("Undoing #") and "correction of" in lines[0]
    restoring = [x for x in lines if x.startswith("Restoring #")]
    restored = [x for x in lines if x.startswith("Restored #")]
    assert len(restoring) == len(restored) == 4
    assert any("R2-M1 game 1" in x for x in restored)
    assert any("R1-M2 bid" in x for x in restored)
    assert _views(db) == before
    log = runner.invoke(app, ["event", "log", str(db)], env={"COLUMNS": "200"})
    assert log.stdout.count("restoring #") == 4
    event = load_event(db)
    by_seq: dict[int, Entry] = {e.seq: e for e in event.entries}
    assert all(by_seq[e.undoes].kind == "undo" for e in event.entries[-4:] if e.undoes)


def test_undo_of_the_match_also_restores_the_cascade(tmp_path: Path) -> None:
    """``undo --match`` of the corrected match, when the correction is its last entry, takes
    back the whole change too."""
    db, before, _n = _cascaded(tmp_path)
    correct_game(db, "R1-M2", 1, _other_wins_game_1(db), cascade=True)
    entries, _event = undo_entries(db, match="R1-M2")
    assert len(entries) == 5
    assert _views(db) == before
