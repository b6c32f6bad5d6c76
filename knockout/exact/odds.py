"""Exact odds of a two-player match (:class:`knockout.odds.MatchOdds`)."""

from __future__ import annotations

import math

import numpy as np

from knockout.errors import KnockoutError
from knockout.exact.solver import MatchSolution, solve
from knockout.io.scenario import Scenario
from knockout.odds import MatchOdds, SuddenDeath
from knockout.rules.bidding import BRANCH_NAMES, BRANCHES
from knockout.rules.match import Finished, Pairing, replay

__all__ = ["from_solution", "match_odds", "sudden_death_of"]


def sudden_death_of(
    pairing: Pairing, players: tuple[str, str], sol: MatchSolution | None = None, index: int = 0
) -> SuddenDeath | None:
    """The sudden-death game laid open for pair ``index`` (None without a bidding stage).

    Branch values are the true model's P(甲 advances) on each branch's colours and clocks;
    ``reached``, ``chooser`` and ``advances`` come from the solution (not reached without one).
    """
    game = pairing.bidding_game
    if game is None:
        return None
    i = index
    reached = 0.0 if sol is None else float(sol.bidding_reached[i])
    a_chooses = 0.0 if sol is None else float(sol.chooser_is_a[i])
    a_wins = 0.0 if sol is None else float(sol.chooser_a_advances[i])
    all_wins = 0.0 if sol is None else float(sol.chooser_advances[i])
    shares = (a_chooses, reached - a_chooses)
    wins = (a_wins, all_wins - a_wins)
    as_chooser: dict[str, dict[str, float | None]] = {}
    decisions: dict[str, tuple[float, float, float]] = {}
    for side, name in enumerate(players):
        x = pairing.advantage(0 if side == 0 else 1)
        values = game.branch_values(x)[i]
        p = pairing.strategy.probabilities(game, x)
        decisions[name] = (
            float(p.announce_red[i]),
            float(p.object_if_red[i]),
            float(p.object_if_black[i]),
        )
        branch: dict[str, float | None] = {
            key: float(v) for key, v in zip(BRANCH_NAMES, values, strict=True)
        }
        branch["advances"] = wins[side] / shares[side] if shares[side] > 0 else None
        as_chooser[name] = branch
    chooser = (
        None if reached <= 0 else {players[0]: shares[0] / reached, players[1]: shares[1] / reached}
    )
    clocks = {
        key: game.effective(game.menu.assignment(a, r)[1])
        for key, (a, r) in zip(BRANCH_NAMES, BRANCHES, strict=True)
    }
    return SuddenDeath(reached, game.time_class.value, chooser, as_chooser, clocks, decisions)


def from_solution(
    sol: MatchSolution,
    players: tuple[str, str],
    index: int = 0,
    *,
    games_played: int = 0,
    pairing: Pairing | None = None,
) -> MatchOdds:
    """Pick pair ``index`` out of a (vectorised) solution.

    ``games_played``: games already played before the solution's start (added to ``games``);
    ``pairing``: the solution's pairing, to lay the sudden-death game open.
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
        sudden_death=None if pairing is None else sudden_death_of(pairing, players, sol, i),
    )


def match_odds(scenario: Scenario) -> MatchOdds:
    """Exact odds of the match between the scenario's two players.

    Games already played (``[[played]]``) are replayed first and the odds start from there
    (``games`` still counts every game of the match); a withdrawn player loses by walkover
    (:mod:`knockout.rules.walkover`).

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
    pairing = Pairing.of(fmt, a, b, model=scenario.model, strategy=scenario.strategy)
    walkover = scenario.event_state().walkover((1, 0), a.name, b.name)
    if walkover is not None or isinstance(rep.position, Finished):
        if walkover is not None:
            winner, stage = walkover, None
        else:
            assert isinstance(rep.position, Finished)
            winner = names[rep.position.winner]
            stage = fmt.playable[rep.position.stage].name
        return MatchOdds.certain(
            names,
            winner,
            fmt.stage_names,
            decided_in=stage,
            games=rep.games,
            sudden_death=sudden_death_of(pairing, names),
        )
    known = None if rep.p_a_chooses is None else np.array([rep.p_a_chooses])
    sol = solve(pairing, start=rep.position, p_a_chooses=known)
    odds = from_solution(sol, names, games_played=rep.games, pairing=pairing)
    assert math.isclose(sum(odds.win.values()) + odds.unresolved, 1.0, abs_tol=1e-9)
    return odds
