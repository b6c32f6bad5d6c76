"""Monte Carlo estimates for a two-player match, with standard errors.

:func:`simulate_match` runs :func:`sims.kernel.simulate` in seeded blocks
(:func:`sims.runner.run_blocks`); each block returns :class:`MatchCounts` (integers), and the
estimates are proportions of those counts with their binomial standard errors. Conditional
quantities (P(甲 advances | sudden death reached), the bidding choices) are proportions among the
matches that reached the bidding stage.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field, replace
from functools import partial
from typing import TYPE_CHECKING, Any

import numpy as np

from knockout.rules.match import Finished, Pairing, replay
from sims.kernel import MatchOutcomes, MatchTables, simulate
from sims.runner import BLOCK_SIZE, Executor, Progress, RunResult, block_rng, run_blocks

if TYPE_CHECKING:  # workers unpickling match_block need not import pydantic
    from knockout.io.scenario import Scenario

__all__ = ["Estimate", "MatchCounts", "MatchEstimates", "match_block", "simulate_match"]


@dataclass(frozen=True)
class MatchCounts:
    """Integer tallies of simulated matches (they add up exactly across blocks).

    Attributes:
        runs: Matches simulated.
        wins: ``(A, B)`` advances.
        decided: Per stage, ``(A, B)`` wins in that stage.
        games: Matches by number of games played.
        reached: Matches that reached the bidding stage.
        chooser_a: ... in which A was 甲.
        chooser_won: ... in which 甲 advanced.
        announce_red: ... in which 甲 announced Red.
        objects: ... in which 乙 objected.
    """

    runs: int
    wins: tuple[int, int]
    decided: tuple[tuple[int, int], ...]
    games: dict[int, int] = field(default_factory=dict)
    reached: int = 0
    chooser_a: int = 0
    chooser_won: int = 0
    announce_red: int = 0
    objects: int = 0

    @classmethod
    def from_outcomes(cls, out: MatchOutcomes, n_stages: int) -> MatchCounts:
        """Tally per-match outcomes (one ``bincount`` of the exit codes, then small tables)."""
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
        return cls(
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

    def __add__(self, other: MatchCounts) -> MatchCounts:
        return MatchCounts(
            runs=self.runs + other.runs,
            wins=(self.wins[0] + other.wins[0], self.wins[1] + other.wins[1]),
            decided=tuple(
                (a[0] + b[0], a[1] + b[1]) for a, b in zip(self.decided, other.decided, strict=True)
            ),
            games=dict(Counter(self.games) + Counter(other.games)),
            reached=self.reached + other.reached,
            chooser_a=self.chooser_a + other.chooser_a,
            chooser_won=self.chooser_won + other.chooser_won,
            announce_red=self.announce_red + other.announce_red,
            objects=self.objects + other.objects,
        )


@dataclass(frozen=True)
class Estimate:
    """A proportion and its standard error ``sqrt(p (1 - p) / n)``."""

    value: float
    stderr: float

    @classmethod
    def of(cls, count: int, n: int) -> Estimate | None:
        """``count / n``, or None when ``n`` is 0."""
        if n == 0:
            return None
        p = count / n
        return cls(p, math.sqrt(p * (1 - p) / n))


@dataclass(frozen=True)
class MatchEstimates:
    """Monte Carlo estimates of a match's odds (the same keys as the exact solver's output).

    Attributes:
        players: The two names.
        runs: Matches simulated.
        seed: The run's seed.
        win: P(each advances).
        decided: P(decided in each stage).
        chooser_advances: P(甲 advances | bidding stage reached), or None.
        games: P(k games).
        announce_red: P(甲 announces Red | reached), or None.
        objects: P(乙 objects | reached), or None.
        sudden_death_reached: P(the bidding stage is reached), or None without one.
    """

    players: tuple[str, str]
    runs: int
    seed: int
    win: dict[str, Estimate]
    decided: dict[str, Estimate]
    chooser_advances: Estimate | None
    games: dict[int, Estimate]
    announce_red: Estimate | None
    objects: Estimate | None
    sudden_death_reached: Estimate | None

    @classmethod
    def from_counts(
        cls,
        counts: MatchCounts,
        players: tuple[str, str],
        stage_names: tuple[str, ...],
        seed: int,
        *,
        has_bidding: bool,
    ) -> MatchEstimates:
        """Proportions of ``counts`` with their standard errors."""
        n = counts.runs

        def est(c: int, m: int) -> Estimate:
            e = Estimate.of(c, m)
            assert e is not None
            return e

        return cls(
            players=players,
            runs=n,
            seed=seed,
            win={players[0]: est(counts.wins[0], n), players[1]: est(counts.wins[1], n)},
            decided={name: est(sum(counts.decided[k]), n) for k, name in enumerate(stage_names)},
            chooser_advances=Estimate.of(counts.chooser_won, counts.reached),
            games={k: est(c, n) for k, c in sorted(counts.games.items())},
            announce_red=Estimate.of(counts.announce_red, counts.reached),
            objects=Estimate.of(counts.objects, counts.reached),
            sudden_death_reached=est(counts.reached, n) if has_bidding else None,
        )

    def to_json(self) -> dict[str, Any]:
        """The keys of ``knockout odds --json`` plus ``runs``, ``seed`` and ``stderr``."""

        def v(e: Estimate | None) -> float | None:
            return None if e is None else e.value

        def se(e: Estimate | None) -> float | None:
            return None if e is None else e.stderr

        def both(f: Any) -> dict[str, Any]:
            bidding = (
                None
                if self.announce_red is None
                else {"announce_red": f(self.announce_red), "object": f(self.objects)}
            )
            return {
                "win": {k: f(e) for k, e in self.win.items()},
                "match": {
                    "decided": {k: f(e) for k, e in self.decided.items()},
                    "chooser_advances": f(self.chooser_advances),
                    "games": {str(k): f(e) for k, e in self.games.items()},
                    "bidding": bidding,
                    "sudden_death_reached": f(self.sudden_death_reached),
                },
            }

        values = both(v)
        return {
            "players": list(self.players),
            **values,
            "runs": self.runs,
            "seed": self.seed,
            "stderr": both(se),
        }


def match_block(tables: MatchTables, index: int, size: int, seed: int) -> MatchCounts:
    """One block of matches (module level, so it pickles for process and Dask workers)."""
    out = simulate(tables, size, block_rng(seed, index))
    return MatchCounts.from_outcomes(out, len(tables.stages))


def simulate_match(
    scenario: Scenario,
    runs: int,
    seed: int,
    *,
    executor: Executor = "local",
    workers: int = 1,
    scheduler: str | None = None,
    block_size: int = BLOCK_SIZE,
    progress: Progress | None = None,
) -> tuple[MatchEstimates | None, RunResult[MatchCounts]]:
    """Monte Carlo odds of the scenario's two-player match.

    Games already played (``[[played]]``) are replayed and the simulation continues from
    there (``games`` counts every game of the match); a withdrawn player loses by walkover.

    Returns:
        The estimates (None if no block completed before an interruption) and the raw run.
    """
    a, b = scenario.players
    fmt = scenario.format
    names = (a.name, b.name)
    rep = replay(fmt, a.name, b.name, scenario.played)
    has_bidding = fmt.bidding_stage is not None
    if isinstance(rep.position, Finished) or a.withdrawn or b.withdrawn:
        # Nothing left to simulate: the result is known.
        if isinstance(rep.position, Finished):
            side, stage = rep.position.winner, rep.position.stage
        else:
            side, stage = (1 if a.withdrawn and not b.withdrawn else 0), -1
        decided = tuple(
            (runs if (k == stage and side == 0) else 0, runs if (k == stage and side == 1) else 0)
            for k in range(len(fmt.playable))
        )
        counts = MatchCounts(
            runs, (runs if side == 0 else 0, runs if side == 1 else 0), decided, {rep.games: runs}
        )
        result = RunResult(counts, runs, runs, (), False)
        return MatchEstimates.from_counts(
            counts, names, fmt.stage_names, seed, has_bidding=has_bidding
        ), result
    pairing = Pairing.of(fmt, a, b, model=scenario.model, strategy=scenario.strategy)
    start = rep.position if rep.games else None
    tables = MatchTables.from_pairing(pairing, start=start, chooser=rep.chooser)
    result = run_blocks(
        partial(match_block, tables),
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
    counts = result.counts
    if rep.games:
        counts = replace(counts, games={k + rep.games: c for k, c in counts.games.items()})
    estimates = MatchEstimates.from_counts(
        counts, names, fmt.stage_names, seed, has_bidding=has_bidding
    )
    return estimates, result
