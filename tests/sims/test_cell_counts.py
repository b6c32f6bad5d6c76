"""The per-match kernel's counting path: one integer (a cell of [0, 1)) per match, cells counted.

:func:`sims.kernel.count_exits` (what :func:`sims.match.kernel_block` runs where one exit
distribution holds for every match) is tested here against the exact exit distribution and
against the per-match exits of :func:`sims.kernel.simulate` (means and variances of the counts
over many seeded blocks, 4 standard errors), on the edge cases of the cell split (cut points on
a cell's edge, several in one cell, exits of zero probability, one exit); and its tally against
a count made directly from per-match outcomes.
"""

from __future__ import annotations

import numpy as np
import pytest

from knockout.answers import MatchTally, branch_units
from knockout.rules.book.presets import get_format
from knockout.rules.chain.pairing import Pairing
from knockout.rules.decisions.strategies import Naive, Rational
from knockout.rules.model.players import Player, Speed
from sims.kernel import (
    COUNT_CELLS,
    GUIDE_CELLS,
    MAX_SPLIT_CELLS,
    CellSplit,
    MatchTables,
    count_exits,
    simulate,
)
from sims.match import kernel_block, tally
from sims.runner import block_rng

A = Player("A", 2580, speed=Speed(0.8, 0.1))
B = Player("B", 2520, rating_rapid=2560, speed=Speed(0.7, 0.1))
PRESETS = ["xq-bidding", "single-slow", "official-playoff", "armageddon-bid", "red-handicap"]

#: Exit distributions that stress the split (64 cells of width 1/64).
EDGE_CASES = {
    "one exit": [1.0],
    "zero-probability exits": [0.0, 0.3, 0.0, 0.0, 0.7, 0.0],
    "cut on a cell edge": [0.5, 0.25, 0.25],
    "several cuts in one cell": [0.5, 1e-3, 2e-3, 1e-3, 0.496],
    "all cuts in one cell": [1e-3, 2e-3, 3e-3, 0.994],
    "tiny last exit": [0.6, 0.4 - 1e-12, 1e-12],
    "many exits": list(np.random.default_rng(4).dirichlet(np.ones(40))),
}
CELLS = [COUNT_CELLS, GUIDE_CELLS]


def tables_for(preset: str, strategy: Rational | Naive | None = None) -> MatchTables:
    pairing = Pairing.of(get_format(preset), A, B, strategy=strategy or Rational())
    return MatchTables.from_pairing(pairing)


@pytest.mark.parametrize("cells", CELLS)
@pytest.mark.parametrize("name", list(EDGE_CASES))
def test_the_split_composes_to_the_exact_distribution(name: str, cells: int) -> None:
    """P(exit) = its sure cells' share + the split cells' share times the split's chance of it;
    and every uniform in a sure cell has that cell's exit (a sorted search, brute force)."""
    p = np.array(EDGE_CASES[name])
    p = p / p.sum()
    split = CellSplit.of(p, cells)
    sure, left = split.sure[:, :-1], split.sure[:, -1]
    assert np.all(sure.sum(axis=1) + left == 1)  # each cell: one sure exit, or split
    composed = sure.sum(axis=0) / cells + left.sum() / cells * split.split_p
    np.testing.assert_allclose(composed, p, rtol=0, atol=1e-15)
    cuts = np.cumsum(p)[:-1]
    u = (np.arange(cells)[:, None] + np.linspace(0, 1, 50, endpoint=False)) / cells
    exits = np.searchsorted(cuts, u, side="right")  # (cells, 50)
    for cell in np.flatnonzero(left == 0):
        assert np.all(exits[cell] == np.argmax(sure[cell]))
    assert split.variates == max(0, np.count_nonzero(split.split_p) - 1)


