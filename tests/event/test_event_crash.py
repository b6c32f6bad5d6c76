"""Event files survive SIGKILL at any point of a write: no partial entry, no corrupt file.

A writer process (``event_writer.py``) records entries as fast as it can and prints each entry's
number once its transaction has committed; the test kills it with SIGKILL at random moments, then
checks the file: ``PRAGMA integrity_check``, the journal numbered without gaps, every entry the
writer reported as committed present, and the journal replayed through the rules without error.
Targeted kills hit the two critical windows: inside the transaction after the INSERT (the entry
must be gone) and while a new event file is created (there must be no event file).
"""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from event_helpers import new_event, write_players, write_scenario

from knockout.event.store import create_event, load_event, record_game

pytestmark = pytest.mark.system

WRITER = str(Path(__file__).with_name("event_writer.py"))
#: Random kills during a stream of writes.
KILLS = 20


def writer(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, WRITER, *map(str, args)], stdout=subprocess.PIPE, text=True
    )


def check_file(path: Path, committed: set[int]) -> int:
    """The file is sound and holds every committed entry; returns the journal's length."""
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
        seqs = [r[0] for r in conn.execute("SELECT seq FROM journal ORDER BY seq")]
    finally:
        conn.close()
    assert seqs == list(range(1, len(seqs) + 1))
    assert committed <= set(seqs)
    event = load_event(path)  # the journal replays through the rules
    in_force = [(g.match, g.number) for g in event.games]
    assert len(in_force) == len(set(in_force))
    return len(seqs)


@pytest.mark.slow
def test_sigkill_during_writes_never_corrupts(tmp_path: Path) -> None:
    path = new_event(tmp_path)
    rng = np.random.default_rng(12)
    committed: set[int] = set()
    lengths = []
    wanted = {"correct", "replace", "undo", "game"}
    kinds: set[str] = set()
    i = 0
    # KILLS kills at random points; on a loaded machine writes are slow, so keep killing (with
    # longer runs between kills, up to as many again) until every kind of entry was written
    # while a kill could come.
    while i < KILLS or (not wanted <= kinds and i < 2 * KILLS):
        proc = writer("loop", path, i)
        try:
            assert proc.stdout is not None
            first = proc.stdout.readline()  # it is writing now
            time.sleep(float(rng.uniform(0.0, 0.25 if i < KILLS else 1.5)))
        finally:
            proc.send_signal(signal.SIGKILL)
            out, _ = proc.communicate()
        assert proc.returncode == -signal.SIGKILL
        committed |= {int(line.split()[1]) for line in (first + out).splitlines()}
        lengths.append(check_file(path, committed))
        kinds = {e.kind for e in load_event(path).entries}
        i += 1
    assert lengths == sorted(lengths) and lengths[-1] > KILLS  # it kept going between kills
    assert wanted <= kinds, kinds


@pytest.mark.slow
def test_sigkill_inside_the_transaction_leaves_no_entry(tmp_path: Path) -> None:
    path = new_event(tmp_path)
    for _ in range(3):
        before = check_file(path, set())
        proc = writer("kill-in-transaction", path)
        out, _ = proc.communicate(timeout=60)
        assert proc.returncode == -signal.SIGKILL
        assert out.strip() == f"inserted {before + 1}"
        assert check_file(path, set()) == before  # rolled back when the file was next opened
    assert [e.kind for e in load_event(path).entries] == ["new"]


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["correct", "replace"])
def test_sigkill_inside_a_correction_or_replacement_leaves_no_entry(
    tmp_path: Path, kind: str
) -> None:
    path = new_event(tmp_path)
    record_game(path, "R1-M1", 1, "1-0")
    before = load_event(path)
    proc = writer("kill-in-transaction", path, kind)
    out, _ = proc.communicate(timeout=60)
    assert proc.returncode == -signal.SIGKILL
    assert out.strip() == f"inserted {len(before.entries) + 1}"
    assert check_file(path, set()) == len(before.entries)
    after = load_event(path)
    assert after.games == before.games and after.base == before.base


@pytest.mark.slow
def test_sigkill_while_creating_leaves_no_event_file(tmp_path: Path) -> None:
    path = tmp_path / "new.db"
    scenario, players = write_scenario(tmp_path), write_players(tmp_path)
    proc = writer("kill-before-link", path, scenario, players)
    out, _ = proc.communicate(timeout=60)
    assert proc.returncode == -signal.SIGKILL and out.strip() == "linking"
    assert not path.exists()
    create_event(path, scenario, players_path=players)  # the name is still free
    assert check_file(path, {1}) == 1
