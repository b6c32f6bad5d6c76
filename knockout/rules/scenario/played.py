"""A scenario's ``[[played]]`` list: each entry checked against the format and replayed.

An entry is a game already played, or the decision recorded for the next game (a bid, a colour
choice, a cut, sealed bids); :func:`played_entries` turns the validated tables into
:class:`~knockout.rules.chain.replay.PlayedGame` values, refusing, one line per problem, an entry
whose keys do not fit its stage or whose games could not have happened.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from knockout.errors import Problem
from knockout.game import Colour, Reply, Result
from knockout.rules.book.formats import (
    CutChoose,
    Format,
    SealedBid,
)
from knockout.rules.chain.replay import PlayedGame, bid_colours
from knockout.rules.model.players import Player

if TYPE_CHECKING:
    from knockout.rules.scenario.models import _PlayedIn


def played_to_dict(g: PlayedGame) -> dict[str, Any]:
    """A ``[[played]]`` entry; a bid entry without its colours, which follow from the bid."""
    out: dict[str, Any] = {} if g.is_bid else {"red": g.red, "black": g.black}
    out["stage"] = g.stage
    if g.result is not None:
        out["result"] = g.result.value
    if g.time_used is not None:
        out["time_used"] = dict(g.time_used)
    if g.chooser is not None and g.announce is not None and g.reply is not None:
        out |= {"chooser": g.chooser, "announce": g.announce.value, "reply": g.reply.value}
    if g.chooser is not None and g.colour is not None:
        out |= {"chooser": g.chooser, "colour": g.colour.value}
    if g.cutter is not None and g.red_minutes is not None and g.colour is not None:
        out |= {"cutter": g.cutter, "red_minutes": g.red_minutes, "colour": g.colour.value}
    if g.bids is not None:
        out["bids"] = dict(g.bids)
    if g.lot_black is not None:
        out["lot_black"] = g.lot_black
    return out


def _game_problems(
    i: int, g: PlayedGame, names: set[str], fmt: Format, source: str
) -> tuple[list[Problem], bool]:
    """Problems of played game ``i`` on its own, and whether it can be replayed at all."""
    out: list[Problem] = []
    for key, name in (("red", g.red), ("black", g.black)):
        if name not in names:
            out.append(Problem(source, f"played[{i}].{key}", f"unknown player {name!r}"))
    if g.red == g.black:
        out.append(Problem(source, f"played[{i}]", f"{g.red!r} cannot play themself"))
    if g.stage not in fmt.stage_names:
        expected = ", ".join(fmt.stage_names)
        out.append(
            Problem(source, f"played[{i}].stage", f"expected one of {expected}, got {g.stage!r}")
        )
    fatal = bool(out)
    out += _decision_range_problems(f"played[{i}]", g, fmt, source)
    for name in g.time_used or {}:
        if name not in (g.red, g.black):
            out.append(
                Problem(
                    source,
                    f"played[{i}].time_used",
                    f"{name!r} did not play this game ({g.red} v {g.black})",
                )
            )
    return out, not fatal


def _decision_range_problems(key: str, g: PlayedGame, fmt: Format, source: str) -> list[Problem]:
    """A recorded cut's Red minutes and sealed bids within the stage's bounds (a scenario
    built in Python; the file path checks them when it reads the entry)."""
    cut = fmt.cut_stage.cut if fmt.cut_stage is not None else None
    sealed = fmt.sealed_bid_stage.sealed_bid if fmt.sealed_bid_stage is not None else None
    return [
        *_red_minutes_problems(key, g.red_minutes, cut, source),
        *_bid_range_problems(key, g.bids, sealed, source),
    ]


def _red_minutes_problems(
    key: str, red_minutes: float | None, cut: CutChoose | None, source: str
) -> list[Problem]:
    """A cut's Red minutes outside the stage's ``min_red_minutes`` .. ``max_red_minutes``."""
    if red_minutes is None or cut is None:
        return []
    low, high = cut.min_red_minutes, cut.max_red_minutes
    if math.isfinite(red_minutes) and low <= red_minutes <= high:
        return []
    return [
        Problem(
            source,
            f"{key}.red_minutes",
            f"expected Red's minutes from {low:g} (min_red_minutes) to {high:g} "
            f"(max_red_minutes), got {red_minutes:g}",
        )
    ]


def _bid_range_problems(
    key: str, bids: Mapping[str, float] | None, sealed: SealedBid | None, source: str
) -> list[Problem]:
    """Sealed bids outside the stage's ``min_black_minutes`` .. ``red_minutes``."""
    if bids is None or sealed is None:
        return []
    low, high = sealed.min_black_minutes, sealed.red_minutes
    return [
        Problem(
            source,
            f"{key}.bids.{name}",
            f"expected Black's minutes from {low:g} (min_black_minutes) to {high:g} "
            f"(red_minutes), got {value:g}",
        )
        for name, value in bids.items()
        if not (math.isfinite(value) and low <= value <= high)
    ]