@pytest.mark.parametrize("cells", CELLS)
@pytest.mark.parametrize("name", list(EDGE_CASES))
def test_counts_have_the_multinomial_mean_and_variance(name: str, cells: int) -> None:
    """Over many seeded blocks, each exit's count has mean n p and variance n p (1 - p), within
    4 standard errors; exits of zero probability are never drawn; every match is counted."""
    p = np.array(EDGE_CASES[name])
    p = p / p.sum()
    split = CellSplit.of(p, cells)
    blocks, n = 400, 2_001  # an odd size: one match without a partner in the pair count
    counts = np.array([split.count(n, block_rng(3, i)).per_exit for i in range(blocks)])
    assert np.all(counts.sum(axis=1) == n)
    assert np.all(counts[:, p == 0] == 0)
    mean, var = n * p, n * p * (1 - p)
    se_mean = np.sqrt(var / blocks)
    assert np.all(np.abs(counts.mean(axis=0) - mean) <= 4 * se_mean + 1e-9)
    # a sample variance's variance, for near-Normal counts (var >= 5): about 2 var^2 / (blocks - 1)
    normal = var >= 5
    se_var = np.sqrt(2 * var[normal] ** 2 / (blocks - 1))
    assert np.all(np.abs(counts[:, normal].var(axis=0, ddof=1) - var[normal]) <= 4 * se_var)


@pytest.mark.parametrize("preset", PRESETS)
def test_counting_cells_matches_the_per_match_exits(preset: str) -> None:
    """The counting path's exit counts and simulate()'s per-match exits, block by block: the
    same mean and variance of every exit's count (4 standard errors), pooled frequencies
    equal to the exact distribution."""
    tables = tables_for(preset)
    p = tables.exit_probabilities
    assert p is not None
    blocks, n = 300, 3_000
    k = p.size
    counted = np.array([count_exits(tables, n, block_rng(5, i)).per_exit for i in range(blocks)])  # type: ignore[union-attr]
    walked = np.array(
        [
            np.bincount(simulate(tables, n, block_rng(6, i)).exit_code, minlength=k)
            for i in range(blocks)
        ]
    )
    for x, y in zip(counted.T, walked.T, strict=True):
        if x.var() == 0 and y.var() == 0:
            assert x.mean() == y.mean()
            continue
        se_mean = np.sqrt((x.var(ddof=1) + y.var(ddof=1)) / blocks)
        assert abs(x.mean() - y.mean()) <= 4 * se_mean
        se_var = np.sqrt(2 * (x.var(ddof=1) ** 2 + y.var(ddof=1) ** 2) / (blocks - 1))
        assert abs(x.var(ddof=1) - y.var(ddof=1)) <= 4 * se_var
    f = counted.sum(axis=0) / (blocks * n)
    se = np.sqrt(p * (1 - p) / (blocks * n))
    assert np.all(np.abs(f - p) <= 4 * se + 1e-12)


def test_counts_are_determined_by_the_seed_and_draws_are_counted() -> None:
    tables = tables_for("xq-bidding")
    split = tables.cell_split
    assert split is not None
    a = count_exits(tables, 10_000, block_rng(1, 2))
    b = count_exits(tables, 10_000, block_rng(1, 2))
    c = count_exits(tables, 10_000, block_rng(1, 3))
    assert a is not None and b is not None and c is not None
    np.testing.assert_array_equal(a.per_exit, b.per_exit)
    assert not np.array_equal(a.per_exit, c.per_exit)
    assert a.draws == 10_000 + split.variates
    assert split.variates == np.count_nonzero(split.split_p) - 1 > 0
    assert kernel_block(tables, 4, 5_000, 9) == kernel_block(tables, 4, 5_000, 9)
    for n in (0, 1, 2, 3):
        counts = count_exits(tables, n, block_rng(1, 0))
        assert counts is not None and int(counts.per_exit.sum()) == n


