"""Views render at a fixed width, with Chinese names aligned (cell widths, not characters)."""

from __future__ import annotations

import io

from rich.cells import cell_len
from rich.console import Console

from knockout.dashboard.match import bar, log_view, match_record_view, odds_view, pct
from knockout.engine.match import play_match
from knockout.exact.odds import match_odds
from knockout.rules.scenario.aggregate import parse_scenario

SCENARIO = parse_scenario(
    {
        "name": "对局",
        "players": [
            {"name": "王天一", "rating": 2600, "speed": {"mean": 0.8, "sd": 0.1}},
            {"name": "Zheng Weitong", "rating": 2550, "speed": {"mean": 0.7, "sd": 0.1}},
        ],
    }
)


def render(renderable: object, width: int = 100) -> str:
    buffer = io.StringIO()
    Console(file=buffer, width=width, color_system=None, legacy_windows=False).print(renderable)
    return buffer.getvalue()


def table_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if "│" in line or "┃" in line]


def test_odds_view_aligned_with_chinese_names() -> None:
    text = render(odds_view(match_odds(SCENARIO), SCENARIO))
    assert "王天一" in text and "sudden_death" in text
    rows = [line for line in text.splitlines() if "2600" in line or "2550" in line]
    assert len(rows) == 2
    # The right-justified Advances column ends in the same cell in both rows; a misaligned wide
    # character would break it.
    assert len({cell_len(line[: line.index("%") + 1]) for line in rows}) == 1
    stages = [line for line in text.splitlines() if line.lstrip().startswith(("slow", "rapid"))]
    assert len({cell_len(line.rstrip()) for line in stages}) == 1


def test_match_record_view_aligned() -> None:
    for seed in range(30):
        record, log = play_match(
            SCENARIO.format, *SCENARIO.players, strategy=SCENARIO.strategy, seed=seed
        )
        if record.decided_in == "sudden_death":
            break
    text = render(match_record_view(record), width=100)
    lines = [ln for ln in text.splitlines() if ln.strip().startswith(("1 ", "2 ", "3 ", "4 "))]
    assert len(lines) == len(record.games)
    assert len({cell_len(ln.rstrip()) for ln in lines}) == 1
    assert "甲 (chooser)" in text
    assert "wins the match" in render(log_view(log))


def test_bar_and_pct() -> None:
    assert pct(0.12345) == "12.3%" and pct(None) == "-"
    assert cell_len(bar(0.5, 10).plain) == 10
    assert bar(1.0, 4).plain == "████"
