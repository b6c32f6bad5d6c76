"""The counted walk: the stage-by-stage walk of one pair's matches, counted as it goes.

:func:`sims.kernel.count_walk` (what :func:`sims.match.match_block` and
:func:`sims.match.kernel_block` run for one pair whose matches do not all share one exit
distribution: private beliefs, or games the exit does not fix) is tested here against the exact
solver (every count of the tally, 4 standard errors), against the per-match walk it replaces
(:func:`sims.kernel.simulate` tallied: mean and variance of every count over many seeded blocks),
and its pieces against what they replace, value for value (a stage's exit counts, a region's
count).
"""

from __future__ import annotations

import zlib
from dataclasses import replace

import numpy as np
import pytest
from conftest import z_tolerance

from knockout.answers import MatchTally
from knockout.exact.solver import solve
from knockout.rules.book.presets import get_format
from knockout.rules.chain.match import MatchState, Position
from knockout.rules.chain.pairing import Pairing
from knockout.rules.decisions.regions import Regions, inside
from knockout.rules.decisions.strategies import (
    Bayesian,
    Believed,
    Equilibrium,
    Naive,
    Rational,
    Strategy,
    StrategySampler,
)
from knockout.rules.model.players import Player, Speed
from knockout.rules.model.strength import ModelParams, PerClass
from sims.kernel import (
    BiddingTable,
    MatchTables,
    StageTable,
    _draw_exit,
    _group_exits,
    _inside_count,
    count_walk,
    simulate,
)
from sims.match import kernel_block, match_block, tally, tally_walk
from sims.runner import block_rng

A = Player("A", 2540, 2500, 2580, Speed(0.7, 0.1))
B = Player("B", 2500, 2520, 2500, Speed(0.75, 0.12))
# Constants under which bidding decisions flip near a zero rating gap, so strategies differ.
TOUGH = ModelParams(PerClass(-30, -30, -30), PerClass(1.0, 1.2, 0.8), PerClass(0, 0, 120))
CASES = [
    ("xq-bidding", Believed(100.0)),
    ("xq-bidding", Bayesian(150.0)),
    ("single-slow", Believed(150.0)),
    ("armageddon-bid", Believed(120.0)),
    ("cut-choose", Believed(120.0)),
    ("official-playoff", Believed(120.0)),
    ("blitz-pairs", Rational()),  # games not fixed by the exit: walked, not one distribution
    ("blitz-pairs", Naive()),
]
IDS = [f"{p}-{s.kind}" for p, s in CASES]


def tables_for(
    preset: str, strategy: Strategy, model: ModelParams | None = None, **kw: object
) -> MatchTables:
    pairing = Pairing.of(get_format(preset), A, B, model=model or ModelParams(), strategy=strategy)
    return MatchTables.from_pairing(pairing, **kw)  # type: ignore[arg-type]


def walked(tables: MatchTables, n: int, seed: int) -> MatchTally:
    walk = count_walk(tables, n, np.random.default_rng(seed))
    assert walk is not None
    return tally_walk(tables, walk, len(tables.stages))


def walk_block(tables: MatchTables, index: int, size: int, seed: int) -> MatchTally:
    """A block's tally by the counted walk, whatever the tables."""
    walk = count_walk(tables, size, block_rng(seed, index))
    assert walk is not None
    return tally_walk(tables, walk, len(tables.stages))


# equilibrium regions under TOUGH take a minute to find: the default constants only
EXACT_CASES = [(p, s, m) for p, s in CASES for m in (ModelParams(), TOUGH)]
EXACT_CASES.append(("xq-bidding", Equilibrium(80.0), ModelParams()))


