"""A damaged byte is found, and the rescue works.

One event holds every kind of journal entry (new, replace, amend, game, decision, correct, undo,
withdraw). Each damage changes bytes in the event file itself (the way a failing disk would,
same length, so SQLite's own checks pass): a key renamed (``"result"`` become ``"xesult"``), the
data's ``{`` become ``[``, a value changed, and a game's clock or stage changed; and the
event row's scenario and a player's row. Every reading command then refuses the file in one
line naming the entry and ``check --salvage``, exit 2, and ``check --salvage`` keeps every entry
that does not depend on the damaged one, its carry-on command carrying the event's seed.
"""

from __future__ import annotations

import json
import re
import shutil
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest
from event_helpers import bid_and_play, decide, level_to_sudden_death, new_event
from typer.testing import CliRunner, Result

from knockout.cli import app
from knockout.event.database import file_health
from knockout.event.store import (
    amend_player,
    correct_game,
    load_event,
    record_game,
    replace_player,
    salvage,
    undo,
    withdraw,
)

runner = CliRunner()


def run(*args: str) -> Result:
    return runner.invoke(app, ["event", *args])


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An event with every kind of entry, each once at least."""
    folder = tmp_path_factory.mktemp("template")
    db = new_event(folder)
    replace_player(db, "Theta", "Rho", ratings={"rating": "2200"})  # R1-M1's lower player
    amend_player(db, "Gamma", federation="F9")
    decide(db, "R1-M1")
    level_to_sudden_death(db, "R1-M2")
    bid_and_play(db, "R1-M2", "red")
    record_game(db, "R1-M3", 1, "1-0")
    correct_game(db, "R1-M3", 1, "0-1")
    record_game(db, "R1-M4", 1, "1-0")
    undo(db)
    m4 = load_event(db).find_match("R1-M4")
    assert m4.players is not None
    withdraw(db, m4.players[1])
    assert not Path(f"{db}-wal").exists() or Path(f"{db}-wal").stat().st_size == 0
    return db


def _rows(db: Path) -> dict[int, tuple[str, str | None, str]]:
    """Entry number -> (kind, match, data as stored)."""
    conn = sqlite3.connect(db)
    try:
        return {
            int(seq): (kind, match, data)
            for seq, kind, match, data in conn.execute(
                "SELECT seq, kind, match, data FROM journal ORDER BY seq"
            )
        }
    finally:
        conn.close()


def _first_of_each_kind(db: Path) -> dict[str, int]:
    out: dict[str, int] = {}
    for seq, (kind, _match, _data) in _rows(db).items():
        out.setdefault(kind, seq)
    return out


def flip(db: Path, blob: str, old: str, new: str) -> None:
    """Change ``old`` to ``new`` (same length in bytes) inside ``blob`` (text stored once in
    the file), in the file's bytes."""
    raw = Path(db).read_bytes()
    found = blob.encode("utf-8")
    assert raw.count(found) == 1, "the row's text is not in the file once"
    changed = found.replace(old.encode("utf-8"), new.encode("utf-8"), 1)
    assert changed != found and len(changed) == len(found)
    Path(db).write_bytes(raw.replace(found, changed))


def _key(data: str) -> tuple[str, str]:
    if '"result"' in data:
        return '"result"', '"xesult"'
    first = re.match(r'\{"(\w)', data)
    assert first is not None
    return f'{{"{first[1]}', '{"x' if first[1] != "x" else '{"y'


def _value(data: str) -> tuple[str, str]:
    """The last digit of the data, changed."""
    at = max(i for i, ch in enumerate(data) if ch.isdigit())
    start = max(0, at - 12)
    digit = str((int(data[at]) + 1) % 10)
    return data[start : at + 1], data[start:at] + digit


def _clock(data: str) -> tuple[str, str]:
    clock = json.loads(data)["clock"]
    text = f'"clock": [{json.dumps(clock[0])}'
    assert text in data
    return text, f'"clock": [{json.dumps(clock[0] + 11.0)}'[: len(text)]


def _stage(data: str) -> tuple[str, str]:
    stage = json.loads(data)["stage"]
    return f'"stage": "{stage}"', f'"stage": "{stage[:-1]}x"'


