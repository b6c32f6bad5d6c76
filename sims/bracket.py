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
from functools import cached_property, partial

import numpy as np
import numpy.typing as npt

from knockout.answers import BracketOdds, BracketTally, Simulated
from knockout.arrays import BoolArray, FloatArray, IntArray
from knockout.exact.bracket import all_pairs, progress_solution
from knockout.exact.solver import solve
from knockout.rules.book.bracket import Bracket, round_name
from knockout.rules.book.walkover import NO_WALKOVER, walkover_sides
from knockout.rules.chain.match import Position
from knockout.rules.chain.pairing import Pairing
from knockout.rules.chain.progress import THIRD_PLACE
from knockout.rules.scenario.aggregate import Scenario
from sims.kernel import MatchTables, simulate
from sims.runner import Executor, Progress, RunResult, Warn, Workers, block_rng, run_blocks

__all__ = ["BracketJob", "bracket_block", "simulate_bracket"]

#: Events per block: brackets are heavier than single matches.
BRACKET_BLOCK = 4096
#: Upsets are counted in the high bits of a match's score (games in the low bits).
SCORE_SHIFT = 32


@dataclass(frozen=True)
class FixedMatch:
    """A match whose outcome distribution is given (decided or in progress).

    Attributes:
        cuts: Inner cut points of the outcome distribution.
        upper_wins: Per outcome, whether the upper-line player advances.
        games: Per outcome, the match's games (those already played included).
        walkover: Decided by walkover (not counted as an upset).
        progress: A match in progress, for redrawing its distribution per event when ratings
            are uncertain: its pairing, its position (where it stands, with what its games
            fix for the next game) and the games played.
    """

    cuts: FloatArray
    upper_wins: npt.NDArray[np.bool_]
    games: npt.NDArray[np.int64]
    walkover: bool = False
    progress: tuple[Pairing, Position, int] | None = None


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
        sd: Each player's rating sd when some rating is uncertain (strengths are then drawn per
            event and matches get per-match tables from ``pairing``), else None.
        pairing: Every pair ``i < j``, for per-match tables under rating uncertainty.
    """

    lines: IntArray
    names: tuple[str, ...]
    ratings: FloatArray
    seeds: IntArray
    withdrawn: npt.NDArray[np.bool_]
    tables: MatchTables
    pair_id: IntArray
    fixed: dict[tuple[int, int], FixedMatch]
    bracket: Bracket
    sd: FloatArray | None = None
    pairing: Pairing | None = None

    @property
    def rounds(self) -> int:
        """Number of rounds."""
        return int(self.lines.size).bit_length() - 1

    @cached_property
    def plans(self) -> tuple[tuple[RoundPlan, ...], RoundPlan | None]:
        """Per round, what every simulated event shares; and the match for third place."""
        return _plans(self)

    @cached_property
    def upset_if(self) -> npt.NDArray[np.bool_]:
        """``(n_pairs * 2,)``: row ``2 * pair + side`` is True when ``side`` (0: the pair's
        lower player index, 1: the higher) winning is an upset (the lower-rated won)."""
        lo, hi = np.nonzero(self.pair_id >= 0)
        order = np.argsort(self.pair_id[lo, hi])
        lo, hi = lo[order], hi[order]
        table = np.empty((lo.size, 2), dtype=bool)
        table[:, 0] = self.ratings[lo] < self.ratings[hi]
        table[:, 1] = self.ratings[hi] < self.ratings[lo]
        return table.reshape(-1)

    @cached_property
    def exit_player(self) -> IntArray:
        """``(n_pairs * exits,)``: the player who goes through when a match of pair ``p`` ends
        with exit ``e`` (row ``p * exits + e``): the winner in one lookup."""
        lo, hi = np.nonzero(self.pair_id >= 0)
        order = np.argsort(self.pair_id[lo, hi])
        b_wins = self.tables.exit_winner == 1  # exits that go on are never final
        return np.where(b_wins[None, :], hi[order][:, None], lo[order][:, None]).reshape(-1)

    @cached_property
    def exit_score(self) -> npt.NDArray[np.int64] | None:
        """``(n_pairs * exits,)``: for a match of pair ``p`` ending with exit ``e`` (row
        ``p * exits + e``), its games plus ``2**32`` if it is an upset; None when the games are
        not fixed by the exit. One lookup and one sum per event give both counts."""
        t = self.tables
        if t.exit_games is None:
            return None
        side = np.maximum(t.exit_winner, 0).astype(np.intp)  # exits that go on are never final
        upset = self.upset_if.reshape(-1, 2)[:, side]  # (n_pairs, exits)
        score = t.exit_games.astype(np.int64)[None, :] + (upset.astype(np.int64) << SCORE_SHIFT)
        return score.reshape(-1)

    @classmethod
    def from_scenario(cls, scenario: Scenario) -> BracketJob:
        """Build the job: the draw, the all-pairs kernel tables, the matches in progress."""
        state = scenario.event_state()
        bracket = state.bracket
        names = bracket.players
        index = {name: i for i, name in enumerate(names)}
        players = {p.name: p for p in scenario.players}
        n = len(names)
        uncertain = any(p.rating_sd > 0 for p in scenario.players)
        iu, ju, pairing = all_pairs(scenario, names)
        pair_id = np.full((n, n), -1, dtype=np.intp)
        pair_id[iu, ju] = np.arange(iu.size)
        fixed: dict[tuple[int, int], FixedMatch] = {}
        for key, p in state.progress.items():
            played = len(p.games) if p.replayed is None else p.replayed.games
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
            assert p.replayed is not None and p.replayed.finished is None
            fixed[key] = FixedMatch(
                cdf[:-1],
                np.array([side == 0 for _, side, _ in outcomes]),
                np.array([played + g for g, _, _ in outcomes]),
                progress=(_pair(scenario, p.players), p.replayed, played),
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
            sd=np.array([players[x].rating_sd for x in names]) if uncertain else None,
            pairing=pairing if uncertain else None,
        )


def _pair(scenario: Scenario, names: tuple[str, str]) -> Pairing:
    players = {p.name: p for p in scenario.players}
    a, b = (players[n] for n in names)
    return Pairing.of(scenario.format, a, b, model=scenario.model, strategy=scenario.strategy)


@dataclass(frozen=True)
class RoundPlan:
    """What is the same in every simulated event for one round (computed once per job).

    Which matches involve a bye, which are fixed (decided or in progress) and which the match
    kernel draws depend only on the draw and the games already played, never on the simulation.

    Attributes:
        round: Round number (from 1); the match for third place is a plan of its own.
        byes: Match indices with a bye on one side (or both: the bye goes through).
        played: Match indices drawn by the kernel (None: all of them).
        fixed: Match indices with a given outcome distribution.
        fixed_cuts: ``(F, K)`` inner cut points per fixed match, padded with +inf.
        fixed_upper: ``(F, K + 1)`` whether the upper-line player advances, per outcome.
        fixed_games: ``(F, K + 1)`` games of the match, per outcome.
        fixed_counts: ``(F,)`` whether the match can be an upset (not a walkover).
        fixed_matches: The fixed matches themselves, in the order of ``fixed``.
    """

    round: int
    byes: IntArray
    played: IntArray | None
    fixed: IntArray
    fixed_cuts: FloatArray
    fixed_upper: npt.NDArray[np.bool_]
    fixed_games: npt.NDArray[np.int64]
    fixed_counts: npt.NDArray[np.bool_]
    fixed_matches: tuple[FixedMatch, ...] = ()

    @classmethod
    def of(
        cls, k: int, up_bye: BoolArray, down_bye: BoolArray, fixed: dict[int, FixedMatch]
    ) -> RoundPlan:
        """The plan of round ``k`` from its byes and its fixed matches (by match index)."""
        width = up_bye.size
        bye = up_bye | down_bye
        cols = sorted(i for i in fixed if i < width and not bye[i])
        played = ~bye
        played[cols] = False
        longest = max((fixed[i].cuts.size for i in cols), default=0)
        cuts = np.full((len(cols), longest), np.inf)
        upper = np.zeros((len(cols), longest + 1), dtype=bool)
        games = np.zeros((len(cols), longest + 1), dtype=np.int64)
        for row, i in enumerate(cols):
            f = fixed[i]
            cuts[row, : f.cuts.size] = f.cuts
            upper[row, : f.upper_wins.size] = f.upper_wins
            games[row, : f.games.size] = f.games
        return cls(
            round=k,
            byes=np.flatnonzero(bye),
            played=None if played.all() else np.flatnonzero(played),
            fixed=np.array(cols, dtype=np.intp),
            fixed_cuts=cuts,
            fixed_upper=upper,
            fixed_games=games,
            fixed_counts=np.array([not fixed[i].walkover for i in cols], dtype=bool),
            fixed_matches=tuple(fixed[i] for i in cols),
        )


def _plans(job: BracketJob) -> tuple[tuple[RoundPlan, ...], RoundPlan | None]:
    """The plan of every round and of the match for third place (None without one)."""
    fixed: dict[int, dict[int, FixedMatch]] = {}
    for (k, i), f in job.fixed.items():
        fixed.setdefault(k, {})[i] = f
    bye = job.lines < 0
    plans: list[RoundPlan] = []
    third: RoundPlan | None = None
    for k in range(1, job.rounds + 1):
        up, down = bye[0::2], bye[1::2]
        plans.append(RoundPlan.of(k, up, down, fixed.get(k, {})))
        if k == job.rounds - 1 and job.bracket.third_place:
            # The semi-finals' losers: a bye where a semi-final had one.
            lost = up | down
            given = fixed.get(k + 1, {}).get(THIRD_PLACE)
            third = RoundPlan.of(k + 1, lost[0:1], lost[1:2], {} if given is None else {0: given})
        bye = up & down
    return tuple(plans), third


@dataclass(frozen=True)
class _Round:
    """A round's results for every simulated event: ``(S, M)`` winners, and per event games and
    upsets added."""

    winner: IntArray
    games: npt.NDArray[np.int64]
    upsets: npt.NDArray[np.int64]


def _play_round(
    job: BracketJob,
    plan: RoundPlan,
    rng: np.random.Generator,
    alive: IntArray,
    delta: FloatArray | None = None,
) -> _Round:
    """Every match of a round in every event: ``alive`` is ``(S, 2M)`` players by line;
    ``delta``: each event's draw of each player's strength (rating uncertainty), or None."""
    up, down = alive[:, 0::2], alive[:, 1::2]
    size = alive.shape[0]
    games = np.zeros(size, dtype=np.int64)
    upsets = np.zeros(size, dtype=np.int64)
    if plan.played is None:  # every match is played: the kernel's winners are the round's
        winners = _play_kernel(job, plan, rng, up, down, games, upsets, delta)
        return _Round(winners, games, upsets)
    winner = np.empty(up.shape, dtype=np.intp)
    if plan.byes.size:
        b_up, b_down = up[:, plan.byes], down[:, plan.byes]
        winner[:, plan.byes] = np.where(b_up < 0, b_down, b_up)
    if plan.fixed.size:
        if delta is None:
            _play_fixed(job, plan, rng, up, down, winner, games, upsets)
        else:
            _play_fixed_uncertain(job, plan, rng, (up, down), winner, (games, upsets), delta)
    if plan.played.size:
        winner[:, plan.played] = _play_kernel(job, plan, rng, up, down, games, upsets, delta)
    return _Round(winner, games, upsets)


def _play_fixed_uncertain(
    job: BracketJob,
    plan: RoundPlan,
    rng: np.random.Generator,
    players: tuple[IntArray, IntArray],
    winner: IntArray,
    counts: tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]],
    delta: FloatArray,
) -> None:
    """Matches decided or in progress when strengths are drawn per event: a match in progress
    gets its own outcome distribution per event, solved from where it stands."""
    up, down = players
    games, upsets = counts
    rows = np.arange(up.shape[0])
    for col, fixed, counted in zip(plan.fixed, plan.fixed_matches, plan.fixed_counts, strict=True):
        a, b = up[:, col], down[:, col]
        upper, fixed_games = _fixed_outcomes(fixed, rng, delta[rows, a] - delta[rows, b])
        w = np.where(upper, a, b)
        winner[:, col] = w
        games += fixed_games
        if counted:
            upsets += job.ratings[w] < job.ratings[np.where(w == a, b, a)]


def _fixed_outcomes(
    fixed: FixedMatch, rng: np.random.Generator, shift: FloatArray
) -> tuple[BoolArray, npt.NDArray[np.int64]]:
    """Each event's outcome of a fixed match (upper player wins, games), the upper player's
    strength draw minus the lower's being ``shift``."""
    u = rng.random(shift.size)
    if fixed.progress is None:  # decided: the same in every event
        outcome = (u[:, None] >= fixed.cuts[None, :]).sum(axis=1)
        return fixed.upper_wins[outcome], fixed.games[outcome]
    pairing, start, played = fixed.progress
    sol = solve(pairing.expanded(np.zeros(shift.size, dtype=np.intp), shift), start=start)
    keys = sorted(sol.games_by_winner)
    probs = np.stack([sol.games_by_winner[g][:, side] for g in keys for side in (0, 1)], axis=1)
    cdf = np.cumsum(probs / probs.sum(axis=1, keepdims=True), axis=1)[:, :-1]
    outcome = (u[:, None] >= cdf).sum(axis=1)
    games = np.array([played + g for g in keys for _ in (0, 1)], dtype=np.int64)
    return outcome % 2 == 0, games[outcome]


