"""The games CSV: results, byes and forfeits, encodings, and bad input."""

from __future__ import annotations

import csv
import io
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from standings_helpers import events

from knockout.errors import InputError
from knockout.game import Colour
from knockout.io.text import decode
from knockout.standings.games_csv import parse_games_csv, read_games_csv
from knockout.standings.records import CrossTable, Kind, Outcome

GAMES = """round,red,black,result
1,许银川,吕 钦,red
1, 胡荣华 ,赵国荣,1/2-1/2
2,吕钦,胡荣华,0-1
2,赵国荣,许银川,DRAW
"""


def test_results_in_every_spelling() -> None:
    table = parse_games_csv(GAMES)
    assert table.players == ("许银川", "吕钦", "胡荣华", "赵国荣")
    assert table.scores == {
        "许银川": Decimal("1.5"),
        "吕钦": 0,
        "胡荣华": Decimal("1.5"),
        "赵国荣": 1,
    }
    game = table.entry("吕钦", 2)
    assert (game.opponent, game.colour, game.outcome, game.kind) == (
        "胡荣华",
        Colour.RED,
        Outcome.LOSS,
        Kind.PLAYED,
    )


def test_byes_forfeits_and_absences() -> None:
    text = """round,red,black,result
1,A,B,+-
1,C,,bye
1,D,,half-bye
2,A,C,--
2,B,,full-bye
2,D,,zero-bye
"""
    table = parse_games_csv(text)
    assert table.entry("A", 1).kind is Kind.FORFEIT
    assert table.entry("A", 1).outcome is Outcome.WIN
    assert table.entry("B", 1).colour is Colour.BLACK
    assert table.entry("C", 1).kind is Kind.PAIRING_BYE
    assert table.entry("D", 1).kind is Kind.HALF_BYE
    assert table.entry("A", 2).outcome is table.entry("C", 2).outcome is Outcome.LOSS
    assert table.entry("B", 2).kind is Kind.FULL_BYE
    assert table.entry("D", 2).kind is Kind.ZERO_BYE
    assert table.scores == {"A": 1, "B": 1, "C": 1, "D": Decimal("0.5")}


def test_a_player_without_a_line_is_absent() -> None:
    table = parse_games_csv("round,red,black,result\n1,A,B,red\n2,A,C,draw\n")
    assert table.entry("C", 1).kind is Kind.ABSENT
    assert table.entry("B", 2).kind is Kind.ABSENT


def test_bom_and_other_encodings(tmp_path: Path) -> None:
    plain = parse_games_csv(GAMES)
    bom = tmp_path / "bom.csv"
    bom.write_bytes(b"\xef\xbb\xbf" + GAMES.encode())
    assert read_games_csv(bom) == plain
    gb = tmp_path / "gb.csv"
    gb.write_bytes(GAMES.encode("gb18030"))
    assert read_games_csv(gb, encoding="gb18030") == plain
    assert read_games_csv(gb, encoding="GB18030") == plain
    with pytest.raises(InputError) as caught:
        read_games_csv(gb)
    (line,) = caught.value.lines()
    assert line.startswith(f"{gb}: line 2: expected UTF-8 text, found byte 0x")
    assert "gb18030" in line


def test_unknown_encoding() -> None:
    with pytest.raises(InputError, match="unknown encoding 'klingon'"):
        decode(b"", source="x.csv", encoding="klingon")


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="cannot read the file"):
        read_games_csv(tmp_path / "nope.csv")


def test_every_problem_is_reported() -> None:
    text = """round,red,black,result
one,A,B,red
1,A,,red
1,A,A,draw
1,C,D,win
2,A,B,red
2,B,C,black
2,D,X,bye
4,A,C,red
5,A
"""
    with pytest.raises(InputError) as caught:
        parse_games_csv(text, source="bad.csv")
    assert caught.value.lines() == [
        "bad.csv: line 2, round: expected a round number (1, 2, ...), got 'one'",
        "bad.csv: line 3, black: expected a name, got none",
        "bad.csv: line 4, black: expected an opponent, got 'A' again",
        "bad.csv: line 5, result: expected red, draw, black, 1-0, 1/2-1/2, 0-1, +-, -+ or -- "
        "(or a bye), got 'win'",
        "bad.csv: line 7: 'B' already has a game in round 2 (line 6)",
        "bad.csv: line 8, black: expected no opponent for a bye, got 'X'",
        "bad.csv: line 10: expected 4 fields (round,red,black,result), got 2",
        "bad.csv: round: expected games in every round 1-4, got none in round 1, 3",
    ]


