"""Game records of a Swiss or round-robin event: one entry per player per round.

A :class:`CrossTable` holds, for every player and every round, an :class:`Entry`: the opponent
(``None`` for byes and absences), the colour played, the outcome from that player's side, how the
entry came about (:class:`Kind`: played over the board, forfeit, a kind of bye, absence) and the
points it earned. Points are exact :class:`~decimal.Decimal` values supplied by whoever builds the
records, so tie-breaks work under any scoring system (1 / 0.5 / 0, 2.1 for a Black win and 1.9 for
a Red win, ...). A :class:`PointScale` turns outcomes into points for the readers (CSV, TRF); the
default, :data:`CLASSICAL`, is the chess scale: win 1, draw 0.5, loss 0, and the same for byes and
forfeits.

Tie-breaks and rankings over these records live in :mod:`knockout.standings.tiebreaks`.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from enum import StrEnum
from functools import cached_property
from types import MappingProxyType

from knockout.errors import Problem
from knockout.game import Colour, Result
from knockout.points import ScoringSystem

__all__ = [
    "CLASSICAL",
    "CrossTable",
    "Entry",
    "Kind",
    "Outcome",
    "PointScale",
    "absent_entry",
    "bye_entry",
    "bye_outcome",
    "forfeit_entries",
    "game_entries",
    "normalise_name",
]


class Outcome(StrEnum):
    """A round's outcome from one player's side."""

    WIN = "win"
    DRAW = "draw"
    LOSS = "loss"

    @property
    def reverse(self) -> Outcome:
        """The opponent's outcome."""
        if self is Outcome.WIN:
            return Outcome.LOSS
        if self is Outcome.LOSS:
            return Outcome.WIN
        return Outcome.DRAW

    @classmethod
    def from_result(cls, result: Result, colour: Colour) -> Outcome:
        """The outcome of the player who had ``colour`` in a game that ended ``result``.

        >>> Outcome.from_result(Result.BLACK, Colour.RED)
        <Outcome.LOSS: 'loss'>
        """
        if result is Result.DRAW:
            return cls.DRAW
        won = (result is Result.RED) == (colour is Colour.RED)
        return cls.WIN if won else cls.LOSS

    def to_result(self, colour: Colour) -> Result:
        """The board result of a game in which the player with ``colour`` had this outcome."""
        if self is Outcome.DRAW:
            return Result.DRAW
        red_won = (self is Outcome.WIN) == (colour is Colour.RED)
        return Result.RED if red_won else Result.BLACK


class Kind(StrEnum):
    """How an entry came about (the TRF-16 result code in brackets)."""

    PLAYED = "played"
    """A game played over the board (``1 = 0``; also ``W D L``, games of less than one move)."""
    FORFEIT = "forfeit"
    """A scheduled game that was not played: a forfeit win or loss (``+ -``)."""
    PAIRING_BYE = "pairing-bye"
    """A pairing-allocated bye (``U``): the odd player out, not voluntary."""
    FULL_BYE = "full-bye"
    """A full-point bye (``F``)."""
    HALF_BYE = "half-bye"
    """A half-point bye (``H``), usually requested."""
    ZERO_BYE = "zero-bye"
    """A zero-point bye (``Z``): a known absence."""
    ABSENT = "absent"
    """Not paired and no record at all (a blank TRF round, no CSV row)."""


_BYE_OUTCOME: Mapping[Kind, Outcome] = {
    Kind.PAIRING_BYE: Outcome.WIN,
    Kind.FULL_BYE: Outcome.WIN,
    Kind.HALF_BYE: Outcome.DRAW,
    Kind.ZERO_BYE: Outcome.LOSS,
    Kind.ABSENT: Outcome.LOSS,
}


def bye_outcome(kind: Kind) -> Outcome:
    """The outcome of a bye or absence: a full-point bye is a win, a half-point bye a draw, ...

    Raises:
        ValueError: For ``PLAYED`` and ``FORFEIT``, which can have any outcome.
    """
    try:
        return _BYE_OUTCOME[kind]
    except KeyError:
        raise ValueError(f"not a bye: {kind}") from None


