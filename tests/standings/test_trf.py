"""TRF-16: round trips (Chinese names included), column layout, and bad input."""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from standings_helpers import FIDE_EXERCISE_2024, crosstable, events

from knockout.errors import InputError
from knockout.game import Colour
from knockout.standings.games_csv import read_games_csv
from knockout.standings.records import CrossTable, Kind, Outcome
from knockout.standings.trf import parse_trf, read_trf, to_trf

DATA = Path(__file__).resolve().parents[2] / "scenarios" / "data"


@settings(max_examples=60, deadline=None)
@given(events())
def test_write_then_read_gives_the_same_records(table: CrossTable) -> None:
    titled = replace(table, title="全国象棋个人赛 2024")
    assert parse_trf(to_trf(titled)) == titled


def test_start_date_and_tournament_type_round_trip() -> None:
    table = replace(
        crosstable(FIDE_EXERCISE_2024),
        start_date=date(2026, 3, 1),
        tournament_type="Individual: Swiss-System",
    )
    text = to_trf(table)
    assert "042 2026/03/01" in text.splitlines()
    assert "092 Individual: Swiss-System" in text.splitlines()
    assert parse_trf(text) == table


@pytest.mark.parametrize(
    ("record", "day"),
    [
        ("042 2026/03/01", date(2026, 3, 1)),
        ("042 2026-02-28", date(2026, 2, 28)),
        ("042 2025.12.31", date(2025, 12, 31)),
        ("042 01.03.2026", date(2026, 3, 1)),
        ("042 2026/03/01 09:30", date(2026, 3, 1)),
        ("042", None),
        ("042    ", None),
    ],
)
def test_start_dates_as_events_write_them(record: str, day: date | None) -> None:
    text = to_trf(crosstable(FIDE_EXERCISE_2024))
    assert parse_trf(record + "\n" + text).start_date == day


def test_a_start_date_that_is_not_a_date_is_a_problem() -> None:
    text = to_trf(crosstable(FIDE_EXERCISE_2024))
    with pytest.raises(InputError) as caught:
        parse_trf("042 1st of March\n" + text, source="t.trf")
    assert caught.value.lines() == [
        "t.trf: line 1, record 042 (start date): expected a date such as 2026/03/01 or "
        "2026-03-01, got '1st of March'"
    ]
    with pytest.raises(InputError, match=r"line 1, record 042 \(start date\): expected a real day"):
        parse_trf("042 2026/02/30\n" + text, source="t.trf")


def test_fide_exercise_round_trip() -> None:
    table = crosstable(FIDE_EXERCISE_2024)
    assert parse_trf(to_trf(table)) == table


def test_columns_are_counted_in_characters() -> None:
    table = CrossTable.from_entries(
        ["王天一", "Zheng, Weitong"],
        [],
        rounds=0,
    )
    text = to_trf(table)
    lines = [line for line in text.splitlines() if line.startswith("001")]
    assert lines[0][14:47].rstrip() == "王天一"
    assert lines[0][80:84] == " 0.0"
    assert lines[1][14:47].rstrip() == "Zheng, Weitong"


def test_reads_a_hand_written_file() -> None:
    head = "001 {:>4} m    {:<33} 2500 CHN 12345678    1990/01/01 {:>4} {:>4}  "
    lines = [
        "012 测试赛",
        head.format(1, "许银川", "1.5", 1) + "   2 w 1  0000 - H",
        head.format(2, "吕钦", "0.0", 3) + "   1 b 0     3 b -",
        head.format(3, "Hu, Ronghua", "1.0", 2) + "0000 - U     2 w +",
    ]
    table = parse_trf("\n".join(lines) + "\n")
    assert table.title == "测试赛"
    assert table.players == ("许银川", "吕钦", "Hu, Ronghua")
    assert table.rounds == 2
    first = table.entry("许银川", 1)
    assert (first.opponent, first.colour, first.outcome, first.kind) == (
        "吕钦",
        Colour.RED,
        Outcome.WIN,
        Kind.PLAYED,
    )
    assert table.entry("许银川", 2).kind is Kind.HALF_BYE
    assert table.entry("Hu, Ronghua", 1).kind is Kind.PAIRING_BYE
    assert table.entry("Hu, Ronghua", 2).kind is Kind.FORFEIT
    assert table.entry("吕钦", 2).colour is Colour.BLACK
    assert table.scores == {"许银川": 1.5, "吕钦": 0, "Hu, Ronghua": 2}


