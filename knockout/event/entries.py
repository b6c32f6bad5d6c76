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
from knockout.i18n import N_, _, ngettext
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
            source,
            _("result"),
            _("expected 1-0, 0-1, 1/2 (or red, draw, black), found {text}").format(text=repr(text)),
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
                _(
                    "expected NAME=SECONDS (seconds, or m:ss, or h:mm:ss, minutes and seconds "
                    "below 60), found {item}"
                ).format(item=repr(item))
                + (f": {why}" if why else ""),
            )
        name = event.find_player(name_text.strip(), "--time-used")
        if name in out:
            raise refused(
                event.source,
                "--time-used",
                _("expected {name} once, found twice").format(name=name),
            )
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
        found = _("none") if not given else _(" and ").join(given)
        raise refused(
            event.source,
            key,
            _(
                "expected one of RESULT (1-0, 0-1, 1/2), --winner NAME or --draw, found {found}"
            ).format(found=found),
        )
    if draw:
        return Result.DRAW
    if winner is not None:
        name = event.find_player(winner, "--winner")
        if name not in (red, black):
            raise refused(
                event.source,
                "--winner",
                _(
                    "expected {red} (Red) or {black} (Black), the players of {key}, found {name}"
                ).format(red=red, black=black, key=key, name=name),
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
    key = game_key(m.id, game)
    if game < 1:
        raise refused(
            event.source, key, _("expected a game number >= 1, found {game}").format(game=game)
        )
    if game < step.number:
        g = m.games[game - 1]
        raise refused(
            event.source,
            key,
            _(
                "expected game {expected}, found game {game}, which already has a result "
                "({red} v {black}, {result}); to change it: {command}"
            ).format(
                expected=step.number,
                game=game,
                red=g.red,
                black=g.black,
                result=result_text(g.result),
                command=f"knockout event correct {event.source} {m.id} {game} " + _("RESULT"),
            ),
        )
    if game > step.number:
        raise refused(
            event.source,
            key,
            _("out of order: expected game {game} of {match} first").format(
                game=step.number, match=m.id
            ),
        )
    if isinstance(step, PendingDecision):
        made = step.made
        raise refused(
            event.source,
            key,
            (
                _(
                    "expected the {what} first: {chooser} decides the colours of this {stage} "
                    "game ({command})"
                )
                if step.chooser is not None
                else _(
                    "expected the {what} first: its players decide the colours of this {stage} "
                    "game ({command})"
                )
            ).format(
                what=_(made.words),
                chooser=step.chooser,
                stage=stage_label(step.stage),
                command=f"knockout event {made.command} {event.source} {m.id} {made.usage_words()}",
            ),
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
                _("expected {red} or {black} (the players of {key}), found {name}").format(
                    red=red, black=black, key=key, name=name
                ),
            )
        base = clock[0] if name == red else clock[1]
        limit = time_limit(base, increment, n)
        if seconds > limit:
            raise refused(
                event.source,
                "--time-used",
                (
                    _(
                        "expected at most {limit:g} s for {name} ({base:g} min + {increment:g} s "
                        "x {n} moves), found {seconds:g} s"
                    )
                    if moves
                    else _(
                        "expected at most {limit:g} s for {name} ({base:g} min + {increment:g} s "
                        "x {n} moves, the default), found {seconds:g} s"
                    )
                ).format(
                    limit=limit, name=name, base=base, increment=increment, n=n, seconds=seconds
                ),
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
    key = game_key(m.id, game)
    if not 1 <= game <= len(m.games):
        recorded = (
            _("games 1-{n} are recorded in {match}").format(n=len(m.games), match=m.id)
            if len(m.games) > 1
            else _("game 1 is recorded in {match}").format(match=m.id)
            if m.games
            else _("no game is recorded yet in {match}").format(match=m.id)
        )
        raise refused(
            event.source,
            key,
            _(
                "expected a game with a result to correct, found none ({recorded}); a game "
                "still to play is recorded with knockout event record"
            ).format(recorded=recorded),
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
            _("expected a change, found what #{seq} already records ({what})").format(
                seq=g.seq, what=game_text(g)
            ),
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
    player = event.find_player(name, _("name"))
    if player in event.withdrawn:
        raise refused(
            event.source, player, _("expected a player still in the event: already withdrew")
        )
    m = event.match_of(player)
    if m is None:
        raise refused(
            event.source,
            player,
            _("expected a player with a match left, found none ({why})").format(
                why=_why_no_match(event, player)
            ),
        )
    return Entry(
        seq, at, "withdraw", match=m.id, player=player, data={"match": m.id}, command=command
    )


def _why_no_match(event: Event, name: str) -> str:
    for m in reversed(event.matches):
        if m.players is not None and name in m.players and m.winner is not None:
            if m.winner == name:
                return _("won {match}, the last match").format(match=m.id)
            return _("lost {match} to {winner}").format(match=m.id, winner=m.winner)
    return _("the event is over")


def undo_entry(event: Event, seq: int, at: str, command: str, *, match: str | None = None) -> Entry:
    """The entry that reverses the last entry still in force (a game, bid, withdrawal,
    correction or change of player); with ``match``, the last one of that match.

    Raises:
        EventRefused: Nothing to undo.
    """
    mid = None if match is None else event.find_match(match).id
    target = event.last_undoable(mid)
    if target is None:
        raise refused(
            event.source,
            "undo",
            (
                _(
                    "expected a game, bid, colour choice, sealed bids, cut, withdrawal, "
                    "correction or change of player to undo, found none"
                )
                if mid is None
                else _(
                    "expected a game, bid, colour choice, sealed bids, cut, withdrawal, "
                    "correction or change of player to undo in {match}, found none"
                ).format(match=mid)
            ),
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
                _(
                    "expected a name not already in the event, found {name} (the same as "
                    "{other} once case and invisible characters are ignored)"
                ).format(name=repr(name), other=repr(n)),
            )
    for n, e in event.former.items():
        if name_key(n) == wanted and not _renamed_to(event, n, own):
            raise refused(
                event.source,
                key,
                _(
                    "expected a name not used before in this event, found {name} (changed by "
                    "#{seq})"
                ).format(name=repr(name), seq=e.seq),
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
    player = event.find_player(name, _("name"))
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
            _(
                "expected a change (--name, --rating, --rating-rapid, --rating-blitz, "
                "--federation), found nothing different from what is recorded"
            ),
        )
    first = _first_game(event, player)
    rated = [k for k in data if k.startswith("rating")]
    if first is not None and rated:
        raise refused(
            event.source,
            player,
            _(
                "expected no rating change: {player} has played ({match} game {game}, #{seq}), "
                "and ratings set the odds the games were played under; after the first game "
                "only the name's spelling and the federation change"
            ).format(player=player, match=first.match, game=first.number, seq=first.seq),
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
    player = event.find_player(out, _("OUT"))
    first = _first_game(event, player)
    if first is not None:
        raise refused(
            event.source,
            player,
            _(
                "expected a player who has not played, found {player} in {match} game {game} "
                "(#{seq}); a player who leaves after a game withdraws (knockout event withdraw)"
            ).format(player=player, match=first.match, game=first.number, seq=first.seq),
        )
    if player in event.withdrawn:
        raise refused(
            event.source,
            player,
            _(
                "expected a player still in the event: {player} withdrew; undo the withdrawal "
                "first to replace them"
            ).format(player=player),
        )
    name = _new_name(event, reserve, _("IN"))
    data: dict[str, Any] = {"name": name, **_ratings(event, ratings)}
    data["federation"] = None if federation is None else clean_name(federation) or None
    return Entry(seq, at, "replace", player=player, data=data, command=command)


def describe(entry: Entry, entries: Mapping[int, Entry]) -> str:
    """One line saying what ``entry`` records (``entries``: the journal by number)."""
    d = entry.fields
    if entry.kind == "new":
        fields = {
            "scenario": d.get("scenario"),
            "players": d.get("players"),
            "field": d.get("field"),
            "seeding": _(SEEDING_WORDS[str(d.get("seeding"))])
            if d.get("seeding") in SEEDING_WORDS
            else d.get("seeding"),
            "seed": d.get("seed"),
        }
        return (
            _(
                "event created from {scenario} with the players of {players}: {field} players, "
                "seeding {seeding}, event seed {seed}"
            )
            if d.get("players")
            else _(
                "event created from {scenario}: {field} players, seeding {seeding}, "
                "event seed {seed}"
            )
        ).format(**fields)
    if entry.kind == "game":
        return _game_line(entry)
    if entry.kind == "decision":
        return _decision_line(entry)
    if entry.kind == "withdraw":
        return _("{player} withdraws (in {match})").format(player=entry.player, match=entry.match)
    if entry.kind == "correct":
        return _("correction of #{seq}: {game}").format(seq=d["corrects"], game=_game_line(entry))
    if entry.kind in ("amend", "replace"):
        return _player_line(entry)
    target = entries.get(entry.undoes or 0)
    if target is not None and target.kind == "undo":
        original = entries.get(target.undoes or 0)
        text = _("undo #{undone}, restoring #{restored}").format(
            undone=entry.undoes, restored=target.undoes
        )
        return text + ("" if original is None else f": {describe(original, entries)}")
    only = _(" (undo --match {match})").format(match=d["only_match"]) if d.get("only_match") else ""
    return _("undo #{seq}{only}").format(seq=entry.undoes, only=only) + (
        "" if target is None else f": {describe(target, entries)}"
    )


def _decision_line(entry: Entry) -> str:
    """``R1-M1 bid: 甲 A announces red, ...``, ``R1-M1 game 3 colour choice: ...``."""
    d = entry.fields
    made = made_of_fields(d["kind"], d)
    clock = (float(d["clock"][0]), float(d["clock"][1]))
    where = (
        _("{match} bid").format(match=entry.match)
        if isinstance(made, MadeBid)
        else _("{match} game {game} {what}").format(
            match=entry.match, game=entry.game, what=_(made.words)
        )
    )
    if isinstance(made, MadeSealed):
        where += (
            _(" (second price)") if d.get("price", "first") == "second" else _(" (first price)")
        )
    lot = (
        _(" ({who} by the arbiter's lot)").format(who=_(made.decider_words).removeprefix("the "))
        if d.get("chosen_by") == "lot"
        else ""
    )
    return _("{where}: {what}{lot}").format(
        where=where, what=made.text(d["red"], d["black"], clock), lot=lot
    )


def _game_line(entry: Entry) -> str:
    d = entry.fields
    text = _("{match} game {game} ({stage}): {red} (Red) {result} {black}").format(
        match=entry.match,
        game=entry.game,
        stage=stage_label(d["stage"]),
        red=d["red"],
        result=result_text(Result(d["result"])),
        black=d["black"],
    )
    return text + _used(d.get("time_used"), d.get("moves"))


def _used(time_used: Mapping[str, float] | None, moves: int | None) -> str:
    """``; time used A 2400 s, B 2100 s; 80 moves`` (nothing for what is not recorded)."""
    text = ""
    if time_used:
        text += _("; time used {times}").format(
            times=_(", ").join(
                _("{name} {seconds:g} s").format(name=n, seconds=s) for n, s in time_used.items()
            )
        )
    if moves:
        text += ngettext("; {n} move", "; {n} moves", moves).format(n=moves)
    return text


#: A bracket's seeding rule, as the journal's first entry names it (the scenario's words).
SEEDING_WORDS = {"rating": N_("rating"), "given": N_("given"), "random": N_("random")}

#: A player's ratings, as an entry says them.
RATING_WORDS = {
    "rating": N_("rating {value:g}"),
    "rating_rapid": N_("rating rapid {value:g}"),
    "rating_blitz": N_("rating blitz {value:g}"),
}


def _player_line(entry: Entry) -> str:
    d = entry.fields
    ratings = _(", ").join(_(RATING_WORDS[k]).format(value=d[k]) for k in RATING_WORDS if k in d)
    if entry.kind == "replace":
        if ratings:
            return _("{name} replaces {player} ({ratings})").format(
                name=d["name"], player=entry.player, ratings=ratings
            )
        return _("{name} replaces {player}").format(name=d["name"], player=entry.player)
    parts = []
    if "name" in d:
        parts.append(
            _("name {old} corrected to {new}").format(old=repr(entry.player), new=repr(d["name"]))
        )
    if ratings:
        parts.append(ratings)
    if "federation" in d:
        parts.append(_("federation {federation}").format(federation=d["federation"] or _("(none)")))
    return _("{player}: {changes}").format(player=entry.player, changes=_("; ").join(parts))


def game_text(g: RecordedGame) -> str:
    """``A (Red) 1-0 B`` with the time used and moves, as recorded."""
    text = _("{red} (Red) {result} {black}").format(
        red=g.red, result=result_text(g.result), black=g.black
    )
    return text + _used(g.time_used, g.moves)


def outcome_text(red: str, black: str, result: Result, stage: str, draw_winner: str | None) -> str:
    """What a result means, in words: ``B (Black) beats A (Red), 0-1``."""
    if result is Result.RED:
        return _("{red} (Red) beats {black} (Black), 1-0").format(red=red, black=black)
    if result is Result.BLACK:
        return _("{black} (Black) beats {red} (Red), 0-1").format(red=red, black=black)
    if draw_winner:
        return _(
            "{red} (Red) and {black} (Black) draw, ½-½; a draw counts as a win for {winner} here"
        ).format(red=red, black=black, winner=draw_winner)
    return _("{red} (Red) and {black} (Black) draw, ½-½").format(red=red, black=black)


def game_key(match: str, game: int) -> str:
    """A game as a refusal names it: ``R1-M3 game 2`` (R1-M3 第 2 局)."""
    return _("{match} game {game}").format(match=match, game=game)