def played_problems(
    fmt: Format,
    players: tuple[Player, ...],
    played: Sequence[tuple[int, PlayedGame]],
    source: str,
) -> list[Problem]:
    """Every played game checked alone (each match's games are then replayed through the
    chain once, when the scenario places them on the draw: :class:`EventState`)."""
    names = {p.name for p in players}
    return [p for i, g in played for p in _game_problems(i, g, names, fmt, source)[0]]


_BID_KEYS = {
    "chooser": "甲's name",
    "announce": "'red' or 'black'",
    "reply": "'accept' or 'object'",
}


def played_entries(
    raw: Sequence[_PlayedIn], fmt: Format, players: tuple[Player, ...], source: str
) -> tuple[list[tuple[int, PlayedGame]], list[Problem]]:
    """The ``[[played]]`` entries that can be read, with their indices, and the problems of
    those that cannot. A bid entry (no result) without ``red`` and ``black`` gets them from the
    bid: its match is that of the chooser's last game listed before it (with two players, the
    other player), and the bidding rule says who has Red."""
    out: list[tuple[int, PlayedGame]] = []
    problems: list[Problem] = []
    for i, g in enumerate(raw):
        found = _entry_problems(i, g, fmt, players, source)
        if found:
            problems += found
            continue
        red, black = g.red, g.black
        chooser = None if g.chooser is None else g.chooser.strip()
        cutter = None if g.cutter is None else g.cutter.strip()
        bids = None if g.bids is None else {k.strip(): float(v) for k, v in g.bids.items()}
        lot_black = None if g.lot_black is None else g.lot_black.strip()
        if (red is None or black is None) and bids is not None:
            red, black = _sealed_colours(bids, lot_black)
        elif red is None or black is None:
            decider = chooser if cutter is None else cutter
            assert decider is not None
            other = _bid_opponent(decider, [e for _, e in out], players)
            if other is None:
                what = "cut" if cutter else "colour choice" if g.colour is not None else "bid"
                problems.append(
                    Problem(
                        source,
                        f"played[{i}].{'cutter' if cutter else 'chooser'}",
                        f"expected a game of {decider}'s listed before this {what} (the games "
                        "of its match come first), got none",
                    )
                )
                continue
            red, black = _decided_colours(fmt, g, decider, other)
        out.append(
            (
                i,
                PlayedGame(
                    red.strip(),
                    black.strip(),
                    g.stage,
                    None if g.result is None else Result(g.result),
                    None if g.time_used is None else dict(g.time_used),
                    chooser,
                    None if g.announce is None else Colour(g.announce),
                    None if g.reply is None else Reply(g.reply),
                    None if g.colour is None else Colour(g.colour),
                    cutter,
                    None if g.red_minutes is None else float(g.red_minutes),
                    bids,
                    lot_black,
                ),
            )
        )
    return out, problems


