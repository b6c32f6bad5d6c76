"""New journal entries, checked against where the event stands.

Each ``*_entry`` function reads what the arbiter typed, checks it against the event (the match
exists and is playable, the game is the next one, the times fit the clock, 甲 is who the clocks
say, ...) and returns the entry to append, or raises
:class:`~knockout.event.errors.EventRefused` with one line saying what was expected and what was
found. The store then replays the journal with the entry through the rules before writing it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

from knockout.event.checks import (
    clean_name,
    name_key,
    name_problem,
    parse_moves,
    parse_rating,
    parse_seconds,
    seconds_problem,
)
from knockout.event.errors import refused
from knockout.event.journal import Entry
from knockout.event.state import (
    Event,
    Match,
    NextGame,
    PendingDecision,
    RecordedGame,
    time_limit,
)
from knockout.game import Result
from knockout.i18n import _
from knockout.i18n.terms import stage_label
from knockout.i18n.typed import half_width, typed_result
from knockout.rules.chain.replay import PlayedGame
from knockout.rules.decisions.made import MADE, MadeBid, MadeSealed, made_of_fields

__all__ = [
    "DEFAULT_MOVES",
    "amend_entry",
    "correct_entry",
    "describe",
    "game_entry",
    "game_text",
    "imported_game_entry",
    "outcome_text",
    "parse_result",
    "parse_seconds",
    "replace_entry",
    "resolve_result",
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


def parse_result(text: str, source: str) -> Result:
    """``1-0``/``red``, ``1/2``/``draw`` (also ``½``), ``0-1``/``black``; the Chinese forms too
    (红胜, 和, 黑胜; full-width ``１－０``: :mod:`knockout.i18n.typed`).

    >>> parse_result("1-0", "ev.db"), parse_result("Draw", "ev.db")
    (<Result.RED: 'red'>, <Result.DRAW: 'draw'>)
    """
    found = _RESULTS.get(typed_result(text).lower())
    if found is None:
        raise refused(
            source, "result", f"expected 1-0, 0-1, 1/2 (or red, draw, black), found {text!r}"
        )
    return found


def result_text(result: Result) -> str:
    """``1-0``, ``½-½`` or ``0-1`` (Red's score first)."""
    return {Result.RED: "1-0", Result.DRAW: "½-½", Result.BLACK: "0-1"}[result]


def _time_items(event: Event, items: Sequence[str]) -> dict[str, float]:
    """``NAME=SECONDS`` items, each player once, names checked against the event."""
    out: dict[str, float] = {}
    for item in items:
        name_text, sep, value_text = half_width(item).rpartition("=")
        seconds = parse_seconds(value_text) if sep else None
        if not name_text.strip() or seconds is None:
            why = seconds_problem(value_text) if sep and name_text.strip() else None
            raise refused(
                event.source,
                "--time-used",
                "expected NAME=SECONDS (seconds, or m:ss, or h:mm:ss, minutes and seconds "
                f"below 60), found {item!r}" + (f": {why}" if why else ""),
            )
        name = event.find_player(name_text.strip(), "--time-used")
        if name in out:
            raise refused(event.source, "--time-used", f"expected {name} once, found twice")
        out[name] = seconds
    return out


def resolve_result(
    event: Event,
    red: str,
    black: str,
    key: str,
    *,
    result: str | None,
    winner: str | None = None,
    draw: bool = False,
) -> Result:
    """The result as the slip gives it: ``RESULT`` (Red's score first), ``--winner NAME`` or
    ``--draw``, exactly one of them.

    Raises:
        EventRefused: None or more than one given, or a winner who is not in the game.
    """
    given = [
        x
        for x, there in (
            ("RESULT", result is not None),
            ("--winner", winner is not None),
            ("--draw", draw),
        )
        if there
    ]
    if len(given) != 1:
        found = "none" if not given else " and ".join(given)
        raise refused(
            event.source,
            key,
            f"expected one of RESULT (1-0, 0-1, 1/2), --winner NAME or --draw, found {found}",
        )
    if draw:
        return Result.DRAW
    if winner is not None:
        name = event.find_player(winner, "--winner")
        if name not in (red, black):
            raise refused(
                event.source,
                "--winner",
                f"expected {red} (Red) or {black} (Black), the players of {key}, found {name}",
            )
        return Result.RED if name == red else Result.BLACK
    assert result is not None
    return parse_result(result, event.source)


def game_entry(
    event: Event,
    seq: int,
    at: str,
    command: str,
    *,
    match: str,
    game: int,
    result: str | None,
    time_used: Sequence[str] = (),
    moves: int | None = None,
    winner: str | None = None,
    draw: bool = False,
) -> Entry:
    """The entry for a game's result.

    Raises:
        EventRefused: Not the next game of a playable match, a bid still to record, a bad
            result, a name not in the game, or more time used than the clock allowed.
    """
    m = event.find_match(match)
    event.check_playable(m)
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
            f"result{what}; to change it: knockout event correct {event.source} {m.id} {game} "
            f"RESULT",
        )
    if game > step.number:
        raise refused(
            event.source, key, f"out of order: expected game {step.number} of {m.id} first"
        )
    if isinstance(step, PendingDecision):
        made = step.made
        who = f"{step.chooser} decides" if step.chooser is not None else "its players decide"
        raise refused(
            event.source,
            key,
            f"expected the {made.words} first: {who} the colours of this {step.stage} game "
            f"(knockout event {made.command} EVENT {m.id} {made.usage})",
        )
    outcome = resolve_result(
        event, step.red, step.black, key, result=result, winner=winner, draw=draw
    )
    times = _time_items(event, time_used)
    moves = parse_moves(moves, event.source)
    _check_times(event, step.red, step.black, step.clock, step.increment_seconds, times, moves, key)
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
    event: Event,
    red: str,
    black: str,
    clock: tuple[float, float],
    increment: float,
    times: Mapping[str, float],
    moves: int | None,
    key: str,
) -> None:
    n = DEFAULT_MOVES if moves is None else moves
    for name, seconds in times.items():
        if name not in (red, black):
            raise refused(
                event.source,
                "--time-used",
                f"expected {red} or {black} (the players of {key}), found {name}",
            )
        base = clock[0] if name == red else clock[1]
        limit = time_limit(base, increment, n)
        if seconds > limit:
            raise refused(
                event.source,
                "--time-used",
                f"expected at most {limit:g} s for {name} ({base:g} min + "
                f"{increment:g} s x {n} moves{'' if moves else ', the default'}), "
                f"found {seconds:g} s",
            )


