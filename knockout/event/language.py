"""The event's own language: what ``event new --lang zh`` stores, and every organiser command
speaks unless the run names another (``--lang``, ``KNOCKOUT_LANG``).

It lives in a small ``settings`` table beside the journal, not in it: a language changes no
result, and a file without the table (made before it, or without ``--lang``) simply has none.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from knockout.event.database import APPLICATION_ID

__all__ = ["read_language", "write_language"]

_TABLE = "CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value TEXT NOT NULL)"


def read_language(path: str | Path) -> str | None:
    """The language stored in the event file at ``path``; None when it stores none, or when
    ``path`` is not a readable event file (the command itself then says what is wrong)."""
    p = Path(path)
    if not p.is_file():
        return None
    try:
        conn = sqlite3.connect(f"{p.resolve().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error:
        return None
    try:
        if conn.execute("PRAGMA application_id").fetchone()[0] != APPLICATION_ID:
            return None
        row = conn.execute("SELECT value FROM settings WHERE key = 'language'").fetchone()
    except sqlite3.Error:
        return None
    finally:
        conn.close()
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
