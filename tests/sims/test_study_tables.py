"""A study's kernel tables built for a block of grid points equal those each point builds alone,
and the study's Monte Carlo estimates equal ``simulate``'s at each point (same seed)."""

from __future__ import annotations

import dataclasses
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from knockout.exact.solver import stage_exits
from knockout.game import Colour
from knockout.io.scenario import load_scenario
from knockout.rules.chain.match import MatchState
from knockout.rules.chain.pairing import Pairing
from knockout.rules.decisions.bidding import (
    BiddingGame,
    _branch_decisions,
    _grid_decisions,
    rational_regions_of,
)
from knockout.rules.decisions.regions import REGION_SPAN
from knockout.rules.decisions.strategies import get_strategy
from knockout.rules.model.strength import ModelParams
from knockout.rules.scenario.aggregate import Scenario
from knockout.studies.sweep import _vector_model, parse_sweep, run_sweep
from sims.kernel import MatchTables
from sims.match import simulate_match
from sims.run import estimates_json

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "scenarios"


def same(a: Any, b: Any, where: str = "") -> list[str]:
    """Where two values differ (arrays by dtype, shape and every element; dataclasses field by
    field, recursively)."""
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        ok = (
            isinstance(a, np.ndarray)
            and isinstance(b, np.ndarray)
            and a.dtype == b.dtype
            and a.shape == b.shape
            and np.array_equal(a, b, equal_nan=True)
        )
        return [] if ok else [where]
    if dataclasses.is_dataclass(a) and not isinstance(a, type):
        if type(a) is not type(b):
            return [where]
        return [d for f in dataclasses.fields(a) for d in same(getattr(a, f.name),
                getattr(b, f.name), f"{where}.{f.name}")]  # fmt: skip
    if isinstance(a, tuple | list):
        if len(a) != len(b):
            return [where]
        return [d for i, (x, y) in enumerate(zip(a, b, strict=True)) for d in same(x, y, f"{where}[{i}]")]  # fmt: skip  # noqa: E501
    return [] if a == b else [where]


def grid_scenarios(path: Path, kind: str, grid: dict[str, Any]) -> list[Scenario]:
    sweep = parse_sweep(
        {
            "name": "t",
            "scenario": str(path),
            "metrics": ["simulate.win.x"],
            "runs": 1000,
            "grid": grid,
            "set": {"strategy.kind": kind, "strategy.belief_sd": 100.0},
        },
        source="t.toml",
        folder=ROOT,
    )
    return [sweep.scenario_at(p) for p in sweep.points]


def block_and_singles(scs: list[Scenario]) -> tuple[Pairing, list[Pairing]]:
    singles = [Pairing.of(s.format, *s.players, model=s.model, strategy=s.strategy) for s in scs]
    block = Pairing.of(
        scs[0].format,
        [s.players[0] for s in scs],
        [s.players[1] for s in scs],
        model=_vector_model([s.model for s in scs]),
        strategy=scs[0].strategy,
    )
    return block, singles


RAPID_GRID = {
    "model.elo_per_doubling.rapid": [0.0, 47.5, 200.0],
    "model.draw_nu.rapid": [0.0, 0.3, 2.0],
    "model.red_advantage.rapid": [-40.0, 30.0],
}


