"""Writing a site's pages to a folder all at once (``knockout event publish``).

A new folder is written beside the target and renamed into place. Into a folder that already
exists (an earlier site, perhaps with files of the organiser's own), every page is first written
to a hidden folder inside it and only then moved over the old pages, one rename each: a full
disk or any other failure while writing leaves the old pages exactly as they were, never some
old and some new.
"""

from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import Mapping
from pathlib import Path

__all__ = ["write_site"]


def write_site(out: Path, pages: Mapping[str, str]) -> None:
    """Write ``pages`` (file name: text) into the folder ``out``: every page or none.

    Raises:
        OSError: A page could not be written; ``out`` is as it was.
    """
    if not out.exists():
        out.parent.mkdir(parents=True, exist_ok=True)
        stage = out.with_name(f".{out.name}.new-{os.getpid()}")
        _write_stage(stage, pages)
        try:
            os.rename(stage, out)
        except OSError:
            shutil.rmtree(stage, ignore_errors=True)
            raise
        _fsync(out.parent)
        return
    if not out.is_dir():
        raise NotADirectoryError(20, "not a folder", str(out))
    stage = out / f".knockout-new-{os.getpid()}"
    _write_stage(stage, pages)
    for name in pages:
        os.replace(stage / name, out / name)
    stage.rmdir()
    _fsync(out)


def _write_stage(stage: Path, pages: Mapping[str, str]) -> None:
    """Every page in the new folder ``stage``, on disk; on failure, no ``stage`` left."""
    shutil.rmtree(stage, ignore_errors=True)
    try:
        stage.mkdir()
        for name, text in pages.items():
            with (stage / name).open("w", encoding="utf-8") as f:
                f.write(text)
                f.flush()
                os.fsync(f.fileno())
        _fsync(stage)
    except BaseException:
        shutil.rmtree(stage, ignore_errors=True)
        raise


def _fsync(folder: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
