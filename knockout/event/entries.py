"""New journal entries, checked against where the event stands.

Each ``*_entry`` function reads what the arbiter typed, checks it against the event (the match
exists and is playable, the game is the next one, the times fit the clock, 甲 is who the clocks
say, ...) and returns the entry to append, or raises
:class:`~knockout.event.errors.EventRefused` with one line saying what was expected and what was
found. The store then replays the journal with the entry through the rules before writing it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

from knockout.event.errors import refused
from knockout.event.journal import Entry
from knockout.event.state import (
    Event,
    Match,
    NextGame,
    PendingBid,
    PendingChoice,
    RecordedBid,
    RecordedChoice,
    time_limit,
)
from knockout.game import Colour, Reply, Result
from knockout.rules.match import PlayedGame

__all__ = [
    "DEFAULT_MOVES",
    "bid_entry",
    "bid_text",
    "describe",
    "game_entry",
    "imported_game_entry",
    "parse_result",
    "parse_seconds",
    "result_text",
    "undo_entry",
    "withdraw_entry",
]

_T = TypeVar("_T")

#: Moves assumed for the time-used check when ``--moves`` is not given.
DEFAULT_MOVES = 300

_RESULTS: Mapping[str, Result] = {
    "1-0": Result.RED,
    "0-1": Result.BLACK,
    "1/2": Result.DRAW,
    "1/2-1/2": Result.DRAW,
    "½": Result.DRAW,
    "½-½": Result.DRAW,
    "red": Result.RED,
    "draw": Result.DRAW,
    "black": Result.BLACK,
}
_CLOCK = re.compile(r"^(?:(\d+):)?(\d{1,2}):(\d{1,2}(?:\.\d+)?)$")


def parse_result(text: str, source: str) -> Result:
    """``1-0``/``red``, ``1/2``/``draw`` (also ``½``), ``0-1``/``black``.

    >>> parse_result("1-0", "ev.db"), parse_result("Draw", "ev.db")
    (<Result.RED: 'red'>, <Result.DRAW: 'draw'>)
    """
    found = _RESULTS.get(text.strip().lower())
    if found is None:
        raise refused(
            source, "result", f"expected 1-0, 0-1, 1/2 (or red, draw, black), found {text!r}"
        )
    return found


def result_text(result: Result) -> str:
    """``1-0``, ``½-½`` or ``0-1`` (Red's score first)."""
    return {Result.RED: "1-0", Result.DRAW: "½-½", Result.BLACK: "0-1"}[result]


def parse_seconds(text: str) -> float | None:
    """Seconds from ``2400``, ``2400.5``, ``40:00`` (m:ss) or ``1:05:30`` (h:mm:ss); None if
    the text is none of these.

    >>> parse_seconds("40:00"), parse_seconds("1:05:30"), parse_seconds("95"), parse_seconds("x")
    (2400.0, 3930.0, 95.0, None)
    """
    t = text.strip()
    try:
        value = float(t)
    except ValueError:
        found = _CLOCK.match(t)
        if found is None:
            return None
        hours = int(found[1] or 0)
        return hours * 3600.0 + int(found[2]) * 60.0 + float(found[3])
    return value if value >= 0 and value != float("inf") else None


def _time_items(event: Event, items: Sequence[str]) -> dict[str, float]:
    """``NAME=SECONDS`` items, each player once, names checked against the event."""
    out: dict[str, float] = {}
    for item in items:
        name_text, sep, value_text = item.rpartition("=")
        seconds = parse_seconds(value_text) if sep else None
        if not name_text.strip() or seconds is None:
            raise refused(
                event.source,
                "--time-used",
                f"expected NAME=SECONDS (seconds, or m:ss, or h:mm:ss), found {item!r}",
            )
        name = event.find_player(name_text.strip(), "--time-used")
        if name in out:
            raise refused(event.source, "--time-used", f"expected {name} once, found twice")
        out[name] = seconds
    return out


def _not_playable(event: Event, m: Match) -> None:
    """Refuse anything for a match whose players are unknown or which is decided."""
    if m.players is None:
        raise refused(event.source, m.id, f"not scheduled yet: {_waiting_for(event, m)}")
    if m.winner is not None:
        how = "by walkover" if m.walkover else f"in the {m.decided_in} stage"
        raise refused(
            event.source,
            m.id,
            f"already decided: {m.winner} won {how}; nothing more is recorded in this match",
        )


def _waiting_for(event: Event, m: Match) -> str:
    k, index = m.key
    if m.id == "3RD":
        feeders = [event.by_key((k - 1, 0)), event.by_key((k - 1, 1))]
    else:
        feeders = [event.by_key((k - 1, 2 * index)), event.by_key((k - 1, 2 * index + 1))]
    open_ = [f.id for f in feeders if f is not None and f.winner is None]
    return f"its players come from {' and '.join(open_)}, not decided yet"


def game_entry(
    event: Event,
    seq: int,
    at: str,
    command: str,
    *,
    match: str,
    game: int,
    result: str,
    time_used: Sequence[str] = (),
    moves: int | None = None,
) -> Entry:
    """The entry for a game's result.

    Raises:
        EventRefused: Not the next game of a playable match, a bid still to record, a bad
            result, a name not in the game, or more time used than the clock allowed.
    """
    m = event.find_match(match)
    _not_playable(event, m)
    step = event.next_step(m)
    assert step is not None
    key = f"{m.id} game {game}"
    if game < 1:
        raise refused(event.source, key, f"expected a game number >= 1, found {game}")
    if game < step.number:
        g = m.games[game - 1]
        what = f" ({g.red} v {g.black}, {result_text(g.result)})"
        raise refused(
            event.source,
            key,
            f"expected game {step.number}, found game {game}, which already has a "
            f"result{what}; to correct it, undo back to it (knockout event log)",
        )
    if game > step.number:
        raise refused(
            event.source, key, f"out of order: expected game {step.number} of {m.id} first"
        )
    if isinstance(step, PendingBid):
        raise refused(
            event.source,
            key,
            f"expected the bid first: this is the sudden-death game (knockout event bid "
            f"EVENT {m.id} --announce red|black --reply accept|object)",
        )
    if isinstance(step, PendingChoice):
        who = step.chooser or "the player the lot names (--chooser NAME)"
        raise refused(
            event.source,
            key,
            f"expected the colour choice first: {who} chooses the colours of this "
            f"{step.stage} game (knockout event choose EVENT {m.id} red|black)",
        )
    outcome = parse_result(result, event.source)
    times = _time_items(event, time_used)
    _check_times(event, step, times, moves)
    data: dict[str, Any] = {
        "red": step.red,
        "black": step.black,
        "stage": step.stage,
        "result": outcome.value,
        "clock": list(step.clock),
        "increment_seconds": step.increment_seconds,
        "time_used": times or None,
        "moves": moves,
        "board": step.board,
        "colours": step.colours,
    }
    return Entry(seq, at, "game", match=m.id, game=step.number, data=data, command=command)


def _check_times(
    event: Event, step: NextGame, times: Mapping[str, float], moves: int | None
) -> None:
    if moves is not None and moves < 1:
        raise refused(event.source, "--moves", f"expected a whole number >= 1, found {moves}")
    n = DEFAULT_MOVES if moves is None else moves
    for name, seconds in times.items():
        if name not in (step.red, step.black):
            raise refused(
                event.source,
                "--time-used",
                f"expected {step.red} or {step.black} (the players of {step.match} game "
                f"{step.number}), found {name}",
            )
        base = step.clock[0] if name == step.red else step.clock[1]
        limit = time_limit(base, step.increment_seconds, n)
        if seconds > limit:
            raise refused(
                event.source,
                "--time-used",
                f"expected at most {limit:g} s for {name} ({base:g} min + "
                f"{step.increment_seconds:g} s x {n} moves{'' if moves else ', the default'}), "
                f"found {seconds:g} s",
            )


def imported_game_entry(
    event: Event, seq: int, at: str, command: str, *, m: Match, game: PlayedGame
) -> Entry:
    """The entry for a game already played in the scenario an event is created from (its
    colours come from the file; the rules check it when the journal is replayed). A
    sudden-death game whose bid the file gives is entered after that bid (its clocks known)."""
    step = event.next_step(m)
    assert step is not None and game.result is not None
    stage = event.stage_at(m)
    clock = None if stage.is_decision else list(stage.minutes)
    if isinstance(step, NextGame) and step.colours == "bid":
        clock = list(step.clock)
    data: dict[str, Any] = {
        "red": game.red,
        "black": game.black,
        "stage": game.stage,
        "result": game.result.value,
        "clock": clock,
        "increment_seconds": stage.increment_seconds,
        "time_used": dict(game.time_used) if game.time_used else None,
        "moves": None,
        "board": step.board,
        "colours": "scenario",
    }
    return Entry(seq, at, "game", match=m.id, game=step.number, data=data, command=command)


def bid_entry(
    event: Event,
    seq: int,
    at: str,
    command: str,
    *,
    match: str,
    announce: str,
    reply: str,
    chooser: str | None = None,
) -> Entry:
    """The entry for a sudden-death choice; it fixes the game's colours and clocks by the rule.

    Raises:
        EventRefused: The match is not at its sudden-death game, the bid is already recorded,
            or 甲 is wrong or missing.
    """
    m = event.find_match(match)
    _not_playable(event, m)
    step = event.next_step(m)
    if isinstance(step, NextGame) and step.colours == "bid":
        assert m.bid is not None
        raise refused(
            event.source,
            m.id,
            f"expected one bid per match, found one already recorded ({bid_text(m.bid)}); "
            f"to change it, undo it",
        )
    if not isinstance(step, PendingBid):
        assert step is not None
        raise refused(
            event.source,
            m.id,
            f"expected a match at its sudden-death game, found game {step.number} "
            f"({step.stage}) next",
        )
    colour = _choice(event, "--announce", announce, {"red": Colour.RED, "black": Colour.BLACK})
    answer = _choice(event, "--reply", reply, {"accept": Reply.ACCEPT, "object": Reply.OBJECT})
    first, chosen_by = _chooser(event, step, chooser)
    second = step.players[1] if first == step.players[0] else step.players[0]
    menu = event.stage_at(m).bidding
    assert menu is not None
    chooser_colour, clock = menu.assignment(colour, answer)
    red, black = (first, second) if chooser_colour is Colour.RED else (second, first)
    data = {
        "chooser": first,
        "bidder": second,
        "announce": colour.value,
        "reply": answer.value,
        "red": red,
        "black": black,
        "clock": list(clock),
        "chosen_by": chosen_by,
    }
    return Entry(seq, at, "bid", match=m.id, data=data, command=command)


def choice_entry(
    event: Event,
    seq: int,
    at: str,
    command: str,
    *,
    match: str,
    colour: str,
    chooser: str | None = None,
) -> Entry:
    """The entry for a colour choice: the chooser takes ``colour`` for the match's next game.

    Raises:
        EventRefused: The match's next game has no colour choice, the choice is already
            recorded, or the chooser is wrong or missing.
    """
    m = event.find_match(match)
    _not_playable(event, m)
    step = event.next_step(m)
    assert step is not None
    if isinstance(step, NextGame) and step.colours == "choice":
        made = m.choices[step.number]
        raise refused(
            event.source,
            m.id,
            f"expected one colour choice per game, found one already recorded ({made.chooser} "
            f"chose {made.colour.value}); to change it, undo it",
        )
    if not isinstance(step, PendingChoice):
        what = (
            "its sudden-death bid (knockout event bid)"
            if isinstance(step, PendingBid)
            else (f"game {step.number} ({step.stage}), whose colours the rules set")
        )
        raise refused(
            event.source,
            m.id,
            f"expected a match at a game whose colours a player chooses, found {what} next",
        )
    taken = _choice(event, "COLOUR", colour, {"red": Colour.RED, "black": Colour.BLACK})
    name, chosen_by = _colour_chooser(event, step, chooser)
    other = step.players[1] if name == step.players[0] else step.players[0]
    red, black = (name, other) if taken is Colour.RED else (other, name)
    data = {
        "stage": step.stage,
        "chooser": name,
        "colour": taken.value,
        "red": red,
        "black": black,
        "clock": list(step.clock),
        "chosen_by": chosen_by,
    }
    return Entry(seq, at, "choice", match=m.id, game=step.number, data=data, command=command)


def _colour_chooser(event: Event, step: PendingChoice, given: str | None) -> tuple[str, str]:
    """Who chooses and how they were found (``rule``: the format names them; ``lot``)."""
    if step.chooser is not None:
        if given is not None and event.find_player(given, "--chooser") != step.chooser:
            raise refused(
                event.source,
                "--chooser",
                f"expected {step.chooser} or no --chooser: the format names {step.chooser} "
                f"to choose the colours; found {given!r}",
            )
        return step.chooser, "rule"
    if given is None:
        raise refused(
            event.source,
            "--chooser",
            f"expected --chooser NAME ({' or '.join(step.players)}): a lot decides who "
            "chooses the colours, and the arbiter's lot names them",
        )
    name = event.find_player(given, "--chooser")
    if name not in step.players:
        raise refused(
            event.source,
            "--chooser",
            f"expected {' or '.join(step.players)} (the players of {step.match}), found {name}",
        )
    return name, "lot"


def choice_text(choice: RecordedChoice) -> str:
    """``A chooses black: B Red 6 min v A Black 4 min``."""
    return (
        f"{choice.chooser} chooses {choice.colour.value}: {choice.red} Red "
        f"{choice.clock[0]:g} min v {choice.black} Black {choice.clock[1]:g} min"
    )


def _choice(event: Event, key: str, text: str, options: Mapping[str, _T]) -> _T:
    found = options.get(text.strip().lower())
    if found is None:
        raise refused(event.source, key, f"expected {' or '.join(options)}, found {text!r}")
    return found


def _chooser(event: Event, step: PendingBid, given: str | None) -> tuple[str, str]:
    """甲 and how it was found (``times`` or ``lot``)."""
    times = ", ".join(f"{n} {s:g} s" for n, s in step.times.items())
    if step.chooser is not None:
        if given is not None and event.find_player(given, "--chooser") != step.chooser:
            raise refused(
                event.source,
                "--chooser",
                f"expected {step.chooser} or no --chooser: 甲 is {step.chooser}, who used "
                f"less time in the previous game ({times}); found {given!r}",
            )
        return step.chooser, "times"
    why = {
        "tie": f"equal times in the previous game ({times})",
        "lot": "the priority rule of this event is a lot",
        "unknown": "the previous game's times were not recorded",
        "less-time": "",
    }[step.why]
    if given is None:
        raise refused(
            event.source,
            "--chooser",
            f"expected --chooser NAME ({' or '.join(step.players)}), the arbiter's lot: "
            f"甲 is not known from the clocks ({why})",
        )
    name = event.find_player(given, "--chooser")
    if name not in step.players:
        raise refused(
            event.source,
            "--chooser",
            f"expected {' or '.join(step.players)} (the players of {step.match}), found {name}",
        )
    return name, "lot"


def withdraw_entry(event: Event, seq: int, at: str, command: str, *, name: str) -> Entry:
    """The entry for a withdrawal: the player's current match and any later one are lost by
    walkover.

    Raises:
        EventRefused: A name not in the event, a player who already withdrew or who has no
            match left.
    """
    player = event.find_player(name, "name")
    if player in event.withdrawn:
        raise refused(
            event.source, player, "expected a player still in the event: already withdrew"
        )
    m = event.match_of(player)
    if m is None:
        raise refused(
            event.source,
            player,
            f"expected a player with a match left, found none ({_why_no_match(event, player)})",
        )
    return Entry(
        seq, at, "withdraw", match=m.id, player=player, data={"match": m.id}, command=command
    )


def _why_no_match(event: Event, name: str) -> str:
    for m in reversed(event.matches):
        if m.players is not None and name in m.players and m.winner is not None:
            if m.winner == name:
                return f"won {m.id}, the last match"
            return f"lost {m.id} to {m.winner}"
    return "the event is over"


def undo_entry(event: Event, seq: int, at: str, command: str) -> Entry:
    """The entry that reverses the last game, bid or withdrawal still in force.

    Raises:
        EventRefused: Nothing to undo.
    """
    target = event.last_undoable()
    if target is None:
        raise refused(
            event.source, "undo", "expected a game, bid, choice or withdrawal to undo, found none"
        )
    data = {"kind": target.kind, "match": target.match, "game": target.game}
    return Entry(seq, at, "undo", match=target.match, data=data, command=command, undoes=target.seq)


def bid_text(bid: RecordedBid) -> str:
    """``甲 A announces red, 乙 B objects: B Red 10 min v A Black 30 min``."""
    return (
        f"甲 {bid.chooser} announces {bid.announce.value}, 乙 {bid.bidder} {bid.reply.value}s: "
        f"{bid.red} Red {bid.clock[0]:g} min v {bid.black} Black {bid.clock[1]:g} min"
    )


def describe(entry: Entry, entries: Mapping[int, Entry]) -> str:
    """One line saying what ``entry`` records (``entries``: the journal by number)."""
    d = entry.fields
    if entry.kind == "new":
        return (
            f"event created from {d.get('scenario')}"
            + (f" with the players of {d['players']}" if d.get("players") else "")
            + f": {d.get('field')} players, seeding {d.get('seeding')}, event seed {d.get('seed')}"
        )
    if entry.kind == "game":
        text = (
            f"{entry.match} game {entry.game} ({d['stage']}): {d['red']} (Red) "
            f"{result_text(Result(d['result']))} {d['black']}"
        )
        if d.get("time_used"):
            text += "; time used " + ", ".join(f"{n} {s:g} s" for n, s in d["time_used"].items())
        if d.get("moves"):
            text += f"; {d['moves']} moves"
        return text
    if entry.kind == "bid":
        lot = " (甲 by the arbiter's lot)" if d.get("chosen_by") == "lot" else ""
        return f"{entry.match} bid: " + bid_text(RecordedBid.from_entry(entry)) + lot
    if entry.kind == "choice":
        lot = " (chooser by the arbiter's lot)" if d.get("chosen_by") == "lot" else ""
        return (
            f"{entry.match} game {entry.game} colour choice: "
            + choice_text(RecordedChoice.from_entry(entry))
            + lot
        )
    if entry.kind == "withdraw":
        return f"{entry.player} withdraws (in {entry.match})"
    target = entries.get(entry.undoes or 0)
    return f"undo #{entry.undoes}" + ("" if target is None else f": {describe(target, entries)}")
