"""The front door: ``knockout.load``, ``knockout.odds``, ``knockout.simulate``, ``knockout.play``.

Each takes the whole scenario (games already played, withdrawals, uncertain ratings) and returns
the answer type the CLI prints; its ``to_json()`` is what the command's ``--json`` prints
inside the envelope (``version``, ``seed``, ``scenario``)::

    import knockout

    sc = knockout.load("scenarios/final-2600-vs-2550.toml")
    knockout.odds(sc).win                      # exact
    knockout.simulate(sc, runs=100_000, seed=1)  # Monte Carlo beside the exact values
    knockout.play(sc, seed=7).record.winner    # the SimPy engine

``import knockout`` stays light: these load the layers they need when first called.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from knockout.answers import BracketOdds, MatchOdds
    from knockout.engine.played import PlayedEvent, PlayedMatch
    from knockout.rules.scenario.aggregate import Scenario
    from sims.run import SimulationRun

__all__ = ["load", "odds", "play", "simulate"]


def load(path: str | Path, *, sets: Sequence[str] = (), encoding: str | None = None) -> Scenario:
    """The scenario in ``path`` (TOML, or any output's JSON), with ``KEY=VALUE`` overrides.

    Raises:
        ScenarioError: Listing every problem (file, key, what was expected and found).
    """
    from knockout.io.scenario import load_scenario

    return load_scenario(path, encoding=encoding, overrides=sets)


def odds(scenario: Scenario) -> MatchOdds | BracketOdds:
    """Exact odds: of the match (two players) or of every player in the bracket."""
    if scenario.is_bracket:
        from knockout.exact.bracket import bracket_odds

        return bracket_odds(scenario)
    from knockout.exact.odds import match_odds

    return match_odds(scenario)


def simulate(
    scenario: Scenario,
    *,
    runs: int,
    seed: int,
    workers: int | Literal["auto"] = 1,
    executor: Literal["local", "dask"] = "local",
    scheduler: str | None = None,
    progress: Callable[[int, int], None] | None = None,
    warn: Callable[[str], None] | None = None,
    long_run: Callable[[float, int], None] | None = None,
) -> SimulationRun:
    """Monte Carlo odds with standard errors, beside the exact values (``.estimates``,
    ``.exact``); bit-identical for a seed whatever ``workers`` or ``executor``.

    ``progress(done, total)`` as blocks finish; ``warn(message)`` for what the run could not do
    as asked (fewer processes than asked); ``long_run(seconds, processes)`` once before a run
    estimated at more than a minute (:data:`sims.run.LONG_RUN_SECONDS`)."""
    from sims.run import simulate_scenario

    return simulate_scenario(
        scenario,
        runs,
        seed,
        executor=executor,
        workers=workers,
        scheduler=scheduler,
        progress=progress,
        warn=warn,
        long_run=long_run,
    )


def play(scenario: Scenario, *, seed: int) -> PlayedMatch | PlayedEvent:
    """The match or the whole event played through the SimPy engine (``.record``, ``.log``,
    and for a bracket ``.ranking``)."""
    from knockout.engine.played import play as play_scenario

    return play_scenario(scenario, seed=seed)
