"""Exact odds of a two-player match, as a result object the CLI can print or serialise."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from knockout.errors import KnockoutError
from knockout.match import Pairing
from knockout.scenario import Scenario
from knockout.solver import MatchSolution, solve

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

    @classmethod
    def from_solution(
        cls, sol: MatchSolution, players: tuple[str, str], index: int = 0
    ) -> MatchOdds:
        """Pick pair ``index`` out of a (vectorised) solution."""
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
            games={k: float(p[i]) for k, p in sorted(sol.games.items())},
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
            },
        }


def match_odds(scenario: Scenario) -> MatchOdds:
    """Exact odds of the match between the scenario's two players.

    Raises:
        KnockoutError: If the scenario does not have exactly two players.
    """
    if len(scenario.players) != 2:
        raise KnockoutError(
            f"{scenario.source}: a match needs exactly two players, got {len(scenario.players)}"
        )
    a, b = scenario.players
    pairing = Pairing.of(scenario.format, a, b, model=scenario.model, strategy=scenario.strategy)
    odds = MatchOdds.from_solution(solve(pairing), (a.name, b.name))
    assert math.isclose(sum(odds.win.values()) + odds.unresolved, 1.0, abs_tol=1e-9)
    return odds
