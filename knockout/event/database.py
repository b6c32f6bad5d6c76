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
import shutil
import sqlite3
import tempfile
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from knockout.errors import InputError
from knockout.event.errors import refused
from knockout.event.integrity import Damage, entry_damage, header_damage, row_checksum
from knockout.event.journal import ENTRY_KINDS, LEGACY_DECISION_KINDS, UNDOABLE, Entry, EntryKind
from knockout.i18n import _

__all__ = [
    "APPLICATION_ID",
    "BUSY_SECONDS",
    "MIGRATIONS",
    "SCHEMA",
    "SCHEMA_VERSION",
    "EventHeader",
    "EventRows",
    "FileHealth",
    "Salvaged",
    "append",
    "check_pages",
    "connect",
    "create_file",
    "damaged_entry_message",
    "damaged_message",
    "disk_full",
    "file_health",
    "full_disk_message",
    "open_for_reading",
    "read_only_message",
    "read_rows",
    "read_uri",
    "salvage_rows",
    "stale_shm_message",
    "write_transaction",
]

#: ``PRAGMA application_id`` of an event file ("KNKO").
APPLICATION_ID = 0x4B4E4B4F
#: The schema this code writes. Older files are migrated (MIGRATIONS), newer ones refused.
SCHEMA_VERSION = 5
#: How long a writer waits for another terminal's write to finish.
BUSY_SECONDS = 30.0

#: The journal's entry kinds, and whether an undo can reverse them (schema 2: a table, so a
#: later schema adds a kind with one INSERT).
_KINDS = tuple((kind, int(kind in UNDOABLE)) for kind in ENTRY_KINDS)


def _journal_table_v2(name: str) -> str:
    """The journal of schemas 2 to 4 (kept to migrate a schema-1 file step by step)."""
    return f"""CREATE TABLE {name} (
        seq INTEGER PRIMARY KEY CHECK (seq >= 1),
        at TEXT NOT NULL,
        kind TEXT NOT NULL REFERENCES entry_kinds (kind),
        match TEXT,
        game INTEGER,
        player TEXT,
        data TEXT NOT NULL,
        command TEXT NOT NULL,
        undoes INTEGER UNIQUE REFERENCES journal (seq),
        CHECK ((kind = 'undo') = (undoes IS NOT NULL))
    )"""


def _journal_table(name: str) -> str:
    """The journal of schema 5: every entry carries a checksum of its row (``checksum``;
    NULL only in entries written before schema 5), and an undo can reverse an undo (so
    ``undoes`` is no longer unique: an entry put back in force can be undone again)."""
    return f"""CREATE TABLE {name} (
        seq INTEGER PRIMARY KEY CHECK (seq >= 1),
        at TEXT NOT NULL,
        kind TEXT NOT NULL REFERENCES entry_kinds (kind),
        match TEXT,
        game INTEGER,
        player TEXT,
        data TEXT NOT NULL,
        command TEXT NOT NULL,
        undoes INTEGER REFERENCES journal (seq),
        checksum TEXT,
        CHECK ((kind = 'undo') = (undoes IS NOT NULL))
    )"""


_KIND_TABLE: tuple[str, ...] = (
    """CREATE TABLE entry_kinds (
        kind TEXT PRIMARY KEY,
        undoable INTEGER NOT NULL CHECK (undoable IN (0, 1))
    )""",
    *(f"INSERT INTO entry_kinds (kind, undoable) VALUES ('{k}', {u})" for k, u in _KINDS),
)

_NEVER_CHANGED = ("journal", "event", "players", "entry_kinds")


def _never_changed(tables: Sequence[str]) -> tuple[str, ...]:
    return tuple(
        f"""CREATE TRIGGER {table}_no_{verb} BEFORE {verb.upper()} ON {table}
        BEGIN SELECT RAISE(ABORT, '{table} rows are never changed'); END"""
        for table in tables
        for verb in ("update", "delete")
    )


_IN_ORDER = """CREATE TRIGGER journal_in_order BEFORE INSERT ON journal
        WHEN NEW.seq != (SELECT COALESCE(MAX(seq), 0) + 1 FROM journal)
        BEGIN SELECT RAISE(ABORT, 'journal entries are appended in order'); END"""
_KIND_KNOWN = """CREATE TRIGGER journal_kind_known BEFORE INSERT ON journal
        WHEN NOT EXISTS (SELECT 1 FROM entry_kinds WHERE kind = NEW.kind)
        BEGIN SELECT RAISE(ABORT, 'not a kind of journal entry'); END"""

