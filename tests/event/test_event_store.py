"""Event mode: the event file, the journal and the rules it enforces (through the Python API)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from event_helpers import (
    ROOT,
    bid_and_play,
    decide,
    level_to_sudden_death,
    new_event,
    result_for,
    snapshot,
    upper,
    write_players,
    write_scenario,
)

from knockout.event import database
from knockout.event.decisions import bid_answer
from knockout.event.errors import EventRefused
from knockout.event.export import to_json
from knockout.event.odds import odds_json
from knockout.event.ranking import standings
from knockout.event.state import NextGame, lot_red, match_id
from knockout.event.store import (
    correct_game,
    create_event,
    journal_head,
    load_event,
    record_decision,
    record_game,
    undo,
    withdraw,
)
from knockout.exact.bracket import bracket_odds
from knockout.io.scenario import load_scenario
from knockout.rules.chain.progress import THIRD_PLACE


def refused(path: Path, call: object, *args: object, match: str, **kwargs: object) -> None:
    """``call`` is refused with a message containing ``match`` and the file is unchanged."""
    before = snapshot(path)
    raw = path.read_bytes()
    with pytest.raises(EventRefused, match=match) as info:
        call(path, *args, **kwargs)  # type: ignore[operator]
    assert len(info.value.lines()) == 1
    assert path.read_bytes() == raw  # the file itself, byte for byte
    assert snapshot(path) == before


def test_new_event_lists_the_first_round(tmp_path: Path) -> None:
    path = new_event(tmp_path)
    event = load_event(path)
    games = event.next_games()
    assert [g.match for g in games] == ["R1-M1", "R1-M2", "R1-M3", "R1-M4"]
    assert [g.board for g in games] == [1, 2, 3, 4]
    assert all(g.number == 1 and g.stage == "slow" and g.clock == (60.0, 60.0) for g in games)
    assert {frozenset((g.red, g.black)) for g in games} == {
        frozenset(p)
        for p in (("Alpha", "Theta"), ("Delta", "Epsilon"), ("Beta", "Eta"), ("Gamma", "Zeta"))
    }
    assert event.federations["Alpha"] == "F0"
    assert not event.finished and event.champion is None
    assert [e.kind for e in event.entries] == ["new"]


def test_colours_by_lot_come_from_the_event_seed(tmp_path: Path) -> None:
    path = new_event(tmp_path, seed=11)
    event = load_event(path)
    for g in event.next_games():
        m = event.find_match(g.match)
        assert m.players is not None
        side = lot_red(11, m.key, 1)
        assert g.red == m.players[side]
    again = load_event(path)
    assert again.next_games() == event.next_games()


def test_match_ids() -> None:
    assert [match_id((1, m), 4) for m in range(3)] == ["R1-M1", "R1-M2", "R1-M3"]
    assert match_id((4, 0), 4) == "R4-M1"
    assert match_id((4, THIRD_PLACE), 4) == "3RD"


def test_record_a_match_to_its_end(tmp_path: Path) -> None:
    path = new_event(tmp_path)
    event = decide(path, "R1-M1")
    m = event.find_match("R1-M1")
    assert m.winner == upper(event, "R1-M1") == "Alpha"
    assert m.decided_in == "slow" and len(m.games) == 2
    second = m.games[1]
    assert (second.red, second.black) == (m.games[0].black, m.games[0].red)  # colours alternate
    assert journal_head(path) == 3


def test_refusals_leave_the_file_unchanged(tmp_path: Path) -> None:
    path = new_event(tmp_path)
    decide(path, "R1-M1")
    g = load_event(path).next_games()[0]
    assert g.match == "R1-M2"
    refused(path, record_game, "R1-M1", 3, "1-0", match="already decided")
    refused(path, record_game, "R1-M2", 2, "1-0", match="out of order")
    refused(path, record_game, "R1-M2", 0, "1-0", match="expected a game number >= 1")
    refused(path, record_game, "R2-M1", 1, "1-0", match="not scheduled yet: .*R1-M2")
    refused(path, record_game, "R7-M1", 1, "1-0", match="expected a match ID")
    refused(path, record_game, "R1-M2", 1, "2-0", match="expected 1-0, 0-1, 1/2")
    refused(path, record_game, "R1-M2", 1, "1-0", time_used=["Nobody=10"], match="Nobody")
    refused(path, record_game, "R1-M2", 1, "1-0", time_used=["Alpha=10"], match="players of")
    refused(
        path,
        record_game,
        "R1-M2",
        1,
        "1-0",
        time_used=[f"{g.red}=4601"],
        moves=100,
        match=r"at most 4600 s",
    )  # 60 min + 10 s x 100 moves
    refused(
        path,
        record_game,
        "R1-M2",
        1,
        "1-0",
        time_used=[f"{g.red}=3700"],
        moves=5,
        match=r"at most 3650 s",
    )
    refused(
        path,
        record_game,
        "R1-M2",
        1,
        "1-0",
        time_used=[f"{g.red}=1", f"{g.red}=2"],
        match="once",
    )
    refused(path, record_game, "R1-M2", 1, "1-0", time_used=["x"], match="NAME=SECONDS")
    refused(
        path,
        record_decision,
        "R1-M2",
        bid_answer(announce="red", reply="accept"),
        match="sudden-death",
    )
    refused(path, withdraw, "Nobody", match="expected a player of this event")
    refused(path, withdraw, "Theta", match="with a match left.*lost R1-M1")
    record_game(path, "R1-M2", 1, "1-0", time_used=[f"{g.red}=4600"], moves=100)
    refused(path, record_game, "R1-M2", 1, "0-1", match="already has a result")


def test_the_default_moves_bound_the_time_used(tmp_path: Path) -> None:
    path = new_event(tmp_path)
    g = load_event(path).next_games()[0]
    limit = 60 * 60 + 10 * 300
    refused(
        path,
        record_game,
        g.match,
        1,
        "1-0",
        time_used=[f"{g.red}={limit + 1}"],
        match=f"at most {limit} s",
    )
    _, event = record_game(path, g.match, 1, "1-0", time_used=[f"{g.black}=1:50:00"])
    assert event.games[0].time_used == {g.black: 6600.0}


def test_sudden_death_bid_from_the_times(tmp_path: Path) -> None:
    path = new_event(tmp_path)
    event = level_to_sudden_death(path, "R1-M1")
    assert event.next_step(event.find_match("R1-M1")) == event.pending_bids()[0]
    pending = event.pending_bids()[0]
    assert (pending.chooser, pending.other) == ("Alpha", "Theta")  # Alpha used less
    assert pending.to_json() == {"match": "R1-M1", "chooser": "Alpha", "bidder": "Theta"}
    assert "R1-M1" not in [g.match for g in event.next_games()]
    refused(path, record_game, "R1-M1", 4, "1-0", match="bid first")
    refused(
        path,
        record_decision,
        "R1-M1",
        bid_answer(announce="red", reply="accept", chooser="Theta"),
        match="expected Alpha or no --chooser",
    )
    refused(
        path,
        record_decision,
        "R1-M1",
        bid_answer(announce="blue", reply="accept"),
        match="red or black",
    )
    refused(
        path,
        record_decision,
        "R1-M1",
        bid_answer(announce="red", reply="maybe"),
        match="accept or object",
    )
    _, event = record_decision(path, "R1-M1", bid_answer(announce="red", reply="object"))
    step = event.next_step(event.find_match("R1-M1"))
    assert isinstance(step, NextGame)
    # 甲 announced Red, 乙 objected: 乙 takes Red with the object_red clocks (10 v 30 minutes).
    assert (step.red, step.black, step.clock, step.stage) == (
        "Theta",
        "Alpha",
        (10.0, 30.0),
        "sudden_death",
    )
    refused(
        path, record_decision, "R1-M1", bid_answer(announce="red", reply="accept"), match="one bid"
    )
    refused(
        path,
        record_game,
        "R1-M1",
        4,
        "1-0",
        time_used=["Theta=1201"],
        moves=0,
        match="expected a whole number from 1 to 1000",
    )
    refused(
        path,
        record_game,
        "R1-M1",
        4,
        "1-0",
        time_used=["Theta=1201"],
        moves=60,
        match="at most 1200 s",
    )
    _, event = record_game(path, "R1-M1", 4, "1/2")  # a drawn sudden death: Black advances
    assert event.find_match("R1-M1").winner == "Alpha"
    assert event.find_match("R1-M1").decided_in == "sudden_death"


def test_sudden_death_without_times_needs_the_arbiters_lot(tmp_path: Path) -> None:
    path = new_event(tmp_path)
    event = level_to_sudden_death(path, "R1-M2", times=False)
    pending = event.pending_bids()[0]
    assert pending.chooser is None and pending.why == "unknown"
    assert pending.to_json()["chooser"] is None
    refused(
        path,
        record_decision,
        "R1-M2",
        bid_answer(announce="black", reply="accept"),
        match="--chooser NAME",
    )
    refused(
        path,
        record_decision,
        "R1-M2",
        bid_answer(announce="black", reply="accept", chooser="Alpha"),
        match="players of R1-M2",
    )
    _, event = record_decision(
        path, "R1-M2", bid_answer(announce="black", reply="accept", chooser="epsilon")
    )
    bid = event.recorded("bid")["R1-M2"]
    assert (bid.chooser, bid.chosen_by, bid.black, bid.clock) == (
        "Epsilon",
        "lot",
        "Epsilon",
        (30.0, 10.0),
    )


def test_equal_times_need_the_lot_too(tmp_path: Path) -> None:
    path = new_event(tmp_path)
    event = load_event(path)
    a, b = event.find_match("R1-M3").players or ("", "")
    for plan in (a, b, None):
        event = load_event(path)
        step = event.next_step(event.find_match("R1-M3"))
        assert isinstance(step, NextGame)
        record_game(
            path, "R1-M3", step.number, result_for(step, plan), time_used=[f"{a}=500", f"{b}=8:20"]
        )
    assert load_event(path).pending_bids()[0].why == "tie"


def test_withdrawal_mid_match_and_later_matches(tmp_path: Path) -> None:
    path = new_event(tmp_path)
    event = load_event(path)
    g = next(x for x in event.next_games() if x.match == "R1-M2")
    record_game(path, "R1-M2", 1, result_for(g, "Delta"))
    _, event = withdraw(path, "Delta")  # leading after game 1, withdraws: loses by walkover
    m = event.find_match("R1-M2")
    assert m.winner == "Epsilon" and m.walkover and len(m.games) == 1
    refused(path, withdraw, "Delta", match="already withdrew")
    refused(path, record_game, "R1-M2", 2, "1-0", match="walkover")
    decide(path, "R1-M1")
    event = load_event(path)
    assert event.find_match("R2-M1").players == ("Alpha", "Epsilon")
    _, event = withdraw(path, "Alpha")  # waiting for the opponent counts as the current match
    assert event.find_match("R2-M1").winner == "Epsilon"


def test_both_withdrawn_the_better_seed_goes_through(tmp_path: Path) -> None:
    path = new_event(tmp_path)
    withdraw(path, "Alpha")
    _, event = withdraw(path, "Theta")
    m = event.find_match("R1-M1")
    assert m.winner == "Alpha" and m.walkover
    decide(path, "R1-M2")
    event = load_event(path)
    # Alpha (withdrawn) then loses R2-M1 by walkover.
    assert event.find_match("R2-M1").winner != "Alpha"


def test_undo_is_lifo_and_journaled(tmp_path: Path) -> None:
    path = new_event(tmp_path)
    decide(path, "R1-M1")
    withdraw(path, "Zeta")
    event = load_event(path)
    assert event.last_undoable() is not None and event.last_undoable().kind == "withdraw"  # type: ignore[union-attr]
    entry, event = undo(path)
    assert entry.kind == "undo" and entry.undoes == 4
    assert "Zeta" not in event.withdrawn
    entry, event = undo(path)
    assert entry.undoes == 3  # the second game of R1-M1
    assert event.find_match("R1-M1").winner is None and len(event.games) == 1
    entry, event = undo(path)
    assert event.games == () and event.undone == {4: 5, 3: 6, 2: 7}
    refused(path, undo, match="nothing|found none")
    assert [e.kind for e in event.entries] == ["new", "game", "game", "withdraw"] + ["undo"] * 3


def test_undo_restores_boards(tmp_path: Path) -> None:
    path = new_event(tmp_path)
    before = {g.match: g.board for g in load_event(path).next_games()}
    decide(path, "R1-M1")
    decide(path, "R1-M2")
    event = load_event(path)
    assert event.find_match("R2-M1").board == 1  # the first free board
    assert {g.match: g.board for g in event.next_games() if g.match != "R2-M1"} == {
        k: v for k, v in before.items() if k in ("R1-M3", "R1-M4")
    }
    undo(path)
    _, event = undo(path)
    assert {g.match: g.board for g in event.next_games()}["R1-M2"] == before["R1-M2"]


def test_boards_are_kept_while_a_match_is_playable(tmp_path: Path) -> None:
    path = new_event(tmp_path, 16)  # 8 first-round matches on 4 boards
    event = load_event(path)
    boards = {g.match: g.board for g in event.next_games()}
    assert boards == {f"R1-M{i}": (i if i <= 4 else None) for i in range(1, 9)}
    event = decide(path, "R1-M3")
    boards = {g.match: g.board for g in event.next_games()}
    assert boards["R1-M5"] == 3 and boards["R1-M4"] == 4 and boards["R1-M6"] is None
    event = decide(path, "R1-M1")
    assert {g.match: g.board for g in event.next_games()}["R1-M6"] == 1


def test_journal_is_append_only(tmp_path: Path) -> None:
    path = new_event(tmp_path)
    decide(path, "R1-M1")
    conn = sqlite3.connect(path)
    try:
        for sql in (
            "UPDATE journal SET data = '{}' WHERE seq = 2",
            "DELETE FROM journal WHERE seq = 3",
            "UPDATE event SET seed = 1",
            "DELETE FROM players",
            "INSERT INTO journal (seq, at, kind, data, command) VALUES (9, 'x', 'game', '{}', '')",
            "INSERT INTO journal (seq, at, kind, data, command, undoes) "
            "VALUES (4, 'x', 'undo', '{}', '', 1)",
        ):
            with pytest.raises(sqlite3.DatabaseError):
                conn.execute(sql)
        with pytest.raises(sqlite3.IntegrityError, match="checksum"):  # every entry has one
            conn.execute(
                "INSERT INTO journal (seq, at, kind, data, command, undoes) "
                "VALUES (4, 'x', 'undo', '{}', '', 3)"
            )
        conn.execute(
            "INSERT INTO journal (seq, at, kind, data, command, undoes, checksum) "
            "VALUES (4, 'x', 'undo', '{}', '', 3, '0')"
        )
        conn.execute(  # an undo of an undo (restoring what it took back)
            "INSERT INTO journal (seq, at, kind, data, command, undoes, checksum) "
            "VALUES (5, 'x', 'undo', '{}', '', 4, '0')"
        )
        conn.rollback()
    finally:
        conn.close()
    assert journal_head(path) == 3


def test_files_that_are_not_events_are_refused(tmp_path: Path) -> None:
    text = tmp_path / "notes.db"
    text.write_text("name,rating\n")
    empty = tmp_path / "empty.db"
    empty.write_bytes(b"")
    other = tmp_path / "other.db"
    conn = sqlite3.connect(other)
    conn.execute("CREATE TABLE t (x)")
    conn.commit()
    conn.close()
    cases = {
        tmp_path / "missing.db": "no such event file",
        tmp_path: "is a folder",
        text: "expected an SQLite database",
        empty: "found an empty file",
        other: "found another database",
    }
    for path, message in cases.items():
        with pytest.raises(EventRefused, match=message):
            load_event(path)
    assert not (tmp_path / "missing.db").exists()  # opening never creates a file
    assert empty.read_bytes() == b""


def test_a_newer_schema_is_refused(tmp_path: Path) -> None:
    path = new_event(tmp_path)
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {database.SCHEMA_VERSION + 1}")
    conn.commit()
    conn.close()
    with pytest.raises(
        EventRefused, match=f"newer knockout: event schema {database.SCHEMA_VERSION + 1}"
    ):
        load_event(path)


def test_an_older_schema_is_migrated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = new_event(tmp_path)
    decide(path, "R1-M1")
    before = snapshot(path)
    now = database.SCHEMA_VERSION
    monkeypatch.setattr(database, "SCHEMA_VERSION", now + 1)
    monkeypatch.setattr(
        database, "MIGRATIONS", {now: ("ALTER TABLE players ADD COLUMN club TEXT",)}
    )
    event = load_event(path)  # migrates
    assert len(event.games) == 2
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == now + 1
    assert "club" in [r[1] for r in conn.execute("PRAGMA table_info(players)")]
    conn.close()
    backup = tmp_path / f"cup.db.schema{now}.bak"
    assert backup.exists()
    assert snapshot(path) == before
    monkeypatch.undo()
    with pytest.raises(EventRefused, match="newer knockout"):
        load_event(path)
    backup.replace(path)  # the copy is a complete event file of the old schema
    assert load_event(path).games == event.games


def test_a_failed_migration_changes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = new_event(tmp_path)
    now = database.SCHEMA_VERSION
    monkeypatch.setattr(database, "SCHEMA_VERSION", now + 2)
    monkeypatch.setattr(
        database,
        "MIGRATIONS",
        {now: ("ALTER TABLE players ADD COLUMN club TEXT",), now + 1: ("THIS IS NOT SQL",)},
    )
    with pytest.raises(EventRefused, match=r"could not be used, nothing changed: .*syntax error"):
        load_event(path)
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == now
    assert "club" not in [r[1] for r in conn.execute("PRAGMA table_info(players)")]
    conn.close()


def test_new_refuses_an_existing_file_and_bad_input(tmp_path: Path) -> None:
    path = new_event(tmp_path)
    before = path.read_bytes()
    with pytest.raises(EventRefused, match="already exists"):
        create_event(path, write_scenario(tmp_path), players_path=write_players(tmp_path))
    assert path.read_bytes() == before
    with pytest.raises(EventRefused, match="expected \\[\\[players\\]\\]"):
        create_event(tmp_path / "b.db", write_scenario(tmp_path))
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "cup.db",
        "players.csv",
        "rules.toml",
    ]


def test_new_from_a_scenario_in_progress_imports_its_games(tmp_path: Path) -> None:
    path = tmp_path / "open.db"
    scenario = ROOT / "scenarios" / "open-12-in-progress.toml"
    event = create_event(path, scenario, seed=3)
    assert [e.kind for e in event.entries] == ["new"] + ["game"] * 5 + ["withdraw"]
    assert event.withdrawn == ("冯涛",)
    assert event.scenario.to_dict() == load_scenario(scenario).to_dict()
    assert odds_json(event)["win"] == bracket_odds(load_scenario(scenario)).to_json()["win"]
    (pending,) = event.pending_bids()
    assert pending.chooser == "孙丽"  # used 480 s in the rapid game, He Qing 510 s


def test_random_draw_records_its_seed(tmp_path: Path) -> None:
    path = tmp_path / "r.db"
    scenario = write_scenario(tmp_path, extra="[ranking]\nlots = true\n")
    text = scenario.read_text().replace("[bracket]\n", '[bracket]\nseeding = "random"\n')
    scenario.write_text(text)
    event = create_event(path, scenario, players_path=write_players(tmp_path), seed=99)
    assert event.scenario.bracket.draw_seed == 99
    assert event.entries[0].fields["draw_seed"] == 99


def test_two_player_event(tmp_path: Path) -> None:
    path = new_event(tmp_path, 2, third_place=False)  # two players have no semi-finals
    event = load_event(path)
    assert [m.id for m in event.matches] == ["R1-M1"]
    assert odds_json(event)["win"] is not None
    _, event = record_game(path, "R1-M1", 1, "1-0")
    event = decide(path, "R1-M1") if event.find_match("R1-M1").winner is None else event
    assert event.finished and event.champion in ("Alpha", "Beta")
    assert [s.rank for s in standings(event)] == [1, 2]


def test_full_event_with_third_place(tmp_path: Path) -> None:
    path = new_event(tmp_path)
    for m in ("R1-M1", "R1-M2", "R1-M3", "R1-M4", "R2-M1", "R2-M2"):
        decide(path, m)
    event = load_event(path)
    third = event.third_place
    assert third is not None and third.players is not None
    assert {g.match for g in event.next_games()} == {"R3-M1", "3RD"}
    level_to_sudden_death(path, "3RD")
    event = bid_and_play(path, "3RD")
    assert event.third_place is not None and event.third_place.winner is not None
    assert not event.finished
    event = decide(path, "R3-M1")
    assert event.finished and event.champion == "Alpha"
    ranking = standings(event)
    assert [s.reached for s in ranking][:4] == ["champion", "final", "third place", "fourth place"]
    assert [r["name"] for r in to_json(event)["ranking"]] == [s.name for s in ranking]
    refused(path, withdraw, "Alpha", match="with a match left")
    refused(path, record_game, "R3-M1", 3, "1-0", match="already decided")


SCHEMA_1 = (
    """CREATE TABLE event (id INTEGER PRIMARY KEY CHECK (id = 1), name TEXT NOT NULL,
        scenario TEXT NOT NULL, seed INTEGER NOT NULL, created TEXT NOT NULL,
        knockout_version TEXT NOT NULL)""",
    """CREATE TABLE players (position INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE,
        federation TEXT)""",
    """CREATE TABLE journal (seq INTEGER PRIMARY KEY CHECK (seq >= 1), at TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('new', 'game', 'bid', 'withdraw', 'undo')),
        match TEXT, game INTEGER, player TEXT, data TEXT NOT NULL, command TEXT NOT NULL,
        undoes INTEGER UNIQUE REFERENCES journal (seq),
        CHECK ((kind = 'undo') = (undoes IS NOT NULL)))""",
    """CREATE TRIGGER journal_in_order BEFORE INSERT ON journal
        WHEN NEW.seq != (SELECT COALESCE(MAX(seq), 0) + 1 FROM journal)
        BEGIN SELECT RAISE(ABORT, 'journal entries are appended in order'); END""",
    """CREATE TRIGGER journal_undo_target BEFORE INSERT ON journal
        WHEN NEW.kind = 'undo' AND NOT EXISTS (
            SELECT 1 FROM journal WHERE seq = NEW.undoes AND kind IN ('game', 'bid', 'withdraw'))
        BEGIN SELECT RAISE(ABORT, 'an undo reverses a game, a bid or a withdrawal'); END""",
    *(
        f"CREATE TRIGGER {t}_no_{v} BEFORE {v.upper()} ON {t} "
        f"BEGIN SELECT RAISE(ABORT, '{t} rows are never changed'); END"
        for t in ("journal", "event", "players")
        for v in ("update", "delete")
    ),
)


def test_a_schema_1_file_is_upgraded_and_takes_corrections(tmp_path: Path) -> None:
    source = new_event(tmp_path)
    decide(source, "R1-M1")
    undo(source)
    record_game(source, "R1-M1", 2, "0-1")
    before = snapshot(source)
    old = tmp_path / "old.db"
    src = sqlite3.connect(source)
    conn = sqlite3.connect(old)
    conn.execute(f"PRAGMA application_id = {database.APPLICATION_ID}")
    conn.execute("PRAGMA user_version = 1")
    for statement in SCHEMA_1:
        conn.execute(statement)
    columns = {  # schema 1's: no checksums
        "event": "id, name, scenario, seed, created, knockout_version",
        "players": "position, name, federation",
        "journal": "seq, at, kind, match, game, player, data, command, undoes",
    }
    for table, cols in columns.items():
        rows = src.execute(f"SELECT {cols} FROM {table}").fetchall()
        marks = ", ".join("?" * len(rows[0]))
        conn.executemany(f"INSERT INTO {table} VALUES ({marks})", rows)
    conn.commit()
    conn.close()
    src.close()
    journal = sqlite3.connect(old).execute("SELECT * FROM journal").fetchall()
    assert load_event(old).games == load_event(source).games
    backup = sqlite3.connect(tmp_path / "old.db.schema1.bak")
    assert backup.execute("PRAGMA user_version").fetchone()[0] == 1  # the file as it was
    assert backup.execute("SELECT * FROM journal").fetchall() == journal
    backup.close()
    conn = sqlite3.connect(old)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == database.SCHEMA_VERSION
    assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    conn.close()
    assert snapshot(old)[:2] == before[:2]  # the scenario export names its file
    entries, event = correct_game(old, "R1-M1", 2, "1/2")
    assert [e.kind for e in entries] == ["correct"] and event.find_match("R1-M1").winner
    with pytest.raises(sqlite3.DatabaseError, match="never changed"):
        sqlite3.connect(old).execute("DELETE FROM journal WHERE seq = 2")