def correct_entry(
    event: Event,
    seq: int,
    at: str,
    command: str,
    *,
    match: str,
    game: int,
    result: str | None,
    time_used: Sequence[str] = (),
    moves: int | None = None,
    winner: str | None = None,
    draw: bool = False,
) -> Entry:
    """The entry that replaces the result of game ``game`` of ``match`` (and its times or
    moves: a time given replaces that player's, the others and the moves are kept unless given).

    Raises:
        EventRefused: No such game recorded, a bad result, times that do not fit its clock, or
            nothing that differs from what is recorded.
    """
    m = event.find_match(match)
    key = f"{m.id} game {game}"
    if not 1 <= game <= len(m.games):
        have = f"games 1-{len(m.games)} are" if len(m.games) > 1 else "game 1 is"
        recorded = f"{have} recorded" if m.games else "no game is recorded yet"
        raise refused(
            event.source,
            key,
            f"expected a game with a result to correct, found none ({recorded} in {m.id}); "
            f"a game still to play is recorded with knockout event record",
        )
    g = m.games[game - 1]
    outcome = resolve_result(event, g.red, g.black, key, result=result, winner=winner, draw=draw)
    times = {**dict(g.time_used), **_time_items(event, time_used)}
    moves = parse_moves(moves, event.source) if moves is not None else g.moves
    stage = event.scenario.format.stage(g.stage)
    clock = g.clock if g.clock is not None else stage.minutes
    _check_times(event, g.red, g.black, clock, g.increment_seconds, times, moves, key)
    if outcome is g.result and times == dict(g.time_used) and moves == g.moves:
        raise refused(
            event.source,
            key,
            f"expected a change, found what #{g.seq} already records ({game_text(g)})",
        )
    original = next(e for e in event.entries if e.seq == g.seq).fields
    data: dict[str, Any] = {
        **{k: v for k, v in original.items() if k != "boards"},
        "red": g.red,
        "black": g.black,
        "result": outcome.value,
        "time_used": times or None,
        "moves": moves,
        "corrects": g.seq,
    }
    return Entry(seq, at, "correct", match=m.id, game=g.number, data=data, command=command)


