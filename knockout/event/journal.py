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
* ``undo``: reverses one earlier entry (``undoes``); an entry is reversed at most once.

The event's state is the journal replayed (:mod:`knockout.event.state`), so there is no second
copy of the state that could disagree with it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Literal, get_args

__all__ = [
    "ENTRY_KINDS",
    "LEGACY_DECISION_KINDS",
    "UNDOABLE",
    "Entry",
    "EntryKind",
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