def _sealed_colours(bids: Mapping[str, float], lot_black: str | None) -> tuple[str, str]:
    """``(Red, Black)`` of sealed bids: the lower bid plays Black (equal: the lot's)."""
    (a, bid_a), (b, bid_b) = bids.items()
    if bid_a == bid_b:
        black = lot_black if lot_black in (a, b) else b
    else:
        black = a if bid_a < bid_b else b
    return (b, a) if black == a else (a, b)


def _decided_colours(fmt: Format, g: _PlayedIn, chooser: str, other: str) -> tuple[str, str]:
    """``(Red, Black)`` of a decision entry given without them: the chooser's colour, the
    colours a cut gives (``chooser`` is then the cutter; the other player took ``colour``), or
    the colours the bid gives."""
    if g.cutter is not None and g.colour is not None:
        return (other, chooser) if g.colour == "red" else (chooser, other)
    if g.colour is not None:
        return (chooser, other) if g.colour == "red" else (other, chooser)
    menu = fmt.bidding_stage.bidding if fmt.bidding_stage is not None else None
    assert menu is not None and g.announce is not None and g.reply is not None
    return bid_colours(menu, chooser, other, Colour(g.announce), Reply(g.reply))


def _entry_problems(
    i: int, g: _PlayedIn, fmt: Format, players: tuple[Player, ...], source: str
) -> list[Problem]:
    """What keeps ``[[played]]`` entry ``i`` from being read: a game without both players, a
    decision (bid, colour choice) without its keys or outside the stage it belongs to, an entry
    without a result that records no decision."""
    key = f"played[{i}]"
    if _is_sealed_entry(g) and _is_cut_entry(g):
        return [
            Problem(
                source,
                key,
                "expected the keys of one decision: bids (and lot_black) for sealed bids, or "
                "cutter, red_minutes and colour for a cut; got both",
            )
        ]
    if _is_sealed_entry(g):
        out = _sealed_entry_problems(key, g, fmt, players, source)
        decision = True
    elif _is_cut_entry(g):
        out = _cut_entry_problems(key, g, fmt, players, source)
        decision = True
    elif _is_choice_entry(g, fmt):
        out = _choice_entry_problems(key, g, fmt, source)
        decision = True
    else:
        out = _bid_entry_problems(key, g, fmt, source)
        decision = g.chooser is not None or g.announce is not None or g.reply is not None
    if g.result is None and not decision:
        out.append(
            Problem(
                source,
                f"{key}.result",
                f"expected red, draw or black (only {_decisions_recordable(fmt)}, can be given "
                "without its result), got nothing",
            )
        )
    if g.result is not None:
        out += [
            Problem(source, f"{key}.{k}", "required key is missing")
            for k in ("red", "black")
            if getattr(g, k) is None
        ]
    elif (g.red is None) != (g.black is None):
        out.append(
            Problem(
                source,
                f"{key}.{'black' if g.black is None else 'red'}",
                "expected both red and black or neither (a decision's colours follow from the "
                "rule), got one",
            )
        )
    names = [p.name for p in players]
    if g.result is None and g.chooser is not None and g.chooser.strip() not in names:
        out.append(Problem(source, f"{key}.chooser", f"unknown player {g.chooser!r}"))
    if g.result is None and g.time_used is not None:
        out.append(
            Problem(
                source,
                f"{key}.time_used",
                "expected no times: a decision without a result is for a game not played yet",
            )
        )
    return out


def _decisions_recordable(fmt: Format) -> str:
    """What a ``[[played]]`` entry without a result may record, in words."""
    parts = (
        [
            f"the {s.name} game's bid, with chooser, announce and reply"
            for s in fmt.playable
            if s.is_bidding
        ]
        + [
            f"the {s.name} game's colour choice, with chooser and colour"
            for s in fmt.playable
            if s.is_choice
        ]
        + [
            f"the {s.name} game's cut, with cutter, red_minutes and colour"
            for s in fmt.playable
            if s.is_cut
        ]
        + [
            f"the {s.name} game's sealed bids, with bids (and lot_black for equal bids)"
            for s in fmt.playable
            if s.is_sealed_bid
        ]
    )
    return " or ".join(parts) or "a game whose players decide its colours (this format has none)"


