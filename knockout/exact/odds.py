"""Exact odds of a two-player match (:class:`knockout.answers.MatchOdds`)."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import numpy.typing as npt

from knockout.answers import MatchOdds, SuddenDeath
from knockout.errors import KnockoutError
from knockout.exact.solver import MatchSolution, solve
from knockout.game import Colour, Reply
from knockout.rules.bidding import (
    BRANCH_NAMES,
    BRANCHES,
    BiddingGame,
    BidProbabilities,
    Regions,
)
from knockout.rules.match import Bid, Pairing, Position
from knockout.rules.scenario import Scenario
from knockout.rules.uncertainty import piecewise_normal_nodes

FloatArray = npt.NDArray[np.float64]

__all__ = ["from_solution", "match_odds", "sudden_death_of", "sudden_deaths"]


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
    stage), computed once for all pairs. With ``weights``, consecutive blocks of that many
    pairs are quadrature nodes of one match: everything is averaged over each block (branch
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
        k = len(weights)
        figures = {
            key: np.tensordot(weights, v.reshape(-1, k, *v.shape[1:]), axes=([0], [1]))
            for key, v in figures.items()
        }
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
        sudden_death_reached=reached,
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
    recorded = start.bid is not None or start.choice is not None
    delta, w = piecewise_normal_nodes(sigma, [] if recorded else _decision_breaks(pairing))
    nodes = pairing.expanded(np.zeros(len(delta), dtype=np.intp), delta)
    return solve(nodes, start=start), nodes, w


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


def match_odds(scenario: Scenario, *, rating_sd: bool = True) -> MatchOdds:
    """Exact odds of the match between the scenario's two players.

    Games already played (``[[played]]``) are replayed first and the odds start from there
    (``games`` still counts every game of the match); a withdrawn player loses by walkover
    (:mod:`knockout.rules.walkover`). Rating uncertainty (players' ``rating_sd``) is integrated
    over (:func:`knockout.rules.uncertainty.piecewise_normal_nodes`, split where a rational
    decision flips); with ``rating_sd=False`` the ratings are taken as exact, and where there
    is uncertainty the answer also gives those odds (``win_if_ratings_exact``).

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
    rep = scenario.position
    pairing = Pairing.of(fmt, a, b, model=scenario.model, strategy=scenario.strategy)
    walkover = scenario.event_state().walkover((1, 0), a.name, b.name)
    finished = rep.finished
    if walkover is not None or finished is not None:
        if walkover is not None:
            winner, stage = walkover, None
        else:
            assert finished is not None
            winner = names[finished.winner]
            stage = fmt.playable[finished.stage].name
        return MatchOdds.certain(
            names,
            winner,
            fmt.stage_names,
            decided_in=stage,
            games=rep.games,
            sudden_death=sudden_death_of(pairing, names),
        )
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
        exact_ratings = match_odds(scenario, rating_sd=False)
        odds = replace(odds, win_if_ratings_exact=exact_ratings.win)
    assert math.isclose(sum(odds.win.values()) + odds.unresolved, 1.0, abs_tol=1e-9)
    return odds
