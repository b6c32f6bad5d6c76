"""Where users wait: the benchmark's figures measured as users feel them.

* Short commands (``odds`` on a match and the organiser's ``event`` commands) as whole
  processes, in CPU time (user + system of the child), against ``python -c "import numpy"``
  measured in the same passes, interleaved, best of the repeats.
* Exact bracket odds of large fields, each in a fresh process: CPU seconds of the solver and
  the process's peak resident memory, and how the time grows between two field sizes.
* A ``study`` of a ``simulate.`` metric under private beliefs against the per-match kernel's
  time for the same matches.
* Estimates before long runs (``simulate`` and ``study``) against the time the run then took,
  and what the estimate itself costs before a very long run (its pilot).
* The real games: ``calibrate --strengths --by time_class`` on the bundled games table and
  ``backtest --from 1990`` on it, each a whole process, in CPU seconds.

Nothing here asserts a speed: :mod:`knockout.bench.figures` turns the figures into goals.
"""

from __future__ import annotations

import json
import math
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from knockout.rules.chain.pairing import Pairing
from knockout.rules.decisions.strategies import Bayesian
from knockout.rules.scenario.aggregate import Scenario
from knockout.studies.estimate import estimate_run
from knockout.studies.sweep import Sweep, parse_sweep, run_sweep
from sims.kernel import MatchTables
from sims.match import kernel_block, simulate_match
from sims.run import run_time_estimate
from sims.runner import BLOCK_SIZE

__all__ = [
    "ONE_BLAS_THREAD",
    "STEADY_NOTE",
    "BracketSize",
    "CommandTime",
    "CorpusTime",
    "EstimateCheck",
    "PilotTime",
    "StudyCheck",
    "bracket_sizes",
    "child_cpu",
    "corpus_times",
    "estimate_checks",
    "knockout_argv",
    "pilot_times",
    "short_commands",
    "study_check",
]

Say = Callable[[str], None]


@dataclass(frozen=True)
class CommandTime:
    """A whole command's CPU seconds beside ``import numpy``'s timed just before it (the
    repeat of median ratio)."""

    command: str
    seconds: float
    numpy_seconds: float

    @property
    def ratio(self) -> float:
        return self.seconds / self.numpy_seconds


#: The environment of every timed start-up, on both sides of its ratio: one BLAS thread.
#: numpy's bundled OpenBLAS starts a thread per processor at import and they spin, so ``python
#: -c "import numpy"`` burned 0.119 s of CPU in 0.069 s on a quiet 2-core machine against 0.065 s
#: with one thread, and a ratio against it drifted with the load (issue 44).
ONE_BLAS_THREAD = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}

#: What the start-up figures say about how they were measured.
STEADY_NOTE = (
    "start-up ratios: whole processes, CPU (user + system), each side with one BLAS thread "
    "(OPENBLAS_NUM_THREADS=1), the repeat of median ratio"
)