def imported_game_entry(
    event: Event, seq: int, at: str, command: str, *, m: Match, game: PlayedGame
) -> Entry:
    """The entry for a game already played in the scenario an event is created from (its
    colours come from the file; the rules check it when the journal is replayed). A
    sudden-death game whose bid the file gives is entered after that bid (its clocks known)."""
    step = event.next_step(m)
    assert game.result is not None
    if step is None:
        message = (
            _("expected a match in play for the game {red} v {black} ({stage}), found it decided")
            if m.winner is not None
            else _(
                "expected a match in play for the game {red} v {black} ({stage}), found its "
                "players not known yet"
            )
        )
        raise refused(
            event.source,
            m.id,
            message.format(red=game.red, black=game.black, stage=stage_label(game.stage)),
        )
    stage = event.stage_at(m)
    clock = None if stage.is_decision else list(stage.minutes)
    if isinstance(step, NextGame) and step.colours in MADE:
        clock = list(step.clock)
    data: dict[str, Any] = {
        "red": game.red,
        "black": game.black,
        "stage": game.stage,
        "result": game.result.value,
        "clock": clock,
        "increment_seconds": stage.increment_seconds,
        "time_used": dict(game.time_used) if game.time_used else None,
        "moves": game.moves,
        "board": step.board,
        "colours": "scenario",
    }
    return Entry(seq, at, "game", match=m.id, game=step.number, data=data, command=command)


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


def undo_entry(event: Event, seq: int, at: str, command: str, *, match: str | None = None) -> Entry:
    """The entry that reverses the last entry still in force (a game, bid, withdrawal,
    correction or change of player); with ``match``, the last one of that match.

    Raises:
        EventRefused: Nothing to undo.
    """
    mid = None if match is None else event.find_match(match).id
    target = event.last_undoable(mid)
    if target is None:
        where = "" if mid is None else f" in {mid}"
        raise refused(
            event.source,
            "undo",
            f"expected a game, bid, colour choice, sealed bids, cut, withdrawal, correction or "
            f"change of player to undo{where}, found none",
        )
    data = {"kind": target.kind, "match": target.match, "game": target.game}
    if mid is not None:
        data["only_match"] = mid
    return Entry(seq, at, "undo", match=target.match, data=data, command=command, undoes=target.seq)


def _first_game(event: Event, name: str) -> RecordedGame | None:
    return next((g for g in event.games if name in (g.red, g.black)), None)


def _new_name(event: Event, text: str, key: str, *, own: str | None = None) -> str:
    """A name for a player (``own``: the player's name now, who may keep its key)."""
    problem = name_problem(text)
    if problem is not None:
        raise refused(event.source, key, problem)
    name = clean_name(text)
    wanted = name_key(name)
    for n in [p.name for p in event.base.players]:
        if name_key(n) == wanted and n != own:
            raise refused(
                event.source,
                key,
                f"expected a name not already in the event, found {name!r} (the same as "
                f"{n!r} once case and invisible characters are ignored)",
            )
    for n, e in event.former.items():
        if name_key(n) == wanted and not _renamed_to(event, n, own):
            raise refused(
                event.source,
                key,
                f"expected a name not used before in this event, found {name!r} (changed by "
                f"#{e.seq})",
            )
    return name


