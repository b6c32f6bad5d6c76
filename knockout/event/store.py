"""The organiser's operations on an event file: create, read, record, undo.

Every change runs :func:`_append`: one write transaction that reads the journal, replays it,
builds the new entry from what the arbiter typed (:mod:`knockout.event.entries`), replays the
journal *with* the entry through the rules, and only then appends it and commits. A refused entry
raises before anything is written, so the file is left exactly as it was.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from knockout.errors import InputError, Problem
from knockout.event.carried import Carried, carried_facts
from knockout.event.checks import clean_name, name_key, name_problem, rating_problem
from knockout.event.database import (
    EventHeader,
    EventRows,
    append,
    connect,
    create_file,
    read_rows,
    salvage_rows,
    write_transaction,
)
from knockout.event.decisions import Answer, decision_entry, given
from knockout.event.entries import (
    amend_entry,
    correct_entry,
    describe,
    game_entry,
    imported_game_entry,
    replace_entry,
    undo_entry,
    withdraw_entry,
)
from knockout.event.errors import EventRefused, refused
from knockout.event.integrity import Damage
from knockout.event.journal import Entry, cascade_of, utc_now
from knockout.event.revisions import Conflict, downstream, later_conflicts
from knockout.event.state import Event, MatchKey, assign_boards
from knockout.i18n import _, ngettext
from knockout.io.text import read_text
from knockout.rules.chain.replay import PlayedGame
from knockout.rules.scenario.aggregate import Scenario, parse_scenario
from knockout.version import __version__

__all__ = [
    "Confirm",
    "Rescue",
    "amend_player",
    "correct_game",
    "create_event",
    "journal_head",
    "load_event",
    "record_decision",
    "record_game",
    "replace_player",
    "salvage",
    "short",
    "undo",
    "undo_entries",
    "withdraw",
]

Maker = Callable[[Event, int, str], Entry]
#: Sees the entries a change will write and the event after them, before they are written.
Confirm = Callable[[tuple[Entry, ...], Event], None]


def load_event(path: str | Path) -> Event:
    """The event in the file at ``path``, as it stands.

    Raises:
        EventRefused: Not an event file (or from a newer knockout).
    """
    source = str(path)
    with connect(path, write=False) as conn:
        return Event.replay(source, read_rows(conn, source))


def journal_head(path: str | Path) -> int:
    """The number of the journal's last entry: it grows with every change, so a reader can poll
    it to see that something was written."""
    with connect(path, write=False) as conn:
        row = conn.execute("SELECT COALESCE(MAX(seq), 0) FROM journal").fetchone()
        return int(row[0])


def _append(
    path: str | Path,
    make: Maker,
    *,
    confirm: Confirm | None = None,
    dry_run: bool = False,
) -> tuple[Entry, Event]:
    """Check and append one entry in one write transaction; returns it and the new state."""
    entries, event = _change(path, lambda ev, rows: [make], confirm=confirm, dry_run=dry_run)
    return entries[-1], event


def _change(
    path: str | Path,
    plan: Callable[[Event, EventRows], Sequence[Maker]],
    *,
    confirm: Confirm | None = None,
    dry_run: bool = False,
) -> tuple[tuple[Entry, ...], Event]:
    """Check and append the entries ``plan`` makes from the event as it stands, in one write
    transaction (each entry checked against the state the ones before it leave).

    ``confirm`` sees the entries and the event after them before anything is written (it may
    print them, or raise to write nothing); with ``dry_run`` nothing is written at all and the
    file is opened for reading only.
    """
    source = str(path)
    if dry_run:
        with connect(path, write=False) as conn:
            rows = read_rows(conn, source)
        entries, rows, after = _planned(source, rows, plan)
        if confirm is not None:
            confirm(entries, after)
        return entries, after
    with connect(path) as conn, write_transaction(conn, source):
        rows = read_rows(conn, source)
        entries, rows, after = _planned(source, rows, plan)
        if confirm is not None:
            confirm(entries, after)
        for entry in entries:
            append(conn, entry)
    return entries, after


def _planned(
    source: str, rows: EventRows, plan: Callable[[Event, EventRows], Sequence[Maker]]
) -> tuple[tuple[Entry, ...], EventRows, Event]:
    """The entries ``plan`` makes, each from the state the ones before it leave; the rows with
    them appended, and the event those rows replay to.

    The entries of one change are one write, so only the state after the last must stand: a
    step between them that the rules cannot place alone (the cascade's undos have taken back a
    sudden-death game whose winner a later round's game, which the correction keeps, needs) is
    passed over, the next entry built from the last state that stands, and it has no boards of
    its own.

    Raises:
        EventRefused: The state after the last entry does not stand.
    """
    at = utc_now()
    out: list[Entry] = []
    event = Event.replay(source, rows)
    makers = plan(event, rows)
    for i, make in enumerate(makers):
        try:
            entry, rows = _with_entry(source, rows, make, at, event)
            event = Event.replay(source, rows)
        except EventRefused:
            if i == len(makers) - 1:
                raise
            entry = make(event, len(rows.entries) + 1, at)
            rows = replace(rows, entries=(*rows.entries, entry))
        out.append(entry)
    return tuple(out), rows, event


def _with_entry(
    source: str, rows: EventRows, make: Maker, at: str, event: Event | None = None
) -> tuple[Entry, EventRows]:
    """The entry ``make`` builds from the state ``rows`` replay to (``event``, if the caller
    has it), completed with the boards after it, and the rows with it appended; the journal
    with the entry is replayed through the rules.

    Raises:
        EventRefused: If the entry is refused.
    """
    current = Event.replay(source, rows) if event is None else event
    entry = make(current, len(rows.entries) + 1, at)
    after = Event.replay(source, replace(rows, entries=(*rows.entries, entry)))
    entry = replace(entry, data={**entry.fields, "boards": assign_boards(after)})
    return entry, replace(rows, entries=(*rows.entries, entry))


def record_game(
    path: str | Path,
    match: str,
    game: int,
    result: str | None,
    *,
    time_used: Sequence[str] = (),
    moves: int | None = None,
    command: str = "",
    winner: str | None = None,
    draw: bool = False,
    confirm: Confirm | None = None,
    dry_run: bool = False,
) -> tuple[Entry, Event]:
    """Record game ``game`` of ``match`` (see :func:`knockout.event.entries.game_entry`):
    ``result`` (Red's score first), or ``winner``, or ``draw``."""
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
            winner=winner,
            draw=draw,
        ),
        confirm=confirm,
        dry_run=dry_run,
    )