def child_cpu(argv: Sequence[str], cwd: str | None = None) -> float:
    """User + system CPU seconds of one child process running ``argv``, with one BLAS thread
    (:data:`ONE_BLAS_THREAD`)."""
    env = {**os.environ, **ONE_BLAS_THREAD}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(argv, cwd=cwd, check=True, capture_output=True, env=env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def knockout_argv(args: Sequence[str]) -> list[str]:
    """A whole ``knockout`` command as the console script runs it (``knockout.program:main``)."""
    code = "import sys\nfrom knockout.program import main\nsys.exit(main())"
    return [sys.executable, "-c", code, *args]


def short_commands(scenario_path: Path, repeats: int, say: Say) -> tuple[CommandTime, ...]:
    """``knockout odds`` on the match and the organiser's short commands on the bundled
    16-player cup (``events/`` beside the scenario, when it is there), ``odds`` and ``event
    show`` also with ``--lang zh`` (the Chinese catalogue loaded), each against ``python -c
    "import numpy"`` timed just before it, in CPU time, both with one BLAS thread; of
    ``repeats`` such pairs, the one with the median ratio."""
    scenario = str(scenario_path.resolve())
    commands: list[tuple[str, list[str]]] = [
        ("odds", ["odds", scenario]),
        ("odds --lang zh", ["--lang", "zh", "odds", scenario]),  # the Chinese catalogue loaded
    ]
    events = scenario_path.resolve().parent / "events"
    with tempfile.TemporaryDirectory() as folder:
        if (events / "city-cup-16.toml").exists():
            db = str(Path(folder) / "cup.db")
            subprocess.run(
                knockout_argv(
                    [
                        "event",
                        "new",
                        db,
                        "--scenario",
                        str(events / "city-cup-16.toml"),
                        "--players",
                        str(events / "city-cup-16-players.csv"),
                        "--seed",
                        "1",
                    ]
                ),
                check=True,
                capture_output=True,
            )
            commands += [
                ("event next", ["event", "next", db]),
                ("event record", ["event", "record", db, "R1-M1", "1", "1-0", "--dry-run"]),
                ("event show", ["event", "show", db]),
                ("event show --lang zh", ["--lang", "zh", "event", "show", db]),
                ("event odds", ["event", "odds", db]),
            ]
        numpy_argv = [sys.executable, "-c", "import numpy"]
        pairs: dict[str, list[tuple[float, float]]] = {name: [] for name, _ in commands}
        say(f"short commands: {', '.join(name for name, _ in commands)} against import numpy")
        for _ in range(repeats):
            for name, args in commands:
                baseline = child_cpu(numpy_argv)
                pairs[name].append((child_cpu(knockout_argv(args), cwd=folder), baseline))
    out = []
    for name, _ in commands:
        # each command against the import timed just before it; the pair of median ratio (the
        # machine's speed drifts: bests of the two sides, taken apart, spread more)
        ranked = sorted(pairs[name], key=lambda pair: pair[0] / pair[1])
        seconds, baseline = ranked[len(ranked) // 2]
        out.append(CommandTime(name, seconds, baseline))
    return tuple(out)


@dataclass(frozen=True)
class BracketSize:
    """Exact bracket odds of ``players`` players (a fresh process).

    Attributes:
        players: Field size.
        cpu_seconds: CPU seconds of :func:`knockout.exact.bracket.bracket_odds` alone.
        peak_bytes: The process's peak resident memory.
    """

    players: int
    cpu_seconds: float
    peak_bytes: int


_BRACKET_CODE = """
import json, resource, sys, time
from knockout.exact.bracket import bracket_odds
from knockout.rules.scenario.aggregate import parse_scenario
n = int(sys.argv[1])
players = [
    {"name": f"P{i:05d}", "rating": 2700 - 600 * i / n,
     "speed": {"mean": 0.6 + 0.03 * ((i * 7) % 11), "sd": 0.1}}
    for i in range(n)
]
sc = parse_scenario({"name": f"{n} players", "format": {"preset": "xq-bidding"},
                     "strategy": {"kind": "believed", "belief_sd": 80}, "players": players})
start = time.process_time()
bracket_odds(sc)
cpu = time.process_time() - start
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
print(json.dumps({"cpu": cpu, "peak": peak}))
"""

#: The field the bracket figures use, in words.
BRACKET_WORKLOAD = (
    "xq-bidding, believed bidders (belief_sd 80), ratings 600 Elo apart top to bottom"
)


def bracket_sizes(sizes: Sequence[int], say: Say) -> tuple[BracketSize, ...]:
    """Exact bracket odds of each field size, each in a fresh process (so the peak memory is
    the solver's)."""
    out = []
    for n in sizes:
        say(f"exact bracket odds of {n:,} players")
        done = subprocess.run(
            [sys.executable, "-c", _BRACKET_CODE, str(n)],
            check=True,
            capture_output=True,
            text=True,
        )
        figures = json.loads(done.stdout.splitlines()[-1])
        out.append(BracketSize(n, float(figures["cpu"]), int(figures["peak"])))
    return tuple(out)


@dataclass(frozen=True)
class StudyCheck:
    """A study of a ``simulate.`` metric against the per-match kernel for the same matches.

    Attributes:
        workload: What was run, in words.
        study_seconds: The study's CPU seconds (every point: tables, exact companion, runs).
        kernel_seconds: The per-match kernel's CPU seconds for the same matches (one point's
            tables).
        estimate_seconds: The study's own estimate before it ran (``knockout study``'s, wall
            seconds).
        wall_seconds: The study's wall seconds (what the estimate foretells).
    """

    workload: str
    study_seconds: float
    kernel_seconds: float
    estimate_seconds: float | None
    wall_seconds: float = 0.0

    @property
    def ratio(self) -> float:
        return self.study_seconds / self.kernel_seconds


def study_check(
    scenario: Scenario, steps: int, runs: int, say: Say, repeats: int = 5
) -> StudyCheck:
    """A ``steps`` x ``steps`` study of ``simulate.win`` over the rapid game's time odds and
    draw rate under ``believed`` bidders, ``runs`` a point, in this process (CPU time); then
    the per-match kernel on each point's own tables for as many matches (built untimed).

    Each repeat times the kernel, the study, then the kernel again, and compares the study with
    the mean of the two kernel times around it; the repeat with the median ratio is kept. This
    machine's speed drifts from second to second (one kernel's time went from 8 to 14 ms a
    point within seconds), so sides timed apart, or bests taken at different moments, spread
    from 1.1 to 1.7. Each repeat's grid is moved by a thousandth so that no cache of an earlier
    repeat serves it (a real study's points are all new), and the kernel's tables come from a
    copy of the study so that building them warms nothing the study uses. The estimate is the
    first repeat's, against that repeat's wall time.
    """
    base = scenario.to_dict()
    base["strategy"] = {"kind": "believed", "belief_sd": 100.0}
    first = scenario.players[0].name
    workload = (
        f"{steps} x {steps} grid, simulate.win, believed bidders (belief_sd 100), "
        f"{runs:,} runs a point"
    )
    say(f"study: {workload}")
    pairs: list[tuple[float, float]] = []
    estimate: float | None = None
    wall_seconds = 0.0
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "base.json"
        path.write_text(json.dumps({"scenario": base}), encoding="utf-8")
        for repeat in range(max(1, repeats)):
            shift = repeat / 1000
            sweep = parse_sweep(
                {
                    "name": "bench",
                    "scenario": str(path),
                    "metrics": [f"simulate.win.{first}"],
                    "runs": runs,
                    "grid": {
                        "model.elo_per_doubling.rapid": {
                            "from": shift,
                            "to": 200 + shift,
                            "steps": steps,
                        },
                        "model.draw_nu.rapid": {"from": 0.3 + shift, "to": 2.0, "steps": steps},
                    },
                },
                source="bench",
                folder=Path(folder),
            )
            tables = _kernel_tables(replace(sweep))
            before = _kernel_time(tables, runs)
            if repeat == 0:
                estimate = estimate_run(sweep).seconds
            start, wall = time.process_time(), time.perf_counter()
            run_sweep(sweep)
            study_seconds = time.process_time() - start
            if repeat == 0:
                wall_seconds = time.perf_counter() - wall
            pairs.append((study_seconds, (before + _kernel_time(tables, runs)) / 2))
    pairs.sort(key=lambda pair: pair[0] / pair[1])
    study_seconds, kernel_seconds = pairs[len(pairs) // 2]
    return StudyCheck(workload, study_seconds, kernel_seconds, estimate, wall_seconds)


def _kernel_tables(sweep: Sweep) -> list[MatchTables]:
    """Each of the sweep's points' own kernel tables, built as ``simulate`` builds them: points
    differ in how far matches go, so one point's tables would not be the same matches."""
    point_tables = []
    for point in sweep.points:
        sc = sweep.scenario_at(point)
        a, b = sc.players
        pairing = Pairing.of(sc.format, a, b, model=sc.model, strategy=sc.strategy)
        point_tables.append(MatchTables.from_pairing(pairing))
    return point_tables


def _kernel_time(point_tables: Sequence[MatchTables], runs: int) -> float:
    """CPU seconds of the per-match kernel on each point's tables, for as many matches as the
    study runs there (after one untimed block)."""
    kernel_block(point_tables[0], 0, BLOCK_SIZE, 1)  # warm up
    start = time.process_time()
    for tables in point_tables:
        for i in range(math.ceil(runs / BLOCK_SIZE)):
            kernel_block(tables, i, min(BLOCK_SIZE, runs - i * BLOCK_SIZE), 1)
    return time.process_time() - start


@dataclass(frozen=True)
class EstimateCheck:
    """An estimate said before a run, beside the time the run took (wall seconds)."""

    workload: str
    estimate: float | None
    actual: float

    @property
    def ratio(self) -> float | None:
        """``max(estimate / actual, actual / estimate)``: 1 is exact, 2 is off by a factor 2."""
        if self.estimate is None or self.estimate <= 0 or self.actual <= 0:
            return None
        return max(self.estimate / self.actual, self.actual / self.estimate)


def estimate_checks(scenario: Scenario, runs: int, say: Say) -> tuple[EstimateCheck, ...]:
    """``knockout simulate``'s estimate against the run, in this process, one process, for the
    match under ``bayesian`` bidders (the case whose pilot used to count its set-up)."""
    sc = replace(scenario, strategy=Bayesian(100.0))
    workload = f"simulate {runs:,} runs, bayesian bidders (belief_sd 100), 1 process"
    say(f"estimate against actual: {workload}")
    estimate = run_time_estimate(sc, runs, workers=1)
    start = time.perf_counter()
    simulate_match(sc, runs, 1, workers=1)
    return (EstimateCheck(workload, estimate, time.perf_counter() - start),)


@dataclass(frozen=True)
class CorpusTime:
    """A whole command on a games table, the CPU seconds (user + system) of its process with
    one BLAS thread, best of ``repeats``; ``games`` is the table's file."""

    command: str
    games: str
    seconds: float


def corpus_times(games: Path, start: int, repeats: int, say: Say) -> tuple[CorpusTime, CorpusTime]:
    """``knockout calibrate GAMES --strengths --by time_class --json`` and ``knockout backtest
    GAMES --from START --by time_class --json`` as whole processes (issue 39: each under a
    minute of CPU on the bundled table from 1990), the best of ``repeats`` each."""
    out = []
    for command, args in (
        ("calibrate --strengths --by time_class", ["--strengths"]),
        (f"backtest --from {start} --by time_class", ["--from", str(start)]),
    ):
        verb = command.split()[0]
        say(f"knockout {command} on {games.name}")
        argv = knockout_argv([verb, str(games), *args, "--by", "time_class", "--json"])
        best = min(child_cpu(argv) for _ in range(max(1, repeats)))
        out.append(CorpusTime(command, str(games), best))
    return out[0], out[1]


@dataclass(frozen=True)
class PilotTime:
    """The wall seconds ``knockout simulate`` spends estimating a run before it starts (the
    pilot of :func:`sims.run.run_time_estimate`), for a run far too long to make."""

    workload: str
    runs: int
    seconds: float


def pilot_times(scenarios: Sequence[Scenario], runs: int, say: Say) -> tuple[PilotTime, ...]:
    """The estimate's own time before ``runs`` runs of each scenario (a match and a bracket),
    the best of two calls (a spell of load hits one of them, not the estimate's work)."""
    out = []
    for sc in scenarios:
        say(f"estimate before {runs:,} runs: {sc.name}")
        best = math.inf
        for _ in range(2):
            start = time.perf_counter()
            run_time_estimate(sc, runs)
            best = min(best, time.perf_counter() - start)
        out.append(PilotTime(sc.name, runs, best))
    return tuple(out)
