"""The event file on bad media: a damaged page, read-only media, a stale read-only ``-shm``.

Read-only media are real: the event's folder is bind-mounted read-only in a private mount
namespace (``unshare``), where even root cannot write. Permissions are tested as an unprivileged
user (``setpriv`` to ``nobody`` when the tests run as root, as in CI).
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from event_helpers import CUP_PLAYERS, CUP_SCENARIO
from typer.testing import CliRunner, Result

from knockout.cli import app
from knockout.event.database import SCHEMA_VERSION
from knockout.event.store import load_event

runner = CliRunner()
CLI = [sys.executable, "-c", "from knockout.cli import main; main()", "event"]
ROOT = Path(__file__).resolve().parents[2]


def run(*args: str) -> Result:
    return runner.invoke(app, ["event", *args])


def ok(*args: str) -> str:
    result = run(*args)
    assert result.exit_code == 0, result.output
    return result.stdout


def one_error(result: Result | subprocess.CompletedProcess[str], says: str) -> str:
    err = result.stderr
    code = (
        result.returncode if isinstance(result, subprocess.CompletedProcess) else result.exit_code
    )
    assert code == 2, (code, result.stdout, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and says in lines[0], lines
    return lines[0]


def played_cup(folder: Path) -> str:
    db = str(folder / "cup.db")
    ok("new", db, "--scenario", str(CUP_SCENARIO), "--players", str(CUP_PLAYERS), "--seed", "3")
    for mid in ("R1-M1", "R1-M2", "R1-M3"):
        ok("record", db, mid, "1", "1-0")
        ok("record", db, mid, "2", "1/2")
    return db


def damage_players_table(db: str) -> None:
    """Overwrite part of the players table's page (its rows; the page header stays)."""
    conn = sqlite3.connect(db)
    root = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = 'players'").fetchone()[0]
    size = conn.execute("PRAGMA page_size").fetchone()[0]
    conn.close()
    data = bytearray(Path(db).read_bytes())
    start = (root - 1) * size
    for i in range(size - 300, size - 100):
        data[start + i] = (i * 7) & 0xFF
    Path(db).write_bytes(bytes(data))


def test_a_damaged_file_is_refused_and_salvaged(tmp_path: Path) -> None:
    db = played_cup(tmp_path)
    assert ok("check", db).startswith(
        f"{db}: sound: integrity check ok, schema {SCHEMA_VERSION}, 7 journal"
    )
    damage_players_table(db)
    raw = Path(db).read_bytes()
    line = one_error(run("record", db, "R1-M4", "1", "1-0"), "the event file is damaged")
    assert "nothing was written" in line and f"knockout event check {db} --salvage" in line
    assert Path(db).read_bytes() == raw
    one_error(run("check", db), "damaged: SQLite's integrity check finds: On tree page")
    rescue = tmp_path / "rescue.toml"
    result = run("check", db, "--salvage", str(rescue))
    assert "Salvaged 7 journal entries (6 games in force) into" in result.stdout
    one_error(result, "damaged")
    assert Path(db).read_bytes() == raw
    again = str(tmp_path / "again.db")
    ok("new", again, "--scenario", str(rescue), "--seed", "3")
    event = load_event(again)
    assert [(g.match, g.number, g.result.value) for g in event.games] == [
        (m, n, r) for m in ("R1-M1", "R1-M2", "R1-M3") for n, r in ((1, "red"), (2, "draw"))
    ]
    one_error(run("check", db, "--salvage", str(rescue)), "already exists")


def _unshare_works() -> bool:
    if shutil.which("unshare") is None:
        return False
    probe = subprocess.run(
        ["unshare", "-rm", "sh", "-c", "mount --bind -o ro / /mnt 2>/dev/null || true"],
        capture_output=True,
        check=False,
    )
    return probe.returncode == 0


