"""The games already played, walked once through the match chain.

A :class:`PlayedGame` is a game of a scenario's ``[[played]]`` list (or a decision recorded for
the next game); :func:`replay` walks them through the chain of :mod:`knockout.rules.chain.match`
and gives the match's :class:`~knockout.rules.chain.match.Position`, refusing a game that could
not have happened (:class:`ReplayError`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from knockout.game import Colour, Reply, Result
from knockout.rules.book.formats import BiddingMenu, Format
from knockout.rules.chain.match import (
    Finished,
    MatchState,
    Position,
    Recorded,
    advance,
    initial_state,
    next_decision,
    p_chooser_from_times,
)
from knockout.rules.decisions.kinds import (
    Bid,
    Bidding,
    Choice,
    ChoiceMade,
    Cut,
    CutChoice,
    Fixed,
    SealedBids,
    SealedMade,
    Side,
    other,
)

__all__ = [
    "PlayedGame",
    "ReplayError",
    "bid_colours",
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
    of its match; its colours those the decision gives): the sudden-death bid (``chooser``,
    ``announce``, ``reply``), a colour choice (``chooser``, ``colour``), a cut (``cutter``,
    ``red_minutes``, ``colour``: the colour the other player took) or sealed bids (``bids``,
    and ``lot_black`` when they are equal).

    Attributes:
        red: Red player's name.
        black: Black player's name.
        stage: Stage name.
        result: Over-the-board result (None: a decision entry, the game is still to be played).
        time_used: Seconds each player used, if known (decides 甲 for a following bidding game).
        chooser: 甲's name (a bid), or the player who chose the colours (a choice).
        announce: 甲's announcement, for a bid.
        reply: 乙's reply, for a bid.
        colour: The colour the chooser took, for a choice (for a cut: the colour the player
            who did not cut took).
        cutter: Who named Red's minutes, for a cut.
        red_minutes: Red's base minutes the cutter named, for a cut.
        bids: Each player's sealed bid (Black's minutes), by name.
        lot_black: With equal sealed bids: the player the lot gave Black.
    """

    red: str
    black: str
    stage: str
    result: Result | None
    time_used: dict[str, float] | None = None
    chooser: str | None = None
    announce: Colour | None = None
    reply: Reply | None = None
    colour: Colour | None = None
    cutter: str | None = None
    red_minutes: float | None = None
    bids: dict[str, float] | None = None
    lot_black: str | None = None

    @property
    def is_bid(self) -> bool:
        """A decision entry: the recorded choice of a game not played yet."""
        return self.result is None

    @property
    def is_decision(self) -> bool:
        """A decision entry (a bid or a colour choice without its result)."""
        return self.result is None

    @property
    def records_bid(self) -> bool:
        """The entry carries a sudden-death bid."""
        return self.announce is not None or self.reply is not None

    @property
    def records_choice(self) -> bool:
        """The entry carries a colour choice."""
        return self.colour is not None and not self.records_cut

    @property
    def records_cut(self) -> bool:
        """The entry carries a cut-and-choose decision."""
        return self.cutter is not None or self.red_minutes is not None

    @property
    def records_sealed(self) -> bool:
        """The entry carries sealed Armageddon bids."""
        return self.bids is not None or self.lot_black is not None


def bid_colours(
    menu: BiddingMenu, chooser: str, other_name: str, announce: Colour, reply: Reply
) -> tuple[str, str]:
    """``(Red, Black)`` by the bidding rule when ``chooser`` (甲) announces ``announce`` and
    ``other_name`` (乙) replies ``reply``.

    >>> bid_colours(BiddingMenu(), "A", "B", Colour.RED, Reply.OBJECT)
    ('B', 'A')
    """
    colour, _ = menu.assignment(announce, reply)
    return (chooser, other_name) if colour is Colour.RED else (other_name, chooser)