@dataclass(frozen=True)
class Entry:
    """One player's record of one round.

    Attributes:
        round: Round number, from 1.
        opponent: The (scheduled) opponent's name; ``None`` for byes and absences.
        colour: The colour played (or scheduled, for a forfeit); ``None`` when there was no game.
        outcome: Win, draw or loss from this player's side (a half-point bye is a draw).
        kind: Played over the board, forfeit, a bye or an absence.
        points: The points this entry earned, in whatever scoring system the event uses.
    """

    round: int
    opponent: str | None
    colour: Colour | None
    outcome: Outcome
    kind: Kind
    points: Decimal

    def __post_init__(self) -> None:
        if self.round < 1:
            raise ValueError(f"round must be at least 1, got {self.round}")
        if not isinstance(self.points, Decimal):
            raise TypeError(f"points must be a Decimal, got {self.points!r}")
        if self.kind in (Kind.PLAYED, Kind.FORFEIT):
            if self.opponent is None:
                raise ValueError(f"a {self.kind} entry needs an opponent")
            if self.kind is Kind.PLAYED and self.colour is None:
                raise ValueError("a game played over the board needs a colour")
            if self.kind is Kind.FORFEIT and self.outcome is Outcome.DRAW:
                raise ValueError("a forfeit is won or lost, not drawn")
        else:
            if self.opponent is not None or self.colour is not None:
                raise ValueError(f"a {self.kind} entry has no opponent and no colour")
            if self.outcome is not _BYE_OUTCOME[self.kind]:
                raise ValueError(f"a {self.kind} entry is a {_BYE_OUTCOME[self.kind]}")

    @property
    def is_played(self) -> bool:
        """Whether a game was played over the board."""
        return self.kind is Kind.PLAYED

    @property
    def is_voluntarily_unplayed(self) -> bool:
        """A voluntarily unplayed round (FIDE C.07's *VUR*).

        Half- and zero-point byes, absences and forfeit losses. Pairing-allocated and full-point
        byes and forfeit wins are unplayed but not voluntary.
        """
        if self.kind is Kind.FORFEIT:
            return self.outcome is Outcome.LOSS
        return self.kind in (Kind.HALF_BYE, Kind.ZERO_BYE, Kind.ABSENT)


@dataclass(frozen=True)
class PointScale:
    """Points for every kind of entry: a scoring system for games plus the unplayed values.

    Attributes:
        name: Short name for listings.
        played: Points of games played over the board, by colour and result.
        unplayed_win: A forfeit win, a full-point or a pairing-allocated bye.
        unplayed_draw: A half-point bye; also the value of a draw where FIDE C.07 evaluates an
            unplayed round "as a draw".
        unplayed_loss: A forfeit loss, a zero-point bye, an absence.
    """

    name: str
    played: ScoringSystem
    unplayed_win: Decimal
    unplayed_draw: Decimal
    unplayed_loss: Decimal = Decimal(0)

    def points(self, kind: Kind, outcome: Outcome, colour: Colour | None) -> Decimal:
        """Points of an entry of ``kind`` with ``outcome``, played with ``colour``.

        >>> CLASSICAL.points(Kind.PLAYED, Outcome.DRAW, Colour.BLACK)
        Decimal('0.5')
        """
        if kind is Kind.PLAYED:
            if colour is None:
                raise ValueError("a game played over the board needs a colour")
            return self.played.points_for(colour, outcome.to_result(colour))
        if outcome is Outcome.WIN:
            return self.unplayed_win
        if outcome is Outcome.DRAW:
            return self.unplayed_draw
        return self.unplayed_loss


CLASSICAL = PointScale(
    "classical",
    ScoringSystem(
        "classical",
        Decimal(1),
        Decimal(1),
        Decimal("0.5"),
        Decimal("0.5"),
        description="win 1, draw 0.5, loss 0 (chess, RULES.md section 4)",
    ),
    unplayed_win=Decimal(1),
    unplayed_draw=Decimal("0.5"),
)
"""Win 1, draw 1/2, loss 0, for games, byes and forfeits alike: the default for standings."""


def game_entries(
    round: int, red: str, black: str, result: Result, *, scale: PointScale = CLASSICAL
) -> tuple[tuple[str, Entry], tuple[str, Entry]]:
    """The two entries of a game played over the board: ``((red, entry), (black, entry))``."""
    pair = []
    for player, opponent, colour in ((red, black, Colour.RED), (black, red, Colour.BLACK)):
        outcome = Outcome.from_result(result, colour)
        points = scale.points(Kind.PLAYED, outcome, colour)
        pair.append((player, Entry(round, opponent, colour, outcome, Kind.PLAYED, points)))
    return pair[0], pair[1]


