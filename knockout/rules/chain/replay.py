"""The games already played, walked once through the match chain.

A :class:`PlayedGame` is a game of a scenario's ``[[played]]`` list (or a decision recorded for
the next game); :func:`replay` walks them through the chain of :mod:`knockout.rules.chain.match`
and gives the match's :class:`~knockout.rules.chain.match.Position`, refusing a game that could
not have happened (:class:`ReplayError`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from knockout.game import Result
from knockout.rules.book.formats import Format
from knockout.rules.chain.match import (
    Finished,
    MatchState,
    Position,
    advance,
    initial_state,
    next_decision,
)
from knockout.rules.decisions.kinds import Bid, Cut, Fixed, Settled, Side, p_chooser_from_times
from knockout.rules.decisions.made import Made, MadeError

__all__ = [
    "PlayedGame",
    "ReplayError",
    "replay",
]


class ReplayError(ValueError):
    """A played game that cannot have happened; ``index`` is its position (from 0) and ``key``
    the entry's key at fault, when it is one key (``stage``, ``chooser``, ...)."""

    def __init__(self, index: int, reason: str, *, key: str | None = None) -> None:
        super().__init__(f"game {index + 1}: {reason}")
        self.index = index
        self.reason = reason
        self.key = key


@dataclass(frozen=True)
class PlayedGame:
    """A game already played, as given in a scenario's ``[[played]]`` list; or, without a
    result, a decision recorded for a game not played yet (a *decision entry*: the last entry
    of its match; its colours those the decision gives).

    Attributes:
        red: Red player's name.
        black: Black player's name.
        stage: Stage name.
        result: Over-the-board result (None: a decision entry, the game is still to be played).
        time_used: Seconds each player used, if known (decides 甲 for a following bidding game).
        made: The decision that set up the game's colours (and clocks), if the players took one:
            a bid, a colour choice, sealed bids, a cut (:mod:`knockout.rules.decisions.made`).
        moves: The moves made, if known (a record of the game; no rule reads it).
    """

    red: str
    black: str
    stage: str
    result: Result | None
    time_used: dict[str, float] | None = None
    made: Made | None = None
    moves: int | None = None

    @property
    def is_decision(self) -> bool:
        """A decision entry: the recorded decision of a game not played yet."""
        return self.result is None


def replay(fmt: Format, a: str, b: str, games: Sequence[PlayedGame]) -> Position:
    """Walk the chain through the games already played between ``a`` and ``b``.

    The last entry may be a decision entry (no result): the recorded bid, colour choice, cut or
    sealed bids of the next game, which must be a game whose players decide.

    Raises:
        ReplayError: A game that cannot have happened (wrong stage, wrong colours, a game after
            the match was decided, a decision that does not fit the rule or comes too early,
            an entry after a decision entry).
    """
    state: MatchState | Finished = initial_state()
    pending: tuple[Made, Settled] | None = None
    played = 0
    for n, game in enumerate(games):
        if pending is not None:
            raise ReplayError(
                n - 1,
                f"a {pending[0].words} without a result must be the last entry of its match "
                f"({a} v {b}), got a {game.stage} entry after it",
                key="result",
            )
        if isinstance(state, Finished):
            raise ReplayError(n, f"the match {a} v {b} was already decided")
        red = _entry_red(fmt, state, n, game, (a, b))
        previous = games[n - 1].time_used if n else None
        settled = _settled(fmt, state, n, game, (a, b), previous or {})
        if game.result is None:
            if settled is None or game.made is None:
                stage = fmt.playable[state.stage]
                raise ReplayError(
                    n, f"{stage.name} has no decision to record before its game", key="result"
                )
            pending = (game.made, settled)
            continue
        state = advance(fmt, state, red, game.result)
        played += 1
    made = None if pending is None else pending[1]
    p_a: float | None = None
    if isinstance(made, Bid):
        p_a = 1.0 if made.chooser == 0 else 0.0
    elif isinstance(made, Cut):
        p_a = 1.0 if made.cutter == 0 else 0.0
    elif isinstance(state, MatchState) and games:
        stage = fmt.playable[state.stage]
        menu = stage.bidding if stage.bidding is not None else stage.cut
        used = games[-1].time_used or {}
        if menu is not None and (stage.is_bidding or stage.is_cut):
            p_a = p_chooser_from_times(menu, used.get(a), used.get(b))
    return Position(state, played, p_a, made)


def _entry_red(
    fmt: Format, state: MatchState, n: int, game: PlayedGame, names: tuple[str, str]
) -> Side:
    """Who had Red in entry ``n``, checked: the match's players, its stage, colours that
    alternate where the rules say so."""
    a, b = names
    if {game.red, game.black} != {a, b}:
        raise ReplayError(n, f"players {game.red!r} and {game.black!r} are not {a!r} v {b!r}")
    stage = fmt.playable[state.stage]
    if game.stage != stage.name:
        if game.is_decision:
            what = "decision" if game.made is None else game.made.words
            raise ReplayError(
                n,
                f"expected a {stage.name} game here: the match {a} v {b} has not reached "
                f"the {game.stage} stage, so its {what} cannot be recorded yet",
                key="stage",
            )
        raise ReplayError(n, f"expected a {stage.name} game here, got {game.stage!r}")
    red: Side = 0 if game.red == a else 1
    decision = next_decision(fmt, state)
    if isinstance(decision, Fixed) and decision.red != red:
        raise ReplayError(
            n, f"{names[decision.red]} must have Red in this game (colours alternate)"
        )
    return red


def _settled(
    fmt: Format,
    state: MatchState,
    n: int,
    game: PlayedGame,
    names: tuple[str, str],
    times: Mapping[str, float],
) -> Settled | None:
    """The walkers' form of the decision entry ``n`` records, checked against the rule of the
    game it belongs to; None for a game that records none."""
    made = game.made
    if made is None:
        return None
    decision = next_decision(fmt, state)
    if not isinstance(decision, made.decision):
        stage = fmt.playable[state.stage]
        raise ReplayError(n, f"{stage.name} has no {made.words} to record", key=made.keys[0])
    try:
        return made.settle(decision, names, times, game.red)
    except MadeError as exc:
        raise ReplayError(n, exc.reason, key=exc.key) from None
