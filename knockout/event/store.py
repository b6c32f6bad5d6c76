"""The organiser's operations on an event file: create, read, record, undo.

Every change runs :func:`_append`: one write transaction that reads the journal, replays it,
builds the new entry from what the arbiter typed (:mod:`knockout.event.entries`), replays the
journal *with* the entry through the rules, and only then appends it and commits. A refused entry
raises before anything is written, so the file is left exactly as it was.
"""

from __future__ import annotations

import secrets
import tomllib
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from knockout import __version__
from knockout.event.database import (
    EventHeader,
    EventRows,
    append,
    connect,
    create_file,
    read_rows,
    write_transaction,
)
from knockout.event.entries import (
    bid_entry,
    choice_entry,
    game_entry,
    imported_game_entry,
    undo_entry,
    withdraw_entry,
)
from knockout.event.errors import refused
from knockout.event.journal import Entry, utc_now
from knockout.event.players import read_players
from knockout.event.state import Event, MatchKey, assign_boards
from knockout.io.text import read_text
from knockout.rules.match import PlayedGame
from knockout.rules.scenario import Scenario, parse_scenario

__all__ = [
    "create_event",
    "journal_head",
    "load_event",
    "record_bid",
    "record_game",
    "undo",
    "withdraw",
]

Maker = Callable[[Event, int, str], Entry]


def load_event(path: str | Path) -> Event:
    """The event in the file at ``path``, as it stands.

    Raises:
        EventRefused: Not an event file (or from a newer knockout).
    """
    source = str(path)
    with connect(path) as conn:
        return Event.replay(source, read_rows(conn, source))


def journal_head(path: str | Path) -> int:
    """The number of the journal's last entry: it grows with every change, so a reader can poll
    it to see that something was written."""
    with connect(path) as conn:
        row = conn.execute("SELECT COALESCE(MAX(seq), 0) FROM journal").fetchone()
        return int(row[0])


def _append(path: str | Path, make: Maker) -> tuple[Entry, Event]:
    """Check and append one entry in one write transaction; returns it and the new state."""
    source = str(path)
    with connect(path) as conn, write_transaction(conn, source):
        rows = read_rows(conn, source)
        entry, rows = _with_entry(source, rows, make, utc_now())
        append(conn, entry)
    return entry, Event.replay(source, rows)


def _with_entry(source: str, rows: EventRows, make: Maker, at: str) -> tuple[Entry, EventRows]:
    """The entry ``make`` builds from the current state, completed with the boards after it,
    and the rows with it appended; the journal with the entry is replayed through the rules.

    Raises:
        EventRefused: If the entry is refused.
    """
    entry = make(Event.replay(source, rows), len(rows.entries) + 1, at)
    after = Event.replay(source, replace(rows, entries=(*rows.entries, entry)))
    entry = replace(entry, data={**entry.fields, "boards": assign_boards(after)})
    return entry, replace(rows, entries=(*rows.entries, entry))


def record_game(
    path: str | Path,
    match: str,
    game: int,
    result: str,
    *,
    time_used: Sequence[str] = (),
    moves: int | None = None,
    command: str = "",
) -> tuple[Entry, Event]:
    """Record game ``game`` of ``match`` (see :func:`knockout.event.entries.game_entry`)."""
    return _append(
        path,
        lambda ev, seq, at: game_entry(
            ev,
            seq,
            at,
            command,
            match=match,
            game=game,
            result=result,
            time_used=time_used,
            moves=moves,
        ),
    )


def record_bid(
    path: str | Path,
    match: str,
    *,
    announce: str,
    reply: str,
    chooser: str | None = None,
    command: str = "",
) -> tuple[Entry, Event]:
    """Record the sudden-death choice of ``match`` (see
    :func:`~knockout.event.entries.bid_entry`)."""
    return _append(
        path,
        lambda ev, seq, at: bid_entry(
            ev, seq, at, command, match=match, announce=announce, reply=reply, chooser=chooser
        ),
    )


def record_choice(
    path: str | Path,
    match: str,
    *,
    colour: str,
    chooser: str | None = None,
    command: str = "",
) -> tuple[Entry, Event]:
    """Record the colour choice of ``match``'s next game (see
    :func:`~knockout.event.entries.choice_entry`)."""
    return _append(
        path,
        lambda ev, seq, at: choice_entry(
            ev, seq, at, command, match=match, colour=colour, chooser=chooser
        ),
    )


def withdraw(path: str | Path, name: str, *, command: str = "") -> tuple[Entry, Event]:
    """Record that ``name`` withdrew (see :func:`~knockout.event.entries.withdraw_entry`)."""
    return _append(path, lambda ev, seq, at: withdraw_entry(ev, seq, at, command, name=name))


def undo(path: str | Path, *, command: str = "") -> tuple[Entry, Event]:
    """Reverse the last game, bid, choice or withdrawal still in force (an ``undo`` entry)."""
    return _append(path, lambda ev, seq, at: undo_entry(ev, seq, at, command))


