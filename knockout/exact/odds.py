"""Exact odds of a two-player match, as a result object the CLI can print or serialise."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from knockout.errors import KnockoutError
from knockout.exact.solver import MatchSolution, solve
from knockout.io.scenario import Scenario
from knockout.rules.match import Finished, Pairing, replay

__all__ = ["MatchOdds", "match_odds"]


@dataclass(frozen=True)
class MatchOdds:
    """Exact odds of one match.

    Attributes:
        players: The two names, in scenario order.
        win: P(each player advances).
        decided: P(the match is decided in each stage), by stage name.
        decided_by: P(each player wins in each stage): ``{stage: {name: p}}``.
        sudden_death_reached: P(the bidding stage is reached) (0 without one).
        chooser_advances: P(甲 advances | bidding stage reached), or None without one.
        chooser: P(each player is 甲 | bidding stage reached), or None.
        announce_red: P(甲 announces Red | reached), or None.
        objects: P(乙 objects | reached), or None.
        games: P(the match lasts exactly k games), by k.
        unresolved: Probability mass left when a repeating stage was cut off (< 1e-15).
        walkover: The winner, when the match is won by walkover (the other player withdrew).
    """

    players: tuple[str, str]
    win: dict[str, float]
    decided: dict[str, float]
    decided_by: dict[str, dict[str, float]]
    sudden_death_reached: float
    chooser_advances: float | None
    chooser: dict[str, float] | None
    announce_red: float | None
    objects: float | None
    games: dict[int, float]
    unresolved: float
    walkover: str | None = None

    @classmethod
    def from_solution(
        cls,
        sol: MatchSolution,
        players: tuple[str, str],
        index: int = 0,
        *,
        games_played: int = 0,
    ) -> MatchOdds:
        """Pick pair ``index`` out of a (vectorised) solution.

        ``games_played``: games already played before the solution's start (added to ``games``).
        """
        i = index
        reached = float(sol.bidding_reached[i])

        def cond(joint: float) -> float | None:
            return joint / reached if reached > 0 else None

        chooser_a = cond(float(sol.chooser_is_a[i]))
        return cls(
            players=players,
            win={players[0]: float(sol.win[i, 0]), players[1]: float(sol.win[i, 1])},
            decided={
                name: float(sol.decided[i, k].sum()) for k, name in enumerate(sol.stage_names)
            },
            decided_by={
                name: {
                    players[0]: float(sol.decided[i, k, 0]),
                    players[1]: float(sol.decided[i, k, 1]),
                }
                for k, name in enumerate(sol.stage_names)
            },
            sudden_death_reached=reached,
            chooser_advances=cond(float(sol.chooser_advances[i])),
            chooser=None
            if chooser_a is None
            else {players[0]: chooser_a, players[1]: 1.0 - chooser_a},
            announce_red=cond(float(sol.announce_red[i])),
            objects=cond(float(sol.objects[i])),
            games={games_played + k: float(p[i]) for k, p in sorted(sol.games.items())},
            unresolved=float(sol.unresolved[i]),
        )

    def to_json(self) -> dict[str, Any]:
        """``players``, ``win`` and ``match`` (decided, chooser_advances, games, bidding)."""
        bidding = (
            None
            if self.announce_red is None
            else {"announce_red": self.announce_red, "object": self.objects}
        )
        return {
            "players": list(self.players),
            "win": dict(self.win),
            "match": {
                "decided": dict(self.decided),
                "chooser_advances": self.chooser_advances,
                "games": {str(k): p for k, p in self.games.items()},
                "bidding": bidding,
                "sudden_death_reached": self.sudden_death_reached,
                "unresolved": self.unresolved,
            }
            | ({} if self.walkover is None else {"walkover": self.walkover}),
        }

    @classmethod
    def certain(
        cls,
        players: tuple[str, str],
        winner: str,
        stage_names: tuple[str, ...],
        *,
        decided_in: str | None,
        games: int,
    ) -> MatchOdds:
        """A match whose result is already known (decided by its games, or a walkover)."""
        return cls(
            players=players,
            win={name: 1.0 if name == winner else 0.0 for name in players},
            decided={name: 1.0 if name == decided_in else 0.0 for name in stage_names},
            decided_by={
                name: {p: 1.0 if (name == decided_in and p == winner) else 0.0 for p in players}
                for name in stage_names
            },
            sudden_death_reached=0.0,
            chooser_advances=None,
            chooser=None,
            announce_red=None,
            objects=None,
            games={games: 1.0},
            unresolved=0.0,
            walkover=None if decided_in is not None else winner,
        )


def match_odds(scenario: Scenario) -> MatchOdds:
    """Exact odds of the match between the scenario's two players.

    Games already played (``[[played]]``) are replayed first and the odds start from there
    (``games`` still counts every game of the match); a withdrawn player loses by walkover.

    Raises:
        KnockoutError: If the scenario does not have exactly two players.
    """
    if len(scenario.players) != 2:
        raise KnockoutError(
            f"{scenario.source}: a match needs exactly two players, got {len(scenario.players)}"
        )
    a, b = scenario.players
    names = (a.name, b.name)
    fmt = scenario.format
    rep = replay(fmt, a.name, b.name, scenario.played)
    if isinstance(rep.position, Finished):
        winner = names[rep.position.winner]
        stage = fmt.playable[rep.position.stage].name
        return MatchOdds.certain(names, winner, fmt.stage_names, decided_in=stage, games=rep.games)
    if a.withdrawn or b.withdrawn:
        winner = b.name if a.withdrawn and not b.withdrawn else a.name
        return MatchOdds.certain(names, winner, fmt.stage_names, decided_in=None, games=rep.games)
    pairing = Pairing.of(fmt, a, b, model=scenario.model, strategy=scenario.strategy)
    known = None if rep.chooser is None else np.array([1.0 if rep.chooser == 0 else 0.0])
    sol = solve(pairing, start=rep.position, p_a_chooses=known)
    odds = MatchOdds.from_solution(sol, names, games_played=rep.games)
    assert math.isclose(sum(odds.win.values()) + odds.unresolved, 1.0, abs_tol=1e-9)
    return odds
