"""The standings table renders aligned at a fixed width, Chinese names included."""

from __future__ import annotations

import io
from decimal import Decimal
from pathlib import Path

from rich.cells import cell_len
from rich.console import Console

from knockout.dashboard.standings import format_number, standings_table
from knockout.standings.games_csv import read_games_csv
from knockout.standings.tiebreaks import rank_players

CSV = Path(__file__).resolve().parents[2] / "scenarios" / "data" / "swiss-9.csv"


def render(width: int = 100) -> list[str]:
    ranked = rank_players(read_games_csv(CSV), ["BH-C1", "BH", "SB", "DE"])
    out = io.StringIO()
    console = Console(file=out, width=width, color_system=None, legacy_windows=False)
    console.print(standings_table(ranked, title="示例"))
    return out.getvalue().splitlines()


def test_columns_line_up_with_wide_characters() -> None:
    lines = render()
    rows = [line for line in lines if any(name in line for name in ("陈杰", "张伟", "杨静"))]
    assert len(rows) == 3
    header = next(line for line in lines if "BH-C1" in line)
    # Every row and the header take the same number of terminal cells, and each column's
    # right edge (where the numbers end) is in the same cell for every row.
    assert {cell_len(line.rstrip()) for line in [*rows, header]} == {cell_len(header.rstrip())}
    edge = cell_len(header[: header.index("BH-C1") + len("BH-C1")])
    for row in rows:
        cells = 0
        for i, ch in enumerate(row):
            cells += cell_len(ch)
            if cells == edge:
                assert ch != " " and row[i + 1] == " "
                break
        else:  # pragma: no cover
            raise AssertionError(f"no cell boundary at {edge} in {row!r}")


def test_numbers_are_written_without_noise() -> None:
    lines = "\n".join(render())
    assert "12.5" in lines and "4.5" in lines
    assert "4.50" not in lines and "3.0 " not in lines
    assert "–" in lines  # direct encounter does not apply
    assert format_number(Decimal("16.510")) == "16.51"
    assert format_number(Decimal("1E+1")) == "10"
