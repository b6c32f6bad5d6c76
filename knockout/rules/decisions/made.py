"""A decision the players made, as one typed value from the file to the walker.

A :class:`Made` is what a scenario's ``[[played]]`` entry, an event's journal and an organiser's
command all carry for a decision already taken, the players named: a sudden-death bid
(:class:`MadeBid`), a colour choice (:class:`MadeChoice`), sealed Armageddon bids
(:class:`MadeSealed`) or a cut (:class:`MadeCut`). Each class knows its own keys and reads and
writes them (:meth:`Made.to_fields`, :meth:`Made.from_fields`), checks itself against the rule
of the game it sets up (:meth:`Made.settle`, which gives the walkers' form of it, the players as
sides of the pairing: :class:`~knockout.rules.decisions.kinds.Bid` and the others), and says
which colours and clocks it gives. Everything of one kind of decision lives in its class; the
layers above dispatch over :data:`MADE`.

A class is registered when it is defined (:data:`MADE`, by :attr:`Made.kind`), so a new colour
rule adds its decision here, in its own class, and the paths above carry it unchanged.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from knockout.game import Colour, Reply
from knockout.i18n import N_, _
from knockout.i18n.terms import colour_word
from knockout.rules.book.formats import BiddingMenu, ColourRule, CutChoose, Format, Stage
from knockout.rules.decisions.kinds import (
    Bid,
    Bidding,
    Choice,
    ChoiceMade,
    Cut,
    CutChoice,
    Decision,
    DecisionKind,
    SealedBids,
    SealedMade,
    Settled,
    Side,
    other,
    p_chooser_from_times,
)

__all__ = [
    "MADE",
    "Made",
    "MadeBid",
    "MadeChoice",
    "MadeCut",
    "MadeError",
    "MadeSealed",
    "bid_colours",
    "claiming_order",
    "made_for",
    "made_of_fields",
]


class MadeError(ValueError):
    """A made decision that does not fit its rule: ``reason`` in words, ``key`` the key at
    fault (a ``[[played]]`` key: ``chooser``, ``bids``, ``red``, ...)."""

    def __init__(self, reason: str, *, key: str) -> None:
        super().__init__(reason)
        self.reason = reason
        self.key = key


#: Every kind of made decision, by :attr:`Made.kind`, in the order they were defined.
MADE: dict[str, type[Made]] = {}


@dataclass(frozen=True)
class Made(ABC):
    """A decision the players made (the players named).

    Class attributes, one set per kind:
        kind: Its name in the journal and in ``NextGame.colours`` (``bid``, ``choice``,
            ``sealed``, ``cut``).
        decision_kind: Its name in ``event next --json``'s ``decisions[].kind``.
        rule: The stage's colour rule it belongs to.
        decision: The walkers' decision it settles (:data:`~knockout.rules.decisions.kinds.
            Decision`).
        words: What it is, in words (``colour choice``).
        keys: Its keys in a ``[[played]]`` entry and in the journal.
        decider_key: The key naming who decided first (None: both players decide at once).
        recordable: What an entry without a result gives to record it, in words.
        decider_words: Who decides first, in words (``甲``, ``the cutter``).
        at_words: The game it belongs to, in words (``its sudden-death game``).
        command: The organiser's command that records it (``knockout event choose``).
        usage: That command's arguments after the match.
    """

    kind: ClassVar[str]
    decision_kind: ClassVar[DecisionKind | str]
    rule: ClassVar[ColourRule | str]
    decision: ClassVar[type]
    words: ClassVar[str]
    keys: ClassVar[tuple[str, ...]]
    decider_key: ClassVar[str | None]
    recordable: ClassVar[str]
    decider_words: ClassVar[str] = N_("the decider")
    at_words: ClassVar[str] = N_("a game whose colours its players decide")
    command: ClassVar[str]
    usage: ClassVar[str] = ""

    def __init_subclass__(cls, *, register: bool = True, **kwargs: Any) -> None:
        """Register a kind when its class is defined (``register=False``: its caller does)."""
        super().__init_subclass__(**kwargs)
        if "kind" in cls.__dict__ and "command" not in cls.__dict__:
            cls.command = cls.kind
        if "kind" in cls.__dict__ and register:
            MADE[cls.kind] = cls

    @classmethod
    def usage_words(cls) -> str:
        """The command's arguments after the match, in the reader's language (``--announce
        红|黑 --reply 接受|反对``: the typed values' Chinese forms are accepted)."""
        return _(cls.usage) if cls.usage else ""

    # --- the value and its keys ----------------------------------------------------------

    @abstractmethod
    def to_fields(self) -> dict[str, Any]:
        """Its keys and values, as a ``[[played]]`` entry and the journal write them."""

    @classmethod
    @abstractmethod
    def from_fields(cls, fields: Mapping[str, Any]) -> Made:
        """The decision of :meth:`to_fields`' keys (as written; names stripped).

        Raises:
            MadeError: A key missing (only ``[[played]]`` entries can miss one: the scenario's
                checks name it first).
        """

    @property
    def decider(self) -> str | None:
        """Who decided first (甲, the chooser, the cutter); None for decisions taken at once."""
        key = self.decider_key
        return None if key is None else str(getattr(self, key))

    def renamed(self, names: Mapping[str, str]) -> Made:
        """The same decision with players renamed (``names``: old name to new)."""
        fields = self.to_fields()
        return type(self).from_fields(_renamed(fields, names))

    # --- the rule ------------------------------------------------------------------------

    @abstractmethod
    def settle(
        self,
        decision: Decision,
        names: tuple[str, str],
        times: Mapping[str, float],
        red: str,
    ) -> Settled:
        """The walkers' form of the decision, checked against the ``decision`` of the game it
        sets up between ``names`` (the previous game's ``times`` used, by name; ``red`` the
        entry's Red).

        Raises:
            MadeError: It does not fit the rule (a player not of the match, the wrong 甲, ...).
        """

    @abstractmethod
    def colours(self, stage: Stage, names: tuple[str, str]) -> tuple[str, str]:
        """``(Red, Black)`` the decision gives between ``names`` at ``stage``."""

    @abstractmethod
    def clock(self, stage: Stage) -> tuple[float, float]:
        """``(Red, Black)`` base minutes of the game it sets up at ``stage``."""

    @abstractmethod
    def text(self, red: str, black: str, clock: tuple[float, float]) -> str:
        """The decision and the game it gives, in one line."""

    def range_problems(self, stage: Stage) -> list[tuple[str, str]]:
        """Numbers outside the stage's bounds, as ``(key, message)`` (a scenario built in
        Python; the file path checks them when it reads the entry)."""
        return []

    def rule_fields(self, stage: Stage) -> dict[str, Any]:
        """What the journal writes beside the decision about the rule it was taken under (the
        sealed bids' price), for the record."""
        return {}

    # --- a [[played]] entry --------------------------------------------------------------

    @classmethod
    def stages(cls, fmt: Format) -> list[Stage]:
        """The stages of ``fmt`` whose games this kind of decision sets up."""
        return [s for s in fmt.playable if s.colours == cls.rule]

    @classmethod
    def claims(cls, entry: Any, fmt: Format) -> bool:
        """Whether a ``[[played]]`` entry (a validated table) records this kind of decision:
        it gives one of the keys only this kind has."""
        return any(getattr(entry, k, None) is not None for k in cls.own_keys())

    @classmethod
    def own_keys(cls) -> tuple[str, ...]:
        """The keys no other kind of decision has."""
        shared = {k for c in MADE.values() if c is not cls for k in c.keys}
        return tuple(k for k in cls.keys if k not in shared)

    @classmethod
    def entry_problems(cls, key: str, entry: Any, fmt: Format, names: list[str]) -> list[Problem]:
        """What keeps a ``[[played]]`` entry of this kind from being read, as ``(key,
        message)``: keys of other decisions, its own keys missing, a stage it does not belong
        to, names that are not players, numbers out of range."""
        what = f"{cls.article_words()} gives {_listed(cls.keys)}"
        out = [
            (f"{key}.{k}", f"expected no {k}: {what}")
            for c in MADE.values()
            if c is not cls
            for k in c.keys
            if k not in cls.keys and getattr(entry, k, None) is not None
        ]
        out += [
            (f"{key}.{k}", f"expected {k} ({what}), got nothing")
            for k in cls.keys
            if getattr(entry, k, None) is None
        ]
        stages = [s.name for s in cls.stages(fmt)]
        if entry.stage not in stages:
            where = f"one of {stages}" if stages else f"none: the format has no {cls.words}"
            out.append(
                (
                    f"{key}.stage",
                    f"expected a stage whose colours it sets ({where}), got {entry.stage!r}",
                )
            )
        return _dedupe_keys(out)

    @classmethod
    def article_words(cls) -> str:
        """``a colour choice``, ``sealed bids``."""
        return f"a {cls.words}"

    @classmethod
    def from_entry(cls, entry: Any) -> Made:
        """The decision of a checked ``[[played]]`` entry (a validated table)."""
        return cls.from_fields({k: getattr(entry, k, None) for k in cls.keys})

    @classmethod
    def recordable_at(cls, stage: Stage) -> str:
        """What an entry without a result gives to record this decision at ``stage``."""
        return f"the {stage.name} game's {cls.words}, with {cls.recordable}"


def _listed(keys: tuple[str, ...]) -> str:
    return keys[0] if len(keys) == 1 else f"{', '.join(keys[:-1])} and {keys[-1]}"


Problem = tuple[str, str]


def _dedupe_keys(problems: list[Problem]) -> list[Problem]:
    return list(dict.fromkeys(problems))


def _renamed(value: Any, names: Mapping[str, str]) -> Any:
    """Names replaced in a decision's fields: values that are names, and the keys of a
    mapping by name (sealed bids)."""
    if isinstance(value, str):
        return names.get(value, value)
    if isinstance(value, Mapping):
        return {names.get(k, k): _renamed(v, names) for k, v in value.items()}
    return value


def made_of_fields(kind: str, fields: Mapping[str, Any]) -> Made:
    """The decision of kind ``kind`` written with these fields (the journal's ``decision``
    entry).

    Raises:
        KeyError: An unknown kind.
    """
    return MADE[kind].from_fields(fields)


def made_for(decision: Decision) -> type[Made]:
    """The kind of made decision that settles ``decision``.

    Raises:
        KeyError: For a decision the players do not take (the rules fix the colours, or a
            lot).
    """
    for cls in MADE.values():
        if isinstance(decision, cls.decision):
            return cls
    raise KeyError(type(decision).__name__)


def bid_colours(
    menu: BiddingMenu, chooser: str, other_name: str, announce: Colour, reply: Reply
) -> tuple[str, str]:
    """``(Red, Black)`` by the bidding rule when ``chooser`` (甲) announces ``announce`` and
    ``other_name`` (乙) replies ``reply``.

    >>> bid_colours(BiddingMenu(), "A", "B", Colour.RED, Reply.OBJECT)
    ('B', 'A')
    """
    colour, _clock = menu.assignment(announce, reply)
    return (chooser, other_name) if colour is Colour.RED else (other_name, chooser)


def _side(name: str, names: tuple[str, str], key: str) -> Side:
    """The side of a player of the match."""
    if name not in names:
        raise MadeError(
            _("expected {a} or {b} (the players of this match), got {name}").format(
                a=repr(names[0]), b=repr(names[1]), name=repr(name)
            ),
            key=key,
        )
    return 0 if name == names[0] else 1


def _first_by_times(
    name: str,
    priority: CutChoose | BiddingMenu,
    names: tuple[str, str],
    times: Mapping[str, float],
    who: str,
    key: str,
) -> None:
    """Refuse a decider the previous game's times do not name (when they name one)."""
    p_a = p_chooser_from_times(priority, times.get(names[0]), times.get(names[1]))
    if p_a in (0.0, 1.0) and names[0 if p_a == 1.0 else 1] != name:
        faster = names[0 if p_a == 1.0 else 1]
        used = _(", ").join(
            _("{name} {seconds:g} s").format(name=n, seconds=times[n]) for n in names
        )
        raise MadeError(
            _(
                "expected {faster} as {who} (used less time in the previous game: {used}), got "
                "{name}"
            ).format(faster=repr(faster), who=_(who), used=used, name=repr(name)),
            key=key,
        )


def _colour(value: Any) -> Colour:
    return value if isinstance(value, Colour) else Colour(str(value))


def _strip(value: Any) -> str:
    return str(value).strip()


@dataclass(frozen=True)
class MadeBid(Made):
    """The sudden-death bid: 甲 (``chooser``) announced a colour, 乙 accepted or objected."""

    chooser: str
    announce: Colour
    reply: Reply

    kind: ClassVar[str] = "bid"
    usage: ClassVar[str] = N_("--announce red|black --reply accept|object")
    decider_words: ClassVar[str] = "甲"
    at_words: ClassVar[str] = N_("its sudden-death game")
    decision_kind: ClassVar[DecisionKind] = "bid"
    rule: ClassVar[ColourRule] = ColourRule.BIDDING
    decision: ClassVar[type] = Bidding
    words: ClassVar[str] = N_("bid")
    keys: ClassVar[tuple[str, ...]] = ("chooser", "announce", "reply")
    decider_key: ClassVar[str | None] = "chooser"
    recordable: ClassVar[str] = "chooser, announce and reply"

    def to_fields(self) -> dict[str, Any]:
        return {
            "chooser": self.chooser,
            "announce": self.announce.value,
            "reply": self.reply.value,
        }

    @classmethod
    def from_fields(cls, fields: Mapping[str, Any]) -> MadeBid:
        if any(fields.get(k) is None for k in cls.keys):
            raise MadeError(_("a bid needs chooser, announce and reply"), key="chooser")
        return cls(
            _strip(fields["chooser"]),
            _colour(fields["announce"]),
            Reply(getattr(fields["reply"], "value", fields["reply"])),
        )

    def settle(
        self, decision: Decision, names: tuple[str, str], times: Mapping[str, float], red: str
    ) -> Bid:
        assert isinstance(decision, Bidding)
        side = _side(self.chooser, names, "chooser")
        _first_by_times(self.chooser, decision.menu, names, times, "甲", "chooser")
        other_name = names[other(side)]
        red_name, _black = bid_colours(
            decision.menu, self.chooser, other_name, self.announce, self.reply
        )
        if red != red_name:
            message = (
                _(
                    "expected {red}: the bid gives Red to {name} (甲 {chooser} announces "
                    "{announce}, 乙 {other} accepts), got {given}"
                )
                if self.reply is Reply.ACCEPT
                else _(
                    "expected {red}: the bid gives Red to {name} (甲 {chooser} announces "
                    "{announce}, 乙 {other} objects), got {given}"
                )
            )
            raise MadeError(
                message.format(
                    red=repr(red_name),
                    name=red_name,
                    chooser=self.chooser,
                    announce=colour_word(self.announce.value),
                    other=other_name,
                    given=repr(red),
                ),
                key="red",
            )
        return Bid(side, self.announce, self.reply)

    def colours(self, stage: Stage, names: tuple[str, str]) -> tuple[str, str]:
        assert stage.bidding is not None
        bidder = names[1] if self.chooser == names[0] else names[0]
        return bid_colours(stage.bidding, self.chooser, bidder, self.announce, self.reply)

    def clock(self, stage: Stage) -> tuple[float, float]:
        assert stage.bidding is not None
        return stage.bidding.assignment(self.announce, self.reply)[1]

    def text(self, red: str, black: str, clock: tuple[float, float]) -> str:
        """``甲 A announces red, 乙 B objects: B Red 10 min v A Black 30 min``."""
        bidder = black if red == self.chooser else red
        return (
            _(
                "甲 {chooser} announces {colour}, 乙 {bidder} accepts: {red} Red {red_min:g} min "
                "v {black} Black {black_min:g} min"
            )
            if self.reply is Reply.ACCEPT
            else _(
                "甲 {chooser} announces {colour}, 乙 {bidder} objects: {red} Red {red_min:g} min "
                "v {black} Black {black_min:g} min"
            )
        ).format(
            chooser=self.chooser,
            colour=colour_word(self.announce.value),
            bidder=bidder,
            red=red,
            red_min=clock[0],
            black=black,
            black_min=clock[1],
        )

    @classmethod
    def claims(cls, entry: Any, fmt: Format) -> bool:
        """A bid is what an entry with any of its keys records when no other kind claims it."""
        return any(getattr(entry, k) is not None for k in cls.keys)

    @classmethod
    def entry_problems(cls, key: str, entry: Any, fmt: Format, names: list[str]) -> list[Problem]:
        wanted = {
            "chooser": "甲's name",
            "announce": "'red' or 'black'",
            "reply": "'accept' or 'object'",
        }
        given = {k: getattr(entry, k) is not None for k in wanted}
        out: list[Problem] = []
        if any(given.values()) and not all(given.values()):
            out += [
                (
                    f"{key}.{k}",
                    f"expected {what} (a bid gives chooser, announce and reply), got nothing",
                )
                for k, what in wanted.items()
                if not given[k]
            ]
        bidding = fmt.bidding_stage
        if any(given.values()) and bidding is None:
            out.append(
                (
                    f"{key}.chooser",
                    "expected no bid: chooser, announce and reply belong to a sudden-death "
                    f"bidding stage, and the format has none; got {entry.chooser!r}",
                )
            )
        elif any(given.values()) and bidding is not None and entry.stage != bidding.name:
            out.append(
                (
                    f"{key}.stage",
                    f"expected {bidding.name!r} (only the sudden-death game has a bid: chooser, "
                    f"announce, reply), got {entry.stage!r}",
                )
            )
        return out


@dataclass(frozen=True)
class MadeChoice(Made):
    """A colour choice: ``chooser`` took ``colour`` for the game."""

    chooser: str
    colour: Colour

    kind: ClassVar[str] = "choice"
    usage: ClassVar[str] = N_("red|black")
    decider_words: ClassVar[str] = N_("the chooser")
    at_words: ClassVar[str] = N_("a game whose colours a player chooses")
    command: ClassVar[str] = "choose"
    decision_kind: ClassVar[DecisionKind] = "choice"
    rule: ClassVar[ColourRule] = ColourRule.CHOICE
    decision: ClassVar[type] = Choice
    words: ClassVar[str] = N_("colour choice")
    keys: ClassVar[tuple[str, ...]] = ("chooser", "colour")
    decider_key: ClassVar[str | None] = "chooser"
    recordable: ClassVar[str] = "chooser and colour"

    def to_fields(self) -> dict[str, Any]:
        return {"chooser": self.chooser, "colour": self.colour.value}

    @classmethod
    def from_fields(cls, fields: Mapping[str, Any]) -> MadeChoice:
        if any(fields.get(k) is None for k in cls.keys):
            raise MadeError(_("a colour choice needs chooser and colour"), key="chooser")
        return cls(_strip(fields["chooser"]), _colour(fields["colour"]))

    def settle(
        self, decision: Decision, names: tuple[str, str], times: Mapping[str, float], red: str
    ) -> ChoiceMade:
        assert isinstance(decision, Choice)
        side = _side(self.chooser, names, "chooser")
        rule = decision.chooser
        if rule != "lot" and rule in names and rule != self.chooser:
            raise MadeError(
                _("expected {rule} (the format names who chooses), got {chooser}").format(
                    rule=repr(rule), chooser=repr(self.chooser)
                ),
                key="chooser",
            )
        if decision.side is not None and side != decision.side:
            message = (
                _(
                    "expected {name} (the format's chooser is the player who had Black in the "
                    "first game), got {chooser}"
                )
                if rule == "first-black"
                else _(
                    "expected {name} (the format's chooser is the player who had Black in the "
                    "previous game), got {chooser}"
                )
            )
            raise MadeError(
                message.format(name=repr(names[decision.side]), chooser=repr(self.chooser)),
                key="chooser",
            )
        made = ChoiceMade(side, self.colour)
        if names[made.red] != red:
            raise MadeError(
                _("expected {red}: {chooser} chose {colour}, got {given}").format(
                    red=repr(names[made.red]),
                    chooser=self.chooser,
                    colour=colour_word(self.colour.value),
                    given=repr(red),
                ),
                key="red",
            )
        return made

    def colours(self, stage: Stage, names: tuple[str, str]) -> tuple[str, str]:
        rest = names[1] if self.chooser == names[0] else names[0]
        return (self.chooser, rest) if self.colour is Colour.RED else (rest, self.chooser)

    def clock(self, stage: Stage) -> tuple[float, float]:
        return stage.minutes

    def text(self, red: str, black: str, clock: tuple[float, float]) -> str:
        """``A chooses black: B Red 6 min v A Black 4 min``."""
        return _(
            "{chooser} chooses {colour}: {red} Red {red_min:g} min v {black} Black "
            "{black_min:g} min"
        ).format(
            chooser=self.chooser,
            colour=colour_word(self.colour.value),
            red=red,
            red_min=clock[0],
            black=black,
            black_min=clock[1],
        )

    @classmethod
    def claims(cls, entry: Any, fmt: Format) -> bool:
        """An entry gives ``colour``, or a chooser at a stage whose colours a player chooses
        (and no bid keys)."""
        if entry.colour is not None:
            return True
        stage = next((s for s in fmt.stages if s.name == entry.stage), None)
        return (
            stage is not None
            and stage.is_choice
            and entry.chooser is not None
            and entry.announce is None
            and entry.reply is None
        )

    @classmethod
    def entry_problems(cls, key: str, entry: Any, fmt: Format, names: list[str]) -> list[Problem]:
        out: list[Problem] = []
        if entry.chooser is None:
            out.append(
                (
                    f"{key}.chooser",
                    "expected who chose the colours (a colour choice gives chooser and colour), "
                    "got nothing",
                )
            )
        if entry.colour is None:
            out.append(
                (
                    f"{key}.colour",
                    "expected 'red' or 'black' (a colour choice gives chooser and colour), got "
                    "nothing",
                )
            )
        out += [
            (
                f"{key}.{k}",
                f"expected no {k}: a colour choice gives chooser and colour, a bid chooser, "
                "announce and reply",
            )
            for k in ("announce", "reply")
            if getattr(entry, k) is not None
        ]
        choosing = [s.name for s in cls.stages(fmt)]
        if entry.stage not in choosing:
            where = f"one of {choosing}" if choosing else "none: the format has no colour choice"
            out.append(
                (
                    f"{key}.stage",
                    f"expected a stage whose colours a player chooses ({where}), got "
                    f"{entry.stage!r}",
                )
            )
        return out


@dataclass(frozen=True)
class MadeCut(Made):
    """Cut-and-choose: ``cutter`` named Red's base minutes, the other player took ``colour``."""

    cutter: str
    red_minutes: float
    colour: Colour

    kind: ClassVar[str] = "cut"
    usage: ClassVar[str] = N_("--red-minutes M --colour red|black")
    decider_words: ClassVar[str] = N_("the cutter")
    at_words: ClassVar[str] = N_("its cut-and-choose game")
    decision_kind: ClassVar[DecisionKind] = "cut"
    rule: ClassVar[ColourRule] = ColourRule.CUT_CHOOSE
    decision: ClassVar[type] = CutChoice
    words: ClassVar[str] = N_("cut")
    keys: ClassVar[tuple[str, ...]] = ("cutter", "red_minutes", "colour")
    decider_key: ClassVar[str | None] = "cutter"
    recordable: ClassVar[str] = "cutter, red_minutes and colour"

    def to_fields(self) -> dict[str, Any]:
        return {
            "cutter": self.cutter,
            "red_minutes": self.red_minutes,
            "colour": self.colour.value,
        }

    @classmethod
    def from_fields(cls, fields: Mapping[str, Any]) -> MadeCut:
        if any(fields.get(k) is None for k in cls.keys):
            raise MadeError(_("a cut needs cutter, red_minutes and colour"), key="cutter")
        return cls(
            _strip(fields["cutter"]), float(fields["red_minutes"]), _colour(fields["colour"])
        )

    def settle(
        self, decision: Decision, names: tuple[str, str], times: Mapping[str, float], red: str
    ) -> Cut:
        assert isinstance(decision, CutChoice)
        side = _side(self.cutter, names, "cutter")
        _first_by_times(self.cutter, decision.cut, names, times, "the cutter", "cutter")
        made = Cut(side, self.red_minutes, self.colour)
        if names[made.red] != red:
            raise MadeError(
                _("expected {red} as Red: {chooser} chose {colour}, got {given}").format(
                    red=repr(names[made.red]),
                    chooser=names[other(side)],
                    colour=colour_word(self.colour.value),
                    given=repr(red),
                ),
                key="red",
            )
        return made

    def chooser_of(self, names: tuple[str, str]) -> str:
        """The player who picked the colour."""
        return names[1] if self.cutter == names[0] else names[0]

    def colours(self, stage: Stage, names: tuple[str, str]) -> tuple[str, str]:
        chooser = self.chooser_of(names)
        return (chooser, self.cutter) if self.colour is Colour.RED else (self.cutter, chooser)

    def clock(self, stage: Stage) -> tuple[float, float]:
        assert stage.cut is not None
        return (self.red_minutes, stage.cut.black_minutes)

    def text(self, red: str, black: str, clock: tuple[float, float]) -> str:
        """``A cuts Red 17.3 min v Black 10 min; B chooses black: A Red v B Black``."""
        chooser = black if red == self.cutter else red
        return _(
            "{cutter} cuts Red {cut:g} min v Black {black_min:g} min; {chooser} chooses "
            "{colour}: {red} Red {red_min:g} min v {black} Black {black_min:g} min"
        ).format(
            cutter=self.cutter,
            cut=self.red_minutes,
            chooser=chooser,
            colour=colour_word(self.colour.value),
            red=red,
            red_min=clock[0],
            black=black,
            black_min=clock[1],
        )

    def range_problems(self, stage: Stage) -> list[tuple[str, str]]:
        return _red_minutes_problems("", self.red_minutes, stage)

    @classmethod
    def claims(cls, entry: Any, fmt: Format) -> bool:
        return entry.cutter is not None or entry.red_minutes is not None

    @classmethod
    def entry_problems(cls, key: str, entry: Any, fmt: Format, names: list[str]) -> list[Problem]:
        what = "a cut gives cutter, red_minutes and colour (the colour the other player took)"
        out = [
            (f"{key}.{k}", f"expected no {k}: {what}")
            for k in ("chooser", "announce", "reply", "bids", "lot_black")
            if getattr(entry, k) is not None
        ]
        needed = {
            "cutter": "who cut (named Red's minutes)",
            "red_minutes": "Red's base minutes the cutter named",
            "colour": "'red' or 'black' (the colour the other player took)",
        }
        out += [
            (f"{key}.{k}", f"expected {why} ({what}), got nothing")
            for k, why in needed.items()
            if getattr(entry, k) is None
        ]
        stage = fmt.cut_stage
        if stage is None or entry.stage != stage.name:
            where = repr(stage.name) if stage is not None else "none: the format has no cut"
            out.append(
                (
                    f"{key}.stage",
                    f"expected the stage settled by cut-and-choose ({where}), got {entry.stage!r}",
                )
            )
        if entry.cutter is not None and entry.cutter.strip() not in names:
            out.append((f"{key}.cutter", f"unknown player {entry.cutter!r}"))
        if stage is not None and entry.red_minutes is not None:
            out += _red_minutes_problems(key, float(entry.red_minutes), stage)
        return out


def _red_minutes_problems(key: str, red_minutes: float, stage: Stage) -> list[Problem]:
    """A cut's Red minutes outside the stage's ``min_red_minutes`` .. ``max_red_minutes``."""
    cut = stage.cut
    if cut is None:
        return []
    low, high = cut.min_red_minutes, cut.max_red_minutes
    if math.isfinite(red_minutes) and low <= red_minutes <= high:
        return []
    at = f"{key}." if key else ""
    return [
        (
            f"{at}red_minutes",
            f"expected Red's minutes from {low:g} (min_red_minutes) to {high:g} "
            f"(max_red_minutes), got {red_minutes:g}",
        )
    ]


@dataclass(frozen=True)
class MadeSealed(Made):
    """Sealed Armageddon bids: each player's bid (Black's minutes), by name, and with equal
    bids the player the lot gave Black."""

    bids: Mapping[str, float] = field(hash=False)
    lot_black: str | None = None

    kind: ClassVar[str] = "sealed"
    usage: ClassVar[str] = N_("--bid NAME=MINUTES --bid NAME=MINUTES")
    at_words: ClassVar[str] = N_("its sealed Armageddon bids")
    decision_kind: ClassVar[DecisionKind] = "sealed-bid"
    rule: ClassVar[ColourRule] = ColourRule.SEALED_BID
    decision: ClassVar[type] = SealedBids
    words: ClassVar[str] = N_("sealed bids")
    keys: ClassVar[tuple[str, ...]] = ("bids", "lot_black")
    decider_key: ClassVar[str | None] = None
    recordable: ClassVar[str] = "bids (and lot_black for equal bids)"

    def to_fields(self) -> dict[str, Any]:
        out: dict[str, Any] = {"bids": dict(self.bids)}
        if self.lot_black is not None:
            out["lot_black"] = self.lot_black
        return out

    @classmethod
    def from_fields(cls, fields: Mapping[str, Any]) -> MadeSealed:
        bids = fields.get("bids")
        if bids is None:
            raise MadeError(_("sealed bids need bids"), key="bids")
        lot = fields.get("lot_black")
        return cls(
            {_strip(k): float(v) for k, v in bids.items()}, None if lot is None else _strip(lot)
        )

    @classmethod
    def article_words(cls) -> str:
        return "sealed bids"

    @property
    def black(self) -> str:
        """Who plays Black: the lower bid (equal bids: the lot's)."""
        (a, bid_a), (b, bid_b) = self.bids.items()
        if bid_a == bid_b:
            return self.lot_black if self.lot_black in (a, b) else b
        return a if bid_a < bid_b else b

    def settle(
        self, decision: Decision, names: tuple[str, str], times: Mapping[str, float], red: str
    ) -> SealedMade:
        assert isinstance(decision, SealedBids)
        bids = self.bids
        if set(bids) != set(names):
            raise MadeError(
                _("expected one bid from each of {a} and {b}, got bids from {found}").format(
                    a=repr(names[0]),
                    b=repr(names[1]),
                    found=_(", ").join(repr(k) for k in bids) or _("nobody"),
                ),
                key="bids",
            )
        bid_a, bid_b = float(bids[names[0]]), float(bids[names[1]])
        if bid_a == bid_b:
            if self.lot_black not in names:
                raise MadeError(
                    _(
                        "expected lot_black = {a} or {b} (equal bids of {minutes:g} min: the lot "
                        "gives Black), got {given}"
                    ).format(
                        a=repr(names[0]),
                        b=repr(names[1]),
                        minutes=bid_a,
                        given=repr(self.lot_black),
                    ),
                    key="lot_black",
                )
            black: Side = 0 if self.lot_black == names[0] else 1
        elif self.lot_black is not None:
            raise MadeError(
                _(
                    "expected no lot_black: the bids differ ({a} {a_minutes:g}, {b} "
                    "{b_minutes:g} min), so the lower bid plays Black"
                ).format(a=names[0], a_minutes=bid_a, b=names[1], b_minutes=bid_b),
                key="lot_black",
            )
        else:
            black = 0 if bid_a < bid_b else 1
        made = SealedMade((bid_a, bid_b), black)
        if names[made.red] != red:
            raise MadeError(
                _(
                    "expected {red} as Red: {black} plays Black (sealed bids {a} {a_minutes:g}, "
                    "{b} {b_minutes:g} min), got {given}"
                ).format(
                    red=repr(names[made.red]),
                    black=names[black],
                    a=names[0],
                    a_minutes=bid_a,
                    b=names[1],
                    b_minutes=bid_b,
                    given=repr(red),
                ),
                key="red",
            )
        return made

    def colours(self, stage: Stage, names: tuple[str, str]) -> tuple[str, str]:
        black = self.black
        (a, _bid_a), (b, _bid_b) = self.bids.items()
        return (b, a) if black == a else (a, b)

    def clock(self, stage: Stage) -> tuple[float, float]:
        assert stage.sealed_bid is not None
        rule = stage.sealed_bid
        values = list(self.bids.values())
        return (rule.red_minutes, min(values) if rule.price == "first" else max(values))

    def text(self, red: str, black: str, clock: tuple[float, float]) -> str:
        """``bids A 6 min, B 8.5 min: A Black 8.5 min v B Red 10 min``."""
        bids = _(", ").join(
            _("{name} {minutes:g} min").format(name=n, minutes=v) for n, v in self.bids.items()
        )
        lot = (
            _(" (equal bids: {name} Black by lot)").format(name=self.lot_black)
            if self.lot_black
            else ""
        )
        return _(
            "bids {bids}{lot}: {black} Black {black_min:g} min v {red} Red {red_min:g} min"
        ).format(bids=bids, lot=lot, black=black, black_min=clock[1], red=red, red_min=clock[0])

    def range_problems(self, stage: Stage) -> list[tuple[str, str]]:
        return _bid_range_problems("", self.bids, stage)

    def rule_fields(self, stage: Stage) -> dict[str, Any]:
        assert stage.sealed_bid is not None
        return {"price": stage.sealed_bid.price}

    @classmethod
    def entry_problems(cls, key: str, entry: Any, fmt: Format, names: list[str]) -> list[Problem]:
        what = "sealed bids give bids (and lot_black for equal bids)"
        out = [
            (f"{key}.{k}", f"expected no {k}: {what}")
            for k in ("chooser", "announce", "reply", "colour", "cutter", "red_minutes")
            if getattr(entry, k) is not None
        ]
        stage = fmt.sealed_bid_stage
        if stage is None or entry.stage != stage.name:
            where = repr(stage.name) if stage is not None else "none: the format has no sealed bids"
            out.append(
                (
                    f"{key}.stage",
                    f"expected the stage whose colours sealed bids settle ({where}), got "
                    f"{entry.stage!r}",
                )
            )
        if entry.bids is None:
            return [
                *out,
                (
                    f"{key}.bids",
                    "expected bids = {NAME = MINUTES, NAME = MINUTES} (lot_black comes with "
                    "them), got nothing",
                ),
            ]
        bids = {k.strip(): float(v) for k, v in entry.bids.items()}
        if len(bids) != 2 or len(entry.bids) != 2:
            out.append(
                (
                    f"{key}.bids",
                    f"expected the two players' bids, got {len(entry.bids)}: "
                    f"{', '.join(entry.bids) or 'none'}",
                )
            )
        out += [
            (f"{key}.bids.{name}", f"unknown player {name!r}") for name in bids if name not in names
        ]
        if stage is not None:
            out += _bid_range_problems(key, bids, stage)
        values = list(bids.values())
        equal = len(values) == 2 and values[0] == values[1]
        lot = None if entry.lot_black is None else entry.lot_black.strip()
        if equal and lot is None:
            out.append(
                (
                    f"{key}.lot_black",
                    f"expected the player the lot gave Black (equal bids of {values[0]:g} min), "
                    "got nothing",
                )
            )
        elif not equal and lot is not None and len(values) == 2:
            out.append(
                (
                    f"{key}.lot_black",
                    "expected no lot_black: the bids differ, so the lower bid plays Black",
                )
            )
        elif lot is not None and lot not in bids:
            out.append((f"{key}.lot_black", f"expected one of the bidders, got {lot!r}"))
        return out


def _bid_range_problems(key: str, bids: Mapping[str, float], stage: Stage) -> list[Problem]:
    """Sealed bids outside the stage's ``min_black_minutes`` .. ``red_minutes``."""
    sealed = stage.sealed_bid
    if sealed is None:
        return []
    low, high = sealed.min_black_minutes, sealed.red_minutes
    at = f"{key}." if key else ""
    return [
        (
            f"{at}bids.{name}",
            f"expected Black's minutes from {low:g} (min_black_minutes) to {high:g} "
            f"(red_minutes), got {value:g}",
        )
        for name, value in bids.items()
        if not (math.isfinite(value) and low <= value <= high)
    ]


def claiming_order() -> list[type[Made]]:
    """The kinds in the order they claim a ``[[played]]`` entry: sealed bids and a cut first
    (their keys are their own), the others as defined, the bid last (it claims any of its keys
    no other kind claimed)."""
    first: list[type[Made]] = [MadeSealed, MadeCut]
    rest = [c for c in MADE.values() if c not in (*first, MadeBid)]
    return [*first, *rest, MadeBid]
