"""Benchmark figures and the performance goals, measured in one run.

Nothing here asserts a speed: :func:`run_benchmark` returns figures and goals (each with its
measured ratio beside its target) for ``knockout bench`` to print. Ratios are what to trust on a
shared machine: both sides of a ratio are measured in the same run, interleaved, best of several
repeats, so that a spell of load hits both alike.

The goals:

* ``kernel``: one block of the per-match kernel (simulate and tally, rational bidders on the
  seed's final) against the time numpy's PCG64 needs to draw as many uniforms as the kernel
  draws random numbers (one a match): at most 1.4. The kernel's own generator calls (the
  "integer floor") are shown beside.
* ``kernel_beliefs``: the same for believed bidders (``belief_sd`` 100), the stage walk, its
  draws (about 1.8 a match, the beliefs' Normals counted as uniforms): at most 2.5.
* ``processes``: the speed-up of a long run (at least 2 s on one process) with every CPU over
  one process, as a share of this machine's own ceiling for the same work (warm processes, no
  runner, measured in the same passes): at least 0.90.
* ``never_slower``: wall time with every CPU allowed over one process, for runs of every size
  (in this process, and the whole ``knockout simulate`` command): at most 1.10 at the worst.
* ``startup``: ``knockout --version`` as a whole process against ``python -c pass``, CPU, one
  BLAS thread each: at most 2.5.
* ``bracket``: time per match of the bracket Monte Carlo (64 players) against the single-match
  kernel with the same format and strategy: at most 3.
* ``selfplay``: games a minute of a self-play run with two jobs against the same run with one:
  at least 1.8.
* ``strength_fit_cpu`` / ``backtest_cpu`` (issue 39): ``calibrate --strengths --by time_class``
  on the bundled games table and ``backtest --from 1990 --by time_class`` on it, each a whole
  process: at most 60 s of CPU.
* ``dask``: the speed-up of a run on a local Dask cluster (scheduler and workers in their own
  processes, once started) as a share of the ceiling, i.e. scheduler overhead is a small share:
  at least 0.90.
* Where users wait (:mod:`knockout.bench.waits`): ``short_commands`` (``odds`` on a match and
  ``event next``/``record``/``show``/``odds``, whole-process CPU, against ``import numpy``, one
  BLAS thread each: at most 2.5 for the slowest), ``exact_bracket_cpu`` /
  ``exact_bracket_memory`` / ``exact_bracket_growth`` (4,096 players: at most 15 s of CPU and
  2 GiB, time growing no faster than n^2.1 from 1,024), ``study`` (a study of a ``simulate.``
  metric under private beliefs against the per-match kernel for the same matches: at most 1.5),
  ``estimate_simulate`` / ``estimate_study`` (the estimate said before a run against the run:
  off by at most a factor 2) and ``estimate_pilot`` (the estimate's own wall time before a
  hundred trillion runs of the match and of the bracket: at most 3 s, the slower).

Start-up ratios are measured on a steady yardstick: numpy's bundled OpenBLAS starts a thread
per processor at import and they spin, so ``import numpy`` alone costs more CPU, and more
variably, than it needs; both sides of every start-up ratio run with one BLAS thread, in CPU
time (:data:`~knockout.bench.waits.STEADY_NOTE`).
"""

from __future__ import annotations

import compileall
import importlib.util
import math
import multiprocessing
import os
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import asdict, dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

import knockout
from knockout.bench.selfplay import SelfPlayCheck, selfplay_check
from knockout.bench.waits import (
    BRACKET_WORKLOAD,
    STEADY_NOTE,
    BracketSize,
    CommandTime,
    CorpusTime,
    EstimateCheck,
    PilotTime,
    StudyCheck,
    bracket_sizes,
    child_cpu,
    corpus_times,
    estimate_checks,
    knockout_argv,
    pilot_times,
    short_commands,
    study_check,
)
from knockout.corpus.bundle import BUNDLED
from knockout.engine.match import play_match
from knockout.errors import KnockoutError
from knockout.exact.solver import solve
from knockout.rules.chain.pairing import Pairing
from knockout.rules.decisions.strategies import Believed
from knockout.rules.scenario.aggregate import Scenario
from sims.bracket import BRACKET_BLOCK, BracketJob, bracket_block
from sims.kernel import MatchTables, count_walk, simulate
from sims.match import kernel_block, match_block
from sims.runner import (
    BLOCK_SIZE,
    available_cpus,
    dask_workers,
    default_start_method,
    keep_freed_memory,
    run_blocks,
)

__all__ = [
    "BenchFigures",
    "BenchSettings",
    "Goal",
    "Timed",
    "goals",
    "run_benchmark",
]

Say = Callable[[str], None]

#: Run sizes checked for "never slower" in this process: one block, 16 blocks, the issue's 10 M.
SMALL_RUNS = (BLOCK_SIZE, 16 * BLOCK_SIZE, 10_000_000)
#: A long run is one that takes at least this long on one process.
LONG_RUN_SECONDS = 2.0
#: Matches timed per side for a short run (1-2 s): a run of 1-200 ms is repeated up to 50
#: times, since its best time is what a spell of load hides.
SMALL_MATCHES = 100_000_000


@dataclass(frozen=True)
class Goal:
    """A performance goal with its measured ratio.

    Attributes:
        key: Short name (``kernel``, ``processes``, ...).
        label: What is measured.
        measured: The measured ratio (None if not measured in this run).
        target: The target.
        at_most: True if the ratio must be at most the target (else at least).
        figures: The figures behind the ratio.
    """

    key: str
    label: str
    measured: float | None
    target: float
    at_most: bool
    figures: str

    @property
    def met(self) -> bool | None:
        """Whether the target is met (None if not measured)."""
        if self.measured is None:
            return None
        return self.measured <= self.target if self.at_most else self.measured >= self.target

    @property
    def target_text(self) -> str:
        """``<= 3`` or ``>= 0.90``."""
        return f"{'<=' if self.at_most else '>='} {self.target:g}"

    def to_json(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "label": self.label,
            "measured": self.measured,
            "target": self.target,
            "at_most": self.at_most,
            "met": self.met,
            "figures": self.figures,
        }


