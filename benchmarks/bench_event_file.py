"""Benchmark (prints figures, asserts nothing): what the event file's checks cost, 64 players.

A 64-player event with its first two rounds played (96 games) is timed: ``PRAGMA quick_check``
(run before every write) and ``integrity_check`` (``event check``) against one whole write (open,
check, replay, append) and one read, and a correction early in the journal (every later entry
of its side of the draw checked again).

Run: ``.venv/bin/python benchmarks/bench_event_file.py``
"""

from __future__ import annotations

import sqlite3
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from knockout.event.database import check_pages
from knockout.event.state import NextGame
from knockout.event.store import correct_game, create_event, load_event, record_game, undo

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "scenarios" / "events" / "city-cup-16.toml"


def timed(call: Callable[[], object], repeat: int) -> float:
    """Median seconds of ``repeat`` calls."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def build(folder: Path) -> Path:
    players = folder / "players.csv"
    rows = [f"Player {i:02d},{2700 - 5 * i}" for i in range(64)]
    players.write_text("name,rating\n" + "\n".join(rows) + "\n", encoding="utf-8")
    db = folder / "cup.db"
    create_event(db, SCENARIO, players_path=players, seed=1)
    for _ in range(2):  # rounds 1 and 2: Red wins game 1, game 2 drawn
        for g in load_event(db).next_games():
            record_game(db, g.match, 1, "1-0")
        for g in load_event(db).next_games():
            record_game(db, g.match, 2, "1/2")
    return db


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        db = build(Path(tmp))
        event = load_event(db)
        size = db.stat().st_size
        print(f"64 players, {len(event.games)} games, {len(event.entries)} entries, {size} bytes")
        conn = sqlite3.connect(db)
        quick = timed(lambda: check_pages(conn), 50)
        full = timed(lambda: check_pages(conn, full=True), 50)
        conn.close()
        read = timed(lambda: load_event(db), 10)
        nxt = load_event(db).next_games()[0]
        assert isinstance(nxt, NextGame)

        def write() -> None:
            record_game(db, nxt.match, nxt.number, "1-0")
            undo(db)

        one_write = timed(write, 5) / 2
        fix = timed(lambda: correct_game(db, "R1-M1", 2, "0-1", cascade=True), 1)
        print(f"quick_check (before every write): {quick * 1e3:.2f} ms")
        print(f"integrity_check (event check):    {full * 1e3:.2f} ms")
        print(f"one write (open, check, replay, append): {one_write * 1e3:.1f} ms")
        print(f"  quick_check is {quick / one_write:.1%} of a write")
        print(f"one read (load_event): {read * 1e3:.1f} ms")
        print(f"correction of R1-M1 game 2 with --cascade (later entries checked): {fix:.2f} s")


if __name__ == "__main__":
    main()
