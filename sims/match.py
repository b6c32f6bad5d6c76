"""Monte Carlo estimates for a two-player match, with standard errors.

:func:`simulate_match` runs :func:`sims.kernel.simulate` in seeded blocks
(:func:`sims.runner.run_blocks`); each block returns a :class:`~knockout.odds.MatchTally`
(integers), and the estimates are proportions of those counts with their binomial standard errors
(:meth:`~knockout.odds.MatchTally.estimate`), in the same :class:`~knockout.odds.MatchOdds` shape
as the exact solver's answer.
"""

from __future__ import annotations

from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING

import numpy as np

from knockout.odds import MatchOdds, MatchTally, Simulated
from knockout.rules.match import Finished, Pairing, replay
from sims.kernel import MatchOutcomes, MatchTables, simulate
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
    from knockout.io.scenario import Scenario

__all__ = ["match_block", "simulate_match", "tally"]


def tally(out: MatchOutcomes, n_stages: int) -> MatchTally:
    """Count per-match outcomes (one ``bincount`` of the exit codes, then small tables)."""
    t = out.tables
    per_exit = np.bincount(out.exit_code, minlength=t.exit_winner.size)
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
        announce_red = int(per_exit[t.exit_announce_red].sum())
        objects = int(per_exit[t.exit_objects].sum())
    else:
        assert out.drawn_announce_red is not None and out.drawn_objects is not None
        at = np.flatnonzero(out.drawn_chooser >= 0)
        ch = out.drawn_chooser[at]
        reached = int(at.size)
        chooser_a = int((ch == 0).sum())
        chooser_won = int((ch == np.take(out.winner, at)).sum())
        announce_red = int(out.drawn_announce_red.sum())
        objects = int(out.drawn_objects.sum())
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
    )


def match_block(tables: MatchTables, index: int, size: int, seed: int) -> MatchTally:
    """One block of matches (module level, so it pickles for process and Dask workers)."""
    out = simulate(tables, size, block_rng(seed, index))
    return tally(out, len(tables.stages))


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
) -> tuple[Simulated[MatchOdds] | None, RunResult[MatchTally]]:
    """Monte Carlo odds of the scenario's two-player match.

    Games already played (``[[played]]``) are replayed and the simulation continues from
    there (``games`` counts every game of the match); a withdrawn player loses by walkover
    (:mod:`knockout.rules.walkover`).

    Returns:
        The estimates (None if no block completed before an interruption) and the raw run.
    """
    a, b = scenario.players
    fmt = scenario.format
    names = (a.name, b.name)
    rep = replay(fmt, a.name, b.name, scenario.played)
    walkover = scenario.event_state().walkover((1, 0), a.name, b.name)
    if walkover is not None or isinstance(rep.position, Finished):
        # Nothing left to simulate: the result is known.
        if walkover is not None:
            side, stage = names.index(walkover), -1
        else:
            assert isinstance(rep.position, Finished)
            side, stage = rep.position.winner, rep.position.stage
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
        )
        known = RunResult(counts, runs, runs, (), False)
        return counts.estimate(names, fmt.stage_names, seed), known
    pairing = Pairing.of(fmt, a, b, model=scenario.model, strategy=scenario.strategy)
    start = rep.position if rep.games else None
    tables = MatchTables.from_pairing(pairing, start=start, p_a_chooses=rep.p_a_chooses)
    result = run_blocks(
        partial(match_block, tables),
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
    return counts.estimate(names, fmt.stage_names, seed), result
