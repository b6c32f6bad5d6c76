"""Exact odds of a two-player match (:class:`knockout.answers.MatchOdds`)."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from knockout.answers import MatchOdds, SuddenDeath
from knockout.arrays import FloatArray
from knockout.errors import KnockoutError
from knockout.exact.solver import MatchSolution, block_average, concatenated, solve
from knockout.game import Colour, Reply
from knockout.rules.chain.match import Position
from knockout.rules.chain.pairing import Pairing
from knockout.rules.decisions.bidding import BRANCH_NAMES, BRANCHES, BiddingGame
from knockout.rules.decisions.kinds import Bid
from knockout.rules.decisions.regions import Regions
from knockout.rules.decisions.strategies import BidProbabilities
from knockout.rules.model.sd import (
    DRAWS,
    Design,
    ModelSd,
    Spread,
    design,
    spread,
    spread_of_values,
)
from knockout.rules.model.uncertainty import piecewise_normal_nodes
from knockout.rules.scenario.aggregate import Scenario

__all__ = [
    "certain_odds",
    "default_draws",
    "from_solution",
    "match_figures_at",
    "match_odds",
    "match_odds_at",
    "match_spread",
    "rating_nodes",
    "solution_figures",
    "solve_chunked",
    "sudden_death_of",
    "sudden_deaths",
    "vectorises",
]


def _laid_open(
    pairing: Pairing, sol: MatchSolution | None, bid: Bid | None = None
) -> dict[str, FloatArray]:
    """Every figure of the sudden-death game, as arrays over the pairs (``v0``/``v1``: the
    branch values with side 0/1 as 甲, ``d0``/``d1``: the decisions, then the joint masses).
    With a recorded ``bid``, its 甲's decisions are the recorded ones."""
    game = pairing.bidding_game
    assert game is not None
    n = pairing.size
    out: dict[str, FloatArray] = {}
    for side in (0, 1):
        x = pairing.advantage(0 if side == 0 else 1)
        p = pairing.strategy.probabilities(game, x)
        if bid is not None and bid.chooser == side:
            red = 1.0 if bid.announce is Colour.RED else 0.0
            objects = 1.0 if bid.reply is Reply.OBJECT else 0.0
            p = BidProbabilities(np.full(n, red), np.full(n, objects), np.full(n, objects))
        out[f"v{side}"] = game.branch_values(x)
        out[f"d{side}"] = np.stack(
            [
                np.broadcast_to(q, (n,))
                for q in (p.announce_red, p.object_if_red, p.object_if_black)
            ],
            axis=-1,
        )
    zero = np.zeros(n)
    out["reached"] = zero if sol is None else sol.bidding_reached
    out["a_chooses"] = zero if sol is None else sol.chooser_is_a
    out["a_wins"] = zero if sol is None else sol.chooser_a_advances
    out["all_wins"] = zero if sol is None else sol.chooser_advances
    return out


def _one(
    figures: dict[str, FloatArray], i: int, players: tuple[str, str], game: BiddingGame
) -> SuddenDeath:
    reached, a_chooses = float(figures["reached"][i]), float(figures["a_chooses"][i])
    a_wins, all_wins = float(figures["a_wins"][i]), float(figures["all_wins"][i])
    shares, wins = (a_chooses, reached - a_chooses), (a_wins, all_wins - a_wins)
    as_chooser: dict[str, dict[str, float | None]] = {}
    decisions: dict[str, tuple[float, float, float]] = {}
    for side, name in enumerate(players):
        branch: dict[str, float | None] = {
            key: float(v) for key, v in zip(BRANCH_NAMES, figures[f"v{side}"][i], strict=True)
        }
        branch["advances"] = wins[side] / shares[side] if shares[side] > 0 else None
        as_chooser[name] = branch
        red, obj_red, obj_black = (float(q) for q in figures[f"d{side}"][i])
        decisions[name] = (red, obj_red, obj_black)
    chooser = None
    if reached > 0:
        chooser = {players[0]: shares[0] / reached, players[1]: shares[1] / reached}
    clocks = {
        key: game.effective(game.menu.assignment(a, r)[1])
        for key, (a, r) in zip(BRANCH_NAMES, BRANCHES, strict=True)
    }
    return SuddenDeath(reached, game.time_class.value, chooser, as_chooser, clocks, decisions)