#: The journal's triggers of schemas 2 to 4.
_JOURNAL_TRIGGERS_V2: tuple[str, ...] = (
    _IN_ORDER,
    _KIND_KNOWN,
    """CREATE TRIGGER journal_undo_target BEFORE INSERT ON journal
        WHEN NEW.kind = 'undo' AND NOT EXISTS (
            SELECT 1 FROM journal AS j JOIN entry_kinds AS k ON k.kind = j.kind
            WHERE j.seq = NEW.undoes AND k.undoable = 1)
        BEGIN SELECT RAISE(ABORT, 'an undo reverses an entry that can be undone'); END""",
)

#: Schema 5: an undo may reverse an undo; every new entry carries its checksum.
_JOURNAL_TRIGGERS: tuple[str, ...] = (
    _IN_ORDER,
    _KIND_KNOWN,
    """CREATE TRIGGER journal_undo_target BEFORE INSERT ON journal
        WHEN NEW.kind = 'undo' AND NOT EXISTS (
            SELECT 1 FROM journal AS j JOIN entry_kinds AS k ON k.kind = j.kind
            WHERE j.seq = NEW.undoes AND (k.undoable = 1 OR j.kind = 'undo'))
        BEGIN SELECT RAISE(ABORT, 'an undo reverses an entry that can be undone'); END""",
    """CREATE TRIGGER journal_checksummed BEFORE INSERT ON journal
        WHEN NEW.checksum IS NULL
        BEGIN SELECT RAISE(ABORT, 'a journal entry carries its checksum'); END""",
)

SCHEMA: tuple[str, ...] = (
    """CREATE TABLE event (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        name TEXT NOT NULL,
        scenario TEXT NOT NULL,
        seed INTEGER NOT NULL,
        created TEXT NOT NULL,
        knockout_version TEXT NOT NULL,
        checksum TEXT
    )""",
    """CREATE TABLE players (
        position INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        federation TEXT,
        checksum TEXT
    )""",
    *_KIND_TABLE,
    _journal_table("journal"),
    *_JOURNAL_TRIGGERS,
    *_never_changed(_NEVER_CHANGED),
)

#: ``MIGRATIONS[v]``: the statements that take a schema-``v`` file to schema ``v + 1``.
#: Schema 2 keeps the entry kinds in a table (corrections and changes of player are new kinds);
#: SQLite cannot change a CHECK constraint, so the journal is copied into a new table. Schema 3
#: adds the kinds ``sealed`` (sealed Armageddon bids) and ``cut`` (cut-and-choose).
MIGRATIONS: dict[int, tuple[str, ...]] = {
    1: (
        *_KIND_TABLE,
        *(
            f"DROP TRIGGER {t}"
            for t in ("journal_in_order", "journal_undo_target", "journal_no_update")
        ),
        "DROP TRIGGER journal_no_delete",
        _journal_table_v2("journal_v2"),
        "INSERT INTO journal_v2 (seq, at, kind, match, game, player, data, command, undoes) "
        "SELECT seq, at, kind, match, game, player, data, command, undoes FROM journal "
        "ORDER BY seq",
        "DROP TABLE journal",
        "ALTER TABLE journal_v2 RENAME TO journal",
        *_JOURNAL_TRIGGERS_V2,
        *_never_changed(("journal", "entry_kinds")),
    ),
    2: tuple(
        f"INSERT OR IGNORE INTO entry_kinds (kind, undoable) VALUES ('{k}', 1)"
        for k in ("sealed", "cut")
    ),
    # schema 4: one kind of entry for every decision the players make; the older entries stay
    # as written (the journal is never edited) and are read as decisions (_entry)
    3: ("INSERT OR IGNORE INTO entry_kinds (kind, undoable) VALUES ('decision', 1)",),
    # schema 5: a checksum in every row written from now on (the rows already written keep
    # none and are checked against their schema only); an undo may reverse an undo, so
    # ``undoes`` is no longer unique: the journal is copied into a new table, as from schema 1
    4: (
        "ALTER TABLE event ADD COLUMN checksum TEXT",
        "ALTER TABLE players ADD COLUMN checksum TEXT",
        _journal_table("journal_v5"),
        "INSERT INTO journal_v5 (seq, at, kind, match, game, player, data, command, undoes) "
        "SELECT seq, at, kind, match, game, player, data, command, undoes FROM journal "
        "ORDER BY seq",
        "DROP TABLE journal",
        "ALTER TABLE journal_v5 RENAME TO journal",
        *_JOURNAL_TRIGGERS,
        *_never_changed(("journal",)),
    ),
}


