"""Late changes of player, applied when the journal is replayed.

``amend`` entries correct a player's name, ratings or federation; ``replace`` entries put a
reserve in the place of a player who has not played. Both keep the draw: the new name takes the
old one's line, and when a changed rating would seed the draw differently, the draw is pinned to
the seeds it was made with (``seeding = "given"``), so match IDs, pairings and boards never move.
A name changed after games were recorded is changed in every entry that names it (the games stay
the same player's).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from knockout.event.journal import Entry
from knockout.rules.book.bracket import Bracket
from knockout.rules.decisions.made import made_of_fields
from knockout.rules.scenario.aggregate import Scenario

__all__ = ["Roster", "renamed", "roster"]

#: The data keys of each kind of entry that hold a player's name.
_NAME_KEYS: Mapping[str, tuple[str, ...]] = {
    "game": ("red", "black"),
    "correct": ("red", "black"),
    # the colours it gives, and the names written beside a decision by the older schema (乙,
    # the player who chose after a cut); the decision's own names rename themselves (below)
    "decision": ("red", "black", "bidder", "chooser"),
}
#: The data keys holding a mapping by player's name (its keys are renamed).
_BY_NAME = ("time_used", "bids")


@dataclass(frozen=True)
class Roster:
    """The players after the late changes in force.

    Attributes:
        base: The event's scenario with the changes (names, ratings; a pinned draw if needed).
        federations: Federation (or None) by current name, in entry-list order.
        names: Every former name to the current one.
        former: Every former name to the entry that changed it (``amend`` or ``replace``).
        pinned: The draw was pinned to its first seeds (a changed rating would move it).
    """

    base: Scenario
    federations: Mapping[str, str | None]
    names: Mapping[str, str]
    former: Mapping[str, Entry]
    pinned: bool = False


def roster(base: Scenario, federations: Mapping[str, str | None], live: Sequence[Entry]) -> Roster:
    """The players after the ``amend`` and ``replace`` entries in ``live`` (entries in force,
    in journal order)."""
    changes = [e for e in live if e.kind in ("amend", "replace") and e.player]
    if not changes:
        return Roster(base, federations, {}, {})
    names: dict[str, str] = {}
    former: dict[str, Entry] = {}
    players = {p.name: p for p in base.players}
    current = {p.name: p.name for p in base.players}  # first name -> current name
    feds = {current[n]: f for n, f in federations.items() if n in current}
    for e in changes:
        old = e.player
        assert old is not None
        d = e.fields
        first = next((k for k, v in current.items() if v == old), None)
        if first is None:
            continue  # refused when written; a journal edited by hand is caught by the rules
        new = d.get("name") or old
        player = players[first]
        player = replace(
            player,
            name=new,
            rating=float(d.get("rating", player.rating)),
            rating_rapid=_maybe(d, "rating_rapid", player.rating_rapid, e.kind),
            rating_blitz=_maybe(d, "rating_blitz", player.rating_blitz, e.kind),
        )
        players[first] = player
        current[first] = new
        fed = feds.pop(old, None)
        feds[new] = d.get("federation", fed)
        if new != old:
            former.pop(new, None)  # a name given back to the player who had it
            former[old] = e
            for k, v in names.items():
                if v == old:
                    names[k] = new
            names[old] = new
            names.pop(new, None)
    changed = tuple(players[p.name] for p in base.players)
    pinned = False
    new_base = replace(base, players=changed)
    original = _draw(base)
    if _draw(new_base).lines != tuple(current.get(n, n) if n else n for n in original.lines):
        seeds = {current[n]: s for n, s in original.seeds.items()}
        new_base = replace(
            new_base,
            players=tuple(replace(p, seed=seeds[p.name]) for p in changed),
            bracket=replace(base.bracket, seeding="given"),
        )
        pinned = True
    ordered = {current[n]: feds.get(current[n]) for n in federations if n in current}
    return Roster(new_base, ordered, names, former, pinned)


def _maybe(d: Mapping[str, Any], key: str, old: float | None, kind: str) -> float | None:
    if key in d:
        return None if d[key] is None else float(d[key])
    return None if kind == "replace" else old


def _draw(sc: Scenario) -> Bracket:
    b = sc.bracket
    return Bracket.draw(
        sc.players, seeding=b.seeding, draw_seed=b.draw_seed, third_place=b.third_place
    )


def renamed(entry: Entry, names: Mapping[str, str]) -> Entry:
    """``entry`` with every former name in ``names`` replaced by the current one."""
    if not names or entry.kind in ("amend", "replace", "new", "undo"):
        return entry
    d = dict(entry.fields)
    changed = False
    for key in _NAME_KEYS.get(entry.kind, ()):
        if d.get(key) in names:
            d[key] = names[d[key]]
            changed = True
    for key in _BY_NAME:
        by_name = d.get(key)
        if isinstance(by_name, dict) and any(n in names for n in by_name):
            d[key] = {names.get(n, n): v for n, v in by_name.items()}
            changed = True
    if entry.kind == "decision":
        made = made_of_fields(d["kind"], d)
        fields = made.renamed(names).to_fields()
        changed = changed or fields != made.to_fields()
        d.update(fields)
    player = names.get(entry.player, entry.player) if entry.player else entry.player
    if not changed and player == entry.player:
        return entry
    return replace(entry, data=d, player=player)
