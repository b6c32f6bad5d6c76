"""Monte Carlo estimates for a two-player match, with standard errors.

:func:`simulate_match` runs :func:`sims.kernel.simulate` in seeded blocks
(:func:`sims.runner.run_blocks`); each block returns a :class:`~knockout.answers.MatchTally`
(integers), and the estimates are proportions of those counts with their binomial standard errors
(:meth:`~knockout.answers.MatchTally.estimate`), in the same
:class:`~knockout.answers.MatchOdds` shape as the exact solver's answer.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from knockout.answers import MatchOdds, MatchTally, Simulated, branch_units
from knockout.rules.book.formats import Format
from knockout.rules.chain.match import Position
from knockout.rules.chain.pairing import Pairing
from sims.kernel import MatchOutcomes, MatchTables, WalkCounts, count_exits, count_walk, simulate
from sims.runner import (
    BLOCK_SIZE,
    Executor,
    Progress,
    RunResult,
    Warn,
    Workers,
    block_rng,
    run_blocks,
)

if TYPE_CHECKING:  # workers unpickling match_block need not import pydantic
    from knockout.rules.scenario.aggregate import Scenario

__all__ = [
    "UncertainMatch",
    "kernel_block",
    "match_block",
    "match_job",
    "simulate_match",
    "tally",
    "tally_exits",
    "tally_walk",
    "uncertain_block",
]


def tally(out: MatchOutcomes, n_stages: int, *, per_match: bool = False) -> MatchTally:
    """Count per-match outcomes (one ``bincount`` of the exit codes, then small tables).

    ``per_match``: the tables hold one pair per match (ratings drawn per match), so the bidding
    branches' values are summed match by match instead of as counts times one value.
    """
    t = out.tables
    per_exit = np.bincount(out.exit_code, minlength=t.exit_winner.size)
    if out.games_played is None and out.drawn_chooser is None and not per_match:
        return tally_exits(t, per_exit, n_stages)  # every count follows from the exit
    by = np.zeros((n_stages, 2), dtype=np.int64)
    np.add.at(by, (t.exit_stage, t.exit_winner.astype(np.intp)), per_exit)
    if out.games_played is None:
        assert t.exit_games is not None
        games = np.bincount(t.exit_games, weights=per_exit).astype(np.int64)
    else:
        games = np.bincount(out.games_played)
    if out.drawn_chooser is None:
        chooser = t.exit_chooser
        reached = int(per_exit[chooser >= 0].sum())
        chooser_a = int(per_exit[chooser == 0].sum())
        chooser_won = int(per_exit[(chooser >= 0) & (chooser == t.exit_winner)].sum())
        chooser_a_won = int(per_exit[(chooser == 0) & (t.exit_winner == 0)].sum())
        announce_red = int(per_exit[t.exit_announce_red].sum())
        objects = int(per_exit[t.exit_objects].sum())
    else:
        assert out.drawn_announce_red is not None and out.drawn_objects is not None
        at = np.flatnonzero(out.drawn_chooser >= 0)
        ch = out.drawn_chooser[at]
        # the winners of the matches that reached the bidding stage only (not every match's)
        won = ch == np.take(t.exit_winner, np.take(out.exit_code, at))
        reached = int(at.size)
        chooser_a = int(np.count_nonzero(ch == 0))
        chooser_won = int(np.count_nonzero(won))
        chooser_a_won = int(np.count_nonzero(won & (ch == 0)))
        announce_red = int(np.count_nonzero(out.drawn_announce_red))
        objects = int(np.count_nonzero(out.drawn_objects))
    if per_match:
        branch_sum, branch_sq = _branch_sums_per_match(t, out.chooser)
    else:
        branch_sum, branch_sq = _branch_sums(t, (chooser_a, reached - chooser_a))
    return MatchTally(
        runs=int(out.exit_code.size),
        wins=(int(by[:, 0].sum()), int(by[:, 1].sum())),
        decided=tuple((int(a), int(b)) for a, b in by),
        games={int(k): int(c) for k, c in enumerate(games) if c},
        reached=reached,
        chooser_a=chooser_a,
        chooser_won=chooser_won,
        announce_red=announce_red,
        objects=objects,
        chooser_a_won=chooser_a_won,
        branch_sum=branch_sum,
        branch_sq=branch_sq,
        time_class=t.bidding_class,
    )


def _branch_sums(
    t: MatchTables, as_chooser: tuple[int, int]
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Sums (and sums of squares) of 甲's branch values over the matches that reached the
    bidding stage, ``[side * 4 + branch]``, in integer units (:data:`BRANCH_UNIT`): with given
    ratings each value is the same for every match of a side, so the sum is the count times the
    value (one pair: row 0)."""
    if t.branch_values is None:
        return (0,) * 8, (0,) * 8
    values = t.branch_values[0]  # (2 sides, 4 branches)
    counts = np.array(as_chooser, dtype=np.int64)[:, None]
    sums = counts * branch_units(values)
    squares = counts * branch_units(values**2)
    return tuple(sums.ravel().tolist()), tuple(squares.ravel().tolist())