def correct_game(
    path: str | Path,
    match: str,
    game: int,
    result: str | None,
    *,
    time_used: Sequence[str] = (),
    moves: int | None = None,
    winner: str | None = None,
    draw: bool = False,
    cascade: bool = False,
    command: str = "",
    confirm: Confirm | None = None,
    dry_run: bool = False,
) -> tuple[tuple[Entry, ...], Event]:
    """Replace the result of game ``game`` of ``match`` by a ``correct`` entry (see
    :func:`~knockout.event.entries.correct_entry`).

    Returns:
        The entries written: with ``cascade``, an undo of each later entry the correction
        invalidates (the latest first), then the correction; and the event after them.

    Raises:
        EventRefused: A correction refused, or one that would invalidate later entries (named)
            without ``cascade``.
    """

    def make(ev: Event, seq: int, at: str) -> Entry:
        return correct_entry(
            ev,
            seq,
            at,
            command,
            match=match,
            game=game,
            result=result,
            time_used=time_used,
            moves=moves,
            winner=winner,
            draw=draw,
        )

    def plan(ev: Event, rows: EventRows) -> list[Maker]:
        fix = make(ev, len(rows.entries) + 1, utc_now())
        assert fix.match is not None
        conflicts = later_conflicts(
            ev.source, rows, at=int(fix.fields["corrects"]), match=fix.match, changed=[fix]
        )
        key = f"{fix.match} game {fix.game}"
        return [*_cascade(ev, key, conflicts, cascade, command, f"correct {key}"), make]

    return _change(path, plan, confirm=confirm, dry_run=dry_run)


