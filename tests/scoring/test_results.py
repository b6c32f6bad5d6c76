"""Reading results CSV files: encodings, names, cells, and rows that must agree."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest

from knockout.errors import InputError
from knockout.game import Colour, Result
from knockout.io.text import read_text
from knockout.points import GameDetails
from knockout.scoring.results import parse_results, read_results
from knockout.standings.records import Outcome, normalise_name

HEADER = "round,player,opponent,colour,result\n"


def problems(text: str) -> list[str]:
    with pytest.raises(InputError) as caught:
        parse_results(text, source="r.csv")
    return list(caught.value.lines())


def test_outcomes_and_results() -> None:
    for colour in Colour:
        for outcome in Outcome:
            result = outcome.to_result(colour)
            assert Outcome.from_result(result, colour) is outcome
            assert outcome.reverse.to_result(colour.other) is result
    assert Outcome.WIN.to_result(Colour.BLACK) is Result.BLACK


@pytest.mark.parametrize(
    ("raw", "name"),
    [
        ("程 鸣", "程鸣"),
        ("程鸣", "程鸣"),
        (" 才  溢 ", "才溢"),
        ("孟\u3000辰", "孟辰"),
        ("Wang  Tianyi", "Wang Tianyi"),
        ("Lü Qin", "Lü Qin"),
    ],
)
def test_normalise_name(raw: str, name: str) -> None:
    assert normalise_name(raw) == name


def test_reads_a_file_with_or_without_bom_and_other_encodings(tmp_path: Path) -> None:
    text = HEADER + "1,程 鸣,孟辰,red,win\n"
    for encoding, data in [
        ("utf-8", text.encode("utf-8")),
        ("utf-8", b"\xef\xbb\xbf" + text.encode("utf-8")),
        ("utf-8-sig", b"\xef\xbb\xbf" + text.encode("utf-8")),
        ("gb18030", text.encode("gb18030")),
    ]:
        path = tmp_path / "r.csv"
        path.write_bytes(data)
        results = read_results(path, encoding=encoding)
        assert [(r.player, r.opponent, r.result) for r in results.rows] == [
            ("程鸣", "孟辰", Result.RED)
        ]


def test_encoding_problems(tmp_path: Path) -> None:
    path = tmp_path / "r.csv"
    path.write_bytes((HEADER + "1,程鸣,孟辰,red,win\n").encode("gb18030"))
    with pytest.raises(InputError) as caught:
        read_text(path)
    (line,) = caught.value.lines()
    assert line == (
        f"{path}: line 2: expected UTF-8 text, found byte 0xb3; if the file is not UTF-8, give "
        "its encoding: --encoding gb18030 (Chinese Windows files) or --encoding utf-16"
    )
    with pytest.raises(InputError, match="unknown encoding 'klingon'"):
        read_text(path, encoding="klingon")
    with pytest.raises(InputError, match="cannot read the file"):
        read_text(tmp_path / "missing.csv")


def test_header_problems() -> None:
    assert problems("round,player,opponent,color,result,event\n") == [
        "r.csv: line 1, header: unknown column 'color': expected round, player, opponent, "
        "colour, result (optional: moves, attack_red, attack_black, fen)",
        "r.csv: line 1, header: unknown column 'event': expected round, player, opponent, "
        "colour, result (optional: moves, attack_red, attack_black, fen)",
        "r.csv: line 1, header: missing column 'colour': expected round, player, opponent, "
        "colour, result (optional: moves, attack_red, attack_black, fen)",
    ]
    assert problems("") == [
        "r.csv: empty file: expected a header line round, player, opponent, colour, result "
        "(optional: moves, attack_red, attack_black, fen)"
    ]
    assert problems(HEADER) == ["r.csv: no game rows after the header"]


def test_every_bad_cell_is_reported_with_line_and_column() -> None:
    text = HEADER + "0,A,B,Red,won\n\n2,C,,black,draw\n3,D,D,black,loss\nx,E\n"
    assert problems(text) == [
        "r.csv: line 2, round: expected a whole number >= 1, got '0'",
        "r.csv: line 2, colour: expected 'red' or 'black', got 'Red'",
        "r.csv: line 2, result: expected 'win' or 'draw' or 'loss', got 'won'",
        "r.csv: line 4, opponent: expected a name, got nothing",
        "r.csv: line 5, opponent: 'D' cannot play themself",
        "r.csv: line 6: expected 5 cells (round, player, opponent, colour, result), got 2",
    ]


def test_optional_cells() -> None:
    text = "round,player,opponent,colour,result,moves,attack_red,attack_black\n"
    text += "1,A,B,red,draw,75,7.5,0\n2,A,C,black,win,,,\n3,A,D,red,draw,-3,x,\n"
    assert problems(text) == [
        "r.csv: line 4, moves: expected a whole number >= 1, got '-3'",
        "r.csv: line 4, attack_red: expected attacking material >= 0, got 'x'",
    ]
    rows = parse_results(text.rsplit("3,A", 1)[0], source="r.csv").rows
    assert rows[0].details == GameDetails(75, Decimal("7.5"), Decimal(0))
    assert rows[1].details == GameDetails()


def test_material_no_position_has_is_refused() -> None:
    """A side's attacking material is 5 r + 2.5 m + p (r <= 2 rooks, m <= 4 horses and cannons,
    p <= 5 crossed pawns): 0.5, 3.7 and 26 are typing mistakes; 25 (everything, five pawns across)
    and 3.5 (a horse and a pawn) are positions."""
    text = "round,player,opponent,colour,result,moves,attack_red,attack_black\n"
    text += "1,A,B,red,draw,75,0.5,25\n2,A,C,red,draw,75,3.7,3.5\n3,A,D,red,draw,75,0,26\n"
    assert problems(text) == [
        "r.csv: line 2, attack_red: no position has attacking material 0.5: "
        "the nearest possible totals are 0 and 1",
        "r.csv: line 3, attack_red: no position has attacking material 3.7: "
        "the nearest possible totals are 3.5 and 4",
        "r.csv: line 4, attack_black: no position has attacking material 26: "
        "the nearest possible total is 25",
    ]


def test_both_rows_of_a_game_must_agree() -> None:
    good = HEADER + "1,程鸣,王天一,red,win\n1,王天一,程 鸣,black,loss\n"
    assert len(parse_results(good, source="r.csv").rows) == 2
    bad = HEADER + "1,程鸣,王天一,red,win\n1,王天一,程 鸣,red,draw\n"
    assert problems(bad) == [
        "r.csv: lines 2 and 3: round 1, the rows of 程鸣 v 王天一 disagree: "
        "line 2 says 程鸣 red win, line 3 says 王天一 red draw"
    ]
    bad = HEADER + "1,程鸣,王天一,red,win\n1,王天一,程鸣,black,win\n"
    assert "line 2 says 程鸣 red win, line 3 says 王天一 black win" in problems(bad)[0]


def test_details_of_both_rows_merge_or_conflict() -> None:
    head = "round,player,opponent,colour,result,moves,attack_red,attack_black\n"
    merged = parse_results(head + "1,A,B,red,draw,70,,\n1,B,A,black,draw,,5,2.5\n", source="r.csv")
    assert {r.details for r in merged.rows} == {GameDetails(70, Decimal(5), Decimal("2.5"))}
    assert problems(head + "1,A,B,red,draw,70,,\n1,B,A,black,draw,71,,\n") == [
        "r.csv: lines 2 and 3: round 1, the rows of A v B disagree: "
        "line 2 says moves=70, line 3 says moves=71"
    ]


def test_rows_that_describe_impossible_rounds() -> None:
    text = HEADER + "\n".join(
        [
            "1,A,B,red,win",  # 2
            "1,B,A,black,loss",  # 3
            "1,A,C,red,win",  # 4: A twice in round 1
            "2,A,X,red,win",  # 5
            "2,B,X,black,win",  # 6: X (no rows) in two games of round 2
            "3,A,B,red,win",  # 7
            "3,B,C,black,loss",  # 8: B says C, A says B
            "4,A,B,black,draw",  # 9: B has rows, but none in round 4
        ]
    )
    assert problems(text) == [
        "r.csv: lines 2 and 4: A has two rows in round 1",
        "r.csv: lines 5 and 6: X is the opponent in two games of round 2",
        "r.csv: lines 7 and 8: round 3: line 7 says A played B, line 8 says B played C",
        "r.csv: line 9: round 4: A played B, who has rows but none for round 4",
    ]


def test_results_accessors() -> None:
    text = HEADER + "1,A,B,red,win\n3,A,C,black,draw\n1,B,A,black,loss\n"
    results = parse_results(text, source="r.csv")
    assert results.rounds == 3
    assert results.players == ("A", "B")
    assert results.opponents_without_rows == ("C",)
    assert sorted(results.by_player["A"]) == [1, 3]