def forfeit_entries(
    round: int,
    first: str,
    second: str,
    first_outcome: Outcome,
    *,
    first_colour: Colour | None = None,
    double: bool = False,
    scale: PointScale = CLASSICAL,
) -> tuple[tuple[str, Entry], tuple[str, Entry]]:
    """The two entries of a scheduled game that was not played.

    Args:
        round: Round number.
        first: One player.
        second: The other.
        first_outcome: ``WIN`` if ``second`` did not turn up, ``LOSS`` if ``first`` did not.
        first_colour: The colour ``first`` was scheduled to play, if known.
        double: Neither turned up: both lose (``first_outcome`` must then be ``LOSS``).
        scale: Points of a forfeit win and loss.
    """
    second_outcome = Outcome.LOSS if double else first_outcome.reverse
    second_colour = None if first_colour is None else first_colour.other
    out = []
    for player, opponent, outcome, colour in (
        (first, second, first_outcome, first_colour),
        (second, first, second_outcome, second_colour),
    ):
        points = scale.points(Kind.FORFEIT, outcome, colour)
        out.append((player, Entry(round, opponent, colour, outcome, Kind.FORFEIT, points)))
    return out[0], out[1]


def bye_entry(round: int, kind: Kind, *, scale: PointScale = CLASSICAL) -> Entry:
    """A bye or absence entry of ``kind`` (not ``PLAYED`` or ``FORFEIT``)."""
    if kind in (Kind.PLAYED, Kind.FORFEIT):
        raise ValueError(f"not a bye: {kind}")
    outcome = _BYE_OUTCOME[kind]
    return Entry(round, None, None, outcome, kind, scale.points(kind, outcome, None))


def absent_entry(round: int, *, scale: PointScale = CLASSICAL) -> Entry:
    """The entry of a player who was not paired in ``round`` and has no record."""
    return bye_entry(round, Kind.ABSENT, scale=scale)


