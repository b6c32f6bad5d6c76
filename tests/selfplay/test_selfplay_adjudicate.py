"""The referee on known positions, built with the rules library (pyffish): each ending once, with
the side it goes to, and the thresholds of score and move cap."""

from __future__ import annotations

import pytest

pytest.importorskip("pyffish", reason="pip install 'knockout[selfplay]' for the rules library")

from knockout.errors import KnockoutError
from knockout.selfplay.adjudicate import START_FEN, Adjudication, Ending, Reason, Referee, replay

RULES_ONLY = Adjudication(resign_plies=0, max_plies=1000)


def play(
    fen: str, moves: list[str], adjudication: Adjudication = RULES_ONLY
) -> tuple[Ending | None, int]:
    """Push ``moves`` from ``fen``; the first ending and the half-moves played to it."""
    referee = Referee(adjudication, fen)
    for move in moves:
        ending = referee.push(move)
        if ending is not None:
            return ending, len(referee.moves)
    return None, len(referee.moves)


def test_checkmate_loses_for_the_side_to_move() -> None:
    # Black's king on d10: a rook on b9 holds rank 9, the other rook mates along rank 10.
    fen = "3k5/1R7/9/9/9/9/9/9/9/R3K4 w - - 0 1"
    assert play(fen, ["a1a10"]) == (Ending("red", Reason.CHECKMATE), 1)


def test_stalemate_loses_for_the_side_to_move() -> None:
    # The king on d10 is not in check, but d9 (rank 9) and e10 (the e-file) are both attacked.
    fen = "3k5/1R7/9/9/9/7R1/9/9/9/5K3 w - - 0 1"
    referee = Referee(RULES_ONLY, fen)
    ending = referee.push("h5e5")
    assert ending == Ending("red", Reason.STALEMATE)
    assert referee.legal() == []


def test_perpetual_check_loses_for_the_side_that_checks() -> None:
    # Red's rook checks the king on every move, d10 -> d9 -> d10: the third time round, Red loses.
    fen = "R2k5/9/9/9/9/9/9/9/9/4K4 b - - 0 1"
    cycle = ["d10d9", "a10a9", "d9d10", "a9a10"]
    assert play(fen, cycle * 3) == (Ending("black", Reason.PERPETUAL_CHECK), 8)


def test_perpetual_chase_of_an_unprotected_piece_loses_for_the_chaser() -> None:
    # Red's rook attacks Black's unprotected horse on every move (a5 v b5, a1 v a7); the horse
    # never attacks the rook. Fairy-Stockfish's chasing rule gives the game to Black.
    fen = "5k3/9/9/9/9/1n7/9/9/9/R2K5 w - - 0 1"
    cycle = ["a1a5", "b5a7", "a5a1", "a7b5"]
    assert play(fen, cycle * 3) == (Ending("black", Reason.PERPETUAL_CHASE), 8)


def test_repetition_without_check_or_chase_is_a_draw() -> None:
    fen = "4k4/9/9/9/9/9/9/9/R8/5K3 w - - 0 1"
    cycle = ["a2a3", "e10d10", "a3a2", "d10e10"]
    assert play(fen, cycle * 3) == (Ending("draw", Reason.REPETITION), 8)


def test_a_capture_that_leaves_no_mating_material_is_a_draw() -> None:
    # Red's king takes the last soldier: king and advisor against king and elephant.
    fen = "2bk5/9/9/9/9/9/9/9/4p4/4KA3 w - - 0 1"
    assert play(fen, ["e1e2"]) == (Ending("draw", Reason.MATERIAL), 1)


def test_a_cannon_left_is_not_a_material_draw() -> None:
    fen = "2bk5/9/9/9/9/9/9/9/4p4/4KC3 w - - 0 1"
    assert play(fen, ["e1e2"]) == (None, 1)


def test_the_chinese_move_rule_is_the_default_and_draws_at_60_moves() -> None:
    """自然限着: 60 moves of each side (120 half-moves) without a capture draw; at 100
    half-moves (the library's own 50-move rule) the game goes on."""
    assert RULES_ONLY.move_rule == 60
    fen = "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 119 80"
    assert play(fen, ["a1a2"]) == (Ending("draw", Reason.MOVE_RULE_60), 1)
    assert play(fen.replace(" 119 ", " 99 "), ["a1a2"]) == (None, 1)
    assert play(fen.replace(" 119 ", " 110 "), ["a1a2"]) == (None, 1)