@dataclass(frozen=True)
class EventHeader:
    """The ``event`` row: what the event is, fixed at creation.

    Attributes:
        name: The event's name.
        scenario: The resolved scenario (format, model, players, bracket, ranking), as
            :meth:`~knockout.rules.scenario.aggregate.Scenario.to_dict` gives it, without games or
            withdrawals.
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


def _is_read_only(exc: sqlite3.Error) -> bool:
    return "readonly" in str(exc) or "read-only" in str(exc)


def _writable(path: Path) -> bool:
    """The file and its folder can be written (WAL mode creates files beside the event)."""
    return os.access(path, os.W_OK) and os.access(path.parent, os.W_OK)


def _side_file(path: Path, suffix: str) -> Path:
    return path.with_name(f"{path.name}-{suffix}")


def read_only_message(path: Path) -> str:
    """Why ``path`` cannot be written, and what still works."""
    if not os.access(path.parent, os.W_OK):
        return _(
            "cannot write: its folder is read-only (read-only media such as a locked USB stick "
            "or a share, or its permissions); nothing was written. Reading still works (next, "
            "show, export); to record, copy the event to a writable folder or make it writable"
        )
    return _(
        "cannot write: the file is read-only (read-only media such as a locked USB stick or a "
        "share, or its permissions); nothing was written. Reading still works (next, show, "
        "export); to record, copy the event to a writable folder or make it writable"
    )


def stale_shm_message(shm: Path) -> str:
    """The refusal for a ``-shm`` file this process cannot write, next to a writable event."""
    return _(
        "cannot write: {name} beside it is read-only (left by a run without write access); "
        "nothing was written. When no other terminal has the event open, delete it (rm {path}) "
        "or make it writable (chmod u+w {path}), then try again"
    ).format(name=shm.name, path=shm)


def damaged_message(source: str, detail: str) -> str:
    """The refusal for a damaged file: what SQLite found, and how to recover."""
    return (
        f"the event file is damaged ({detail}); nothing was written. Save what can still be "
        f"read: knockout event check {source} --salvage RESCUE.toml, then carry on from it: "
        f"knockout event new NEW.db --scenario RESCUE.toml"
    )


def damaged_entry_message(source: str, damage: Damage) -> str:
    """The refusal for a damaged row: which and what is wrong, and how to recover."""
    return _(
        "{damage}; nothing was changed. Save what can still be read: knockout event check "
        "{source} --salvage RESCUE.toml, then carry on from it: knockout event new NEW.db "
        "--scenario RESCUE.toml"
    ).format(damage=damage.line(), source=source)


def _problems(rows: Sequence[Sequence[Any]]) -> list[str]:
    """The lines of a ``quick_check``/``integrity_check`` answer (empty: ok)."""
    lines = [line for r in rows for line in str(r[0]).splitlines()]
    return [] if lines == ["ok"] else [x for x in lines if not x.startswith("*** in database")]


def check_pages(conn: sqlite3.Connection, *, full: bool = False) -> list[str]:
    """What ``PRAGMA quick_check`` (``integrity_check`` with ``full``) finds wrong; empty if
    nothing. A file too damaged for the check to run gives SQLite's error as its one line."""
    pragma = "integrity_check" if full else "quick_check"
    try:
        return _problems(conn.execute(f"PRAGMA {pragma}").fetchall())
    except sqlite3.DatabaseError as exc:
        if isinstance(exc, sqlite3.OperationalError) and _is_busy(exc):
            raise
        return [str(exc)]


def _summary(problems: Sequence[str]) -> str:
    first = problems[0]
    more = f", and {len(problems) - 1} more" if len(problems) > 1 else ""
    return f"SQLite finds: {first}{more}"


def _uri(path: Path, *, write: bool) -> tuple[str, bool]:
    """The URI to open ``path`` with, and whether it is opened read-only.

    Writing (and reading a writable file) opens it read-write; a file that cannot be written is
    opened as :func:`_read_uri` says.
    """
    shm = _side_file(path, "shm")
    if write or (_writable(path) and (not shm.exists() or os.access(shm, os.W_OK))):
        return path.resolve().as_uri() + "?mode=rw", False
    return read_uri(path), True


