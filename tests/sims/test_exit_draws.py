"""One uniform per match against the global exit distribution, and one multinomial per block.

For strategies without private beliefs every match of a pairing has the same distribution over
the global exits; :func:`sims.kernel.simulate` then draws one uniform per match against it and
:func:`sims.match.match_block` draws a block's exit counts as one multinomial. Both are tested
here against the stage-by-stage walk they replace (distribution of exits, 4 standard errors)
and, for the multinomial, the tallies' distribution against the per-match kernel's.
"""

from __future__ import annotations

import numpy as np
import pytest

from knockout.exact.solver import solve
from knockout.rules.book.presets import get_format
from knockout.rules.chain.match import MatchState, Position
from knockout.rules.chain.pairing import Pairing
from knockout.rules.decisions.strategies import Naive, Rational, Strategy
from knockout.rules.model.players import Player, Speed
from sims.kernel import GUIDE_CELLS, MatchTables, _draw_global, _simulate_stages, simulate
from sims.match import kernel_block, match_block

A = Player("A", 2580, speed=Speed(0.8, 0.1))
B = Player("B", 2520, rating_rapid=2560, speed=Speed(0.7, 0.1))
CASES = [
    ("xq-bidding", Rational()),
    ("xq-bidding", Naive()),
    ("single-slow", Rational()),
    ("official-playoff", Rational()),
    ("armageddon-bid", Rational()),
    ("red-handicap", Naive()),
]


def tables_for(preset: str, strategy: Strategy, start: Position | None = None) -> MatchTables:
    pairing = Pairing.of(get_format(preset), A, B, strategy=strategy)
    return MatchTables.from_pairing(pairing, start=start)


@pytest.mark.parametrize(("preset", "strategy"), CASES, ids=[f"{p}-{s.kind}" for p, s in CASES])
def test_one_uniform_per_match_has_the_stage_walks_distribution(
    preset: str, strategy: Strategy
) -> None:
    tables = tables_for(preset, strategy)
    assert tables.exit_probabilities is not None
    n = 400_000
    fast = simulate(tables, n, np.random.default_rng(1))
    walk = _simulate_stages(tables, n, np.random.default_rng(2), None)
    assert fast.draws == n and walk.draws >= n
    k = tables.exit_winner.size
    f = np.bincount(fast.exit_code, minlength=k) / n
    w = np.bincount(walk.exit_code, minlength=k) / n
    se = np.sqrt((f * (1 - f) + w * (1 - w)) / n)
    assert np.all(np.abs(f - w) <= 4 * se + 1e-12)
    # and the exact exit distribution is the solver's: P(A advances)
    p_a = tables.exit_probabilities[tables.exit_winner == 0].sum()
    assert p_a == pytest.approx(
        solve(Pairing.of(get_format(preset), A, B, strategy=strategy)).win[0, 0]
    )


def test_a_match_in_progress_composes_from_its_stage() -> None:
    start = Position(MatchState(1, 0, 0, 0), games=2)
    tables = tables_for("xq-bidding", Rational(), start)
    p = tables.exit_probabilities
    assert p is not None
    sol = solve(Pairing.of(get_format("xq-bidding"), A, B, strategy=Rational()), start=start)
    assert p[tables.exit_winner == 0].sum() == pytest.approx(sol.win[0, 0])


def test_the_guide_table_gives_the_sorted_searchs_exit_for_every_uniform() -> None:
    tables = tables_for("xq-bidding", Rational())
    guide = tables.exit_guide
    assert guide is not None
    cuts, _ = guide
    u = np.random.default_rng(3).random(200_000)
    edges = np.arange(GUIDE_CELLS) / GUIDE_CELLS
    u = np.concatenate([u, cuts, np.nextafter(cuts, 0), np.nextafter(cuts, 1), edges])
    u = u[(u >= 0) & (u < 1)]
    np.testing.assert_array_equal(_draw_global(guide, u), np.searchsorted(cuts, u, side="right"))


def test_private_beliefs_and_many_pairs_keep_the_stage_walk() -> None:
    from knockout.rules.decisions.strategies import Believed

    assert tables_for("xq-bidding", Believed(100.0)).exit_probabilities is None
    pairs = Pairing.of(get_format("xq-bidding"), [A, B], [B, A], strategy=Rational())
    assert MatchTables.from_pairing(pairs).exit_probabilities is None


@pytest.mark.parametrize("preset", ["xq-bidding", "official-playoff"])
def test_multinomial_blocks_tally_like_the_per_match_kernel(preset: str) -> None:
    """Over many small blocks, every count of the tally has the same mean and variance whether
    the block is one multinomial or every match simulated (4 standard errors)."""
    tables = tables_for(preset, Rational())
    blocks, size = 600, 2_000

    def counts(block: object) -> np.ndarray:
        rows = []
        for i in range(blocks):
            t = block(tables, i, size, 11)  # type: ignore[operator]
            rows.append(
                [
                    t.wins[0],
                    *(a for a, _ in t.decided),
                    t.reached,
                    t.chooser_a,
                    t.chooser_won,
                    t.announce_red,
                    t.objects,
                    *(t.games.get(g, 0) for g in range(1, 6)),
                ]
            )
        return np.array(rows, dtype=np.float64)

    multi, per_match = counts(match_block), counts(kernel_block)
    assert multi[:, 0].sum() != per_match[:, 0].sum()  # two different streams
    for col in range(multi.shape[1]):
        x, y = multi[:, col], per_match[:, col]
        if x.var() == 0 and y.var() == 0:
            assert x.mean() == y.mean()
            continue
        se_mean = np.sqrt((x.var(ddof=1) + y.var(ddof=1)) / blocks)
        assert abs(x.mean() - y.mean()) <= 4 * se_mean
        # the variance of a sample variance: about 2 var^2 / (blocks - 1) for these near-Normal
        # counts
        se_var = np.sqrt(2 * (x.var(ddof=1) ** 2 + y.var(ddof=1) ** 2) / (blocks - 1))
        assert abs(x.var(ddof=1) - y.var(ddof=1)) <= 4 * se_var