DAMAGES: dict[str, Callable[[str], tuple[str, str]]] = {
    "key": _key,
    "brace": lambda data: ("{", "["),
    "value": _value,
}
KINDS = ("new", "replace", "amend", "game", "decision", "correct", "undo", "withdraw")
CASES = [(kind, how) for kind in KINDS for how in DAMAGES] + [
    (kind, how) for kind in ("game", "decision", "correct") for how in ("clock", "stage")
]


def _damaged(template: Path, tmp_path: Path, kind: str, how: str) -> tuple[Path, int, str | None]:
    db = tmp_path / "cup.db"
    shutil.copyfile(template, db)
    seq = _first_of_each_kind(db)[kind]
    _kind, match, data = _rows(db)[seq]
    make = {**DAMAGES, "clock": _clock, "stage": _stage}[how]
    old, new = make(data)
    flip(db, data, old, new)
    return db, seq, match


#: Every command that reads the event file, with arguments that would be accepted.
READERS: list[tuple[str, ...]] = [
    ("next",),
    ("show",),
    ("log",),
    ("odds",),
    ("export",),
    ("export", "--format", "scenario"),
    ("record", "R1-M5", "1", "1-0"),
    ("undo",),
    ("withdraw", "Alpha"),
    ("check",),
]


def _one_line(result: Result) -> str:
    assert result.exit_code == 2, (result.exit_code, result.output)
    assert "Traceback" not in result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), lines
    return lines[0]


@pytest.mark.parametrize(("kind", "how"), CASES)
def test_a_damaged_entry_is_found(template: Path, tmp_path: Path, kind: str, how: str) -> None:
    db, seq, match = _damaged(template, tmp_path, kind, how)
    where = f"journal entry #{seq}" + (f" ({match})" if match else f" ({kind})")
    line = _one_line(run("next", str(db)))
    assert where in line and f"knockout event check {db} --salvage" in line, line
    assert [d.seq for d in file_health(db).damaged] == [seq]


@pytest.mark.slow
@pytest.mark.parametrize(("kind", "how"), CASES)
def test_every_reading_command_refuses_a_damaged_entry_in_one_line(
    template: Path, tmp_path: Path, kind: str, how: str
) -> None:
    db, seq, match = _damaged(template, tmp_path, kind, how)
    raw = db.read_bytes()
    where = f"journal entry #{seq}" + (f" ({match})" if match else f" ({kind})")
    for args in [*READERS, ("publish", "--out", str(tmp_path / "site"))]:
        line = _one_line(run(args[0], str(db), *args[1:]))
        assert where in line, (args, line)
        assert f"knockout event check {db} --salvage" in line, (args, line)
    assert db.read_bytes() == raw  # nothing written
    assert not (tmp_path / "site").exists()


@pytest.mark.slow
@pytest.mark.parametrize("how", ["key", "brace", "value"])
def test_a_damaged_event_row_is_refused(template: Path, tmp_path: Path, how: str) -> None:
    db = tmp_path / "cup.db"
    shutil.copyfile(template, db)
    conn = sqlite3.connect(db)
    scenario = conn.execute("SELECT scenario FROM event").fetchone()[0]
    conn.close()
    old, new = {
        "key": ('"format"', '"xormat"'),
        "brace": ("{", "["),
        "value": ('"name": "Test cup"', '"name": "Xest cup"'),
    }[how]
    flip(db, scenario, old, new)
    for args in READERS:
        line = _one_line(run(args[0], str(db), *args[1:]))
        assert "the event row (name, scenario, seed)" in line and "--salvage" in line


def test_a_damaged_player_row_is_refused(template: Path, tmp_path: Path) -> None:
    db = tmp_path / "cup.db"
    shutil.copyfile(template, db)
    conn = sqlite3.connect(db)
    conn.execute("DROP TRIGGER players_no_update")
    conn.execute("UPDATE players SET federation = 'F7' WHERE name = 'Beta'")
    conn.commit()
    conn.close()
    line = _one_line(run("next", str(db)))
    assert "player #2 of the entry list" in line