def _cascade(
    event: Event,
    key: str,
    conflicts: Sequence[Conflict],
    cascade: bool,
    command: str,
    because: str,
) -> list[Maker]:
    """Undo makers for ``conflicts`` (the latest first), or the refusal that names them."""
    if not conflicts:
        return []
    by_seq = {e.seq: e for e in event.entries}
    if not cascade:
        named = _("; ").join(
            f"#{c.entry.seq} {short(c.entry, by_seq)} ({c.why})" for c in conflicts
        )
        raise refused(
            event.source,
            key,
            ngettext(
                "expected a change that keeps the later entries, found {n:,} entry it would "
                "invalidate: {named}; add --cascade to undo them too, or undo them first",
                "expected a change that keeps the later entries, found {n:,} entries it would "
                "invalidate: {named}; add --cascade to undo them too, or undo them first",
                len(conflicts),
            ).format(n=len(conflicts), named=named),
        )
    makers: list[Maker] = []
    for c in sorted(conflicts, key=lambda c: -c.entry.seq):

        def undo_it(ev: Event, seq: int, at: str, target: Entry = c.entry) -> Entry:
            data = {
                "kind": target.kind,
                "match": target.match,
                "game": target.game,
                "cascade": because,
            }
            return Entry(
                seq, at, "undo", match=target.match, data=data, command=command,
                undoes=target.seq,
            )  # fmt: skip

        makers.append(undo_it)
    return makers


def _restore(event: Event, target: int, command: str) -> list[Maker]:
    """With the undo of a correction written with ``--cascade``: an undo of each of the
    cascade's undos, the entry it took back first, so every entry the cascade took back is in
    force again, as before the correction (an empty list for any other entry)."""
    by_seq = {e.seq: e for e in event.entries}
    makers: list[Maker] = []
    for u in cascade_of(event.entries, by_seq[target]):

        def restore(ev: Event, seq: int, at: str, u: Entry = u) -> Entry:
            data = {"kind": "undo", "match": u.match, "game": u.game, "restores": u.undoes}
            data["with"] = target
            return Entry(seq, at, "undo", match=u.match, data=data, command=command, undoes=u.seq)

        makers.append(restore)
    return makers


def short(entry: Entry, entries: Mapping[int, Entry]) -> str:
    """A few words naming an entry: ``R2-M1 game 1``, ``R1-M2 bid``, ``X withdraws``."""
    if entry.kind in ("game", "correct"):
        tail = " (a correction)" if entry.kind == "correct" else ""
        return f"{entry.match} game {entry.game}{tail}"
    if entry.kind == "decision":
        kind = entry.fields["kind"]
        return f"{entry.match} {'sealed bids' if kind == 'sealed' else kind}"
    return describe(entry, entries)


def record_decision(
    path: str | Path, match: str, answer: Answer, *, command: str = ""
) -> tuple[Entry, Event]:
    """Record a decision the players of ``match`` made before its next game (a bid, a colour
    choice, sealed bids, a cut: what the arbiter gave, read by ``answer``; see
    :mod:`knockout.event.decisions`)."""
    return _append(
        path,
        lambda ev, seq, at: decision_entry(ev, seq, at, command, match=match, answer=answer),
    )


def withdraw(path: str | Path, name: str, *, command: str = "") -> tuple[Entry, Event]:
    """Record that ``name`` withdrew (see :func:`~knockout.event.entries.withdraw_entry`)."""
    return _append(path, lambda ev, seq, at: withdraw_entry(ev, seq, at, command, name=name))


def undo(
    path: str | Path,
    *,
    command: str = "",
    match: str | None = None,
    cascade: bool = False,
    confirm: Confirm | None = None,
    dry_run: bool = False,
) -> tuple[Entry, Event]:
    """Reverse the last entry still in force (an ``undo`` entry); with ``match``, that match's
    last entry, refused (naming them) if later entries depend on it, unless ``cascade``: then
    they are undone first (see :func:`undo_entries` for all the entries written)."""
    entries, event = undo_entries(
        path, command=command, match=match, cascade=cascade, confirm=confirm, dry_run=dry_run
    )
    return entries[-1], event