def read_uri(path: Path) -> str:
    """The URI to read ``path`` without writing it.

    ``immutable`` when its folder cannot be written and no write-ahead log or shared-memory file
    is beside it (nothing is writing it; SQLite then needs no ``-shm`` file, which it could not
    create there), else plain read-only, to read what the log holds.
    """
    base = path.resolve().as_uri()
    shm, wal = _side_file(path, "shm"), _side_file(path, "wal")
    logged = shm.exists() or (wal.exists() and wal.stat().st_size > 0)
    if not logged and not (_writable(path) and os.access(path.parent, os.W_OK)):
        return base + "?mode=ro&immutable=1"
    return base + "?mode=ro"


#: Free space below which an error writing the event (or the files SQLite keeps beside it) is
#: taken for a full disk: a journal entry, its log frame and the shared-memory index need less.
FULL_BYTES = 1 << 20


def disk_full(path: str | Path) -> bool:
    """The disk holding ``path`` (a file or a folder) has less than FULL_BYTES free."""
    folder = Path(path) if Path(path).is_dir() else Path(path).parent
    try:
        st = os.statvfs(folder)
    except OSError:
        return False
    return st.f_bavail * st.f_frsize < FULL_BYTES


def full_disk_message(path: str | Path) -> str:
    """The refusal when the disk holding the event is full: nothing was lost."""
    folder = Path(path).resolve().parent
    return _(
        "the disk is full (no space left in {folder}); nothing was written and nothing was "
        "lost: the event file is as it was. Free some space (or copy the event to another "
        "disk), then run the command again"
    ).format(folder=folder)


def _cannot_share(exc: sqlite3.Error) -> bool:
    """An error opening a file for reading that comes from where it lies (a folder that
    cannot be written, a full disk), not from the file."""
    text = str(exc)
    return any(
        word in text for word in ("unable to open", "disk I/O", "readonly", "read-only", "full")
    )


@contextmanager
def open_for_reading(path: Path, uri: str) -> Iterator[tuple[sqlite3.Connection, bool]]:
    """``path`` opened with ``uri`` and read once; where it lies cannot hold SQLite's
    shared-memory file (a read-only folder, a full disk), opened again as a reader that needs
    none: ``immutable``, or a copy of the file and its write-ahead log in a temporary folder
    when the log holds entries not yet in the file. Yields the connection and whether it was
    opened read-only. The event file is never written.

    Raises:
        sqlite3.Error: The file cannot be opened or read either way.
    """
    conn = sqlite3.connect(uri, uri=True, timeout=BUSY_SECONDS, isolation_level=None)
    try:
        conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
    except sqlite3.DatabaseError as exc:
        conn.close()
        if (isinstance(exc, sqlite3.OperationalError) and _is_busy(exc)) or not _cannot_share(exc):
            raise
    else:
        try:
            yield conn, "mode=ro" in uri
        finally:
            conn.close()
        return
    wal = _side_file(path, "wal")
    if not (wal.exists() and wal.stat().st_size > 0):
        conn = sqlite3.connect(
            path.resolve().as_uri() + "?mode=ro&immutable=1", uri=True, isolation_level=None
        )
        try:
            yield conn, True
        finally:
            conn.close()
        return
    with tempfile.TemporaryDirectory(prefix="knockout-read-") as folder:
        copy = Path(folder) / path.name
        shutil.copyfile(path, copy)
        shutil.copyfile(wal, _side_file(copy, "wal"))
        conn = sqlite3.connect(copy.as_uri() + "?mode=ro", uri=True, isolation_level=None)
        try:
            yield conn, True
        finally:
            conn.close()


