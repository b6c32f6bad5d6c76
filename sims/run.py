"""The Monte Carlo of a scenario, a match or a bracket, beside its exact odds."""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

from knockout.answers import BracketOdds, MatchOdds, Simulated
from knockout.exact.bracket import bracket_odds
from knockout.exact.odds import match_odds
from knockout.rules.model.sd import Spread
from knockout.rules.scenario.aggregate import Scenario
from sims.bracket import BRACKET_BLOCK, BracketJob, bracket_block, simulate_bracket
from sims.kernel import MatchTables
from sims.match import match_job, simulate_match
from sims.runner import (
    BLOCK_SIZE,
    Executor,
    Progress,
    RunResult,
    Warn,
    Workers,
    resolve_workers,
)

__all__ = ["SimulationRun", "estimates_json", "run_time_estimate", "simulate_scenario"]

#: Runs of at most this many blocks are not estimated: they take seconds at most.
ESTIMATE_FROM_BLOCKS = 32
#: The pilot is timed for at least this long (seconds), or up to this many blocks.
PILOT_SECONDS, PILOT_BLOCKS = 0.2, 256
#: A pilot whose figure is below this (seconds) stops at once: the run is short anyway.
CLEARLY_SHORT = 10.0


@dataclass(frozen=True)
class SimulationRun:
    """A finished (or interrupted) simulation of a scenario.

    Attributes:
        estimates: The estimates with their standard errors (None if no block completed).
        exact: The exact solver's answer for the same scenario.
        result: The runner's record: runs done and requested, blocks, interruption.
    """

    estimates: Simulated[MatchOdds] | Simulated[BracketOdds] | None
    exact: MatchOdds | BracketOdds
    result: RunResult[Any]

    def exact_spread(self) -> Spread | None:
        """With uncertain constants: the spread of the exact companion's figures, under their
        paths in this output (``exact.win.NAME``, ..., and ``win_if_ratings_exact.NAME``). The
        Monte Carlo estimates themselves are at the central constants."""
        spread = self.exact.model_uncertainty
        if spread is None:
            return None
        keys = self.exact.ESTIMATED
        estimated = spread.restricted(lambda p: p.split(".", 1)[0] in keys).prefixed("exact.")
        second = spread.restricted(lambda p: p.startswith("win_if_ratings_exact."))
        return replace(
            estimated,
            figures=estimated.figures | second.figures,
            stderr=estimated.stderr | second.stderr,
            undefined=estimated.undefined | second.undefined,
        )

    def to_json(self) -> dict[str, Any]:
        """The estimates' JSON (``runs``, ``seed``, ``stderr`` included); ``exact``: the exact
        value of every estimate under the same key path (what ``knockout odds --json`` prints);
        ``win_if_ratings_exact`` as the exact solver gives it (ratings uncertain only); with
        uncertain constants ``model_uncertainty`` (of the exact companion, :meth:`exact_spread`);
        for an interrupted run ``interrupted`` and ``requested``."""
        assert self.estimates is not None
        out = self.estimates.to_json()
        exact = self.exact.to_json()
        out["exact"] = {k: exact[k] for k in self.exact.ESTIMATED if k in exact}
        if "win_if_ratings_exact" in exact:  # a second exact answer, not estimated here
            out["win_if_ratings_exact"] = exact["win_if_ratings_exact"]
        spread = self.exact_spread()
        if spread is not None:
            out["model_uncertainty"] = spread.to_json()
        if self.result.interrupted:
            out |= {"interrupted": True, "requested": self.result.requested}
        return out


#: A run estimated at more than this many seconds is announced before it starts.
LONG_RUN_SECONDS = 60.0