def _is_choice_entry(g: _PlayedIn, fmt: Format) -> bool:
    """An entry recording a colour choice: it gives ``colour``, or a chooser at a stage whose
    colours a player chooses (and no bid keys)."""
    if g.colour is not None:
        return True
    stage = next((s for s in fmt.stages if s.name == g.stage), None)
    return (
        stage is not None
        and stage.is_choice
        and g.chooser is not None
        and g.announce is None
        and g.reply is None
    )


def _is_sealed_entry(g: _PlayedIn) -> bool:
    """An entry recording sealed bids: it gives ``bids`` or ``lot_black``."""
    return g.bids is not None or g.lot_black is not None


def _is_cut_entry(g: _PlayedIn) -> bool:
    """An entry recording a cut: it gives ``cutter`` or ``red_minutes``."""
    return g.cutter is not None or g.red_minutes is not None


def _foreign_keys(
    key: str, g: _PlayedIn, keys: Sequence[str], what: str, source: str
) -> list[Problem]:
    """The keys of other decisions an entry of ``what`` gives (each refused)."""
    return [
        Problem(source, f"{key}.{k}", f"expected no {k}: {what}")
        for k in keys
        if getattr(g, k) is not None
    ]


def _sealed_entry_problems(
    key: str, g: _PlayedIn, fmt: Format, players: tuple[Player, ...], source: str
) -> list[Problem]:
    what = "sealed bids give bids (and lot_black for equal bids)"
    out = _foreign_keys(
        key, g, ("chooser", "announce", "reply", "colour", "cutter", "red_minutes"), what, source
    )
    stage = fmt.sealed_bid_stage
    if stage is None or g.stage != stage.name:
        where = repr(stage.name) if stage is not None else "none: the format has no sealed bids"
        out.append(
            Problem(
                source,
                f"{key}.stage",
                f"expected the stage whose colours sealed bids settle ({where}), got {g.stage!r}",
            )
        )
    if g.bids is None:
        return [
            *out,
            Problem(
                source,
                f"{key}.bids",
                "expected bids = {NAME = MINUTES, NAME = MINUTES} (lot_black comes with them), "
                "got nothing",
            ),
        ]
    names = [p.name for p in players]
    bids = {k.strip(): float(v) for k, v in g.bids.items()}
    if len(bids) != 2 or len(g.bids) != 2:
        out.append(
            Problem(
                source,
                f"{key}.bids",
                f"expected the two players' bids, got {len(g.bids)}: {', '.join(g.bids) or 'none'}",
            )
        )
    out += [
        Problem(source, f"{key}.bids.{name}", f"unknown player {name!r}")
        for name in bids
        if name not in names
    ]
    out += _bid_range_problems(key, bids, None if stage is None else stage.sealed_bid, source)
    values = list(bids.values())
    equal = len(values) == 2 and values[0] == values[1]
    lot = None if g.lot_black is None else g.lot_black.strip()
    if equal and lot is None:
        out.append(
            Problem(
                source,
                f"{key}.lot_black",
                f"expected the player the lot gave Black (equal bids of {values[0]:g} min), "
                "got nothing",
            )
        )
    elif not equal and lot is not None and len(values) == 2:
        out.append(
            Problem(
                source,
                f"{key}.lot_black",
                "expected no lot_black: the bids differ, so the lower bid plays Black",
            )
        )
    elif lot is not None and lot not in bids:
        out.append(Problem(source, f"{key}.lot_black", f"expected one of the bidders, got {lot!r}"))
    return out


