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

__all__ = ["from_solution", "match_odds", "sudden_death_of", "sudden_deaths"]


def sudden_deaths(
    pairing: Pairing, players: tuple[str, str], sol: MatchSolution | None = None
) -> list[SuddenDeath] | None:
    """The sudden-death game laid open for every pair of ``pairing`` (None without a bidding
    stage), computed once for all pairs.

    Branch values are the true model's P(甲 advances) on each branch's colours and clocks;
    ``reached``, ``chooser`` and ``advances`` come from the solution (not reached without one).
    """
    game = pairing.bidding_game
    if game is None:
        return None
    n = pairing.size
    zero = np.zeros(n)
    reached = zero if sol is None else sol.bidding_reached
    a_chooses = zero if sol is None else sol.chooser_is_a
    a_wins = zero if sol is None else sol.chooser_a_advances
    all_wins = zero if sol is None else sol.chooser_advances
    shares = (a_chooses, reached - a_chooses)
    wins = (a_wins, all_wins - a_wins)
    per_side = []
    for side in (0, 1):
        x = pairing.advantage(0 if side == 0 else 1)
        p = pairing.strategy.probabilities(game, x)
        per_side.append((game.branch_values(x), p.announce_red, p.object_if_red, p.object_if_black))
    clocks = {
        key: game.effective(game.menu.assignment(a, r)[1])
        for key, (a, r) in zip(BRANCH_NAMES, BRANCHES, strict=True)
    }
    out = []
    for i in range(n):
        as_chooser: dict[str, dict[str, float | None]] = {}
        decisions: dict[str, tuple[float, float, float]] = {}
        for side, name in enumerate(players):
            values, red, obj_red, obj_black = per_side[side]
            branch: dict[str, float | None] = {
                key: float(v) for key, v in zip(BRANCH_NAMES, values[i], strict=True)
            }
            share = float(shares[side][i])
            branch["advances"] = float(wins[side][i]) / share if share > 0 else None
            as_chooser[name] = branch
            decisions[name] = (float(red[i]), float(obj_red[i]), float(obj_black[i]))
        r = float(reached[i])
        chooser = None
        if r > 0:
            chooser = {players[0]: float(shares[0][i]) / r, players[1]: float(shares[1][i]) / r}
        out.append(SuddenDeath(r, game.time_class.value, chooser, as_chooser, clocks, decisions))
    return out


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
