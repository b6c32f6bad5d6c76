"""Benchmark (prints figures, asserts nothing): Swiss events of 100 (or N) players, 11 rounds.

The simplified pairing pairs 1,000 events at once; FIDE's Dutch system (caissify-pairings) pairs
one event at a time, so it is timed on a few events and scaled to 1,000, with and without
``plain_adjacency`` (networkx's matching code on plain adjacency dicts, which the study uses;
the two are timed alternately on the same events, so their ratio is measured in one run, and
their pairings compared). gacrux, FIDE's
tie-break checker (a dev dependency), also pairs by the Dutch system: its tournament generator is
timed on events of the same shape for comparison. CPU seconds are printed beside wall seconds:
on a shared machine the wall time also counts other work.

Run: ``.venv/bin/python benchmarks/bench_scoring_study.py [DUTCH_EVENTS [PLAYERS]]`` (default 1
event of 100 players; the bundled study's Dutch event has 80)
"""

from __future__ import annotations

import contextlib
import subprocess
import sys
import tempfile
import time

import numpy as np

from knockout.points import get_scoring
from knockout.studies.scoring import dutch
from knockout.studies.scoring.events import PointsTable, draw_ratings, scale_for, simulate_swiss

NAMES = ("traditional", "difference", "ratio", "ratio-computed", "3-1-0")
ROUNDS, EVENTS = 11, 1000


def _timed(work):  # type: ignore[no-untyped-def]
    wall, cpu = time.perf_counter(), time.process_time()
    out = work()
    return out, time.perf_counter() - wall, time.process_time() - cpu


def main() -> None:
    """Time both pairings (and gacrux's) on events of the national championship's shape."""
    dutch_events = int(sys.argv[1]) if len(sys.argv) > 1 else 1
    players = int(sys.argv[2]) if len(sys.argv) > 2 else 100
    systems = [get_scoring(n) for n in NAMES]
    tables = [PointsTable.from_system(s, scale_for(systems)) for s in systems]
    rng = np.random.default_rng(2010)
    ratings = draw_ratings(rng, EVENTS, players, mean=2300, sd=200)
    u = rng.random((EVENTS, ROUNDS, players // 2))
    shape = f"{players} players x {ROUNDS} rounds"
    for label, pairing in (("one pairing, 5 systems", tables[0]), ("own pairings", None)):
        samples, wall, cpu = _timed(lambda p=pairing: simulate_swiss(ratings, tables, u, pairing=p))
        kept = sum(int(s.rematches.sum()) for s in samples)
        print(
            f"simplified, {EVENTS} events x {shape}, {label}: {wall:.2f} s ({cpu:.2f} s CPU; "
            f"{1000 * cpu / EVENTS:.1f} ms CPU an event)"
        )
        print(f"  rematches kept: {kept}")
    times = {"networkx as it is": [0.0, 0.0], "plain adjacency": [0.0, 0.0]}
    for e in range(dutch_events):
        played = []
        for label, cm in (
            ("networkx as it is", contextlib.nullcontext),
            ("plain adjacency", dutch.plain_adjacency),
        ):
            saved = dutch.plain_adjacency
            dutch.plain_adjacency = cm  # type: ignore[assignment]
            try:
                event, wall, cpu = _timed(
                    lambda e=e: dutch.play_dutch_event(ratings[e], tables[0], u[e])
                )
            finally:
                dutch.plain_adjacency = saved
            times[label][0] += wall
            times[label][1] += cpu
            played.append(event)
        same = all(
            (getattr(played[0], f) == getattr(played[1], f)).all()
            for f in ("red", "black", "results", "bye")
        )
        print(f"  event {e}: the same pairings both ways: {same}")
    for label, (wall, cpu) in times.items():
        print(
            f"Dutch (caissify-pairings, {label}), {dutch_events} events x {shape}: "
            f"{wall / dutch_events:.1f} s an event ({cpu / dutch_events:.1f} s CPU); "
            f"{EVENTS} events: about {wall / dutch_events * EVENTS / 3600:.1f} h on one process "
            f"({cpu / dutch_events * EVENTS / 3600:.1f} h CPU)"
        )
    before, after = times["networkx as it is"][1], times["plain adjacency"][1]
    print(f"  plain adjacency: {before / after:.2f} times as fast (CPU)")
    with tempfile.TemporaryDirectory() as folder:
        command = [sys.executable, "-m", "gacrux.tournamentgenerator", "-p", str(players)]
        command += ["-n", str(ROUNDS), "-g", "0", str(dutch_events), "-S", "0", "0", "0"]
        command += ["-o", f"{folder}/T%d.trf"]
        _, wall, _ = _timed(lambda: subprocess.run(command, check=True, capture_output=True))
    print(
        f"Dutch (gacrux tournament generator), {dutch_events} events x {shape}: "
        f"{wall / dutch_events:.1f} s an event, interpreter start-up included"
    )


if __name__ == "__main__":
    main()