def on_read_only_media(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Run ``knockout event ARGS`` with ``folder`` mounted read-only (a private namespace)."""
    script = 'mount --bind -o ro "$1" "$1" && shift && exec "$@"'
    return subprocess.run(
        ["unshare", "-rm", "sh", "-c", script, "sh", str(folder), *CLI, *args],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        cwd=ROOT,
    )


@pytest.mark.skipif(not _unshare_works(), reason="needs unshare -rm (mount namespaces)")
@pytest.mark.system
def test_read_only_media(tmp_path: Path) -> None:
    db = played_cup(tmp_path)
    expected = ok("export", db, "--format", "csv")
    listing = sorted(os.listdir(tmp_path))
    result = on_read_only_media(tmp_path, "export", db, "--format", "csv")
    assert result.returncode == 0, result.stderr
    assert result.stdout == expected
    assert on_read_only_media(tmp_path, "next", db).returncode == 0
    assert sorted(os.listdir(tmp_path)) == listing  # no -shm, no -wal left behind
    raw = Path(db).read_bytes()
    line = one_error(on_read_only_media(tmp_path, "record", db, "R1-M4", "1", "1-0"), "read-only")
    assert "cannot write: its folder is read-only" in line and "Reading still works" in line
    assert Path(db).read_bytes() == raw


@pytest.fixture
def shared_folder() -> Iterator[Path]:
    """A folder an unprivileged user can work in (pytest's own is private to root)."""
    folder = Path(tempfile.mkdtemp(prefix="knockout-media-"))
    folder.chmod(0o777)
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def as_user(*args: str) -> subprocess.CompletedProcess[str]:
    """Run ``args`` as an unprivileged user: ``nobody`` when root, else as we are."""
    prefix: list[str] = []
    if os.geteuid() == 0:
        prefix = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
    return subprocess.run(
        [*prefix, *args], capture_output=True, text=True, timeout=300, check=False, cwd=ROOT
    )


def _can_drop_privileges() -> bool:
    """Whether ``as_user`` can run knockout: setpriv exists and ``nobody`` can read this
    checkout (a clone inside a folder private to root, like mktemp -d's, it cannot)."""
    if os.geteuid() != 0:
        return True
    if shutil.which("setpriv") is None:
        return False
    return as_user(sys.executable, "-c", "import knockout").returncode == 0


@pytest.mark.skipif(
    not _can_drop_privileges(),
    reason="needs setpriv and a checkout the unprivileged user 'nobody' can read",
)
@pytest.mark.system
def test_a_read_only_file_and_a_stale_shm(shared_folder: Path) -> None:
    db = played_cup(shared_folder)
    Path(db).chmod(0o444)  # the user may read it, not write it
    expected = ok("export", db, "--format", "json")
    result = as_user(*CLI, "export", db, "--format", "json")
    assert result.returncode == 0, result.stderr
    assert result.stdout == expected
    assert sorted(os.listdir(shared_folder)) == ["cup.db"]  # opened read-only: no -shm
    one_error(as_user(*CLI, "record", db, "R1-M4", "1", "1-0"), "cannot write: the file is")
    # Another program's read-only run leaves a -shm the user cannot write (SQLite gives it the
    # file's permissions); once the file is writable again, the -shm is what blocks writing.
    left = as_user(
        sys.executable,
        "-c",
        "import sqlite3, sys; c = sqlite3.connect(f'file:{sys.argv[1]}?mode=ro', uri=True); "
        "c.execute('SELECT COUNT(*) FROM journal').fetchone(); c.close()",
        db,
    )
    assert left.returncode == 0, left.stderr
    shm = Path(f"{db}-shm")
    assert shm.exists() and not os.stat(shm).st_mode & 0o222
    Path(db).chmod(0o666)
    raw = Path(db).read_bytes()
    line = one_error(as_user(*CLI, "record", db, "R1-M4", "1", "1-0"), f"{shm.name} beside it")
    assert f"rm {shm}" in line and Path(db).read_bytes() == raw
    read = as_user(*CLI, "export", db, "--format", "json")  # reading still works
    assert read.returncode == 0 and read.stdout == expected, read.stderr
    shm.unlink()
    Path(f"{db}-wal").unlink(missing_ok=True)
    written = as_user(*CLI, "record", db, "R1-M4", "1", "1-0")
    assert written.returncode == 0, written.stderr
    assert len(load_event(db).games) == 7
