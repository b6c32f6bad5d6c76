"""Exact odds of a knockout event, from where it stands.

:func:`bracket_odds` is the exact solver for the whole event, starting from the
:class:`~knockout.rules.chain.progress.EventState` (games played, walkovers): the match-probability
matrix for every pair (:func:`knockout.exact.solver.solve`, vectorised over pairs and run on
:data:`CHUNK_PAIRS` solutions at a time, the pairs' arrays gathered from per-player arrays),
corrected for matches in progress, then dynamic programming over the bracket, round by round
(``O(n^2)`` per round).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import numpy.typing as npt

from knockout.allocator import keep_freed_memory
from knockout.answers import BracketOdds
from knockout.arrays import FloatArray, IntArray
from knockout.exact.odds import default_draws, solve_chunked, vectorises
from knockout.exact.solver import MatchSolution, advance_probabilities
from knockout.rules.book.bracket import round_name
from knockout.rules.book.walkover import walkover_sides
from knockout.rules.chain.pairing import Pairing, Roster
from knockout.rules.chain.progress import THIRD_PLACE, EventState, MatchProgress
from knockout.rules.model.sd import Design, ModelSd, Spread, design, spread
from knockout.rules.model.strength import ModelParams
from knockout.rules.model.uncertainty import bracket_nodes, normal_nodes
from knockout.rules.scenario.aggregate import Scenario

__all__ = [
    "CHUNK_PAIRS",
    "all_pairs",
    "bracket_odds",
    "bracket_odds_at",
    "bracket_spread",
    "match_matrix",
    "pair_wins",
    "progress_solution",
    "roster",
    "upper_pairs",
]

#: Match solutions computed at once: the solver's arrays for a chunk (128 KB each) stay within
#: the processor's cache as a transition's products are formed and summed, so a bracket of 4,096
#: players (8.4 million pairs) needs little more memory than its match matrix; in chunks of
#: 65,536 the same work took 15 % more CPU (arrays of 512 KB go to memory and back).
#: The solver works pair by pair, so the answers do not depend on the chunks; only where the walk
#: stops, once less than the solver's tolerance (1e-15) is still in play in every pair of a
#: chunk (a repeating stage), may a chunk stop a game earlier than all pairs at once would.
CHUNK_PAIRS = 16_384


def all_pairs(scenario: Scenario, names: tuple[str, ...]) -> tuple[IntArray, IntArray, Pairing]:
    """Every pair ``i < j`` of ``names`` (indices) and one vectorised pairing of them all."""
    iu, ju = np.triu_indices(len(names), k=1)
    return iu, ju, roster(scenario, names).pairs(iu, ju)


def upper_pairs(n: int) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32]]:
    """``np.triu_indices(n, k=1)``, the same pairs in the same order, as 32-bit indices and
    without its ``n x n`` mask (4,096 players: 8.4 million pairs, 67 MB of indices not 150)."""
    rows = np.arange(n - 1, dtype=np.int32)
    counts = n - 1 - rows  # row i pairs with i + 1 .. n - 1
    iu = np.repeat(rows, counts)
    starts = np.cumsum(counts, dtype=np.int64) - counts
    ju = np.arange(iu.size, dtype=np.int32)
    ju -= np.repeat(starts.astype(np.int32), counts)
    ju += iu
    ju += 1
    return iu, ju


def roster(scenario: Scenario, names: tuple[str, ...]) -> Roster:
    """The per-player arrays of ``names`` (pairs are indices into ``names``)."""
    players = {p.name: p for p in scenario.players}
    return Roster.of(
        scenario.format,
        [players[name] for name in names],
        model=scenario.model,
        strategy=scenario.strategy,
    )


def pair_wins(
    scenario: Scenario,
    names: tuple[str, ...],
    iu: npt.NDArray[np.integer],
    ju: npt.NDArray[np.integer],
    shift: FloatArray | None = None,
    *,
    model: ModelParams | None = None,
    chunk: int = CHUNK_PAIRS,
) -> FloatArray:
    """``(pairs * k, 2)``: P(A advances), P(B advances) of ``names[iu[p]]`` v ``names[ju[p]]``,
    with A's strength moved by each of the ``k`` shifts of pair ``p`` (``shift``: ``(pairs *
    k,)``, pair-major; None: one solution per pair, ratings as given). With a vectorised
    ``model`` of ``N`` sets of constants, each pair's ``k`` solutions are ``N`` blocks of
    ``k / N``, block ``d`` under set ``d`` (``shift`` None: one solution per pair and set).
    Solved about ``chunk`` solutions at a time, each chunk's pairs gathered from per-player
    arrays."""
    vector = model is not None and model.size is not None
    draws = model.size if model is not None and model.size is not None else 1
    if vector and shift is None:
        shift = np.zeros(iu.size * draws)
    k = 1 if shift is None else shift.size // max(1, iu.size)
    field_ = roster(scenario, names)
    win = np.empty((iu.size * k, 2))
    step = max(1, chunk // k)
    if iu.size > step:  # chunk after chunk frees and reallocates the same arrays
        keep_freed_memory()
    for lo in range(0, iu.size, step):
        hi = min(iu.size, lo + step)
        pairing = field_.pairs(iu[lo:hi], ju[lo:hi])
        if shift is not None:
            index = np.repeat(np.arange(hi - lo), k)
            pairing = pairing.expanded(index, shift[lo * k : hi * k])
        if vector:
            assert model is not None
            draw = np.tile(np.repeat(np.arange(draws), k // draws), hi - lo)
            pairing = pairing.with_model(model.take(draw))
        win[lo * k : hi * k] = advance_probabilities(pairing)
    return win


def match_matrix(scenario: Scenario, names: tuple[str, ...]) -> FloatArray:
    """``M[i, j]`` = P(``names[i]`` beats ``names[j]``) in a whole match, for every pair."""
    n = len(names)
    m = np.zeros((n, n))
    if n < 2:
        return m
    iu, ju = np.triu_indices(n, k=1)
    win = pair_wins(scenario, names, iu, ju)
    m[iu, ju] = win[:, 0]
    m[ju, iu] = win[:, 1]
    return m


def progress_solution(
    scenario: Scenario,
    progress: MatchProgress,
    a_offset: FloatArray | None = None,
    *,
    model: ModelParams | None = None,
) -> MatchSolution:
    """Exact odds of a match in progress, from where it stands (games still to play, a recorded
    sudden-death bid fixing its game's colours and clocks); with ``a_offset``, one solution per
    shift of the upper player's strength (rating uncertainty); with a vectorised ``model`` of
    ``N`` sets of constants, every shift under every set (constants first, then shifts)."""
    players = {p.name: p for p in scenario.players}
    a, b = progress.players
    n = 1 if model is None or model.size is None else model.size
    pairing = Pairing.of(
        scenario.format,
        [players[a]] * n,
        [players[b]] * n,
        model=scenario.model if model is None else model,
        strategy=scenario.strategy,
    )
    assert progress.replayed is not None and progress.replayed.finished is None
    if a_offset is not None:
        k = len(a_offset)
        pairing = pairing.expanded(np.repeat(np.arange(n), k), np.tile(a_offset, n))
    return solve_chunked(pairing, start=progress.replayed)


def _nodes(scenario: Scenario, uncertain: bool) -> tuple[FloatArray, FloatArray]:
    """Quadrature nodes of each player's strength draw (one node at 0 without uncertainty)."""
    max_sd = max(p.rating_sd for p in scenario.players)
    if uncertain and max_sd > 0:
        return normal_nodes(bracket_nodes(max_sd))
    return np.zeros(1), np.ones(1)


def line_matrix(
    scenario: Scenario,
    state: EventState,
    z: FloatArray | None = None,
    *,
    model: ModelParams | None = None,
) -> FloatArray:
    """``M[i, a, j, b]`` = P(line i beats line j | i's strength draw at node ``z[a]``, j's at
    ``z[b]``), with matches in progress and walkovers (nodes: ``z``, default none). With a
    vectorised ``model`` of ``N`` sets of constants: ``M[d, i, a, j, b]`` under set ``d``."""
    z = np.zeros(1) if z is None else z
    k = len(z)
    draws = 1 if model is None or model.size is None else model.size
    bracket = state.bracket
    names = bracket.players
    index = _lines(bracket.lines)
    line_of = [index[n] for n in names]
    sd = {p.name: p.rating_sd for p in scenario.players}
    size = bracket.size
    m = np.zeros((draws, size, k, size, k))
    if len(names) >= 2:
        iu, ju = upper_pairs(len(names))
        shift = None
        if k > 1:
            sds = np.array([sd[name] for name in names])
            shift = np.broadcast_to(
                sds[iu, None, None, None] * z[None, None, :, None]
                - sds[ju, None, None, None] * z[None, None, None, :],
                (iu.size, draws, k, k),
            ).ravel()
        win = pair_wins(scenario, names, iu, ju, shift, model=model)
        p_up = win[:, 0].reshape(iu.size, draws, k, k)
        lines = np.asarray(line_of, dtype=np.int32)
        li, lj = lines[iu], lines[ju]
        for d in range(draws):
            m[d, li, :, lj, :] = p_up[:, d]
            m[d, lj, :, li, :] = 1.0 - p_up[:, d].transpose(0, 2, 1)
    for d in range(draws):
        _walkovers(m[d], state, index)
    for p in state.progress.values():
        if (p.round, p.index) == (bracket.rounds, THIRD_PLACE):
            continue  # the match for third place decides no one's reach
        i, j = index[p.players[0]], index[p.players[1]]
        if p.winner is not None:
            known = np.full((draws, k, k), 1.0 if p.winner == p.players[0] else 0.0)
        else:
            shift = (sd[p.players[0]] * z[:, None] - sd[p.players[1]] * z[None, :]).ravel()
            known = progress_solution(scenario, p, shift, model=model).win[:, 0]
            known = known.reshape(draws, k, k)
        m[:, i, :, j, :], m[:, j, :, i, :] = known, 1.0 - known.transpose(0, 2, 1)
    return m if model is not None else m[0]


def _lines(lines: tuple[str | None, ...]) -> dict[str, int]:
    """Each player's line in the bracket."""
    return {name: i for i, name in enumerate(lines) if name is not None}


def _walkovers(m: FloatArray, state: EventState, index: dict[str, int]) -> None:
    """The walkover rule for every pair in which a player has withdrawn (whatever the draws)."""
    size = m.shape[0]
    withdrawn = np.zeros(size, dtype=bool)
    seeds = np.full(size, np.iinfo(np.int64).max)
    for name, line in index.items():
        withdrawn[line] = name in state.withdrawn
        seeds[line] = state.bracket.seeds[name]
    out = np.flatnonzero(withdrawn)  # only their rows and columns can change
    if out.size:
        rows = walkover_sides(withdrawn[out, None], withdrawn, seeds[out, None] < seeds)
        fixed = rows[:, None, :, None]
        m[out] = np.where(fixed == 0, 1.0, np.where(fixed == 1, 0.0, m[out]))
        cols = walkover_sides(withdrawn[:, None], withdrawn[out], seeds[:, None] < seeds[out])
        fixed = cols[:, None, :, None]
        m[:, :, out] = np.where(fixed == 0, 1.0, np.where(fixed == 1, 0.0, m[:, :, out]))
    lines = np.arange(size)
    m[lines, :, lines, :] = 0.0


def _reach(scenario: Scenario, state: EventState, m: FloatArray, w: FloatArray) -> BracketOdds:
    """The odds of every player from the line matrix ``m`` and the strength nodes' weights."""
    bracket = state.bracket
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
    line = _lines(bracket.lines)
    by_round = np.stack(history, axis=1).tolist()  # (lines, rounds + 1)
    reach = {name: by_round[line[name]] for name in (p.name for p in scenario.players)}
    return BracketOdds(
        players=tuple(p.name for p in scenario.players),
        round_names=tuple(round_name(k, rounds) for k in range(1, rounds + 1)),
        reach=reach,
        bracket=bracket,
    )


def bracket_odds(
    scenario: Scenario,
    *,
    rating_sd: bool = True,
    model_sd: bool = True,
    draws: int | None = None,
) -> BracketOdds:
    """Exact odds of every player reaching each round and winning the event.

    Rating uncertainty (``rating_sd``) is integrated over: each player's strength draw is
    carried through the rounds on Gauss-Hermite nodes (how many:
    :data:`~knockout.rules.model.uncertainty.BRACKET_NODES`), so a player's draw is shared by all
    their matches; with ``rating_sd=False`` the ratings are taken as exact, and where there is
    uncertainty the answer also gives those win chances (``win_if_ratings_exact``). Uncertain
    model constants (``[model.sd]``) give every figure its spread over them
    (``model_uncertainty``, with ``draws`` draws): one draw of the constants for the whole
    event.
    """
    state = scenario.event_state()
    odds = _plain_bracket_odds(scenario, state, rating_sd)
    if model_sd and scenario.model_sd.uncertain:
        spread = bracket_spread(scenario, odds, rating_sd=rating_sd, draws=draws)
        odds = replace(odds, model_uncertainty=spread)
    return odds


def _plain_bracket_odds(scenario: Scenario, state: EventState, rating_sd: bool) -> BracketOdds:
    z, w = _nodes(scenario, rating_sd)
    odds = _reach(scenario, state, line_matrix(scenario, state, z), w)
    if len(z) > 1:
        odds = replace(odds, win_if_ratings_exact=_plain_bracket_odds(scenario, state, False).win)
    return odds


def bracket_odds_at(
    scenario: Scenario, des: Design, *, rating_sd: bool = True
) -> list[BracketOdds]:
    """The plain answer (:func:`bracket_odds` without the spread) at every point of ``des``."""
    center = scenario.model
    state = scenario.event_state()
    if not vectorises(scenario):
        return [
            _plain_bracket_odds(
                replace(scenario, model=des.model_at(center, i), model_sd=ModelSd()),
                state,
                rating_sd,
            )
            for i in range(des.size)
        ]
    model = des.model(center)
    z, w = _nodes(scenario, rating_sd)
    m = line_matrix(scenario, state, z, model=model)
    plain = m if len(z) == 1 else line_matrix(scenario, state, model=model)
    out = []
    for d in range(des.size):
        odds = _reach(scenario, state, m[d], w)
        if len(z) > 1:
            exact = _reach(scenario, state, plain[d], np.ones(1))
            odds = replace(odds, win_if_ratings_exact=exact.win)
        out.append(odds)
    return out


def bracket_spread(
    scenario: Scenario, odds: BracketOdds, *, rating_sd: bool = True, draws: int | None = None
) -> Spread:
    """Every figure of ``odds`` over the uncertainty of the scenario's constants (the draw, the
    seeds and the rounds are not figures)."""
    names = [p for p in scenario.players if not p.withdrawn]
    z, _ = _nodes(scenario, rating_sd)
    pairs = max(1, len(names) * (len(names) - 1) // 2) * len(z) ** 2
    des = design(scenario.model, scenario.model_sd, draws=draws or default_draws(scenario, pairs))
    answers = bracket_odds_at(scenario, des, rating_sd=rating_sd)
    return spread(
        odds.to_json(),
        [x.to_json() for x in answers],
        des,
        scenario.model_sd,
        scenario.model,
        probability=lambda path: True,
        keep=lambda path: not path.startswith("bracket."),
    )