def simulate_scenario(
    scenario: Scenario,
    runs: int,
    seed: int,
    *,
    executor: Executor = "local",
    workers: Workers = 1,
    scheduler: str | None = None,
    block_size: int | None = None,
    progress: Progress | None = None,
    warn: Warn | None = None,
    draws: int | None = None,
    model_sd: bool = True,
    long_run: Callable[[float, int], None] | None = None,
) -> SimulationRun:
    """Monte Carlo odds of the scenario's match (two players) or bracket (more), and its exact
    odds for comparison (with uncertain constants: over ``draws`` draws of them, unless
    ``model_sd=False``). ``long_run(seconds, processes)`` is told first when the run is
    estimated at more than :data:`LONG_RUN_SECONDS`."""
    if long_run is not None:
        processes = resolve_workers(workers)
        seconds = run_time_estimate(scenario, runs, workers=processes)
        if seconds is not None and seconds > LONG_RUN_SECONDS:
            long_run(seconds, processes)
    kwargs: dict[str, Any] = {
        "executor": executor,
        "workers": workers,
        "scheduler": scheduler,
        "progress": progress,
        "warn": warn,
    }
    if block_size is not None:
        kwargs["block_size"] = block_size
    if scenario.is_bracket:
        exact_b = bracket_odds(scenario, draws=draws, model_sd=model_sd)
        est_b, result_b = simulate_bracket(scenario, runs, seed, **kwargs)
        return SimulationRun(est_b, exact_b, result_b)
    exact_m = match_odds(scenario, draws=draws, model_sd=model_sd)
    est_m, result_m = simulate_match(scenario, runs, seed, **kwargs)
    return SimulationRun(est_m, exact_m, result_m)


def estimates_json(
    scenario: Scenario,
    runs: int,
    seed: int,
    *,
    executor: Executor = "local",
    workers: Workers = 1,
    tables: MatchTables | None = None,
) -> dict[str, Any]:
    """:meth:`SimulationRun.to_json` without the exact companion (no ``exact``,
    ``win_if_ratings_exact`` or ``model_uncertainty``): the Monte Carlo estimates alone, for a
    study whose metrics read nothing else (the companion costs as much as the runs).
    ``tables``: a match's kernel tables, built already (:func:`sims.match.match_job`)."""
    kwargs: dict[str, Any] = {"executor": executor, "workers": workers}
    if scenario.is_bracket:
        est_b, result_b = simulate_bracket(scenario, runs, seed, **kwargs)
        estimates: Simulated[Any] | None = est_b
        result: RunResult[Any] = result_b
    else:
        estimates, result = simulate_match(scenario, runs, seed, tables=tables, **kwargs)
    assert estimates is not None  # nothing interrupts a study's point
    out = estimates.to_json()
    if result.interrupted:
        out |= {"interrupted": True, "requested": result.requested}
    return out


def run_time_estimate(
    scenario: Scenario,
    runs: int,
    *,
    workers: int = 1,
    clock: Callable[[], float] = time.perf_counter,
) -> float | None:
    """About how many seconds simulating ``runs`` would take, or None for a run so short that
    it is not worth a pilot (or nothing is left to simulate).

    The run's one-off set-up (the kernel's tables, a bracket's all-pairs tables) is done first
    and not timed, nor is a first block (imports, caches); then a pilot of whole blocks runs in
    this process, doubling until it has taken ``PILOT_SECONDS``, reached ``PILOT_BLOCKS`` blocks
    or shown the run to be short; its median block's time per run is scaled to ``runs`` and
    shared among ``workers``, at most one per CPU. Start-up of worker processes and their
    imperfect scaling are not counted: the figure tells the user what they are starting, it is
    no promise.
    """
    size = BRACKET_BLOCK if scenario.is_bracket else BLOCK_SIZE
    if runs <= ESTIMATE_FROM_BLOCKS * size:
        return None
    block = _block_function(scenario)
    if block is None:
        return None
    share = max(1, min(workers, os.cpu_count() or 1))
    block(0, size, 0)  # warm-up: the first block pays for imports and caches
    blocks = 1
    index = 1
    times: list[float] = []
    while True:
        for _ in range(blocks):
            start = clock()
            block(index, size, 0)
            times.append(clock() - start)
            index += 1
        # the median block: a spell of other work during the pilot made one estimate 3x long
        estimate = runs * (statistics.median(times) / size) / share
        elapsed = sum(times)
        if elapsed >= PILOT_SECONDS or blocks >= PILOT_BLOCKS or estimate < CLEARLY_SHORT:
            return estimate
        blocks *= 2


def _block_function(scenario: Scenario) -> Callable[[int, int, int], Any] | None:
    """The run's block function with its set-up done; None when nothing is simulated."""
    if scenario.is_bracket:
        return partial(bracket_block, BracketJob.from_scenario(scenario))
    a, b = scenario.players
    walkover = scenario.event_state().walkover((1, 0), a.name, b.name)
    if walkover is not None or scenario.position.finished is not None:
        return None
    return match_job(scenario)