def undo_entries(
    path: str | Path,
    *,
    command: str = "",
    match: str | None = None,
    cascade: bool = False,
    confirm: Confirm | None = None,
    dry_run: bool = False,
) -> tuple[tuple[Entry, ...], Event]:
    """Like :func:`undo`, returning every entry written (the cascade's undos first)."""

    def make(ev: Event, seq: int, at: str) -> Entry:
        return undo_entry(ev, seq, at, command, match=match)

    def plan(ev: Event, rows: EventRows) -> list[Maker]:
        entry = make(ev, len(rows.entries) + 1, utc_now())
        assert entry.undoes is not None
        restore = _restore(ev, entry.undoes, command)
        if match is None:
            return [make, *restore]
        assert entry.match is not None
        conflicts = later_conflicts(
            ev.source, rows, at=entry.undoes, match=entry.match, dropped=frozenset({entry.undoes})
        )
        key = f"undo --match {entry.match}"
        return [*_cascade(ev, key, conflicts, cascade, command, key), make, *restore]

    return _change(path, plan, confirm=confirm, dry_run=dry_run)


def amend_player(
    path: str | Path,
    name: str,
    *,
    new_name: str | None = None,
    ratings: Mapping[str, str | None] | None = None,
    federation: str | None = None,
    command: str = "",
    confirm: Confirm | None = None,
    dry_run: bool = False,
) -> tuple[Entry, Event]:
    """Correct a player's name, ratings or federation (see
    :func:`~knockout.event.entries.amend_entry`)."""
    return _append(
        path,
        lambda ev, seq, at: amend_entry(
            ev,
            seq,
            at,
            command,
            name=name,
            new_name=new_name,
            ratings=ratings,
            federation=federation,
        ),
        confirm=confirm,
        dry_run=dry_run,
    )


def replace_player(
    path: str | Path,
    out: str,
    reserve: str,
    *,
    ratings: Mapping[str, str | None],
    federation: str | None = None,
    command: str = "",
    confirm: Confirm | None = None,
    dry_run: bool = False,
) -> tuple[Entry, Event]:
    """Put ``reserve`` in the place of ``out``, who has not played (see
    :func:`~knockout.event.entries.replace_entry`)."""
    return _append(
        path,
        lambda ev, seq, at: replace_entry(
            ev, seq, at, command, out=out, reserve=reserve, ratings=ratings, federation=federation
        ),
        confirm=confirm,
        dry_run=dry_run,
    )


@dataclass(frozen=True)
class Rescue:
    """What ``event check --salvage`` saves of a damaged event file.

    Attributes:
        event: The event as salvaged (the entries kept, replayed).
        lost: Entry numbers SQLite cannot read at all.
        damaged: The entries that can be read but are damaged.
        left_out: Readable, sound entries left out because they depend on a lost or damaged
            one (a later entry of its match or of a match its result feeds, an undo or
            correction of it), or because the rules cannot place them.
        header_damage: What is wrong with the event row, when its scenario could still be used.
    """

    event: Event
    lost: tuple[int, ...]
    damaged: tuple[Damage, ...]
    left_out: tuple[int, ...]
    header_damage: Damage | None = None


def salvage(path: str | Path) -> Rescue:
    """What a damaged event file still holds, replayed: every readable, sound entry that does
    not depend on a lost or damaged one (``event check --salvage`` saves it as a scenario file,
    from which ``event new`` carries the event on).

    An entry depends on a damaged one when it comes after it in the same match or in a match
    that match's result feeds (a later round on its side of the draw, the match for third
    place), or when it undoes or corrects one left out. A lost entry (unreadable, so its match
    is not known), or a damaged one whose match is not known or that changes a player, leaves
    out everything after it. What is left is replayed through the rules; entries they cannot
    place are left out from the end.

    Raises:
        EventRefused: Nothing can be read.
    """
    source = str(path)
    found = salvage_rows(path)
    rows = found.rows
    blank = Event.replay(source, replace(rows, entries=()))
    cut = min(found.lost, default=None)
    tainted: list[tuple[int, set[str]]] = []
    for d in found.damaged:
        assert d.seq is not None
        feeds = _fed_by(blank, d.match) if d.kind not in ("amend", "replace", "new") else None
        if feeds is None:
            cut = d.seq if cut is None else min(cut, d.seq)
        else:
            tainted.append((d.seq, feeds))
    out: set[int] = set(found.lost) | {d.seq for d in found.damaged if d.seq is not None}
    kept: list[Entry] = []
    for e in rows.entries:
        depends = (
            (cut is not None and e.seq > cut)
            or any(e.seq > at and e.match in feeds for at, feeds in tainted)
            or (e.undoes is not None and e.undoes in out)
            or (e.kind == "correct" and int(e.fields.get("corrects", 0)) in out)
        )
        if depends:
            out.add(e.seq)
        else:
            kept.append(e)
    left_out = [e.seq for e in rows.entries if e.seq in out]
    entries = tuple(kept)
    while True:
        try:
            event = Event.replay(source, replace(rows, entries=entries))
            break
        except EventRefused:
            if len(entries) <= 1:
                raise
            left_out.append(entries[-1].seq)
            entries = entries[:-1]
    return Rescue(event, found.lost, found.damaged, tuple(sorted(left_out)), found.header_damage)


