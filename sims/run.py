"""The Monte Carlo of a scenario, a match or a bracket, beside its exact odds."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from knockout.exact.bracket import bracket_odds
from knockout.exact.odds import match_odds
from knockout.io.scenario import Scenario
from knockout.odds import BracketOdds, MatchOdds, Simulated
from sims.bracket import simulate_bracket
from sims.match import simulate_match
from sims.runner import Executor, Progress, RunResult, Warn, Workers

__all__ = ["SimulationRun", "simulate_scenario"]


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

    def to_json(self) -> dict[str, Any]:
        """The estimates' JSON (``runs``, ``seed``, ``stderr`` included), and for an interrupted
        run ``interrupted`` and ``requested``."""
        assert self.estimates is not None
        out = self.estimates.to_json()
        if self.result.interrupted:
            out |= {"interrupted": True, "requested": self.result.requested}
        return out


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
) -> SimulationRun:
    """Monte Carlo odds of the scenario's match (two players) or bracket (more), and its exact
    odds for comparison."""
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
        exact_b = bracket_odds(scenario)
        est_b, result_b = simulate_bracket(scenario, runs, seed, **kwargs)
        return SimulationRun(est_b, exact_b, result_b)
    exact_m = match_odds(scenario)
    est_m, result_m = simulate_match(scenario, runs, seed, **kwargs)
    return SimulationRun(est_m, exact_m, result_m)