@contextmanager
def connect(
    path: str | Path, *, write: bool = True, migrate: bool = True
) -> Iterator[sqlite3.Connection]:
    """An open event file, identified and migrated to ``SCHEMA_VERSION``; closed on exit.

    For writing (``write``) the file is checked first: it and its folder must be writable,
    a ``-shm`` file beside it too, and ``PRAGMA quick_check`` must find no damage. For reading,
    a file that cannot be written (read-only media) is opened read-only and not migrated.

    Raises:
        EventRefused: No such file, not an event file, one from a newer knockout, damaged, or
            (for writing) read-only.

    ``migrate=False`` (a check of the file) reads an older schema as it is.
    """
    source = str(path)
    p = Path(path)
    if not p.is_file():
        raise refused(
            source,
            "",
            _("is a folder, not an event file (create one with: knockout event new)")
            if p.is_dir()
            else _("no such event file (create one with: knockout event new)"),
        )
    if write:
        _check_writable(p, source)
    uri, read_only = _uri(p, write=write)
    with contextlib.ExitStack() as stack:
        try:
            if write:
                conn = stack.enter_context(contextlib.closing(_open_writing(uri)))
            else:
                conn, read_only = stack.enter_context(open_for_reading(p, uri))
        except sqlite3.Error as exc:
            raise _open_refusal(source, p, exc) from None
        yield from _connected(conn, source, p, write=write, read_only=read_only, migrate=migrate)


def _open_writing(uri: str) -> sqlite3.Connection:
    conn = sqlite3.connect(uri, uri=True, timeout=BUSY_SECONDS, isolation_level=None)
    try:
        conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
    except sqlite3.Error:
        conn.close()
        raise
    return conn


def _open_refusal(source: str, p: Path, exc: sqlite3.Error) -> Exception:
    """The one-line refusal for a file SQLite cannot open or read at all."""
    if not _sqlite_header(p):
        message = _("not a knockout event file: expected an SQLite database, found {error}")
        return refused(source, "", message.format(error=exc))
    return _refusal(source, p, exc)


def _sqlite_header(p: Path) -> bool:
    """The file begins as every SQLite database does."""
    try:
        with p.open("rb") as f:
            return f.read(16) == b"SQLite format 3\x00"
    except OSError:
        return False


def _connected(
    conn: sqlite3.Connection,
    source: str,
    p: Path,
    *,
    write: bool,
    read_only: bool,
    migrate: bool,
) -> Iterator[sqlite3.Connection]:
    try:
        version = _identify(conn, source)
        if write:
            problems = check_pages(conn)
            if problems:
                raise refused(source, "", damaged_message(source, _summary(problems)))
        if version < SCHEMA_VERSION and not read_only and migrate:
            _migrate(conn, p, version)
        if not read_only:
            if conn.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
                conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("PRAGMA synchronous = FULL")
        conn.execute("PRAGMA foreign_keys = ON")
        yield conn
    except sqlite3.Error as exc:
        raise _refusal(source, p, exc) from None


def _check_writable(p: Path, source: str) -> None:
    if not _writable(p):
        raise refused(source, "", read_only_message(p))
    shm = _side_file(p, "shm")
    if shm.exists() and not os.access(shm, os.W_OK):
        raise refused(source, "", stale_shm_message(shm))


def _refusal(source: str, p: Path, exc: sqlite3.Error) -> Exception:
    """The one-line refusal for an SQLite error while the file was in use."""
    if isinstance(exc, sqlite3.OperationalError) and _is_busy(exc):
        return refused(
            source, "", f"the event is busy (another terminal is writing): {exc}; try again"
        )
    if _is_read_only(exc):
        shm = _side_file(p, "shm")
        if shm.exists() and not os.access(shm, os.W_OK):
            return refused(source, "", stale_shm_message(shm))
        return refused(source, "", read_only_message(p))
    if "malformed" in str(exc) or "not a database" in str(exc):
        return refused(source, "", damaged_message(source, f"SQLite: {exc}"))
    if "full" in str(exc) or disk_full(p):
        return refused(source, "", full_disk_message(p))
    return refused(source, "", f"the event file could not be used, nothing changed: {exc}")