def _fed_by(event: Event, match: str | None) -> set[str] | None:
    """``match`` and the matches its result feeds (None: not a match of the draw)."""
    if match is None:
        return None
    try:
        return downstream(event, match)
    except EventRefused:
        return None


def create_event(
    path: str | Path,
    scenario_path: str | Path,
    *,
    players_path: str | Path | None = None,
    encoding: str | None = None,
    command: str = "",
    seed: int | None = None,
    language: str | None = None,
) -> Event:
    """Create the event file ``path`` from a scenario (and an entry list), all or nothing.

    The scenario gives the format, model, bracket and ranking rules, and the players unless
    ``players_path`` (a CSV entry list) is given. Games it lists as already played, decisions
    and players marked withdrawn become the first journal entries, in the file's order (a
    withdrawal where its ``[event]`` table says it came), checked like any other. An
    exported event's ``[event]`` table carries it on exactly: its seed, language and
    federations.

    Args:
        path: The new event file (must not exist).
        scenario_path: A scenario file (TOML).
        players_path: The entry list (CSV), replacing the scenario's players.
        encoding: The entry list's encoding (default UTF-8).
        command: The command line, for the journal.
        seed: The event's seed (colour lots; a random draw without its own ``draw_seed``);
            default: the scenario's ``[event] seed``, else drawn from the operating system.
        language: The language to store as the event's own (default: the scenario's
            ``[event] language``, if any).

    Raises:
        InputError: Problems in the scenario or the entry list, or an existing ``path``.
    """
    source = str(path)
    if Path(path).exists():
        raise refused(source, "", "already exists: choose another file name, or open it")
    data = _scenario_data(scenario_path, players_path, encoding)
    scenario = parse_scenario(data, source=str(scenario_path))
    carried = carried_facts(data, scenario, str(scenario_path), entry_list=players_path is not None)
    if seed is None:
        seed = carried.seed
    elif carried.seed is not None and seed != carried.seed:
        message = _(
            "expected --seed {carried} or no --seed: the scenario carries the event's seed "
            "{carried}, which draws the colours of the games to come; found --seed {seed}"
        )
        raise refused(
            str(scenario_path), "event.seed", message.format(carried=carried.seed, seed=seed)
        )
    if seed is None:
        import secrets  # noqa: PLC0415  (only `event new` without --seed; hmac is slow to load)

        seed = secrets.randbits(31)
    event_seed = seed
    if scenario.bracket.seeding == "random" and "draw_seed" not in data.get("bracket", {}):
        scenario = replace(scenario, bracket=replace(scenario.bracket, draw_seed=event_seed))
    base = replace(
        scenario,
        players=tuple(replace(p, withdrawn=False) for p in scenario.players),
        played=(),
    )
    at = utc_now()
    name = clean_name(scenario.name)
    if not name:
        message = _("expected the event's name, found nothing visible ({found})")
        raise refused(str(scenario_path), "name", message.format(found=repr(scenario.name)))
    if name != scenario.name:
        base = replace(base, name=name)
    header = EventHeader(name, base.to_dict(), event_seed, at, __version__)
    federations = _federations(scenario, players_path, encoding)
    if players_path is None:
        federations.update(carried.federations)
    created = {
        "scenario": str(scenario_path),
        "players": None if players_path is None else str(players_path),
        "field": len(scenario.players),
        "seeding": scenario.bracket.seeding,
        "draw_seed": scenario.bracket.draw_seed,
        "seed": event_seed,
    }
    rows = EventRows(header, federations, ())
    _entry, rows = _with_entry(
        source, rows, lambda ev, seq, at: Entry(seq, at, "new", data=created, command=command), at
    )
    rows = _imported(source, rows, scenario, carried, command)
    create_file(path, header, federations, rows.entries)
    stored = language if language is not None else carried.language
    if stored is not None:
        from knockout.event.language import write_language  # noqa: PLC0415  (only event new)

        write_language(path, stored)
    return Event.replay(source, rows)