_WHAT: dict[type, str] = {
    Bid: "bid",
    ChoiceMade: "colour choice",
    Cut: "cut",
    SealedMade: "sealed bid",
}


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
    pending: Recorded | None = None
    played = 0
    for n, game in enumerate(games):
        if pending is not None:
            raise ReplayError(
                n - 1,
                f"a {_WHAT[type(pending)]} without a result must be the last entry of its match "
                f"({a} v {b}), got a {game.stage} entry after it",
                key="result",
            )
        if isinstance(state, Finished):
            raise ReplayError(n, f"the match {a} v {b} was already decided")
        red = _entry_red(fmt, state, n, game, (a, b))
        recorded = _recorded_decision(fmt, state, n, game, (a, b), games[n - 1] if n else None, red)
        if game.result is None:
            if recorded is None:
                stage = fmt.playable[state.stage]
                raise ReplayError(
                    n, f"{stage.name} has no decision to record before its game", key="result"
                )
            pending = recorded
            continue
        state = advance(fmt, state, red, game.result)
        played += 1
    bid = pending if isinstance(pending, Bid) else None
    choice = pending if isinstance(pending, ChoiceMade) else None
    cut = pending if isinstance(pending, Cut) else None
    sealed = pending if isinstance(pending, SealedMade) else None
    p_a: float | None = None
    if bid is not None:
        p_a = 1.0 if bid.chooser == 0 else 0.0
    elif cut is not None:
        p_a = 1.0 if cut.cutter == 0 else 0.0
    elif isinstance(state, MatchState) and games:
        stage = fmt.playable[state.stage]
        menu = stage.bidding if stage.bidding is not None else stage.cut
        used = games[-1].time_used or {}
        if menu is not None and (stage.is_bidding or stage.is_cut):
            p_a = p_chooser_from_times(menu, used.get(a), used.get(b))
    return Position(state, played, p_a, bid, choice, cut, sealed)


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
            raise ReplayError(
                n,
                f"expected a {stage.name} game here: the match {a} v {b} has not reached "
                f"the {game.stage} stage, so its {_entry_what(game)} cannot be recorded yet",
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


def _entry_what(game: PlayedGame) -> str:
    """What a decision entry records, in words."""
    if game.records_cut:
        return "cut"
    if game.records_sealed:
        return "sealed bid"
    return "colour choice" if game.records_choice else "bid"


def _recorded_decision(
    fmt: Format,
    state: MatchState,
    n: int,
    game: PlayedGame,
    names: tuple[str, str],
    previous: PlayedGame | None,
    red: Side,
) -> Recorded | None:
    """The decision entry ``n`` records (a bid, colour choice, cut or sealed bids), checked
    against the rule of the game it belongs to; None for a game that records none."""
    decision = next_decision(fmt, state)
    stage = fmt.playable[state.stage]
    if game.records_sealed:
        if not isinstance(decision, SealedBids):
            raise ReplayError(n, f"{stage.name} has no sealed bids", key="bids")
        return _recorded_sealed(n, game, names, red)
    if game.records_cut:
        if not isinstance(decision, CutChoice):
            raise ReplayError(n, f"{stage.name} has no cut-and-choose decision", key="cutter")
        return _recorded_cut(n, decision, game, names, previous, red)
    if game.records_bid or (game.chooser is not None and isinstance(decision, Bidding)):
        if not isinstance(decision, Bidding):
            key = "result" if game.is_decision else "chooser"
            raise ReplayError(n, f"{stage.name} has no sudden-death bid", key=key)
        return _recorded_bid(n, decision.menu, game, names, previous)
    if game.records_choice or (game.chooser is not None and isinstance(decision, Choice)):
        if not isinstance(decision, Choice):
            key = "colour" if game.records_choice else "chooser"
            raise ReplayError(n, f"{stage.name} has no colour choice to record", key=key)
        return _recorded_choice(n, decision, game, names, red)
    if game.chooser is not None:
        raise ReplayError(n, f"{stage.name} has no decision with a chooser", key="chooser")
    return None


def _recorded_sealed(n: int, game: PlayedGame, names: tuple[str, str], red: Side) -> SealedMade:
    """Sealed bids, checked: one bid from each player of the match, the lot's Black named for
    equal bids only, and Red the higher bid."""
    bids = game.bids or {}
    if set(bids) != set(names):
        raise ReplayError(
            n,
            f"expected one bid from each of {names[0]!r} and {names[1]!r}, got bids from "
            f"{', '.join(repr(k) for k in bids) or 'nobody'}",
            key="bids",
        )
    bid_a, bid_b = float(bids[names[0]]), float(bids[names[1]])
    if bid_a == bid_b:
        if game.lot_black not in names:
            raise ReplayError(
                n,
                f"expected lot_black = {names[0]!r} or {names[1]!r} (equal bids of {bid_a:g} "
                f"min: the lot gives Black), got {game.lot_black!r}",
                key="lot_black",
            )
        black: Side = 0 if game.lot_black == names[0] else 1
    elif game.lot_black is not None:
        raise ReplayError(
            n,
            f"expected no lot_black: the bids differ ({names[0]} {bid_a:g}, {names[1]} "
            f"{bid_b:g} min), so the lower bid plays Black",
            key="lot_black",
        )
    else:
        black = 0 if bid_a < bid_b else 1
    made = SealedMade((bid_a, bid_b), black)
    if made.red != red:
        raise ReplayError(
            n,
            f"expected {names[made.red]!r} as Red: {names[black]} plays Black (sealed bids "
            f"{names[0]} {bid_a:g}, {names[1]} {bid_b:g} min), got {game.red!r}",
            key="red",
        )
    return made


def _recorded_cut(
    n: int,
    decision: CutChoice,
    game: PlayedGame,
    names: tuple[str, str],
    previous: PlayedGame | None,
    red: Side,
) -> Cut:
    """A cut, checked: the cutter is a player of the match (the one the previous game's times
    name, if they do), and Red is who the chooser's colour gives Red to."""
    if game.cutter is None or game.red_minutes is None or game.colour is None:
        raise ReplayError(n, "a cut needs cutter, red_minutes and colour", key="cutter")
    if game.cutter not in names:
        raise ReplayError(
            n,
            f"expected {names[0]!r} or {names[1]!r} (the players of this match), got "
            f"{game.cutter!r}",
            key="cutter",
        )
    side: Side = 0 if game.cutter == names[0] else 1
    used = (previous.time_used if previous is not None else None) or {}
    p_a = p_chooser_from_times(decision.cut, used.get(names[0]), used.get(names[1]))
    if p_a in (0.0, 1.0) and names[0 if p_a == 1.0 else 1] != game.cutter:
        faster = names[0 if p_a == 1.0 else 1]
        times = ", ".join(f"{name} {used[name]:g} s" for name in names)
        raise ReplayError(
            n,
            f"expected {faster!r} as the cutter (used less time in the previous game: "
            f"{times}), got {game.cutter!r}",
            key="cutter",
        )
    made = Cut(side, float(game.red_minutes), game.colour)
    if made.red != red:
        chooser = names[other(side)]
        raise ReplayError(
            n,
            f"expected {names[made.red]!r} as Red: {chooser} chose {game.colour.value}, got "
            f"{game.red!r}",
            key="red",
        )
    return made


def _chooser_side(n: int, game: PlayedGame, names: tuple[str, str]) -> Side:
    chooser = game.chooser
    if chooser not in names:
        raise ReplayError(
            n,
            f"expected {names[0]!r} or {names[1]!r} (the players of this match), got {chooser!r}",
            key="chooser",
        )
    return 0 if chooser == names[0] else 1


def _recorded_choice(
    n: int, decision: Choice, game: PlayedGame, names: tuple[str, str], red: Side
) -> ChoiceMade:
    """A colour choice, checked: a chooser who may choose, and colours that follow from it."""
    if game.chooser is None or game.colour is None:
        raise ReplayError(n, "a colour choice needs chooser and colour", key="chooser")
    side = _chooser_side(n, game, names)
    if decision.chooser != "lot" and decision.chooser in names and decision.chooser != game.chooser:
        raise ReplayError(
            n,
            f"expected {decision.chooser!r} (the format names who chooses), got {game.chooser!r}",
            key="chooser",
        )
    if decision.side is not None and side != decision.side:
        had = "the first game" if decision.chooser == "first-black" else "the previous game"
        raise ReplayError(
            n,
            f"expected {names[decision.side]!r} (the format's chooser is the player who had "
            f"Black in {had}), got {game.chooser!r}",
            key="chooser",
        )
    made = ChoiceMade(side, game.colour)
    if made.red != red:
        raise ReplayError(
            n,
            f"expected {names[made.red]!r}: {game.chooser} chose {game.colour.value}, "
            f"got {game.red!r}",
            key="red",
        )
    return made


def _recorded_bid(
    n: int,
    menu: BiddingMenu,
    game: PlayedGame,
    names: tuple[str, str],
    previous: PlayedGame | None,
) -> Bid:
    """The bid of entry ``n`` (a decision entry, or a sudden-death game with its choice),
    checked against the bidding rule: 甲 is a player of the match (the one the previous game's
    times name, if they do), and Red is who the bid gives Red to."""
    if game.chooser is None or game.announce is None or game.reply is None:
        raise ReplayError(n, "a bid needs chooser, announce and reply", key="chooser")
    chooser = game.chooser
    side = _chooser_side(n, game, names)
    other_name = names[1 - side]
    used = (previous.time_used if previous is not None else None) or {}
    p_a = p_chooser_from_times(menu, used.get(names[0]), used.get(names[1]))
    if p_a in (0.0, 1.0) and names[0 if p_a == 1.0 else 1] != chooser:
        faster = names[0 if p_a == 1.0 else 1]
        times = ", ".join(f"{name} {used[name]:g} s" for name in names)
        raise ReplayError(
            n,
            f"expected {faster!r} as 甲 (used less time in the previous game: {times}), "
            f"got {chooser!r}",
            key="chooser",
        )
    red, _ = bid_colours(menu, chooser, other_name, game.announce, game.reply)
    if game.red != red:
        raise ReplayError(
            n,
            f"expected {red!r}: the bid gives Red to {red} (甲 {chooser} announces "
            f"{game.announce.value}, 乙 {other_name} {game.reply.value}s), got {game.red!r}",
            key="red",
        )
    return Bid(side, game.announce, game.reply)