def _renamed_to(event: Event, name: str, own: str | None) -> bool:
    """``name`` is a former name of ``own`` (renamed, not replaced by a reserve)."""
    seen = set()
    while name in event.former and name not in seen:
        seen.add(name)
        e = event.former[name]
        if e.kind == "replace":
            return False
        name = str(e.fields["name"])
    return own is not None and name == own


def _ratings(event: Event, given: Mapping[str, str | None]) -> dict[str, float]:
    out: dict[str, float] = {}
    for key, text in given.items():
        if text is not None:
            out[key] = parse_rating(text, event.source, "--" + key.replace("_", "-"))
    return out


def amend_entry(
    event: Event,
    seq: int,
    at: str,
    command: str,
    *,
    name: str,
    new_name: str | None = None,
    ratings: Mapping[str, str | None] | None = None,
    federation: str | None = None,
) -> Entry:
    """The entry that corrects a player's name, ratings or federation. Ratings only before the
    player's first game (they set the odds the games are played under); the name's spelling
    and the federation at any time (they cannot change a recorded result).

    Raises:
        EventRefused: Not a player, nothing to change, a name already in use, a bad rating,
            or a rating after the first game.
    """
    player = event.find_player(name, "name")
    new = None if new_name is None else _new_name(event, new_name, "--name", own=player)
    changes = _ratings(event, ratings or {})
    data: dict[str, Any] = dict(changes)
    if new is not None and new != player:
        data["name"] = new
    if federation is not None:
        data["federation"] = clean_name(federation) or None
    current = event.scenario.player(player)
    same = {k for k, v in changes.items() if getattr(current, k) == v}
    if federation is not None and data["federation"] == event.federations.get(player):
        same.add("federation")
    for k in same:
        data.pop(k, None)
    if not data:
        raise refused(
            event.source,
            player,
            "expected a change (--name, --rating, --rating-rapid, --rating-blitz, "
            "--federation), found nothing different from what is recorded",
        )
    first = _first_game(event, player)
    rated = [k for k in data if k.startswith("rating")]
    if first is not None and rated:
        raise refused(
            event.source,
            player,
            f"expected no rating change: {player} has played ({first.match} game "
            f"{first.number}, #{first.seq}), and ratings set the odds the games were played "
            f"under; after the first game only the name's spelling and the federation change",
        )
    return Entry(seq, at, "amend", player=player, data=data, command=command)


def replace_entry(
    event: Event,
    seq: int,
    at: str,
    command: str,
    *,
    out: str,
    reserve: str,
    ratings: Mapping[str, str | None],
    federation: str | None = None,
) -> Entry:
    """The entry that puts ``reserve`` in the place of ``out`` (a no-show), who has not played:
    the same line of the draw, the same matches and boards.

    Raises:
        EventRefused: ``out`` has played or withdrew, the reserve's name is in use, or a bad
            rating.
    """
    player = event.find_player(out, "OUT")
    first = _first_game(event, player)
    if first is not None:
        raise refused(
            event.source,
            player,
            f"expected a player who has not played, found {player} in {first.match} game "
            f"{first.number} (#{first.seq}); a player who leaves after a game withdraws "
            f"(knockout event withdraw)",
        )
    if player in event.withdrawn:
        raise refused(
            event.source,
            player,
            f"expected a player still in the event: {player} withdrew; undo the withdrawal "
            f"first to replace them",
        )
    name = _new_name(event, reserve, "IN")
    data: dict[str, Any] = {"name": name, **_ratings(event, ratings)}
    data["federation"] = None if federation is None else clean_name(federation) or None
    return Entry(seq, at, "replace", player=player, data=data, command=command)


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
        return _game_line(entry)
    if entry.kind == "decision":
        return _decision_line(entry)
    if entry.kind == "withdraw":
        return f"{entry.player} withdraws (in {entry.match})"
    if entry.kind == "correct":
        return f"correction of #{d['corrects']}: " + _game_line(entry)
    if entry.kind in ("amend", "replace"):
        return _player_line(entry)
    target = entries.get(entry.undoes or 0)
    if target is not None and target.kind == "undo":
        original = entries.get(target.undoes or 0)
        text = _("undo #{undone}, restoring #{restored}").format(
            undone=entry.undoes, restored=target.undoes
        )
        return text + ("" if original is None else f": {describe(original, entries)}")
    only = f" (undo --match {d['only_match']})" if d.get("only_match") else ""
    return f"undo #{entry.undoes}{only}" + (
        "" if target is None else f": {describe(target, entries)}"
    )