@dataclass(frozen=True)
class Timed:
    """The same run with one process and with more allowed.

    Attributes:
        runs: Simulations in the run.
        one: Wall seconds with one process.
        many: Wall seconds with every allowed process (for the short runs and the whole
            command: the pair, timed back to back, of median ratio; for the long run: the
            best of each).
        processes: Processes the runner used in the ``many`` run (None: not known, e.g. in
            another process).
    """

    runs: int
    one: float
    many: float
    processes: int | None

    @property
    def ratio(self) -> float:
        """``many / one``: below 1 is faster with more processes."""
        return self.many / self.one

    @property
    def speedup(self) -> float:
        """``one / many``."""
        return self.one / self.many


@dataclass(frozen=True)
class BenchFigures:
    """What ``knockout bench`` reports (every figure in seconds or per second).

    Attributes:
        scenario: Name of the benchmarked match scenario.
        cores: CPUs visible to this process.
        workers: Processes compared with one (every CPU by default).
        block_size: Matches per kernel block.
        kernel_per_second: Matches per second of one block (kernel and tally), one core.
        floor_per_second: Matches per second if all we did was draw as many PCG64 uniforms
            as the kernel draws random numbers (the uniform floor).
        scaling: The long run, one process against ``workers``.
        ceiling: This machine's own speed-up with ``workers`` processes on this work.
        small: Runs of other sizes, in this process, one process against ``workers``.
        cli: The whole ``knockout simulate`` command (10 M matches), one against ``workers``.
        version_seconds: ``knockout --version``, whole process, CPU, one BLAS thread.
        numpy_seconds: ``python -c "import numpy"``, the same.
        bracket_scenario: Name of the bracket scenario.
        bracket_match_seconds: Seconds per match of a bracket block.
        kernel_match_seconds: Seconds per match of the single-match kernel, same strategy.
        bracket_events_per_second: Bracket events per second, one core.
        dask: A run on a local Dask cluster of ``workers`` (started beforehand) against one
            local process.
        dask_startup: Seconds to start that cluster.
        engine_per_second: SimPy engine matches per second.
        exact_per_second: Exact-solver matches per second (one pair per call).
        load: The machine's 1-minute load average at the start and at the end (other work on a
            shared machine; 0 where not available).
        draws_per_match: Random numbers the kernel draws per match (counted on a block).
        multinomial_per_second: Matches per second of a block drawn as one multinomial.
        integer_floor_per_second: Matches per second of the kernel's own generator calls
            alone (its integers and its split), the integer floor.
        beliefs_kernel_per_second: Matches per second of the kernel under believed bidders.
        beliefs_floor_per_second: Matches per second of the uniforms for its draws.
        beliefs_draws_per_match: Its random numbers a match.
        pass_seconds: ``python -c pass``, whole process, CPU, one BLAS thread.
        selfplay: Self-play with one job against two (or why not measured).
        commands: Short commands as whole processes (CPU) beside ``import numpy``.
        brackets: Exact bracket odds of large fields, each in a fresh process.
        study: A study of a ``simulate.`` metric against the kernel for the same matches.
        estimates: Estimates said before a run beside the run's time.
        pilots: The estimate's own time before a very long run.
        corpus: The strength fit and the backtest of the bundled games table (None: not
            timed).
        goals: The goals, each with its measured ratio.
    """

    scenario: str
    cores: int
    workers: int
    block_size: int
    kernel_per_second: float
    floor_per_second: float
    scaling: Timed | None
    ceiling: float | None
    small: tuple[Timed, ...]
    cli: Timed | None
    version_seconds: float | None
    numpy_seconds: float | None
    bracket_scenario: str | None
    bracket_match_seconds: float | None
    kernel_match_seconds: float | None
    bracket_events_per_second: float | None
    dask: Timed | None
    dask_startup: float | None
    engine_per_second: float
    exact_per_second: float
    load: tuple[float, float] = (0.0, 0.0)
    draws_per_match: float = 4.0
    multinomial_per_second: float | None = None
    commands: tuple[CommandTime, ...] = ()
    brackets: tuple[BracketSize, ...] = ()
    study: StudyCheck | None = None
    estimates: tuple[EstimateCheck, ...] = ()
    integer_floor_per_second: float | None = None
    beliefs_kernel_per_second: float | None = None
    beliefs_floor_per_second: float | None = None
    beliefs_draws_per_match: float | None = None
    pass_seconds: float | None = None
    selfplay: SelfPlayCheck | str | None = None
    pilots: tuple[PilotTime, ...] = ()
    corpus: tuple[CorpusTime, CorpusTime] | None = None
    goals: tuple[Goal, ...] = field(default=())

    def to_json(self) -> dict[str, Any]:
        """Every figure and ratio, and the goals."""
        out = asdict(self)
        out["goals"] = [g.to_json() for g in self.goals]
        for key in ("scaling", "cli", "dask"):
            timed = getattr(self, key)
            if timed is not None:
                out[key] |= {"ratio": timed.ratio, "speedup": timed.speedup}
        out["small"] = [asdict(t) | {"ratio": t.ratio} for t in self.small]
        out["kernel_ratio"] = self.floor_per_second / self.kernel_per_second
        out["commands"] = [asdict(c) | {"ratio": c.ratio} for c in self.commands]
        if self.study is not None:
            out["study"] |= {"ratio": self.study.ratio}
        out["estimates"] = [asdict(e) | {"ratio": e.ratio} for e in self.estimates]
        if isinstance(self.selfplay, SelfPlayCheck):
            out["selfplay"] = asdict(self.selfplay) | {"ratio": self.selfplay.ratio}
        if self.beliefs_kernel_per_second and self.beliefs_floor_per_second:
            out["beliefs_kernel_ratio"] = (
                self.beliefs_floor_per_second / self.beliefs_kernel_per_second
            )
        out["steady_note"] = STEADY_NOTE
        return out

    def rows(self) -> list[tuple[str, str]]:
        """``(measure, figure)`` rows of the figures table."""
        rows = [
            ("kernel, one core", f"{self.kernel_per_second / 1e6:,.1f} M matches/s"),
            (
                f"floor: {self.draws_per_match:.2f} PCG64 uniforms a match (its random numbers)",
                f"{self.floor_per_second / 1e6:,.1f} M matches/s",
            ),
        ]
        if self.integer_floor_per_second is not None:
            rows.append(
                (
                    "integer floor: the kernel's own generator calls (two cells an integer, "
                    "the split)",
                    f"{self.integer_floor_per_second / 1e6:,.1f} M matches/s",
                )
            )
        b_kernel, b_floor = self.beliefs_kernel_per_second, self.beliefs_floor_per_second
        if b_kernel is not None and b_floor is not None:
            rows.append(
                (
                    f"kernel, believed bidders (belief_sd {BELIEFS_SD:g}), one core",
                    f"{b_kernel / 1e6:,.1f} M matches/s",
                )
            )
            rows.append(
                (
                    f"floor: {self.beliefs_draws_per_match or 0:.2f} PCG64 uniforms a match "
                    "(its draws, Normals counted as uniforms)",
                    f"{b_floor / 1e6:,.1f} M matches/s",
                )
            )
        if self.multinomial_per_second is not None:
            rows.append(
                (
                    "a block's exit counts as one multinomial (no private beliefs)",
                    f"{self.multinomial_per_second / 1e6:,.0f} M matches/s",
                )
            )
        if self.scaling is not None:
            s = self.scaling
            rows.append(
                (
                    f"{s.runs:,} matches, 1 process",
                    f"{s.one:.2f} s ({s.runs / s.one / 1e6:,.1f} M/s)",
                )
            )
            rows.append(
                (
                    f"{s.runs:,} matches, up to {self.workers} processes",
                    f"{s.many:.2f} s ({s.runs / s.many / 1e6:,.1f} M/s), x{s.speedup:.2f}, "
                    f"{s.processes} used",
                )
            )
        if self.ceiling is not None:
            rows.append(
                (f"this machine's ceiling, {self.workers} processes", f"x{self.ceiling:.2f}")
            )
        for t in (*self.small, *(() if self.cli is None else (self.cli,))):
            where = "knockout simulate (whole command)" if t is self.cli else "in this process"
            used = "" if t.processes is None else f" ({t.processes} used)"
            rows.append(
                (
                    f"{t.runs:,} matches, {where}",
                    f"{t.one:.3f} s vs {t.many:.3f} s with up to {self.workers}{used}: "
                    f"x{t.ratio:.2f} of the time",
                )
            )
        if self.version_seconds is not None and self.pass_seconds is not None:
            numpy_s = (
                "" if self.numpy_seconds is None else f"; import numpy {self.numpy_seconds:.3f} s"
            )
            rows.append(
                (
                    "knockout --version vs python -c pass, CPU, one BLAS thread",
                    f"{self.version_seconds:.3f} s vs {self.pass_seconds:.3f} s{numpy_s}",
                )
            )
        if self.bracket_match_seconds is not None and self.kernel_match_seconds is not None:
            rows.append(
                (
                    f"bracket Monte Carlo: {self.bracket_scenario}",
                    f"{self.bracket_events_per_second or 0:,.0f} events/s; "
                    f"{self.bracket_match_seconds * 1e9:.1f} ns/match vs "
                    f"{self.kernel_match_seconds * 1e9:.1f} ns/match in the kernel",
                )
            )
        if self.dask is not None:
            d = self.dask
            rows.append(
                (
                    f"{d.runs:,} matches, Dask local cluster of {self.workers}",
                    f"{d.many:.2f} s vs {d.one:.2f} s in 1 process: x{d.speedup:.2f} "
                    f"(cluster start-up {self.dask_startup or 0:.1f} s, not counted)",
                )
            )
        rows.append(
            (
                "machine load (1-minute average), start and end",
                f"{self.load[0]:.2f}, {self.load[1]:.2f} on {self.cores} CPUs",
            )
        )
        rows += self._wait_rows()
        if isinstance(self.selfplay, SelfPlayCheck):
            sp = self.selfplay
            rows.append(
                (
                    f"self-play: {sp.games} games at {sp.nodes:,} nodes, --jobs {sp.jobs} vs 1",
                    f"{sp.many_per_minute:.1f} vs {sp.one_per_minute:.1f} games/min: "
                    f"x{sp.ratio:.2f}; files {'the same' if sp.same_files else 'DIFFERENT'}",
                )
            )
        rows.append(("start-up yardstick", STEADY_NOTE))
        rows.append(("SimPy engine", f"{self.engine_per_second:,.0f} matches/s"))
        rows.append(("exact solver (one pair per call)", f"{self.exact_per_second:,.0f} matches/s"))
        return rows

    def _wait_rows(self) -> list[tuple[str, str]]:
        rows = [
            (
                f"knockout {c.command} vs python -c 'import numpy', CPU, one BLAS thread",
                f"{c.seconds:.3f} s vs {c.numpy_seconds:.3f} s: x{c.ratio:.2f}",
            )
            for c in self.commands
        ]
        rows += [
            (
                f"exact bracket odds, {b.players:,} players",
                f"{b.cpu_seconds:.2f} s CPU, peak {b.peak_bytes / 2**30:.2f} GiB",
            )
            for b in self.brackets
        ]
        if self.study is not None:
            st = self.study
            said = "-" if st.estimate_seconds is None else f"{st.estimate_seconds:.2f} s"
            rows.append(
                (
                    f"study: {st.workload}",
                    f"{st.study_seconds:.2f} s CPU vs {st.kernel_seconds:.2f} s of kernel; "
                    f"estimated {said}",
                )
            )
        for e in self.estimates:
            said = "none" if e.estimate is None else f"{e.estimate:.2f} s"
            rows.append((f"estimate: {e.workload}", f"said {said}, took {e.actual:.2f} s"))
        rows += [
            (f"estimate before {p.runs:,} runs: {p.workload}", f"{p.seconds:.2f} s")
            for p in self.pilots
        ]
        rows += [
            (f"knockout {c.command}, {Path(c.games).name}", f"{c.seconds:.1f} s CPU")
            for c in self.corpus or ()
        ]
        return rows

    def markdown(self) -> str:
        """The goals and the figures as Markdown tables (the README's performance section)."""
        lines = ["| goal | measured | target | met |", "|---|---|---|---|"]
        for g in self.goals:
            measured = "not measured" if g.measured is None else f"**{g.measured:.2f}**"
            met = {True: "yes", False: "**no**", None: "-"}[g.met]
            lines.append(f"| {g.label} | {measured} | {g.target_text} | {met} |")
        lines += ["", "| measure | figure |", "|---|---|"]
        lines += [f"| {m} | {f} |" for m, f in self.rows()]
        return "\n".join(lines) + "\n"


