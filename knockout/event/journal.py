"""The journal: every change to an event, in order, never edited.

An :class:`Entry` is one row of the ``journal`` table. Kinds:

* ``new``: the event was created (always entry 1; it cannot be undone);
* ``game``: a game's result, with the colours, clocks, time used and moves;
* ``decision``: a decision the players made before a game (``data["kind"]``: a sudden-death
  ``bid``, a colour ``choice``, ``sealed`` Armageddon bids or a ``cut``; the decision's own keys,
  :mod:`knockout.rules.decisions.made`), with the colours and clocks it gives. Files of the older
  schema wrote each kind as its own entry kind (``bid``, ``choice``, ``sealed``, ``cut``); they
  are read as ``decision`` entries (:data:`LEGACY_DECISION_KINDS`);
* ``withdraw``: a player withdrew;
* ``correct``: replaces the result (times, moves) of a game entry still in force
  (``data["corrects"]``: the entry it replaces); the game keeps its place in its match;
* ``amend``: a player's name, ratings or federation corrected (``player``: the name before);
* ``replace``: a player who has not played replaced by a reserve (``player``: who is out);
* ``undo``: reverses one earlier entry (``undoes``). An undo of an undo puts the entry it
  reversed back in force: one ``undo`` of a correction written with ``--cascade`` takes back the
  correction and the cascade's undos, so the entries the cascade took back are in force again
  (:func:`undone_by`).

The event's state is the journal replayed (:mod:`knockout.event.state`), so there is no second
copy of the state that could disagree with it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Literal, get_args

__all__ = [
    "ENTRY_KINDS",
    "LEGACY_DECISION_KINDS",
    "UNDOABLE",
    "Entry",
    "EntryKind",
    "cascade_of",
    "undone_by",
    "utc_now",
]

EntryKind = Literal[
    "new",
    "game",
    "decision",
    "withdraw",
    "undo",
    "correct",
    "amend",
    "replace",
]
ENTRY_KINDS: tuple[str, ...] = get_args(EntryKind)
#: The kinds an ``undo`` can reverse.
UNDOABLE: tuple[str, ...] = (
    "game",
    "decision",
    "withdraw",
    "correct",
    "amend",
    "replace",
)
#: The entry kinds of the older schema (3) that are decisions, read as ``decision`` entries of
#: the same ``data["kind"]``.
LEGACY_DECISION_KINDS: tuple[str, ...] = ("bid", "choice", "sealed", "cut")


def utc_now() -> str:
    """The current time as UTC ISO 8601 with milliseconds (``2026-11-30T09:15:02.123Z``)."""
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


@dataclass(frozen=True)
class Entry:
    """One journal entry.

    Attributes:
        seq: Position in the journal, from 1, without gaps.
        at: When it was written (UTC, ISO 8601).
        kind: What it records.
        match: The match ID (``game``, ``decision``, ``correct``; ``withdraw``: the match lost).
        game: The game number within the match (``game``, ``decision``, ``correct``; None for
            a sudden-death bid of the older schema).
        player: The player (``withdraw``, ``amend``, ``replace``).
        data: Everything else, as stored (JSON).
        command: The command line that wrote it.
        undoes: The entry it reverses (``undo``).
    """

    seq: int
    at: str
    kind: EntryKind
    match: str | None = None
    game: int | None = None
    player: str | None = None
    data: Mapping[str, Any] | None = None
    command: str = ""
    undoes: int | None = None

    @property
    def fields(self) -> Mapping[str, Any]:
        """``data``, or an empty mapping."""
        return self.data or {}


def undone_by(entries: Sequence[Entry]) -> dict[int, int]:
    """For each entry out of force, the undo in force that reversed it.

    An undo is in force unless a later undo in force reversed it, so the journal is read from
    its end: an undo of an undo puts the first undo's entry back in force, and that entry can be
    undone again later.

    >>> g, u1 = Entry(2, "", "game"), Entry(3, "", "undo", undoes=2)
    >>> u2 = Entry(4, "", "undo", undoes=3)
    >>> undone_by([g, u1]), undone_by([g, u1, u2])
    ({2: 3}, {3: 4})
    >>> undone_by([g, u1, u2, Entry(5, "", "undo", undoes=2)])
    {2: 5, 3: 4}
    """
    out: dict[int, int] = {}
    for e in reversed(entries):
        if e.kind == "undo" and e.undoes is not None and e.seq not in out:
            out.setdefault(e.undoes, e.seq)
    return dict(sorted(out.items()))


def cascade_of(entries: Sequence[Entry], target: Entry) -> tuple[Entry, ...]:
    """The undos that ``correct --cascade`` wrote with the correction ``target`` (the entries
    just before it, in the same write, each marked with the cascade), latest first; empty for
    any other entry. An undo of ``target`` undoes them too, so the entries they took back are in
    force again.
    """
    if target.kind != "correct":
        return ()
    because = f"correct {target.match} game {target.game}"
    by_seq = {e.seq: e for e in entries}
    out: list[Entry] = []
    seq = target.seq - 1
    while seq in by_seq:
        e = by_seq[seq]
        if e.kind != "undo" or e.at != target.at or e.fields.get("cascade") != because:
            break
        out.append(e)
        seq -= 1
    return tuple(out)
