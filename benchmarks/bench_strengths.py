"""Benchmark (prints figures, asserts nothing): the strength fit of a whole games table and the
walk-forward backtest from 1990, in CPU seconds and wall seconds (on a shared machine the wall
time also counts other work; the load average is printed beside them).

Issue 39 asks for each to finish in under a minute of CPU on the project's 2-core machine.

Run: ``.venv/bin/python benchmarks/bench_strengths.py [GAMES [FROM]]`` (default: the bundled
table, from 1990)
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

from knockout.backtest.report import backtest_report
from knockout.backtest.walk import walk_forward
from knockout.corpus.bundle import BUNDLED
from knockout.strengths.calibrate import calibrate_strengths
from knockout.strengths.table import read_table


def _timed(work):  # type: ignore[no-untyped-def]
    wall, cpu = time.perf_counter(), time.process_time()
    out = work()
    return out, time.perf_counter() - wall, time.process_time() - cpu


def main() -> None:
    """Time ``calibrate --strengths --by time_class`` and ``backtest --from 1990``."""
    path = Path(sys.argv[1]) if len(sys.argv) > 1 else BUNDLED
    start = int(sys.argv[2]) if len(sys.argv) > 2 else 1990
    table, wall, cpu = _timed(lambda: read_table(path))
    print(f"{path}: {len(table.games):,} games read in {cpu:.1f} s CPU ({wall:.1f} s wall)")
    cal, wall, cpu = _timed(lambda: calibrate_strengths(table, by="time_class"))
    load = os.getloadavg()[0]
    print(
        f"calibrate --strengths --by time_class: {cal.main.games:,} games, "
        f"{len(cal.players):,} players, {len(cal.by_source)} source folders refitted: "
        f"{cpu:.1f} s CPU, {wall:.1f} s wall (load {load:.1f})"
    )
    report, wall, cpu = _timed(
        lambda: backtest_report(walk_forward(table, start=start, by="time_class"), table.games)
    )
    load = os.getloadavg()[0]
    print(
        f"backtest --from {start} --by time_class: {report.overall.n:,} games forecast, "
        f"{len(report.forecasts.years)} refits, {len(report.matches.matches)} matches: "
        f"{cpu:.1f} s CPU, {wall:.1f} s wall (load {load:.1f})"
    )


if __name__ == "__main__":
    main()