def _branch_sums_per_match(
    t: MatchTables, chooser: npt.NDArray[np.int8]
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The sums of :func:`_branch_sums` when each match is its own pair (row ``i``)."""
    if t.branch_values is None:
        return (0,) * 8, (0,) * 8
    sums = np.zeros((2, 4), dtype=np.int64)
    squares = np.zeros((2, 4), dtype=np.int64)
    for side in (0, 1):
        values = t.branch_values[chooser == side, side]  # (matches with that 甲, 4)
        sums[side] = branch_units(values).sum(axis=0)
        squares[side] = branch_units(values**2).sum(axis=0)
    return tuple(sums.ravel().tolist()), tuple(squares.ravel().tolist())


def match_block(tables: MatchTables, index: int, size: int, seed: int) -> MatchTally:
    """One block of matches (module level, so it pickles for process and Dask workers).

    Where one exit distribution holds for every match (one pair, no private beliefs:
    :attr:`~sims.kernel.MatchTables.exit_probabilities`) the block's exit counts are one
    multinomial draw, with no work per match; otherwise every match is walked, counted as it
    goes for one pair (:func:`sims.kernel.count_walk`), one by one for several
    (:func:`sims.kernel.simulate`).
    """
    rng = block_rng(seed, index)
    p = tables.exit_probabilities
    if p is not None:
        return tally_exits(tables, rng.multinomial(size, p), len(tables.stages))
    return _walked(tables, size, rng)


def kernel_block(tables: MatchTables, index: int, size: int, seed: int) -> MatchTally:
    """One block of matches, each drawn on its own, and counted: what :func:`match_block` does
    without the multinomial shortcut (the benchmark's kernel, and the reference the shortcut is
    tested against). Where one exit distribution holds for every match each match draws its
    cell of [0, 1) and only the cells are counted (:func:`sims.kernel.count_exits`); otherwise
    every match is walked, as :func:`match_block` walks it."""
    rng = block_rng(seed, index)
    counts = count_exits(tables, size, rng)
    if counts is not None:
        return tally_exits(tables, counts.per_exit, len(tables.stages))
    return _walked(tables, size, rng)


def _walked(tables: MatchTables, size: int, rng: np.random.Generator) -> MatchTally:
    """The tally of ``size`` matches walked stage by stage: counted as they go for one pair,
    else simulated match by match."""
    walk = count_walk(tables, size, rng)
    if walk is not None:
        return tally_walk(tables, walk, len(tables.stages))
    return tally(simulate(tables, size, rng), len(tables.stages))


@dataclass(frozen=True)
class _ExitSums:
    """Every count of a :class:`MatchTally` as one integer matrix over the global exits (the
    tally of exit counts ``c`` is ``rows @ c``), built once per tables.

    Rows: runs; A's and B's wins; per stage A's and B's wins; games ``0 .. G``; reached,
    chooser_a, chooser_won, announce_red, objects, chooser_a_won; the 8 branch sums and the 8
    sums of squares.
    """

    rows: npt.NDArray[np.int64]
    n_stages: int
    n_games: int
    units: npt.NDArray[np.int64] | None = None
    squares: npt.NDArray[np.int64] | None = None

    @classmethod
    def of(cls, t: MatchTables, n_stages: int) -> _ExitSums:
        """The rows of ``t`` (no rows of games where the exit does not fix them)."""
        k = t.exit_winner.size
        every = np.arange(k)
        decided = np.zeros((n_stages, 2, k), dtype=np.int64)
        # the index as the per-match count used it: a winner of -1 (the match goes on, never
        # a last exit) lands in side 1's column, with no match in it
        np.add.at(decided, (t.exit_stage, t.exit_winner.astype(np.intp), every), 1)
        n_games = 0 if t.exit_games is None else int(t.exit_games.max(initial=0)) + 1
        games = (
            np.zeros((0, k), dtype=np.int64)
            if t.exit_games is None
            else (t.exit_games[None, :] == np.arange(n_games)[:, None]).astype(np.int64)
        )
        chooser, winner = t.exit_chooser, t.exit_winner
        flags = np.array(
            [
                chooser >= 0,
                chooser == 0,
                (chooser >= 0) & (chooser == winner),
                t.exit_announce_red,
                t.exit_objects,
                (chooser == 0) & (winner == 0),
            ],
            dtype=np.int64,
        )
        branch = np.zeros((16, k), dtype=np.int64)
        units = squares = None
        if t.branch_values is not None:
            values = t.branch_values[0]  # (2 sides, 4 branches): one pair, row 0
            units, squares = branch_units(values), branch_units(values**2)
            for side in (0, 1):
                as_side = (chooser == side).astype(np.int64)
                branch[side * 4 : side * 4 + 4] = units[side][:, None] * as_side
                branch[8 + side * 4 : 12 + side * 4] = squares[side][:, None] * as_side
        rows = np.concatenate(
            [
                np.ones((1, k), dtype=np.int64),
                decided.sum(axis=0),
                decided.reshape(-1, k),
                games,
                flags,
                branch,
            ]
        )
        return cls(rows, n_stages, n_games, units, squares)

    def tally(
        self,
        per_exit: npt.NDArray[np.int64],
        time_class: str | None,
        walk: WalkCounts | None = None,
    ) -> MatchTally:
        """The tally of the exit counts; ``walk``: a counted walk's (its games, and the bidding
        decisions it drew decision by decision, added to those its exits hold)."""
        v: list[int] = (self.rows @ per_exit).tolist()
        games = 3 + 2 * self.n_stages
        flags = games + self.n_games
        reached, chooser_a, chooser_won, announce_red, objects, chooser_a_won = v[flags : flags + 6]
        branch_sum, branch_sq = v[flags + 6 : flags + 14], v[flags + 14 : flags + 22]
        played = {k: c for k, c in enumerate(v[games:flags]) if c}
        if walk is not None:
            played = {g: c for g, c in sorted(walk.games.items()) if c}
            reached += walk.reached
            chooser_a += walk.chooser_a
            chooser_won += walk.chooser_won
            announce_red += walk.announce_red
            objects += walk.objects
            chooser_a_won += walk.chooser_a_won
            if walk.reached and self.units is not None and self.squares is not None:
                sides = np.array([walk.chooser_a, walk.reached - walk.chooser_a])[:, None]
                branch_sum = [
                    a + b
                    for a, b in zip(branch_sum, (sides * self.units).ravel().tolist(), strict=True)
                ]
                branch_sq = [
                    a + b
                    for a, b in zip(branch_sq, (sides * self.squares).ravel().tolist(), strict=True)
                ]
        return MatchTally(
            runs=v[0],
            wins=(v[1], v[2]),
            decided=tuple(zip(v[3:games:2], v[4:games:2], strict=True)),
            games=played,
            reached=reached,
            chooser_a=chooser_a,
            chooser_won=chooser_won,
            announce_red=announce_red,
            objects=objects,
            chooser_a_won=chooser_a_won,
            branch_sum=tuple(branch_sum),
            branch_sq=tuple(branch_sq),
            time_class=time_class,
        )


def _exit_sums(t: MatchTables, n_stages: int) -> _ExitSums:
    """The tables' :class:`_ExitSums`, built on first use."""
    sums = t.__dict__.get("_exit_sums")
    if sums is None or sums.n_stages != n_stages:
        sums = _ExitSums.of(t, n_stages)
        object.__setattr__(t, "_exit_sums", sums)  # a cache beside the tables' cached properties
    return sums