def sudden_deaths(
    pairing: Pairing,
    players: tuple[str, str],
    sol: MatchSolution | None = None,
    *,
    weights: FloatArray | None = None,
    bid: Bid | None = None,
) -> list[SuddenDeath] | None:
    """The sudden-death game laid open for every pair of ``pairing`` (None without a bidding
    stage), computed once for all pairs. With ``weights`` (``(k,)``, or ``(groups, k)`` when
    each block has its own), consecutive blocks of ``k`` pairs are quadrature nodes of one
    match: everything is averaged over each block (branch
    values and decisions over the rating uncertainty; ``chooser`` and ``advances`` are ratios
    of averaged joint probabilities).

    Branch values are the true model's P(甲 advances) on each branch's colours and clocks;
    ``reached``, ``chooser`` and ``advances`` come from the solution (not reached without one).
    A recorded ``bid`` replaces its 甲's decisions under the strategy.
    """
    game = pairing.bidding_game
    if game is None:
        return None
    figures = _laid_open(pairing, sol, bid)
    if weights is not None:
        groups = pairing.size // weights.shape[-1]
        figures = {key: block_average(v, groups, weights) for key, v in figures.items()}
    n = len(figures["reached"])
    return [_one(figures, i, players, game) for i in range(n)]


def sudden_death_of(
    pairing: Pairing, players: tuple[str, str], sol: MatchSolution | None = None, index: int = 0
) -> SuddenDeath | None:
    """The sudden-death game laid open for pair ``index`` (see :func:`sudden_deaths`)."""
    every = sudden_deaths(pairing, players, sol)
    return None if every is None else every[index]


def from_solution(
    sol: MatchSolution,
    players: tuple[str, str],
    index: int = 0,
    *,
    games_played: int = 0,
    pairing: Pairing | None = None,
    sudden_death: SuddenDeath | None = None,
) -> MatchOdds:
    """Pick pair ``index`` out of a (vectorised) solution.

    ``games_played``: games already played before the solution's start (added to ``games``);
    ``pairing``: the solution's pairing, to lay the sudden-death game open (or give the pair's
    ``sudden_death`` from :func:`sudden_deaths`, computed once for all pairs).
    """
    i = index
    reached = float(sol.bidding_reached[i])

    def cond(joint: float) -> float | None:
        return joint / reached if reached > 0 else None

    chooser_a = cond(float(sol.chooser_is_a[i]))
    return MatchOdds(
        players=players,
        win={players[0]: float(sol.win[i, 0]), players[1]: float(sol.win[i, 1])},
        decided={name: float(sol.decided[i, k].sum()) for k, name in enumerate(sol.stage_names)},
        decided_by={
            name: {
                players[0]: float(sol.decided[i, k, 0]),
                players[1]: float(sol.decided[i, k, 1]),
            }
            for k, name in enumerate(sol.stage_names)
        },
        sudden_death_reached=float(sol.sudden_death_reached[i]),
        chooser_advances=cond(float(sol.chooser_advances[i])),
        chooser=None if chooser_a is None else {players[0]: chooser_a, players[1]: 1.0 - chooser_a},
        announce_red=cond(float(sol.announce_red[i])),
        objects=cond(float(sol.objects[i])),
        games={games_played + k: float(p[i]) for k, p in sorted(sol.games.items())},
        unresolved=float(sol.unresolved[i]),
        sudden_death=sudden_death
        if sudden_death is not None or pairing is None
        else sudden_death_of(pairing, players, sol, i),
    )


def _solve_uncertain(
    pairing: Pairing, start: Position, sigma: float
) -> tuple[MatchSolution, Pairing, FloatArray | None]:
    """Solve a one-pair match, averaged over rating uncertainty ``sigma`` (the sd of the
    difference of the two players' strength draws) by piecewise Gauss-Legendre; returns the
    averaged solution, the node pairing and the weights (None when there is no uncertainty).
    The integral is split where a rational decision flips (:func:`_decision_breaks`; nowhere
    once a bid or colour choice is recorded: the one game left is smooth in the strengths)."""
    if sigma == 0:
        return solve(pairing, start=start), pairing, None
    delta, w = rating_nodes(pairing, start, sigma)
    nodes = pairing.expanded(np.zeros(len(delta), dtype=np.intp), delta)
    return solve(nodes, start=start), nodes, w


