"""PGN files of Xiangqi games read into their tags and move texts.

A file holds one game or several: each a section of tag pairs (``[Event "..."]``) and a movetext
(``1. 炮二平五 馬８進７ 2. ...`` ending in the result). Comments (``{...}``, ``;`` to the end of a
line), variations (``(...)``), move numbers and numeric annotation glyphs (``$1``) are dropped;
what is left of the movetext is the moves as written, read later (:mod:`knockout.corpus.notation`).
Moves run together without spaces (``炮二平五馬８進７``) are split into their four characters.

The file's bytes are decoded by :mod:`knockout.corpus.encoding`: the whole file in the encoding
its text reads as, each tag value on its own (a value may be in another encoding than the moves).
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field

from knockout.corpus.encoding import decode_field, decode_file
from knockout.corpus.notation import parse_move

__all__ = ["RESULTS", "GameText", "PgnFile", "parse_pgn"]

#: The results a record may end with, as the table writes them.
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")

_RESULT_SPELLINGS = {
    "1-0": "1-0",
    "0-1": "0-1",
    "1/2-1/2": "1/2-1/2",
    "½-½": "1/2-1/2",
    "0.5-0.5": "1/2-1/2",
    "*": "*",
}

_TAG = re.compile(rb'^\s*\[\s*([A-Za-z][A-Za-z0-9_]*)\s+"(.*)"\s*\]\s*$')
_COMMENT = re.compile(r"\{[^}]*\}|;[^\n]*")
_NAG = re.compile(r"\$\d+")
_NUMBER = re.compile(r"(?:(?<=\s)|^)\d+\s*\.+")


@dataclass(frozen=True)
class GameText:
    """One game as a file writes it.

    Attributes:
        tags: The tag pairs, values decoded.
        moves: The moves as written, in order (Red's first unless the FEN tag says otherwise).
        result: The result the movetext ends with (one of :data:`RESULTS`), or None.
        redecoded: Tags whose value was read in another encoding than the file's.
    """

    tags: dict[str, str]
    moves: tuple[str, ...]
    result: str | None
    redecoded: tuple[str, ...] = ()


@dataclass(frozen=True)
class PgnFile:
    """A file's games and the encoding it was read in (None if none reads it)."""

    encoding: str | None
    games: tuple[GameText, ...] = field(default=())


def normal_result(text: str) -> str | None:
    """The result ``text`` writes, in the table's spelling, or None.

    >>> normal_result("½-½"), normal_result("2-0")
    ('1/2-1/2', None)
    """
    return _RESULT_SPELLINGS.get(text.strip())


def parse_pgn(data: bytes) -> PgnFile:
    """The games of a PGN file's bytes.

    >>> text = '[Red "呂欽"]\\n[Result "1-0"]\\n1. 炮二平五 {好} 馬８進７ 1-0'
    >>> game = parse_pgn(text.encode("big5"))
    >>> game.encoding, game.games[0].tags["Red"], game.games[0].moves, game.games[0].result
    ('big5', '呂欽', ('炮二平五', '馬８進７'), '1-0')
    """
    decoded = decode_file(data)
    if decoded is None:
        return PgnFile(None)
    encoding = decoded.encoding
    if encoding == "utf-8-sig":
        data, encoding = data[3:], "utf-8"
    games: list[GameText] = []
    tags: dict[str, str] = {}
    redecoded: list[str] = []
    body: list[str] = []
    raw_lines = data.split(b"\n")
    text_lines = decoded.text.split("\n")
    if len(raw_lines) != len(text_lines):  # a BOM or line ends the codec changed: one per line
        raw_lines = [line.encode("utf-8") for line in text_lines]
        encoding_of_lines = "utf-8"
    else:
        encoding_of_lines = encoding
    for raw, line in zip(raw_lines, text_lines, strict=True):
        match = _TAG.match(raw)
        if match is None:
            body.append(line)
            continue
        if body and "".join(body).strip():
            games.append(_game(tags, body, redecoded))
            tags, redecoded, body = {}, [], []
        value, other = decode_field(match[2], encoding_of_lines)
        name = match[1].decode("ascii")
        tags[name] = value.strip()
        if other:
            redecoded.append(name)
    if tags or "".join(body).strip():
        games.append(_game(tags, body, redecoded))
    return PgnFile(decoded.encoding, tuple(games))


def _game(tags: dict[str, str], body: list[str], redecoded: list[str]) -> GameText:
    text = _NAG.sub(" ", _COMMENT.sub(" ", "\n".join(body)))
    text = _NUMBER.sub(" ", _without_variations(text))
    moves: list[str] = []
    result = None
    for token in text.split():
        spelled = _RESULT_SPELLINGS.get(token)
        if spelled is not None:
            result = spelled
        elif parse_move(token) is not None:
            moves.append(sys.intern(token))  # a few thousand distinct texts in a collection
        elif not token.strip(".").isdigit():
            moves.extend(_split_run(token))
    return GameText(dict(tags), tuple(moves), result, tuple(redecoded))


def _without_variations(text: str) -> str:
    """``text`` without parenthesised variations (nested ones included)."""
    if "(" not in text and "（" not in text:
        return text
    out: list[str] = []
    depth = 0
    for char in text:
        if char in "(（":
            depth += 1
        elif char in ")）" and depth:
            depth -= 1
        elif not depth:
            out.append(char)
    return "".join(out)


def _split_run(token: str) -> list[str]:
    """A token of several four-character moves run together, split; any other token as it is."""
    if len(token) % 4 or len(token) < 8:
        return [token]
    parts = [token[i : i + 4] for i in range(0, len(token), 4)]
    return parts if all(parse_move(p) is not None for p in parts) else [token]
