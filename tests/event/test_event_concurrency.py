"""Several terminals writing to one event at once: nothing recorded twice, nothing lost.

Writer processes (``event_writer.py``) wait at a barrier file and then write together. Each
change runs in a ``BEGIN IMMEDIATE`` transaction that checks it against the journal as it is
when the write lock is held, so concurrent recorders are serialised and a game already recorded
by one is refused to the others.
"""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from event_helpers import CUP_PLAYERS, CUP_SCENARIO, new_event

from knockout.event.store import load_event, record_game
from knockout.rules.decisions.made import MadeBid

pytestmark = pytest.mark.system

WRITER = str(Path(__file__).with_name("event_writer.py"))


def start(*args: tuple[object, ...]) -> list[subprocess.Popen[str]]:
    return [subprocess.Popen([sys.executable, WRITER, *map(str, a)], stdout=subprocess.PIPE,
                             text=True) for a in args]  # fmt: skip


def together(barrier: Path, procs: list[subprocess.Popen[str]]) -> list[list[str]]:
    """Release the processes at once (after each said it is ready); their output lines."""
    for p in procs:
        assert p.stdout is not None and p.stdout.readline().strip() == "ready"
    barrier.touch()
    outs = []
    for p in procs:
        out, _ = p.communicate(timeout=180)
        assert p.returncode == 0, out
        outs.append(out.splitlines())
    return outs


@pytest.mark.slow
def test_concurrent_recorders_lose_nothing(tmp_path: Path) -> None:
    path = new_event(tmp_path, 16)  # 8 first-round matches
    barrier = tmp_path / "go"
    procs = start(
        *[("plays", path, barrier, f"R1-M{i}", f"R1-M{i + 4}") for i in range(1, 5)],
    )
    outs = together(barrier, procs)
    reported = [line.split() for out in outs for line in out]
    seqs = [int(r[1]) for r in reported]
    assert len(seqs) == len(set(seqs))  # no entry number given twice
    event = load_event(path)
    assert sorted(seqs) == [e.seq for e in event.entries[1:]]  # every write is in the journal
    games = Counter((g.match, g.number) for g in event.games)
    assert all(n == 1 for n in games.values())
    assert sum(1 for r in reported if r[2] == "game") == len(event.games)
    for i in range(1, 9):
        m = event.find_match(f"R1-M{i}")
        assert m.winner is not None
        assert len(m.games) == (4 if i % 2 == 1 else 2)
        bids = [d for d in m.decisions.values() if isinstance(d.made, MadeBid)]
        assert len(bids) == (1 if i % 2 == 1 else 0)


@pytest.mark.slow
def test_racing_recorders_record_a_game_once(tmp_path: Path) -> None:
    path = new_event(tmp_path)
    for game in (1, 2):
        barrier = tmp_path / f"go{game}"
        results = ["1-0", "0-1", "1/2", "1-0"]
        procs = start(*[("race", path, barrier, "R1-M1", game, r) for r in results])
        lines = [out[0] for out in together(barrier, procs)]
        assert sum(line.startswith("ok") for line in lines) == 1, lines
        refused = [line for line in lines if line.startswith("refused")]
        assert len(refused) == 3
        assert all("already has a result" in r or "already decided" in r for r in refused)
    event = load_event(path)
    assert [(g.match, g.number) for g in event.games] == [("R1-M1", 1), ("R1-M1", 2)]
    assert len(event.entries) == 3


@pytest.mark.slow
def test_racing_undos_take_back_different_entries(tmp_path: Path) -> None:
    path = new_event(tmp_path)
    for g in load_event(path).next_games():
        record_game(path, g.match, 1, "1-0")
    barrier = tmp_path / "go"
    outs = together(barrier, start(*[("undo", path, barrier)] * 3))
    undone = sorted(int(out[0].split()[2]) for out in outs)
    assert undone == [3, 4, 5]  # the last three games, each once
    event = load_event(path)
    assert [g.match for g in event.games] == ["R1-M1"]