def rating_nodes(pairing: Pairing, start: Position, sigma: float) -> tuple[FloatArray, FloatArray]:
    """The quadrature of a one-pair match over rating uncertainty ``sigma``: shifts of A's
    strength and their weights (piecewise Gauss-Legendre, split where a rational decision
    flips; nowhere once a decision is recorded)."""
    recorded = start.recorded
    return piecewise_normal_nodes(sigma, [] if recorded else _decision_breaks(pairing))


def _decision_breaks(pairing: Pairing) -> list[float]:
    """Where a decision that depends on the true strengths flips (a rational bid, objection or
    colour choice), as values of the shift added to A's strength: the integral over rating
    uncertainty is split there, so every piece is smooth."""
    if not pairing.strategy.is_deterministic:
        return []  # decisions on noisy estimates vary smoothly with the truth
    thresholds: list[tuple[float, Regions]] = []
    game = pairing.bidding_game
    if game is not None:
        x0 = float(pairing.advantage(0)[0])
        thresholds += [(x0, r) for r in game.regions.values()]
    for k, stage in enumerate(pairing.fmt.playable):
        if stage.is_choice:
            x0 = float(pairing.choice_advantage(k, 0)[0])
            thresholds.append((x0, pairing.choice_game(k).red_region))
    out = []
    for x0, region in thresholds:
        for t in (e for interval in region.intervals for e in interval if math.isfinite(e)):
            out += [t - x0, -t - x0]  # A as the decider (x = x0 + shift), then B (x = -x0 - shift)
    return out


def match_odds(
    scenario: Scenario,
    *,
    rating_sd: bool = True,
    model_sd: bool = True,
    draws: int | None = None,
) -> MatchOdds:
    """Exact odds of the match between the scenario's two players.

    Games already played (``[[played]]``) are replayed first and the odds start from there
    (``games`` still counts every game of the match); a withdrawn player loses by walkover
    (:mod:`knockout.rules.book.walkover`). Rating uncertainty (players' ``rating_sd``) is integrated
    over (:func:`knockout.rules.model.uncertainty.piecewise_normal_nodes`, split where a rational
    decision flips); with ``rating_sd=False`` the ratings are taken as exact, and where there
    is uncertainty the answer also gives those odds (``win_if_ratings_exact``). Uncertain model
    constants (``[model.sd]``) give every figure its spread over them
    (``model_uncertainty``, :func:`match_spread`, with ``draws`` draws of them);
    ``model_sd=False`` leaves it out.

    Raises:
        KnockoutError: If the scenario does not have exactly two players.
    """
    odds = _plain_match_odds(scenario, rating_sd=rating_sd)
    if model_sd and scenario.model_sd.uncertain:
        spread = match_spread(scenario, odds, rating_sd=rating_sd, draws=draws)
        odds = replace(odds, model_uncertainty=spread)
    return odds


def solution_figures(
    sol: MatchSolution,
    players: tuple[str, str],
    pairing: Pairing,
    *,
    games_played: int = 0,
    bid: Bid | None = None,
    nodes: tuple[Pairing, MatchSolution, FloatArray] | None = None,
) -> dict[str, FloatArray]:
    """Every figure of :func:`from_solution`'s JSON for all pairs of ``pairing`` at once, by its
    path (``win.NAME``, ``match.decided.STAGE``, ``match.sudden_death.as_chooser.NAME.BRANCH``,
    ...; NaN where the JSON has null, and at ``match.bidding`` and ``match.sudden_death``
    for a format without a bidding stage): what a sweep reads at many points without building
    an answer per pair. ``nodes``: the quadrature nodes' pairing, solution and weights
    ``(pairs, nodes)`` that ``sol`` averages (rating uncertainty), for the laid-open game."""
    a, b = players
    reached = sol.bidding_reached
    nan = np.full(pairing.size, np.nan)

    def cond(joint: FloatArray) -> FloatArray:
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.asarray(np.where(reached > 0, joint / reached, np.nan), dtype=np.float64)

    out: dict[str, FloatArray] = {f"win.{a}": sol.win[:, 0], f"win.{b}": sol.win[:, 1]}
    for k, name in enumerate(sol.stage_names):
        out[f"match.decided.{name}"] = sol.decided[:, k].sum(axis=-1)
    out["match.chooser_advances"] = cond(sol.chooser_advances)
    for k, p in sorted(sol.games.items()):
        out[f"match.games.{games_played + k}"] = p
    game = pairing.bidding_game
    if game is None:
        out["match.bidding"] = nan
    else:
        out["match.bidding.announce_red"] = cond(sol.announce_red)
        out["match.bidding.object"] = cond(sol.objects)
    out["match.sudden_death_reached"] = sol.sudden_death_reached
    out["match.unresolved"] = sol.unresolved
    if game is None:
        out["match.sudden_death"] = nan
        return out
    if nodes is None:
        figures = _laid_open(pairing, sol, bid)
    else:
        node_pairing, node_sol, weights = nodes
        figures = {
            k: block_average(v, pairing.size, weights)
            for k, v in _laid_open(node_pairing, node_sol, bid).items()
        }
    where = "match.sudden_death"
    out[f"{where}.reached"] = reached
    chooser_a = cond(sol.chooser_is_a)
    out[f"{where}.chooser.{a}"] = chooser_a
    out[f"{where}.chooser.{b}"] = 1.0 - chooser_a
    shares = (figures["a_chooses"], figures["reached"] - figures["a_chooses"])
    wins = (figures["a_wins"], figures["all_wins"] - figures["a_wins"])
    for side, name in enumerate(players):
        for j, key in enumerate(BRANCH_NAMES):
            out[f"{where}.as_chooser.{name}.{key}"] = figures[f"v{side}"][:, j]
        with np.errstate(divide="ignore", invalid="ignore"):
            advances = np.where(shares[side] > 0, wins[side] / shares[side], np.nan)
        out[f"{where}.as_chooser.{name}.advances"] = np.asarray(advances, dtype=np.float64)
    return out


