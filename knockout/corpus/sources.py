"""The files an import reads: PGN files, folders of them, and archives (``.tar.xz``, ``.tar.gz``,
``.tar``, ``.zip``), each file as its bytes and the path it is known by.

A path inside an archive is the member's path (``Dataset/對局/大師對局/...``); inside a folder, the
path below the folder, with the folder's name first. A source that does not exist or an archive
that cannot be read is one problem; the other sources are still read.
"""

from __future__ import annotations

import tarfile
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from knockout.errors import Problem

__all__ = ["ARCHIVE_SUFFIXES", "SourceFile", "read_sources"]

ARCHIVE_SUFFIXES = (".tar.xz", ".txz", ".tar.gz", ".tgz", ".tar.bz2", ".tar", ".zip")

Progress = Callable[[int, int], None]
"""Called with (bytes read, bytes in all sources) as the sources are read."""


@dataclass(frozen=True)
class SourceFile:
    """One file's bytes and the path it is known by."""

    path: str
    data: bytes


def _is_archive(path: Path) -> bool:
    return path.name.lower().endswith(ARCHIVE_SUFFIXES)


def _size(path: Path) -> int:
    if path.is_dir():
        return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())
    return path.stat().st_size if path.exists() else 0


def read_sources(
    paths: list[Path], problems: list[Problem], progress: Progress | None = None
) -> Iterator[SourceFile]:
    """Every file of ``paths``, in a stable order (folders sorted by path, archives in their
    own order); problems with a source are appended to ``problems``."""
    total = sum(_size(p) for p in paths)
    done = 0

    def advance(amount: int) -> None:
        nonlocal done
        done += amount
        if progress is not None:
            progress(min(done, total), total)

    for path in paths:
        if not path.exists():
            problems.append(Problem(str(path), "", "no such file or folder"))
        elif path.is_dir():
            for file in sorted(p for p in path.rglob("*") if p.is_file()):
                if _is_archive(file):
                    yield from _archive(file, problems, advance)
                else:
                    name = f"{path.name}/{file.relative_to(path).as_posix()}"
                    data = _read(file, problems)
                    advance(file.stat().st_size)
                    if data is not None:
                        yield SourceFile(name, data)
        elif _is_archive(path):
            yield from _archive(path, problems, advance)
        else:
            data = _read(path, problems)
            advance(_size(path))
            if data is not None:
                yield SourceFile(path.name, data)


def _read(path: Path, problems: list[Problem]) -> bytes | None:
    try:
        return path.read_bytes()
    except OSError as exc:
        problems.append(Problem(str(path), "", f"cannot read the file: {exc.strerror}"))
        return None


def _archive(
    path: Path, problems: list[Problem], advance: Callable[[int], None]
) -> Iterator[SourceFile]:
    if path.name.lower().endswith(".zip"):
        yield from _zip(path, problems, advance)
        return
    try:
        with path.open("rb") as raw, tarfile.open(fileobj=raw, mode="r:*") as archive:
            seen = 0
            for member in archive:
                if member.isfile():
                    handle = archive.extractfile(member)
                    if handle is not None:
                        yield SourceFile(member.name, handle.read())
                position = raw.tell()
                advance(position - seen)
                seen = position
    except (tarfile.TarError, OSError, EOFError) as exc:
        problems.append(Problem(str(path), "", f"cannot read the archive: {_why(exc)}"))


def _zip(
    path: Path, problems: list[Problem], advance: Callable[[int], None]
) -> Iterator[SourceFile]:
    try:
        with zipfile.ZipFile(path) as archive:
            for info in archive.infolist():
                if info.is_dir():
                    continue
                yield SourceFile(_zip_name(info), archive.read(info))
                advance(info.compress_size)
    except (zipfile.BadZipFile, OSError, EOFError) as exc:
        problems.append(Problem(str(path), "", f"cannot read the archive: {_why(exc)}"))


def _zip_name(info: zipfile.ZipInfo) -> str:
    """A member's name: zip files without the UTF-8 flag store names in the maker's code page."""
    if info.flag_bits & 0x800:
        return info.filename
    raw = info.filename.encode("cp437")
    for codec in ("utf-8", "gb18030", "cp950"):
        try:
            return raw.decode(codec)
        except UnicodeDecodeError:
            continue
    return info.filename


def _why(exc: BaseException) -> str:
    text = str(exc) or type(exc).__name__
    return text if not isinstance(exc, OSError) or not exc.strerror else exc.strerror