def _identify(conn: sqlite3.Connection, source: str) -> int:
    """The file's schema version, after checking that it is an event file this code can read."""
    try:
        app_id = int(conn.execute("PRAGMA application_id").fetchone()[0])
        version = int(conn.execute("PRAGMA user_version").fetchone()[0])
    except sqlite3.DatabaseError as exc:
        if isinstance(exc, sqlite3.OperationalError) and _is_busy(exc):
            raise
        message = _("not a knockout event file: expected an SQLite database, found {error}")
        raise refused(source, "", message.format(error=exc)) from None
    if app_id != APPLICATION_ID:
        message = (
            _(
                "not a knockout event file: expected application id {id:#x}, found an empty "
                "file (id {found:#x}); create an event with: knockout event new"
            )
            if Path(source).stat().st_size == 0
            else _(
                "not a knockout event file: expected application id {id:#x}, found another "
                "database (id {found:#x}); create an event with: knockout event new"
            )
        )
        raise refused(source, "", message.format(id=APPLICATION_ID, found=app_id))
    if version > SCHEMA_VERSION:
        raise refused(
            source,
            "",
            _(
                "written by a newer knockout: event schema {version}, this knockout reads "
                "schema {schema} and older; upgrade knockout to open it"
            ).format(version=version, schema=SCHEMA_VERSION),
        )
    if version < 1:
        message = _("not a complete event file (schema version {version})")
        raise refused(source, "", message.format(version=version))
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
    """The event row, the players and the whole journal, in one consistent read, each row
    checked (:mod:`knockout.event.integrity`: its checksum, and its schema).

    Inside a write transaction the read belongs to it; otherwise it is its own transaction.

    Raises:
        EventRefused: A damaged row, in one line naming it (the first one found) and the way
            out (``event check --salvage``).
    """
    own = not conn.in_transaction
    if own:
        conn.execute("BEGIN")
    try:
        rows, damage = _read_checked(conn, source, stop=True)
    finally:
        if own:
            conn.execute("COMMIT")
    if damage:
        raise refused(source, "", damaged_entry_message(source, damage[0]))
    return rows


def _has_checksums(conn: sqlite3.Connection) -> bool:
    """The file's rows carry checksums (schema 5 and later)."""
    return int(conn.execute("PRAGMA user_version").fetchone()[0]) >= 5


_JOURNAL_COLUMNS = "seq, at, kind, match, game, player, data, command, undoes"


def _read_header(
    conn: sqlite3.Connection, source: str, sums: bool
) -> tuple[EventHeader, Damage | None]:
    extra = ", checksum" if sums else ""
    row = conn.execute(
        f"SELECT name, scenario, seed, created, knockout_version{extra} FROM event WHERE id = 1"
    ).fetchone()
    if row is None:
        raise refused(source, "", "not a complete event file (no event row)")
    damage = header_damage(row[:5], row[5] if sums else None)
    if damage is not None:
        return EventHeader(row[0], {}, 0, row[3], row[4]), damage
    return EventHeader(row[0], json.loads(row[1]), int(row[2]), row[3], row[4]), None


def _format_of(header: EventHeader) -> tuple[Any, Damage | None]:
    """The event's match format (for checking the entries' stages and clocks), or why the
    scenario cannot give it."""
    from knockout.rules.scenario.aggregate import parse_scenario  # noqa: PLC0415  (reading)

    try:
        return parse_scenario(header.scenario, source="event").format, None
    except InputError as exc:
        first = exc.problems[0] if exc.problems else None
        what = "?" if first is None else f"{first.key}: {first.message}"
        line = _("its scenario is not one knockout can read ({what})").format(what=what)
        return None, Damage(None, None, line)


def _read_checked(
    conn: sqlite3.Connection, source: str, *, stop: bool
) -> tuple[EventRows, list[Damage]]:
    """Every row read and checked; the damaged ones (with ``stop``: only the first) named and
    left out."""
    sums = _has_checksums(conn)
    header, damage = _read_header(conn, source, sums)
    if damage is not None:
        return EventRows(header, {}, ()), [damage]
    fmt, damage = _format_of(header)
    if damage is not None:
        return EventRows(header, {}, ()), [damage]
    damaged: list[Damage] = []
    extra = ", checksum" if sums else ""
    federations: dict[str, str | None] = {}
    for r in conn.execute(
        f"SELECT position, name, federation{extra} FROM players ORDER BY position"
    ):
        if sums and r[3] is not None and row_checksum(r[:3]) != r[3]:
            what = _("its checksum is wrong: a byte of it changed after it was written")
            damaged.append(Damage(None, None, what, kind=f"players:{r[0]}"))
            if stop:
                return EventRows(header, federations, ()), damaged
        federations[r[1]] = r[2]
    entries: list[Entry] = []
    for r in conn.execute(f"SELECT {_JOURNAL_COLUMNS}{extra} FROM journal ORDER BY seq"):
        damage, data = entry_damage(r[:9], r[9] if sums else None, fmt)
        if damage is not None or data is None:
            assert damage is not None
            damaged.append(damage)
            if stop:
                break
            continue
        entries.append(_entry(r, data))
    return EventRows(header, federations, tuple(entries)), damaged