def _decision_line(entry: Entry) -> str:
    """``R1-M1 bid: 甲 A announces red, ...``, ``R1-M1 game 3 colour choice: ...``."""
    d = entry.fields
    made = made_of_fields(d["kind"], d)
    clock = (float(d["clock"][0]), float(d["clock"][1]))
    where = (
        f"{entry.match} bid"
        if isinstance(made, MadeBid)
        else (f"{entry.match} game {entry.game} {made.words}")
    )
    if isinstance(made, MadeSealed):
        where += f" ({d.get('price', 'first')} price)"
    who = made.decider_words.removeprefix("the ")
    lot = f" ({who} by the arbiter's lot)" if d.get("chosen_by") == "lot" else ""
    return f"{where}: {made.text(d['red'], d['black'], clock)}{lot}"


def _game_line(entry: Entry) -> str:
    d = entry.fields
    text = (
        f"{entry.match} game {entry.game} ({d['stage']}): {d['red']} (Red) "
        f"{result_text(Result(d['result']))} {d['black']}"
    )
    if d.get("time_used"):
        text += "; time used " + ", ".join(f"{n} {s:g} s" for n, s in d["time_used"].items())
    if d.get("moves"):
        text += f"; {d['moves']} moves"
    return text


def _player_line(entry: Entry) -> str:
    d = entry.fields
    ratings = ", ".join(
        f"{k.replace('_', ' ')} {d[k]:g}"
        for k in ("rating", "rating_rapid", "rating_blitz")
        if k in d
    )
    if entry.kind == "replace":
        text = f"{d['name']} replaces {entry.player}"
        return text + (f" ({ratings})" if ratings else "")
    parts = []
    if "name" in d:
        parts.append(f"name {entry.player!r} corrected to {d['name']!r}")
    if ratings:
        parts.append(ratings)
    if "federation" in d:
        parts.append(f"federation {d['federation'] or '(none)'}")
    return f"{entry.player}: " + "; ".join(parts)


def game_text(g: RecordedGame) -> str:
    """``A (Red) 1-0 B`` with the time used and moves, as recorded."""
    text = f"{g.red} (Red) {result_text(g.result)} {g.black}"
    if g.time_used:
        text += "; time used " + ", ".join(f"{n} {s:g} s" for n, s in g.time_used.items())
    if g.moves:
        text += f"; {g.moves} moves"
    return text


def outcome_text(red: str, black: str, result: Result, stage: str, draw_winner: str | None) -> str:
    """What a result means, in words: ``B (Black) beats A (Red), 0-1``."""
    if result is Result.RED:
        return f"{red} (Red) beats {black} (Black), 1-0"
    if result is Result.BLACK:
        return f"{black} (Black) beats {red} (Red), 0-1"
    through = f"; a draw counts as a win for {draw_winner} here" if draw_winner else ""
    return f"{red} (Red) and {black} (Black) draw, ½-½{through}"