@dataclass(frozen=True)
class CrossTable:
    """Every player's entries, round by round: the input of tie-breaks and rankings.

    Build one with :meth:`from_entries`, which fills rounds a player has no entry for with
    absences and checks that the two sides of every game agree.

    Attributes:
        players: Player names in starting order (TRF starting rank, or order of appearance).
        entries: ``entries[name][r - 1]`` is the entry of round ``r``; every player has one
            entry per round.
        draw_points: What a draw is worth where FIDE C.07 evaluates an unplayed round "as a draw"
            (the rounds after a player withdrew, when that player is someone's opponent).
        title: The event's name, if known.
        start_date: The day the event started (a TRF's record 042), if known: it decides which
            version of FIDE's tie-break rules applies (:mod:`knockout.standings.conventions`).
        tournament_type: The type of tournament as the file states it (a TRF's record 092, such
            as ``Individual: Swiss-System``), if it does.
        warnings: What the file says that disagrees with its results but does not stop a
            ranking (a TRF points column that does not add up), to tell the user.
    """

    players: tuple[str, ...]
    entries: Mapping[str, tuple[Entry, ...]]
    draw_points: Decimal = Decimal("0.5")
    title: str = ""
    start_date: date | None = None
    tournament_type: str = ""
    warnings: tuple[Problem, ...] = field(default=(), compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "entries", MappingProxyType(dict(self.entries)))
        problems = self.inconsistencies()
        if problems:
            raise ValueError("inconsistent cross table: " + "; ".join(problems))

    @classmethod
    def from_entries(
        cls,
        players: Sequence[str],
        entries: Iterable[tuple[str, Entry]],
        *,
        rounds: int | None = None,
        draw_points: Decimal = Decimal("0.5"),
        title: str = "",
        scale: PointScale = CLASSICAL,
        start_date: date | None = None,
        tournament_type: str = "",
    ) -> CrossTable:
        """A cross table from ``(player, entry)`` pairs; missing rounds become absences.

        Args:
            players: Every player, in starting order (unique names).
            entries: At most one entry per player and round.
            rounds: Number of rounds; default: the highest round with an entry.
            draw_points: See the class attributes.
            title: The event's name.
            scale: Points of an absence (normally 0).
            start_date: The day the event started, if known.
            tournament_type: The type of tournament as the file states it, if it does.

        Raises:
            ValueError: For duplicate players or entries, unknown players, or the two sides of a
                game disagreeing.
        """
        names = tuple(players)
        if len(set(names)) != len(names):
            raise ValueError("duplicate player names")
        by_player: dict[str, dict[int, Entry]] = {name: {} for name in names}
        for player, entry in entries:
            if player not in by_player:
                raise ValueError(f"entry for unknown player {player!r}")
            if entry.round in by_player[player]:
                raise ValueError(f"two entries for {player!r} in round {entry.round}")
            by_player[player][entry.round] = entry
        n = rounds
        if n is None:
            n = max((r for rows in by_player.values() for r in rows), default=0)
        table = {
            name: tuple(rows.get(r) or absent_entry(r, scale=scale) for r in range(1, n + 1))
            for name, rows in by_player.items()
        }
        too_late = [name for name, rows in by_player.items() if any(r > n for r in rows)]
        if too_late:
            raise ValueError(f"entries after round {n} for {too_late[0]!r}")
        return cls(
            names,
            table,
            draw_points=draw_points,
            title=title,
            start_date=start_date,
            tournament_type=tournament_type,
        )

    def inconsistencies(self) -> list[str]:
        """Every way the table contradicts itself (empty for a valid table)."""
        problems: list[str] = []
        if len(set(self.players)) != len(self.players):
            problems.append("duplicate player names")
        if set(self.entries) != set(self.players):
            problems.append("entries and players name different people")
            return problems
        counts = {len(rows) for rows in self.entries.values()}
        if len(counts) > 1:
            problems.append("players have different numbers of rounds")
            return problems
        for name in self.players:
            for index, entry in enumerate(self.entries[name]):
                problem = self._entry_problem(name, index, entry)
                if problem is not None:
                    problems.append(problem)
        return problems

    def _entry_problem(self, name: str, index: int, entry: Entry) -> str | None:
        """How ``name``'s entry at ``index`` contradicts the table, if it does."""
        if entry.round != index + 1:
            return f"{name!r}: entry {index + 1} is for round {entry.round}"
        if entry.opponent is None:
            return None
        where = f"{name!r} round {entry.round}"
        if entry.opponent == name:
            return f"{where}: plays themself"
        if entry.opponent not in self.entries:
            return f"{where}: unknown opponent {entry.opponent!r}"
        other = self.entries[entry.opponent][index]
        if other.opponent != name or other.kind is not entry.kind:
            return f"{where}: {entry.opponent!r} has no matching entry"
        if entry.kind is Kind.PLAYED and (
            other.outcome is not entry.outcome.reverse or other.colour is entry.colour
        ):
            return f"{where}: the two sides of the game disagree"
        if entry.kind is Kind.FORFEIT and (
            (entry.outcome is Outcome.WIN and other.outcome is not Outcome.LOSS)
            or (entry.colour is not None and other.colour is entry.colour)
        ):
            return f"{where}: the two sides of the forfeit disagree"
        return None

    @property
    def rounds(self) -> int:
        """Number of rounds."""
        return len(self.entries[self.players[0]]) if self.players else 0

    @cached_property
    def scores(self) -> Mapping[str, Decimal]:
        """Each player's total points."""
        return MappingProxyType(
            {name: sum((e.points for e in rows), Decimal(0)) for name, rows in self.entries.items()}
        )

    def score(self, player: str) -> Decimal:
        """``player``'s total points."""
        return self.scores[player]

    def entry(self, player: str, round: int) -> Entry:
        """``player``'s entry of ``round`` (from 1)."""
        return self.entries[player][round - 1]


_CJK = r"[\u2e80-\u9fff\uf900-\ufaff\U00020000-\U0003ffff]"


@functools.cache
def _space_between_cjk() -> re.Pattern[str]:
    """Compiled on first use: a short command that reads no names does not pay ~10 ms for it."""
    return re.compile(rf"(?<={_CJK})\s+(?={_CJK})")


def normalise_name(name: str) -> str:
    """Trim a name, collapse inner white space, and drop it between Chinese characters.

    >>> normalise_name(" 程 鸣 ")
    '程鸣'
    >>> normalise_name("Wang   Tianyi")
    'Wang Tianyi'
    """
    collapsed = " ".join(name.split())
    return _space_between_cjk().sub("", collapsed)
