"""A record replayed by the rules: how many moves, the final position, and where it broke if it did.

The rules of Xiangqi come from ``pyffish`` (Fairy-Stockfish's move generator as a library: the
full rules, the flying general and the palace and river included), never from code here. A move in
the record is read against the board (:mod:`knockout.corpus.board`): the pieces the notation can
mean, and the squares it sends them to. A horse, elephant or advisor going forward or back names the
file it goes to; which square of that file it reaches is one of the piece's own leaps, and those
leaps are the library's legal moves of the piece on an empty board (:func:`leaps`), not a table
written here.

When the text fits one move, that move is taken; when it fits several (a move written without
前/後 while two rooks stand on one file, for one), the library's legal moves in that position
decide, and where exactly one of them is legal it is taken and counted as a repair. The whole game
is then checked by the library in one call, which returns the final position. A move no piece can
make, one that is not legal, one that several legal moves fit, or text that is no move, ends the
replay there: the record is ``broken at move N`` (Red's count) and the position reached is kept.

Each library call rebuilds Fairy-Stockfish's attack tables (about 3 ms on this machine, whatever
the number of moves replayed in it), so a replay makes one call for the game, one more per
ambiguous move, and a few more only for a record that breaks.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

import pyffish

from knockout.corpus.board import START_FEN, Board, Square, square_of_file, uci
from knockout.corpus.notation import Kind, MoveText

__all__ = [
    "VARIANT",
    "Breakage",
    "Replay",
    "candidates",
    "leaps",
    "replay",
    "replay_uci",
]

VARIANT = "xiangqi"

Breakage = Literal["unreadable", "no piece fits", "ambiguous", "illegal"]
"""Why a record broke: text that is no move; a move no piece on the board fits; a move several
legal moves fit; a move the rules do not allow."""

#: Kinds whose forward or backward move is counted in ranks (the others name the file they reach).
_STRAIGHT = frozenset("rckp")

#: A position with a lone horse (e5), elephant (e3) and advisor (e2) of Red's, whose legal moves
#: give each piece's leaps (the kings on e1 and f10, off each other's file).
_LEAP_FEN = "5k3/9/9/9/9/4N4/9/4B4/4A4/4K4 w - - 0 1"


@dataclass(frozen=True)
class Replay:
    """A record replayed.

    Attributes:
        moves: The record's length in moves (Red's count: one move by each side is one move).
        final_fen: The final position (FEN) if the record is complete; else the position reached
            before the move where it broke.
        broken_at: Index (from 0) of the half-move where the record broke, or None.
        reason: Why it broke, or None.
        repairs: Moves whose text several moves fitted and the rules settled.
        uci: The moves replayed, in the library's coordinates.
        repaired: The kind of piece (FEN letter) of each repaired move, in order.
    """

    moves: int
    final_fen: str
    broken_at: int | None = None
    reason: Breakage | None = None
    repairs: int = 0
    uci: tuple[str, ...] = ()
    repaired: str = ""

    @property
    def record(self) -> str:
        """``complete``, ``broken at move N`` or ``no moves`` (the table's ``record`` column)."""
        if self.broken_at is not None:
            return f"broken at move {self.broken_at // 2 + 1}"
        return "complete" if self.moves else "no moves"

    @property
    def complete(self) -> bool:
        """Whether every move of the record was replayed."""
        return self.broken_at is None and self.moves > 0


@functools.cache
def leaps() -> dict[Kind, tuple[tuple[int, int], ...]]:
    """The leaps of the horse, elephant and advisor, ``(files, ranks)`` from Red's side, as the
    rules library generates them for a lone piece (one library call, once per process).

    >>> sorted(leaps()["b"])
    [(-2, -2), (-2, 2), (2, -2), (2, 2)]
    """
    board = Board.from_fen(_LEAP_FEN)
    kinds: dict[str, Kind] = {"N": "n", "B": "b", "A": "a"}
    where = {kinds[p]: s for s, p in board.squares.items() if p in kinds}
    found: dict[Kind, list[tuple[int, int]]] = {"n": [], "b": [], "a": []}
    for move in _sf().legal_moves(VARIANT, _LEAP_FEN, []):
        origin, target = _squares(move)
        for kind, square in where.items():
            if square == origin:
                found[kind].append((target[0] - origin[0], target[1] - origin[1]))
    return {k: tuple(v) for k, v in found.items()}


def _sf() -> Any:
    return pyffish


def _squares(move: str) -> tuple[Square, Square]:
    """``(from, to)`` of a move in the library's coordinates (``b10c8``)."""
    split = next(i for i in range(2, len(move)) if move[i].isalpha())
    a, b = move[:split], move[split:]
    return (ord(a[0]) - 97, int(a[1:]) - 1), (ord(b[0]) - 97, int(b[1:]) - 1)


def candidates(board: Board, move: MoveText) -> list[tuple[Square, Square]]:
    """The moves ``(from, to)`` the text ``move`` can mean for the side to move on ``board``,
    whether or not the rules allow them."""
    red = board.red_to_move
    if move.squares is not None:
        origin, target = move.squares
        piece = board.squares.get(origin)
        return [(origin, target)] if piece is not None and piece.isupper() == red else []
    assert move.kind is not None
    origins = _origins(board, move, red)
    found = []
    for origin in origins:
        for target in _targets(move, origin, red):
            if 0 <= target[0] <= 8 and 0 <= target[1] <= 9 and target != origin:
                found.append((origin, target))
    return found


def _origins(board: Board, move: MoveText, red: bool) -> list[Square]:
    assert move.kind is not None
    pieces = board.pieces(move.kind, red)
    if move.marker is None:
        assert move.file is not None
        file = square_of_file(move.file, red)
        return [s for s in pieces if s[0] == file]
    files: dict[int, list[Square]] = {}
    for square in pieces:
        files.setdefault(square[0], []).append(square)
    if move.file is not None:
        files = {f: s for f, s in files.items() if f == square_of_file(move.file, red)}
    chosen = []
    for column in files.values():
        if len(column) < 2 or (move.marker == 1 and len(column) < 3):
            continue
        column.sort(key=lambda s: s[1], reverse=red)  # front first
        if move.marker < len(column):
            chosen.append(column[move.marker])
    return chosen


def _targets(move: MoveText, origin: Square, red: bool) -> list[Square]:
    assert move.kind is not None
    forward = 1 if red else -1
    if move.verb == "=":
        if move.kind not in _STRAIGHT:
            return []
        return [(square_of_file(move.number, red), origin[1])]
    sign = forward if move.verb == "+" else -forward
    if move.kind in _STRAIGHT:
        return [(origin[0], origin[1] + sign * move.number)]
    file = square_of_file(move.number, red)
    return [
        (origin[0] + df, origin[1] + dr)
        for df, dr in leaps()[move.kind]
        if origin[0] + df == file and dr * sign > 0
    ]


def replay(moves: Sequence[MoveText | None], start: str = START_FEN) -> Replay:
    """Replay the record ``moves`` (None for text that was no move) from ``start``.

    >>> from knockout.corpus.notation import parse_move
    >>> game = replay([parse_move(m) for m in "炮二平五 馬８進７ 馬二進三 車９平８".split()])
    >>> game.record, game.moves, game.final_fen
    ('complete', 2, 'rnbakabr1/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R w - - 4 3')
    """
    board = Board.from_fen(start)
    length = _length(len(moves), board.red_to_move)
    played: list[str] = []
    repaired: list[tuple[int, str]] = []
    for index, move in enumerate(moves):
        fits = candidates(board, move) if move is not None else []
        if len(fits) > 1:
            try:
                legal = _legal_moves(board, start, played)
            except (ValueError, SystemError):  # an earlier move was not legal
                return _broken(start, played, length, index, "illegal", repaired)
            fits = [f for f in fits if uci(*f) in legal]
            if len(fits) == 1:
                repaired.append((index, board.squares[fits[0][0]].lower()))
        if len(fits) != 1:
            reason: Breakage = (
                "unreadable" if move is None else "ambiguous" if fits else "no piece fits"
            )
            return _broken(start, played, length, index, reason, repaired)
        board.play(*fits[0])
        played.append(uci(*fits[0]))
    return _checked(start, played, length, repaired)


#: Legal moves of positions already asked about, by position (legality in Xiangqi depends on the
#: position alone; openings repeat, so the same few hundred positions are asked about often).
_LEGAL_CACHE: dict[tuple[bool, frozenset[tuple[Square, str]]], frozenset[str]] = {}
_LEGAL_CACHE_SIZE = 100_000


def _legal_moves(board: Board, start: str, played: list[str]) -> frozenset[str]:
    """The library's legal moves in the position ``board`` shows (reached by ``played`` from
    ``start``), remembered by position."""
    key = (board.red_to_move, frozenset(board.squares.items()))
    found = _LEGAL_CACHE.get(key)
    if found is None:
        found = frozenset(_sf().legal_moves(VARIANT, start, played))
        if len(_LEGAL_CACHE) >= _LEGAL_CACHE_SIZE:
            _LEGAL_CACHE.clear()
        _LEGAL_CACHE[key] = found
    return found


def replay_uci(moves: Sequence[str], start: str = START_FEN) -> Replay:
    """Replay moves already in the library's coordinates (a self-play file's ``moves``).

    >>> replay_uci(["h3e3", "h8e8"]).record
    'complete'
    """
    length = _length(len(moves), Board.from_fen(start).red_to_move)
    return _checked(start, list(moves), length, [])


def _length(plies: int, red_first: bool) -> int:
    """Red's count of moves in a record of ``plies`` half-moves."""
    return (plies + 1) // 2 if red_first else plies // 2


def _checked(start: str, played: list[str], length: int, repaired: list[tuple[int, str]]) -> Replay:
    """The game checked by the library in one call; where it refuses a move, the replay ends
    there."""
    sf = _sf()
    try:
        fen = sf.get_fen(VARIANT, start, played)
    except (ValueError, SystemError):
        index = _first_illegal(start, played)
        return _broken(start, played, length, index, "illegal", repaired)
    kinds = "".join(k for _, k in repaired)
    return Replay(length, fen, None, None, len(kinds), tuple(played), kinds)


def _first_illegal(start: str, played: list[str]) -> int:
    """Index of the first move the library refuses (it names the move; where the same move was
    played before, the legal moves of each earlier position tell which one)."""
    sf = _sf()
    try:
        sf.get_san_moves(VARIANT, start, played)
    except ValueError as exc:
        name = str(exc).split("'")[1] if "'" in str(exc) else ""
        places = [i for i, m in enumerate(played) if m == name]
        for index in places[:-1]:
            if name not in sf.legal_moves(VARIANT, start, played[:index]):
                return index
        if places:
            return places[-1]
    return _bisect_illegal(start, played)


def _bisect_illegal(start: str, played: list[str]) -> int:
    """The first refused move by bisection over prefixes (if the library's message names none)."""
    sf = _sf()
    low, high = 0, len(played)  # played[:low] is legal, played[:high] is not
    while high - low > 1:
        middle = (low + high) // 2
        try:
            sf.get_fen(VARIANT, start, played[:middle])
            low = middle
        except (ValueError, SystemError):
            high = middle
    return low


def _broken(
    start: str,
    played: list[str],
    length: int,
    index: int,
    reason: Breakage,
    repaired: list[tuple[int, str]],
) -> Replay:
    """The record broken at half-move ``index`` for ``reason``, or earlier, where the library
    refuses one of the moves before it."""
    sf = _sf()
    try:
        fen = sf.get_fen(VARIANT, start, played[:index])
    except (ValueError, SystemError):
        index, reason = _first_illegal(start, played[:index]), "illegal"
        fen = sf.get_fen(VARIANT, start, played[:index])
    kinds = "".join(k for i, k in repaired if i < index)
    return Replay(length, fen, index, reason, len(kinds), tuple(played[:index]), kinds)