def _play_fixed(
    job: BracketJob,
    plan: RoundPlan,
    rng: np.random.Generator,
    up: IntArray,
    down: IntArray,
    winner: IntArray,
    games: npt.NDArray[np.int64],
    upsets: npt.NDArray[np.int64],
) -> None:
    """Matches decided or in progress: one draw per match from its outcome distribution."""
    cols = plan.fixed
    u = rng.random((up.shape[0], cols.size))
    outcome = (u[:, :, None] >= plan.fixed_cuts[None, :, :]).sum(axis=2)  # (S, F)
    row = np.arange(cols.size)[None, :]
    a, b = up[:, cols], down[:, cols]
    w = np.where(plan.fixed_upper[row, outcome], a, b)
    winner[:, cols] = w
    games += plan.fixed_games[row, outcome].sum(axis=1)
    lower = job.ratings[w] < job.ratings[np.where(w == a, b, a)]
    upsets += (lower & plan.fixed_counts[None, :]).sum(axis=1)


def _play_kernel(
    job: BracketJob,
    plan: RoundPlan,
    rng: np.random.Generator,
    up: IntArray,
    down: IntArray,
    games: npt.NDArray[np.int64],
    upsets: npt.NDArray[np.int64],
    delta: FloatArray | None = None,
) -> IntArray:
    """Matches still to play: one call of the match kernel for all of them, in every event.

    The pair of players ``lo < hi`` indexes the all-pairs tables (``lo`` is the tables' side A);
    with the kernel's exit code it gives, in one lookup each, the winner
    (:attr:`BracketJob.exit_player`) and the games and upset (:attr:`BracketJob.exit_score`),
    added to ``games`` and ``upsets`` per event. In round 1 the players of every match are the
    draw's, the same in every event: their pairs are looked up once.

    With strengths drawn per event (``delta``), each match gets its own kernel table for its
    players' draws, and the winner and upset come from the exit's side instead.

    Returns:
        ``(S, P)`` winners of the ``P`` matches the plan has the kernel play.
    """
    cols = plan.played
    if plan.round == 1:  # (M,) players, broadcast over events
        a, b = job.lines[0::2], job.lines[1::2]
    else:  # (S, M)
        a, b = up, down
    if cols is not None:
        a, b = a[..., cols], b[..., cols]
    pair = np.take(job.pair_id, np.minimum(a, b) * len(job.names) + np.maximum(a, b))
    shape = (up.shape[0], pair.shape[-1])
    if delta is not None:
        w, score = _play_uncertain(job, rng, (a, b), pair, delta)
    else:
        w, score = _play_tables(job, rng, pair, shape)
    if job.withdrawn.any():
        # The walkover rule (a withdrawn player loses; both withdrawn: the better seed goes on):
        # those matches are not played, so they add no games and no upset.
        side = walkover_sides(job.withdrawn[a], job.withdrawn[b], job.seeds[a] < job.seeds[b])
        w = np.where(side == 0, a, np.where(side == 1, b, w))
        score = np.where(side != NO_WALKOVER, 0, score)
    total = score.sum(axis=1)
    games += total & ((1 << SCORE_SHIFT) - 1)
    upsets += total >> SCORE_SHIFT
    return w


