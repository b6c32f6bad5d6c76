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

import math
from collections import Counter
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import numpy as np
import numpy.typing as npt

from knockout.exact.bracket import EventState, all_pairs, progress_solution
from knockout.io.scenario import Scenario
from sims.kernel import MatchTables, simulate
from sims.match import Estimate
from sims.runner import Executor, Progress, RunResult, block_rng, run_blocks

__all__ = ["BracketCounts", "BracketEstimates", "BracketJob", "bracket_block", "simulate_bracket"]

IntArray = npt.NDArray[np.intp]

#: Events per block: brackets are heavier than single matches.
BRACKET_BLOCK = 4096


@dataclass(frozen=True)
class FixedMatch:
    """A match whose outcome distribution is given (decided or in progress).

    Attributes:
        cuts: Inner cut points of the outcome distribution.
        upper_wins: Per outcome, whether the upper-line player advances.
        games: Per outcome, games still to be played.
    """

    cuts: npt.NDArray[np.float64]
    upper_wins: npt.NDArray[np.bool_]
    games: npt.NDArray[np.int64]


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
        third_place: Whether the losing semi-finalists play for third place.
    """

    lines: IntArray
    names: tuple[str, ...]
    ratings: npt.NDArray[np.float64]
    seeds: IntArray
    withdrawn: npt.NDArray[np.bool_]
    tables: MatchTables
    pair_id: IntArray
    fixed: dict[tuple[int, int], FixedMatch]
    third_place: bool

    @property
    def rounds(self) -> int:
        """Number of rounds."""
        return int(self.lines.size).bit_length() - 1

    @classmethod
    def from_scenario(cls, scenario: Scenario) -> BracketJob:
        """Build the job: the draw, the all-pairs kernel tables, the matches in progress."""
        state = EventState.of(scenario)
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
            if p.winner is not None:
                upper = p.winner == p.players[0]
                fixed[key] = FixedMatch(np.zeros(0), np.array([upper]), np.array([0]))
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
                np.array([g for g, _, _ in outcomes]),
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
            third_place=bracket.third_place,
        )


@dataclass(frozen=True)
class BracketCounts:
    """Integer tallies of simulated events.

    Attributes:
        runs: Events simulated.
        reach: ``reach[i][k]``: events in which player ``i`` was still in at the start of round
            ``k + 1`` (the last column: events won).
        top_rated_wins: Events won by a highest-rated entrant.
        upsets: Total upsets (a played match won by the lower-rated player).
        upsets_squared: Sum over events of the squared number of upsets.
        games: Events by total games played.
    """

    runs: int
    reach: tuple[tuple[int, ...], ...]
    top_rated_wins: int
    upsets: int
    upsets_squared: int
    games: dict[int, int] = field(default_factory=dict)

    def __add__(self, other: BracketCounts) -> BracketCounts:
        return BracketCounts(
            runs=self.runs + other.runs,
            reach=tuple(
                tuple(x + y for x, y in zip(a, b, strict=True))
                for a, b in zip(self.reach, other.reach, strict=True)
            ),
            top_rated_wins=self.top_rated_wins + other.top_rated_wins,
            upsets=self.upsets + other.upsets,
            upsets_squared=self.upsets_squared + other.upsets_squared,
            games=dict(Counter(self.games) + Counter(other.games)),
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
    m_count = up.shape[1]
    winner = up.copy()
    bye = (up < 0) | (down < 0)
    winner[down < 0] = up[down < 0]
    winner[up < 0] = down[up < 0]
    real = ~bye
    wd_up = np.where(real, job.withdrawn[np.maximum(up, 0)], False)
    wd_down = np.where(real, job.withdrawn[np.maximum(down, 0)], False)
    walk = real & (wd_up | wd_down)
    both = wd_up & wd_down
    up_better_seed = job.seeds[np.maximum(up, 0)] < job.seeds[np.maximum(down, 0)]
    winner = np.where(walk & wd_down & ~both, up, winner)
    winner = np.where(walk & wd_up & ~both, down, winner)
    winner = np.where(both, np.where(up_better_seed, up, down), winner)
    todo = real & ~walk
    if match_index is not None:
        for m in range(m_count):
            fixed = job.fixed.get((k, int(match_index[m])))
            if fixed is None:
                continue
            col = todo[:, m]
            rows = np.flatnonzero(col)
            u = rng.random(rows.size)
            outcome = (u[:, None] >= fixed.cuts[None, :]).sum(axis=1)
            upper = fixed.upper_wins[outcome]
            winner[rows, m] = np.where(upper, up[rows, m], down[rows, m])
            games[rows] += fixed.games[outcome]
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


def bracket_block(job: BracketJob, index: int, size: int, seed: int) -> BracketCounts:
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
        if k == rounds - 1 and job.third_place:
            third_games = np.zeros(size, dtype=np.int64)
            _play_round(job, rng, k + 1, loser[:, 0:1], loser[:, 1:2], third_games, upsets, None)
            games += third_games
        alive = winner
        counts = np.bincount(alive.ravel(), minlength=n)
        reach[:, k] = counts[:n]
    champion = alive[:, 0]
    top = job.ratings == job.ratings.max()
    return BracketCounts(
        runs=size,
        reach=tuple(tuple(int(x) for x in row) for row in reach),
        top_rated_wins=int(top[champion].sum()),
        upsets=int(upsets.sum()),
        upsets_squared=int((upsets**2).sum()),
        games={int(g): int(c) for g, c in enumerate(np.bincount(games)) if c},
    )


@dataclass(frozen=True)
class BracketEstimates:
    """Monte Carlo estimates for a knockout event.

    Attributes:
        players: Names in scenario order.
        runs: Events simulated.
        seed: The run's seed.
        reach: Per player: P(still in at the start of round k) for each round, then P(winning).
        top_rated_wins: P(a highest-rated entrant wins the event).
        upsets: Expected number of upsets (played matches won by the lower-rated player).
        games: P(the event has exactly k games).
    """

    players: tuple[str, ...]
    runs: int
    seed: int
    reach: dict[str, list[Estimate]]
    top_rated_wins: Estimate
    upsets: Estimate
    games: dict[int, Estimate]

    @property
    def win(self) -> dict[str, Estimate]:
        """P(each player wins the event)."""
        return {name: r[-1] for name, r in self.reach.items()}

    @classmethod
    def from_counts(
        cls, counts: BracketCounts, job: BracketJob, players: tuple[str, ...], seed: int
    ) -> BracketEstimates:
        """Proportions and means of ``counts`` with their standard errors."""
        n = counts.runs
        index = {name: i for i, name in enumerate(job.names)}

        def est(c: int) -> Estimate:
            e = Estimate.of(c, n)
            assert e is not None
            return e

        mean = counts.upsets / n
        var = max(counts.upsets_squared / n - mean**2, 0.0)
        return cls(
            players=players,
            runs=n,
            seed=seed,
            reach={name: [est(c) for c in counts.reach[index[name]]] for name in players},
            top_rated_wins=est(counts.top_rated_wins),
            upsets=Estimate(mean, math.sqrt(var * n / max(n - 1, 1) / n)),
            games={g: est(c) for g, c in sorted(counts.games.items())},
        )

    def to_json(self) -> dict[str, Any]:
        """``players``, ``win``, ``reach`` and the event figures, with ``stderr`` alongside."""

        def both(f: Any) -> dict[str, Any]:
            return {
                "win": {name: f(e) for name, e in self.win.items()},
                "reach": {name: [f(e) for e in r] for name, r in self.reach.items()},
                "event": {
                    "top_rated_wins": f(self.top_rated_wins),
                    "upsets": f(self.upsets),
                    "games": {str(g): f(e) for g, e in self.games.items()},
                },
            }

        return {
            "players": list(self.players),
            **both(lambda e: e.value),
            "runs": self.runs,
            "seed": self.seed,
            "stderr": both(lambda e: e.stderr),
        }


def simulate_bracket(
    scenario: Scenario,
    runs: int,
    seed: int,
    *,
    executor: Executor = "local",
    workers: int = 1,
    scheduler: str | None = None,
    block_size: int = BRACKET_BLOCK,
    progress: Progress | None = None,
) -> tuple[BracketEstimates | None, RunResult[BracketCounts]]:
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
    )
    if result.counts is None:
        return None, result
    players = tuple(p.name for p in scenario.players)
    return BracketEstimates.from_counts(result.counts, job, players, seed), result
