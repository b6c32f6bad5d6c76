"""Monte Carlo of whole knockout events, vectorised over simulations.

Each block simulates ``S`` events at once, round by round: the players still in are an ``(S,
lines)`` array; a round pairs neighbouring columns, and every real match of every simulation is
drawn in one call of the match kernel (:func:`sims.kernel.simulate` with per-match pair indices).
Byes, walkovers (withdrawn players) and matches already decided or in progress (``[[played]]``)
are handled as in the exact solver: a match in progress draws its (winner, games still to play)
from its exact conditional distribution.

Counts per block are integers (reach per player and round, events won by the top-rated player,
upsets and their squares, games played), so results add up bit-identically across executors.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

import numpy as np
import numpy.typing as npt

from knockout.exact.bracket import all_pairs, progress_solution
from knockout.io.scenario import Scenario
from knockout.odds import BracketOdds, BracketTally, Simulated
from knockout.rules.bracket import Bracket, round_name
from knockout.rules.progress import THIRD_PLACE
from knockout.rules.walkover import NO_WALKOVER, walkover_sides
from sims.kernel import MatchTables, simulate
from sims.runner import Executor, Progress, RunResult, Warn, Workers, block_rng, run_blocks

__all__ = ["BracketJob", "bracket_block", "simulate_bracket"]

IntArray = npt.NDArray[np.intp]

#: Events per block: brackets are heavier than single matches.
BRACKET_BLOCK = 4096


@dataclass(frozen=True)
class FixedMatch:
    """A match whose outcome distribution is given (decided or in progress).

    Attributes:
        cuts: Inner cut points of the outcome distribution.
        upper_wins: Per outcome, whether the upper-line player advances.
        games: Per outcome, the match's games (those already played included).
        walkover: Decided by walkover (not counted as an upset).
    """

    cuts: npt.NDArray[np.float64]
    upper_wins: npt.NDArray[np.bool_]
    games: npt.NDArray[np.int64]
    walkover: bool = False


@dataclass(frozen=True)
class BracketJob:
    """Everything a block needs, computed once (picklable).

    Attributes:
        lines: Player index per bracket line (-1 for a bye).
        names: Player names by index.
        ratings: Classical ratings by index (for upsets and the top-rated player).
        seeds: Seed numbers by index (for two withdrawn players meeting).
        withdrawn: Whether each player withdrew.
        tables: Kernel tables for every pair ``i < j``.
        pair_id: ``(n, n)`` index into the tables for ``i < j`` (-1 elsewhere).
        fixed: Matches with a given outcome distribution, by ``(round, match index)``.
        bracket: The draw.
    """

    lines: IntArray
    names: tuple[str, ...]
    ratings: npt.NDArray[np.float64]
    seeds: IntArray
    withdrawn: npt.NDArray[np.bool_]
    tables: MatchTables
    pair_id: IntArray
    fixed: dict[tuple[int, int], FixedMatch]
    bracket: Bracket

    @property
    def rounds(self) -> int:
        """Number of rounds."""
        return int(self.lines.size).bit_length() - 1

    @classmethod
    def from_scenario(cls, scenario: Scenario) -> BracketJob:
        """Build the job: the draw, the all-pairs kernel tables, the matches in progress."""
        state = scenario.event_state()
        bracket = state.bracket
        names = bracket.players
        index = {name: i for i, name in enumerate(names)}
        players = {p.name: p for p in scenario.players}
        n = len(names)
        iu, ju, pairing = all_pairs(scenario, names)
        pair_id = np.full((n, n), -1, dtype=np.intp)
        pair_id[iu, ju] = np.arange(iu.size)
        fixed: dict[tuple[int, int], FixedMatch] = {}
        for key, p in state.progress.items():
            played = len(p.games)
            if p.winner is not None:
                upper = p.winner == p.players[0]
                fixed[key] = FixedMatch(
                    np.zeros(0), np.array([upper]), np.array([played]), p.walkover is not None
                )
                continue
            sol = progress_solution(scenario, p)
            outcomes = [
                (g, side, float(probs[0, side]))
                for g, probs in sorted(sol.games_by_winner.items())
                for side in (0, 1)
                if probs[0, side] > 0
            ]
            weights = np.array([w for _, _, w in outcomes])
            cdf = np.cumsum(weights / weights.sum())
            fixed[key] = FixedMatch(
                cdf[:-1],
                np.array([side == 0 for _, side, _ in outcomes]),
                np.array([played + g for g, _, _ in outcomes]),
            )
        return cls(
            lines=np.array([-1 if x is None else index[x] for x in bracket.lines], dtype=np.intp),
            names=names,
            ratings=np.array([players[x].rating for x in names]),
            seeds=np.array([bracket.seeds[x] for x in names], dtype=np.intp),
            withdrawn=np.array([players[x].withdrawn for x in names]),
            tables=MatchTables.from_pairing(pairing),
            pair_id=pair_id,
            fixed=fixed,
            bracket=bracket,
        )


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


def bracket_block(job: BracketJob, index: int, size: int, seed: int) -> BracketTally:
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


def simulate_bracket(
    scenario: Scenario,
    runs: int,
    seed: int,
    *,
    executor: Executor = "local",
    workers: Workers = 1,
    scheduler: str | None = None,
    block_size: int = BRACKET_BLOCK,
    progress: Progress | None = None,
    warn: Warn | None = None,
) -> tuple[Simulated[BracketOdds] | None, RunResult[BracketTally]]:
    """Monte Carlo odds of the scenario's knockout event."""
    job = BracketJob.from_scenario(scenario)
    result = run_blocks(
        partial(bracket_block, job),
        runs,
        seed,
        executor=executor,
        workers=workers,
        scheduler=scheduler,
        block_size=block_size,
        progress=progress,
        warn=warn,
    )
    if result.counts is None:
        return None, result
    players = tuple(p.name for p in scenario.players)
    bracket = job.bracket
    rounds = tuple(round_name(k, bracket.rounds) for k in range(1, bracket.rounds + 1))
    estimates = result.counts.estimate(job.names, players, bracket, rounds, seed)
    return estimates, result
