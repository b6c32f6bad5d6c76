"""Benchmark figures, measured in one run (ratios are what to trust on a shared machine).

Nothing here asserts a speed: :func:`run_benchmark` returns figures for ``knockout bench`` to print.
"""

from __future__ import annotations

import multiprocessing
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

import numpy as np

from knockout.engine.match import play_match
from knockout.exact.solver import solve
from knockout.io.scenario import Scenario
from knockout.rules.match import Pairing
from sims.kernel import MatchTables
from sims.match import match_block
from sims.runner import BLOCK_SIZE, run_blocks

__all__ = ["BenchFigures", "run_benchmark"]


@dataclass(frozen=True)
class BenchFigures:
    """What ``knockout bench`` reports.

    Attributes:
        scenario: Name of the benchmarked scenario.
        block_size: Matches per kernel call.
        kernel_per_second: Matches per second of one block (kernel and tally) on one core, best
            of the repeats.
        floor_per_second: Matches per second if all we did was draw 4 uniform doubles each.
        ratio: Kernel time over floor time (target: at most 3).
        scaling: ``[(workers, matches per second, wall seconds, startup seconds)]`` for local
            processes; startup is the wall time of a one-block run (starting the workers).
        scaling_runs: Matches simulated in each scaling run.
        ceiling: ``(workers, speed-up)``: the most this machine gives for this work with that
            many processes, measured without the runner (see :func:`hardware_ceiling`).
        engine_per_second: SimPy engine matches per second.
        exact_per_second: Exact-solver matches per second (one pair at a time).
        cores: CPUs visible to this process.
    """

    scenario: str
    block_size: int
    kernel_per_second: float
    floor_per_second: float
    ratio: float
    scaling: list[tuple[int, float, float, float]]
    scaling_runs: int
    ceiling: tuple[int, float]
    engine_per_second: float
    exact_per_second: float
    cores: int


def _best(f: Callable[[], object], repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        f()
        best = min(best, time.perf_counter() - start)
    return best


def _timed_blocks(job: tuple[MatchTables, int]) -> float:
    """Time ``count`` blocks in this (worker) process: a unit of work with no runner around it."""
    tables, count = job
    match_block(tables, 0, BLOCK_SIZE, 1)  # warm up
    start = time.perf_counter()
    for i in range(count):
        match_block(tables, i, BLOCK_SIZE, 1)
    return time.perf_counter() - start


def hardware_ceiling(tables: MatchTables, workers: int, count: int = 1500) -> float:
    """The best speed-up this machine allows for this work: ``workers`` warm processes each run
    ``count`` blocks at once, against one process alone (no runner, no start-up)."""
    context = multiprocessing.get_context("spawn")
    with context.Pool(workers) as pool:
        pool.map(_timed_blocks, [(tables, 1)] * workers)  # start and warm every worker
        alone = pool.apply(_timed_blocks, ((tables, count),))
        start = time.perf_counter()
        pool.map(_timed_blocks, [(tables, count)] * workers, chunksize=1)
        together = time.perf_counter() - start
    return workers * alone / together


def run_benchmark(
    scenario: Scenario,
    *,
    repeats: int = 30,
    scaling_runs: int = 2**26,
    workers: tuple[int, ...] = (1, 2),
    scaling_repeats: int = 2,
    engine_matches: int = 300,
    progress: Callable[[str], None] | None = None,
) -> BenchFigures:
    """Measure the kernel against the random-number floor, process scaling and the engine."""

    def say(text: str) -> None:
        if progress is not None:
            progress(text)

    a, b = scenario.players[:2]
    pairing = Pairing.of(scenario.format, a, b, model=scenario.model, strategy=scenario.strategy)
    tables = MatchTables.from_pairing(pairing)
    rng = np.random.default_rng(1)
    n = BLOCK_SIZE
    say("kernel vs random-number floor")
    # Interleave the two measurements so machine noise hits both alike.
    kernel = floor = float("inf")
    for _ in range(repeats):
        # A block as a run does it: simulate, then tally the outcomes.
        kernel = min(kernel, _best(lambda: match_block(tables, 0, n, 1), 1))
        floor = min(floor, _best(lambda: rng.random((n, 4)), 1))
    block = partial(match_block, tables)
    startup: dict[int, float] = {}
    wall: dict[int, float] = {}
    # Interleaved repeats (1, 2, 1, 2, ...), best of each: noise on a shared machine comes in
    # spells, and a ratio is only fair if both sides had the same chances.
    for repeat in range(scaling_repeats):
        for w in workers:
            say(f"{scaling_runs:,} matches with {w} local process(es), pass {repeat + 1}")
            start = time.perf_counter()
            run_blocks(block, n, 7, workers=w)  # one block: the cost of starting the workers
            startup[w] = min(startup.get(w, float("inf")), time.perf_counter() - start)
            start = time.perf_counter()
            run_blocks(block, scaling_runs, 7, workers=w)
            wall[w] = min(wall.get(w, float("inf")), time.perf_counter() - start)
    scaling = [(w, scaling_runs / wall[w], wall[w], startup[w]) for w in workers]
    most = max(workers)
    say(f"the machine's own ceiling for {most} processes")
    ceiling = (most, hardware_ceiling(tables, most)) if most > 1 else (1, 1.0)
    say(f"SimPy engine, {engine_matches} matches")
    engine_rng = np.random.default_rng(3)

    def engine_run() -> None:
        for _ in range(engine_matches):
            play_match(
                scenario.format,
                a,
                b,
                strategy=scenario.strategy,
                model=scenario.model,
                rng=engine_rng,
            )

    engine = _best(engine_run, 1)
    say("exact solver")
    exact_reps = 50
    exact = _best(
        lambda: [
            solve(
                Pairing.of(scenario.format, a, b, model=scenario.model, strategy=scenario.strategy)
            )
            for _ in range(exact_reps)
        ],
        3,
    )
    return BenchFigures(
        scenario=scenario.name,
        block_size=n,
        kernel_per_second=n / kernel,
        floor_per_second=n / floor,
        ratio=kernel / floor,
        scaling=scaling,
        scaling_runs=scaling_runs,
        ceiling=ceiling,
        engine_per_second=engine_matches / engine,
        exact_per_second=exact_reps / exact,
        cores=len(os.sched_getaffinity(0))
        if hasattr(os, "sched_getaffinity")
        else os.cpu_count() or 1,
    )
