"""The journal: every change to an event, in order, never edited.

An :class:`Entry` is one row of the ``journal`` table. Kinds:

* ``new``: the event was created (always entry 1; it cannot be undone);
* ``game``: a game's result, with the colours, clocks, time used and moves;
* ``bid``: the sudden-death choice of a match (甲, the announcement, 乙's reply);
* ``choice``: a colour choice (who chose, the colour taken);
* ``sealed``: the two sealed Armageddon bids of a match (and the lot's Black for equal bids);
* ``cut``: a cut-and-choose decision (the cutter, Red's minutes, the colour the other took);
* ``withdraw``: a player withdrew;
* ``correct``: replaces the result (times, moves) of a game entry still in force
  (``data["corrects"]``: the entry it replaces); the game keeps its place in its match;
* ``amend``: a player's name, ratings or federation corrected (``player``: the name before);
* ``replace``: a player who has not played replaced by a reserve (``player``: who is out);
* ``undo``: reverses one earlier entry (``undoes``); an entry is reversed at most once.

The event's state is the journal replayed (:mod:`knockout.event.state`), so there is no second
copy of the state that could disagree with it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Literal, get_args

__all__ = ["ENTRY_KINDS", "UNDOABLE", "Entry", "EntryKind", "utc_now"]

EntryKind = Literal[
    "new",
    "game",
    "bid",
    "choice",
    "withdraw",
    "undo",
    "correct",
    "amend",
    "replace",
    "sealed",
    "cut",
]
ENTRY_KINDS: tuple[str, ...] = get_args(EntryKind)
#: The kinds an ``undo`` can reverse.
UNDOABLE: tuple[str, ...] = (
    "game",
    "bid",
    "choice",
    "withdraw",
    "correct",
    "amend",
    "replace",
    "sealed",
    "cut",
)


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
        match: The match ID (``game``, ``bid``, ``choice``, ``sealed``, ``cut``, ``correct``;
            ``withdraw``: the match lost).
        game: The game number within the match (``game``, ``choice``, ``sealed``, ``cut``,
            ``correct``).
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