def _plain_match_odds(scenario: Scenario, *, rating_sd: bool) -> MatchOdds:
    """:func:`match_odds` at the central constants."""
    if len(scenario.players) != 2:
        raise KnockoutError(
            f"{scenario.source}: a match needs exactly two players, got {len(scenario.players)}"
        )
    a, b = scenario.players
    names = (a.name, b.name)
    fmt = scenario.format
    rep = scenario.position
    pairing = Pairing.of(fmt, a, b, model=scenario.model, strategy=scenario.strategy)
    certain = certain_odds(scenario, pairing, rep)
    if certain is not None:
        return certain[0]
    sigma = math.hypot(a.rating_sd, b.rating_sd) if rating_sd else 0.0
    node_sol, nodes, weights = _solve_uncertain(pairing, rep, sigma)
    sol = node_sol if weights is None else node_sol.averaged(1, weights)
    laid_open = sudden_deaths(nodes, names, node_sol, weights=weights, bid=rep.bid)
    odds = from_solution(
        sol,
        names,
        games_played=rep.games,
        sudden_death=None if laid_open is None else laid_open[0],
    )
    if sigma > 0:
        exact_ratings = _plain_match_odds(scenario, rating_sd=False)
        odds = replace(odds, win_if_ratings_exact=exact_ratings.win)
    assert math.isclose(sum(odds.win.values()) + odds.unresolved, 1.0, abs_tol=1e-9)
    return odds


def certain_odds(scenario: Scenario, pairing: Pairing, rep: Position) -> list[MatchOdds] | None:
    """The answer of a match decided already (by its games or a walkover), one per pair of
    ``pairing`` (the sudden-death game laid open at each pair's constants); None if the match
    is still to be played."""
    a, b = scenario.players
    names = (a.name, b.name)
    fmt = scenario.format
    walkover = scenario.event_state().walkover((1, 0), a.name, b.name)
    finished = rep.finished
    if walkover is None and finished is None:
        return None
    if walkover is not None:
        winner, stage = walkover, None
    else:
        assert finished is not None
        winner = names[finished.winner]
        stage = fmt.playable[finished.stage].name
    laid_open = sudden_deaths(pairing, names)
    return [
        MatchOdds.certain(
            names,
            winner,
            fmt.stage_names,
            decided_in=stage,
            games=rep.games,
            sudden_death=None if laid_open is None else laid_open[i],
        )
        for i in range(pairing.size)
    ]


# ---------------------------------------------------------------------------------------------
# Over the uncertain constants

#: Gauss-Legendre nodes per piece of the rating integral when it is taken at every draw of
#: the constants (12 for one answer): on the smooth pieces between decision breaks the error is
#: below 1e-8 (tests/exact/test_uncertain_answers.py), far below the spread over the constants.
SPREAD_RATING_NODES = 6
#: Pairs solved at once (memory: the solver keeps a few arrays of this length per transition).
SOLVE_CHUNK = 2**15