def tally_exits(t: MatchTables, per_exit: npt.NDArray[np.int64], n_stages: int) -> MatchTally:
    """The counts of matches whose outcomes are their exit codes alone, from the number of
    matches ending with each global exit (games fixed by the exit, no decisions drawn): one
    integer matrix product, the matrix built once per tables."""
    assert t.exit_games is not None
    return _exit_sums(t, n_stages).tally(np.asarray(per_exit, dtype=np.int64), t.bidding_class)


def tally_walk(t: MatchTables, walk: WalkCounts, n_stages: int) -> MatchTally:
    """The tally of a counted walk (:func:`sims.kernel.count_walk`): the counts :func:`tally`
    makes of the same matches walked one by one. A bidding stage's decisions come from its
    exits where its table holds them (decisions on the truth), from the walk's counts where they
    were drawn decision by decision (one of the two is zero); games from the walk."""
    return _exit_sums(t, n_stages).tally(walk.per_exit, t.bidding_class, walk)


@dataclass(frozen=True)
class UncertainMatch:
    """A match whose players' strengths are drawn per simulated match (``rating_sd``).

    Attributes:
        pairing: The pair, with the ratings as given.
        sd: The two players' rating sds.
        start: The match's position after its played games, or None before the first.
    """

    pairing: Pairing
    sd: tuple[float, float]
    start: Position | None


