"""``knockout bench``: every goal is reported with its measured ratio and target (nothing timed
is asserted: the figures depend on the machine)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from knockout.bench.figures import BenchFigures, BenchSettings, Goal, goals, run_benchmark
from knockout.bench.waits import corpus_times
from knockout.io.scenario import load_scenario
from knockout.program import app
from knockout.rules.chain.pairing import Pairing
from knockout.strengths.simulate import simulate_field
from sims.kernel import MatchTables
from sims.runner import BLOCK_SIZE
from tests.sims.test_runner import FINAL, ROOT

TINY = BenchSettings(
    repeats=2,
    scaling_runs=4 * 4096,
    scaling_repeats=1,
    small_runs=(4096,),
    small_repeats=1,
    cli_runs=0,
    startup_repeats=1,
    bracket_repeats=1,
    ceiling_blocks=2,
    dask=False,
    engine_matches=2,
    command_repeats=1,
    bracket_sizes=(8, 16),
    study_steps=2,
    study_runs=2_000,
    estimate_runs=0,
    beliefs_repeats=1,
    selfplay_games=0,
    corpus_repeats=0,
)
KEYS = [
    "kernel",
    "kernel_beliefs",
    "processes",
    "never_slower",
    "startup",
    "bracket",
    "selfplay",
    "short_commands",
    "exact_bracket_cpu",
    "exact_bracket_memory",
    "exact_bracket_growth",
    "study",
    "estimate_simulate",
    "estimate_study",
    "estimate_pilot",
    "strength_fit_cpu",
    "backtest_cpu",
    "dask",
]


@pytest.mark.system
def test_every_goal_has_a_ratio_or_says_why_not() -> None:
    figures = run_benchmark(
        load_scenario(FINAL),
        bracket=load_scenario(ROOT / "scenarios" / "national-64.toml"),
        workers=2,
        settings=TINY,
    )
    assert [g.key for g in figures.goals] == KEYS
    by_key = {g.key: g for g in figures.goals}
    for key in (
        "kernel",
        "kernel_beliefs",
        "never_slower",
        "startup",
        "bracket",
        "exact_bracket_cpu",
        "study",
        "estimate_pilot",
    ):
        assert by_key[key].measured is not None and by_key[key].measured > 0, key
    assert [p.workload for p in figures.pilots] == [figures.scenario, figures.bracket_scenario]
    # A tiny run is not a long run, and Dask was not asked for: said, not guessed.
    assert by_key["processes"].measured is None and by_key["processes"].met is None
    assert "not measured" in by_key["processes"].figures
    assert by_key["dask"].measured is None
    assert by_key["short_commands"].measured is None  # no scenario file given: not timed
    assert by_key["estimate_simulate"].measured is None  # not asked for
    assert by_key["selfplay"].measured is None and "not measured" in by_key["selfplay"].figures
    for key in ("strength_fit_cpu", "backtest_cpu"):  # not asked for
        assert by_key[key].measured is None and by_key[key].figures == "not measured"
    # the seed's final: one integer a match (its cell), and the block's split of the cells that
    # hold cut points (one binomial per exit they can give, but one)
    scenario = load_scenario(FINAL)
    a, b = scenario.players
    pairing = Pairing.of(scenario.format, a, b, model=scenario.model, strategy=scenario.strategy)
    split = MatchTables.from_pairing(pairing).cell_split
    assert split is not None and split.variates > 0
    assert figures.draws_per_match == 1 + split.variates / BLOCK_SIZE
    data = json.loads(json.dumps(figures.to_json()))
    assert [g["key"] for g in data["goals"]] == KEYS
    assert data["scaling"]["runs"] == 4 * 4096 and "speedup" in data["scaling"]
    table = figures.markdown()
    assert table.count("\n| ") >= len(KEYS) + len(figures.rows())
    assert "| goal | measured | target | met |" in table


def test_goal_directions() -> None:
    at_most = Goal("k", "label", 2.0, 3.0, True, "")
    at_least = Goal("p", "label", 0.8, 0.9, False, "")
    assert at_most.met is True and at_most.target_text == "<= 3"
    assert at_least.met is False and at_least.target_text == ">= 0.9"


def test_bench_refuses_the_wrong_kind_of_scenario() -> None:
    runner = CliRunner()
    bracket = str(ROOT / "scenarios" / "national-64.toml")
    result = runner.invoke(app, ["bench", bracket])
    assert result.exit_code == 2 and "needs a two-player scenario" in result.stderr
    result = runner.invoke(app, ["bench", str(FINAL), "--bracket", str(FINAL)])
    assert result.exit_code == 2 and "not a bracket" in result.stderr


#: Figures with nothing measured but the kernel, to turn other figures into goals.
_FIGURES = BenchFigures(
    "final", 2, 2, BLOCK_SIZE, 1e6, 2e6, None, None, (), None, None, None, None, None, None,
    None, None, None, 1.0, 1.0,
)  # fmt: skip


@pytest.mark.system
def test_the_strength_fit_and_the_backtest_timed_as_whole_commands(tmp_path: Path) -> None:
    """The issue-39 goals: both commands run in processes of their own on a games table, each
    timed in CPU seconds (a small simulated table here; the bundled one in ``knockout bench``),
    and turned into goals against a minute."""
    games = tmp_path / "games.csv"
    games.write_text(
        simulate_field(np.random.default_rng(8), players=30, events_per_year=4).csv,
        encoding="utf-8",
    )
    said: list[str] = []
    fit, backtest = corpus_times(games, 2006, 1, said.append)
    assert fit.command == "calibrate --strengths --by time_class"
    assert backtest.command == "backtest --from 2006 --by time_class"
    assert fit.seconds > 0 and backtest.seconds > 0 and fit.games == str(games)
    assert said == [
        f"knockout {fit.command} on games.csv",
        f"knockout {backtest.command} on games.csv",
    ]
    figures = replace(_FIGURES, corpus=(fit, backtest))
    by_key = {g.key: g for g in goals(figures)}
    assert by_key["strength_fit_cpu"].measured == fit.seconds
    assert by_key["backtest_cpu"].target == 60.0 and by_key["backtest_cpu"].at_most
    assert (f"knockout {fit.command}, games.csv", f"{fit.seconds:.1f} s CPU") in figures.rows()