def create_event(
    path: str | Path,
    scenario_path: str | Path,
    *,
    players_path: str | Path | None = None,
    encoding: str | None = None,
    command: str = "",
    seed: int | None = None,
) -> Event:
    """Create the event file ``path`` from a scenario (and an entry list), all or nothing.

    The scenario gives the format, model, bracket and ranking rules, and the players unless
    ``players_path`` (a CSV entry list) is given. Games it lists as already played and players
    marked withdrawn become the first journal entries, checked like any other.

    Args:
        path: The new event file (must not exist).
        scenario_path: A scenario file (TOML).
        players_path: The entry list (CSV), replacing the scenario's players.
        encoding: The entry list's encoding (default UTF-8).
        command: The command line, for the journal.
        seed: The event's seed (colour lots; a random draw without its own ``draw_seed``);
            default: drawn from the operating system.

    Raises:
        InputError: Problems in the scenario or the entry list, or an existing ``path``.
    """
    source = str(path)
    if Path(path).exists():
        raise refused(source, "", "already exists: choose another file name, or open it")
    data = _scenario_data(scenario_path, players_path, encoding)
    scenario = parse_scenario(data, source=str(scenario_path))
    _check_supported(scenario)
    event_seed = secrets.randbits(31) if seed is None else seed
    if scenario.bracket.seeding == "random" and "draw_seed" not in data.get("bracket", {}):
        scenario = replace(scenario, bracket=replace(scenario.bracket, draw_seed=event_seed))
    base = replace(
        scenario,
        players=tuple(replace(p, withdrawn=False) for p in scenario.players),
        played=(),
    )
    at = utc_now()
    header = EventHeader(scenario.name, base.to_dict(), event_seed, at, __version__)
    federations = _federations(scenario, players_path, encoding)
    created = {
        "scenario": str(scenario_path),
        "players": None if players_path is None else str(players_path),
        "field": len(scenario.players),
        "seeding": scenario.bracket.seeding,
        "draw_seed": scenario.bracket.draw_seed,
        "seed": event_seed,
    }
    rows = EventRows(header, federations, ())
    _, rows = _with_entry(
        source, rows, lambda ev, seq, at: Entry(seq, at, "new", data=created, command=command), at
    )
    rows = _imported(source, rows, scenario, command)
    create_file(path, header, federations, rows.entries)
    return Event.replay(source, rows)


def _scenario_data(
    scenario_path: str | Path, players_path: str | Path | None, encoding: str | None
) -> dict[str, Any]:
    source = str(scenario_path)
    try:
        data = tomllib.loads(read_text(scenario_path))
    except tomllib.TOMLDecodeError as exc:
        raise refused(source, "", f"expected a scenario file (TOML), found: {exc}") from None
    if players_path is not None:
        entrants = read_players(players_path, encoding=encoding)
        data["players"] = [e.to_scenario() for e in entrants]
    elif "players" not in data:
        raise refused(
            source, "players", "expected [[players]] in the scenario or --players PLAYERS.csv"
        )
    return data


def _federations(
    scenario: Scenario, players_path: str | Path | None, encoding: str | None
) -> dict[str, str | None]:
    feds: dict[str, str | None] = {p.name: None for p in scenario.players}
    if players_path is not None:
        feds.update({e.name: e.federation for e in read_players(players_path, encoding=encoding)})
    return feds


def _check_supported(scenario: Scenario) -> None:
    stage = scenario.format.sealed_bid_stage
    if stage is not None:
        raise refused(
            scenario.source,
            f"format.{stage.name}",
            "expected a format whose colours come from lots, alternation or the open "
            "sudden-death bid (knockout event bid); event mode cannot record sealed "
            "Armageddon bids",
        )


def _imported(source: str, rows: EventRows, scenario: Scenario, command: str) -> EventRows:
    """The scenario's games already played and withdrawals, appended as entries."""
    at = rows.entries[0].at
    progress = sorted(scenario.event_state().progress.items())
    for key, placed in progress:
        for g in placed.games:
            if g.chooser is not None and g.announce is not None and g.reply is not None:
                # A sudden-death bid (its game played or not): entered as the arbiter would.

                def bid(
                    ev: Event, seq: int, at: str, key: MatchKey = key, g: PlayedGame = g
                ) -> Entry:
                    m = ev.by_key(key)
                    assert m is not None and g.announce is not None and g.reply is not None
                    return bid_entry(
                        ev,
                        seq,
                        at,
                        command,
                        match=m.id,
                        announce=g.announce.value,
                        reply=g.reply.value,
                        chooser=g.chooser,
                    )

                _, rows = _with_entry(source, rows, bid, at)
            if g.chooser is not None and g.colour is not None:
                # A colour choice (its game played or not): entered as the arbiter would.

                def choose(
                    ev: Event, seq: int, at: str, key: MatchKey = key, g: PlayedGame = g
                ) -> Entry:
                    m = ev.by_key(key)
                    assert m is not None and g.colour is not None
                    return choice_entry(
                        ev, seq, at, command, match=m.id, colour=g.colour.value, chooser=g.chooser
                    )

                _, rows = _with_entry(source, rows, choose, at)
            if g.result is None:
                continue

            def game(ev: Event, seq: int, at: str, key: MatchKey = key, g: PlayedGame = g) -> Entry:
                m = ev.by_key(key)
                assert m is not None
                return imported_game_entry(ev, seq, at, command, m=m, game=g)

            _, rows = _with_entry(source, rows, game, at)
    for player in scenario.players:
        if player.withdrawn:

            def leave(ev: Event, seq: int, at: str, name: str = player.name) -> Entry:
                return withdraw_entry(ev, seq, at, command, name=name)

            _, rows = _with_entry(source, rows, leave, at)
    return rows