@pytest.mark.parametrize(
    ("preset", "strategy", "model"),
    EXACT_CASES,
    ids=[f"{p}-{s.kind}-{'default' if m == ModelParams() else 'tough'}" for p, s, m in EXACT_CASES],
)
def test_the_counted_walk_agrees_with_exact(
    preset: str, strategy: Strategy, model: ModelParams
) -> None:
    pairing = Pairing.of(get_format(preset), A, B, model=model, strategy=strategy)
    tables = MatchTables.from_pairing(pairing)
    n = 200_000
    t = walked(tables, n, zlib.crc32(f"{preset}/{strategy.kind}".encode()))
    exact = solve(pairing)
    assert t.runs == n and sum(t.games.values()) == n
    p = float(exact.win[0, 0])
    assert t.wins[0] / n == pytest.approx(p, abs=z_tolerance(p, n))
    for k, (a, b) in enumerate(t.decided):
        q = float(exact.decided[0, k].sum())
        assert (a + b) / n == pytest.approx(q, abs=z_tolerance(q, n))
        q_a = float(exact.decided[0, k, 0])
        assert a / n == pytest.approx(q_a, abs=z_tolerance(q_a, n))
    tail_q = tail_got = 0.0
    for g, q_arr in exact.games.items():
        q, got = float(q_arr[0]), t.games.get(g, 0) / n
        if q * n < 20:
            tail_q, tail_got = tail_q + q, tail_got + got
        else:
            assert got == pytest.approx(q, abs=z_tolerance(q, n))
    assert tail_got == pytest.approx(tail_q, abs=z_tolerance(tail_q, n) + 4 / n)
    reached = float(exact.bidding_reached[0])
    assert t.reached / n == pytest.approx(reached, abs=z_tolerance(reached, n))
    if t.reached:
        for got, joint in (
            (t.chooser_won, exact.chooser_advances),
            (t.announce_red, exact.announce_red),
            (t.objects, exact.objects),
            (t.chooser_a, exact.chooser_is_a),
        ):
            c = float(exact.conditional(joint)[0])
            assert got / t.reached == pytest.approx(c, abs=z_tolerance(c, t.reached) + 1e-12)


def tally_row(t: MatchTally, max_games: int = 8) -> list[int]:
    """Every count of a tally as one row (branch sums included)."""
    return [
        t.runs,
        *t.wins,
        *(c for pair in t.decided for c in pair),
        *(t.games.get(g, 0) for g in range(max_games)),
        t.reached,
        t.chooser_a,
        t.chooser_won,
        t.announce_red,
        t.objects,
        t.chooser_a_won,
        *t.branch_sum,
    ]


def same_distribution(x_rows: list[list[int]], y_rows: list[list[int]]) -> None:
    """Every column: the same mean and variance (4 standard errors)."""
    x_all, y_all = np.array(x_rows, dtype=np.float64), np.array(y_rows, dtype=np.float64)
    blocks = x_all.shape[0]
    for x, y in zip(x_all.T, y_all.T, strict=True):
        if x.var() == 0 and y.var() == 0:
            assert x.mean() == y.mean()
            continue
        se_mean = np.sqrt((x.var(ddof=1) + y.var(ddof=1)) / blocks)
        assert abs(x.mean() - y.mean()) <= 4 * se_mean
        se_var = np.sqrt(2 * (x.var(ddof=1) ** 2 + y.var(ddof=1) ** 2) / (blocks - 1))
        assert abs(x.var(ddof=1) - y.var(ddof=1)) <= 4 * se_var


@pytest.mark.parametrize(("preset", "strategy"), CASES, ids=IDS)
def test_the_counted_walk_has_the_per_match_walks_distribution(
    preset: str, strategy: Strategy
) -> None:
    """Block by block, every count of the tally (branch sums included) has the same mean and
    variance whether the matches are counted as they go or walked one by one and tallied."""
    tables = tables_for(preset, strategy, TOUGH)
    blocks, size = 400, 1_999
    stages = len(tables.stages)
    counted = [tally_row(walk_block(tables, i, size, 3)) for i in range(blocks)]
    one_by_one = [
        tally_row(tally(simulate(tables, size, block_rng(4, i)), stages)) for i in range(blocks)
    ]
    same_distribution(counted, one_by_one)
    if tables.exit_probabilities is None:  # what the blocks of a run walk
        assert match_block(tables, 1, size, 3) == walk_block(tables, 1, size, 3)
        assert kernel_block(tables, 1, size, 3) == walk_block(tables, 1, size, 3)


