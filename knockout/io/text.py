"""Reading text files in a given encoding, with every failure reported as an InputError."""

from __future__ import annotations

import codecs
from pathlib import Path

from knockout.errors import InputError

__all__ = ["decode", "read_text"]


def decode(data: bytes, *, source: str, encoding: str | None = None) -> str:
    """``data`` as text: UTF-8 (with or without a byte-order mark) unless ``encoding`` says else.

    Args:
        data: The file's bytes.
        source: The file's name, for messages.
        encoding: A Python codec name (``gb18030``, ``utf-16``, ...); ``None`` means UTF-8.

    Raises:
        InputError: For an unknown encoding or bytes that are not valid in it.
    """
    name = encoding or "utf-8"
    try:
        codec = codecs.lookup(name).name
    except LookupError:
        raise InputError.single(
            source, "", f"unknown encoding {name!r} (try utf-8 or gb18030)"
        ) from None
    if codec == "utf-8":
        codec = "utf-8-sig"  # a UTF-8 byte-order mark is not part of the text
    try:
        return data.decode(codec)
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        bad = data[exc.start : exc.start + 1].hex()
        hint = " (a Chinese file may be gb18030: give its encoding)" if encoding is None else ""
        raise InputError.single(
            source, f"line {line}", f"expected text in {name}, found byte 0x{bad}{hint}"
        ) from None


def read_text(path: str | Path, *, encoding: str | None = None) -> str:
    """The text of the file at ``path``; see :func:`decode`.

    Raises:
        InputError: If the file cannot be read or decoded.
    """
    source = str(path)
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise InputError.single(source, "", f"cannot read the file: {exc.strerror}") from None
    return decode(data, source=source, encoding=encoding)