def _not_a_scenario(players_path: str | Path) -> None:
    """Refuse a scenario file given as the entry list (``--players cup.toml``) in one line."""
    import tomllib  # noqa: PLC0415  (only `event new` reads a scenario file)

    try:
        data = tomllib.loads(read_text(players_path))
    except (tomllib.TOMLDecodeError, InputError, OSError):
        return
    if isinstance(data, dict) and data:
        message = _(
            "--players: expected an entry list (CSV: name,rating,...), found a scenario file "
            "(TOML): give it as --scenario {path} and the entry list as --players"
        ).format(path=players_path)
        raise refused(str(players_path), "", message)


def _scenario_data(
    scenario_path: str | Path, players_path: str | Path | None, encoding: str | None
) -> dict[str, Any]:
    import tomllib  # noqa: PLC0415  (only `event new` reads a scenario file)

    source = str(scenario_path)
    text = read_text(scenario_path)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        header = {c.strip().lower() for c in (text.splitlines() or [""])[0].split(",")}
        if {"name", "rating"} <= header:
            message = _(
                "--scenario: expected a scenario file (TOML), found an entry list (CSV: "
                "name,rating,...): give it as --players {path} and the scenario as --scenario"
            ).format(path=source)
            raise refused(source, "", message) from None
        message = _("expected a scenario file (TOML), found: {error}").format(error=exc)
        raise refused(source, "", message) from None
    if players_path is not None:
        from knockout.event.players import read_players  # noqa: PLC0415  (only event new)

        _not_a_scenario(players_path)
        entrants = read_players(players_path, encoding=encoding)
        data["players"] = [e.to_scenario() for e in entrants]
    elif "players" not in data:
        raise refused(
            source, "players", _("expected [[players]] in the scenario or --players PLAYERS.csv")
        )
    else:
        data["players"] = _checked_players(data["players"], source)
    return data


def _checked_players(players: Any, source: str) -> Any:
    """A scenario's ``[[players]]`` with names tidied, checked like an entry list's: every
    problem at once (a name too long or empty, the same name twice, a rating out of range)."""
    if not isinstance(players, list):
        return players  # the scenario's own check says what is wrong
    problems: list[Problem] = []
    seen: dict[str, int] = {}
    out = []
    for i, p in enumerate(players):
        if not isinstance(p, dict) or not isinstance(p.get("name"), str):
            out.append(p)
            continue
        where = f"players[{i}]"
        problem = name_problem(p["name"])
        name = clean_name(p["name"])
        if problem is not None:
            problems.append(Problem(source, f"{where}.name", problem))
        elif name_key(name) in seen:
            first = seen[name_key(name)]
            problems.append(
                Problem(
                    source,
                    f"{where}.name",
                    _(
                        "expected a name not already listed, found {name} again (first in "
                        "{first}; names are compared ignoring case and invisible characters)"
                    ).format(name=repr(name), first=f"players[{first}]"),
                )
            )
        seen.setdefault(name_key(name), i)
        for key in ("rating", "rating_rapid", "rating_blitz"):
            value = p.get(key)
            if isinstance(value, int | float) and not isinstance(value, bool):
                why = rating_problem(float(value), str(value))
                if why is not None:
                    problems.append(Problem(source, f"{where}.{key}", why))
        out.append({**p, "name": name})
    if problems:
        raise InputError(problems)
    return out


