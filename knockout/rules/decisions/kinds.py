"""How the next game's colours and clocks are settled: a small closed set of typed decisions.

From where a match stands (:class:`~knockout.rules.chain.match.MatchState`), :func:`decide` says how
the next game is set up, as one of six decision objects:

=================  ==========================================================================
:class:`Fixed`      the rules name Red (a later game of a stage, or ``alternate``)
:class:`Lot`        a fair lot gives Red
:class:`Choice`     one player chooses the colour, on the stage's clocks (``choice``)
:class:`Bidding`    甲 announces a colour, 乙 accepts or objects; the menu sets the clocks
:class:`SealedBids` each player bids Black's minutes; the lower bid plays Black (``sealed-bid``)
:class:`CutChoice`  the cutter names Red's minutes, the other picks the colour (``cut-choose``)
=================  ==========================================================================

Each walker has one exhaustive handler over :data:`Decision` (``match`` with
:func:`typing.assert_never` in the default case, so a kind a walker forgets fails ``mypy``): the
exact solver sums over a decision's outcomes, the Monte Carlo kernel samples them, the SimPy
engine draws and narrates one, and organiser mode asks the arbiter for what is still open.

A colour rule can also be added from outside the rule book (:func:`add_colour_rule`): its
decision is an :class:`OtherDecision`, handled by the handler each walker has registered for its
class, and its made decision a class of :mod:`knockout.rules.decisions.made`
(tests/rules/test_added_colour_rule.py adds one from a test module alone).

A decision already taken (recorded in ``[[played]]``: a bid, a colour choice, a cut or sealed
bids) rides on the decision as ``made``; the walkers then follow it instead of the strategy.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import ClassVar, Literal, TypeVar

from knockout.game import Colour, Reply
from knockout.rules.book.formats import (
    ADDED_COLOUR_RULES,
    BiddingMenu,
    ColourRule,
    CutChoose,
    SealedBid,
    Stage,
)

__all__ = [
    "COLOUR_RULES",
    "Bid",
    "Bidding",
    "Choice",
    "ChoiceMade",
    "Cut",
    "CutChoice",
    "Decision",
    "DecisionKind",
    "Fixed",
    "Lot",
    "OtherDecision",
    "OtherSettled",
    "PlayerDecision",
    "SealedBids",
    "SealedMade",
    "Settled",
    "Side",
    "add_colour_rule",
    "decide",
    "handler_of",
    "other",
    "p_chooser_from_times",
    "remove_colour_rule",
]

Side = Literal[0, 1]
#: What an arbiter records for a decision the players take (organiser mode).
DecisionKind = Literal["bid", "choice", "sealed-bid", "cut"]


def other(side: Side) -> Side:
    """The other side of a pairing."""
    return 1 if side == 0 else 0


@dataclass(frozen=True)
class Bid:
    """A sudden-death choice already made: who was 甲 (a side of the pairing), 甲's
    announcement and 乙's reply. The bidding rule then fixes the game's colours and clocks."""

    chooser: Side
    announce: Colour
    reply: Reply


@dataclass(frozen=True)
class ChoiceMade:
    """A colour choice already made: who chose (a side of the pairing) and the colour taken."""

    chooser: Side
    colour: Colour

    @property
    def red(self) -> Side:
        """Who has Red in the game."""
        return self.chooser if self.colour is Colour.RED else other(self.chooser)


@dataclass(frozen=True)
class Cut:
    """A cut-and-choose decision already made: who cut (a side of the pairing), the Red minutes
    they named, and the colour the other player (the chooser) took."""

    cutter: Side
    red_minutes: float
    colour: Colour

    @property
    def red(self) -> Side:
        """Who has Red in the game."""
        chooser = other(self.cutter)
        return chooser if self.colour is Colour.RED else self.cutter


@dataclass(frozen=True)
class SealedMade:
    """Sealed Armageddon bids already opened: each side's bid (Black's minutes) and who plays
    Black: the lower bid, or with equal bids the side the lot gave Black."""

    bids: tuple[float, float]
    black: Side

    @property
    def red(self) -> Side:
        """Who has Red in the game."""
        return other(self.black)

    def black_minutes(self, price: str) -> float:
        """Black's base clock: the lower bid (``first`` price) or the higher (``second``)."""
        low, high = sorted(self.bids)
        return low if price == "first" else high


@dataclass(frozen=True)
class Fixed:
    """The rules give Red to ``red``: later games of a stage swap colours, and so does the first
    game of an ``alternate`` stage."""

    red: Side


@dataclass(frozen=True)
class Lot:
    """A fair lot gives Red (the first game of a ``lot`` stage, or of each block)."""


