"""Seed 001's draw rule over a table, and a round robin's standings before and after, by hand."""

from __future__ import annotations

from decimal import Decimal

from knockout.corpus.board import START_FEN
from knockout.corpus.draws import draw_scoring, round_robins
from knockout.corpus.table import GameRow

D = Decimal
ROOK_ONLY = "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 71"  # Red a rook (5), Black nothing: case B


def _game(red: str, black: str, result: str, moves: int = 40, fen: str = START_FEN) -> GameRow:
    return GameRow(
        id=f"{red}{black}",
        event="測試循環賽 第1輪",
        round="1",
        date="2001-01-01",
        year=2001,
        red=red,
        black=black,
        red_team="",
        black_team="",
        result=result,
        time_class="unknown",
        moves=moves,
        final_fen=fen,
        record="complete",
        kind="master",
        sources=("x.pgn",),
    )


GAMES = [
    _game("A", "B", "1-0"),
    _game("A", "C", "1/2-1/2", 25),
    _game("A", "D", "0-1"),
    _game("B", "C", "1-0"),
    _game("B", "D", "1/2-1/2", 45),
    _game("C", "D", "1/2-1/2", 70, ROOK_ONLY),
]


def test_a_round_robin_before_and_after() -> None:
    """As played (2-1-0): A 2+1+0 = 3, B 0+2+1 = 3, C 1+0+1 = 2, D 2+1+1 = 4. Seed 001: A 3 (win)
    + 0.1 (Red's draw in 25 moves) = 3.1; B 3 + 0.3 (Red's draw in 45) = 3.3; C 0.2 (Black's draw in
    25) + 0.9 (Red's 70-move draw with a rook against nothing, case B) = 1.1; D 3 (a win with Black)
    + 0.4 + 0.5 = 3.9. A and B, level before, are reordered."""
    (event,) = round_robins(GAMES)
    assert (event.players, event.games, event.complete, event.meetings) == (4, 6, True, {1: 6})
    table = {
        s.player: (s.points_before, s.rank_before, s.points_after, s.rank_after)
        for s in event.standings
    }
    assert table == {
        "D": (D(4), 1, D("3.9"), 1),
        "A": (D(3), 2, D("3.1"), 3),
        "B": (D(3), 2, D("3.3"), 2),
        "C": (D(2), 4, D("1.1"), 4),
    }
    assert event.reordered


def test_a_missing_pairing_is_no_round_robin() -> None:
    assert round_robins(GAMES[:-1]) == []


def test_draw_bands_and_mean_points() -> None:
    scoring = draw_scoring(GAMES).to_json()
    bands = {b["band"]: (b["draws"], b["red_points"], b["black_points"]) for b in scoring["bands"]}
    assert bands["1-30"] == (1, 0.1, 0.2)
    assert bands["31-60"] == (1, 0.3, 0.4)
    assert bands["B"] == (1, 0.9, 0.5)
    assert scoring["mean_red_points"] == float((D("0.1") + D("0.3") + D("0.9")) / 3)