def _federations(
    scenario: Scenario, players_path: str | Path | None, encoding: str | None
) -> dict[str, str | None]:
    feds: dict[str, str | None] = {p.name: None for p in scenario.players}
    if players_path is not None:
        from knockout.event.players import read_players  # noqa: PLC0415  (only event new)

        feds.update({e.name: e.federation for e in read_players(players_path, encoding=encoding)})
    return feds


def _imported(
    source: str, rows: EventRows, scenario: Scenario, carried: Carried, command: str
) -> EventRows:
    """The scenario's games already played, decisions and withdrawals, appended as entries in
    the file's order (a withdrawal after the ``[[played]]`` entries ``carried`` says came
    before it; without that, last). An entry whose match is not playable yet (a hand-written
    file listing a later round first, or a game after a withdrawal given no place) waits until
    it is."""
    at = rows.entries[0].at
    keys = {
        frozenset(placed.players): key for key, placed in scenario.event_state().progress.items()
    }
    items: list[tuple[MatchKey | None, PlayedGame | str]] = []
    after = dict(carried.after)
    for p in scenario.players:
        if p.withdrawn and p.name not in after:
            after[p.name] = len(scenario.played)
    for i in range(len(scenario.played) + 1):
        items += [(None, name) for name, n in after.items() if n == i]
        if i < len(scenario.played):
            g = scenario.played[i]
            items.append((keys[frozenset((g.red, g.black))], g))
    event = Event.replay(source, rows)
    waiting: list[tuple[MatchKey | None, PlayedGame | str]] = []
    for item in items:
        if not _ready(event, item):
            waiting.append(item)
            continue
        rows, event = _enter(source, rows, event, item, at, command)
        ready = next((w for w in waiting if _ready(event, w)), None)
        while ready is not None:
            waiting.remove(ready)
            rows, event = _enter(source, rows, event, ready, at, command)
            ready = next((w for w in waiting if _ready(event, w)), None)
    for item in waiting:  # the rules refuse it, saying why
        rows, event = _enter(source, rows, event, item, at, command)
    return rows


def _ready(event: Event, item: tuple[MatchKey | None, PlayedGame | str]) -> bool:
    """An imported entry can be entered now: its match is playable (a withdrawal: the player
    has a match left)."""
    key, what = item
    if isinstance(what, str):
        return event.match_of(what) is not None
    assert key is not None
    m = event.by_key(key)
    return m is not None and m.playable


def _enter(
    source: str,
    rows: EventRows,
    event: Event,
    item: tuple[MatchKey | None, PlayedGame | str],
    at: str,
    command: str,
) -> tuple[EventRows, Event]:
    """Append the entries of one imported item (a decision, a game, a withdrawal)."""
    key, what = item
    makers: list[Maker] = []
    if isinstance(what, str):

        def leave(ev: Event, seq: int, at: str, name: str = what) -> Entry:
            return withdraw_entry(ev, seq, at, command, name=name)

        makers.append(leave)
    else:
        assert key is not None
        decided = _decision_maker(key, what, command)
        if decided is not None:  # a decision (its game played or not): as the arbiter would
            makers.append(decided)
        if what.result is not None:

            def game(
                ev: Event, seq: int, at: str, k: MatchKey = key, g: PlayedGame = what
            ) -> Entry:
                m = ev.by_key(k)
                assert m is not None
                return imported_game_entry(ev, seq, at, command, m=m, game=g)

            makers.append(game)
    for make in makers:
        _entry, rows = _with_entry(source, rows, make, at, event)
        event = Event.replay(source, rows)
    return rows, event


def _decision_maker(key: MatchKey, g: PlayedGame, command: str) -> Maker | None:
    """The entry maker of the decision a ``[[played]]`` game records (a bid, colour choice,
    sealed bids or cut), or None."""
    if g.made is None:
        return None
    answer = given(g.made)

    def make(ev: Event, seq: int, at: str) -> Entry:
        m = ev.by_key(key)
        assert m is not None
        return decision_entry(ev, seq, at, command, match=m.id, answer=answer)

    return make
