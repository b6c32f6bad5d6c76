"""Reading an event file without ever writing it: for the hall screen (``knockout event serve``).

The file is opened read-only (SQLite ``mode=ro``; ``immutable`` on read-only media, where SQLite
could not create its shared-memory file): no migration, no change of journal mode, no
entry. Each read is one transaction over the whole journal, so while arbiters record from other
terminals a reader sees the journal either before or after each entry, never half of one (WAL
mode lets it read while they write, and never blocks them).
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from knockout.event.database import (
    APPLICATION_ID,
    SCHEMA_VERSION,
    disk_full,
    full_disk_message,
    open_for_reading,
    read_rows,
    read_uri,
)
from knockout.event.errors import refused
from knockout.event.state import Event
from knockout.i18n import _

__all__ = ["journal_head_read_only", "load_event_read_only", "read_only"]


@contextmanager
def read_only(path: str | Path) -> Iterator[sqlite3.Connection]:
    """The event file opened read-only, after checking it is an event file of this schema.

    Raises:
        EventRefused: No such file, not an event file, a schema this knockout does not read
            without upgrading it (open it once with another ``knockout event`` command), or an
            SQLite error.
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
    with contextlib.ExitStack() as stack:
        try:
            conn, _uri = stack.enter_context(open_for_reading(p, read_uri(p)))
        except sqlite3.Error as exc:
            if disk_full(p):
                raise refused(source, "", full_disk_message(p)) from None
            message = _("cannot open the event file to read: {error}").format(error=exc)
            raise refused(source, "", message) from None
        try:
            _check(conn, source)
            yield conn
        except sqlite3.Error as exc:
            message = _("cannot read the event file: {error}").format(error=exc)
            raise refused(source, "", message) from None


def _check(conn: sqlite3.Connection, source: str) -> None:
    try:
        app_id = int(conn.execute("PRAGMA application_id").fetchone()[0])
        version = int(conn.execute("PRAGMA user_version").fetchone()[0])
    except sqlite3.DatabaseError as exc:
        message = _("not a knockout event file: expected an SQLite database, found {error}")
        raise refused(source, "", message.format(error=exc)) from None
    if app_id != APPLICATION_ID:
        message = _("not a knockout event file: expected application id {id:#x}")
        raise refused(source, "", message.format(id=APPLICATION_ID))
    if version != SCHEMA_VERSION:
        newer = version > SCHEMA_VERSION
        hint = (
            _("upgrade knockout to read it")
            if newer
            else _("open it once with knockout event next, which upgrades it")
        )
        raise refused(
            source,
            "",
            _(
                "event schema {version}, this knockout reads schema {schema} without writing: "
                "{hint}"
            ).format(version=version, schema=SCHEMA_VERSION, hint=hint),
        )


def load_event_read_only(path: str | Path) -> Event:
    """The event as it stands, read in one transaction without writing the file."""
    source = str(path)
    with read_only(path) as conn:
        return Event.replay(source, read_rows(conn, source))


def journal_head_read_only(path: str | Path) -> int:
    """The number of the journal's last entry (it grows with every change, undos too)."""
    with read_only(path) as conn:
        return int(conn.execute("SELECT COALESCE(MAX(seq), 0) FROM journal").fetchone()[0])