def _best(f: Callable[[], object], repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        f()
        best = min(best, time.perf_counter() - start)
    return best


def _interleaved(fs: Sequence[Callable[[], object]], repeats: int) -> list[float]:
    """Best time of each function, the functions taking turns (noise hits all alike)."""
    best = [float("inf")] * len(fs)
    for _ in range(repeats):
        for i, f in enumerate(fs):
            best[i] = min(best[i], _best(f, 1))
    return best


def _paired(
    first: Callable[[], object], second: Callable[[], object], repeats: int
) -> tuple[float, float]:
    """Seconds of ``first`` and ``second``, timed back to back ``repeats`` times: the pair whose
    ratio is the median. Pairs share the machine's state of the moment; the bests of the two
    sides, taken apart, let a sub-second run's ratio wander by 20 % on this machine."""
    pairs = [(_best(first, 1), _best(second, 1)) for _ in range(max(1, repeats))]
    pairs.sort(key=lambda pair: pair[1] / pair[0])
    return pairs[len(pairs) // 2]


# ---------------------------------------------------------------------------------------------
# The machine's own ceiling


def _timed_blocks(job: tuple[MatchTables, int]) -> float:
    """Time ``count`` blocks in this (worker) process: a unit of work with no runner around it."""
    tables, count = job
    keep_freed_memory()
    kernel_block(tables, 0, BLOCK_SIZE, 1)  # warm up
    start = time.perf_counter()
    for i in range(count):
        kernel_block(tables, i, BLOCK_SIZE, 1)
    return time.perf_counter() - start


def _ceiling_pass(tables: MatchTables, workers: int, count: int) -> tuple[float, float]:
    """One pass of the ceiling: seconds for ``count`` blocks in one warm pool process alone, and
    for ``count`` blocks in each of ``workers`` at once. The pool lives for this pass only (its
    threads in this process would slow this process's own runs)."""
    context = multiprocessing.get_context(default_start_method())
    with context.Pool(workers) as pool:
        pool.map(_timed_blocks, [(tables, 1)] * workers)  # start and warm every pool process
        alone = float(pool.apply(_timed_blocks, ((tables, count),)))
        start = time.perf_counter()
        pool.map(_timed_blocks, [(tables, count)] * workers, chunksize=1)
        return alone, time.perf_counter() - start


@contextmanager
def _dask_cluster(workers: int, say: Say) -> Iterator[tuple[str, float] | None]:
    """A local Dask cluster run as other processes (``dask scheduler`` and ``dask worker``, as
    one started by hand), so that no scheduler threads live in this process and slow its own
    runs; its address and the seconds until every worker had joined. None without the
    ``[distributed]`` extra, or if the cluster did not come up within a minute."""
    if importlib.util.find_spec("distributed") is None:
        yield None
        return
    say(f"starting a local Dask cluster of {workers} processes")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    address = f"tcp://127.0.0.1:{port}"
    scheduler_args = ["--host", "127.0.0.1", "--port", str(port), "--no-dashboard"]
    worker_args = [address, "--nworkers", str(workers), "--nthreads", "1", "--no-dashboard"]
    start = time.perf_counter()
    scheduler, worker = (
        subprocess.Popen(
            [sys.executable, "-m", f"distributed.cli.dask_{kind}", *args],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for kind, args in (("scheduler", scheduler_args), ("worker", worker_args))
    )
    try:
        yield (address, time.perf_counter() - start) if _joined(address, workers) else None
    finally:
        for process in (worker, scheduler):
            process.terminate()
            process.wait()


def _joined(address: str, workers: int, timeout: float = 60.0) -> bool:
    """Wait until ``workers`` workers are connected to the scheduler at ``address``."""
    deadline = time.perf_counter() + timeout
    while time.perf_counter() < deadline:
        try:
            if dask_workers(address) >= workers:
                return True
        except KnockoutError:
            pass  # the scheduler is not listening yet
        time.sleep(0.2)
    return False


@dataclass(frozen=True)
class _Long:
    """The long run with one process and many, on a Dask cluster, and the machine's ceiling."""

    scaling: Timed
    ceiling: float
    dask: Timed | None
    dask_startup: float | None


def _long_runs(tables: MatchTables, workers: int, runs: int, cfg: BenchSettings, say: Say) -> _Long:
    """Each pass runs, in turn: one process, up to ``workers`` processes, the Dask cluster,
    then the ceiling (warm pool processes with no runner: ``count`` blocks in one alone, then in
    each at once). Best of each: every ratio's sides had the same spells of load."""
    block = partial(kernel_block, tables)
    best: dict[str, float] = {}
    used: list[int] = []
    # the ceiling on the run's own work, its blocks shared among the processes: with 400 blocks
    # (a fifteenth of a 7 s run, timed in half a second) shares ranged from 0.88 to 1.33
    count = cfg.ceiling_blocks or max(1, math.ceil(runs / BLOCK_SIZE / workers))

    def keep(key: str, seconds: float) -> None:
        best[key] = min(best.get(key, float("inf")), seconds)

    with ExitStack() as stack:
        cluster = stack.enter_context(_dask_cluster(workers, say)) if cfg.dask else None
        address = None if cluster is None else cluster[0]
        if address is not None:
            run_blocks(block, 4 * BLOCK_SIZE, 1, executor="dask", scheduler=address)  # warm up
        for repeat in range(cfg.scaling_repeats):
            say(f"{runs:,} matches: 1 process, up to {workers}, Dask, ceiling (pass {repeat + 1})")
            keep("one", _best(lambda: run_blocks(block, runs, 7, workers=1), 1))
            start = time.perf_counter()
            used.append(run_blocks(block, runs, 7, workers=workers).processes)
            keep("many", time.perf_counter() - start)
            if address is not None:
                keep(
                    "dask",
                    _best(
                        lambda: run_blocks(block, runs, 7, executor="dask", scheduler=address), 1
                    ),
                )
            alone, together = _ceiling_pass(tables, workers, count)
            keep("alone", alone)
            keep("together", together)
    dask = None if cluster is None else Timed(runs, best["one"], best["dask"], workers)
    return _Long(
        scaling=Timed(runs, best["one"], best["many"], max(used)),
        ceiling=workers * best["alone"] / best["together"],
        dask=dask,
        dask_startup=None if cluster is None else cluster[1],
    )


# ---------------------------------------------------------------------------------------------
# Measurements


def _kernel_vs_floor(
    tables: MatchTables, repeats: int
) -> tuple[float, float, float | None, float, float]:
    """Matches per second of the per-match kernel (:func:`kernel_block`: draw and count a
    block), of the uniform floor (numpy's PCG64 drawing as many uniforms as the kernel draws
    random numbers, counted on a block), of the integer floor (the kernel's own generator calls
    alone, where it counts cells: None otherwise), the draws per match, and matches per second
    of a multinomial block (no work per match); the four timed in turns, best of ``repeats``."""
    rng = np.random.default_rng(1)
    n = BLOCK_SIZE
    split = tables.cell_split
    if split is not None:  # one distribution: a cell a match (two to an integer) + one split
        draws = split.count(n, np.random.default_rng(2)).draws / n
    else:  # the stage walk: uniforms (and the beliefs' Normals, timed as uniforms)
        draws = _walk_draws(tables, n)
    uniforms = partial(rng.random, max(1, round(draws * n)))
    timed: list[Callable[[], object]] = [
        lambda: kernel_block(tables, 0, n, 1),
        uniforms,
        lambda: match_block(tables, 0, n, 1),
    ]
    if split is not None:
        timed.append(partial(split.draw_only, n, rng))
    best = _interleaved(timed, repeats)
    integers = None if split is None else n / best[3]
    return n / best[0], n / best[1], integers, draws, n / best[2]


def _walk_draws(tables: MatchTables, n: int) -> float:
    """Random numbers a match of the stage walk draws (counted on a block)."""
    walk = count_walk(tables, n, np.random.default_rng(2))
    draws = simulate(tables, n, np.random.default_rng(2)).draws if walk is None else walk.draws
    return draws / n


#: The believed bidders' belief sd in the second kernel goal (the study figure's too).
BELIEFS_SD = 100.0


def _beliefs_kernel(scenario: Scenario, repeats: int) -> tuple[float, float, float]:
    """The kernel under ``believed`` bidders (:data:`BELIEFS_SD`) on the scenario's match:
    matches per second, the uniform floor for its draws, and its draws a match."""
    a, b = scenario.players[:2]
    pairing = Pairing.of(scenario.format, a, b, model=scenario.model, strategy=Believed(BELIEFS_SD))
    tables = MatchTables.from_pairing(pairing)
    n = BLOCK_SIZE
    draws = _walk_draws(tables, n)
    rng = np.random.default_rng(1)
    kernel_block(tables, 0, n, 1)  # warm up (the tables' cached sums)
    kernel, floor = _interleaved(
        [lambda: kernel_block(tables, 0, n, 1), partial(rng.random, round(draws * n))], repeats
    )
    return n / kernel, n / floor, draws


#: Seconds the long run should take on one process when its size is left to the benchmark: twice
#: :data:`LONG_RUN_SECONDS`, so that a faster moment of the machine still measures the share.
LONG_RUN_TARGET = 4.0


def _scaling_runs(cfg: BenchSettings, kernel_per_second: float) -> int:
    """The long run's matches: the setting, or about :data:`LONG_RUN_TARGET` seconds of one
    process at the kernel speed just measured, in whole blocks (at least 2**28)."""
    if cfg.scaling_runs is not None:
        return cfg.scaling_runs
    blocks = math.ceil(LONG_RUN_TARGET * kernel_per_second / BLOCK_SIZE)
    return max(2**28, blocks * BLOCK_SIZE)


def _repeats_for(runs: int, least: int) -> int:
    """Repeats for a run of ``runs`` matches: short runs are cheap and noisy, so up to 50."""
    return max(least, min(50, SMALL_MATCHES // runs))


def _runner(tables: MatchTables, runs: int, workers: int, repeats: int, seed: int = 7) -> Timed:
    block = partial(kernel_block, tables)
    used: list[int] = []

    def many() -> None:
        used.append(run_blocks(block, runs, seed, workers=workers).processes)

    one, many_s = _paired(lambda: run_blocks(block, runs, seed, workers=1), many, repeats)
    return Timed(runs, one, many_s, max(used))


def _command(args: list[str]) -> Callable[[], object]:
    """A whole ``knockout`` command in a fresh interpreter, as the console script runs it:
    ``knockout.program:main`` (the CLI's main, what the program adds to it included), not
    ``knockout.cli`` alone, which users never run."""
    code = "import sys\nfrom knockout.program import main\nsys.exit(main())"
    argv = [sys.executable, "-c", code, *args]
    return lambda: subprocess.run(argv, check=True, capture_output=True)


def current_bytecode() -> None:
    """Write the program's cached bytecode where it is stale or missing, as a user's first run
    does: a fresh process then times what every later run costs, not the compiling of edited
    modules (which ``PYTHONDONTWRITEBYTECODE`` would otherwise repeat at every start).
    A folder that cannot be written is left as it is."""
    for folder in {Path(knockout.__file__).parent, *_sims_folders()}:
        compileall.compile_dir(folder, quiet=2)


def _sims_folders() -> list[Path]:
    spec = importlib.util.find_spec("sims")
    return [] if spec is None or spec.origin is None else [Path(spec.origin).parent]


def _startup(repeats: int) -> tuple[float, float, float]:
    """CPU seconds of ``knockout --version``, ``python -c pass`` and ``python -c "import
    numpy"`` as whole processes, one BLAS thread each, timed back to back ``repeats`` times:
    the repeat whose ``--version`` to ``pass`` ratio is the median."""
    runs = []
    for _ in range(max(1, repeats)):
        version = child_cpu(knockout_argv(["--version"]))
        bare = child_cpu([sys.executable, "-c", "pass"])
        numpy_s = child_cpu([sys.executable, "-c", "import numpy"])
        runs.append((version, bare, numpy_s))
    runs.sort(key=lambda run: run[0] / max(run[1], 1e-9))
    return runs[len(runs) // 2]


def _cli(path: Path, runs: int, workers: int, repeats: int) -> Timed:
    args = ["simulate", str(path), "--runs", str(runs), "--seed", "1", "--json", "--workers"]
    one, many = _paired(_command([*args, "1"]), _command([*args, str(workers)]), repeats)
    return Timed(runs, one, many, None)


def _bracket(scenario: Scenario, repeats: int) -> tuple[float, float, float]:
    """Seconds per match of a bracket block and of the single-match kernel (same strategy, the
    two highest-rated players), interleaved; and bracket events per second."""
    job = BracketJob.from_scenario(scenario)
    a, b = sorted(scenario.players, key=lambda p: -p.rating)[:2]
    pairing = Pairing.of(scenario.format, a, b, model=scenario.model, strategy=scenario.strategy)
    tables = MatchTables.from_pairing(pairing)
    events = BRACKET_BLOCK
    bracket_block(job, 0, events, 1)  # warm up (and build what the job caches)
    kernel_block(tables, 0, BLOCK_SIZE, 1)
    bracket_s, kernel_s = _interleaved(
        [lambda: bracket_block(job, 1, events, 1), lambda: kernel_block(tables, 1, BLOCK_SIZE, 1)],
        repeats,
    )
    matches = events * _matches_per_event(job)
    return bracket_s / matches, kernel_s / BLOCK_SIZE, events / bracket_s


def _matches_per_event(job: BracketJob) -> int:
    """Matches with two players in every event (byes not counted; third place counted)."""
    plans, third = job.plans
    return sum(
        int(p.fixed.size) + (len(job.lines) >> p.round if p.played is None else int(p.played.size))
        for p in (*plans, *(() if third is None else (third,)))
    )


def _engine_and_exact(scenario: Scenario, engine_matches: int) -> tuple[float, float]:
    a, b = scenario.players[:2]
    rng = np.random.default_rng(3)

    def engine_run() -> None:
        for _ in range(engine_matches):
            play_match(
                scenario.format, a, b, strategy=scenario.strategy, model=scenario.model, rng=rng
            )

    engine = _best(engine_run, 1)
    exact_reps = 50

    def exact_run() -> None:
        for _ in range(exact_reps):
            solve(
                Pairing.of(scenario.format, a, b, model=scenario.model, strategy=scenario.strategy)
            )

    return engine_matches / engine, exact_reps / _best(exact_run, 3)


@dataclass(frozen=True)
class BenchSettings:
    """How much to measure (the defaults are ``knockout bench``'s).

    Attributes:
        repeats: Kernel and floor blocks timed (interleaved, best of).
        scaling_runs: Matches in the long run; None: as many as one process runs in about
            :data:`LONG_RUN_TARGET` seconds at the kernel speed just measured (the ratio needs
            at least :data:`LONG_RUN_SECONDS`), at least 2**28.
        scaling_repeats: Passes of the long run (one process, many, Dask, the ceiling).
        small_runs: Sizes of the shorter runs timed in this process.
        small_repeats: Their repeats.
        cli_runs: Matches in the timed ``knockout simulate`` commands (0: not timed).
        cli_repeats: Their repeats.
        startup_repeats: Repeats of ``knockout --version`` and of ``import numpy`` (0: not timed).
        bracket_repeats: Bracket and kernel blocks timed.
        ceiling_blocks: Blocks per process in the ceiling measurement (None: the long run's
            blocks shared among the processes, the same work as the run).
        dask: Time a local Dask cluster too (the long run).
        engine_matches: SimPy engine matches timed.
        command_repeats: Repeats of each short command and of ``import numpy`` (0: not timed).
        bracket_sizes: Field sizes of the exact bracket figures (the growth is between the
            first and the last).
        study_steps: Steps of each axis of the timed study (below 2: not timed).
        study_runs: Its runs a point.
        estimate_runs: Runs of the ``simulate`` whose estimate is checked (0: not checked).
        beliefs_repeats: Blocks of the believed bidders' kernel and its floor timed (0: not
            timed).
        selfplay_games: Games of each self-play run (0: not played).
        pilot_runs: Runs of the very long ``simulate`` whose estimate is timed (0: not timed).
        corpus_repeats: Repeats of the strength fit and the backtest of the bundled games
            table, each a whole process of up to a minute (0: not timed).
    """

    repeats: int = 30
    scaling_runs: int | None = None
    scaling_repeats: int = 3
    small_runs: tuple[int, ...] = SMALL_RUNS
    small_repeats: int = 5
    cli_runs: int = 10_000_000
    cli_repeats: int = 15  # whole processes of ~0.6 s: 5 or 9 left a 10 % spread between runs
    startup_repeats: int = 10
    bracket_repeats: int = 30
    ceiling_blocks: int | None = None
    dask: bool = True
    engine_matches: int = 300
    command_repeats: int = 7
    bracket_sizes: tuple[int, ...] = (1024, 4096)
    study_steps: int = 10  # 100 points: a study's per-block set-up weighs as in a real grid
    study_runs: int = 200_000
    estimate_runs: int = 10_000_000
    beliefs_repeats: int = 30
    selfplay_games: int = 24  # 8 openings: each run a few dozen seconds on a quiet machine
    pilot_runs: int = 10**14
    corpus_repeats: int = 1


def run_benchmark(
    scenario: Scenario,
    *,
    path: Path | None = None,
    bracket: Scenario | None = None,
    workers: int | None = None,
    settings: BenchSettings | None = None,
    progress: Say | None = None,
) -> BenchFigures:
    """Measure every figure and goal in one run.

    Args:
        scenario: A two-player scenario (the kernel, the runner, the engine, the solver).
        path: Its file, for timing the whole ``knockout simulate`` command (None: not timed).
        bracket: A bracket scenario (None: no bracket figures).
        workers: Processes to compare with one (default: every CPU).
        settings: How much to measure.
        progress: Called with a short text before each measurement.
    """
    cfg = settings or BenchSettings()
    say = progress or (lambda _text: None)
    load_start = _load()
    keep_freed_memory()
    cores = available_cpus()
    n = workers or cores
    a, b = scenario.players[:2]
    pairing = Pairing.of(scenario.format, a, b, model=scenario.model, strategy=scenario.strategy)
    tables = MatchTables.from_pairing(pairing)
    say("kernel vs random-number floor")
    kernel, floor, integers, draws, multinomial = _kernel_vs_floor(tables, cfg.repeats)
    beliefs = None
    if cfg.beliefs_repeats > 0:
        say(f"kernel under believed bidders (belief_sd {BELIEFS_SD:g}) vs its floor")
        beliefs = _beliefs_kernel(scenario, cfg.beliefs_repeats)
    long = None if n < 2 else _long_runs(tables, n, _scaling_runs(cfg, kernel), cfg, say)
    say("shorter runs")
    small = tuple(
        _runner(tables, runs, n, _repeats_for(runs, cfg.small_repeats)) for runs in cfg.small_runs
    )
    cli = None
    if path is not None and cfg.cli_runs > 0:
        say(f"knockout simulate --runs {cfg.cli_runs:,}, --workers 1 and {n}")
        cli = _cli(path, cfg.cli_runs, n, cfg.cli_repeats)
    version = numpy_s = bare = None
    if cfg.startup_repeats > 0 or cfg.command_repeats > 0:
        current_bytecode()
    if cfg.startup_repeats > 0:
        say("start-up: knockout --version, python -c pass and python -c 'import numpy'")
        version, bare, numpy_s = _startup(cfg.startup_repeats)
    per_match = None
    if bracket is not None:
        say(f"bracket Monte Carlo: {bracket.name}")
        per_match = _bracket(bracket, cfg.bracket_repeats)
    say(f"SimPy engine ({cfg.engine_matches} matches) and exact solver")
    engine, exact = _engine_and_exact(scenario, cfg.engine_matches)
    commands = (
        ()
        if path is None or cfg.command_repeats < 1
        else short_commands(path, cfg.command_repeats, say)
    )
    brackets = bracket_sizes(cfg.bracket_sizes, say)
    study = (
        None if cfg.study_steps < 2 else study_check(scenario, cfg.study_steps, cfg.study_runs, say)
    )
    estimates = () if cfg.estimate_runs < 1 else estimate_checks(scenario, cfg.estimate_runs, say)
    selfplay = None if cfg.selfplay_games < 1 else selfplay_check(cfg.selfplay_games, 2, say)
    pilots = (
        ()
        if cfg.pilot_runs < 1
        else pilot_times([s for s in (scenario, bracket) if s is not None], cfg.pilot_runs, say)
    )
    corpus = None
    if cfg.corpus_repeats > 0:
        corpus = corpus_times(BUNDLED, CORPUS_FROM, cfg.corpus_repeats, say)
    figures = BenchFigures(
        scenario=scenario.name,
        cores=cores,
        workers=n,
        block_size=BLOCK_SIZE,
        kernel_per_second=kernel,
        floor_per_second=floor,
        scaling=None if long is None else long.scaling,
        ceiling=None if long is None else long.ceiling,
        small=small,
        cli=cli,
        version_seconds=version,
        numpy_seconds=numpy_s,
        bracket_scenario=None if bracket is None else bracket.name,
        bracket_match_seconds=None if per_match is None else per_match[0],
        kernel_match_seconds=None if per_match is None else per_match[1],
        bracket_events_per_second=None if per_match is None else per_match[2],
        dask=None if long is None else long.dask,
        dask_startup=None if long is None else long.dask_startup,
        engine_per_second=engine,
        exact_per_second=exact,
        load=(load_start, _load()),
        draws_per_match=draws,
        multinomial_per_second=multinomial,
        commands=commands,
        brackets=brackets,
        study=study,
        estimates=estimates,
        integer_floor_per_second=integers,
        beliefs_kernel_per_second=None if beliefs is None else beliefs[0],
        beliefs_floor_per_second=None if beliefs is None else beliefs[1],
        beliefs_draws_per_match=None if beliefs is None else beliefs[2],
        pass_seconds=bare,
        selfplay=selfplay,
        pilots=pilots,
        corpus=corpus,
    )
    return replace(figures, goals=goals(figures))


def _load() -> float:
    """The 1-minute load average (0 where not available)."""
    try:
        return os.getloadavg()[0]
    except (AttributeError, OSError):
        return 0.0


def goals(f: BenchFigures) -> tuple[Goal, ...]:
    """The issue's goals from the figures, each with its measured ratio."""
    integers = (
        ""
        if f.integer_floor_per_second is None
        else f"; integer floor {f.integer_floor_per_second / 1e6:.1f} M/s"
    )
    b_kernel, b_floor = f.beliefs_kernel_per_second, f.beliefs_floor_per_second
    out = [
        Goal(
            "kernel",
            "kernel time / PCG64 uniforms for its random numbers, rational bidders, one core",
            f.floor_per_second / f.kernel_per_second,
            KERNEL_TARGET,
            True,
            f"{f.kernel_per_second / 1e6:.1f} vs {f.floor_per_second / 1e6:.1f} M matches/s "
            f"({f.draws_per_match:.2f} random numbers a match){integers}",
        ),
        Goal(
            "kernel_beliefs",
            f"kernel time / PCG64 uniforms for its draws, believed bidders (belief_sd "
            f"{BELIEFS_SD:g}), one core",
            None if b_kernel is None or b_floor is None else b_floor / b_kernel,
            BELIEFS_KERNEL_TARGET,
            True,
            "not measured"
            if b_kernel is None or b_floor is None
            else f"{b_kernel / 1e6:.1f} vs {b_floor / 1e6:.1f} M matches/s "
            f"({f.beliefs_draws_per_match or 0:.2f} draws a match, Normals as uniforms)",
        ),
    ]
    s, c = f.scaling, f.ceiling
    long_enough = s is not None and s.one >= LONG_RUN_SECONDS
    out.append(
        Goal(
            "processes",
            f"{f.workers} processes vs 1, share of the machine's ceiling (run of 2 s or more)",
            s.speedup / c if s is not None and c is not None and long_enough else None,
            0.90,
            False,
            "not measured (one CPU, or the run was under 2 s)"
            if s is None or c is None or not long_enough
            else f"x{s.speedup:.2f} of a ceiling of x{c:.2f} ({s.runs:,} matches, {s.one:.1f} s)",
        )
    )
    timed = [*f.small, *(() if f.cli is None else (f.cli,))]
    worst = max(timed, key=lambda t: t.ratio, default=None)
    out.append(
        Goal(
            "never_slower",
            f"up to {f.workers} processes vs 1, time, worst run size",
            None if worst is None else worst.ratio,
            1.10,
            True,
            "not measured"
            if worst is None
            else ", ".join(f"{t.runs:,}: x{t.ratio:.2f}" for t in timed)
            + ("" if f.cli is None else " (the last: the whole simulate command)"),
        )
    )
    v, bare = f.version_seconds, f.pass_seconds
    out.append(
        Goal(
            "startup",
            "knockout --version / python -c pass, whole-process CPU, one BLAS thread",
            None if v is None or bare is None else v / bare,
            STARTUP_TARGET,
            True,
            "not measured" if v is None or bare is None else f"{v:.3f} s vs {bare:.3f} s",
        )
    )
    bm, km = f.bracket_match_seconds, f.kernel_match_seconds
    out.append(
        Goal(
            "bracket",
            "bracket Monte Carlo / single-match kernel, time per match, same strategy",
            None if bm is None or km is None else bm / km,
            3.0,
            True,
            "not measured"
            if bm is None or km is None
            else f"{bm * 1e9:.1f} vs {km * 1e9:.1f} ns/match ({f.bracket_scenario})",
        )
    )
    sp = f.selfplay
    out.append(
        Goal(
            "selfplay",
            "self-play, --jobs 2 / --jobs 1, games a minute",
            sp.ratio if isinstance(sp, SelfPlayCheck) else None,
            SELFPLAY_TARGET,
            False,
            (sp if isinstance(sp, str) else "not measured")
            if not isinstance(sp, SelfPlayCheck)
            else f"{sp.many_per_minute:.1f} vs {sp.one_per_minute:.1f} games/min "
            f"({sp.games} games at {sp.nodes:,} nodes; files "
            f"{'the same' if sp.same_files else 'DIFFERENT'})",
        )
    )
    out += _wait_goals(f)
    d = f.dask
    out.append(
        Goal(
            "dask",
            f"Dask local cluster of {f.workers} vs 1 process, share of the machine's ceiling",
            None if d is None or c is None else d.speedup / c,
            0.90,
            False,
            "not measured (no [distributed] extra, or one CPU)"
            if d is None or c is None
            else f"x{d.speedup:.2f} of a ceiling of x{c:.2f} ({d.runs:,} matches)",
        )
    )
    return tuple(out)


#: Targets of the goals (issues 26 and 44).
KERNEL_TARGET = 1.4
BELIEFS_KERNEL_TARGET = 2.5
STARTUP_TARGET = 2.5
SELFPLAY_TARGET = 1.8
SHORT_COMMAND_TARGET = 2.5
BRACKET_CPU_TARGET = 15.0
BRACKET_MEMORY_TARGET = 2.0  # GiB
BRACKET_GROWTH_TARGET = 2.1
STUDY_TARGET = 1.5
ESTIMATE_TARGET = 2.0
PILOT_TARGET = 3.0  # seconds: said before a run starts, so a user is not kept waiting for it
CORPUS_CPU_TARGET = 60.0  # seconds of CPU: the strength fit, and the backtest (issue 39)
CORPUS_FROM = 1990  # the backtest's first year forecast


def _wait_goals(f: BenchFigures) -> list[Goal]:
    """The goals of where users wait: short commands, big brackets, studies, estimates."""
    out = []
    worst = max(f.commands, key=lambda c: c.ratio, default=None)
    out.append(
        Goal(
            "short_commands",
            "short commands (odds on a match, event next/record/show/odds; odds and event "
            "show with --lang zh) / python -c "
            "'import numpy', whole-process CPU, one BLAS thread, the slowest",
            None if worst is None else worst.ratio,
            SHORT_COMMAND_TARGET,
            True,
            "not measured"
            if worst is None
            else ", ".join(f"{c.command} x{c.ratio:.2f}" for c in f.commands),
        )
    )
    big = f.brackets[-1] if f.brackets else None
    out.append(
        Goal(
            "exact_bracket_cpu",
            f"exact bracket odds of {big.players if big else 4096:,} players, CPU seconds",
            None if big is None else big.cpu_seconds,
            BRACKET_CPU_TARGET,
            True,
            "not measured" if big is None else BRACKET_WORKLOAD,
        )
    )
    out.append(
        Goal(
            "exact_bracket_memory",
            f"exact bracket odds of {big.players if big else 4096:,} players, peak GiB",
            None if big is None else big.peak_bytes / 2**30,
            BRACKET_MEMORY_TARGET,
            True,
            "not measured" if big is None else "the process's peak resident memory",
        )
    )
    growth = None
    if len(f.brackets) >= 2 and min(b.cpu_seconds for b in f.brackets) > 0:
        lo, hi = f.brackets[0], f.brackets[-1]
        growth = math.log(hi.cpu_seconds / lo.cpu_seconds) / math.log(hi.players / lo.players)
    out.append(
        Goal(
            "exact_bracket_growth",
            "exact bracket odds, growth exponent of CPU time between the two field sizes",
            growth,
            BRACKET_GROWTH_TARGET,
            True,
            "not measured"
            if growth is None
            else f"{f.brackets[0].players:,} and {f.brackets[-1].players:,} players: "
            + ", ".join(f"{b.cpu_seconds:.2f} s" for b in f.brackets),
        )
    )
    st = f.study
    out.append(
        Goal(
            "study",
            "study of a simulate. metric / per-match kernel for the same matches, CPU",
            None if st is None else st.ratio,
            STUDY_TARGET,
            True,
            "not measured"
            if st is None
            else f"{st.workload}: {st.study_seconds:.2f} s vs {st.kernel_seconds:.2f} s",
        )
    )
    study_estimate = (
        None
        if st is None or st.estimate_seconds is None
        else EstimateCheck(f"study: {st.workload}", st.estimate_seconds, st.wall_seconds)
    )
    simulate_estimate = f.estimates[0] if f.estimates else None
    for key, what, check in (
        ("estimate_simulate", "simulate", simulate_estimate),
        ("estimate_study", "study", study_estimate),
    ):
        ratio = None if check is None else check.ratio
        out.append(
            Goal(
                key,
                f"{what}: its estimate before the run vs the run, factor off either way",
                ratio,
                ESTIMATE_TARGET,
                True,
                "not measured"
                if check is None or ratio is None
                else f"{check.workload}: said {check.estimate or 0:.2f} s, "
                f"took {check.actual:.2f} s",
            )
        )
    slowest = max(f.pilots, key=lambda p: p.seconds, default=None)
    out.append(
        Goal(
            "estimate_pilot",
            f"the estimate before {slowest.runs if slowest else 10**14:,} runs, wall seconds, "
            "the slowest",
            None if slowest is None else slowest.seconds,
            PILOT_TARGET,
            True,
            "not measured"
            if slowest is None
            else ", ".join(f"{p.workload} {p.seconds:.2f} s" for p in f.pilots),
        )
    )
    for key, i, what in (
        ("strength_fit_cpu", 0, "calibrate --strengths --by time_class"),
        ("backtest_cpu", 1, f"backtest --from {CORPUS_FROM} --by time_class"),
    ):
        timed = None if f.corpus is None else f.corpus[i]
        out.append(
            Goal(
                key,
                f"{what} on the bundled games table, whole process, CPU seconds",
                None if timed is None else timed.seconds,
                CORPUS_CPU_TARGET,
                True,
                "not measured" if timed is None else f"{timed.seconds:.1f} s CPU",
            )
        )
    return out
