"""An event carried on from its export is the same event: ``event export --format scenario`` then
``event new --scenario`` gives a file whose every view (the games to play with their boards and
colours, the dashboard, every export, the odds, the hall's pages) equals the original's, at the
point it was stopped and after every later entry, whatever the point: before a bid, after a
withdrawal in the middle of a match (its opponent playing on in the next round), in the middle
of a sudden death (the decision recorded, its game not played), with a reserve, a renamed
player, a correction and an undo behind it."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

import pytest
from event_helpers import CUP_PLAYERS, CUP_SCENARIO, ROOT
from typer.testing import CliRunner

from knockout.dashboard.web.pages import Site
from knockout.event.decisions import bid_answer, choice_answer, cut_answer, sealed_answer
from knockout.event.state import Event, NextGame, PendingDecision
from knockout.event.store import (
    amend_player,
    correct_game,
    load_event,
    record_decision,
    record_game,
    replace_player,
    undo,
    withdraw,
)
from knockout.program import app

runner = CliRunner()
#: Every reading command whose output is a view of the event.
VIEWS = (
    ("next", "--json"),
    ("next",),
    ("show",),
    ("export", "--format", "json"),
    ("export", "--format", "csv"),
    ("export", "--format", "csv", "--table", "matches"),
    ("export", "--format", "pgn"),
    ("export", "--format", "trf"),
    ("export", "--format", "scenario"),
    ("odds", "--json"),
)
NOW = datetime(2026, 11, 30, 12, 0).astimezone()


def ok(*args: str) -> str:
    # wide enough that no header wraps: the two files' paths differ in length, and under
    # pytest-xdist the temporary folder's is long ('show' wrapped one and not the other)
    result = runner.invoke(app, ["event", *args], env={"COLUMNS": "400"})
    assert result.exit_code == 0, (args, result.output)
    return result.stdout


def views(db: Path) -> dict[str, str]:
    """What every view of the event at ``db`` shows, with what names the file itself (its
    path, the journal's numbering, when each entry was typed) taken out."""
    out = {" ".join(v): ok(v[0], str(db), *v[1:]) for v in VIEWS}
    out["export --format scenario"] = "\n".join(
        x for x in out["export --format scenario"].splitlines() if not x.startswith("#")
    )
    for name, page in Site(load_event(db), command_file="EVENT.db", now=NOW).pages().items():
        out[name] = page
    return {k: _file_free(v, db) for k, v in out.items()}


def _file_free(text: str, db: Path) -> str:
    text = text.replace(str(db), "EVENT.db")
    text = re.sub(r"journal entry #\d+", "journal entry #N", text)
    text = re.sub(r"\d+ entries, last at [\d-]+ [\d:]+", "N entries, last at T", text)
    text = re.sub(r'data-head="\d+"', 'data-head="N"', text)
    text = re.sub(r"\b\d\d:\d\d:\d\d *$", "hh:mm:ss", text, flags=re.M)  # show: Recorded
    return re.sub(r"\b\d\d:\d\d(:\d\d)?\b(?= *<)", "hh:mm", text)


def carried_on(db: Path) -> Path:
    """The event at ``db`` exported as a scenario and created again from it, as the docs say."""
    exported = db.with_suffix(".toml")
    exported.write_text(ok("export", str(db), "--format", "scenario"), encoding="utf-8")
    again = db.with_name(f"{db.stem}-carried.db")
    ok("new", str(again), "--scenario", str(exported))
    return again


Step = Callable[[Path], object]


def next_step(rng: random.Random) -> Step:
    """The next entry an arbiter might make (drawn by ``rng``, the same for both files): a
    decision still to record, else a game with its times and moves."""
    pick, result = rng.random(), rng.choice(("1-0", "0-1", "1/2", "1/2"))
    share, moves = rng.uniform(0.3, 0.9), rng.randrange(20, 120)

    def step(db: Path) -> object:
        event = load_event(db)
        steps = event.steps()
        s = steps[int(pick * len(steps))]
        if isinstance(s, PendingDecision):
            return record_decision(db, s.match, answer_for(s, pick))
        assert isinstance(s, NextGame)
        used = int(share * min(s.clock) * 60)
        times = [f"{s.red}={used}", f"{s.black}={used + 7}"]
        return record_game(db, s.match, s.number, result, time_used=times, moves=moves)

    return step


def answer_for(s: PendingDecision, pick: float) -> object:
    first = s.players[0] if s.chooser is None else None
    if s.kind == "bid":
        return bid_answer("red" if pick < 0.5 else "black", "object", first)
    if s.kind == "choice":
        return choice_answer("black", first)
    if s.kind == "sealed-bid":
        a, b = s.players
        return sealed_answer([f"{a}=6", f"{b}=7.5"], None)
    return cut_answer("17.5", "black", first)


def same_to_the_end(original: Path, carried: Path, seed: int) -> int:
    """Play both files to the end with the same entries; every view equal after each (the
    colours and boards of the games to play after every entry, all of them every third)."""
    rng = random.Random(seed)
    n = 0
    while not load_event(original).finished:
        step = next_step(rng)
        step(original)
        step(carried)
        n += 1
        if n % 3 == 0:
            assert views(carried) == views(original), n
        else:
            assert ok("next", str(carried), "--json") == ok("next", str(original), "--json"), n
    assert views(carried) == views(original)
    return n


def played_cup(tmp_path: Path) -> tuple[Path, Event]:
    """The bundled 16-player cup with a reserve, a renamed player, results with times and
    moves, a correction and an undo."""
    db = tmp_path / "cup.db"
    ok("new", str(db), "--scenario", str(CUP_SCENARIO), "--players", str(CUP_PLAYERS), "--seed",
       "2026")  # fmt: skip
    replace_player(db, "Zhang Wei", "Liu Yang", ratings={"rating": "2380"}, federation="Hebei")
    amend_player(db, "chen hao", ratings={"rating": "2571"})
    record_game(db, "R1-M1", 1, "1-0", time_used=["Guo Qiang=41:20", "王立新=50:10"], moves=58)
    record_game(db, "R1-M1", 2, "1-0")
    correct_game(db, "R1-M1", 2, "1/2", time_used=["王立新=30:00"])
    record_game(db, "R1-M5", 1, "0-1")
    undo(db)
    record_game(db, "R1-M6", 1, "1-0", moves=40)
    record_game(db, "R1-M6", 2, "1/2")
    amend_player(db, "Wu Lan", new_name="Wu Lanlan")
    _, event = record_game(db, "R1-M5", 1, "0-1")
    return db, event


def to_the_bid(db: Path) -> Event:
    """R1-M2 level after the rapid game, 周海峰 having used less time: the bid is to ask."""
    record_game(db, "R1-M2", 1, "1-0")
    record_game(db, "R1-M2", 2, "1-0")
    _, event = record_game(
        db, "R1-M2", 3, "1/2", time_used=["Huang Jie=12:30", "周海峰=11:40"], moves=77
    )
    assert [b.chooser for b in event.pending_bids()] == ["周海峰"]
    return event


def withdrawn_mid_match(db: Path) -> Event:
    """Li Ming withdraws after R1-M3's first game; 马骏 plays on in R2-M2 once R1-M4 is done."""
    record_game(db, "R1-M3", 1, "1-0")
    withdraw(db, "Li Ming")
    for game in (1, 2, 3):
        record_game(db, "R1-M4", game, "1-0")
    _, event = record_game(db, "R2-M2", 1, "0-1")
    assert event.find_match("R1-M3").winner == "马骏"
    assert event.find_match("R2-M2").games
    return event


POINTS: dict[str, Callable[[Path], object]] = {
    "before a bid": to_the_bid,
    "after a withdrawal mid-match": withdrawn_mid_match,
    "mid-sudden-death": lambda db: (
        to_the_bid(db),
        record_decision(db, "R1-M2", bid_answer("red", "object")),
    ),
}


@pytest.mark.slow
@pytest.mark.parametrize("point", list(POINTS))
def test_a_cup_carried_on_from_its_export(tmp_path: Path, point: str) -> None:
    db, _ = played_cup(tmp_path)
    POINTS[point](db)
    again = carried_on(db)
    before = views(db)
    assert views(again) == before
    assert same_to_the_end(db, again, seed=len(point)) > 20


FINALS = {
    "cut-choose": "cut-choose.toml",
    "sealed bids": "armageddon-vickrey.toml",
    "colour choice": "official-playoff.toml",
}


@pytest.mark.slow
@pytest.mark.parametrize("kind", list(FINALS))
def test_a_final_carried_on_mid_decision(tmp_path: Path, kind: str) -> None:
    """A two-player final stopped with its decision recorded and the game it sets up not
    played, for each kind of decision."""
    db = tmp_path / "final.db"
    ok("new", str(db), "--scenario", str(ROOT / "scenarios" / FINALS[kind]), "--seed", "3")
    rng = random.Random(5)
    while not load_event(db).pending_decisions():
        event = load_event(db)
        g = event.next_games()[0]
        times = [f"{g.red}={rng.randrange(300, 900)}", f"{g.black}=1000"]
        record_game(db, g.match, g.number, "1/2", time_used=times)
    pending = load_event(db).pending_decisions()[0]
    record_decision(db, pending.match, answer_for(pending, 0.3))
    again = carried_on(db)
    assert views(again) == views(db)
    same_to_the_end(db, again, seed=1)


def test_the_export_carries_the_seed_and_when_each_withdrawal_came(tmp_path: Path) -> None:
    db, _ = played_cup(tmp_path)
    withdrawn_mid_match(db)
    exported = ok("export", str(db), "--format", "scenario")
    assert "[event]\nseed = 2026\n" in exported
    assert '[[event.withdrawals]]\nname = "Li Ming"\nafter = 6\n' in exported
    assert "moves = 58" in exported
    again = carried_on(db)
    first, later = load_event(db), load_event(again)
    assert later.seed == first.seed == 2026
    assert later.federations == first.federations
    assert ok("next", str(again), "--json") == ok("next", str(db), "--json")
    refused = runner.invoke(app, ["event", "new", str(tmp_path / "x.db"), "--scenario",
                                  str(db.with_suffix(".toml")), "--seed", "7"])  # fmt: skip
    assert refused.exit_code == 2
    assert refused.stderr.strip() == (
        f"error: {db.with_suffix('.toml')}: event.seed: expected --seed 2026 or no --seed: the "
        "scenario carries the event's seed 2026, which draws the colours of the games to come; "
        "found --seed 7"
    )


def test_wrong_carried_facts_are_named_at_once(tmp_path: Path) -> None:
    db, _ = played_cup(tmp_path)
    withdrawn_mid_match(db)
    text = ok("export", str(db), "--format", "scenario")
    text = text.replace("after = 6", "after = 70").replace(
        '"Beijing"', '"Beijing"\nNobody = "X"', 1
    )
    text += '\n[[event.withdrawals]]\nname = "马骏"\nafter = 1\n'
    bad = tmp_path / "bad.toml"
    bad.write_text(text, encoding="utf-8")
    result = runner.invoke(app, ["event", "new", str(tmp_path / "x.db"), "--scenario", str(bad)])
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        f"error: {bad}: event.federations.Nobody: expected a player, found 'Nobody'",
        f"error: {bad}: event.withdrawals[0].after: expected at most 10 (the [[played]] entries), "
        "found 70",
        f"error: {bad}: event.withdrawals[1].name: expected a player with withdrawn = true, "
        "found '马骏'",
    ]
    assert not (tmp_path / "x.db").exists()


def test_a_hand_written_scenario_in_any_order(tmp_path: Path) -> None:
    """A later round's game listed before the games that decide who plays it, and a withdrawal
    without [event] (it is entered last): each game entered once its match is playable."""
    db, _ = played_cup(tmp_path)
    withdrawn_mid_match(db)
    text = ok("export", str(db), "--format", "scenario")
    head, _, _ = text.partition("\n[event]")  # no [event]: the withdrawal has no place
    blocks = head.split("\n[[played]]\n")
    r2 = next(b for b in blocks if b.startswith('red = "Xu Yang"\nblack = "马骏"') or
              b.startswith('red = "马骏"'))  # fmt: skip
    blocks.remove(r2)
    blocks.insert(1, r2)
    shuffled = tmp_path / "shuffled.toml"
    shuffled.write_text("\n[[played]]\n".join(blocks), encoding="utf-8")
    again = tmp_path / "again.db"
    ok("new", str(again), "--scenario", str(shuffled), "--seed", "2026")
    assert ok("export", str(again), "--format", "csv") == ok("export", str(db), "--format", "csv")
