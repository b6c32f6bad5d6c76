"""Scoring systems: points per game by colour and result, defined once, in exact decimals.

Each system is a :class:`ScoringSystem` in the :data:`SCORING` registry:

============================ ======== ========= ================= ==========================
name                         Red win  Black win draw (Red/Black)  source
============================ ======== ========= ================= ==========================
``traditional``              2        2         1 / 1             seed 000 (无差异计分)
``difference``               1.9      2.1       1 / 1             seed 000, 差额法
``ratio``                    1.7      2.3       1 / 1             seed 000, 比值法 (as adopted)
``ratio-computed``           1.63     2.37      1 / 1             seed 000, 比值法 (as computed)
``3-1-0``                    3        3         1 / 1             "310制" (seed 001, last line)
``knockout``                 3        3         1 / 1             seed 001, 三.5
``knockout-sudden-death``    3        3         1 / 1.5           seed 001, 三.5
``round-robin``              3        3         by moves/material seed 001, 二 (RULES.md 3)
``league-captain``           5        5         2 / 3             seed 001, 一.5, board 1
``league-board``             3        3         1 / 1.5           seed 001, 一.5, boards 2-4
============================ ======== ========= ================= ==========================

A loss scores 0 in every built-in system. The knockout per-game points of RULES.md section 1 are
two entries: ``knockout`` for ordinary games and ``knockout-sudden-death`` for games whose draw
counts as a win for Black in the match (:func:`knockout_points` picks between them). The team
league's match points and ranking chain live in :mod:`knockout.scoring.league`.

The ``round-robin`` system scores a draw by its length in moves (回合, a move by each side) and by
the attacking material left on the board (:class:`MaterialDraws`); its games need
:class:`GameDetails`, which :meth:`GameDetails.from_position` computes from a game's final position
(a FEN, as a replayed record gives it: the corpus of real games, self-play files, a user's PGN), and
whose hand-typed totals :func:`check_attacking_material` refuses when no position has them.
Custom systems are built from a table (a scenario's ``[scoring.custom]``) by
:func:`scoring_from_dict`, which validates every value and reports every problem at once.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal

from knockout.game import Colour, Result

__all__ = [
    "ATTACKING_VALUES",
    "DIFFERENCE",
    "GENERAL_TIEBREAK",
    "KNOCKOUT",
    "KNOCKOUT_SUDDEN_DEATH",
    "LEAGUE_BOARD",
    "LEAGUE_CAPTAIN",
    "RATIO",
    "RATIO_COMPUTED",
    "ROUND_ROBIN",
    "SCORING",
    "THREE_ONE_ZERO",
    "TIEBREAK_CODES",
    "TRADITIONAL",
    "GameDetails",
    "MaterialDraws",
    "ScoringSystem",
    "attacking_material",
    "attacking_material_of_position",
    "canonical_tiebreak",
    "check_attacking_material",
    "format_points",
    "get_scoring",
    "knockout_points",
    "possible_attacking_material",
]

D = Decimal

#: Value of each attacking piece (攻击性子力) in the round-robin draw rule (seed 001, 二.4).
ATTACKING_VALUES: Mapping[str, Decimal] = {
    "rook": D(5),
    "horse": D("2.5"),
    "cannon": D("2.5"),
    "crossed_pawn": D(1),
}


def attacking_material(
    *, rooks: int = 0, horses: int = 0, cannons: int = 0, crossed_pawns: int = 0
) -> Decimal:
    """Total attacking material of one side: Rook 5, Horse 2.5, Cannon 2.5, a crossed Pawn 1.

    Advisors, Elephants and Pawns that have not crossed the river count nothing.

    >>> attacking_material(rooks=1, cannons=1, crossed_pawns=2)
    Decimal('9.5')
    """
    counts = {"rook": rooks, "horse": horses, "cannon": cannons, "crossed_pawn": crossed_pawns}
    if any(n < 0 for n in counts.values()):
        raise ValueError(f"piece counts cannot be negative: {counts}")
    return sum((ATTACKING_VALUES[k] * n for k, n in counts.items()), D(0))


#: Most attacking pieces one side can have: its two rooks, two horses, two cannons, five pawns.
_MOST = {"rook": 2, "horse": 2, "cannon": 2, "crossed_pawn": 5}

#: The FEN letter of each attacking piece (Red's in upper case; Fairy-Stockfish's xiangqi letters,
#: which the corpus's final positions use: n horse, c cannon, p pawn).
_FEN_LETTERS = {"r": "rook", "n": "horse", "h": "horse", "c": "cannon"}


def possible_attacking_material() -> frozenset[Decimal]:
    """Every total one side's attacking material can have in some position: Rook 5 (at most two),
    Horse and Cannon 2.5 (at most two of each), a crossed Pawn 1 (at most five).

    >>> totals = possible_attacking_material()
    >>> len(totals), min(totals), max(totals), D("0.5") in totals, D("3.5") in totals
    (47, Decimal('0.0'), Decimal('25.0'), False, True)
    """
    return frozenset(
        attacking_material(rooks=r, horses=h, cannons=0, crossed_pawns=p)
        for r in range(_MOST["rook"] + 1)
        for h in range(_MOST["horse"] + _MOST["cannon"] + 1)
        for p in range(_MOST["crossed_pawn"] + 1)
    )


def check_attacking_material(total: Decimal) -> None:
    """Refuse a total of attacking material that no position can have.

    A side's total is ``5 r + 2.5 m + p`` with at most 2 rooks, 4 horses and cannons together and
    5 crossed pawns, so 0.5, 26 and 3.7 are typing mistakes, not positions.

    Raises:
        ValueError: If no position gives one side ``total``; the message names the nearest totals
            that are possible.

    >>> check_attacking_material(D("7.5"))
    >>> check_attacking_material(D("0.5"))
    Traceback (most recent call last):
    ...
    ValueError: no position has attacking material 0.5: the nearest possible totals are 0 and 1
    """
    totals = possible_attacking_material()
    if total in totals:
        return
    below = max((t for t in totals if t < total), default=None)
    above = min((t for t in totals if t > total), default=None)
    nearest = " and ".join(f"{t.normalize():f}" for t in (below, above) if t is not None)
    raise ValueError(
        f"no position has attacking material {total.normalize():f}: the nearest possible "
        f"{'totals are' if ' and ' in nearest else 'total is'} {nearest}"
    )


def attacking_material_of_position(fen: str) -> tuple[Decimal, Decimal]:
    """``(Red's, Black's)`` attacking material in the position ``fen`` (a Xiangqi FEN, Red in
    upper case, rank 10 first): rooks, horses and cannons wherever they stand, and each pawn that
    has crossed the river (a Red pawn on ranks 6-10, a Black pawn on ranks 1-5).

    Raises:
        ValueError: If the board part of ``fen`` is not ten ranks of nine squares.

    The position after 1. 炮二平五 炮８平５ 2. 炮五進四 士４進５ 3. 炮五退二 (Red's cannon took
    the central pawn: both sides keep 2 rooks, 2 horses, 2 cannons; no pawn has crossed):

    >>> attacking_material_of_position(
    ...     "rnbak1bnr/4a4/1c2c4/p1p3p1p/9/4C4/P1P1P1P1P/1C7/9/RNBAKABNR b - - 1 3")
    (Decimal('20.0'), Decimal('20.0'))
    >>> attacking_material_of_position("3k5/9/9/4P4/9/9/9/9/2p6/3K5 w - - 0 1")
    (Decimal('1.0'), Decimal('1.0'))
    """
    ranks = fen.split(maxsplit=1)[0].split("/") if fen.strip() else []
    counts = {side: dict.fromkeys(_MOST, 0) for side in ("red", "black")}
    problem = len(ranks) != 10
    for row, text in enumerate(ranks):
        width = 0
        for char in text:
            if char.isdigit():
                width += int(char)
                continue
            width += 1
            side = "red" if char.isupper() else "black"
            kind = _FEN_LETTERS.get(char.lower())
            if kind is not None:
                counts[side][kind] += 1
            elif char.lower() == "p" and (row < 5) == (side == "red"):
                counts[side]["crossed_pawn"] += 1
        problem = problem or width != 9
    if problem:
        raise ValueError(f"expected a Xiangqi FEN (10 ranks of 9 squares), got {fen!r}")
    red, black = (
        attacking_material(
            rooks=c["rook"], horses=c["horse"], cannons=c["cannon"], crossed_pawns=c["crossed_pawn"]
        )
        for c in (counts["red"], counts["black"])
    )
    return red, black


@dataclass(frozen=True)
class GameDetails:
    """What a draw rule may need to know about a game besides its result.

    Attributes:
        moves: Length of the game in moves (回合: one move by each side).
        attack_red: Red's attacking material at the end (see :func:`attacking_material`).
        attack_black: Black's attacking material at the end.
    """

    moves: int | None = None
    attack_red: Decimal | None = None
    attack_black: Decimal | None = None

    @classmethod
    def from_position(cls, moves: int, fen: str) -> GameDetails:
        """The details of a game of ``moves`` moves that ended in the position ``fen``: the one
        way a record's draw is scored (:func:`attacking_material_of_position`).

        >>> GameDetails.from_position(75, "3k5/9/9/4P4/9/9/9/9/2p6/3K5 w - - 0 1")
        GameDetails(moves=75, attack_red=Decimal('1.0'), attack_black=Decimal('1.0'))
        """
        red, black = attacking_material_of_position(fen)
        return cls(moves, red, black)


NO_DETAILS = GameDetails()


@dataclass(frozen=True)
class MaterialDraws:
    """The round-robin draw rule (seed 001, 二.4): a draw scored by its length and final material.

    * at most ``short_moves`` moves: Red ``short[0]``, Black ``short[1]``;
    * at most ``long_moves`` moves: Red ``medium[0]``, Black ``medium[1]``;
    * longer, by attacking material: neither side has any, ``bare`` each; only one side has some,
      that side ``stronger`` and the other ``bare``; both have some but unequal totals, the larger
      ``stronger`` and the smaller ``weaker``; equal totals, ``stronger`` each.
    """

    short_moves: int = 30
    short: tuple[Decimal, Decimal] = (Decimal("0.1"), Decimal("0.2"))
    long_moves: int = 60
    medium: tuple[Decimal, Decimal] = (Decimal("0.3"), Decimal("0.4"))
    bare: Decimal = Decimal("0.5")
    stronger: Decimal = Decimal("0.9")
    weaker: Decimal = Decimal("0.7")

    def points(self, details: GameDetails) -> tuple[Decimal, Decimal]:
        """``(Red's points, Black's points)`` for a draw with ``details``.

        Raises:
            ValueError: If the number of moves is missing, or the material is missing for a
                draw longer than ``long_moves``.

        >>> MaterialDraws().points(GameDetails(moves=75, attack_red=D(5), attack_black=D(0)))
        (Decimal('0.9'), Decimal('0.5'))
        """
        if details.moves is None:
            raise ValueError("a draw under this rule needs its number of moves")
        if details.moves <= self.short_moves:
            return self.short
        if details.moves <= self.long_moves:
            return self.medium
        red, black = details.attack_red, details.attack_black
        if red is None or black is None:
            raise ValueError(
                f"a draw of more than {self.long_moves} moves needs both sides' attacking material"
            )
        if red == black:
            return (self.bare, self.bare) if red == 0 else (self.stronger, self.stronger)
        low = self.bare if min(red, black) == 0 else self.weaker
        return (self.stronger, low) if red > black else (low, self.stronger)

    def values(self) -> tuple[Decimal, ...]:
        """Every number of points this rule can give."""
        return (*self.short, *self.medium, self.bare, self.stronger, self.weaker)


@dataclass(frozen=True)
class ScoringSystem:
    """Points for each player of a game, by the colour they played and the result.

    Attributes:
        name: Registry key.
        red_win: Points for a win with Red.
        black_win: Points for a win with Black.
        red_draw: Points for Red in a drawn game (unused when ``draw_rule`` is set).
        black_draw: Points for Black in a drawn game (unused when ``draw_rule`` is set).
        loss: Points for a loss (either colour).
        description: One line for listings.
        draw_rule: Scores draws from :class:`GameDetails` instead of ``red_draw``/``black_draw``.
    """

    name: str
    red_win: Decimal
    black_win: Decimal
    red_draw: Decimal
    black_draw: Decimal
    loss: Decimal = Decimal(0)
    description: str = ""
    draw_rule: MaterialDraws | None = field(default=None, kw_only=True)

    def points(self, result: Result, details: GameDetails = NO_DETAILS) -> tuple[Decimal, Decimal]:
        """``(Red's points, Black's points)`` for a game with ``result``.

        Raises:
            ValueError: If the system has a draw rule and ``details`` lack what it needs.

        >>> KNOCKOUT_SUDDEN_DEATH.points(Result.DRAW)
        (Decimal('1'), Decimal('1.5'))
        """
        if result is Result.RED:
            return self.red_win, self.loss
        if result is Result.BLACK:
            return self.loss, self.black_win
        if self.draw_rule is not None:
            return self.draw_rule.points(details)
        return self.red_draw, self.black_draw

    def points_for(
        self, colour: Colour, result: Result, details: GameDetails = NO_DETAILS
    ) -> Decimal:
        """Points of the player who had ``colour``."""
        red, black = self.points(result, details)
        return red if colour is Colour.RED else black

    @property
    def needs_details(self) -> bool:
        """Whether drawn games need :class:`GameDetails` (moves, material) to be scored."""
        return self.draw_rule is not None

    @property
    def decimals(self) -> int:
        """Decimal places needed to print any total exactly (``difference``: 1, ``ratio-computed``:
        2, ``traditional``: 0)."""
        values = [self.red_win, self.black_win, self.loss]
        if self.draw_rule is None:
            values += [self.red_draw, self.black_draw]
        else:
            values += self.draw_rule.values()
        return max(_places(v) for v in values)


def _places(value: Decimal) -> int:
    exponent = value.normalize().as_tuple().exponent
    assert isinstance(exponent, int)  # finite by construction
    return max(0, -exponent)


def format_points(value: Decimal, places: int) -> str:
    """``value`` with exactly ``places`` decimals, as the seed prints totals (``16.0``, ``99.9``).

    >>> format_points(Decimal("16"), 1), format_points(Decimal("15.9"), 0)
    ('16.0', '16')
    """
    return f"{value.quantize(D(1).scaleb(-places), rounding=ROUND_HALF_UP):f}"


TRADITIONAL = ScoringSystem(
    "traditional",
    D(2),
    D(2),
    D(1),
    D(1),
    description="seed 000, traditional: win 2, draw 1, loss 0, no colour distinction",
)
DIFFERENCE = ScoringSystem(
    "difference",
    D("1.9"),
    D("2.1"),
    D(1),
    D(1),
    description="seed 000, difference method (差额法): Red win 1.9, Black win 2.1, draw 1",
)
RATIO = ScoringSystem(
    "ratio",
    D("1.7"),
    D("2.3"),
    D(1),
    D(1),
    description="seed 000, ratio method (比值法) as adopted: Red win 1.7, Black win 2.3, draw 1",
)
RATIO_COMPUTED = ScoringSystem(
    "ratio-computed",
    D("1.63"),
    D("2.37"),
    D(1),
    D(1),
    description="seed 000, ratio method as computed (1.45 : 1): Red win 1.63, Black win 2.37",
)
THREE_ONE_ZERO = ScoringSystem(
    "3-1-0",
    D(3),
    D(3),
    D(1),
    D(1),
    description="win 3, draw 1, loss 0 (the 310 system)",
)
KNOCKOUT = ScoringSystem(
    "knockout",
    D(3),
    D(3),
    D(1),
    D(1),
    description="knockout per-game points (seed 001, 三.5): win 3, draw 1 each, loss 0",
)
KNOCKOUT_SUDDEN_DEATH = ScoringSystem(
    "knockout-sudden-death",
    D(3),
    D(3),
    D(1),
    D("1.5"),
    description="sudden-death game (seed 001, 三.5): win 3, draw Black 1.5 / Red 1, loss 0",
)
ROUND_ROBIN = ScoringSystem(
    "round-robin",
    D(3),
    D(3),
    D(0),
    D(0),
    description="individual round robin (seed 001, 二): win 3, loss 0, "
    "draws 0.1-0.9 by moves and attacking material",
    draw_rule=MaterialDraws(),
)
LEAGUE_CAPTAIN = ScoringSystem(
    "league-captain",
    D(5),
    D(5),
    D(2),
    D(3),
    description="team league, captains' board (seed 001, 一.5): win 5, draw Black 3 / Red 2",
)
LEAGUE_BOARD = ScoringSystem(
    "league-board",
    D(3),
    D(3),
    D(1),
    D("1.5"),
    description="team league, boards 2-4 (seed 001, 一.5): win 3, draw Black 1.5 / Red 1",
)

SCORING: Mapping[str, ScoringSystem] = {
    s.name: s
    for s in (
        TRADITIONAL,
        DIFFERENCE,
        RATIO,
        RATIO_COMPUTED,
        THREE_ONE_ZERO,
        KNOCKOUT,
        KNOCKOUT_SUDDEN_DEATH,
        ROUND_ROBIN,
        LEAGUE_CAPTAIN,
        LEAGUE_BOARD,
    )
}


def get_scoring(name: str) -> ScoringSystem:
    """The scoring system called ``name``.

    Raises:
        ValueError: For an unknown name.
    """
    try:
        return SCORING[name]
    except KeyError:
        known = ", ".join(SCORING)
        raise ValueError(f"unknown scoring system: {name!r} (known: {known})") from None


def knockout_points(result: Result, *, draw_winner: Colour | None) -> tuple[Decimal, Decimal]:
    """Knockout per-game points ``(Red, Black)``.

    In a game whose draw decides the match (``draw_winner``: the sudden-death game), a draw gives
    the colour that advances 1.5 and the other 1; otherwise a draw gives 1 each.
    """
    if draw_winner is Colour.RED and result is Result.DRAW:
        black, red = KNOCKOUT_SUDDEN_DEATH.points(result)
        return red, black
    system = KNOCKOUT if draw_winner is None else KNOCKOUT_SUDDEN_DEATH
    return system.points(result)


# --- tie-break codes: the vocabulary (the functions are in knockout.standings.tiebreaks) -----

#: The fixed tie-break codes, in the order the help lists them.
TIEBREAK_CODES: tuple[str, ...] = (
    "DE", "BH", "BH-C1", "BH-M1", "SB", "SB-C1", "PS", "WIN", "WON", "BWG", "BPG", "RWG", "BDG",
    "RDG", "lots",
)  # fmt: skip
#: The codes built for any k: BH-Ck, BH-Mk, SB-Ck, SB-Mk and PS-Ck.
GENERAL_TIEBREAK = re.compile(r"(BH|SB)-([CM])([1-9][0-9]?)|PS-C([1-9][0-9]?)")


def canonical_tiebreak(code: str) -> str:
    """The tie-break code as the registry spells it (case-insensitive input).

    >>> canonical_tiebreak(" bh-c2 ")
    'BH-C2'

    Raises:
        ValueError: For an unknown code.
    """
    wanted = code.strip()
    canonical = "lots" if wanted.lower() == "lots" else wanted.upper()
    if canonical in TIEBREAK_CODES or GENERAL_TIEBREAK.fullmatch(canonical):
        return canonical
    known = ", ".join([*TIEBREAK_CODES, "BH-Ck", "BH-Mk", "SB-Ck", "SB-Mk", "PS-Ck"])
    raise ValueError(f"unknown tie-break: {code!r} (known: {known})")
