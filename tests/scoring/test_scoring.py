"""The scoring registry: seed 000's methods and derivation, seed 001's systems, custom ones."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

import pytest

from knockout.errors import InputError
from knockout.game import Colour, Result
from knockout.points import (
    DIFFERENCE,
    KNOCKOUT,
    KNOCKOUT_SUDDEN_DEATH,
    RATIO,
    RATIO_COMPUTED,
    ROUND_ROBIN,
    SCORING,
    TRADITIONAL,
    GameDetails,
    ScoringSystem,
    attacking_material,
    attacking_material_of_position,
    check_attacking_material,
    format_points,
    get_scoring,
    knockout_points,
    possible_attacking_material,
)
from knockout.scoring.files import read_scoring_file, scoring_from_dict

D = Decimal


@pytest.mark.parametrize(
    ("name", "red_win", "black_win", "red_draw", "black_draw"),
    [
        ("traditional", "2", "2", "1", "1"),
        ("difference", "1.9", "2.1", "1", "1"),
        ("ratio", "1.7", "2.3", "1", "1"),
        ("ratio-computed", "1.63", "2.37", "1", "1"),
        ("3-1-0", "3", "3", "1", "1"),
        ("knockout", "3", "3", "1", "1"),
        ("knockout-sudden-death", "3", "3", "1", "1.5"),
        ("league-captain", "5", "5", "2", "3"),
        ("league-board", "3", "3", "1", "1.5"),
    ],
)
def test_registry_points(
    name: str, red_win: str, black_win: str, red_draw: str, black_draw: str
) -> None:
    system = get_scoring(name)
    assert system.name == name
    assert system.points(Result.RED) == (D(red_win), D(0))
    assert system.points(Result.BLACK) == (D(0), D(black_win))
    assert system.points(Result.DRAW) == (D(red_draw), D(black_draw))
    assert system.points_for(Colour.BLACK, Result.RED) == system.loss == 0


def test_every_system_is_registered_once_and_described() -> None:
    assert len(SCORING) == 10
    assert all(s.description for s in SCORING.values())
    assert [s.name for s in SCORING.values()] == list(SCORING)


def test_unknown_scoring_system() -> None:
    with pytest.raises(ValueError, match=r"unknown scoring system: 'nope' \(known: traditional"):
        get_scoring("nope")


def test_knockout_points_unchanged() -> None:
    assert knockout_points(Result.DRAW, draw_winner=None) == (D(1), D(1))
    assert knockout_points(Result.DRAW, draw_winner=Colour.BLACK) == (D(1), D("1.5"))
    assert knockout_points(Result.DRAW, draw_winner=Colour.RED) == (D("1.5"), D(1))
    assert knockout_points(Result.RED, draw_winner=Colour.BLACK) == (D(3), D(0))
    assert KNOCKOUT.points(Result.BLACK) == (D(0), D(3))
    assert KNOCKOUT_SUDDEN_DEATH.points_for(Colour.BLACK, Result.DRAW) == D("1.5")


def test_seed000_derivation_of_the_methods() -> None:
    """Seed 000, 四.4: 32.10 % - 22.17 % = 9.93 % ~ 10 %, and 32.10 / 22.17 = 1.45."""
    red, black = D("32.10"), D("22.17")
    assert red - black == D("9.93")
    # Difference method: y - x = 10 % of a game's 2 points, x + y = 4 (two games, both colours).
    gap = D(2) * (red - black).quantize(D(1)) / 100
    x, y = (D(4) - gap) / 2, (D(4) + gap) / 2
    assert (x, y) == (DIFFERENCE.red_win, DIFFERENCE.black_win)
    # Ratio method: b = 1.45 a, a + b = 4.
    ratio = (red / black).quantize(D("0.01"), rounding=ROUND_HALF_UP)
    assert ratio == D("1.45")
    a = (D(4) / (1 + ratio)).quantize(D("0.01"), rounding=ROUND_HALF_UP)
    assert (a, D(4) - a) == (RATIO_COMPUTED.red_win, RATIO_COMPUTED.black_win)
    # Every method keeps a pair of games (one win with each colour) at 4 points.
    for system in (TRADITIONAL, DIFFERENCE, RATIO, RATIO_COMPUTED):
        assert system.red_win + system.black_win == 4


@pytest.mark.parametrize(
    ("system", "six_red_wins", "six_black_wins", "gap"),
    [(DIFFERENCE, "16.4", "17.6", "1.2"), (RATIO, "15.2", "18.8", "3.6")],
)
def test_seed000_extreme_cases(
    system: ScoringSystem, six_red_wins: str, six_black_wins: str, gap: str
) -> None:
    """Seed 000, 四.4.3: 11 rounds, six wins with one colour and five draws with the other."""
    reds = 6 * system.points_for(Colour.RED, Result.RED) + 5 * system.points_for(
        Colour.BLACK, Result.DRAW
    )
    blacks = 6 * system.points_for(Colour.BLACK, Result.BLACK) + 5 * system.points_for(
        Colour.RED, Result.DRAW
    )
    assert (str(reds), str(blacks), str(blacks - reds)) == (six_red_wins, six_black_wins, gap)


@pytest.mark.parametrize(
    ("moves", "attack_red", "attack_black", "expected"),
    [
        (1, None, None, ("0.1", "0.2")),
        (30, None, None, ("0.1", "0.2")),
        (31, None, None, ("0.3", "0.4")),
        (60, "5", "5", ("0.3", "0.4")),
        (61, "0", "0", ("0.5", "0.5")),  # A: neither side has attacking material
        (80, "2.5", "0", ("0.9", "0.5")),  # B: only Red has some
        (80, "0", "1", ("0.5", "0.9")),  # B: only Black has some
        (80, "7.5", "5", ("0.9", "0.7")),  # C: both, Red more
        (80, "5", "10", ("0.7", "0.9")),  # C: both, Black more
        (120, "5", "5", ("0.9", "0.9")),  # D: equal totals
    ],
)
def test_round_robin_draws(
    moves: int, attack_red: str | None, attack_black: str | None, expected: tuple[str, str]
) -> None:
    details = GameDetails(
        moves,
        None if attack_red is None else D(attack_red),
        None if attack_black is None else D(attack_black),
    )
    assert ROUND_ROBIN.points(Result.DRAW, details) == (D(expected[0]), D(expected[1]))
    assert ROUND_ROBIN.points(Result.RED, details) == (D(3), D(0))


def test_round_robin_needs_details() -> None:
    assert ROUND_ROBIN.needs_details and not DIFFERENCE.needs_details
    with pytest.raises(ValueError, match="number of moves"):
        ROUND_ROBIN.points(Result.DRAW)
    with pytest.raises(ValueError, match="attacking material"):
        ROUND_ROBIN.points(Result.DRAW, GameDetails(moves=61, attack_red=D(5)))
    assert ROUND_ROBIN.points(Result.BLACK) == (D(0), D(3))  # wins need nothing


def test_attacking_material() -> None:
    assert attacking_material() == 0
    assert attacking_material(rooks=2, horses=2, cannons=2, crossed_pawns=5) == D(25)
    with pytest.raises(ValueError, match="negative"):
        attacking_material(rooks=-1)


def test_possible_material_by_brute_force() -> None:
    """Every total from every count of rooks, horses, cannons and crossed pawns one side can have,
    piece by piece, is the set :func:`possible_attacking_material` gives, and nothing else passes
    the check."""
    brute = {
        D(5) * r + D("2.5") * h + D("2.5") * c + p
        for r in range(3)
        for h in range(3)
        for c in range(3)
        for p in range(6)
    }
    assert possible_attacking_material() == brute
    for tenths in range(0, 271):
        total = D(tenths) / 10
        if total in brute:
            check_attacking_material(total)
        else:
            with pytest.raises(ValueError, match="no position has attacking material"):
                check_attacking_material(total)


def test_material_of_a_position() -> None:
    """The board counted square by square: a Red pawn counts once it stands on rank 6 or higher
    (FEN rows 1-5), a Black pawn on rank 5 or lower; advisors, elephants and kings never count."""
    start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
    assert attacking_material_of_position(start) == (D(20), D(20))
    # Red: rook i1, horse e2, pawns across on e6 and a10; Black: rook e7, cannon c3, a pawn
    # across on e5 and one at home on c7.
    fen = "P2k5/9/9/2p1r4/4P4/4p4/9/2c6/4N4/3K4R w - - 0 1"
    assert attacking_material_of_position(fen) == (D(5) + D("2.5") + 2, D(5) + D("2.5") + 1)
    for bad in ("", "9/9/9", start.replace("RNBAKABNR", "RNBAKABN")):
        with pytest.raises(ValueError, match="expected a Xiangqi FEN"):
            attacking_material_of_position(bad)


def test_decimals_and_formatting() -> None:
    assert [get_scoring(n).decimals for n in ("traditional", "difference", "ratio-computed")] == [
        0,
        1,
        2,
    ]
    assert ROUND_ROBIN.decimals == 1
    assert format_points(D("16"), 1) == "16.0"
    assert format_points(D("99.90"), 1) == "99.9"
    assert format_points(D("100"), 0) == "100"
    assert format_points(D("0.05"), 1) == "0.1"


def test_custom_system_from_a_scenario_table() -> None:
    system = scoring_from_dict(
        {"red_win": 1.9, "black_win": "2.1", "red_draw": 1, "black_draw": D("1.0"), "loss": 0},
        name="mine",
    )
    assert system.name == "mine"
    assert system.points(Result.RED) == (D("1.9"), D(0))
    assert system.points(Result.BLACK) == (D(0), D("2.1"))
    # 0.1 + 0.2 in floats is 0.30000000000000004; these are exact.
    assert 6 * system.red_win + 5 * system.black_draw == D("16.4")


def test_custom_system_reports_every_problem() -> None:
    with pytest.raises(InputError) as caught:
        scoring_from_dict(
            {"red_win": "x", "black_win": True, "red_draw": -1, "extra": 1, "loss": float("nan")},
            source="s.toml",
        )
    assert sorted(caught.value.lines()) == sorted(
        [
            "s.toml: scoring.custom.extra: unknown key; expected one of: red_win, black_win, "
            "red_draw, black_draw, loss, description",
            "s.toml: scoring.custom.red_win: expected a number, got 'x'",
            "s.toml: scoring.custom.black_win: expected a number, got True",
            "s.toml: scoring.custom.red_draw: expected a number >= 0, got -1",
            "s.toml: scoring.custom.black_draw: required key is missing",
            "s.toml: scoring.custom.loss: expected a number, got nan",
        ]
    )


def test_custom_draw_must_lie_between_loss_and_win() -> None:
    with pytest.raises(InputError) as caught:
        scoring_from_dict(
            {"red_win": 1, "black_win": 2, "red_draw": 1.5, "black_draw": 0.5, "loss": 1}
        )
    assert [p.key for p in caught.value.problems] == [
        "scoring.custom.red_draw",
        "scoring.custom.black_draw",
    ]
    assert "at most red_win = 1, got 1.5" in caught.value.lines()[0]
    assert "at least the loss points 1, got 0.5" in caught.value.lines()[1]


def test_read_scoring_file(tmp_path: Path) -> None:
    path = tmp_path / "s.toml"
    path.write_text(
        "[scoring.half]\nred_win = 1\nblack_win = 1\nred_draw = 0.5\nblack_draw = 0.5\n"
        '[scoring.gentle]\nred_win = "1.8"\nblack_win = 2.2\nred_draw = 1\nblack_draw = 1\n',
        encoding="utf-8",
    )
    systems = read_scoring_file(path)
    assert list(systems) == ["half", "gentle"]
    assert systems["gentle"].points(Result.RED) == (D("1.8"), D(0))
    assert systems["half"].decimals == 1


def test_read_scoring_file_problems(tmp_path: Path) -> None:
    path = tmp_path / "s.toml"
    path.write_text("[scoring.ratio]\nred_win = 1\n[scoring.x]\nred_win = 1\n", encoding="utf-8")
    with pytest.raises(InputError) as caught:
        read_scoring_file(path)
    lines = caught.value.lines()
    assert lines[0] == f"{path}: scoring.ratio: shadows a built-in scoring system"
    assert f"{path}: scoring.x.black_win: required key is missing" in lines
    path.write_text("x = [", encoding="utf-8")
    with pytest.raises(InputError, match="not valid TOML"):
        read_scoring_file(path)
    path.write_text("[other]\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"\[scoring.NAME\]"):
        read_scoring_file(path)
