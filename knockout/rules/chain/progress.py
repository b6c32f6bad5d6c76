"""Where a knockout event stands: the draw, the games already played, the walkovers.

:meth:`EventState.of` places games already played (a scenario's ``[[played]]``) and withdrawals on
the bracket: each match whose two players are known gets its games (replayed through the match
chain, :func:`knockout.rules.chain.replay.replay`) or a walkover
(:mod:`knockout.rules.book.walkover`). The match for third place, when the event has one, is match
``THIRD_PLACE`` of the last round; its players are the losers of the two semi-finals. Every walker
(exact odds, Monte Carlo, SimPy event) starts from this one placement.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from knockout.errors import Problem, ScenarioError
from knockout.rules.book.bracket import Bracket, round_name
from knockout.rules.book.formats import Format
from knockout.rules.book.walkover import walkover_winner
from knockout.rules.chain.match import Finished, Position
from knockout.rules.chain.replay import PlayedGame, ReplayError, replay
from knockout.rules.chain.settings import BracketSettings
from knockout.rules.model.players import Player

__all__ = ["THIRD_PLACE", "EventState", "MatchProgress"]

#: Match index of the match for third place, in the last round (the final is match 0).
THIRD_PLACE = 1


@dataclass(frozen=True)
class MatchProgress:
    """A bracket match whose players are known and which has started (or was walked over).

    Attributes:
        round: Round number (from 1).
        index: Match index within the round (``THIRD_PLACE`` in the last round: third place).
        players: ``(upper line, lower line)`` names.
        games: Games already played, in order (the last may be a bid entry: the sudden-death
            choice of a game not played yet).
        replayed: Where the match stands after those games (None when no game was played).
        walkover: Winner by walkover (the other player withdrew), if any.
    """

    round: int
    index: int
    players: tuple[str, str]
    games: tuple[PlayedGame, ...]
    replayed: Position | None
    walkover: str | None = None

    @property
    def winner(self) -> str | None:
        """The winner, if the match is decided."""
        if self.walkover is not None:
            return self.walkover
        if self.replayed is not None and isinstance(self.replayed.state, Finished):
            return self.players[self.replayed.state.winner]
        return None


class _Empty(Enum):
    BYE = "bye"


_BYE = _Empty.BYE
Side = str | _Empty | None  # a name, a bye, or not known yet


@dataclass(frozen=True)
class EventState:
    """The draw and the results so far.

    Attributes:
        bracket: The draw.
        progress: Started, decided or walked-over matches, by ``(round, index)``.
        withdrawn: Players who withdrew (they lose their current match and any later one).
    """

    bracket: Bracket
    progress: dict[tuple[int, int], MatchProgress]
    withdrawn: frozenset[str]

    @classmethod
    def of(
        cls,
        players: Sequence[Player],
        fmt: Format,
        settings: BracketSettings,
        played: Sequence[PlayedGame] = (),
        *,
        source: str = "<scenario>",
    ) -> EventState:
        """Place the played games and withdrawals on the draw of ``players``.

        The games must be valid match by match (the scenario loader replays them first).

        Raises:
            ScenarioError: Played games between players who cannot have met (yet), one problem
                per game, saying which earlier result is missing or rules the meeting out.
        """
        bracket = Bracket.draw(
            players,
            seeding=settings.seeding,
            draw_seed=settings.draw_seed,
            third_place=settings.third_place,
        )
        placer = _Placer(bracket, fmt, frozenset(p.name for p in players if p.withdrawn), played)
        placer.place()
        problems = placer.replay_problems(source) + [
            Problem(source, f"played[{i}]", placer.why_not(g.red, g.black))
            for games in placer.unplaced.values()
            for i, g in games
        ]
        if problems:
            raise ScenarioError(sorted(problems, key=_entry_index))
        return cls(bracket, placer.progress, placer.withdrawn)

    def winner(self, k: int, m: int) -> str | None:
        """The decided winner of match ``m`` of round ``k``, if any."""
        p = self.progress.get((k, m))
        return None if p is None else p.winner

    def walkover(self, key: tuple[int, int], up: str, down: str) -> str | None:
        """Who wins match ``key`` (between ``up`` and ``down``) by walkover, or None if it is
        played. A match already decided by its games stays decided by them."""
        p = self.progress.get(key)
        if p is not None and p.walkover is None and p.winner is not None:
            return None
        return walkover_winner(up, down, withdrawn=self.withdrawn, seeds=self.bracket.seeds)

    @property
    def third_place(self) -> MatchProgress | None:
        """The match for third place, if it has started or was walked over."""
        return self.progress.get((self.bracket.rounds, THIRD_PLACE))


def _entry_index(problem: Problem) -> int:
    """The ``[[played]]`` index a problem names (``played[3]``, ``played[3].chooser``)."""
    return int(problem.key[len("played[") :].split("]", 1)[0])


class _Placer:
    """Walks the draw round by round, placing games and walkovers (used once by EventState.of)."""

    def __init__(
        self,
        bracket: Bracket,
        fmt: Format,
        withdrawn: frozenset[str],
        played: Sequence[PlayedGame],
    ) -> None:
        self.bracket = bracket
        self.fmt = fmt
        self.withdrawn = withdrawn
        self.unplaced: dict[frozenset[str], list[tuple[int, PlayedGame]]] = defaultdict(list)
        for i, g in enumerate(played):
            self.unplaced[frozenset((g.red, g.black))].append((i, g))
        self.progress: dict[tuple[int, int], MatchProgress] = {}
        self.refused: list[tuple[int, ReplayError]] = []
        self.players: dict[tuple[int, int], tuple[str, str]] = {}
        self.winners: dict[tuple[int, int], str | None] = {}

    def place(self) -> None:
        bracket = self.bracket
        for k in range(1, bracket.rounds + 1):
            for m in range(bracket.size >> k):
                up, down = self._side(k, 2 * m), self._side(k, 2 * m + 1)
                if up is _BYE or down is _BYE:
                    other = down if up is _BYE else up
                    self.winners[(k, m)] = other if isinstance(other, str) else None
                elif isinstance(up, str) and isinstance(down, str):
                    self.winners[(k, m)] = self._match(k, m, up, down)
                else:
                    self.winners[(k, m)] = None
        semi_losers = self._semi_losers()
        if bracket.third_place and semi_losers is not None:
            self._match(bracket.rounds, THIRD_PLACE, *semi_losers)

    def _side(self, k: int, block: int) -> Side:
        """Who comes out of ``block`` into round ``k``."""
        if k == 1:
            name = self.bracket.lines[block]
            return _BYE if name is None else name
        return self.winners[(k - 1, block)]

    def replay_problems(self, source: str) -> list[Problem]:
        """The games a match's chain refused, one problem each (its entry and key)."""
        return [
            Problem(source, f"played[{i}]" + ("" if exc.key is None else f".{exc.key}"), exc.reason)
            for i, exc in self.refused
        ]

    def _match(self, k: int, m: int, up: str, down: str) -> str | None:
        entries = self.unplaced.pop(frozenset((up, down)), [])
        games = tuple(g for _, g in entries)
        try:
            replayed = replay(self.fmt, up, down, games) if games else None
        except ReplayError as exc:
            self.refused.append((entries[exc.index][0], exc))
            games, replayed = (), None
        p = MatchProgress(k, m, (up, down), games, replayed)
        if p.winner is None:
            walkover = walkover_winner(up, down, withdrawn=self.withdrawn, seeds=self.bracket.seeds)
            p = MatchProgress(k, m, (up, down), games, replayed, walkover)
        self.players[(k, m)] = (up, down)
        if games or p.walkover is not None:
            self.progress[(k, m)] = p
        return p.winner

    def _semi_losers(self) -> tuple[str, str] | None:
        k = self.bracket.rounds - 1
        if k < 1:
            return None
        losers = []
        for m in (0, 1):
            pair, winner = self.players.get((k, m)), self.winners.get((k, m))
            if pair is None or winner is None:
                return None
            losers.append(pair[1] if winner == pair[0] else pair[0])
        return losers[0], losers[1]

    def why_not(self, a: str, b: str) -> str:
        """Why games between ``a`` and ``b`` cannot be placed: the first missing result."""
        bracket = self.bracket
        for name in (a, b):
            if name not in bracket.lines:
                return f"{name!r} is not in the draw"
        k, _ = bracket.meeting_round(a, b)
        final_or_third = k == bracket.rounds and bracket.third_place and k > 1
        where = f"{a} and {b} can only meet in the {round_name(k, bracket.rounds)} (round {k})"
        if final_or_third:
            where += " or in the match for third place"
        for name in (a, b):
            reason = self._blocked(name, k, semi_loss_ok=final_or_third)
            if reason is not None:
                return f"{where}, and {reason}"
        # Only the final or third place is left, and one of them won their semi-final.
        semi = bracket.rounds - 1
        won = [n for n in (a, b) if self._won(n, semi)]
        lost = [n for n in (a, b) if n not in won]
        return f"{where}, and {won[0]} won their semi-final while {lost[0]} lost theirs"

    def _won(self, name: str, k: int) -> bool:
        line = self.bracket.lines.index(name)
        return self.winners.get((k, line >> k)) == name

    def _blocked(self, name: str, k: int, *, semi_loss_ok: bool) -> str | None:
        """What stops ``name`` from playing in round ``k``: an undecided or lost earlier match."""
        rounds = self.bracket.rounds
        line = self.bracket.lines.index(name)
        for j in range(1, k):
            m = line >> j
            pair = self.players.get((j, m))
            if pair is None:
                if self.winners.get((j, m)) == name:
                    continue  # a bye
                return f"{name}'s {round_name(j, rounds)} opponent is not known yet"
            winner = self.winners[(j, m)]
            if winner is None:
                return f"their {round_name(j, rounds)} match ({pair[0]} v {pair[1]}) is not decided"
            if winner != name and not (semi_loss_ok and j == rounds - 1):
                return f"{name} lost in the {round_name(j, rounds)} to {winner}"
        return None