def _play_tables(
    job: BracketJob, rng: np.random.Generator, pair: IntArray, shape: tuple[int, int]
) -> tuple[IntArray, npt.NDArray[np.int64]]:
    """Winners and scores (games, plus 2**32 for an upset) from the all-pairs tables."""
    flat_pair = np.broadcast_to(pair, shape).reshape(-1)
    out = simulate(job.tables, flat_pair.size, rng, pair=flat_pair)
    row = flat_pair * job.tables.exit_winner.size + out.exit_code
    w = np.take(job.exit_player, row).reshape(shape)
    if job.exit_score is not None:
        score = np.take(job.exit_score, row).reshape(shape)
    else:
        b_won = np.take(job.tables.exit_winner, out.exit_code).reshape(shape).astype(np.intp)
        score = out.games.reshape(shape).astype(np.int64)
        score += np.take(job.upset_if, 2 * pair + b_won).astype(np.int64) << SCORE_SHIFT
    return w, score


def _play_uncertain(
    job: BracketJob,
    rng: np.random.Generator,
    players: tuple[IntArray, IntArray],
    pair: IntArray,
    delta: FloatArray,
) -> tuple[IntArray, npt.NDArray[np.int64]]:
    """Winners and scores when strengths are drawn per event: a kernel table per match, for
    its two players' draws (the lower player index is side A, as in the all-pairs tables)."""
    assert job.pairing is not None
    size = delta.shape[0]
    a, b = (np.broadcast_to(x, (size, pair.shape[-1])) for x in players)
    lo, hi = np.minimum(a, b), np.maximum(a, b)
    full_pair = np.broadcast_to(pair, lo.shape)
    events = np.arange(size)[:, None]
    shift = (delta[events, lo] - delta[events, hi]).reshape(-1)
    tables = MatchTables.from_pairing(job.pairing.expanded(full_pair.reshape(-1), shift))
    out = simulate(tables, shift.size, rng, pair=np.arange(shift.size))
    b_won = np.take(tables.exit_winner, out.exit_code).reshape(lo.shape).astype(np.intp)
    w = np.where(b_won == 1, hi, lo)
    score = out.games.reshape(lo.shape).astype(np.int64)
    score += np.take(job.upset_if, 2 * full_pair + b_won).astype(np.int64) << SCORE_SHIFT
    return w, score