def test_the_librarys_move_rule_draws_at_50_moves() -> None:
    # 99 half-moves without a capture already (the FEN's counter); one more quiet move is 100.
    fifty = Adjudication(resign_plies=0, max_plies=1000, move_rule=50)
    fen = "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 99 80"
    assert play(fen, ["a1a2"], fifty) == (Ending("draw", Reason.MOVE_RULE_50), 1)
    assert play(fen.replace(" 99 ", " 90 "), ["a1a2"], fifty) == (None, 1)


def test_the_move_rule_counts_the_quiet_moves_played() -> None:
    """Fifty moves each already quiet (the FEN's counter, 100): the library's rule draws at the
    first quiet move; the Chinese rule lets twenty more half-moves be played (a rook walking up
    a file, the black king stepping d10-d9 and back, no position repeated) and draws at the
    120th."""
    fen = "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 100 80"
    red = ["a1a2", "a2a3", "a3a4", "a4a5", "a5a6", "a6a7", "a7a8", "a8b8", "b8b7", "b7b6"]
    black = ["d10d9", "d9d10"] * 5
    moves = [m for pair in zip(red, black, strict=True) for m in pair]
    fifty = Adjudication(resign_plies=0, max_plies=1000, move_rule=50)
    assert play(fen, moves, fifty) == (Ending("draw", Reason.MOVE_RULE_50), 1)
    assert play(fen, moves) == (Ending("draw", Reason.MOVE_RULE_60), 20)
    assert play(fen, moves[:19]) == (None, 19)


def test_an_unknown_move_rule_is_refused() -> None:
    with pytest.raises(KnockoutError, match="expected a move rule of 60 or 50 moves, got 40"):
        Adjudication(move_rule=40)


def test_score_held_for_the_plies_adjudicates_the_game() -> None:
    referee = Referee(Adjudication(resign_cp=500, resign_plies=4, max_plies=400))
    moves = ["h3e3", "h10g8", "h1g3", "i10h10", "i1h1", "b10c8"]
    # mover's scores: Red +600, Black -600 (= Red +600), ...: held for 4 plies from ply 3
    scores = [0, 0, 600, -600, 600, -600]
    endings = [referee.push(m, s) for m, s in zip(moves, scores, strict=True)]
    assert endings[:5] == [None] * 5
    assert endings[5] == Ending("red", Reason.SCORE)


def test_a_score_that_wavers_does_not_adjudicate() -> None:
    referee = Referee(Adjudication(resign_cp=500, resign_plies=4, max_plies=400))
    moves = ["h3e3", "h10g8", "h1g3", "i10h10", "i1h1", "b10c8"]
    scores = [600, -600, 600, -400, 600, -600]
    assert [referee.push(m, s) for m, s in zip(moves, scores, strict=True)] == [None] * 6


def test_black_ahead_by_both_engines_wins_on_score() -> None:
    referee = Referee(Adjudication(resign_cp=500, resign_plies=2, max_plies=400))
    assert referee.push("h3e3", -700) is None
    assert referee.push("h10g8", 700) == Ending("black", Reason.SCORE)


def test_move_cap_is_a_draw() -> None:
    moves = ["h3e3", "h10g8", "h1g3", "i10h10"]
    assert play(START_FEN, moves, Adjudication(max_plies=4, resign_plies=0)) == (
        Ending("draw", Reason.MOVE_CAP),
        4,
    )


def test_an_illegal_move_loses_for_the_mover() -> None:
    referee = Referee(RULES_ONLY)
    assert referee.push("h3e3") is None
    assert referee.push("a1a5") == Ending("red", Reason.ILLEGAL_MOVE)  # Black moving Red's rook


def test_replay_finds_the_rules_end_at_the_last_move() -> None:
    fen = "R2k5/9/9/9/9/9/9/9/9/4K4 b - - 0 1"
    cycle = ["d10d9", "a10a9", "d9d10", "a9a10"]
    assert replay(cycle * 2, RULES_ONLY, fen) == (Ending("black", Reason.PERPETUAL_CHECK), 8)
    assert replay(["h3e3"], RULES_ONLY) == (None, 1)


def test_not_a_position_is_refused() -> None:
    with pytest.raises(KnockoutError, match="not a Xiangqi position"):
        Referee(RULES_ONLY, "8/8/8/8/8/8/8/8 w - - 0 1")


def test_thresholds_are_checked() -> None:
    with pytest.raises(KnockoutError, match="adjudication"):
        Adjudication(resign_cp=0)