def _entry(r: Sequence[Any], data: Mapping[str, Any] | None = None) -> Entry:
    """A journal row as an entry (``data``: its data, already read); a decision written by the
    older schema (a ``bid``, ``choice``, ``sealed`` or ``cut`` row) as the ``decision`` entry it
    is."""
    kind = r[2]
    data = json.loads(r[6]) if data is None else data
    if kind in LEGACY_DECISION_KINDS:
        kind, data = "decision", {**data, "kind": kind}
    return Entry(
        seq=int(r[0]),
        at=r[1],
        kind=cast(EntryKind, kind),
        match=r[3],
        game=None if r[4] is None else int(r[4]),
        player=r[5],
        data=data,
        command=r[7],
        undoes=None if r[8] is None else int(r[8]),
    )


def append(conn: sqlite3.Connection, entry: Entry) -> None:
    """Insert ``entry`` (inside the caller's write transaction)."""
    row = (
        entry.seq,
        entry.at,
        entry.kind,
        entry.match,
        entry.game,
        entry.player,
        json.dumps(dict(entry.fields), ensure_ascii=False, sort_keys=True, allow_nan=False),
        entry.command,
        entry.undoes,
    )
    conn.execute(
        f"INSERT INTO journal ({_JOURNAL_COLUMNS}, checksum) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (*row, row_checksum(row)),
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
        if disk_full(target.parent):
            message = _(
                "the disk is full (no space left in {folder}): no event file was made; free some "
                "space (or choose another disk), then run the command again"
            ).format(folder=target.parent.resolve())
            raise refused(source, "", message) from None
        message = _("cannot create the event file: {error}").format(error=exc)
        raise refused(source, "", message) from None
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
            row = (
                header.name,
                json.dumps(dict(header.scenario), ensure_ascii=False, allow_nan=False),
                header.seed,
                header.created,
                header.knockout_version,
            )
            conn.execute(
                "INSERT INTO event (id, name, scenario, seed, created, knockout_version, "
                "checksum) VALUES (1, ?, ?, ?, ?, ?, ?)",
                (*row, row_checksum(row)),
            )
            players = [(i, name, fed) for i, (name, fed) in enumerate(federations.items(), 1)]
            conn.executemany(
                "INSERT INTO players (position, name, federation, checksum) VALUES (?, ?, ?, ?)",
                [(*p, row_checksum(p)) for p in players],
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


@dataclass(frozen=True)
class FileHealth:
    """What ``event check`` finds in an event file.

    Attributes:
        pages: What ``PRAGMA integrity_check`` finds wrong (empty: nothing).
        foreign_keys: Rows whose reference points nowhere (``PRAGMA foreign_key_check``).
        entries: Journal entries read.
        gaps: Entry numbers missing from the journal.
        version: The file's schema version.
        damaged: The rows whose checksum or schema is wrong (:mod:`knockout.event.integrity`).
        unchecked: Journal entries without a checksum (written before schema 5: checked
            against their schema only).
    """

    pages: tuple[str, ...]
    foreign_keys: int
    entries: int
    gaps: tuple[int, ...]
    version: int
    damaged: tuple[Damage, ...] = ()
    unchecked: int = 0

    @property
    def sound(self) -> bool:
        """Nothing wrong."""
        return not self.pages and not self.foreign_keys and not self.gaps and not self.damaged


def file_health(path: str | Path) -> FileHealth:
    """The full integrity check of an event file (read only; nothing is migrated): SQLite's
    pages, and every row's checksum and schema.

    Raises:
        EventRefused: Not an event file.
    """
    source = str(path)
    with connect(path, write=False, migrate=False) as conn:
        version = int(conn.execute("PRAGMA user_version").fetchone()[0])
        pages = tuple(check_pages(conn, full=True))
        damaged: list[Damage] = []
        unchecked = 0
        try:
            keys = len(conn.execute("PRAGMA foreign_key_check").fetchall())
            seqs = [int(r[0]) for r in conn.execute("SELECT seq FROM journal ORDER BY seq")]
            _rows, damaged = _read_checked(conn, source, stop=False)
            if version >= 5:
                unchecked = int(
                    conn.execute("SELECT COUNT(*) FROM journal WHERE checksum IS NULL").fetchone()[
                        0
                    ]
                )
            else:
                unchecked = len(seqs)
        except sqlite3.DatabaseError:
            if not pages:
                raise
            keys, seqs = 0, []
    gaps = tuple(sorted(set(range(1, (max(seqs) if seqs else 0) + 1)) - set(seqs)))
    return FileHealth(pages, keys, len(seqs), gaps, version, tuple(damaged), unchecked)


#: Entry numbers tried one by one past an unreadable one before a salvage stops.
_SALVAGE_RUN = 64


@dataclass(frozen=True)
class Salvaged:
    """What can still be read of a damaged event file.

    Attributes:
        rows: The event row, the players (without them, the scenario's, with no federations)
            and every journal entry that can be read and is not damaged.
        lost: The entry numbers SQLite cannot read at all (what they were is not known).
        damaged: The entries that can be read but are damaged (their number and match known).
        header_damage: What is wrong with the event row, when its scenario can still be used.
    """

    rows: EventRows
    lost: tuple[int, ...]
    damaged: tuple[Damage, ...]
    header_damage: Damage | None = None


def salvage_rows(path: str | Path) -> Salvaged:
    """What can still be read of a damaged event file (see :class:`Salvaged`): every readable,
    sound row, wherever it is; which entries depend on a damaged one is for the caller.

    Raises:
        EventRefused: Not even the event's scenario can be read.
    """
    source = str(path)
    with connect(path, write=False, migrate=False) as conn:
        try:
            sums = _has_checksums(conn)
            header, header_bad = _read_header(conn, source, sums)
        except sqlite3.DatabaseError as exc:
            message = f"nothing can be salvaged: the event row is lost ({exc})"
            raise refused(source, "", message) from None
        if header_bad is not None:
            header = _usable_header(conn, source, header_bad)
        fmt, bad = _format_of(header)
        if bad is not None:
            raise refused(source, "", _("nothing can be salvaged: {what}").format(what=bad.line()))
        try:
            federations: dict[str, str | None] = dict(
                conn.execute("SELECT name, federation FROM players ORDER BY position").fetchall()
            )
        except sqlite3.DatabaseError:
            federations = {p["name"]: None for p in header.scenario.get("players", [])}
        entries, lost, damaged = _salvage_journal(conn, sums, fmt)
    rows = EventRows(header, federations, tuple(entries))
    return Salvaged(rows, tuple(lost), tuple(damaged), header_bad)


def _usable_header(conn: sqlite3.Connection, source: str, damage: Damage) -> EventHeader:
    """The event row whose checksum fails but whose scenario and seed still read (a changed
    name, say): used, the damage reported. Else nothing can be salvaged."""
    row = conn.execute(
        "SELECT name, scenario, seed, created, knockout_version FROM event WHERE id = 1"
    ).fetchone()
    try:
        scenario = json.loads(row[1])
        seed = row[2]
        if not isinstance(scenario, dict) or not isinstance(seed, int):
            raise ValueError
    except (TypeError, ValueError):
        what = _("nothing can be salvaged: {what}").format(what=damage.line())
        raise refused(source, "", what) from None
    return EventHeader(row[0], scenario, seed, row[3], row[4])


def _salvage_journal(
    conn: sqlite3.Connection, sums: bool, fmt: Any
) -> tuple[list[Entry], list[int], list[Damage]]:
    """The journal's sound entries, the numbers of those SQLite cannot read, and the damaged
    ones; read at once, or entry by entry when a page is damaged."""
    extra = ", checksum" if sums else ""
    select = f"SELECT {_JOURNAL_COLUMNS}{extra} FROM journal"
    entries: list[Entry] = []
    lost: list[int] = []
    damaged: list[Damage] = []

    def take(r: Sequence[Any]) -> None:
        damage, data = entry_damage(r[:9], r[9] if sums else None, fmt)
        if damage is not None:
            damaged.append(damage)
        else:
            entries.append(_entry(r, data))

    try:
        rows = conn.execute(select + " ORDER BY seq").fetchall()
    except sqlite3.DatabaseError:
        rows = None
    if rows is not None:
        for r in rows:
            take(r)
        return entries, lost, damaged
    seq, misses = 1, 0
    while misses < _SALVAGE_RUN:
        try:
            r = conn.execute(select + " WHERE seq = ?", (seq,)).fetchone()
        except (sqlite3.DatabaseError, ValueError):
            r = None
            lost.append(seq)
        if r is None:
            misses += 1
        else:
            misses = 0
            take(r)
        seq += 1
    return entries, sorted(set(lost)), damaged
