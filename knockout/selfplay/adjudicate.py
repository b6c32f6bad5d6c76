"""The referee: how a self-play game ends, decided by the rules of Xiangqi through ``pyffish``.

``pyffish`` (Python bindings to Fairy-Stockfish's move generator and rules, a declared extra:
``pip install 'knockout[selfplay]'``) knows the legal moves, check, mate, repetition and
Fairy-Stockfish's implementation of the Asian Xiangqi Federation's chasing rules. After every
move the :class:`Referee` asks it, in this order:

1. **No legal move**: the side to move loses, whether in check (``checkmate``) or not
   (``stalemate``: in Xiangqi a stalemated side loses).
2. **Repetition** (``pyffish.is_optional_game_end``: the position for the third time): a side
   that gave check with every move of the cycle loses (``perpetual_check``); a side the library
   judges to be chasing an unprotected piece loses (``perpetual_chase``); otherwise a draw
   (``repetition``). **The move rule**, the other optional end the library reports: no capture
   for ``move_rule`` moves of each side, a draw, labelled with its count (``move_rule_60``:
   the Chinese rules' 自然限着, the default; ``move_rule_50``: the library's own rule, under which
   the bundled games were played). The library is told the count through a variant derived from
   its ``xiangqi`` (``nMoveRule``), so its repetition and chasing judgements are unchanged.
3. **Material**: neither side has a piece that can give mate (only kings, advisors and
   elephants: ``pyffish.has_insufficient_material`` for both sides): a draw (``material``).
4. **Score**: the engines' own scores, seen from Red, at least ``resign_cp`` centipawns for the
   same side on each of the last ``resign_plies`` moves: that side wins (``score``).
5. **Move cap**: ``max_plies`` half-moves played: a draw (``move_cap``).

The game loop adds ``time`` (a clock ran out: that side loses) and ``illegal_move`` (the engine
played a move the rules do not allow: that side loses). What is not covered is said in
``docs/selfplay.md``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Literal

from knockout.errors import KnockoutError

__all__ = [
    "MOVE_RULES",
    "START_FEN",
    "VARIANT",
    "Adjudication",
    "Ending",
    "Reason",
    "Referee",
    "load_pyffish",
    "replay",
]

VARIANT = "xiangqi"
#: The move rules a game may be adjudicated by (moves of each side without a capture): the
#: Chinese rules' 60 (自然限着, the default) and the rules library's own 50.
MOVE_RULES = (60, 50)
#: The library's own count: its ``xiangqi`` variant as it ships.
LIBRARY_MOVE_RULE = 50
START_FEN = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
"""The start position (``w``, White, is Red in Fairy-Stockfish's notation)."""

Outcome = Literal["red", "draw", "black"]

PYFFISH_HINT = (
    "the Xiangqi rules library pyffish is not installed; pip install 'knockout[selfplay]' "
    "(or pip install pyffish)"
)


def load_pyffish() -> Any:
    """The ``pyffish`` module.

    Raises:
        KnockoutError: If it is not installed (one line saying how to install it).
    """
    try:
        import pyffish  # noqa: PLC0415 (only self-play needs the extra)
    except ImportError:
        raise KnockoutError(PYFFISH_HINT) from None
    return pyffish


class Reason(StrEnum):
    """How a game ended (the ``reason`` column of the detail file)."""

    CHECKMATE = "checkmate"
    STALEMATE = "stalemate"
    PERPETUAL_CHECK = "perpetual_check"
    PERPETUAL_CHASE = "perpetual_chase"
    REPETITION = "repetition"
    MOVE_RULE_60 = "move_rule_60"
    MOVE_RULE_50 = "move_rule_50"
    MATERIAL = "material"
    SCORE = "score"
    MOVE_CAP = "move_cap"
    TIME = "time"
    ILLEGAL_MOVE = "illegal_move"

    @classmethod
    def move_rule(cls, moves: int) -> Reason:
        """The draw by the move rule of ``moves`` (``move_rule_60`` or ``move_rule_50``)."""
        return cls(f"move_rule_{moves}")


@dataclass(frozen=True)
class Adjudication:
    """The thresholds that end a game before the rules do (recorded with every game).

    Attributes:
        resign_cp: Centipawns (engine scale) a side must be ahead by, in both engines' eyes.
        resign_plies: For this many consecutive half-moves (0: never adjudicate on score).
        max_plies: The move cap in half-moves, openings included: a draw there.
        move_rule: Moves of each side without a capture that draw the game: 60 (the Chinese
            rules' 自然限着) or 50 (the rules library's own, as the bundled games were played).
    """

    resign_cp: int = 1000
    resign_plies: int = 8
    max_plies: int = 400
    move_rule: int = 60

    def __post_init__(self) -> None:
        if self.resign_cp <= 0 or self.resign_plies < 0 or self.max_plies < 1:
            raise KnockoutError(
                "adjudication: expected resign_cp > 0, resign_plies >= 0 and max_plies >= 1, "
                f"got {self.resign_cp}, {self.resign_plies}, {self.max_plies}"
            )
        if self.move_rule not in MOVE_RULES:
            raise KnockoutError(
                f"adjudication: expected a move rule of {' or '.join(map(str, MOVE_RULES))} "
                f"moves, got {self.move_rule}"
            )


@dataclass(frozen=True)
class Ending:
    """A game's result and why."""

    result: Outcome
    reason: Reason


def _winner(red_to_move: bool, side_to_move_wins: bool) -> Outcome:
    return "red" if red_to_move == side_to_move_wins else "black"


_SQUARE = re.compile(r"([a-i])(10|[1-9])([a-i])(10|[1-9])")
_MATING = frozenset("RNPrnp")
"""Rooks, horses and soldiers: with any of them on the board, pyffish's material draw cannot
apply (cannons, advisors and elephants alone may not mate; pyffish decides those)."""


_REGISTERED: set[int] = set()


def variant_for(sf: Any, move_rule: int) -> str:
    """The rules library's variant that draws after ``move_rule`` moves of each side without a
    capture: its own ``xiangqi`` for 50, else a variant derived from it with ``nMoveRule`` set
    (registered once in this process; everything else is ``xiangqi``'s)."""
    if move_rule == LIBRARY_MOVE_RULE:
        return VARIANT
    name = f"{VARIANT}{move_rule}"
    if move_rule not in _REGISTERED:
        sf.load_variant_config(f"[{name}:{VARIANT}]\nnMoveRule = {move_rule}\n")
        _REGISTERED.add(move_rule)
    return name


def _board(fen: str) -> list[str]:
    """The 90 squares of a FEN, rank 1 (Red's back rank) first, ``.`` for an empty square."""
    squares: list[str] = []
    for row in reversed(fen.split(maxsplit=1)[0].split("/")):
        for char in row:
            squares.extend("." * int(char) if char.isdigit() else char)
    return squares if len(squares) == 90 else []


def _square(file: str, rank: str) -> int:
    return (int(rank) - 1) * 9 + ord(file) - ord("a")


class Referee:
    """Follows one game move by move and says when and how it ends.

    Each move costs one call of the rules library (``legal_moves``: mate, stalemate and the next
    move's legality); its repetition and material judgements are asked for only when they can
    apply, which a board kept here tells: a position seen before, the move rule's count of
    half-moves without a capture but one, or no rook, horse or soldier left (the library's calls
    each cost milliseconds).

    Args:
        adjudication: The score and move-cap thresholds, and the move rule.
        fen: The position the game starts from (the Xiangqi start by default).
    """

    def __init__(self, adjudication: Adjudication, fen: str = START_FEN) -> None:
        self._sf: Any = load_pyffish()
        self.adjudication = adjudication
        self.variant = variant_for(self._sf, adjudication.move_rule)
        board = _board(fen)
        if not board or self._call("validate_fen", fen, self.variant) != 1:
            raise KnockoutError(f"not a Xiangqi position: {fen!r}")
        self.start_fen = fen
        self.moves: list[str] = []
        self._board = board
        self._red_first = fen.split()[1] == "w"
        self._keys: list[str] = [self._key()]  # the position after each ply, the start first
        fields = fen.split()
        # half-moves since the last capture (the FEN's counter, which the library's rule uses)
        self._quiet = int(fields[4]) if len(fields) > 4 and fields[4].isdigit() else 0
        self._red_scores: list[int | None] = []
        self._legal: list[str] | None = None

    def _call(self, name: str, *args: object) -> Any:
        return getattr(self._sf, name)(*args)

    def _key(self) -> str:
        return "".join(self._board) + ("w" if self.red_to_move else "b")

    @property
    def red_to_move(self) -> bool:
        """Whether Red is to move."""
        return (len(self.moves) % 2 == 0) == self._red_first

    def legal(self) -> list[str]:
        """The legal moves of the side to move."""
        if self._legal is None:
            found = self._call("legal_moves", self.variant, self.start_fen, self.moves)
            assert isinstance(found, list)
            self._legal = [str(m) for m in found]
        return self._legal

    def fen(self) -> str:
        """The current position."""
        return str(self._call("get_fen", self.variant, self.start_fen, self.moves))

    def push(self, move: str, mover_score: int | None = None) -> Ending | None:
        """Play ``move`` (with the mover's own score of the position, centipawns) and return the
        game's end if it has ended."""
        red_moved = self.red_to_move
        if move not in self.legal():
            return Ending(_winner(red_moved, False), Reason.ILLEGAL_MOVE)
        match = _SQUARE.fullmatch(move)
        assert match is not None  # a legal move
        origin = _square(match.group(1), match.group(2))
        target = _square(match.group(3), match.group(4))
        capture = self._board[target] != "."
        self._board[target], self._board[origin] = self._board[origin], "."
        self._quiet = 0 if capture else self._quiet + 1
        self.moves.append(move)
        self._legal = None
        self._keys.append(self._key())
        score = None if mover_score is None else (mover_score if red_moved else -mover_score)
        self._red_scores.append(score)
        return self._rules() or self._by_score() or self._by_cap()

    def _rules(self) -> Ending | None:
        start, moves = self.start_fen, self.moves
        red = self.red_to_move
        if not self.legal():
            value = self._call("game_result", self.variant, start, moves)
            assert isinstance(value, int)
            checked = bool(self._call("gives_check", self.variant, start, moves))
            reason = Reason.CHECKMATE if checked else Reason.STALEMATE
            return Ending("draw", reason) if value == 0 else Ending(_winner(red, value > 0), reason)
        recent = self._keys[max(0, len(self._keys) - 1 - self._quiet) : -1]
        if self._keys[-1] in recent or self._quiet >= 2 * self.adjudication.move_rule - 1:
            ended, value = self._call("is_optional_game_end", self.variant, start, moves)
            if ended:
                return self._repetition(int(value), recent)
        if not _MATING.intersection(self._board):
            white, black = self._call("has_insufficient_material", self.variant, start, moves)
            if white and black:
                return Ending("draw", Reason.MATERIAL)
        return None

    def _repetition(self, value: int, recent: list[str]) -> Ending:
        """The end pyffish reported as optional, with ``value`` for the side to move; ``recent``:
        the positions since the last capture, before this one."""
        repeated = self._keys[-1] in recent
        if value == 0:
            if repeated:
                return Ending("draw", Reason.REPETITION)
            return Ending("draw", Reason.move_rule(self.adjudication.move_rule))
        red = self.red_to_move
        # The loser's moves in the last cycle: all checks is perpetual check, else a chase.
        plies = len(self.moves)
        base = plies - len(recent)  # the position after the last capture
        first = max(
            (i for i in range(base, plies) if self._keys[i] == self._keys[-1]), default=base
        )
        loser_moved_last = value > 0
        checks = [
            bool(self._call("gives_check", self.variant, self.start_fen, self.moves[: k + 1]))
            for k in range(first, plies)
            if ((plies - 1 - k) % 2 == 0) == loser_moved_last
        ]
        reason = Reason.PERPETUAL_CHECK if checks and all(checks) else Reason.PERPETUAL_CHASE
        return Ending(_winner(red, value > 0), reason)

    def _by_score(self) -> Ending | None:
        plies = self.adjudication.resign_plies
        if plies == 0 or len(self._red_scores) < plies:
            return None
        last = self._red_scores[-plies:]
        cp = self.adjudication.resign_cp
        if all(s is not None and s >= cp for s in last):
            return Ending("red", Reason.SCORE)
        if all(s is not None and s <= -cp for s in last):
            return Ending("black", Reason.SCORE)
        return None

    def _by_cap(self) -> Ending | None:
        if len(self.moves) >= self.adjudication.max_plies:
            return Ending("draw", Reason.MOVE_CAP)
        return None


def replay(
    moves: Sequence[str], adjudication: Adjudication, fen: str = START_FEN
) -> tuple[Ending | None, int]:
    """Replay ``moves`` without scores: the first end the rules (or the move cap) give, and the
    half-moves played up to it. An independent check of a recorded game: its rules' ending
    must come at its last move, and a game ended on score or time must have none."""
    referee = Referee(adjudication, fen)
    for move in moves:
        ending = referee.push(move)
        if ending is not None:
            return ending, len(referee.moves)
    return None, len(referee.moves)
