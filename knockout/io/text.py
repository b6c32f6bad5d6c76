"""Reading text files in any encoding, with every failure reported as an InputError.

Every command that reads a file reads it through here, so every file is handled the same way:

* without ``--encoding``: UTF-8, with or without a byte-order mark; UTF-16 and UTF-32 recognised
  by their byte-order marks;
* with ``--encoding NAME``: that codec (``gb18030``, ``utf-16``, ...);
* when decoding fails: one line naming the file, the line, the bad byte, and the way out
  (``--encoding gb18030`` for a Chinese legacy file, ``--encoding utf-16`` for UTF-16 without a
  byte-order mark).
"""

from __future__ import annotations

import codecs
import math
from pathlib import Path

from knockout.errors import InputError
from knockout.i18n import _

__all__ = ["ENCODING_HINT", "decode", "duration", "plural", "read_text"]

#: What to try when a file is not UTF-8.
ENCODING_HINT = (
    "if the file is not UTF-8, give its encoding: --encoding gb18030 (Chinese Windows files) "
    "or --encoding utf-16"
)

_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)


def _sniff(data: bytes) -> str:
    """The codec a byte-order mark announces, else UTF-8."""
    for bom, codec in _BOMS:
        if data.startswith(bom):
            return codec
    return "utf-8"


def decode(data: bytes, *, source: str, encoding: str | None = None) -> str:
    """``data`` as text; see the module docstring for how the encoding is chosen.

    Args:
        data: The file's bytes.
        source: The file's name, for messages.
        encoding: A Python codec name (``gb18030``, ``utf-16``, ...); ``None``: by byte-order
            mark, else UTF-8.

    Raises:
        InputError: For an unknown encoding or bytes that are not valid in it.

    >>> decode("名".encode("utf-16"), source="x")
    '名'
    >>> decode(b"\\xef\\xbb\\xbfname", source="x")
    'name'
    """
    if encoding is None:
        codec = _sniff(data)
    else:
        try:
            codec = codecs.lookup(encoding).name
        except LookupError:
            raise InputError.single(
                source, "", f"unknown encoding {encoding!r} (try utf-8 or gb18030)"
            ) from None
        if codec == "utf-8":
            codec = "utf-8-sig"  # a UTF-8 byte-order mark is not part of the text
    if encoding is None and codec == "utf-8" and b"\x00" in data[:4096]:
        line = data[: data.index(b"\x00")].count(b"\n") + 1
        raise InputError.single(
            source,
            f"line {line}",
            "expected UTF-8 text, found NUL bytes (UTF-16 without a byte-order mark?); "
            + ENCODING_HINT,
        )
    try:
        return data.decode(codec)
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        bad = data[exc.start : exc.start + 1].hex()
        shown = "UTF-8" if codec.startswith("utf-8") else (encoding or codec)
        hint = f"; {ENCODING_HINT}" if encoding is None else ""
        raise InputError.single(
            source, f"line {line}", f"expected {shown} text, found byte 0x{bad}{hint}"
        ) from None


def read_text(path: str | Path, *, encoding: str | None = None) -> str:
    """The text of the file at ``path``; see :func:`decode`.

    Raises:
        InputError: If the file cannot be read or decoded.
    """
    source = str(path)
    try:
        data = Path(path).read_bytes()
    except IsADirectoryError:
        raise InputError.single(source, "", "expected a file, found a directory") from None
    except OSError as exc:
        raise InputError.single(source, "", f"cannot read the file: {exc.strerror}") from None
    return decode(data, source=source, encoding=encoding)


def plural(n: int, word: str, words: str | None = None) -> str:
    """``n`` and the noun that goes with it: ``1 game``, ``2 games``, ``1,000 events``.

    ``words`` is the plural when it is not ``word`` + ``s``.

    >>> plural(1, "game"), plural(2, "game"), plural(1000, "event"), plural(2, "match", "matches")
    ('1 game', '2 games', '1,000 events', '2 matches')
    """
    return f"{n:,} {word if n == 1 else (words or word + 's')}"


def duration(seconds: float, *, to_the_second: bool = False) -> str:
    """``seconds`` with units.

    To the minute: ``4 min``, ``1 h 05 min``, ``37 h 39 min``. With ``to_the_second``, below an
    hour: ``45 s``, ``4 min 05 s``, ``59 min 59 s`` (an hour or more stays to the minute). A
    time not known (NaN) is ``-``.

    >>> duration(19 * 3600 + 25 * 60), duration(4 * 60), duration(37.65 * 3600)
    ('19 h 25 min', '4 min', '37 h 39 min')
    >>> duration(245, to_the_second=True), duration(45, to_the_second=True)
    ('4 min 05 s', '45 s')
    >>> duration(3 * 3600 + 62, to_the_second=True), duration(float("nan"))
    ('3 h 01 min', '-')
    """
    if math.isnan(seconds):
        return "-"
    s = max(0, round(seconds))
    if to_the_second and s < 3600:
        m, s = divmod(s, 60)
        return _("{m} min {s:02d} s").format(m=m, s=s) if m else _("{s} s").format(s=s)
    total = round(s / 60)
    h, m = divmod(total, 60)
    return _("{h} h {m:02d} min").format(h=h, m=m) if h else _("{m} min").format(m=m)
