"""A separate process that writes to an event file, for the kill and concurrency tests.

Usage: ``python event_writer.py MODE DB [ARGS...]``; it prints one line per committed entry
(``ok SEQ``) or refusal (``refused MESSAGE``), flushed at once, so the test knows what was
committed before it killed the process.

Modes:
    loop DB N               write forever: the next game, bid, or an undo every fifth entry, a
                            correction (with --cascade) every seventh, and first a replacement
    kill-in-transaction DB [KIND]
                            append one entry (KIND: step, correct or replace), then SIGKILL
                            itself before COMMIT
    kill-before-link DB SCENARIO PLAYERS
                            create an event, SIGKILL itself just before the file is linked
    race DB BARRIER MATCH GAME RESULT
                            wait for BARRIER to exist, then record one game
    plays DB BARRIER MATCH... record every game of the matches until they are decided
    undo DB BARRIER         wait for BARRIER, then undo once
    correct DB BARRIER MATCH GAME RESULT [--cascade]
                            wait for BARRIER, then correct one game
    replace DB BARRIER OUT IN
                            wait for BARRIER, then replace OUT by IN
"""

from __future__ import annotations

import os
import signal
import sys
import time
from pathlib import Path
from typing import Any

from knockout.event import database, store
from knockout.event.decisions import bid_answer
from knockout.event.errors import EventRefused
from knockout.event.state import Event, NextGame
from knockout.event.store import (
    correct_game,
    load_event,
    record_decision,
    record_game,
    replace_player,
    undo,
)

RESULTS = ("1-0", "1/2", "0-1")


def say(text: str) -> None:
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def wait_for(barrier: Path) -> None:
    say("ready")
    while not barrier.exists():
        time.sleep(0.001)


def correct_one(path: str, event: Event, n: int) -> None:
    """Correct a recorded game (the n-th in force, flipped), undoing what it invalidates."""
    if not event.games:
        return
    g = event.games[n % len(event.games)]
    result = {"red": "0-1", "black": "1/2", "draw": "1-0"}[g.result.value]
    try:
        entries, _ = correct_game(path, g.match, g.number, result, cascade=True)
    except EventRefused:
        return
    for entry in entries:
        say(f"ok {entry.seq}")


def replace_one(path: str, event: Event, n: int) -> None:
    """Replace a player who has not played by a reserve."""
    played = {x for g in event.games for x in (g.red, g.black)}
    out = next((p.name for p in event.base.players if p.name not in played), None)
    if out is None or out in event.withdrawn:
        return
    try:
        entry, _ = replace_player(path, out, f"Reserve {n}", ratings={"rating": "2000"})
    except EventRefused:
        return
    say(f"ok {entry.seq}")


def step(path: str, event: Event, n: int) -> None:
    """One entry: a bid if one is due, else the next game, with an undo every fifth entry and a
    correction every seventh."""
    if n % 7 == 6:
        correct_one(path, event, n)
        return
    if event.finished or n % 5 == 4:
        try:
            entry, _ = undo(path)
        except EventRefused:
            return
    elif event.pending_bids():
        b = event.pending_bids()[0]
        chooser = None if b.chooser else b.players[n % 2]
        entry, _ = record_decision(
            path, b.match, bid_answer(announce="red", reply="object", chooser=chooser)
        )
    else:
        games = event.next_games()
        g = games[n % len(games)]
        times = [f"{g.red}={100 + n % 50}", f"{g.black}=120"]
        entry, _ = record_game(path, g.match, g.number, RESULTS[n % 3], time_used=times)
    say(f"ok {entry.seq}")


def loop(path: str, offset: int) -> None:
    n = offset
    replace_one(path, load_event(path), n)
    while True:
        step(path, load_event(path), n)
        n += 1


def kill_in_transaction(path: str, kind: str = "step") -> None:
    real = store.append

    def append_then_die(conn: Any, entry: Any) -> None:
        real(conn, entry)
        say(f"inserted {entry.seq}")
        os.kill(os.getpid(), signal.SIGKILL)

    store.append = append_then_die  # type: ignore[assignment]
    event = load_event(path)
    if kind == "correct":
        correct_one(path, event, 0)
    elif kind == "replace":
        replace_one(path, event, 0)
    else:
        step(path, event, 0)


def kill_before_link(path: str, scenario: str, players: str) -> None:
    def die(*_: object) -> None:
        say("linking")
        os.kill(os.getpid(), signal.SIGKILL)

    database.os.link = die  # type: ignore[assignment]
    store.create_event(path, scenario, players_path=players)


def race(path: str, barrier: str, match: str, game: str, result: str) -> None:
    wait_for(Path(barrier))
    try:
        entry, _ = record_game(path, match, int(game), result)
    except EventRefused as exc:
        say(f"refused {exc}")
        return
    say(f"ok {entry.seq}")


def plays(path: str, barrier: str, matches: list[str]) -> None:
    wait_for(Path(barrier))
    n = 0
    while True:
        event = load_event(path)
        open_ = [event.find_match(m) for m in matches if event.find_match(m).winner is None]
        if not open_:
            return
        m = open_[n % len(open_)]
        n += 1
        pending = [b for b in event.pending_bids() if b.match == m.id]
        if pending:
            entry, _ = record_decision(path, m.id, bid_answer(announce="black", reply="accept"))
        else:
            g = event.next_step(m)
            assert isinstance(g, NextGame)
            # Odd matches go to the sudden death (Red wins the slow games, then draws); even
            # ones end after two games.
            if int(m.id.rsplit("M", 1)[1]) % 2 == 1:
                result = "1-0" if g.stage == "slow" else "1/2"
            else:
                result = "1-0" if g.number == 1 else "1/2"
            times = [f"{g.red}=500", f"{g.black}=600"]
            entry, _ = record_game(path, m.id, g.number, result, time_used=times)
        say(f"ok {entry.seq} {entry.kind} {entry.match} {entry.game}")


def undo_once(path: str, barrier: str) -> None:
    wait_for(Path(barrier))
    entry, _ = undo(path)
    say(f"ok {entry.seq} {entry.undoes}")


def race_correct(path: str, barrier: str, match: str, game: str, result: str, *flags: str) -> None:
    wait_for(Path(barrier))
    try:
        entries, _ = correct_game(path, match, int(game), result, cascade="--cascade" in flags)
    except EventRefused as exc:
        say(f"refused {exc}")
        return
    say("ok " + " ".join(str(e.seq) for e in entries))


def race_replace(path: str, barrier: str, out: str, reserve: str) -> None:
    wait_for(Path(barrier))
    try:
        entry, _ = replace_player(path, out, reserve, ratings={"rating": "2100"})
    except EventRefused as exc:
        say(f"refused {exc}")
        return
    say(f"ok {entry.seq}")


def main(argv: list[str]) -> None:
    mode, path, *rest = argv
    if mode == "loop":
        loop(path, int(rest[0]))
    elif mode == "kill-in-transaction":
        kill_in_transaction(path, *rest)
    elif mode == "kill-before-link":
        kill_before_link(path, rest[0], rest[1])
    elif mode == "race":
        race(path, *rest)
    elif mode == "plays":
        plays(path, rest[0], rest[1:])
    elif mode == "undo":
        undo_once(path, rest[0])
    elif mode == "correct":
        race_correct(path, *rest)
    elif mode == "replace":
        race_replace(path, *rest)
    else:
        raise SystemExit(f"unknown mode {mode!r}")


if __name__ == "__main__":
    main(sys.argv[1:])