@pytest.mark.parametrize(
    ("scenario", "kind", "grid"),
    [
        ("final-2600-vs-2550.toml", "believed", RAPID_GRID),
        ("final-2600-vs-2550.toml", "rational", RAPID_GRID),
        ("final-2600-vs-2550.toml", "naive", {"model.draw_nu.rapid": [0.3, 2.0]}),
        ("final-2600-vs-2550.toml", "bayesian", {"model.draw_nu.rapid": [0.3, 2.0]}),
        (
            "final-2600-vs-2550.toml",
            "believed",
            {
                "model.elo_per_doubling.classical": [10.0, 150.0],
                "players.郑惟桐.rating": [2200, 2590],
            },
        ),
        ("armageddon-bid.toml", "believed", {"model.draw_nu.blitz": [0.2, 1.5]}),
        ("cut-choose.toml", "believed", {"model.draw_nu.blitz": [0.2, 1.5]}),
        ("blitz-pairs.toml", "believed", {"model.draw_nu.blitz": [0.2, 1.5]}),
        ("official-playoff.toml", "believed", {"model.draw_nu.rapid": [0.2, 1.5]}),
    ],
)
def test_block_tables_equal_each_points_own(scenario: str, kind: str, grid: dict[str, Any]) -> None:
    scs = grid_scenarios(SCENARIOS / scenario, kind, grid)
    block, singles = block_and_singles(scs)
    many = MatchTables.for_points(block, singles)
    for i, (built, own) in enumerate(zip(many, singles, strict=True)):
        assert same(built, MatchTables.from_pairing(own)) == [], f"point {i}"


def test_each_pair_stops_as_if_walked_alone() -> None:
    """A repeating stage cut off at the tolerance: with ``each_pair`` every pair's exits are
    its own walk's, though the pairs would stop at different steps."""
    sc = load_scenario(SCENARIOS / "blitz-pairs.toml")
    strategy = get_strategy("rational")
    gaps = [0.0, 150.0, 900.0, 2500.0]
    a = [replace(sc.players[0], rating=2000.0 + g) for g in gaps]
    b = [replace(sc.players[1], rating=2000.0) for _ in gaps]
    state = MatchState(0, 0, 0, None)
    for tolerance in (1e-16, 1e-6):
        block = stage_exits(
            Pairing.of(sc.format, a, b, model=sc.model, strategy=strategy),
            state,
            tolerance=tolerance,
            each_pair=True,
        )
        for i, (pa, pb) in enumerate(zip(a, b, strict=True)):
            alone = stage_exits(
                Pairing.of(sc.format, pa, pb, model=sc.model, strategy=strategy),
                state,
                tolerance=tolerance,
            )
            mine = {e: p[i : i + 1] for e, p in block.items() if p[i] > 0}
            assert list(mine) == list(alone)
            for e, p in alone.items():
                np.testing.assert_array_equal(mine[e], p)


def test_regions_of_many_games_equal_each_games_own() -> None:
    """Every game's regions (one root search for every game's switches) bit for bit as the
    search of the game alone finds them, over random constants (draws without draws
    included)."""
    sc = load_scenario(SCENARIOS / "final-2600-vs-2550.toml")
    first = Pairing.of(sc.format, *sc.players, model=sc.model, strategy=sc.strategy).bidding_game
    assert first is not None
    rng = np.random.default_rng(26)
    games: list[BiddingGame] = []
    # random constants, then a grid of shared (red advantage, time odds) and draw rates (the
    # games share rows of the grid pass): 40 + 3 x 4 games
    shared = [(float(rng.uniform(-100, 100)), float(rng.uniform(-50, 300))) for _ in range(3)]
    grid = [(ra, nu, epd) for ra, epd in shared for nu in (0.0, 0.4, 1.3, 2.9)]
    for k in range(40 + len(grid)):
        rapid = (
            float(rng.uniform(-100, 100)),
            float(rng.uniform(0, 3)),
            float(rng.uniform(-50, 300)),
        )
        if k == 0:
            rapid = (0.0, 0.0, 0.0)
        if k >= 40:
            rapid = grid[k - 40]
        model = ModelParams(
            replace(sc.model.red_advantage, rapid=rapid[0]),
            replace(sc.model.draw_nu, rapid=rapid[1]),
            replace(sc.model.elo_per_doubling, rapid=rapid[2]),
            sc.model.moves,
        )
        games.append(replace(first, model=model))
    found = rational_regions_of(games)
    for game, regions in zip(games, found, strict=True):
        assert dict(regions) == dict(game.rational_regions())


