"""The event's own language: what ``event new --lang zh`` stores, and every organiser command
speaks unless the run names another (``--lang``, ``KNOCKOUT_LANG``).

It lives in a small ``settings`` table beside the journal, not in it: a language changes no
result, and a file without the table (made before it, or without ``--lang``) simply has none.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from knockout.errors import KnockoutError
from knockout.event.database import connect

__all__ = ["read_language", "write_language"]

_TABLE = "CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value TEXT NOT NULL)"


def read_language(path: str | Path) -> str | None:
    """The language stored in the event file at ``path``; None when it stores none, or when
    ``path`` is not a readable event file (the command itself then says what is wrong). The
    file is opened as every reading command opens it (:func:`~knockout.event.database.connect`:
    read-only media read-only, leaving nothing beside the file)."""
    if not Path(path).is_file():
        return None
    try:
        with connect(path, write=False, migrate=False) as conn:
            row = conn.execute("SELECT value FROM settings WHERE key = 'language'").fetchone()
    except (KnockoutError, sqlite3.Error, OSError):
        return None
    return None if row is None else str(row[0])


def write_language(path: str | Path, lang: str) -> None:
    """Store ``lang`` as the event's own language (one row; a second call replaces it)."""
    conn = sqlite3.connect(Path(path), isolation_level=None)
    try:
        conn.execute("BEGIN IMMEDIATE")
        conn.execute(_TABLE)
        conn.execute("INSERT OR REPLACE INTO settings (key, value) VALUES ('language', ?)", (lang,))
        conn.execute("COMMIT")
    finally:
        conn.close()
