"""The pace game, exactly: both players' P(advance) at any pairs of chosen paces.

A :class:`PaceGame` holds one match (a scenario's two players, from where its played games left
it) and evaluates it at many pace pairs in one vectorised solver call: each pace pair becomes a
pair of the :class:`~knockout.rules.chain.pairing.Pairing` (times the quadrature nodes of rating
uncertainty, integrated as :func:`knockout.exact.odds.match_odds` does), with the pace model of
:mod:`knockout.rules.decisions.pace` applied in the game that decides 甲. At the natural paces it is
the plain model, so it gives ``knockout odds``'s chances.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from knockout.arrays import FloatArray
from knockout.errors import KnockoutError
from knockout.exact.odds import rating_nodes
from knockout.exact.solver import solve
from knockout.rules.chain.match import MatchState, Position
from knockout.rules.chain.pairing import Pairing
from knockout.rules.decisions.pace import deciding_game, no_pace_choice, pace_bounds
from knockout.rules.scenario.aggregate import Scenario

__all__ = ["MAX_PAIRS", "PaceGame", "PaceValues", "pace_game"]

#: Pairs (pace pairs times quadrature nodes) per solver call: larger batches are split, so
#: memory stays bounded (about 40 MB of solver arrays per call).
MAX_PAIRS = 60_000


class PaceValues(NamedTuple):
    """The match at ``n`` pace pairs.

    Attributes:
        win: ``(n, 2)``: P(A advances), P(B advances).
        chooser_advances: ``(n,)``: P(甲 advances | the sudden death is reached) (NaN where it
            cannot be reached).
    """

    win: FloatArray
    chooser_advances: FloatArray


@dataclass(frozen=True)
class PaceGame:
    """A match whose players choose their pace in the game that decides 甲.

    Attributes:
        names: The two players (A, B).
        natural: Their natural paces (``speed.mean``).
        bounds: The paces each may choose, ``(low, high)``.
        deciding: ``(stage index, game index)`` of the game that decides 甲.
        pairing: The one-pair pairing of the scenario.
        start: Where the played games left the match.
        shifts: Quadrature shifts of A's strength (rating uncertainty; ``[0]`` without).
        weights: Their weights.
    """

    names: tuple[str, str]
    natural: tuple[float, float]
    bounds: tuple[tuple[float, float], tuple[float, float]]
    deciding: tuple[int, int]
    pairing: Pairing
    start: Position
    shifts: FloatArray
    weights: FloatArray

    def values(self, pace_a: npt.ArrayLike, pace_b: npt.ArrayLike) -> PaceValues:
        """The match at the pace pairs ``(pace_a[i], pace_b[i])`` (broadcast together)."""
        pa, pb = np.broadcast_arrays(
            np.asarray(pace_a, dtype=np.float64).ravel(),
            np.asarray(pace_b, dtype=np.float64).ravel(),
        )
        k = len(self.weights)
        per_call = max(1, MAX_PAIRS // k)
        wins, chooser = [], []
        for lo in range(0, len(pa), per_call):
            v = self._batch(pa[lo : lo + per_call], pb[lo : lo + per_call])
            wins.append(v.win)
            chooser.append(v.chooser_advances)
        if not wins:
            return PaceValues(np.zeros((0, 2)), np.zeros(0))
        return PaceValues(np.concatenate(wins), np.concatenate(chooser))

    def _batch(self, pa: FloatArray, pb: FloatArray) -> PaceValues:
        n, k = len(pa), len(self.weights)
        if k == 1 and self.shifts[0] == 0.0:
            sol = solve(self.pairing.expanded(np.zeros(n, dtype=np.intp), 0.0).with_paces(pa, pb),
                        start=self.start)  # fmt: skip
        else:
            nodes = self.pairing.expanded(np.zeros(n * k, dtype=np.intp), np.tile(self.shifts, n))
            sol = solve(nodes.with_paces(np.repeat(pa, k), np.repeat(pb, k)), start=self.start)
            sol = sol.averaged(n, self.weights)
        return PaceValues(sol.win, sol.conditional(sol.chooser_advances))


def pace_game(scenario: Scenario) -> PaceGame:
    """The pace game of a match scenario.

    Raises:
        KnockoutError: One line: a bracket (incentives are per match), a format whose colours
            do not depend on time used, a withdrawn player, or a match whose game that decides
            甲 is already played (or that is decided).
    """
    src = scenario.source
    if len(scenario.players) != 2:
        raise KnockoutError(
            f"{src}: incentives are per match: expected a match scenario (two players), got "
            f"{len(scenario.players)} players (a bracket)"
        )
    fmt = scenario.format
    reason = no_pace_choice(fmt)
    if reason is not None:
        raise KnockoutError(f"{src}: {reason}")
    a, b = scenario.players
    names = (a.name, b.name)
    withdrawn = [p.name for p in scenario.players if p.withdrawn]
    if withdrawn:
        raise KnockoutError(
            f"{src}: {withdrawn[0]} has withdrawn: the match is a walkover, no pace to choose"
        )
    start = scenario.position
    deciding = deciding_game(fmt)
    assert deciding is not None
    _check_ahead(src, start, deciding)
    pairing = Pairing.of(fmt, a, b, model=scenario.model, strategy=scenario.strategy)
    sigma = math.hypot(a.rating_sd, b.rating_sd)
    if sigma > 0:
        shifts, weights = rating_nodes(pairing, start, sigma)
    else:
        shifts, weights = np.zeros(1), np.ones(1)
    pace_min = scenario.incentives.pace_min
    return PaceGame(
        names=names,
        natural=(a.speed.mean, b.speed.mean),
        bounds=(pace_bounds(pace_min, a.speed.mean), pace_bounds(pace_min, b.speed.mean)),
        deciding=deciding,
        pairing=pairing,
        start=start,
        shifts=shifts,
        weights=weights,
    )


def _check_ahead(src: str, start: Position, deciding: tuple[int, int]) -> None:
    """The game that decides 甲 is still to be played (else there is no pace left to choose)."""
    state = start.state
    if not isinstance(state, MatchState):
        raise KnockoutError(f"{src}: the played games decided the match: no pace left to choose")
    if start.bid is not None or start.p_a_chooses is not None or state.stage > deciding[0]:
        raise KnockoutError(
            f"{src}: the game that decides 甲 is already played: no pace left to choose"
        )
