"""The decisions the arbiter records, one path for every kind.

A decision the players make before a game (a sudden-death bid, a colour choice, sealed bids, a
cut) reaches the journal the same way whatever its kind: an :class:`Answer` reads what the
arbiter gave into the decision's one typed value (:mod:`knockout.rules.decisions.made`) against
the decision still open, and :func:`decision_entry` checks the match, writes the colours and
clocks the decision gives, and returns the one kind of entry (``decision``). The commands
``bid``, ``choose``, ``sealed`` and ``cut`` only parse their options into an answer
(:func:`bid_answer`, :func:`choice_answer`, :func:`sealed_answer`, :func:`cut_answer`); a decision
already complete (a scenario's ``[[played]]``, Python) is :func:`given`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from knockout.event.errors import refused
from knockout.event.journal import Entry
from knockout.event.state import Event, NextGame, PendingDecision
from knockout.game import Colour, Reply
from knockout.i18n import _
from knockout.i18n.terms import stage_label
from knockout.i18n.typed import half_width, typed_colour, typed_reply, typed_text
from knockout.rules.decisions.kinds import Choice, CutChoice, SealedBids
from knockout.rules.decisions.made import Made, MadeBid, MadeChoice, MadeCut, MadeSealed

__all__ = [
    "Answer",
    "bid_answer",
    "choice_answer",
    "cut_answer",
    "decision_entry",
    "given",
    "sealed_answer",
    "step_words",
]

_T = TypeVar("_T")

#: How an answer reads what the arbiter gave, against the decision still open: the decision,
#: and how who decided first was found (``times``, ``rule``, ``lot``; None: nobody first).
Reader = Callable[[Event, PendingDecision], tuple[Made, str | None]]


@dataclass(frozen=True)
class Answer:
    """What the arbiter gave for a decision of kind ``made``, read against the open decision
    by ``read`` (which refuses, one line, what does not fit)."""

    made: type[Made]
    read: Reader


def decision_entry(
    event: Event, seq: int, at: str, command: str, *, match: str, answer: Answer
) -> Entry:
    """The entry for a decision the players made before a match's next game; it fixes the
    game's colours (and clocks) by the rule.

    Raises:
        EventRefused: The match is not at a decision of that kind, it is already recorded, or
            the answer does not fit (see each answer).
    """
    m = event.find_match(match)
    event.check_playable(m)
    step = event.next_step(m)
    assert step is not None
    kind = answer.made
    if isinstance(step, NextGame) and step.colours == kind.kind:
        recorded = m.decisions[step.number]
        raise refused(
            event.source,
            m.id,
            _(
                "expected one {what} per game, found one already recorded ({recorded}); to "
                "change it, undo it"
            ).format(what=_(kind.words), recorded=recorded.text()),
        )
    if not isinstance(step, PendingDecision) or step.made is not kind:
        raise refused(
            event.source,
            m.id,
            _("expected a match at {at}, found {step} next").format(
                at=_(kind.at_words), step=step_words(step)
            ),
        )
    made, chosen_by = answer.read(event, step)
    stage = event.stage_at(m)
    red, black = made.colours(stage, step.players)
    data: dict[str, Any] = {
        "kind": made.kind,
        "stage": step.stage,
        **made.to_fields(),
        "red": red,
        "black": black,
        "clock": list(made.clock(stage)),
        "chosen_by": chosen_by,
        **made.rule_fields(stage),
    }
    return Entry(seq, at, "decision", match=m.id, game=step.number, data=data, command=command)


def step_words(step: NextGame | PendingDecision) -> str:
    """What a match has next, in words (for a refusal)."""
    if isinstance(step, PendingDecision):
        made = step.made
        return _("the {what} of game {game} (knockout event {command})").format(
            what=_(made.words), game=step.number, command=made.command
        )
    return _("game {game} ({stage}), whose colours the rules set").format(
        game=step.number, stage=stage_label(step.stage)
    )


# --- the answers ---------------------------------------------------------------------------


def given(made: Made) -> Answer:
    """A decision already complete (a scenario's ``[[played]]`` entry, Python): who decided
    first must be who the rule names, when it names one."""

    def read(event: Event, step: PendingDecision) -> tuple[Made, str | None]:
        decider = made.decider
        if decider is None:
            return made, None
        _who, chosen_by = _decider(event, step, decider)
        return made, chosen_by

    return Answer(type(made), read)


def bid_answer(announce: str, reply: str, chooser: str | None = None) -> Answer:
    """The sudden-death bid as typed: 甲's announcement (``red``, ``black``), 乙's reply
    (``accept``, ``object``), and 甲 when the clocks do not say (the arbiter's lot)."""

    def read(event: Event, step: PendingDecision) -> tuple[Made, str | None]:
        colour = _choice(event, "--announce", announce, {"red": Colour.RED, "black": Colour.BLACK})
        answer = _choice(event, "--reply", reply, {"accept": Reply.ACCEPT, "object": Reply.OBJECT})
        first, chosen_by = _decider(event, step, chooser)
        return MadeBid(first, colour, answer), chosen_by

    return Answer(MadeBid, read)


def choice_answer(colour: str, chooser: str | None = None) -> Answer:
    """A colour choice as typed: the colour taken, and who chose when a lot decided it."""

    def read(event: Event, step: PendingDecision) -> tuple[Made, str | None]:
        taken = _choice(event, "COLOUR", colour, {"red": Colour.RED, "black": Colour.BLACK})
        name, chosen_by = _decider(event, step, chooser)
        return MadeChoice(name, taken), chosen_by

    return Answer(MadeChoice, read)


def sealed_answer(bids: Sequence[str], lot_black: str | None = None) -> Answer:
    """Sealed Armageddon bids as typed: ``NAME=MINUTES`` for each player (Black's minutes
    they would take); the lower bid plays Black (on its own time at the first price, on the
    higher bid's at the second); equal bids need the lot's Black."""

    def read(event: Event, step: PendingDecision) -> tuple[Made, str | None]:
        assert isinstance(step.decision, SealedBids)
        rule = step.decision.sealed
        given_bids = _sealed_bids(event, step, bids, rule.min_black_minutes, rule.red_minutes)
        a, b = step.players
        lot = None if lot_black is None else event.find_player(lot_black, "--lot-black")
        if given_bids[a] == given_bids[b]:
            if lot is None:
                raise refused(
                    event.source,
                    "--lot-black",
                    _(
                        "expected --lot-black NAME ({a} or {b}): the bids are equal "
                        "({minutes:g} min), so a lot gives Black"
                    ).format(a=a, b=b, minutes=given_bids[a]),
                )
            if lot not in step.players:
                raise refused(
                    event.source,
                    "--lot-black",
                    _("expected {red} or {black} (the players of {key}), found {name}").format(
                        red=a, black=b, key=step.match, name=lot
                    ),
                )
        elif lot is not None:
            raise refused(
                event.source,
                "--lot-black",
                _(
                    "expected no --lot-black: the bids differ ({a} {a_minutes:g}, {b} "
                    "{b_minutes:g} min), so the lower bid plays Black"
                ).format(a=a, a_minutes=given_bids[a], b=b, b_minutes=given_bids[b]),
            )
        return MadeSealed({n: given_bids[n] for n in step.players}, lot), None

    return Answer(MadeSealed, read)


def _sealed_bids(
    event: Event, step: PendingDecision, bids: Sequence[str], low: float, high: float
) -> dict[str, float]:
    """Each player's bid, by name, checked: ``NAME=MINUTES``, a player of the match once, a
    number from ``low`` to ``high``, both players."""
    out: dict[str, float] = {}
    for item in bids:
        name_text, sep, value_text = half_width(item).rpartition("=")
        if not sep or not name_text.strip():
            raise refused(
                event.source,
                "--bid",
                _("expected NAME=MINUTES (Black's minutes), found {item}").format(item=repr(item)),
            )
        name = event.find_player(name_text.strip(), "--bid")
        if name not in step.players:
            raise refused(event.source, "--bid", _not_of_match(step, name))
        if name in out:
            raise refused(
                event.source, "--bid", _("expected {name} once, found twice").format(name=name)
            )
        value = _minutes(event, "--bid", value_text, item)
        if not low <= value <= high:
            raise refused(
                event.source,
                "--bid",
                _(
                    "expected Black's minutes from {low:g} to {high:g} (Red's clock) for {name}, "
                    "found {value:g}"
                ).format(low=low, high=high, name=name, value=value),
            )
        out[name] = value
    missing = [n for n in step.players if n not in out]
    if missing:
        raise refused(
            event.source,
            "--bid",
            _("expected a bid from each player ({players}), found none from {missing}").format(
                players=_(" and ").join(step.players), missing=_(" and ").join(missing)
            ),
        )
    return out


def cut_answer(red_minutes: str, colour: str, cutter: str | None = None) -> Answer:
    """A cut as typed: Red's base minutes the cutter named against Black's fixed clock, the
    colour the other player took, and the cutter when the clocks do not say."""

    def read(event: Event, step: PendingDecision) -> tuple[Made, str | None]:
        assert isinstance(step.decision, CutChoice)
        minutes = _minutes(event, "--red-minutes", red_minutes)
        low, high = step.decision.cut.min_red_minutes, step.decision.cut.max_red_minutes
        if not low <= minutes <= high:
            raise refused(
                event.source,
                "--red-minutes",
                _("expected Red's minutes from {low:g} to {high:g}, found {minutes:g}").format(
                    low=low, high=high, minutes=minutes
                ),
            )
        taken = _choice(event, "--colour", colour, {"red": Colour.RED, "black": Colour.BLACK})
        name, chosen_by = _decider(event, step, cutter)
        return MadeCut(name, minutes, taken), chosen_by

    return Answer(MadeCut, read)


# --- who decides first ---------------------------------------------------------------------


def _decider(event: Event, step: PendingDecision, given: str | None) -> tuple[str, str]:
    """Who decides first (甲, the chooser, the cutter) and how it was found: ``times`` (used
    less time in the previous game), ``rule`` (the format names them), or ``lot`` (the
    arbiter's lot, given as the decision's option)."""
    made = step.made
    key, who = f"--{made.decider_key}", _(made.decider_words)
    times = _(", ").join(
        _("{name} {seconds:g} s").format(name=n, seconds=s) for n, s in step.times.items()
    )
    players = _(" or ").join(step.players)
    if step.chooser is not None:
        if given is not None and event.find_player(given, key) != step.chooser:
            reason = (
                _("the format names {name} to choose the colours").format(name=step.chooser)
                if step.why == "rule"
                else _("{who} is {name}, who used less time in the previous game ({times})").format(
                    who=who, name=step.chooser, times=times
                )
            )
            raise refused(
                event.source,
                key,
                _("expected {name} or no {key}: {reason}; found {given}").format(
                    name=step.chooser, key=key, reason=reason, given=repr(given)
                ),
            )
        return step.chooser, "rule" if step.why == "rule" else "times"
    if given is None:
        if isinstance(step.decision, Choice):
            message = _(
                "expected {key} NAME ({players}): a lot decides who chooses the colours, and "
                "the arbiter's lot names them"
            ).format(key=key, players=players)
        else:
            why = {
                "tie": _("equal times in the previous game ({times})").format(times=times),
                "lot": _("the priority rule of this event is a lot"),
                "unknown": _("the previous game's times were not recorded"),
            }.get(step.why or "", "")
            message = _(
                "expected {key} NAME ({players}), the arbiter's lot: {who} is not known from "
                "the clocks ({why})"
            ).format(key=key, players=players, who=who, why=why)
        raise refused(event.source, key, message)
    name = event.find_player(given, key)
    if name not in step.players:
        raise refused(event.source, key, _not_of_match(step, name))
    return name, "lot"


def _not_of_match(step: PendingDecision, name: str) -> str:
    """The refusal of a name that is not one of the match's two players."""
    red, black = step.players
    return _("expected {red} or {black} (the players of {key}), found {name}").format(
        red=red, black=black, key=step.match, name=name
    )


def _choice(event: Event, key: str, text: str, options: Mapping[str, _T]) -> _T:
    found = options.get(typed_colour(typed_reply(text)).lower())
    if found is None:
        raise refused(
            event.source,
            key,
            _("expected {options}, found {text}").format(
                options=_(" or ").join(options), text=repr(text)
            ),
        )
    return found


def _minutes(event: Event, key: str, text: str, item: str | None = None) -> float:
    """A number of minutes as typed (a real number, kept as given: not rounded)."""
    shown = repr(item if item is not None else text)
    try:
        value = float(typed_text(text))
    except ValueError:
        value = math.nan
    if not math.isfinite(value):
        raise refused(
            event.source, key, _("expected a number of minutes, found {shown}").format(shown=shown)
        )
    return value
