"""Reading the games table for the strength fit: good rows, compressed files, every bad cell."""

from __future__ import annotations

import lzma
from pathlib import Path

import pytest

from knockout.errors import InputError
from knockout.strengths.table import Outcome, TableClass, parse_table, read_table, source_folder

HEADER = (
    "id,event,round,date,year,red,black,red_team,black_team,result,time_class,moves,final_fen,"
    "record,kind,sources"
)


def _row(**cells: str) -> str:
    base = {
        "id": "g1", "event": "2001 Cup", "round": "1", "date": "2001-05-01", "year": "2001",
        "red": "呂欽", "black": "許銀川", "red_team": "廣東", "black_team": "廣東",
        "result": "1-0", "time_class": "unknown", "moves": "40", "final_fen": "", "record":
        "complete", "kind": "master",
        "sources": "對局/大師對局/以棋手分類/呂欽/1.pgn | 對局/大師對局/以賽事分類/x/2.pgn",
    }  # fmt: skip
    base.update(cells)
    return ",".join(base.values())


def test_a_full_row_with_the_attribution_header() -> None:
    text = "# Games of the CCPD\n# CC BY 4.0\n" + HEADER + "\n" + _row() + "\n"
    game = parse_table(text, source="t.csv").games[0]
    assert (game.red, game.black, game.year) == ("呂欽", "許銀川", 2001)
    assert game.result is Outcome.RED and game.result.code == 0
    assert game.time_class is TableClass.UNKNOWN
    assert game.folders == ("以棋手分類", "以賽事分類")


def test_unknown_results_and_missing_years_are_values(tmp_path: Path) -> None:
    text = HEADER + "\n" + _row(result="*", year="") + "\n"
    path = tmp_path / "t.csv.xz"
    path.write_bytes(lzma.compress(text.encode("utf-8")))
    game = read_table(path).games[0]
    assert game.result is Outcome.UNKNOWN and game.result.code == -1 and game.year is None


def test_every_bad_cell_is_one_line() -> None:
    text = (
        "# attribution\n"
        + HEADER
        + "\n"
        + _row(red="", result="")
        + "\n"
        + _row(result="1-1", time_class="fast")
        + "\n"
        + _row(kind="human", year="199x", id="")
        + "\n"
    )
    with pytest.raises(InputError) as info:
        parse_table(text, source="t.csv")
    assert info.value.lines() == [
        "t.csv: line 3, result: expected one of 1-0, 1/2-1/2, 0-1, *, got ''",
        "t.csv: line 4, result: expected one of 1-0, 1/2-1/2, 0-1, *, got '1-1'",
        "t.csv: line 4, time_class: expected one of classical, rapid, blitz, tiebreak, "
        "unknown, got 'fast'",
        "t.csv: line 5, kind: expected one of master, engine, got 'human'",
        "t.csv: line 5, year: expected a whole year or nothing, got '199x'",
        "t.csv: line 5, id: expected the game's id, got none",
    ]


def test_a_missing_column_and_a_damaged_archive(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="missing column 'result'"):
        parse_table(HEADER.replace(",result", "") + "\n", source="t.csv")
    bad = tmp_path / "t.csv.xz"
    bad.write_bytes(b"not xz")
    with pytest.raises(InputError, match=r"expected a \.xz archive, cannot unpack it"):
        read_table(bad)
    with pytest.raises(InputError, match="cannot read the file"):
        read_table(tmp_path / "missing.csv")


def test_source_folders() -> None:
    assert source_folder("Dataset/對局/大師對局/以開局分類/A00/1.pgn") == "以開局分類"
    assert source_folder("對局/電腦對局/人機賽/1.pgn") == "人機賽"
    assert source_folder("one.pgn") == ""
