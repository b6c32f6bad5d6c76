"""A scenario's ``[[played]]`` list: each entry checked against the format and replayed.

An entry is a game already played, or the decision recorded for the next game (a bid, a colour
choice, a cut, sealed bids: :mod:`knockout.rules.decisions.made`, whose classes check and read
their own keys); :func:`played_entries` turns the validated tables into
:class:`~knockout.rules.chain.replay.PlayedGame` values, refusing, one line per problem, an entry
whose keys do not fit its stage or whose games could not have happened.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from knockout.errors import Problem
from knockout.game import Result
from knockout.rules.book.formats import Format
from knockout.rules.chain.replay import PlayedGame
from knockout.rules.decisions.made import MADE, Made, claiming_order
from knockout.rules.model.players import Player

if TYPE_CHECKING:
    from knockout.rules.scenario.models import _PlayedIn

__all__ = ["played_entries", "played_problems", "played_to_dict"]


def played_to_dict(g: PlayedGame) -> dict[str, Any]:
    """A ``[[played]]`` entry; a decision entry without its colours, which follow from it."""
    out: dict[str, Any] = {} if g.is_decision else {"red": g.red, "black": g.black}
    out["stage"] = g.stage
    if g.result is not None:
        out["result"] = g.result.value
    if g.time_used is not None:
        out["time_used"] = dict(g.time_used)
    if g.moves is not None:
        out["moves"] = g.moves
    if g.made is not None:
        out |= g.made.to_fields()
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
    if g.made is not None and not fatal:
        stage = fmt.stage(g.stage)
        out += [
            Problem(source, f"played[{i}].{key}", message)
            for key, message in g.made.range_problems(stage)
        ]
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


def played_entries(
    raw: Sequence[_PlayedIn], fmt: Format, players: tuple[Player, ...], source: str
) -> tuple[list[tuple[int, PlayedGame]], list[Problem]]:
    """The ``[[played]]`` entries that can be read, with their indices, and the problems of
    those that cannot. A decision entry (no result) without ``red`` and ``black`` gets them from
    the decision: its match is that of the decider's last game listed before it (with two
    players, the other player), and the rule says who has Red."""
    out: list[tuple[int, PlayedGame]] = []
    problems: list[Problem] = []
    for i, g in enumerate(raw):
        kind, found = _entry_problems(i, g, fmt, players, source)
        if found:
            problems += found
            continue
        made = None if kind is None else kind.from_entry(g)
        red, black = g.red, g.black
        if (red is None or black is None) and made is not None:
            names = _decision_players(made, [e for _, e in out], players)
            if names is None:
                decider = made.decider
                problems.append(
                    Problem(
                        source,
                        f"played[{i}].{made.decider_key}",
                        f"expected a game of {decider}'s listed before this {made.words} (the "
                        "games of its match come first), got none",
                    )
                )
                continue
            red, black = made.colours(fmt.stage(g.stage), names)
        assert red is not None and black is not None
        result = None if g.result is None else Result(g.result)
        time_used = None if g.time_used is None else dict(g.time_used)
        game = PlayedGame(red.strip(), black.strip(), g.stage, result, time_used, made, g.moves)
        out.append((i, game))
    return out, problems


def _decision_players(
    made: Made, before: Sequence[PlayedGame], players: tuple[Player, ...]
) -> tuple[str, str] | None:
    """The two players of a decision's match: those it names (sealed bids name both), or the
    decider and their opponent in their last game listed before it, or with two players the
    other one (None: not known)."""
    named = tuple(made.to_fields().get("bids") or ())
    if len(named) == 2:
        return named[0], named[1]
    decider = made.decider
    assert decider is not None
    for g in reversed(before):
        if decider in (g.red, g.black):
            return decider, g.black if g.red == decider else g.red
    if len(players) == 2:
        a, b = (p.name for p in players)
        rest = b if decider == a else a if decider == b else None
        return None if rest is None else (decider, rest)
    return None


def _claimant(g: _PlayedIn, fmt: Format) -> tuple[type[Made] | None, list[str]]:
    """The kind of decision an entry records (None: none), and the kinds whose own keys it
    gives (more than one: keys of two decisions)."""
    order = claiming_order()
    by_keys = [
        c
        for c in order
        if c is not order[-1] and any(getattr(g, k, None) is not None for k in c.own_keys())
    ]
    kind = next((c for c in order if c.claims(g, fmt)), None)
    return kind, [c.kind for c in by_keys]


def _entry_problems(
    i: int, g: _PlayedIn, fmt: Format, players: tuple[Player, ...], source: str
) -> tuple[type[Made] | None, list[Problem]]:
    """The kind of decision ``[[played]]`` entry ``i`` records (None: none), and what keeps the
    entry from being read: a game without both players, a decision without its keys or outside
    the stage it belongs to, an entry without a result that records no decision."""
    key = f"played[{i}]"
    kind, exclusive = _claimant(g, fmt)
    if {"sealed", "cut"} <= set(exclusive):
        message = (
            "expected the keys of one decision: bids (and lot_black) for sealed bids, or "
            "cutter, red_minutes and colour for a cut; got both"
        )
        return kind, [Problem(source, key, message)]
    names = [p.name for p in players]
    out = (
        []
        if kind is None
        else [Problem(source, k, m) for k, m in kind.entry_problems(key, g, fmt, names)]
    )
    if g.result is None and kind is None:
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
    if g.result is None and g.chooser is not None and g.chooser.strip() not in names:
        out.append(Problem(source, f"{key}.chooser", f"unknown player {g.chooser!r}"))
    for field, what in (("time_used", "times"), ("moves", "moves")):
        if g.result is None and getattr(g, field) is not None:
            out.append(
                Problem(
                    source,
                    f"{key}.{field}",
                    f"expected no {what}: a decision without a result is for a game not played yet",
                )
            )
    return kind, out


def _decisions_recordable(fmt: Format) -> str:
    """What a ``[[played]]`` entry without a result may record, in words."""
    parts = [c.recordable_at(s) for c in MADE.values() for s in c.stages(fmt)]
    return " or ".join(parts) or "a game whose players decide its colours (this format has none)"