def test_bad_header() -> None:
    with pytest.raises(InputError) as caught:
        parse_games_csv("rnd,white,black,score\n1,A,B,1-0\n", source="h.csv")
    assert caught.value.lines() == [
        "h.csv: line 1: expected the header round,red,black,result, got 'rnd,white,black,score'"
    ]
    with pytest.raises(InputError, match="got 'an empty file'"):
        parse_games_csv("", source="e.csv")
    with pytest.raises(InputError, match="expected at least one game"):
        parse_games_csv("round,red,black,result\n", source="e.csv")


def test_extra_columns_and_any_column_order() -> None:
    table = parse_games_csv("board,result,black,red,round\n1,black,B,A,1\n")
    assert table.entry("B", 1).outcome is Outcome.WIN


def _to_csv(table: CrossTable) -> str:
    """``table`` as a games CSV: one line per game or bye."""
    word = {
        Kind.PAIRING_BYE: "bye",
        Kind.FULL_BYE: "full-bye",
        Kind.HALF_BYE: "half-bye",
        Kind.ZERO_BYE: "zero-bye",
    }
    rows: list[tuple[object, ...]] = [("round", "red", "black", "result")]
    for r in range(1, table.rounds + 1):
        done: set[str] = set()
        for name in table.players:
            e = table.entry(name, r)
            if name in done or e.kind is Kind.ABSENT:
                continue
            if e.opponent is None:
                rows.append((r, name, "", word[e.kind]))
                continue
            done |= {name, e.opponent}
            first_is_red = e.colour is not Colour.BLACK
            red, black = (name, e.opponent) if first_is_red else (e.opponent, name)
            red_entry = table.entry(red, r)
            if e.kind is Kind.PLAYED:
                result = red_entry.outcome.to_result(Colour.RED).value
            elif red_entry.outcome is Outcome.WIN:
                result = "+-"
            elif table.entry(black, r).outcome is Outcome.WIN:
                result = "-+"
            else:
                result = "--"
            rows.append((r, red, black, result))
    out = io.StringIO()
    csv.writer(out).writerows(rows)
    return out.getvalue()


@settings(max_examples=40, deadline=None)
@given(events())
def test_csv_holds_the_same_records(table: CrossTable) -> None:
    back = parse_games_csv(_to_csv(table))
    # Players appear in CSV order, and forfeits are stored with Red/Black as scheduled colours.
    assert set(back.players) == {
        p
        for p in table.players
        if any(table.entry(p, r).kind is not Kind.ABSENT for r in range(1, table.rounds + 1))
    }
    for name in back.players:
        for r in range(1, back.rounds + 1):
            got, want = back.entry(name, r), table.entry(name, r)
            assert (got.opponent, got.outcome, got.kind, got.points) == (
                want.opponent,
                want.outcome,
                want.kind,
                want.points,
            )


_CELLS = st.sampled_from(
    [
        "1",
        "2",
        "3",
        "0",
        "x",
        "",
        "A",
        "B",
        "C",
        "red",
        "draw",
        "black",
        "1-0",
        "bye",
        "half-bye",
        "+-",
        "--",
        "win",
        '"',
        "A,B",
    ]
)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.lists(_CELLS, min_size=0, max_size=5), max_size=8))
def test_any_rows_give_a_table_or_input_errors(rows: list[list[str]]) -> None:
    text = "round,red,black,result\n" + "\n".join(",".join(row) for row in rows)
    try:
        parse_games_csv(text, source="fuzz.csv")
    except InputError as exc:
        assert all(line.startswith("fuzz.csv") for line in exc.lines())