@pytest.mark.slow
def test_two_terminals_record_the_same_game(tmp_path: Path) -> None:
    db = str(tmp_path / "cup.db")
    cli = [sys.executable, "-c", "from knockout.program import main; main()", "event"]
    subprocess.run(
        [*cli, "new", db, "--scenario", str(CUP_SCENARIO), "--players", str(CUP_PLAYERS)],
        check=True, capture_output=True,
    )  # fmt: skip
    procs = [
        subprocess.Popen([*cli, "record", db, "R1-M1", "1", r], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
        for r in ("1-0", "0-1")
    ]  # fmt: skip
    outcomes = [(p.communicate(timeout=120), p.returncode) for p in procs]
    assert sorted(code for _, code in outcomes) == [0, 2]
    err = next(e for (_, e), code in outcomes if code == 2)
    assert err.count("\n") == 1 and "already has a result" in err
    assert len(load_event(db).games) == 1


@pytest.mark.slow
def test_racing_corrections_of_one_game_chain(tmp_path: Path) -> None:
    path = new_event(tmp_path)
    record_game(path, "R1-M1", 1, "1-0")
    barrier = tmp_path / "go"
    results = ["0-1", "1/2", "0-1", "1/2"]
    procs = start(*[("correct", path, barrier, "R1-M1", 1, r) for r in results])
    lines = [out[0] for out in together(barrier, procs)]
    written = [int(line.split()[1]) for line in lines if line.startswith("ok")]
    refusals = [line for line in lines if line.startswith("refused")]
    assert all("expected a change" in r for r in refusals)  # the same result again
    assert len(written) == len(set(written)) and len(written) >= 2
    event = load_event(path)
    (g,) = event.games
    assert g.seq == max(written)  # the last correction written is in force
    corrects = [e for e in event.entries if e.kind == "correct"]
    # each correction replaces the entry in force when it was written: one chain
    assert [e.fields["corrects"] for e in corrects] == [2] + [e.seq for e in corrects[:-1]]


@pytest.mark.slow
def test_racing_replacements_of_one_player(tmp_path: Path) -> None:
    path = new_event(tmp_path)
    barrier = tmp_path / "go"
    procs = start(*[("replace", path, barrier, "Theta", f"Reserve {i}") for i in range(3)])
    lines = [out[0] for out in together(barrier, procs)]
    assert sum(line.startswith("ok") for line in lines) == 1, lines
    assert all("was replaced by" in x for x in lines if x.startswith("refused")), lines
    event = load_event(path)
    assert [e.kind for e in event.entries] == ["new", "replace"]
    assert sum(p.name.startswith("Reserve") for p in event.base.players) == 1


@pytest.mark.slow
def test_a_cascading_correction_races_a_later_round(tmp_path: Path) -> None:
    path = new_event(tmp_path)
    for m in ("R1-M1", "R1-M2"):
        record_game(path, m, 1, "1-0")
        record_game(path, m, 2, "1/2")
    first = load_event(path).find_match("R1-M1")
    g1 = first.games[0]
    barrier = tmp_path / "go"
    procs = start(
        ("correct", path, barrier, "R1-M1", 1, "0-1", "--cascade"),
        ("race", path, barrier, "R2-M1", 1, "1-0"),
    )
    fix, other = (out[0].split() for out in together(barrier, procs))
    assert fix[0] == "ok" and other[0] == "ok"
    event = load_event(path)
    assert event.find_match("R1-M1").winner == g1.black  # 0-1 then a draw
    r2 = event.find_match("R2-M1")
    if int(other[1]) < int(fix[-1]):  # recorded first: undone by the cascade
        assert len(fix) == 3 and int(fix[1]) in event.undone.values() and r2.games == ()
    else:  # recorded after the correction: between the players it left
        assert len(fix) == 2 and r2.players is not None and g1.black in r2.players
        assert len(r2.games) == 1