def vectorises(scenario: Scenario) -> bool:
    """Whether the exact walkers can take the scenario's constants as arrays, one set per pair
    (the strategy's decisions follow from them pair by pair; sealed bids only for strategies
    that know the truth, and so cut-and-choose); otherwise each draw of the constants is solved
    on its own."""
    strategy = scenario.strategy
    fmt = scenario.format
    clocks = fmt.sealed_bid_stage is not None or fmt.cut_stage is not None
    return strategy.vectorises and (not clocks or strategy.is_deterministic)


def solve_chunked(pairing: Pairing, *, start: Position | None = None) -> MatchSolution:
    """:func:`solve` in slices of at most :data:`SOLVE_CHUNK` pairs."""
    n = pairing.size
    if n <= SOLVE_CHUNK:
        return solve(pairing, start=start)
    parts = [
        solve(pairing.expanded(np.arange(lo, min(n, lo + SOLVE_CHUNK)), 0.0), start=start)
        for lo in range(0, n, SOLVE_CHUNK)
    ]
    return concatenated(parts)


def vector_breaks(pairing: Pairing) -> list[list[float]]:
    """:func:`_decision_breaks` for a vectorised model: per pair, the shifts of A's strength at
    which a rational decision flips under that pair's constants."""
    n = pairing.size
    out: list[list[float]] = [[] for _ in range(n)]
    if not pairing.strategy.is_deterministic:
        return out
    thresholds: list[tuple[FloatArray, FloatArray]] = []
    game = pairing.bidding_game
    if game is not None:
        x0 = pairing.advantage(0)
        thresholds += [(x0, bounds) for bounds in game.vector_regions.values()]
    for k, stage in enumerate(pairing.fmt.playable):
        if stage.is_choice:
            thresholds.append(
                (pairing.choice_advantage(k, 0), pairing.choice_game(k).vector_red_region)
            )
    for x0, bounds in thresholds:
        for i in range(n):
            for t in bounds[i][np.isfinite(bounds[i])]:
                out[i] += [float(t - x0[i]), float(-t - x0[i])]
    return out


def _solve_uncertain_vector(
    pairing: Pairing, start: Position, sigma: float
) -> tuple[MatchSolution, Pairing, FloatArray | None]:
    """:func:`_solve_uncertain` for a vectorised model: each pair's rating integral split
    where that pair's decisions flip, with :data:`SPREAD_RATING_NODES` nodes a piece; the
    weights are ``(pairs, nodes)``, padded with zero weights."""
    if sigma == 0:
        return solve_chunked(pairing, start=start), pairing, None
    n = pairing.size
    recorded = start.recorded
    breaks = [[] for _ in range(n)] if recorded else vector_breaks(pairing)
    nodes = [piecewise_normal_nodes(sigma, b, SPREAD_RATING_NODES) for b in breaks]
    k = max(len(x) for x, _ in nodes)
    shifts, weights = np.zeros((n, k)), np.zeros((n, k))
    for i, (x, w) in enumerate(nodes):
        shifts[i, : len(x)], weights[i, : len(w)] = x, w
    expanded = pairing.expanded(np.repeat(np.arange(n), k), shifts.ravel())
    return solve_chunked(expanded, start=start), expanded, weights


def match_figures_at(
    scenario: Scenario, des: Design, *, rating_sd: bool = True
) -> dict[str, FloatArray] | None:
    """Every figure of the plain answer at every point of ``des``, by path, read off one
    vectorised solution (:func:`solution_figures`); None where the draws cannot be vectorised
    or the match is decided already (then :func:`match_odds_at`)."""
    if not vectorises(scenario):
        return None
    a, b = scenario.players
    names = (a.name, b.name)
    n = des.size
    rep = scenario.position
    pairing = Pairing.of(
        scenario.format,
        [a] * n,
        [b] * n,
        model=des.model(scenario.model),
        strategy=scenario.strategy,
    )
    if rep.finished is not None or scenario.event_state().walkover((1, 0), a.name, b.name):
        return None
    sigma = math.hypot(a.rating_sd, b.rating_sd) if rating_sd else 0.0
    node_sol, nodes, weights = _solve_uncertain_vector(pairing, rep, sigma)
    sol = node_sol if weights is None else node_sol.averaged(n, weights)
    out = solution_figures(
        sol,
        names,
        pairing,
        games_played=rep.games,
        bid=rep.bid,
        nodes=None if weights is None else (nodes, node_sol, weights),
    )
    if sigma > 0:
        exact = solve_chunked(pairing, start=rep)
        out[f"win_if_ratings_exact.{a.name}"] = exact.win[:, 0]
        out[f"win_if_ratings_exact.{b.name}"] = exact.win[:, 1]
    return out