def test_the_bundled_trf_is_the_bundled_csv() -> None:
    from_trf = read_trf(DATA / "swiss-9.trf")
    from_csv = read_games_csv(DATA / "swiss-9.csv")
    assert from_trf.players == from_csv.players
    assert from_trf.entries == from_csv.entries


def test_reads_other_encodings(tmp_path: Path) -> None:
    table = replace(crosstable(FIDE_EXERCISE_2024), title="象棋")
    path = tmp_path / "event.trf"
    path.write_bytes(to_trf(table).encode("gb18030"))
    assert read_trf(path, encoding="gb18030") == table
    with pytest.raises(InputError, match="gb18030"):
        read_trf(path)


def test_every_problem_is_reported() -> None:
    head = "001 {:>4}      {:<33}" + " " * 44
    lines = [
        head.format("x", "A") + "   2 w 1",
        head.format(2, "B") + "   3 b 1     9 w 1",
        head.format(3, "C") + "   2 w 0     1 w Q",
        head.format(4, "C") + "0000 - 1  00x1 w 1",
    ]
    with pytest.raises(InputError) as caught:
        parse_trf("\n".join(lines), source="bad.trf")
    messages = caught.value.lines()
    assert all(m.startswith("bad.trf: line ") for m in messages)
    text = "\n".join(messages)
    assert "line 1, columns 5-8: expected a starting rank (1-9999), got 'x'" in text
    assert "line 2, round 2 (columns 102-105): expected the starting rank of a player" in text
    assert "line 3, round 2 (column 109): expected a result" in text
    assert "line 4, columns 15-47: expected a new name, got 'C' again (line 3)" in text
    assert "line 4, round 1 (column 99): expected a bye" in text
    assert "line 4, round 2 (columns 102-105): expected an opponent's starting rank" in text
    assert len(messages) >= 7


def test_the_two_sides_of_a_game_must_agree() -> None:
    head = "001 {:>4}      {:<33}" + " " * 44
    lines = [
        head.format(1, "A") + "   2 w 1     2 w +",
        head.format(2, "B") + "   1 b 1     1 b +",
    ]
    with pytest.raises(InputError) as caught:
        parse_trf("\n".join(lines), source="x.trf")
    text = "\n".join(caught.value.lines())
    assert "x.trf: line 1, round 1: expected player 2 (line 2) to have a loss, found a win" in text
    assert "x.trf: line 1, round 2: both players 1 and 2 (line 2) won by forfeit" in text


def test_empty_file() -> None:
    with pytest.raises(InputError, match="expected player lines starting with 001"):
        parse_trf("012 nothing\n", source="e.trf")


def test_names_too_long_for_trf() -> None:
    table = CrossTable.from_entries(["x" * 34], [], rounds=0)
    with pytest.raises(ValueError, match="33"):
        to_trf(table)


_TEXT = (DATA / "swiss-9.trf").read_text(encoding="utf-8")


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.integers(0, len(_TEXT) - 1), st.sampled_from(list("0123456789 wWbB-+=UFHZDL"))
        ),
        min_size=1,
        max_size=6,
    )
)
def test_damaged_files_give_input_errors_only(edits: list[tuple[int, str]]) -> None:
    chars = list(_TEXT)
    for at, ch in edits:
        if chars[at] != "\n":
            chars[at] = ch
    try:
        parse_trf("".join(chars), source="damaged.trf")
    except InputError as exc:
        assert all(line.startswith("damaged.trf") for line in exc.lines())


def _with_points(text: str, line: int, points: str) -> str:
    """``text`` with columns 81-84 of ``line`` (from 1) replaced by ``points``."""
    lines = text.split("\n")
    row = lines[line - 1]
    lines[line - 1] = row[:80] + points.rjust(4) + row[84:]
    return "\n".join(lines)


def test_a_points_column_that_disagrees_with_the_results_is_a_warning() -> None:
    text = (DATA / "swiss-9.trf").read_text(encoding="utf-8")
    assert parse_trf(text, source="x.trf").warnings == ()
    bad = _with_points(_with_points(text, 3, "3.0"), 4, "x.y")
    table = parse_trf(bad, source="x.trf")
    assert table == parse_trf(text)  # the results decide
    assert [str(w) for w in table.warnings] == [
        "x.trf: line 3, columns 81-84 (points): 周涛 has 3 points here, but the results add up "
        "to 2; ranking by the results",
        "x.trf: line 4, columns 81-84 (points): expected points, got 'x.y'; ignored",
    ]


@settings(max_examples=20, deadline=None)
@given(events())
def test_a_written_file_reads_back_without_warnings(table: CrossTable) -> None:
    assert parse_trf(to_trf(table)).warnings == ()
