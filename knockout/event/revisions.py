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

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from knockout.event.database import EventRows
from knockout.event.journal import UNDOABLE, Entry
from knockout.event.state import (
    THIRD_ID,
    Event,
    Match,
    NextGame,
    PendingBid,
    PendingChoice,
    PendingCut,
    PendingSealed,
)

Step = NextGame | PendingBid | PendingChoice | PendingSealed | PendingCut | None

__all__ = ["Conflict", "later_conflicts"]


@dataclass(frozen=True)
class Conflict:
    """A later entry that a change would invalidate.

    Attributes:
        entry: The entry.
        why: What no longer fits, in a few words.
    """

    entry: Entry
    why: str


def _downstream(event: Event, match: str) -> set[str]:
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
    undone = {e.undoes for e in rows.entries if e.undoes is not None}
    live = [e for e in rows.entries if e.seq not in undone and e.kind != "undo"]
    before = [e for e in live if e.seq <= at and e.seq not in dropped]
    kept: list[Entry] = [*before, *changed]
    event = Event.replay(source, replace(rows, entries=tuple(kept)))
    watched = _downstream(event, match)
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
        return f"it corrects #{target}, taken back too" if target in left_out else None
    if e.kind == "withdraw":
        assert e.player is not None
        now = event.match_of(e.player)
        if e.player in event.withdrawn or now is None or now.id != e.match:
            where = "no match left" if now is None else f"in {now.id}"
            return f"{e.player} would be {where}, not in {e.match}"
        return None
    m = _match(event, e.match)
    if m is None or m.players is None:
        return f"{e.match} would not have its players yet"
    if m.winner is not None:
        return f"{e.match} would already be decided ({m.winner} wins)"
    step = event.next_step(m)
    check = _DECISION_MISFITS.get(e.kind, _game_misfit)
    return check(e, m, step)


def _bid_misfit(e: Entry, m: Match, step: Step) -> str | None:
    d = e.fields
    if not isinstance(step, PendingBid):
        return f"{e.match} would not be at its sudden-death bid"
    if step.chooser is not None and step.chooser != d["chooser"]:
        return f"甲 would be {step.chooser}, not {d['chooser']}"
    if step.chooser is None and d.get("chosen_by") == "times":
        return f"甲 would not be known from the times (it was {d['chooser']})"
    return None


def _sealed_misfit(e: Entry, m: Match, step: Step) -> str | None:
    if not isinstance(step, PendingSealed) or step.number != e.game:
        return f"{m.id} would not be at the sealed bids of game {e.game}"
    return None


def _cut_misfit(e: Entry, m: Match, step: Step) -> str | None:
    d = e.fields
    if not isinstance(step, PendingCut) or step.number != e.game:
        return f"{m.id} would not be at the cut of game {e.game}"
    if step.chooser is not None and step.chooser != d["cutter"]:
        return f"the cutter would be {step.chooser}, not {d['cutter']}"
    if step.chooser is None and d.get("chosen_by") == "times":
        return f"the cutter would not be known from the times (it was {d['cutter']})"
    return None


def _choice_misfit(e: Entry, m: Match, step: Step) -> str | None:
    if not isinstance(step, PendingChoice) or step.number != e.game:
        return f"{m.id} would not be at the colour choice of game {e.game}"
    if step.chooser is not None and step.chooser != e.fields["chooser"]:
        return f"the chooser would be {step.chooser}, not {e.fields['chooser']}"
    return None


def _game_misfit(e: Entry, m: Match, step: Step) -> str | None:
    """A game (or a correction) that no longer fits: the match is not at that game, or its
    colours or stage differ."""
    d = e.fields
    if isinstance(step, PendingChoice):
        return f"{m.id} would be at a colour choice, not at game {e.game}"
    if isinstance(step, PendingSealed):
        return f"{m.id} would be at its sealed bids, not at game {e.game}"
    if isinstance(step, PendingCut):
        return f"{m.id} would be at its cut, not at game {e.game}"
    if not isinstance(step, NextGame):
        return f"{m.id} would be at its sudden-death bid, not at game {e.game}"
    if step.number != e.game:
        return f"game {step.number} of {m.id} would be next, not game {e.game}"
    if (step.red, step.black) != (d["red"], d["black"]) or step.stage != d["stage"]:
        return (
            f"{m.id} game {e.game} would be {step.red} (Red) v {step.black} (Black), {step.stage}"
        )
    return None


#: How each kind of decision entry is checked (anything else is checked as a game).
_DECISION_MISFITS: dict[str, Callable[[Entry, Match, Step], str | None]] = {
    "bid": _bid_misfit,
    "choice": _choice_misfit,
    "sealed": _sealed_misfit,
    "cut": _cut_misfit,
}