def match_odds_at(scenario: Scenario, des: Design, *, rating_sd: bool = True) -> list[MatchOdds]:
    """The plain answer (:func:`match_odds` without the spread) at every point of ``des``."""
    center = scenario.model
    if not vectorises(scenario):
        return [
            _plain_match_odds(
                replace(scenario, model=des.model_at(center, i), model_sd=ModelSd()),
                rating_sd=rating_sd,
            )
            for i in range(des.size)
        ]
    a, b = scenario.players
    names = (a.name, b.name)
    n = des.size
    rep = scenario.position
    pairing = Pairing.of(
        scenario.format, [a] * n, [b] * n, model=des.model(center), strategy=scenario.strategy
    )
    certain = certain_odds(scenario, pairing, rep)
    if certain is not None:
        return certain
    sigma = math.hypot(a.rating_sd, b.rating_sd) if rating_sd else 0.0
    node_sol, nodes, weights = _solve_uncertain_vector(pairing, rep, sigma)
    sol = node_sol if weights is None else node_sol.averaged(n, weights)
    laid_open = sudden_deaths(nodes, names, node_sol, weights=weights, bid=rep.bid)
    exact = solve_chunked(pairing, start=rep) if sigma > 0 else None
    out = []
    for i in range(n):
        odds = from_solution(
            sol,
            names,
            i,
            games_played=rep.games,
            sudden_death=None if laid_open is None else laid_open[i],
        )
        if exact is not None:
            odds = replace(
                odds,
                win_if_ratings_exact={
                    names[0]: float(exact.win[i, 0]),
                    names[1]: float(exact.win[i, 1]),
                },
            )
        out.append(odds)
    return out


def match_spread(
    scenario: Scenario,
    odds: MatchOdds,
    *,
    rating_sd: bool = True,
    draws: int | None = None,
    decompose: tuple[str, ...] = (),
) -> Spread:
    """Every figure of ``odds`` over the uncertainty of the scenario's constants: the answer
    at each draw (:func:`match_odds_at`), summarised (:func:`knockout.rules.model.sd.spread`).
    ``draws``: how many (default :data:`~knockout.rules.model.sd.DRAWS`, fewer where each draw is
    solved on its own: :func:`default_draws`)."""
    des = design(
        scenario.model,
        scenario.model_sd,
        draws=draws or default_draws(scenario),
        hold_each=bool(decompose),
    )
    figures = match_figures_at(scenario, des, rating_sd=rating_sd)
    if figures is not None:
        return spread_of_values(
            odds.to_json(),
            figures,
            des,
            scenario.model_sd,
            scenario.model,
            probability=lambda path: True,
            decompose=decompose,
        )
    answers = match_odds_at(scenario, des, rating_sd=rating_sd)
    return spread(
        odds.to_json(),
        [x.to_json() for x in answers],
        des,
        scenario.model_sd,
        scenario.model,
        probability=lambda path: True,
        decompose=decompose,
    )


#: Draws when every draw is solved on its own (the strategy decides on beliefs, per model).
ONE_BY_ONE_DRAWS = 64


def default_draws(scenario: Scenario, pairs: int = 1) -> int:
    """Draws of the constants for an answer: :data:`DRAWS`, or :data:`ONE_BY_ONE_DRAWS` when
    each draw is solved on its own; for ``pairs`` pairs a draw (a bracket), as many as keep
    about :data:`PAIR_BUDGET` pairs in all, at least :data:`MIN_DRAWS`."""
    if not vectorises(scenario):
        return ONE_BY_ONE_DRAWS
    m = DRAWS
    while m > MIN_DRAWS and m * pairs > PAIR_BUDGET:
        m //= 2
    return m


#: Pairs solved over all draws before an answer takes fewer draws (a few seconds of solving).
PAIR_BUDGET = 2**17
#: The fewest draws an answer takes (REPLICATES scrambles of 4 points).
MIN_DRAWS = 32