def _cut_entry_problems(
    key: str, g: _PlayedIn, fmt: Format, players: tuple[Player, ...], source: str
) -> list[Problem]:
    what = "a cut gives cutter, red_minutes and colour (the colour the other player took)"
    out = _foreign_keys(key, g, ("chooser", "announce", "reply", "bids", "lot_black"), what, source)
    needed = {
        "cutter": "who cut (named Red's minutes)",
        "red_minutes": "Red's base minutes the cutter named",
        "colour": "'red' or 'black' (the colour the other player took)",
    }
    out += [
        Problem(source, f"{key}.{k}", f"expected {why} ({what}), got nothing")
        for k, why in needed.items()
        if getattr(g, k) is None
    ]
    stage = fmt.cut_stage
    if stage is None or g.stage != stage.name:
        where = repr(stage.name) if stage is not None else "none: the format has no cut"
        out.append(
            Problem(
                source,
                f"{key}.stage",
                f"expected the stage settled by cut-and-choose ({where}), got {g.stage!r}",
            )
        )
    if g.cutter is not None and g.cutter.strip() not in [p.name for p in players]:
        out.append(Problem(source, f"{key}.cutter", f"unknown player {g.cutter!r}"))
    out += _red_minutes_problems(key, g.red_minutes, None if stage is None else stage.cut, source)
    return out


def _choice_entry_problems(key: str, g: _PlayedIn, fmt: Format, source: str) -> list[Problem]:
    out: list[Problem] = []
    if g.chooser is None:
        out.append(
            Problem(
                source,
                f"{key}.chooser",
                "expected who chose the colours (a colour choice gives chooser and colour), "
                "got nothing",
            )
        )
    if g.colour is None:
        out.append(
            Problem(
                source,
                f"{key}.colour",
                "expected 'red' or 'black' (a colour choice gives chooser and colour), got nothing",
            )
        )
    for k in ("announce", "reply"):
        if getattr(g, k) is not None:
            out.append(
                Problem(
                    source,
                    f"{key}.{k}",
                    f"expected no {k}: a colour choice gives chooser and colour, a bid "
                    "chooser, announce and reply",
                )
            )
    choosing = [s.name for s in fmt.playable if s.is_choice]
    if g.stage not in choosing:
        where = f"one of {choosing}" if choosing else "none: the format has no colour choice"
        out.append(
            Problem(
                source,
                f"{key}.stage",
                f"expected a stage whose colours a player chooses ({where}), got {g.stage!r}",
            )
        )
    return out


def _bid_entry_problems(key: str, g: _PlayedIn, fmt: Format, source: str) -> list[Problem]:
    out: list[Problem] = []
    given = {k: getattr(g, k) is not None for k in _BID_KEYS}
    if any(given.values()) and not all(given.values()):
        out += [
            Problem(
                source,
                f"{key}.{k}",
                f"expected {what} (a bid gives chooser, announce and reply), got nothing",
            )
            for k, what in _BID_KEYS.items()
            if not given[k]
        ]
    bidding = fmt.bidding_stage
    if any(given.values()) and bidding is None:
        out.append(
            Problem(
                source,
                f"{key}.chooser",
                "expected no bid: chooser, announce and reply belong to a sudden-death "
                f"bidding stage, and the format has none; got {g.chooser!r}",
            )
        )
    elif any(given.values()) and bidding is not None and g.stage != bidding.name:
        out.append(
            Problem(
                source,
                f"{key}.stage",
                f"expected {bidding.name!r} (only the sudden-death game has a bid: chooser, "
                f"announce, reply), got {g.stage!r}",
            )
        )
    return out


def _bid_opponent(
    chooser: str, before: Sequence[PlayedGame], players: tuple[Player, ...]
) -> str | None:
    """The other player of a bid's match: the chooser's opponent in their last game listed
    before it, or with two players the other one (None: not known)."""
    for g in reversed(before):
        if chooser in (g.red, g.black):
            return g.black if g.red == chooser else g.red
    if len(players) == 2:
        a, b = (p.name for p in players)
        return b if chooser == a else a if chooser == b else None
    return None