def bracket_block(job: BracketJob, index: int, size: int, seed: int) -> BracketTally:
    """One block of ``size`` events (module level, so it pickles for workers).

    Round by round, every match of every event at once; the only Python loop is over rounds.
    """
    rng = block_rng(seed, index)
    n = len(job.names)
    # rating uncertainty: every player's true strength, drawn once per event, first
    delta = None if job.sd is None else rng.normal(0.0, 1.0, (size, n)) * job.sd
    plans, third = job.plans
    alive = np.broadcast_to(job.lines, (size, job.lines.size))
    games = np.zeros(size, dtype=np.int64)
    upsets = np.zeros(size, dtype=np.int64)
    reach = np.zeros((n, job.rounds + 1), dtype=np.int64)
    reach[:, 0] = size
    for plan in plans:
        result = _play_round(job, plan, rng, alive, delta)
        games += result.games
        upsets += result.upsets
        if third is not None and plan.round == third.round - 1:
            up, down = alive[:, 0::2], alive[:, 1::2]
            losers = np.where(result.winner == up, down, up)  # (S, 2): the semi-finals' losers
            extra = _play_round(job, third, rng, losers, delta)
            games += extra.games
            upsets += extra.upsets
        alive = result.winner
        players = alive.reshape(-1)
        reach[:, plan.round] = np.bincount(players[players >= 0], minlength=n)[:n]
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