def _legacy(db: Path, seq: int, data: str) -> None:
    """Entry ``seq`` as a file of schema 4 held it (no checksum), with ``data``."""
    conn = sqlite3.connect(db)
    conn.execute("DROP TRIGGER journal_no_update")
    conn.execute("UPDATE journal SET data = ?, checksum = NULL WHERE seq = ?", (data, seq))
    conn.commit()
    conn.close()


@pytest.mark.parametrize(
    ("how", "says"),
    [
        ("clock", "clock: expected the clocks of the slow stage (60 and 60 min), found [71.0"),
        (
            "stage",
            "stage: expected a stage of the format (slow, rapid, sudden_death), found 'slox'",
        ),
    ],
)
def test_a_clock_or_stage_the_format_cannot_have_is_reported_without_a_checksum(
    template: Path, tmp_path: Path, how: str, says: str
) -> None:
    """An entry written before checksums (schema 4) is still read against its schema."""
    db = tmp_path / "cup.db"
    shutil.copyfile(template, db)
    seq = _first_of_each_kind(db)["game"]
    data = _rows(db)[seq][2]
    old, new = (_clock if how == "clock" else _stage)(data)
    _legacy(db, seq, data.replace(old, new, 1))
    line = _one_line(run("check", str(db)))
    assert f"journal entry #{seq} (R1-M1): {says}" in line, line
    # the same entry unchanged, without its checksum: sound, and check says how it was read
    shutil.copyfile(template, db)
    _legacy(db, seq, data)
    said = run("check", str(db))
    assert said.exit_code == 0, said.output
    assert "1 entry written before checksums (schema 5) is checked against its schema only" in (
        said.stdout
    )


def test_salvage_keeps_what_does_not_depend_on_the_damage(template: Path, tmp_path: Path) -> None:
    """A game of R1-M1 damaged: the later entries of R1-M1 and of the matches it feeds (R2-M1,
    the final, third place) are left out; every entry of R1-M2, R1-M3 and R1-M4 after it is
    kept (before, everything after the first damaged entry was dropped)."""
    db = tmp_path / "cup.db"
    shutil.copyfile(template, db)
    rows = _rows(db)
    first = next(s for s, (k, m, _d) in rows.items() if k == "game" and m == "R1-M1")
    data = rows[first][2]
    flip(db, data, *_key(data))
    rescue = salvage(db)
    r1m1 = [s for s, (_k, m, _d) in rows.items() if m == "R1-M1" and s > first]
    assert [d.seq for d in rescue.damaged] == [first]
    assert rescue.left_out == tuple(r1m1)
    kept = {e.seq for e in rescue.event.entries}
    assert kept == set(rows) - {first, *r1m1}
    assert any(m == "R1-M4" for s, (_k, m, _d) in rows.items() if s in kept)
    out = tmp_path / "rescue.toml"
    said = run("check", str(db), "--salvage", str(out))
    assert said.exit_code == 2
    seed = load_event(template).seed
    assert f"knockout event new NEW.db --scenario {out} --seed {seed}" in said.stdout
    again = tmp_path / "again.db"
    made = run("new", str(again), "--scenario", str(out), "--seed", str(seed))
    assert made.exit_code == 0, made.output
    original, carried = load_event(template), load_event(again)
    assert carried.seed == seed
    for mid in ("R1-M2", "R1-M3", "R1-M4"):
        assert [(g.red, g.black, g.result) for g in carried.find_match(mid).games] == [
            (g.red, g.black, g.result) for g in original.find_match(mid).games
        ]
    # R1-M1 starts again: its first game has the colours the event's seed drew
    step = carried.next_step(carried.find_match("R1-M1"))
    game1 = original.find_match("R1-M1").games[0]
    assert step is not None and (step.red, step.black) == (game1.red, game1.black)


def test_a_bids_clock_the_decision_cannot_give_is_reported_without_a_checksum(
    template: Path, tmp_path: Path
) -> None:
    """A bid's clocks are those its announcement and reply give, even in an entry written
    before checksums."""
    db = tmp_path / "cup.db"
    shutil.copyfile(template, db)
    seq = _first_of_each_kind(db)["decision"]
    data = _rows(db)[seq][2]
    _legacy(db, seq, data.replace(*_clock(data), 1))
    line = _one_line(run("check", str(db)))
    assert f"journal entry #{seq} (R1-M2): clock: expected the clocks the decision gives" in line
