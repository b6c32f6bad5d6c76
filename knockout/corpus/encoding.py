"""Which text encoding a game file is in, decided from its bytes.

Xiangqi files come in UTF-8 (with or without a byte-order mark), GB18030/GBK (simplified
characters) and Big5/cp950 (traditional). A UTF-8 file is recognised by decoding cleanly (text in
the other two almost never does). Between GB18030 and Big5 decoding is no test: GB18030 decodes
nearly any Big5 bytes without an error, into other characters. So both are tried and the file is
read in the one whose text looks like a game record: the one with more of the words records are
made of (:data:`RECORD_CHARACTERS`: the pieces, 進/退/平, numerals, 勝/和/負, 第/輪/局, 賽/杯,
in both scripts), and with fewer characters from the private-use area (where GB18030 puts Big5
bytes it cannot map). A file that neither reads as a record, or that decodes in no encoding, is
reported, never guessed.

Some files mix encodings: a Big5 record whose ``Round`` tag was written in GBK (``第07轮``, read as
Big5 ``菴07謫``). :func:`decode_field` reads each tag's value on its own, and takes the other
encoding where the file's has none of the record's words and the other has some and no private-use
characters; the import report counts these fields.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass

__all__ = [
    "ENCODINGS",
    "RECORD_CHARACTERS",
    "Decoded",
    "decode_field",
    "decode_file",
]

#: The encodings a file is tried in, by the name the report uses.
ENCODINGS = ("utf-8", "utf-8-sig", "gb18030", "big5")

#: Python's codec for each legacy encoding (cp950 is Big5 as Windows and most files write it).
_CODECS = {"gb18030": "gb18030", "big5": "cp950"}

#: Characters game records are made of, traditional and simplified: the pieces, how they move,
#: Red's numerals, the results, rounds and events.
RECORD_CHARACTERS = frozenset(
    "車车馬马炮砲相象仕士帥帅將将兵卒進进退平前後后"
    "一二三四五六七八九"
    "勝胜和負负先紅红黑"
    "第輪轮局屆届組组賽赛杯象棋國国全年月日"
)

_RECORD = re.compile("[" + "".join(sorted(RECORD_CHARACTERS)) + "]")
_PRIVATE = re.compile("[\ue000-\uf8ff]")


@dataclass(frozen=True)
class Decoded:
    """A file's text and the encoding it was read in (one of :data:`ENCODINGS`)."""

    text: str
    encoding: str


def _score(text: str) -> int:
    """How much ``text`` looks like a game record: its record characters less its private-use
    characters."""
    return len(_RECORD.findall(text)) - 4 * len(_PRIVATE.findall(text))


def _legacy(data: bytes) -> dict[str, str]:
    """The legacy encodings ``data`` decodes in, with the text."""
    found = {}
    for name, codec in _CODECS.items():
        try:
            found[name] = data.decode(codec)
        except UnicodeDecodeError:
            continue
    return found


def decode_file(data: bytes) -> Decoded | None:
    """The text of a game file, or None if no encoding reads it as a record.

    >>> decode_file("炮二平五".encode("big5")).encoding
    'big5'
    >>> decode_file("炮二平五".encode("gb18030")).encoding
    'gb18030'
    >>> decode_file(codecs.BOM_UTF8 + "炮二平五".encode()).encoding
    'utf-8-sig'
    """
    if data.startswith(codecs.BOM_UTF8):
        try:
            return Decoded(data[len(codecs.BOM_UTF8) :].decode("utf-8"), "utf-8-sig")
        except UnicodeDecodeError:
            return None
    try:
        return Decoded(data.decode("utf-8"), "utf-8")
    except UnicodeDecodeError:
        pass
    found = _legacy(data)
    scores = {name: _score(text) for name, text in found.items()}
    ranked = sorted(scores, key=lambda n: -scores[n])
    if not ranked or scores[ranked[0]] <= 0:
        return None
    if len(ranked) > 1 and scores[ranked[0]] == scores[ranked[1]]:
        return None
    return Decoded(found[ranked[0]], ranked[0])


def decode_field(data: bytes, encoding: str) -> tuple[str, bool]:
    """A tag's value from a file read in ``encoding``, and whether it was read in the other
    legacy encoding instead (see the module's note on mixed files).

    >>> decode_field("第07轮".encode("gb18030"), "big5")
    ('第07轮', True)
    >>> decode_field("廣東楊官璘".encode("big5"), "big5")
    ('廣東楊官璘', False)
    """
    own_codec = _CODECS.get(encoding)
    if own_codec is None:
        return data.decode(encoding, errors="replace"), False
    own = data.decode(own_codec, errors="replace")
    if _RECORD.search(own):
        return own, False
    for name, text in _legacy(data).items():
        if name != encoding and _RECORD.search(text) and not _PRIVATE.search(text):
            return text, True
    return own, False