def uncertain_block(job: UncertainMatch, index: int, size: int, seed: int) -> MatchTally:
    """One block of matches with strengths drawn per match: each player's draw first (A's,
    then B's), then per-match tables, then the matches (module level, so it pickles)."""
    rng = block_rng(seed, index)
    delta = rng.normal(0.0, job.sd[0], size) - rng.normal(0.0, job.sd[1], size)
    pairing = job.pairing.expanded(np.zeros(size, dtype=np.intp), delta)
    tables = MatchTables.from_pairing(pairing, start=job.start)
    out = simulate(tables, size, rng, pair=np.arange(size))
    return tally(out, len(tables.stages), per_match=True)


def match_job(
    scenario: Scenario, pairing: Pairing | None = None, tables: MatchTables | None = None
) -> Callable[[int, int, int], MatchTally]:
    """The block function of the scenario's match (its tables built: the one-off set-up of a
    run), for a match still to be decided. ``tables``: the match's tables built already (a
    study's, for a fresh match with given ratings: :meth:`MatchTables.for_points`)."""
    a, b = scenario.players
    if pairing is None:
        pairing = Pairing.of(
            scenario.format, a, b, model=scenario.model, strategy=scenario.strategy
        )
    rep = scenario.position
    start = None if rep.is_fresh else rep
    if a.rating_sd > 0 or b.rating_sd > 0:
        job = UncertainMatch(pairing, (a.rating_sd, b.rating_sd), start)
        return partial(uncertain_block, job)
    if tables is not None and start is None:
        return partial(match_block, tables)
    return partial(match_block, MatchTables.from_pairing(pairing, start=start))


def decided_reach(fmt: Format) -> int | None:
    """The index of a sudden-death stage other than the bidding (a cut, sealed bids, an
    Armageddon decider): its reach is the matches decided in it (:meth:`MatchTally.estimate`)."""
    k = fmt.sudden_death_index
    return None if k is None or fmt.playable[k].is_bidding else k


def simulate_match(
    scenario: Scenario,
    runs: int,
    seed: int,
    *,
    executor: Executor = "local",
    workers: Workers = 1,
    scheduler: str | None = None,
    block_size: int = BLOCK_SIZE,
    progress: Progress | None = None,
    warn: Warn | None = None,
    tables: MatchTables | None = None,
) -> tuple[Simulated[MatchOdds] | None, RunResult[MatchTally]]:
    """Monte Carlo odds of the scenario's two-player match (``tables``: its kernel tables,
    built already; see :func:`match_job`).

    Games already played (``[[played]]``) are replayed and the simulation continues from
    there (``games`` counts every game of the match; a recorded sudden-death bid fixes its
    game's colours and clocks); a withdrawn player loses by walkover
    (:mod:`knockout.rules.book.walkover`).

    Returns:
        The estimates (None if no block completed before an interruption) and the raw run.
    """
    a, b = scenario.players
    fmt = scenario.format
    names = (a.name, b.name)
    rep = scenario.position
    pairing = Pairing.of(fmt, a, b, model=scenario.model, strategy=scenario.strategy)
    walkover = scenario.event_state().walkover((1, 0), a.name, b.name)
    finished = rep.finished
    if walkover is not None or finished is not None:
        # Nothing left to simulate: the result is known.
        bid = fmt.bidding_stage
        if walkover is not None:
            side, stage = names.index(walkover), -1
        else:
            assert finished is not None
            side, stage = finished.winner, finished.stage
        decided = tuple(
            (runs if (k == stage and side == 0) else 0, runs if (k == stage and side == 1) else 0)
            for k in range(len(fmt.playable))
        )
        counts = MatchTally(
            runs,
            (runs if side == 0 else 0, runs if side == 1 else 0),
            decided,
            {rep.games: runs},
            walkover=walkover,
            time_class=None if bid is None else pairing.stage_class(bid).value,
        )
        known = RunResult(counts, runs, runs, (), False)
        return counts.estimate(
            names, fmt.stage_names, seed, decided_reach=decided_reach(fmt)
        ), known
    block = match_job(scenario, pairing, tables)
    result = run_blocks(
        block,
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
    counts = result.counts
    if rep.games:
        counts = replace(counts, games={k + rep.games: c for k, c in counts.games.items()})
    return counts.estimate(names, fmt.stage_names, seed, decided_reach=decided_reach(fmt)), result
