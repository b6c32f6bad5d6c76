"""Benchmark (prints figures, asserts nothing): 1,000 Swiss events of 100 players, 11 rounds.

Run: ``.venv/bin/python benchmarks/bench_scoring_study.py``
"""

from __future__ import annotations

import time

import numpy as np

from knockout.points import get_scoring
from knockout.studies.scoring.events import PointsTable, draw_ratings, scale_for, simulate_swiss

NAMES = ("traditional", "difference", "ratio", "ratio-computed", "3-1-0")


def main() -> None:
    """Time the simplified Swiss with one shared pairing and with each system's own."""
    systems = [get_scoring(n) for n in NAMES]
    tables = [PointsTable.from_system(s, scale_for(systems)) for s in systems]
    rng = np.random.default_rng(2010)
    events, players, rounds = 1000, 100, 11
    ratings = draw_ratings(rng, events, players, mean=2300, sd=200)
    u = rng.random((events, rounds, players // 2))
    for label, pairing in (("one pairing, 5 systems", tables[0]), ("own pairings", None)):
        start = time.perf_counter()
        samples = simulate_swiss(ratings, tables, u, pairing=pairing)
        seconds = time.perf_counter() - start
        kept = sum(int(s.rematches.sum()) for s in samples)
        print(f"{events} events x {players} players x {rounds} rounds, {label}: {seconds:.2f} s")
        print(f"  rematches kept: {kept}")


if __name__ == "__main__":
    main()