def test_the_floor_makes_the_counts_generator_calls() -> None:
    """draw_only (the benchmark's floor) draws the same integers as count, then one multinomial
    of the same categories."""
    tables = tables_for("xq-bidding")
    split = tables.cell_split
    assert split is not None
    calls: list[tuple[str, object]] = []

    class Spy:
        def __init__(self, rng: np.random.Generator) -> None:
            self.rng = rng

        def integers(self, low: int, high: int, size: int) -> object:
            calls.append(("integers", (low, high, size)))
            return self.rng.integers(low, high, size)

        def multinomial(self, n: int, p: np.ndarray) -> object:
            calls.append(("multinomial", tuple(p)))
            return self.rng.multinomial(n, p)

    split.count(4_096, Spy(np.random.default_rng(1)))  # type: ignore[arg-type]
    counted = list(calls)
    calls.clear()
    split.draw_only(4_096, Spy(np.random.default_rng(1)))  # type: ignore[arg-type]
    assert calls == counted and [c[0] for c in calls] == ["integers", "multinomial"]


def test_many_exits_are_counted_over_finer_cells() -> None:
    """A distribution whose cut points would fall in more than MAX_SPLIT_CELLS of the 64 cells
    is counted over 4,096 (so the multinomial splits few matches); the seed's formats use 64."""
    p = np.array(EDGE_CASES["many exits"])
    assert CellSplit.of(p / p.sum(), COUNT_CELLS).split_cells > MAX_SPLIT_CELLS
    for preset in PRESETS:
        split = tables_for(preset).cell_split
        assert split is not None and split.cells == COUNT_CELLS
        assert split.split_cells == int(split.sure[:, -1].sum()) <= MAX_SPLIT_CELLS


def test_strategies_with_private_beliefs_have_no_counting_path() -> None:
    from knockout.rules.decisions.strategies import Believed

    pairing = Pairing.of(get_format("xq-bidding"), A, B, strategy=Believed(100.0))
    assert MatchTables.from_pairing(pairing).cell_split is None
    assert count_exits(MatchTables.from_pairing(pairing), 10, block_rng(1, 0)) is None


def direct_tally(out: object, tables: MatchTables) -> MatchTally:
    """A match tally counted directly from per-match outcome arrays (brute force)."""
    winner, stage, games = out.winner, out.stage, out.games  # type: ignore[attr-defined]
    chooser, red, objects = out.chooser, out.announce_red, out.objects  # type: ignore[attr-defined]
    n_stages = len(tables.stages)
    sums, squares = [0] * 8, [0] * 8
    if tables.branch_values is not None:
        values = tables.branch_values[0]
        for side in (0, 1):
            count = int(np.sum(chooser == side))
            for b in range(4):
                sums[side * 4 + b] = count * int(branch_units(values[side, b]))
                squares[side * 4 + b] = count * int(branch_units(values[side, b] ** 2))
    return MatchTally(
        runs=winner.size,
        wins=(int(np.sum(winner == 0)), int(np.sum(winner == 1))),
        decided=tuple(
            (int(np.sum((stage == s) & (winner == 0))), int(np.sum((stage == s) & (winner == 1))))
            for s in range(n_stages)
        ),
        games={int(g): int(np.sum(games == g)) for g in np.unique(games)},
        reached=int(np.sum(chooser >= 0)),
        chooser_a=int(np.sum(chooser == 0)),
        chooser_won=int(np.sum((chooser >= 0) & (chooser == winner))),
        announce_red=int(np.sum(red)),
        objects=int(np.sum(objects)),
        chooser_a_won=int(np.sum((chooser == 0) & (winner == 0))),
        branch_sum=tuple(sums),
        branch_sq=tuple(squares),
        time_class=tables.bidding_class,
    )


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("strategy", [Rational(), Naive()], ids=["rational", "naive"])
def test_the_tally_of_exit_counts_is_the_direct_count(
    preset: str, strategy: Rational | Naive
) -> None:
    tables = tables_for(preset, strategy)
    out = simulate(tables, 20_000, np.random.default_rng(8))
    assert tally(out, len(tables.stages)) == direct_tally(out, tables)
