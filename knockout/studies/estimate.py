"""How long a study will take, before it runs, and the guard against runs nobody meant.

One function, :func:`estimate_run`, makes the estimate, so that a better one can replace it: it
times a few points of the grid (spread over it) with the study's own outputs, and multiplies the
cost of a point by the grid's size; a ``simulate.`` metric is timed at two small run counts and
its cost is taken as linear in the runs (a fixed cost a point plus a cost a run), timed at run
counts growing until one takes a quarter of a second. The estimate says what it was timed on.

:func:`needs_yes` is the guard: a run of more than :data:`MAX_POINTS` grid points, or estimated
at more than :data:`LONG_RUN_SECONDS`, needs ``--yes``; a study of at most :data:`SAFE_POINTS`
points (50 x 50) at most :data:`SAFE_RUNS` runs a point never does, whatever the estimate says.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from knockout.studies.sweep import PointResult, Sweep, measure_block
from sims.runner import Executor

__all__ = [
    "LONG_RUN_SECONDS",
    "MAX_POINTS",
    "PILOT_POINTS",
    "SAFE_OUTPUTS",
    "SAFE_POINTS",
    "SAFE_RUNS",
    "RunEstimate",
    "estimate_run",
    "needs_yes",
]

#: More grid points than this need ``--yes``.
MAX_POINTS = 1_000_000
#: A run estimated at more than this (seconds) needs ``--yes``.
LONG_RUN_SECONDS = 600.0
#: A study of at most this many points ...
SAFE_POINTS = 50 * 50
#: ... at most this many runs a point (for ``simulate.`` metrics) is never refused.
SAFE_RUNS = 200_000
#: Grid points timed for the estimate.
PILOT_POINTS = 8
#: The fewest runs a ``simulate.`` metric is timed at (its cost is taken as linear in the runs) ...
PILOT_RUNS = 1_000
#: ... and the runs grow until one timing takes this long (seconds).
PILOT_SECONDS = 0.25


#: The outputs whose cost a point is bounded (vectorised solver calls, the Monte Carlo kernel):
#: only a study of these alone is never refused at or below SAFE_POINTS. ``compare``,
#: ``incentives`` and ``equilibrium`` may solve a game at every point (an equilibrium study of
#: 60 points took 25 minutes) and are held to the time limit at any size.
SAFE_OUTPUTS = ("odds", "fair", "simulate")


@dataclass(frozen=True)
class RunEstimate:
    """A study's size and how long it is expected to take.

    Attributes:
        points: Grid points.
        runs: Simulations a point (None without ``simulate.`` metrics).
        seconds: The estimate (None where the study is too small to be worth timing): the
            points still to measure, the pilot's own kept.
        basis: What the estimate was timed on, in words.
        outputs: The outputs the metrics read.
        measured: The pilot's points, measured on the study's own work and kept for the run
            (none when the pilot timed a smaller run, as for ``simulate.`` metrics).
        interrupted: Ctrl-C stopped the pilot (``measured`` holds the points it finished).
        slowest: The slowest pilot point's seconds, and the fastest's (None: not timed).
        measured_seconds: How long the kept points took to measure.
    """

    points: int
    runs: int | None
    seconds: float | None
    basis: str
    outputs: tuple[str, ...] = ()
    measured: tuple[PointResult, ...] = ()
    interrupted: bool = False
    slowest: tuple[float, float] | None = None
    measured_seconds: float = 0.0

    @property
    def safe(self) -> bool:
        """Small enough never to need ``--yes``: at most 50 x 50 points at 200,000 runs, of
        :data:`SAFE_OUTPUTS` only."""
        small = self.points <= SAFE_POINTS and (self.runs is None or self.runs <= SAFE_RUNS)
        return small and all(o in SAFE_OUTPUTS for o in self.outputs)


def needs_yes(estimate: RunEstimate) -> bool:
    """Whether the run is too large to start without ``--yes``."""
    if estimate.safe:
        return False
    long = estimate.seconds is not None and estimate.seconds > LONG_RUN_SECONDS
    return estimate.points > MAX_POINTS or long


def _pilot_points(sweep: Sweep, count: int) -> list[tuple[Any, ...]]:
    """Up to ``count`` grid points spread evenly over the grid (first and last included)."""
    n = sweep.size
    if n <= count:
        return [sweep.point_at(i) for i in range(n)]
    picks = sorted({round(k * (n - 1) / (count - 1)) for k in range(count)})
    return [sweep.point_at(i) for i in picks]


def _timed(work: Callable[[], object], clock: Callable[[], float]) -> float:
    start = clock()
    work()
    return clock() - start


def _block_seconds(
    sweep: Sweep,
    block: Sequence[tuple[Any, ...]],
    metrics: Sequence[str],
    executor: Executor,
    workers: int,
    clock: Callable[[], float],
) -> float:
    part = replace(sweep, metrics=tuple(metrics))
    outputs = sorted({m.split(".", 1)[0] for m in metrics})
    return _timed(lambda: measure_block(part, block, outputs, executor, workers), clock)


def estimate_run(
    sweep: Sweep,
    *,
    executor: Executor = "local",
    workers: int = 1,
    clock: Callable[[], float] = time.perf_counter,
    progress: Callable[[int, int], None] | None = None,
) -> RunEstimate:
    """The study's size and an estimate of how long it takes, from a few points timed here.

    Without ``simulate.`` metrics the pilot measures its points one by one on the study's own
    work and keeps them (:attr:`RunEstimate.measured`: the run does not measure them again),
    the first also a warm-up (imports) left out of the timing; ``progress`` is called with
    (pilot points done, pilot points). Ctrl-C in the pilot returns the points it finished, with
    ``interrupted`` set.

    Raises:
        KnockoutError: A metric that is not in its output (found while timing).
    """
    n = sweep.size
    simulated = [m for m in sweep.metrics if m.startswith("simulate.")]
    outputs = tuple(sorted({m.split(".", 1)[0] for m in sweep.metrics}))
    runs = sweep.runs if simulated else None
    small = RunEstimate(n, runs, None, "not timed: a small study", outputs)
    if small.safe and n <= PILOT_POINTS:
        return small
    exact = [m for m in sweep.metrics if not m.startswith("simulate.")]
    block = _pilot_points(sweep, PILOT_POINTS)
    basis = f"timed on {len(block)} of the {n:,} grid points"
    if not simulated:
        return _kept_pilot(sweep, block, outputs, executor, workers, clock, progress, basis)
    per_point = 0.0
    if exact:
        _block_seconds(sweep, block[:1], exact, executor, workers, clock)  # warm-up: imports
        per_point += _block_seconds(sweep, block, exact, executor, workers, clock) / len(block)
    seconds_a_point, pilot = _simulate_seconds(sweep, block[0], simulated, executor, workers, clock)
    per_point += seconds_a_point
    basis += f", Monte Carlo up to {pilot:,} runs"
    seconds = per_point * n
    return RunEstimate(n, runs, seconds if math.isfinite(seconds) else None, basis, outputs)


def _kept_pilot(
    sweep: Sweep,
    block: Sequence[tuple[Any, ...]],
    outputs: tuple[str, ...],
    executor: Executor,
    workers: int,
    clock: Callable[[], float],
    progress: Callable[[int, int], None] | None,
    basis: str,
) -> RunEstimate:
    """The pilot on the study's own work, point by point, its points kept (estimate_run)."""
    n = sweep.size
    kept: list[PointResult] = []
    times: list[float] = []
    try:
        for point in block:
            start = clock()
            kept += measure_block(sweep, [point], outputs, executor, workers)
            times.append(clock() - start)
            if progress is not None:
                progress(len(kept), len(block))
    except KeyboardInterrupt:
        return RunEstimate(
            n, None, None, basis, outputs, tuple(kept), True, measured_seconds=sum(times)
        )
    timed = times[1:] or times  # the first point also paid the imports
    per_point = sum(timed) / len(timed)
    seconds = per_point * (n - len(kept))
    return RunEstimate(
        n,
        None,
        seconds if math.isfinite(seconds) else None,
        basis,
        outputs,
        tuple(kept),
        slowest=(max(timed), min(timed)),
        measured_seconds=sum(times),
    )


def _simulate_seconds(
    sweep: Sweep,
    point: tuple[Any, ...],
    metrics: Sequence[str],
    executor: Executor,
    workers: int,
    clock: Callable[[], float],
) -> tuple[float, int]:
    """Seconds a point of ``simulate.`` metrics at the study's runs, and the largest run timed.

    The cost at the fewest runs (timed after a warm-up) plus a cost a run beyond them (timed at
    run counts growing fourfold until one takes :data:`PILOT_SECONDS` or reaches the study's
    runs)."""

    def timed(runs: int) -> float:
        return _block_seconds(replace(sweep, runs=runs), [point], metrics, executor, workers, clock)

    fewest = min(sweep.runs, PILOT_RUNS)
    timed(fewest)  # warm-up: imports, worker start
    fixed = timed(fewest)
    runs, seconds = fewest, fixed
    while seconds < PILOT_SECONDS and runs < sweep.runs:
        runs = min(sweep.runs, 4 * runs)
        seconds = timed(runs)
    if runs >= sweep.runs:
        return seconds, runs
    per_run = max(0.0, seconds - fixed) / (runs - fewest)
    return fixed + per_run * (sweep.runs - fewest), runs
