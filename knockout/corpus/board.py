"""Where the pieces stand: the board of a FEN, kept while a record is read.

The board only records where pieces are and moves a piece from one square to another (taking what
stands there): it knows no rule of how pieces move. What a move in the record may be is read from
the notation (:mod:`knockout.corpus.notation`) against this board; whether it is legal is for the
rules library (:mod:`knockout.corpus.replay`).

Squares are ``(file, rank)``: file 0-8 from Red's left (a-i), rank 0-9 from Red's side. Red's
file numbered ``n`` in Chinese notation is file ``9 - n``; Black's is ``n - 1``.
"""

from __future__ import annotations

from knockout.corpus.notation import Kind

__all__ = ["START_FEN", "Board", "Square", "file_number", "square_of_file", "uci"]

Square = tuple[int, int]

#: The starting position (Fairy-Stockfish's xiangqi letters; Red in upper case).
START_FEN = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"

_FILES = "abcdefghi"


def uci(origin: Square, target: Square) -> str:
    """The move in the rules library's coordinates (ranks 1-10).

    >>> uci((7, 2), (4, 2))
    'h3e3'
    """
    return f"{_FILES[origin[0]]}{origin[1] + 1}{_FILES[target[0]]}{target[1] + 1}"


def square_of_file(number: int, red: bool) -> int:
    """The board file (0-8 from Red's left) of file ``number`` counted from the mover's right.

    >>> square_of_file(2, red=True), square_of_file(2, red=False)
    (7, 1)
    """
    return 9 - number if red else number - 1


def file_number(file: int, red: bool) -> int:
    """The inverse of :func:`square_of_file`."""
    return 9 - file if red else file + 1


class Board:
    """The pieces on the board, by square, and the side to move.

    A ``Board`` changes as :meth:`play` moves pieces on it; :meth:`copy` gives an independent one.
    """

    __slots__ = ("red_to_move", "squares")

    def __init__(self, squares: dict[Square, str], red_to_move: bool) -> None:
        self.squares = squares
        self.red_to_move = red_to_move

    @classmethod
    def from_fen(cls, fen: str) -> Board:
        """The board of ``fen`` (placement and side to move).

        Raises:
            ValueError: If the placement is not ten ranks of nine squares of known pieces, or the
                side to move is neither ``w`` nor ``b``.
        """
        fields = fen.split()
        rows = fields[0].split("/") if fields else []
        squares: dict[Square, str] = {}
        ok = len(rows) == 10 and len(fields) >= 2 and fields[1] in ("w", "b")
        for index, row in enumerate(rows):
            file = 0
            for char in row:
                if char.isdigit():
                    file += int(char)
                elif char.lower() in "rnbakcp" and file < 9:
                    squares[(file, 9 - index)] = char
                    file += 1
                else:
                    ok = False
            ok = ok and file == 9
        if not ok:
            raise ValueError(f"expected a Xiangqi FEN, got {fen!r}")
        return cls(squares, fields[1] == "w")

    def copy(self) -> Board:
        """An independent copy."""
        return Board(dict(self.squares), self.red_to_move)

    def pieces(self, kind: Kind, red: bool) -> list[Square]:
        """The squares of the mover's pieces of ``kind``, by file then rank."""
        letter = kind.upper() if red else kind
        return sorted(s for s, p in self.squares.items() if p == letter)

    def play(self, origin: Square, target: Square) -> None:
        """Move the piece on ``origin`` to ``target`` (taking what stands there); the other side
        moves next. The move's legality is not checked here."""
        self.squares[target] = self.squares.pop(origin)
        self.red_to_move = not self.red_to_move
