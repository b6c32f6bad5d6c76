"""The event file: one SQLite database, versioned, append-only, safe to kill and to share.

* **One file is the event.** ``PRAGMA application_id`` marks it as a knockout event and
  ``PRAGMA user_version`` holds its schema version; anything else is refused with a clear message
  (not an SQLite file, another application's database, a file from a newer knockout). An older
  schema is migrated in one transaction, after a copy of the file is saved beside it.
* **Nothing is ever lost.** The database runs in WAL mode with ``synchronous = FULL``; every
  change is one transaction (``BEGIN IMMEDIATE`` ... ``COMMIT``) that reads the journal, checks
  the change against the rules and appends one entry, so a process killed at any instant leaves
  either the whole entry or none of it. A new event is built in a temporary file and linked into
  place only when complete.
* **Two terminals at once.** ``BEGIN IMMEDIATE`` takes the write lock before the journal is
  read, so a second writer waits (up to ``BUSY_SECONDS``) and then checks its change against the
  first writer's result; readers (``show --live``) never block writers in WAL mode.
* **Append-only.** Triggers refuse any UPDATE or DELETE of the journal, the event and its
  players, and any journal entry that is not the next number; an entry can be undone once only
  (``undoes`` is UNIQUE).
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from knockout.event.errors import refused
from knockout.event.journal import Entry, EntryKind

__all__ = [
    "APPLICATION_ID",
    "BUSY_SECONDS",
    "MIGRATIONS",
    "SCHEMA",
    "SCHEMA_VERSION",
    "EventHeader",
    "EventRows",
    "append",
    "connect",
    "create_file",
    "read_rows",
    "write_transaction",
]

#: ``PRAGMA application_id`` of an event file ("KNKO").
APPLICATION_ID = 0x4B4E4B4F
#: The schema this code writes. Older files are migrated (MIGRATIONS), newer ones refused.
SCHEMA_VERSION = 2
#: How long a writer waits for another terminal's write to finish.
BUSY_SECONDS = 30.0

#: Journal entry kinds the schema accepts, and those an ``undo`` may reverse.
JOURNAL_KINDS: tuple[str, ...] = ("new", "game", "bid", "choice", "withdraw", "undo")
UNDOABLE_KINDS: tuple[str, ...] = ("game", "bid", "choice", "withdraw")


def _quoted(kinds: tuple[str, ...]) -> str:
    return ", ".join(f"'{k}'" for k in kinds)


def _journal_table(name: str = "journal") -> str:
    return f"""CREATE TABLE {name} (
        seq INTEGER PRIMARY KEY CHECK (seq >= 1),
        at TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ({_quoted(JOURNAL_KINDS)})),
        match TEXT,
        game INTEGER,
        player TEXT,
        data TEXT NOT NULL,
        command TEXT NOT NULL,
        undoes INTEGER UNIQUE REFERENCES {name} (seq),
        CHECK ((kind = 'undo') = (undoes IS NOT NULL))
    )"""


def _journal_triggers() -> tuple[str, ...]:
    return (
        """CREATE TRIGGER journal_in_order BEFORE INSERT ON journal
        WHEN NEW.seq != (SELECT COALESCE(MAX(seq), 0) + 1 FROM journal)
        BEGIN SELECT RAISE(ABORT, 'journal entries are appended in order'); END""",
        f"""CREATE TRIGGER journal_undo_target BEFORE INSERT ON journal
        WHEN NEW.kind = 'undo' AND NOT EXISTS (
            SELECT 1 FROM journal WHERE seq = NEW.undoes AND kind IN ({_quoted(UNDOABLE_KINDS)}))
        BEGIN SELECT RAISE(ABORT, 'an undo reverses a game, a bid, a choice or a withdrawal');
        END""",
        *_frozen("journal"),
    )


def _frozen(table: str) -> tuple[str, ...]:
    return tuple(
        f"""CREATE TRIGGER {table}_no_{verb} BEFORE {verb.upper()} ON {table}
        BEGIN SELECT RAISE(ABORT, '{table} rows are never changed'); END"""
        for verb in ("update", "delete")
    )


SCHEMA: tuple[str, ...] = (
    """CREATE TABLE event (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        name TEXT NOT NULL,
        scenario TEXT NOT NULL,
        seed INTEGER NOT NULL,
        created TEXT NOT NULL,
        knockout_version TEXT NOT NULL
    )""",
    """CREATE TABLE players (
        position INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        federation TEXT
    )""",
    _journal_table(),
    *_journal_triggers(),
    *_frozen("event"),
    *_frozen("players"),
)


def _rebuild_journal() -> tuple[str, ...]:
    """Statements that rebuild the journal under the current kinds (SQLite cannot change a
    CHECK constraint in place): copy it into a new table, swap, recreate its triggers."""
    return (
        _journal_table("journal_next"),
        "INSERT INTO journal_next SELECT seq, at, kind, match, game, player, data, command, "
        "undoes FROM journal",
        "DROP TABLE journal",
        "ALTER TABLE journal_next RENAME TO journal",
        *_journal_triggers(),
    )


#: ``MIGRATIONS[v]``: the statements that take a schema-``v`` file to schema ``v + 1``.
#: Schema 2 adds the ``choice`` entry (a colour choice).
MIGRATIONS: dict[int, tuple[str, ...]] = {1: _rebuild_journal()}


@dataclass(frozen=True)
class EventHeader:
    """The ``event`` row: what the event is, fixed at creation.

    Attributes:
        name: The event's name.
        scenario: The resolved scenario (format, model, players, bracket, ranking), as
            :meth:`~knockout.io.scenario.Scenario.to_dict` gives it, without games or withdrawals.
        seed: The event's seed: colour lots (and a random draw without its own seed).
        created: When the event was created (UTC, ISO 8601).
        knockout_version: The version of knockout that created it.
    """

    name: str
    scenario: Mapping[str, Any]
    seed: int
    created: str
    knockout_version: str


@dataclass(frozen=True)
class EventRows:
    """Everything in an event file, read in one transaction."""

    header: EventHeader
    federations: Mapping[str, str | None]
    entries: tuple[Entry, ...]


def _is_busy(exc: sqlite3.OperationalError) -> bool:
    return "locked" in str(exc) or "busy" in str(exc)


@contextmanager
def connect(path: str | Path) -> Iterator[sqlite3.Connection]:
    """An open event file, identified and migrated to ``SCHEMA_VERSION``; closed on exit.

    Raises:
        EventRefused: No such file, not an event file, or one from a newer knockout.
    """
    source = str(path)
    p = Path(path)
    if not p.is_file():
        what = "is a folder, not an event file" if p.is_dir() else "no such event file"
        raise refused(source, "", f"{what} (create one with: knockout event new)")
    try:
        conn = sqlite3.connect(
            p.resolve().as_uri() + "?mode=rw", uri=True, timeout=BUSY_SECONDS, isolation_level=None
        )
    except sqlite3.Error as exc:
        raise refused(source, "", f"cannot open the event file: {exc}") from None
    try:
        version = _identify(conn, source)
        if version < SCHEMA_VERSION:
            _migrate(conn, p, version)
        if conn.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
            conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = FULL")
        conn.execute("PRAGMA foreign_keys = ON")
        yield conn
    except sqlite3.Error as exc:
        if isinstance(exc, sqlite3.OperationalError) and _is_busy(exc):
            raise refused(
                source, "", f"the event is busy (another terminal is writing): {exc}; try again"
            ) from None
        raise refused(
            source, "", f"the event file could not be used, nothing changed: {exc}"
        ) from None
    finally:
        conn.close()


def _identify(conn: sqlite3.Connection, source: str) -> int:
    """The file's schema version, after checking that it is an event file this code can read."""
    try:
        app_id = int(conn.execute("PRAGMA application_id").fetchone()[0])
        version = int(conn.execute("PRAGMA user_version").fetchone()[0])
    except sqlite3.DatabaseError as exc:
        if isinstance(exc, sqlite3.OperationalError) and _is_busy(exc):
            raise
        raise refused(
            source, "", f"not a knockout event file: expected an SQLite database, found {exc}"
        ) from None
    if app_id != APPLICATION_ID:
        found = "an empty file" if Path(source).stat().st_size == 0 else "another database"
        raise refused(
            source,
            "",
            f"not a knockout event file: expected application id {APPLICATION_ID:#x}, "
            f"found {found} (id {app_id:#x}); create an event with: knockout event new",
        )
    if version > SCHEMA_VERSION:
        raise refused(
            source,
            "",
            f"written by a newer knockout: event schema {version}, this knockout reads schema "
            f"{SCHEMA_VERSION} and older; upgrade knockout to open it",
        )
    if version < 1:
        raise refused(source, "", f"not a complete event file (schema version {version})")
    return version