def test_a_match_in_progress_is_walked_from_its_position() -> None:
    start = Position(MatchState(1, 1, 0, 0), games=3)
    tables = tables_for("xq-bidding", Believed(100.0), TOUGH, start=start)
    blocks, size = 300, 2_000
    stages = len(tables.stages)
    counted = [tally_row(match_block(tables, i, size, 5)) for i in range(blocks)]
    one_by_one = [
        tally_row(tally(simulate(tables, size, block_rng(6, i)), stages)) for i in range(blocks)
    ]
    same_distribution(counted, one_by_one)
    pairing = Pairing.of(get_format("xq-bidding"), A, B, model=TOUGH, strategy=Believed(100.0))
    p = float(solve(pairing, start=start).win[0, 0])
    n = blocks * size
    wins = sum(row[1] for row in counted)
    assert wins / n == pytest.approx(p, abs=z_tolerance(p, n))


def test_a_sampler_other_than_beliefs_is_drawn_match_by_match() -> None:
    """A bidding table whose sampler is not a BeliefSampler: its decisions are drawn per match
    (the sampler's own sample) and counted, with the same distribution."""
    tables = tables_for("xq-bidding", Believed(100.0), TOUGH)
    s, table = next((s, t) for s, t in enumerate(tables.stages) if isinstance(t, BiddingTable))
    assert tables.game is not None
    other = StrategySampler(Believed(100.0), tables.game)
    stages = list(tables.stages)
    stages[s] = replace(table, sampler=other)
    own = replace(tables, stages=tuple(stages))
    blocks, size = 400, 2_000
    rows = [tally_row(match_block(own, i, size, 7)) for i in range(blocks)]
    base = [tally_row(match_block(tables, i, size, 8)) for i in range(blocks)]
    same_distribution(rows, base)


def test_walks_are_determined_by_the_seed_and_draw_as_simulate() -> None:
    """The same seed, the same tally; the random numbers drawn are simulate's for the same
    matches: one per match entering a stage played game by game, four per match entering the
    bidding stage decided on beliefs."""
    tables = tables_for("xq-bidding", Believed(100.0), TOUGH)
    assert kernel_block(tables, 2, 5_000, 9) == kernel_block(tables, 2, 5_000, 9)
    assert kernel_block(tables, 2, 5_000, 9) != kernel_block(tables, 3, 5_000, 9)
    for n in (0, 1, 2, 3, 10_000):
        walk = count_walk(tables, n, block_rng(1, 0))
        assert walk is not None
        t = tally_walk(tables, walk, len(tables.stages))
        assert t.runs == n == sum(t.games.values())
        entering: int = n
        expected = 0
        for s, stage in enumerate(tables.stages):
            expected += (4 if isinstance(stage, BiddingTable) else 1) * entering
            entering -= sum(t.decided[s])
        assert walk.draws == expected
    several = Pairing.of(get_format("xq-bidding"), [A, B], [B, A], strategy=Believed(100.0))
    assert count_walk(MatchTables.from_pairing(several), 10, block_rng(1, 0)) is None


@pytest.mark.parametrize("preset", ["xq-bidding", "official-playoff", "blitz-pairs"])
def test_a_groups_exit_counts_are_the_exit_indices_counted(preset: str) -> None:
    """For the same uniforms (every cut point itself among them), a group's exit counts are
    the per-match exit indices (:func:`_draw_exit`) counted, entry by entry."""
    tables = tables_for(preset, Rational(), TOUGH)
    u = np.random.default_rng(2).random(50_000)
    for table in tables.stages:
        assert isinstance(table, StageTable)
        cuts = np.unique(table.cuts)
        draws = np.concatenate([u, cuts[(cuts >= 0) & (cuts < 1)]])
        for entry in (0, 1, 2):
            code = None if entry == 0 else np.full(draws.size, entry, dtype=np.intp)
            k = _draw_exit(table, draws, None, code)
            expected = np.bincount(k, minlength=table.games.size)
            np.testing.assert_array_equal(_group_exits(table, entry, draws), expected)


def test_a_regions_count_is_its_sorted_search() -> None:
    rng = np.random.default_rng(5)
    cases = [
        Regions(()),
        Regions(((-np.inf, -100.0),)),
        Regions(((-50.0, 20.0), (80.0, np.inf))),
        Regions(((-np.inf, -300.0), (-10.0, 0.0), (0.0, 40.0), (500.0, np.inf))),
    ]
    for regions in cases:
        bounds = regions.bounds
        y = np.concatenate([rng.normal(0, 200, 20_000), bounds[np.isfinite(bounds)]])
        assert _inside_count(bounds, y) == int(np.count_nonzero(inside(bounds, y)))
