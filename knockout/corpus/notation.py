"""Move text as records write it: Chinese notation, WXF and ICCS, read into one description.

Chinese notation names the piece, the file it stands on, the way it goes and a number:
``炮二平五`` (Red's cannon on file 2 moves across to file 5), ``馬８進７`` (Black's horse on file 8
advances to file 7). Red numbers the files 一 to 九 from its right, Black ``1`` to ``9`` from its
own right. When two pieces of a kind share a file, a marker replaces the file: ``前車進一`` (the
front rook), ``後炮平四``; three or more pawns on a file are ``前``/``中``/``後`` or ``一``-``五``
counted from the front. Records write traditional or simplified characters (車/车, 馬/马,
進/进, 後/后, 帥/帅, 將/将), variant piece names (俥, 傌, 砲, 包), and full-width or ASCII digits
for either side. WXF writes the same description in letters (``C2.5``, ``H8+7``, ``C2=5``; a
tandem piece ``+R+2``, ``R++2``; the second of three pawns on file 9 ``29=8``) and ICCS the
squares (``h2-e2``, files a-i from Red's left, ranks 0-9 from Red's side).

:func:`parse_move` reads one move into a :class:`MoveText`; :func:`canonical` writes it back in
one spelling, so that copies of a game written in traditional and simplified characters, or with
different digits, compare equal. Which piece and square a description means is decided against the
board and the rules library's legal moves (:mod:`knockout.corpus.replay`), never here.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Literal

__all__ = [
    "KINDS",
    "Kind",
    "MoveText",
    "canonical",
    "parse_move",
    "spelling",
]

Kind = Literal["r", "n", "b", "a", "k", "c", "p"]
"""A piece kind as a FEN letter (Fairy-Stockfish's xiangqi letters): rook, horse, elephant,
advisor, king, cannon, pawn."""

KINDS: tuple[Kind, ...] = ("r", "n", "b", "a", "k", "c", "p")

#: Piece names in records, traditional, simplified and variant forms, by kind.
_PIECE_NAMES: dict[str, Kind] = {
    **dict.fromkeys("車车俥伡", "r"),
    **dict.fromkeys("馬马傌㐷", "n"),
    **dict.fromkeys("相象", "b"),
    **dict.fromkeys("仕士", "a"),
    **dict.fromkeys("帥帅將将", "k"),
    **dict.fromkeys("炮砲包", "c"),
    **dict.fromkeys("兵卒", "p"),
}

#: WXF piece letters (H and N both name the horse, E and B the elephant).
_WXF_LETTERS: dict[str, Kind] = {
    "R": "r",
    "H": "n",
    "N": "n",
    "E": "b",
    "B": "b",
    "A": "a",
    "K": "k",
    "C": "c",
    "P": "p",
}

#: How a piece goes: forward (進), backward (退), across (平).
_VERBS = {"進": "+", "进": "+", "退": "-", "平": "=", "+": "+", "-": "-", ".": "=", "=": "="}

_NUMERALS = {
    **{c: i + 1 for i, c in enumerate("一二三四五六七八九")},
    **{c: i + 1 for i, c in enumerate("１２３４５６７８９")},
    **{c: i + 1 for i, c in enumerate("123456789")},
}

#: Markers for pieces of one kind on one file, as an index from the front (-1: the rear one).
_MARKERS = {"前": 0, "中": 1, "後": -1, "后": -1, "+": 0, "-": -1}
_ORDINALS = {c: i for i, c in enumerate("一二三四五")}

_ICCS = re.compile(r"([a-i])([0-9])-?([a-i])([0-9])", re.IGNORECASE)
_WXF = re.compile(r"([RHNEBAKCP])([1-9+-])([+\-.=])([1-9])", re.IGNORECASE)
_WXF_TANDEM = re.compile(r"([+-])([RHNEBAKCP])([+\-.=])([1-9])", re.IGNORECASE)
_WXF_PAWNS = re.compile(r"([1-5])([1-9])([+\-.=])([1-9])")


@dataclass(frozen=True)
class MoveText:
    """One move as written, read into what it says.

    Attributes:
        kind: The piece kind (FEN letter), or None for an ICCS move (which names squares).
        file: The file the piece stands on, 1-9 counted from the mover's right, or None when a
            marker picks the piece (and with a marker, the file where the record also gives one).
        marker: Which of the pieces of ``kind`` sharing a file: 0 the front one, 1 the second,
            -1 the rear one; None when the file alone picks it.
        verb: ``+`` forward, ``-`` backward, ``=`` across.
        number: Steps (a rook, cannon, pawn or king going forward or back) or the file it goes to
            (across, or a horse, elephant or advisor), 1-9 counted from the mover's right.
        squares: For ICCS, ``(from, to)`` as (file 0-8 from Red's left, rank 0-9 from Red's side).
    """

    kind: Kind | None
    file: int | None
    marker: int | None
    verb: str
    number: int
    squares: tuple[tuple[int, int], tuple[int, int]] | None = None


@functools.lru_cache(maxsize=1 << 16)
def parse_move(text: str) -> MoveText | None:
    """What the move ``text`` says, or None if it is no move in any notation this reads.

    >>> parse_move("炮二平五")
    MoveText(kind='c', file=2, marker=None, verb='=', number=5, squares=None)
    >>> parse_move("前车进1") == parse_move("前車進一") == parse_move("+R+1")
    True
    >>> parse_move("h2-e2").squares
    ((7, 2), (4, 2))
    >>> parse_move("車二進") is None
    True
    """
    text = text.strip()
    if len(text) == 4 and text[0] in _PIECE_NAMES:
        return _chinese(_PIECE_NAMES[text[0]], text[1], None, text[2], text[3])
    if len(text) == 4 and text[1] in _PIECE_NAMES:
        return _chinese(_PIECE_NAMES[text[1]], None, text[0], text[2], text[3])
    if len(text) == 5 and text[1] in _PIECE_NAMES:
        return _chinese(_PIECE_NAMES[text[1]], text[2], text[0], text[3], text[4])
    if match := _ICCS.fullmatch(text):
        a, b, c, d = match.groups()
        origin = (ord(a.lower()) - ord("a"), int(b))
        target = (ord(c.lower()) - ord("a"), int(d))
        return MoveText(None, None, None, "", 0, (origin, target))
    if match := _WXF.fullmatch(text):
        letter, where, verb, number = match.groups()
        marker = _MARKERS[where] if where in "+-" else None
        file = None if where in "+-" else int(where)
        return MoveText(_WXF_LETTERS[letter.upper()], file, marker, _VERBS[verb], int(number))
    if match := _WXF_TANDEM.fullmatch(text):
        where, letter, verb, number = match.groups()
        return MoveText(
            _WXF_LETTERS[letter.upper()], None, _MARKERS[where], _VERBS[verb], int(number)
        )
    if match := _WXF_PAWNS.fullmatch(text):  # three or more pawns on a file: which, from the front
        index, column, verb, number = match.groups()
        return MoveText("p", int(column), int(index) - 1, _VERBS[verb], int(number))
    return None


def _chinese(
    kind: Kind, file_text: str | None, marker_text: str | None, verb_text: str, number_text: str
) -> MoveText | None:
    verb = _VERBS.get(verb_text)
    number = _NUMERALS.get(number_text)
    if verb is None or verb_text in "+-.=" or number is None:
        return None
    file = None
    if file_text is not None:
        file = _NUMERALS.get(file_text)
        if file is None:
            return None
    marker = None
    if marker_text is not None:
        marker = _MARKERS.get(marker_text, _ORDINALS.get(marker_text))
        if marker is None or marker_text in "+-":
            return None
    return MoveText(kind, file, marker, verb, number)


@functools.lru_cache(maxsize=1 << 16)
def canonical(move: MoveText) -> str:
    """One spelling of ``move``, the same for every way of writing it (traditional or simplified
    characters, any digits, Chinese or WXF); ICCS moves as their squares.

    >>> canonical(parse_move("馬８進７")), canonical(parse_move("后炮平4"))
    ('n8+7', '-1c=4')
    """
    if move.squares is not None:
        (a, b), (c, d) = move.squares
        return f"{'abcdefghi'[a]}{b}{'abcdefghi'[c]}{d}"
    assert move.kind is not None
    where = "" if move.file is None else str(move.file)
    marker = "" if move.marker is None else f"{move.marker:+d}"
    return f"{marker}{move.kind}{where}{move.verb}{move.number}"


@functools.lru_cache(maxsize=1 << 16)
def spelling(text: str) -> str:
    """:func:`canonical` of the move ``text``, or ``?text`` if it is no move.

    >>> spelling("車二進一"), spelling("车2进1"), spelling("xyz")
    ('r2+1', 'r2+1', '?xyz')
    """
    move = parse_move(text)
    return canonical(move) if move is not None else f"?{text}"
