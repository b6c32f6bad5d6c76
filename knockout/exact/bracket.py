"""A knockout event: the draw, what has been played so far, and the exact odds of every player.

:class:`EventState` places the scenario's ``[[played]]`` games and withdrawals on the bracket:
each match whose two players are known gets its played games (replayed through the match chain)
or a walkover. :func:`bracket_odds` is the exact solver for the whole event: the match-probability
matrix for every pair (one vectorised pass of :func:`knockout.exact.solver.solve`), corrected for
matches in progress, then dynamic programming over the bracket, round by round (``O(n^2)`` per
round).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from enum import Enum
from typing import Any

import numpy as np
import numpy.typing as npt

from knockout.errors import Problem, ScenarioError
from knockout.exact.solver import MatchSolution, solve
from knockout.io.scenario import Scenario
from knockout.rules.bracket import Bracket, round_name
from knockout.rules.match import Finished, Pairing, PlayedGame, Replayed, replay

__all__ = [
    "BracketOdds",
    "EventState",
    "MatchProgress",
    "all_pairs",
    "bracket_odds",
    "match_matrix",
    "progress_solution",
]

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class MatchProgress:
    """A bracket match whose players are known and which has started (or was walked over).

    Attributes:
        round: Round number (from 1).
        index: Match index within the round.
        players: ``(upper line, lower line)`` names.
        games: Games already played, in order.
        replayed: Where the match stands after those games (None for a walkover with no games).
        walkover: Winner by walkover (the other player withdrew), if any.
    """

    round: int
    index: int
    players: tuple[str, str]
    games: tuple[PlayedGame, ...]
    replayed: Replayed | None
    walkover: str | None = None

    @property
    def winner(self) -> str | None:
        """The winner, if the match is decided."""
        if self.walkover is not None:
            return self.walkover
        if self.replayed is not None and isinstance(self.replayed.position, Finished):
            return self.players[self.replayed.position.winner]
        return None


@dataclass(frozen=True)
class EventState:
    """The draw and the results so far.

    Attributes:
        bracket: The draw.
        progress: Started, decided or walked-over matches, by ``(round, index)``.
        withdrawn: Players who withdrew (they lose their next undecided match by walkover).
    """

    bracket: Bracket
    progress: dict[tuple[int, int], MatchProgress]
    withdrawn: frozenset[str]

    @classmethod
    def of(cls, scenario: Scenario) -> EventState:
        """Place the scenario's played games and withdrawals on its bracket.

        Raises:
            ScenarioError: Played games between players who cannot (yet) have met.
        """
        bracket = Bracket.draw(
            scenario.players,
            seeding=scenario.bracket.seeding,
            draw_seed=scenario.bracket.draw_seed,
            third_place=scenario.bracket.third_place,
        )
        withdrawn = frozenset(p.name for p in scenario.players if p.withdrawn)
        by_pair: dict[frozenset[str], list[tuple[int, PlayedGame]]] = defaultdict(list)
        for i, g in enumerate(scenario.played):
            by_pair[frozenset((g.red, g.black))].append((i, g))
        progress: dict[tuple[int, int], MatchProgress] = {}
        winners: dict[tuple[int, int], str | None] = {}
        for k in range(1, bracket.rounds + 1):
            for m in range(bracket.size >> k):
                up, down = _side(bracket, winners, k, 2 * m), _side(bracket, winners, k, 2 * m + 1)
                if up is _BYE or down is _BYE:
                    other = down if up is _BYE else up
                    winners[(k, m)] = other if isinstance(other, str) else None
                    continue
                if not isinstance(up, str) or not isinstance(down, str):
                    winners[(k, m)] = None
                    continue
                games = tuple(g for _, g in by_pair.pop(frozenset((up, down)), []))
                replayed = replay(scenario.format, up, down, games) if games else None
                p = MatchProgress(k, m, (up, down), games, replayed)
                if p.winner is None and (up in withdrawn or down in withdrawn):
                    loser = down if down in withdrawn else up
                    if up in withdrawn and down in withdrawn:
                        loser = max(up, down, key=lambda n: bracket.seeds[n])
                    p = MatchProgress(
                        k, m, (up, down), games, replayed, up if loser == down else down
                    )
                if games or p.walkover is not None:
                    progress[(k, m)] = p
                winners[(k, m)] = p.winner
        problems = []
        for games_left in by_pair.values():
            for i, g in games_left:
                k, _ = bracket.meeting_round(g.red, g.black)
                problems.append(
                    Problem(
                        scenario.source,
                        f"played[{i}]",
                        f"{g.red} and {g.black} can only meet in {round_name(k, bracket.rounds)}"
                        " (round {}), and an earlier match of theirs is not decided".format(k),
                    )
                )
        if problems:
            raise ScenarioError(problems)
        return cls(bracket, progress, withdrawn)

    def winner(self, k: int, m: int) -> str | None:
        """The decided winner of match ``m`` of round ``k``, if any."""
        p = self.progress.get((k, m))
        return None if p is None else p.winner


class _Empty(Enum):
    BYE = "bye"


_BYE = _Empty.BYE


def _side(
    bracket: Bracket, winners: dict[tuple[int, int], str | None], k: int, block: int
) -> str | _Empty | None:
    """Who comes out of ``block`` into round ``k``: a name, None (not known yet) or _BYE."""
    if k == 1:
        name = bracket.lines[block]
        return _BYE if name is None else name
    return winners[(k - 1, block)]


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
    known = progress.replayed.chooser
    return solve(
        pairing,
        start=progress.replayed.position,
        p_a_chooses=None if known is None else np.array([1.0 if known == 0 else 0.0]),
    )


@dataclass(frozen=True)
class BracketOdds:
    """Exact odds of a knockout event.

    Attributes:
        players: Names in scenario order.
        round_names: ``round 1``, ..., ``semi-final``, ``final``.
        reach: Per player: P(still in at the start of round k) for k = 1..rounds (a bye counts
            as still in), then P(winning the event).
        bracket: The draw the odds are for.
    """

    players: tuple[str, ...]
    round_names: tuple[str, ...]
    reach: dict[str, list[float]]
    bracket: Bracket

    @property
    def win(self) -> dict[str, float]:
        """P(each player wins the event)."""
        return {name: r[-1] for name, r in self.reach.items()}

    def to_json(self) -> dict[str, Any]:
        """``players``, ``win``, ``reach``, ``rounds`` and the draw."""
        return {
            "players": list(self.players),
            "win": self.win,
            "reach": {name: list(r) for name, r in self.reach.items()},
            "rounds": list(self.round_names),
            "bracket": {
                "lines": list(self.bracket.lines),
                "seeds": dict(self.bracket.seeds),
                "byes": list(self.bracket.byes()),
            },
        }


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
    for w in state.withdrawn:  # loses every match not already decided otherwise
        m[index[w], :] = 0.0
        m[:, index[w]] = 1.0
        m[index[w], index[w]] = 0.0
    for a in state.withdrawn:
        for b in state.withdrawn:
            if a != b:
                better = bracket.seeds[a] < bracket.seeds[b]
                m[index[a], index[b]] = 1.0 if better else 0.0
    for p in state.progress.values():
        i, j = index[p.players[0]], index[p.players[1]]
        if p.winner is not None:
            p_up = 1.0 if p.winner == p.players[0] else 0.0
        else:
            p_up = float(progress_solution(scenario, p).win[0, 0])
        m[i, j], m[j, i] = p_up, 1.0 - p_up
    return m


def bracket_odds(scenario: Scenario) -> BracketOdds:
    """Exact odds of every player reaching each round and winning the event."""
    state = EventState.of(scenario)
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
