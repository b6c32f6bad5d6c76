"""The bracket block as it was before it was vectorised further (the reference for tests).

Round by round with a Python loop over matches decided or in progress, per-match walkover and bye
handling on ``(S, M)`` arrays, and ``np.add.at`` for the counts: slower, but written directly
from the rules. :mod:`tests.sims.test_bracket_block` checks the fast block against it in
distribution.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from knockout.answers import BracketTally
from knockout.arrays import IntArray
from knockout.rules.book.walkover import NO_WALKOVER, walkover_sides
from knockout.rules.chain.progress import THIRD_PLACE
from sims.bracket import BracketJob
from sims.kernel import simulate
from sims.runner import block_rng


def _play_round(
    job: BracketJob,
    rng: np.random.Generator,
    k: int,
    up: IntArray,
    down: IntArray,
    games: npt.NDArray[np.int64],
    upsets: npt.NDArray[np.int64],
    match_index: IntArray | None,
) -> tuple[IntArray, IntArray]:
    """Winners and losers of matches ``up[s, m]`` v ``down[s, m]`` (arrays of shape (S, M))."""
    winner = up.copy()
    bye = (up < 0) | (down < 0)
    winner[down < 0] = up[down < 0]
    winner[up < 0] = down[up < 0]
    real = ~bye
    side = walkover_sides(
        real & job.withdrawn[np.maximum(up, 0)],
        real & job.withdrawn[np.maximum(down, 0)],
        job.seeds[np.maximum(up, 0)] < job.seeds[np.maximum(down, 0)],
    )
    fixed_at = (
        {}
        if match_index is None
        else {m: job.fixed.get((k, int(i))) for m, i in enumerate(match_index)}
    )
    for m, fixed in fixed_at.items():
        if fixed is not None:
            side[:, m] = NO_WALKOVER  # decided (by its games or a walkover) or in progress
    walk = side != NO_WALKOVER
    winner = np.where(side == 0, up, np.where(side == 1, down, winner))
    todo = real & ~walk
    if match_index is not None:
        for m, fixed in fixed_at.items():
            if fixed is None:
                continue
            col = todo[:, m]
            rows = np.flatnonzero(col)
            u = rng.random(rows.size)
            outcome = (u[:, None] >= fixed.cuts[None, :]).sum(axis=1)
            upper = fixed.upper_wins[outcome]
            winner[rows, m] = np.where(upper, up[rows, m], down[rows, m])
            games[rows] += fixed.games[outcome]
            if not fixed.walkover:
                lower_won = _lower_rated_won(job, up[rows, m], down[rows, m], winner[rows, m])
                upsets[rows] += lower_won
            todo[:, m] = False
    rows, cols = np.nonzero(todo)
    if rows.size:
        a, b = up[rows, cols], down[rows, cols]
        lo, hi = np.minimum(a, b), np.maximum(a, b)
        out = simulate(job.tables, rows.size, rng, pair=job.pair_id[lo, hi])
        w = np.where(out.winner == 0, lo, hi)
        winner[rows, cols] = w
        np.add.at(games, rows, out.games)
        np.add.at(upsets, rows, _lower_rated_won(job, a, b, w))
    loser = np.where(winner == up, down, up)
    return winner, loser


def _lower_rated_won(
    job: BracketJob, a: IntArray, b: IntArray, w: IntArray
) -> npt.NDArray[np.int64]:
    loser = np.where(w == a, b, a)
    return (job.ratings[w] < job.ratings[loser]).astype(np.int64)


def reference_block(job: BracketJob, index: int, size: int, seed: int) -> BracketTally:
    """One block of ``size`` events (module level, so it pickles for workers)."""
    rng = block_rng(seed, index)
    n = len(job.names)
    rounds = job.rounds
    alive = np.broadcast_to(job.lines, (size, job.lines.size)).copy()
    games = np.zeros(size, dtype=np.int64)
    upsets = np.zeros(size, dtype=np.int64)
    reach = np.zeros((n, rounds + 1), dtype=np.int64)
    reach[:, 0] = size
    for k in range(1, rounds + 1):
        up, down = alive[:, 0::2], alive[:, 1::2]
        matches = np.arange(up.shape[1])
        winner, loser = _play_round(job, rng, k, up, down, games, upsets, matches)
        if k == rounds - 1 and job.bracket.third_place:
            third_games = np.zeros(size, dtype=np.int64)
            third = np.array([THIRD_PLACE])
            _play_round(job, rng, k + 1, loser[:, 0:1], loser[:, 1:2], third_games, upsets, third)
            games += third_games
        alive = winner
        counts = np.bincount(alive.ravel(), minlength=n)
        reach[:, k] = counts[:n]
    champion = alive[:, 0]
    top = job.ratings == job.ratings.max()
    return BracketTally(
        runs=size,
        reach=tuple(tuple(int(x) for x in row) for row in reach),
        top_rated_wins=int(top[champion].sum()),
        upsets=int(upsets.sum()),
        upsets_squared=int((upsets**2).sum()),
        games={int(g): int(c) for g, c in enumerate(np.bincount(games)) if c},
    )