@dataclass(frozen=True)
class Choice:
    """One player chooses the colour of a game on the stage's clocks.

    Attributes:
        chooser: The stage's rule for who chooses (a player's name, or one of
            :data:`~knockout.rules.book.formats.CHOOSER_RULES`).
        made: The choice, when it is recorded.
        side: The chooser, when the match's own colours name them (``last-black``,
            ``first-black``); None when the pair does (a lot, a named player, the
            higher-ranked: :meth:`~knockout.rules.chain.pairing.Pairing.p_a_chooses_colours`).
    """

    chooser: str
    made: ChoiceMade | None = None
    side: Side | None = None

    kind: ClassVar[DecisionKind] = "choice"


@dataclass(frozen=True)
class Bidding:
    """The sudden-death bidding rule: 甲 (by the menu's priority rule) announces, 乙 replies.

    Attributes:
        menu: The clocks of each branch and the priority rule.
        p_a_chooses: P(A is 甲) when the previous game's recorded times (or a lot rule) fix it;
            None: the model's probability (times unknown, or not played yet).
        made: The bid, when it is recorded (甲, announcement, reply).
    """

    menu: BiddingMenu
    p_a_chooses: float | None = None
    made: Bid | None = None

    kind: ClassVar[DecisionKind] = "bid"


@dataclass(frozen=True)
class SealedBids:
    """Sealed Armageddon bids: each player bids the minutes they would take as Black; the lower
    bid plays Black against Red's fixed clock, on the lower bid (first price) or the higher
    (second price); equal bids: a lot.

    Attributes:
        sealed: Red's clock, the range of bids and the price.
        made: The bids and who plays Black, when recorded.
    """

    sealed: SealedBid
    made: SealedMade | None = None

    kind: ClassVar[DecisionKind] = "sealed-bid"


@dataclass(frozen=True)
class CutChoice:
    """You cut, I choose: the cutter (by the rule's priority) names Red's base minutes against
    Black's fixed clock, and the other player picks the colour.

    Attributes:
        cut: Black's clock, the range of Red's and the priority rule.
        p_a_cuts: P(A is the cutter) when the previous game's recorded times (or a lot rule)
            fix it; None: the model's probability.
        made: The cut and the colour taken, when recorded.
    """

    cut: CutChoose
    p_a_cuts: float | None = None
    made: Cut | None = None

    kind: ClassVar[DecisionKind] = "cut"


def _history_chooser(stage: Stage, last_red: Side | None, games_before: int | None) -> Side | None:
    """The chooser the match's colours name, if the stage's rule reads them: ``last-black``,
    who had Black in the previous game; ``first-black``, who had Black in the first game (the
    colours swap at every game, so after an odd number of games the first game's Red had Red
    last)."""
    if last_red is None:
        return None
    if stage.chooser == "last-black":
        return other(last_red)
    if stage.chooser == "first-black" and games_before is not None:
        first_red = last_red if games_before % 2 == 1 else other(last_red)
        return other(first_red)
    return None


def p_chooser_from_times(
    menu: BiddingMenu | CutChoose, used_a: float | None, used_b: float | None
) -> float | None:
    """P(A is 甲) once the previous game's times are known, by the priority rule.

    ``less-time``: 1 or 0 for the side that used less time, 1/2 for an exact tie (a lot);
    ``lot``: 1/2. None when a time is unknown (None or NaN): then the model's probability
    (:meth:`~knockout.rules.chain.pairing.Pairing.p_a_chooses`) applies.

    >>> p_chooser_from_times(BiddingMenu(), 1500.0, 1800.0)
    1.0
    """
    if menu.priority == "lot":
        return 0.5
    if used_a is None or used_b is None or math.isnan(used_a) or math.isnan(used_b):
        return None
    if used_a == used_b:
        return 0.5
    return 1.0 if used_a < used_b else 0.0


class OtherSettled:
    """A decision taken under an added colour rule (:class:`OtherDecision`), as the walkers read
    it (the players as sides of the pairing): the base of its own class."""

    #: Who has Red in the game the decision sets up.
    red: Side


class OtherDecision:
    """A decision of a colour rule added to the rule book's own (:func:`add_colour_rule`): a
    rule being tried in a study or a test, settled by the players.

    Each walker handles it by the handler registered for its class (the exact solver's
    :data:`knockout.exact.solver.OTHER_DECISIONS`, the SimPy engine's
    :data:`knockout.engine.match.OTHER_DECISIONS`; the Monte Carlo kernel walks the exact stage
    table, organiser mode asks the arbiter with the words of its made decision), and a walker
    without a handler for it says so.

    Attributes:
        kind: Its name in outputs (``next --json``'s ``decisions[].kind``).
        made: The decision, when it is recorded.
    """

    kind: ClassVar[str]
    made: OtherSettled | None = None


#: Who has Red for a colour rule added to the rule book's own, by the name a stage's
#: ``colours`` gives: the decision of the stage's first game (:func:`decide`'s arguments).
AddedRule = Callable[..., OtherDecision]
COLOUR_RULES: dict[str, AddedRule] = {}


