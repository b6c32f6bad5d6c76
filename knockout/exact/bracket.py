"""Exact odds of a knockout event, from where it stands.

:func:`bracket_odds` is the exact solver for the whole event, starting from the
:class:`~knockout.rules.progress.EventState` (games played, walkovers): the match-probability
matrix for every pair (one vectorised pass of :func:`knockout.exact.solver.solve`), corrected for
matches in progress, then dynamic programming over the bracket, round by round (``O(n^2)`` per
round).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from knockout.exact.solver import MatchSolution, solve
from knockout.io.scenario import Scenario
from knockout.odds import BracketOdds
from knockout.rules.bracket import round_name
from knockout.rules.match import Finished, Pairing
from knockout.rules.progress import THIRD_PLACE, EventState, MatchProgress
from knockout.rules.walkover import walkover_sides

__all__ = [
    "all_pairs",
    "bracket_odds",
    "match_matrix",
    "progress_solution",
]

FloatArray = npt.NDArray[np.float64]


def all_pairs(
    scenario: Scenario, names: tuple[str, ...]
) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp], Pairing]:
    """Every pair ``i < j`` of ``names`` (indices) and one vectorised pairing of them all."""
    players = {p.name: p for p in scenario.players}
    iu, ju = np.triu_indices(len(names), k=1)
    pairing = Pairing.of(
        scenario.format,
        [players[names[i]] for i in iu],
        [players[names[j]] for j in ju],
        model=scenario.model,
        strategy=scenario.strategy,
    )
    return iu, ju, pairing


def match_matrix(scenario: Scenario, names: tuple[str, ...]) -> FloatArray:
    """``M[i, j]`` = P(``names[i]`` beats ``names[j]``) in a whole match, for every pair."""
    n = len(names)
    m = np.zeros((n, n))
    if n < 2:
        return m
    iu, ju, pairing = all_pairs(scenario, names)
    sol = solve(pairing)
    m[iu, ju] = sol.win[:, 0]
    m[ju, iu] = sol.win[:, 1]
    return m


def progress_solution(scenario: Scenario, progress: MatchProgress) -> MatchSolution:
    """Exact odds of a match in progress, from where it stands (games still to play)."""
    players = {p.name: p for p in scenario.players}
    a, b = progress.players
    pairing = Pairing.of(
        scenario.format, players[a], players[b], model=scenario.model, strategy=scenario.strategy
    )
    assert progress.replayed is not None and not isinstance(progress.replayed.position, Finished)
    known = progress.replayed.p_a_chooses
    return solve(
        pairing,
        start=progress.replayed.position,
        p_a_chooses=None if known is None else np.array([known]),
    )


def line_matrix(scenario: Scenario, state: EventState) -> FloatArray:
    """P(line i beats line j) over bracket lines, with matches in progress and walkovers."""
    bracket = state.bracket
    names = bracket.players
    line_of = [bracket.lines.index(n) for n in names]
    m_players = match_matrix(scenario, names)
    size = bracket.size
    m = np.zeros((size, size))
    m[np.ix_(line_of, line_of)] = m_players
    index = {name: line for name, line in zip(names, line_of, strict=True)}
    # The walkover rule for every pair in which a player has withdrawn (matches not yet decided).
    withdrawn = np.zeros(size, dtype=bool)
    seeds = np.full(size, np.iinfo(np.int64).max)
    for name, line in index.items():
        withdrawn[line] = name in state.withdrawn
        seeds[line] = bracket.seeds[name]
    side = walkover_sides(withdrawn[:, None], withdrawn[None, :], seeds[:, None] < seeds[None, :])
    m = np.where(side == 0, 1.0, np.where(side == 1, 0.0, m))
    np.fill_diagonal(m, 0.0)
    for p in state.progress.values():
        if (p.round, p.index) == (bracket.rounds, THIRD_PLACE):
            continue  # the match for third place decides no one's reach
        i, j = index[p.players[0]], index[p.players[1]]
        if p.winner is not None:
            p_up = 1.0 if p.winner == p.players[0] else 0.0
        else:
            p_up = float(progress_solution(scenario, p).win[0, 0])
        m[i, j], m[j, i] = p_up, 1.0 - p_up
    return m


def bracket_odds(scenario: Scenario) -> BracketOdds:
    """Exact odds of every player reaching each round and winning the event."""
    state = scenario.event_state()
    bracket = state.bracket
    m = line_matrix(scenario, state)
    size, rounds = bracket.size, bracket.rounds
    real = np.array([name is not None for name in bracket.lines])
    lines = np.arange(size)
    alive = real.astype(float)
    history = [alive.copy()]
    for k in range(1, rounds + 1):
        shift = k - 1
        opponent_block = (lines >> shift) ^ 1
        same = (lines[None, :] >> shift) == opponent_block[:, None]
        opp_alive = same * alive[None, :]
        has_opponent = (same & real[None, :]).any(axis=1)
        beat = (m * opp_alive).sum(axis=1)
        alive = alive * np.where(has_opponent, beat, 1.0)
        history.append(alive.copy())
    reach = {
        name: [float(h[bracket.lines.index(name)]) for h in history]
        for name in (p.name for p in scenario.players)
    }
    return BracketOdds(
        players=tuple(p.name for p in scenario.players),
        round_names=tuple(round_name(k, rounds) for k in range(1, rounds + 1)),
        reach=reach,
        bracket=bracket,
    )
