"""The exact bracket odds as they were before issue 26 (kept as the reference the chunked solver
is tested equal to): every pair built in Python one at a time, all pairs solved at once.

Exact odds of a knockout event, from where it stands.

:func:`bracket_odds` is the exact solver for the whole event, starting from the
:class:`~knockout.rules.chain.progress.EventState` (games played, walkovers): the match-probability
matrix for every pair (one vectorised pass of :func:`knockout.exact.solver.solve`), corrected for
matches in progress, then dynamic programming over the bracket, round by round (``O(n^2)`` per
round).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import numpy.typing as npt

from knockout.answers import BracketOdds
from knockout.arrays import FloatArray
from knockout.exact.solver import MatchSolution, solve
from knockout.rules.book.bracket import round_name
from knockout.rules.book.walkover import walkover_sides
from knockout.rules.chain.pairing import Pairing
from knockout.rules.chain.progress import THIRD_PLACE, EventState, MatchProgress
from knockout.rules.model.uncertainty import bracket_nodes, normal_nodes
from knockout.rules.scenario.aggregate import Scenario

__all__ = [
    "all_pairs",
    "bracket_odds",
    "match_matrix",
    "progress_solution",
]


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


def progress_solution(
    scenario: Scenario, progress: MatchProgress, a_offset: FloatArray | None = None
) -> MatchSolution:
    """Exact odds of a match in progress, from where it stands (games still to play, a recorded
    sudden-death bid fixing its game's colours and clocks); with ``a_offset``, one solution per
    shift of the upper player's strength (rating uncertainty)."""
    players = {p.name: p for p in scenario.players}
    a, b = progress.players
    pairing = Pairing.of(
        scenario.format, players[a], players[b], model=scenario.model, strategy=scenario.strategy
    )
    assert progress.replayed is not None and progress.replayed.finished is None
    if a_offset is not None:
        pairing = pairing.expanded(np.zeros(len(a_offset), dtype=np.intp), a_offset)
    return solve(pairing, start=progress.replayed)


def _nodes(scenario: Scenario, uncertain: bool) -> tuple[FloatArray, FloatArray]:
    """Quadrature nodes of each player's strength draw (one node at 0 without uncertainty)."""
    max_sd = max(p.rating_sd for p in scenario.players)
    if uncertain and max_sd > 0:
        return normal_nodes(bracket_nodes(max_sd))
    return np.zeros(1), np.ones(1)


def line_matrix(scenario: Scenario, state: EventState, z: FloatArray | None = None) -> FloatArray:
    """``M[i, a, j, b]`` = P(line i beats line j | i's strength draw at node ``z[a]``, j's at
    ``z[b]``), with matches in progress and walkovers (nodes: ``z``, default none)."""
    z = np.zeros(1) if z is None else z
    k = len(z)
    bracket = state.bracket
    names = bracket.players
    line_of = [bracket.lines.index(n) for n in names]
    index = {name: line for name, line in zip(names, line_of, strict=True)}
    sd = {p.name: p.rating_sd for p in scenario.players}
    size = bracket.size
    m = np.zeros((size, k, size, k))
    if len(names) >= 2:
        iu, ju, pairing = all_pairs(scenario, names)
        sd_i = np.array([sd[names[i]] for i in iu])[:, None, None]
        sd_j = np.array([sd[names[j]] for j in ju])[:, None, None]
        shift = (sd_i * z[None, :, None] - sd_j * z[None, None, :]).ravel()
        sol = solve(pairing.expanded(np.repeat(np.arange(iu.size), k * k), shift))
        p_up = sol.win[:, 0].reshape(iu.size, k, k)
        li, lj = np.array(line_of)[iu], np.array(line_of)[ju]
        m[li, :, lj, :] = p_up
        m[lj, :, li, :] = 1.0 - p_up.transpose(0, 2, 1)
    _walkovers(m, state, index)
    for p in state.progress.values():
        if (p.round, p.index) == (bracket.rounds, THIRD_PLACE):
            continue  # the match for third place decides no one's reach
        i, j = index[p.players[0]], index[p.players[1]]
        if p.winner is not None:
            known = np.full((k, k), 1.0 if p.winner == p.players[0] else 0.0)
        else:
            shift = (sd[p.players[0]] * z[:, None] - sd[p.players[1]] * z[None, :]).ravel()
            known = progress_solution(scenario, p, shift).win[:, 0].reshape(k, k)
        m[i, :, j, :], m[j, :, i, :] = known, 1.0 - known.T
    return m


def _walkovers(m: FloatArray, state: EventState, index: dict[str, int]) -> None:
    """The walkover rule for every pair in which a player has withdrawn (whatever the draws)."""
    size = m.shape[0]
    withdrawn = np.zeros(size, dtype=bool)
    seeds = np.full(size, np.iinfo(np.int64).max)
    for name, line in index.items():
        withdrawn[line] = name in state.withdrawn
        seeds[line] = state.bracket.seeds[name]
    side = walkover_sides(withdrawn[:, None], withdrawn[None, :], seeds[:, None] < seeds[None, :])
    fixed = side[:, None, :, None]
    m[...] = np.where(fixed == 0, 1.0, np.where(fixed == 1, 0.0, m))
    lines = np.arange(size)
    m[lines, :, lines, :] = 0.0


def bracket_odds(scenario: Scenario, *, rating_sd: bool = True) -> BracketOdds:
    """Exact odds of every player reaching each round and winning the event.

    Rating uncertainty (``rating_sd``) is integrated over: each player's strength draw is
    carried through the rounds on Gauss-Hermite nodes (how many:
    :data:`~knockout.rules.model.uncertainty.BRACKET_NODES`), so a player's draw is shared by all
    their matches; with ``rating_sd=False`` the ratings are taken as exact, and where there is
    uncertainty the answer also gives those win chances (``win_if_ratings_exact``).
    """
    state = scenario.event_state()
    bracket = state.bracket
    z, w = _nodes(scenario, rating_sd)
    m = line_matrix(scenario, state, z)
    size, rounds = bracket.size, bracket.rounds
    real = np.array([name is not None for name in bracket.lines])
    lines = np.arange(size)
    alive = real[:, None] * w[None, :]  # P(line alive and its draw at node a)
    history = [alive.sum(axis=1)]
    for k in range(1, rounds + 1):
        shift = k - 1
        opponent_block = (lines >> shift) ^ 1
        same = (lines[None, :] >> shift) == opponent_block[:, None]
        has_opponent = (same & real[None, :]).any(axis=1)
        beat = np.einsum("iajb,ij,jb->ia", m, same, alive)
        alive = alive * np.where(has_opponent[:, None], beat, 1.0)
        history.append(alive.sum(axis=1))
    reach = {
        name: [float(h[bracket.lines.index(name)]) for h in history]
        for name in (p.name for p in scenario.players)
    }
    odds = BracketOdds(
        players=tuple(p.name for p in scenario.players),
        round_names=tuple(round_name(k, rounds) for k in range(1, rounds + 1)),
        reach=reach,
        bracket=bracket,
    )
    if len(z) > 1:
        odds = replace(odds, win_if_ratings_exact=bracket_odds(scenario, rating_sd=False).win)
    return odds