_H = TypeVar("_H")


def handler_of(handlers: Mapping[type, _H], decision: OtherDecision, walker: str) -> _H:
    """The ``walker``'s handler for a decision of an added colour rule.

    Raises:
        NotImplementedError: The walker has none for the decision's class.
    """
    for cls in type(decision).__mro__:
        if cls in handlers:
            return handlers[cls]
    raise NotImplementedError(
        f"the {walker} has no handler for the added colour rule's decision {decision.kind!r}"
    )


def add_colour_rule(name: str, rule: AddedRule) -> None:
    """Add a colour rule to the rule book: stages whose ``colours`` is ``name`` get the
    decision ``rule(stage, last_red=..., p_a_chooses=..., made=..., games_before=...)`` before
    their first game (also without a previous game, ``last_red`` None: a walker asking which
    kind of decision the stage has).

    Raises:
        ValueError: If ``name`` is one of the rule book's own rules.
    """
    if name in {r.value for r in ColourRule}:
        raise ValueError(f"{name!r} is one of the rule book's own colour rules")
    COLOUR_RULES[name] = rule
    if name not in ADDED_COLOUR_RULES:
        ADDED_COLOUR_RULES.append(name)


def remove_colour_rule(name: str) -> None:
    """Take an added colour rule out of the rule book again."""
    COLOUR_RULES.pop(name, None)
    if name in ADDED_COLOUR_RULES:
        ADDED_COLOUR_RULES.remove(name)


#: Every way the next game's colours and clocks can be settled.
Decision = Fixed | Lot | Choice | Bidding | SealedBids | CutChoice | OtherDecision

#: The decisions the players take (organiser mode asks the arbiter for them).
PlayerDecision = Choice | Bidding | SealedBids | CutChoice | OtherDecision

#: A decision the players took, as the walkers read it (the players as sides of the pairing);
#: its named form, as files and the journal carry it, is :mod:`knockout.rules.decisions.made`.
Settled = Bid | ChoiceMade | Cut | SealedMade | OtherSettled


def decide(
    stage: Stage,
    *,
    game: int,
    last_red: Side | None,
    p_a_chooses: float | None = None,
    made: Settled | None = None,
    games_before: int | None = None,
) -> Decision:
    """How the next game of ``stage`` is set up: its ``game``-th game (from 0) of the stage's
    current block, after a game in which ``last_red`` had Red (None before the first game).

    ``p_a_chooses`` and ``made``: what the played games already fix for this game (the
    previous game's times, a recorded bid, colour choice, cut or sealed bids; a recorded
    decision of another kind than the stage's is ignored).
    ``games_before``: games played before the stage (a ``first-black`` chooser is read off
    their colours).

    >>> from knockout.rules.book.presets import FORMATS
    >>> decide(FORMATS["xq-bidding"].stage("slow"), game=1, last_red=0)
    Fixed(red=1)
    """
    if game > 0:
        if last_red is None:
            raise ValueError("a later game of a stage needs the previous game's colours")
        return Fixed(other(last_red))
    added = COLOUR_RULES.get(stage.colours)
    if added is not None:
        return added(
            stage,
            last_red=last_red,
            p_a_chooses=p_a_chooses,
            made=made,
            games_before=games_before,
        )
    return _first_game(stage, last_red, p_a_chooses, made, games_before)


def _first_game(
    stage: Stage,
    last_red: Side | None,
    p_a_chooses: float | None,
    made: Settled | None,
    games_before: int | None,
) -> Decision:
    """How the first game of a stage (or block) is set up, by the rule book's own rules."""
    match stage.colours:
        case ColourRule.BIDDING:
            if stage.bidding is None:
                raise ValueError(f"stage {stage.name!r} has no bidding menu")
            bid = made if isinstance(made, Bid) else None
            return Bidding(stage.bidding, p_a_chooses, bid)
        case ColourRule.SEALED_BID:
            if stage.sealed_bid is None:
                raise ValueError(f"stage {stage.name!r} has no sealed-bid clocks")
            sealed = made if isinstance(made, SealedMade) else None
            return SealedBids(stage.sealed_bid, sealed)
        case ColourRule.CHOICE:
            choice = made if isinstance(made, ChoiceMade) else None
            return Choice(stage.chooser, choice, _history_chooser(stage, last_red, games_before))
        case ColourRule.CUT_CHOOSE:
            if stage.cut is None:
                raise ValueError(f"stage {stage.name!r} has no cut-and-choose clocks")
            cut = made if isinstance(made, Cut) else None
            return CutChoice(stage.cut, p_a_chooses, cut)
        case ColourRule.ALTERNATE if last_red is not None:
            return Fixed(other(last_red))
        case ColourRule.ALTERNATE | ColourRule.LOT:
            return Lot()
        case _:
            raise ValueError(f"stage {stage.name!r} has no colour rule {stage.colours!r}")
