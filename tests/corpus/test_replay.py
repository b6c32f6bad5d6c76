"""Records replayed by the rules library: hand-checked games, repairs, broken records."""

from __future__ import annotations

from decimal import Decimal

import pyffish

from knockout.corpus.board import START_FEN, Board, uci
from knockout.corpus.notation import parse_move
from knockout.corpus.replay import candidates, leaps, replay, replay_uci
from knockout.points import GameDetails, attacking_material_of_position

D = Decimal

# 董旭彬 v 呂欽, 2005-02-21, 2004-2005 "奇聲電子杯" 象棋超級排位賽, 0-1 (the archive's
# 大師對局/以棋手分類/呂欽/00003980.pgn). Red's rook takes the pawn on g6 at move 9.
DONG_LU = (  # noqa: SIM905 (the record as printed)
    "炮二平五 馬８進７ 馬二進三 車９平８ 車一平二 馬２進３ 兵七進一 卒７進１ 車二進六 "
    "炮８平９ 車二平三 炮９退１ 馬八進七 車１進１ 炮八平九 車１平６ 車三退一 炮２平１ "
    "車九平八 炮９平７ 車三平六 馬７進８"
).split(" ")

# The final board, worked out by hand move by move (rank 10 at the top, files a-i from left;
# upper case Red): the black rook from a10 went a9, f9; the one from i10 to h10; Black's cannon
# from b8 to a8, the one from h8 to i8, i9, g9; Red's rook from i1 went h1, h7, g7, g6 (taking
# the pawn), d6; the one from a1 to b1.
#
#   10  . . b a k a b r .
#    9  . . . . . r c . .
#    8  c . n . . . . . .
#    7  p . p . p . . . p
#    6  . . . R . . . n .
#    5  . . P . . . . . .
#    4  P . . . P . P . P
#    3  C . N . C . N . .
#    2  . . . . . . . . .
#    1  . R B A K A B . .
#       a b c d e f g h i
DONG_LU_BOARD = "2bakabr1/5rc2/c1n6/p1p1p3p/3R3n1/2P6/P3P1P1P/C1N1C1N2/9/1RBAKAB2"


def test_a_hand_checked_game() -> None:
    game = replay([parse_move(m) for m in DONG_LU])
    assert game.record == "complete"
    assert game.moves == 11  # 22 half-moves: Red's count
    assert game.final_fen.split()[:2] == [DONG_LU_BOARD, "w"]
    # Both sides keep two rooks, horses and cannons; Red's c-pawn stands on rank 5, not across.
    assert attacking_material_of_position(game.final_fen) == (D(20), D(20))
    assert GameDetails.from_position(game.moves, game.final_fen) == GameDetails(11, D(20), D(20))


def test_the_library_agrees_with_the_board_move_by_move() -> None:
    """The board the reader keeps and the library's position, compared after every move."""
    board = Board.from_fen(START_FEN)
    played: list[str] = []
    for text in DONG_LU:
        move = parse_move(text)
        assert move is not None
        (fit,) = candidates(board, move)
        board.play(*fit)
        played.append(uci(*fit))
        fen = pyffish.get_fen("xiangqi", START_FEN, played)
        assert Board.from_fen(fen).squares == board.squares


def test_leaps_come_from_the_library() -> None:
    assert sorted(leaps()["n"]) == sorted(
        [(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)]
    )
    assert sorted(leaps()["a"]) == [(-1, -1), (-1, 1), (1, -1), (1, 1)]


def test_a_move_written_without_front_or_rear_is_repaired_by_legality() -> None:
    """Red's rooks go i1-i2-f2-f3 and a1-a2-f2: two rooks on file 4 (f3 in front, f2 behind).
    "車四進五" (without 前) fits both; the rear one would pass through the front one, so only
    f3-f8 is legal: it is taken and counted as a repair."""
    moves = (  # noqa: SIM905 (the record as printed)
        "車一進一 卒７進１ 車一平四 卒３進１ 車四進一 卒１進１ 車九進一 卒９進１ 車九平四 "
        "馬２進３ 車四進五"
    ).split(" ")
    game = replay([parse_move(m) for m in moves])
    assert game.record == "complete"
    assert game.repairs == 1
    assert game.uci[-1] == "f3f8"
    with_marker = replay([parse_move(m) for m in [*moves[:-1], "前車進五"]])
    assert (with_marker.repairs, with_marker.final_fen) == (0, game.final_fen)


def test_broken_records_keep_where_they_broke() -> None:
    # No piece fits: Red has no horse on file 4.
    game = replay([parse_move(m) for m in ["炮二平五", "馬８進７", "馬四進五"]])
    assert (game.record, game.reason, game.moves) == ("broken at move 2", "no piece fits", 2)
    assert game.final_fen.startswith("rnbakab1r/9/1c4nc1")
    # A rook that would jump over a piece: the library refuses it.
    game = replay([parse_move(m) for m in ["車一進三"]])
    assert (game.record, game.reason) == ("broken at move 1", "illegal")
    assert game.final_fen == START_FEN
    # Text that is no move.
    game = replay([parse_move("炮二平五"), None])
    assert (game.record, game.reason, game.broken_at) == ("broken at move 1", "unreadable", 1)
    # No moves at all.
    assert replay([]).record == "no moves"


def test_an_illegal_move_found_after_later_moves_were_read() -> None:
    """The reader takes moves it cannot check one by one; the library's check of the whole game
    finds the first illegal one even when later moves fit the board."""
    moves = ["車一進三", "馬８進７", "兵三進一"]
    game = replay([parse_move(m) for m in moves])
    assert (game.broken_at, game.reason) == (0, "illegal")


def test_self_play_moves_replay_the_same_way() -> None:
    game = replay([parse_move(m) for m in DONG_LU])
    again = replay_uci(list(game.uci))
    assert (again.record, again.moves, again.final_fen) == (game.record, game.moves, game.final_fen)
    assert replay_uci(["h3e3", "h8e8", "a1a5"]).reason == "illegal"