@pytest.mark.parametrize("menu", [None, ((20.0, 15.0), (12.0, 25.0), (40.0, 3.0))])
@pytest.mark.parametrize("draw_winner", [Colour.BLACK, Colour.RED])
def test_the_grid_pass_takes_the_branch_values_decisions(
    menu: tuple[tuple[float, float], ...] | None, draw_winner: Colour
) -> None:
    """The in-place grid pass of the many-games search decides as the branch values do, at
    every cell: over random constants (a vectorised model, one row each), the 1-Elo grid and
    random points, either colour taking the draws, the seed's clocks and others."""
    sc = load_scenario(SCENARIOS / "final-2600-vs-2550.toml")
    game = Pairing.of(sc.format, *sc.players, model=sc.model, strategy=sc.strategy).bidding_game
    assert game is not None
    if menu is not None:
        accept, object_red, object_black = menu
        clocks = {"accept": accept, "object_red": object_red, "object_black": object_black}
        game = replace(game, menu=replace(game.menu, **clocks))
    rng = np.random.default_rng(7)
    n = 9
    tc = game.time_class
    model = sc.model.mapped(lambda a: a)  # a copy, then each constant of the class as a column
    columns = {
        "red_advantage": rng.uniform(-150, 150, n),
        "draw_nu": np.concatenate([[0.0], rng.uniform(0, 3, n - 1)]),
        "elo_per_doubling": np.concatenate([[0.0], rng.uniform(-60, 400, n - 1)]),
    }
    model = replace(
        model,
        **{
            name: replace(getattr(model, name), **{tc.value: values[:, None]})
            for name, values in columns.items()
        },
    )
    rows = replace(game, model=model, draw_winner=draw_winner)
    grid = np.arange(-REGION_SPAN, REGION_SPAN + 1.0, 1.0)
    for x in (grid, np.sort(rng.normal(0, 800, 3001)), np.array([0.0, -0.0, 1e-12, -1e-12])):
        fast, plain = _grid_decisions(rows, x), _branch_decisions(rows, x)
        assert fast.keys() == plain.keys()
        for key in plain:
            np.testing.assert_array_equal(fast[key], plain[key], err_msg=key)


def test_regions_of_many_refuse_games_that_differ_beyond_constants() -> None:
    sc = load_scenario(SCENARIOS / "final-2600-vs-2550.toml")
    game = Pairing.of(sc.format, *sc.players, model=sc.model, strategy=sc.strategy).bidding_game
    assert game is not None
    with pytest.raises(ValueError, match="differ only"):
        rational_regions_of([game, replace(game, increment_seconds=0.0)])
    assert rational_regions_of([]) == []


def test_a_study_estimates_what_simulate_does_at_each_point() -> None:
    """The study's tables are built per block, its runs per point: the estimates equal those
    of each point simulated on its own (tables of its own) and ``simulate``'s, same seed."""
    sweep = parse_sweep(
        {
            "name": "t",
            "scenario": "scenarios/final-2600-vs-2550.toml",
            "metrics": ["simulate.win.王天一", "simulate.match.sudden_death_reached"],
            "runs": 70_000,
            "seed": 5,
            "grid": {
                "model.elo_per_doubling.rapid": [0.0, 120.0],
                "model.draw_nu.rapid": [0.3, 2.0],
            },
            "set": {"strategy.kind": "believed", "strategy.belief_sd": 100.0},
        },
        source="t.toml",
        folder=ROOT,
    )
    result = run_sweep(sweep)
    for point in result.points:
        sc = sweep.scenario_at(point.point)
        alone = estimates_json(sc, sweep.runs, sweep.seed)
        est, _ = simulate_match(sc, sweep.runs, sweep.seed)
        assert est is not None
        direct = est.to_json()
        for metric, (value, stderr, _) in point.values.items():
            path = metric.split(".", 1)[1].split(".")
            node_a, node_s = alone, direct
            err = alone["stderr"]
            for part in path:
                node_a, node_s, err = node_a[part], node_s[part], err[part]
            assert value == node_a == node_s
            assert stderr == err
