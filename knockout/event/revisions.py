"""What a change in the middle of the journal does to the entries after it.

A correction (``correct``) or an undo of one match's last entry (``undo --match``) changes the
journal at an earlier point than its end. Every later entry in force was checked against the
event as it stood when it was written; :func:`later_conflicts` checks each again against the
event with the change, in journal order, and returns those that no longer fit: a game whose
match is now decided before it, or whose players or colours are now different; a bid whose 甲
(or a cut whose cutter) is now someone else; a withdrawal from a match the player is no longer
in; a correction of an entry that no longer fits. An entry that does not fit is left out when
the entries after it are checked, so an entry that needed it is found too.

Only entries of the changed match and of the matches its result feeds (later rounds on its
side of the draw, and the match for third place) are checked; the others cannot depend on it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from knockout.event.database import EventRows
from knockout.event.journal import UNDOABLE, Entry, undone_by
from knockout.event.state import (
    THIRD_ID,
    Event,
    Match,
    NextGame,
    PendingDecision,
)
from knockout.i18n import _
from knockout.i18n.terms import stage_label
from knockout.rules.decisions.made import made_of_fields

Step = NextGame | PendingDecision | None

__all__ = ["Conflict", "downstream", "later_conflicts"]


@dataclass(frozen=True)
class Conflict:
    """A later entry that a change would invalidate.

    Attributes:
        entry: The entry.
        why: What no longer fits, in a few words.
    """

    entry: Entry
    why: str


def downstream(event: Event, match: str) -> set[str]:
    """``match`` and every match its result feeds."""
    m = event.find_match(match)
    k, index = m.key
    rounds = event.rounds
    out = {m.id}
    if m.id == THIRD_ID:
        return out
    for j in range(k + 1, rounds + 1):
        nxt = event.by_key((j, index >> (j - k)))
        if nxt is not None:
            out.add(nxt.id)
    if event.third_place is not None and k < rounds:
        out.add(THIRD_ID)
    return out


def later_conflicts(
    source: str,
    rows: EventRows,
    *,
    at: int,
    match: str,
    changed: Sequence[Entry] = (),
    dropped: frozenset[int] = frozenset(),
) -> list[Conflict]:
    """The entries after entry ``at`` (still in force) that no longer fit once the journal has
    ``changed`` appended at that point and the entries ``dropped`` taken out.

    Args:
        source: The file, for messages.
        rows: The event file as it stands.
        at: Where the change is: later entries are checked.
        match: The match the change is in.
        changed: New entries placed at that point (a correction).
        dropped: Entries taken out (an undo).
    """
    undone = undone_by(rows.entries)
    live = [e for e in rows.entries if e.seq not in undone and e.kind != "undo"]
    before = [e for e in live if e.seq <= at and e.seq not in dropped]
    kept: list[Entry] = [*before, *changed]
    event = Event.replay(source, replace(rows, entries=tuple(kept)))
    watched = downstream(event, match)
    out: list[Conflict] = []
    left_out: set[int] = set(dropped)
    for e in live:
        if e.seq <= at or e.seq in dropped:
            continue
        if e.kind in UNDOABLE and e.match in watched:
            event = Event.replay(source, replace(rows, entries=tuple(kept)))
            why = _misfit(event, e, left_out)
            if why is not None:
                out.append(Conflict(e, why))
                left_out.add(e.seq)
                continue
        kept.append(e)
    return out


def _match(event: Event, mid: str | None) -> Match | None:
    return next((m for m in event.matches if m.id == mid), None)


def _misfit(event: Event, e: Entry, left_out: set[int]) -> str | None:
    """Why ``e`` does not fit ``event`` (None: it fits)."""
    d = e.fields
    if e.kind == "correct":
        target = int(d["corrects"])
        if target in left_out:
            return _("it corrects #{seq}, taken back too").format(seq=target)
        return None
    if e.kind == "withdraw":
        assert e.player is not None
        now = event.match_of(e.player)
        if e.player in event.withdrawn or now is None or now.id != e.match:
            if now is None:
                return _("{player} would be in no match left, not in {match}").format(
                    player=e.player, match=e.match
                )
            return _("{player} would be in {now}, not in {match}").format(
                player=e.player, now=now.id, match=e.match
            )
        return None
    m = _match(event, e.match)
    if m is None or m.players is None:
        return _("{match} would not have its players yet").format(match=e.match)
    if m.winner is not None:
        return _("{match} would already be decided ({winner} wins)").format(
            match=e.match, winner=m.winner
        )
    step = event.next_step(m)
    check = _decision_misfit if e.kind == "decision" else _game_misfit
    return check(e, m, step)


def _decision_misfit(e: Entry, m: Match, step: Step) -> str | None:
    """A decision that no longer fits: the match is not at a decision of its kind for that
    game, or who decides first would be someone else (or no longer known from the times)."""
    d = e.fields
    made = made_of_fields(d["kind"], d)
    number = step.number if step is not None else None
    if (
        not isinstance(step, PendingDecision)
        or step.made is not type(made)
        or (e.game is not None and number != e.game)
    ):
        return _("{match} would not be at the {what} of game {game}").format(
            match=m.id, what=_(made.words), game=e.game or number
        )
    decider, who = made.decider, _(made.decider_words)
    if decider is None:
        return None
    if step.chooser is not None and step.chooser != decider:
        return _("{who} would be {now}, not {decider}").format(
            who=who, now=step.chooser, decider=decider
        )
    if step.chooser is None and d.get("chosen_by") == "times":
        return _("{who} would not be known from the times (it was {decider})").format(
            who=who, decider=decider
        )
    return None


def _game_misfit(e: Entry, m: Match, step: Step) -> str | None:
    """A game (or a correction) that no longer fits: the match is not at that game, or its
    colours or stage differ."""
    d = e.fields
    if isinstance(step, PendingDecision):
        return _("{match} would be at its {what}, not at game {game}").format(
            match=m.id, what=_(step.made.words), game=e.game
        )
    if not isinstance(step, NextGame):
        return _("{match} would not be playable, not at game {game}").format(
            match=m.id, game=e.game
        )
    if step.number != e.game:
        return _("game {now} of {match} would be next, not game {game}").format(
            now=step.number, match=m.id, game=e.game
        )
    if (step.red, step.black) != (d["red"], d["black"]) or step.stage != d["stage"]:
        return _("{match} game {game} would be {red} (Red) v {black} (Black), {stage}").format(
            match=m.id, game=e.game, red=step.red, black=step.black, stage=stage_label(step.stage)
        )
    return None