def _migrate(conn: sqlite3.Connection, path: Path, version: int) -> None:
    """Bring a schema-``version`` file to SCHEMA_VERSION in one transaction, keeping a copy of
    the original beside it (``EVENT.db.schema1.bak``)."""
    backup = path.with_name(f"{path.name}.schema{version}.bak")
    if not backup.exists():
        copy = sqlite3.connect(backup)
        try:
            conn.backup(copy)
        finally:
            copy.close()
    with write_transaction(conn, str(path)):
        current = int(conn.execute("PRAGMA user_version").fetchone()[0])
        for v in range(current, SCHEMA_VERSION):
            if v not in MIGRATIONS:
                raise refused(str(path), "", f"no migration from event schema {v} to {v + 1}")
            for statement in MIGRATIONS[v]:
                conn.execute(statement)
        conn.execute(f"PRAGMA user_version = {int(SCHEMA_VERSION)}")


@contextmanager
def write_transaction(conn: sqlite3.Connection, source: str) -> Iterator[None]:
    """``BEGIN IMMEDIATE`` ... ``COMMIT``; any exception rolls everything back.

    Raises:
        EventRefused: If another terminal holds the write lock for longer than BUSY_SECONDS.
    """
    try:
        conn.execute("BEGIN IMMEDIATE")
    except sqlite3.OperationalError as exc:
        if _is_busy(exc):
            raise refused(
                source, "", f"the event is busy (another terminal is writing): {exc}; try again"
            ) from None
        raise
    try:
        yield
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise


def read_rows(conn: sqlite3.Connection, source: str) -> EventRows:
    """The event row, the players and the whole journal, in one consistent read.

    Inside a write transaction the read belongs to it; otherwise it is its own transaction.
    """
    own = not conn.in_transaction
    if own:
        conn.execute("BEGIN")
    try:
        row = conn.execute(
            "SELECT name, scenario, seed, created, knockout_version FROM event WHERE id = 1"
        ).fetchone()
        if row is None:
            raise refused(source, "", "not a complete event file (no event row)")
        header = EventHeader(row[0], json.loads(row[1]), int(row[2]), row[3], row[4])
        federations = {
            name: fed
            for name, fed in conn.execute("SELECT name, federation FROM players ORDER BY position")
        }
        entries = tuple(
            _entry(r)
            for r in conn.execute(
                "SELECT seq, at, kind, match, game, player, data, command, undoes "
                "FROM journal ORDER BY seq"
            )
        )
    finally:
        if own:
            conn.execute("COMMIT")
    return EventRows(header, federations, entries)


def _entry(r: Sequence[Any]) -> Entry:
    return Entry(
        seq=int(r[0]),
        at=r[1],
        kind=cast(EntryKind, r[2]),
        match=r[3],
        game=None if r[4] is None else int(r[4]),
        player=r[5],
        data=json.loads(r[6]),
        command=r[7],
        undoes=None if r[8] is None else int(r[8]),
    )


def append(conn: sqlite3.Connection, entry: Entry) -> None:
    """Insert ``entry`` (inside the caller's write transaction)."""
    conn.execute(
        "INSERT INTO journal (seq, at, kind, match, game, player, data, command, undoes) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            entry.seq,
            entry.at,
            entry.kind,
            entry.match,
            entry.game,
            entry.player,
            json.dumps(dict(entry.fields), ensure_ascii=False, sort_keys=True, allow_nan=False),
            entry.command,
            entry.undoes,
        ),
    )


def create_file(
    path: str | Path,
    header: EventHeader,
    federations: Mapping[str, str | None],
    entries: Sequence[Entry],
    *,
    before_link: Callable[[], None] | None = None,
) -> None:
    """Write a new event file at ``path``, all or nothing.

    The file is built in a temporary file beside ``path`` (one transaction, WAL mode) and then
    hard-linked to ``path``, which fails if ``path`` exists; a process killed before that leaves
    no event file, only the temporary one.

    Raises:
        EventRefused: If ``path`` exists.
    """
    target = Path(path)
    source = str(path)
    if target.exists():
        raise refused(source, "", "already exists: choose another file name, or open it")
    if not target.parent.is_dir():
        raise refused(source, "", f"no such folder: {target.parent}")
    tmp = target.with_name(f".{target.name}.new-{os.getpid()}")
    _remove(tmp)
    try:
        _build(tmp, header, federations, entries, source)
        if before_link is not None:
            before_link()
        _link(tmp, target, source)
    except (sqlite3.Error, OSError) as exc:
        raise refused(source, "", f"cannot create the event file: {exc}") from None
    finally:
        _remove(tmp)


def _build(
    tmp: Path,
    header: EventHeader,
    federations: Mapping[str, str | None],
    entries: Sequence[Entry],
    source: str,
) -> None:
    """Write the whole event into the file ``tmp`` in one transaction, then sync it."""
    conn = sqlite3.connect(tmp, isolation_level=None)
    try:
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = FULL")
        with write_transaction(conn, source):
            conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            for statement in SCHEMA:
                conn.execute(statement)
            conn.execute(
                "INSERT INTO event (id, name, scenario, seed, created, knockout_version) "
                "VALUES (1, ?, ?, ?, ?, ?)",
                (
                    header.name,
                    json.dumps(dict(header.scenario), ensure_ascii=False, allow_nan=False),
                    header.seed,
                    header.created,
                    header.knockout_version,
                ),
            )
            conn.executemany(
                "INSERT INTO players (position, name, federation) VALUES (?, ?, ?)",
                [(i, name, fed) for i, (name, fed) in enumerate(federations.items(), 1)],
            )
            for entry in entries:
                append(conn, entry)
    finally:
        conn.close()
    _fsync(tmp)


def _link(tmp: Path, target: Path, source: str) -> None:
    try:
        os.link(tmp, target)
    except FileExistsError:
        raise refused(source, "", "already exists: choose another file name, or open it") from None
    except OSError:  # a file system without hard links: check, then rename
        if target.exists():
            raise refused(source, "", "already exists: choose another file name") from None
        os.replace(tmp, target)
    _fsync(target.parent)


def _fsync(path: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _remove(tmp: Path) -> None:
    for p in (tmp, Path(f"{tmp}-wal"), Path(f"{tmp}-shm"), Path(f"{tmp}-journal")):
        with contextlib.suppress(FileNotFoundError):
            p.unlink()
