"""The event on a read-only folder and on a full disk: reading commands (publish and serve too)
still work; writing ones say why they cannot, in one line, and nothing is lost; a site is
published whole or not at all.

A full disk is a real one: a small tmpfs mounted for the test (as root; skipped with the reason
where it cannot be mounted). Read-only media are a read-only bind mount in a private mount
namespace, as in test_event_media.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import shutil
import subprocess
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from event_helpers import CUP_PLAYERS, CUP_SCENARIO
from test_event_media import CLI, ROOT, _unshare_works, ok, one_error, played_cup, run

from knockout.dashboard.web.publish import write_site

READING = (
    ("next",),
    ("show",),
    ("odds",),
    ("log",),
    ("export", "--format", "json"),
    ("export", "--format", "csv"),
    ("export", "--format", "trf"),
    ("export", "--format", "pgn"),
)


def _mount_tmpfs(folder: Path, size: str) -> bool:
    if os.geteuid() != 0 or shutil.which("mount") is None:
        return False
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "knockout-test", str(folder)],
        capture_output=True,
        check=False,
    )
    return done.returncode == 0


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 1 MiB disk of its own (tmpfs), unmounted afterwards."""
    folder = tmp_path / "disk"
    folder.mkdir()
    if not _mount_tmpfs(folder, "1m"):
        pytest.skip("a full disk needs a small tmpfs: mount -t tmpfs, as root")
    try:
        yield folder
    finally:
        subprocess.run(["umount", str(folder)], check=False, capture_output=True)


def fill(folder: Path) -> Path:
    """Fill the disk holding ``folder`` to the last byte; returns the filler file."""
    filler = folder / "filler"
    with filler.open("wb", buffering=0) as f:
        for size in (1 << 16, 4096, 512, 1):
            with contextlib.suppress(OSError):
                while f.write(b"\0" * size):
                    pass
    assert shutil.disk_usage(folder).free < 4096
    return filler


def tree(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


@pytest.mark.system
def test_a_full_disk_loses_nothing_and_reading_still_works(small_disk: Path) -> None:
    db = played_cup(small_disk)
    site = small_disk / "site"
    ok("publish", db, "--out", str(site))
    pages = tree(site)
    ok("record", db, "R1-M4", "1", "1-0")  # the site is now a step behind the event
    before = {args: ok(*args[:1], db, *args[1:]) for args in READING}
    filler = fill(small_disk)

    for args in (
        ("record", db, "R1-M5", "1", "1-0"),
        ("withdraw", db, "Guo Qiang"),
        ("undo", db),
    ):
        line = one_error(run(*args), "the disk is full")
        assert "nothing was written and nothing was lost" in line, line
        assert "not a knockout event file" not in line and "I/O" not in line
    again = str(small_disk / "again.db")
    made = run("new", again, "--scenario", str(CUP_SCENARIO), "--players", str(CUP_PLAYERS))
    new = one_error(made, "the disk is full")
    assert "no event file was made" in new
    for args, expected in before.items():  # every reading command reads as before
        assert ok(*args[:1], db, *args[1:]) == expected, args
    assert ok("check", db).startswith(f"{db}: sound")

    line = one_error(run("publish", db, "--out", str(site)), "the disk is full")
    assert "no page was written" in line
    assert tree(site) == pages  # the old site, whole: not some pages old and some new
    one_error(run("publish", db, "--out", str(small_disk / "fresh")), "the disk is full")
    left = {p.name for p in small_disk.iterdir()} - {"cup.db", "cup.db-shm", "cup.db-wal"}
    assert left == {"filler", "site"}  # no half-written folder, no event file begun

    filler.unlink()  # space again: everything goes on where it stopped
    ok("record", db, "R1-M5", "1", "1-0")
    ok("publish", db, "--out", str(site))
    assert tree(site) != pages and "R1-M5" in (site / "index.html").read_text(encoding="utf-8")


def test_publish_replaces_every_page_or_none(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    site = tmp_path / "site"
    write_site(site, {"index.html": "old index", "round-1.html": "old round"})
    (site / "notes.txt").write_text("the organiser's own", encoding="utf-8")
    old = tree(site)
    written: list[str] = []
    real_fsync = os.fsync

    def failing_fsync(fd: int) -> None:
        written.append(str(fd))
        if len(written) == 2:  # the second page cannot be written
            raise OSError(errno.ENOSPC, "No space left on device")
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", failing_fsync)
    with pytest.raises(OSError):
        write_site(site, {"index.html": "new index", "round-1.html": "new", "round-2.html": "new"})
    assert tree(site) == old
    monkeypatch.setattr(os, "fsync", real_fsync)
    write_site(site, {"index.html": "new index", "round-1.html": "new round"})
    assert tree(site) == {
        "index.html": b"new index",
        "notes.txt": b"the organiser's own",
        "round-1.html": b"new round",
    }
    with pytest.raises(OSError):
        monkeypatch.setattr(os, "fsync", failing_fsync)
        written.clear()
        write_site(tmp_path / "fresh", {"a.html": "a", "b.html": "b"})
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"]


def in_read_only_folder(folder: Path, *args: str) -> subprocess.Popen[str]:
    """Start ``knockout event ARGS`` with ``folder`` mounted read-only (a private namespace)."""
    script = 'mount --bind -o ro "$1" "$1" && shift && exec "$@"'
    return subprocess.Popen(
        ["unshare", "-rm", "sh", "-c", script, "sh", str(folder), *CLI, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )


@pytest.mark.skipif(not _unshare_works(), reason="needs unshare -rm (mount namespaces)")
@pytest.mark.system
def test_publish_and_serve_from_a_read_only_folder(tmp_path: Path) -> None:
    media = tmp_path / "stick"
    media.mkdir()
    db = played_cup(media)
    expected = tmp_path / "expected"
    ok("publish", db, "--out", str(expected))
    listing = sorted(os.listdir(media))

    site = tmp_path / "site"
    publish = in_read_only_folder(media, "publish", db, "--out", str(site))
    out, err = publish.communicate(timeout=300)
    assert publish.returncode == 0, err
    assert out.startswith("Wrote 10 pages of City Cup 2026")
    for name, page in tree(expected).items():  # the same pages, but the time they were made
        assert _undated(page) == _undated((site / name).read_bytes()), name

    serve = in_read_only_folder(media, "serve", db, "--port", "0")
    try:
        assert serve.stdout is not None
        line = serve.stdout.readline()
        assert line.startswith("Serving City Cup 2026"), (line, serve.stderr)
        url = re.search(r"http://[0-9.]+:[0-9]+/", line)
        assert url is not None
        with urllib.request.urlopen(url.group(0) + "round-1.html", timeout=60) as answer:
            assert answer.status == 200
            page = answer.read().decode("utf-8")
            assert "R1-M1" in page and "王立新" in page and "Guo Qiang" in page
    finally:
        serve.terminate()
        serve.communicate(timeout=60)
    assert sorted(os.listdir(media)) == listing  # nothing written beside the event


def _undated(page: bytes) -> bytes:
    """A page without the moment it was made."""
    return re.sub(rb"\d{4}-\d\d-\d\d \d\d:\d\d(:\d\d)?", b"", page)
