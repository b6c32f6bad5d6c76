"""The live dashboard on the terminals people have: every frame fits the screen, the headline
always shows, and every game in play is on the bracket (not "(waiting)")."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from rich.console import Console

from knockout.dashboard.live import LiveEvent
from knockout.engine.event import EventRun
from knockout.io.scenario import load_scenario
from knockout.rules.scenario.aggregate import Scenario

ROOT = Path(__file__).resolve().parents[2]
NATIONAL = load_scenario(ROOT / "scenarios" / "national-64.toml")
OPEN12 = load_scenario(ROOT / "scenarios" / "open-12-in-progress.toml")


def screen(view: LiveEvent, width: int, height: int) -> list[str]:
    """The frame as a terminal of ``width`` x ``height`` shows it (what would not fit is lost)."""
    out = io.StringIO()
    Console(file=out, width=width, height=height, color_system=None, legacy_windows=False).print(
        view.frame()
    )
    return out.getvalue().splitlines()


def at(scenario: Scenario, seed: int, seconds: float) -> LiveEvent:
    """A view of ``scenario``'s run ``seconds`` of simulated time after the start."""
    view = LiveEvent(EventRun(scenario, seed=seed), sleep=lambda _: None)
    view.run.advance(seconds)
    return view


#: Simulated times across the national championship (seed 5): round 1 with all 16 boards busy,
#: playoffs, round 2, the semi-finals, and the end.
TIMES = (300.0, 5_000.0, 12_000.0, 22_000.0, 27_000.0, 60_000.0, 120_000.0, 10**7)


@pytest.mark.parametrize(("width", "height"), [(80, 24), (120, 40)])
@pytest.mark.parametrize("seconds", TIMES)
def test_every_frame_fits_the_terminal_headline_first(
    width: int, height: int, seconds: float
) -> None:
    view = at(NATIONAL, 5, seconds)
    lines = screen(view, width, height)
    assert len(lines) <= height
    assert lines[0].startswith(NATIONAL.name)  # the headline is never cut
    assert "simulated time" in " ".join(lines[:2])
    text = "\n".join(lines)
    assert "This round" in text and "Bracket" in text
    assert "…" not in text  # nothing cut short, numbers least of all
    assert all(len(line.rstrip()) <= width for line in lines)


def test_games_beyond_the_board_rows_are_counted_and_live_on_the_bracket() -> None:
    view = at(NATIONAL, 5, 5_000.0)
    games = list(view.run.live.values())
    assert len(games) == 16  # every board busy, more than the 8 rows listed
    text = "\n".join(screen(view, 120, 60))
    assert "and 8 more games in play" in text
    for g in games:  # each one on this round's list with its stage and clocks
        assert re.search(rf"{g.red} v {g.black}: {g.stage}, \d+ (h|min)", text), g
    assert f"{games[-1].red} v {games[-1].black} (waiting)" not in text


@pytest.mark.parametrize(("width", "height"), [(80, 24), (120, 40)])
def test_a_small_bracket_shows_everything_it_has(width: int, height: int) -> None:
    view = at(OPEN12, 1, 3_000.0)
    lines = screen(view, width, height)
    text = "\n".join(lines)
    assert len(lines) <= height
    assert "On the boards" in text and "This round" in text
    assert "Bracket (last rounds)" in text and "Final:" in text


def test_at_120x60_the_national_frame_has_every_section_in_full() -> None:
    view = at(NATIONAL, 5, 5_000.0)
    lines = screen(view, 120, 60)
    text = "\n".join(lines)
    assert len(lines) <= 60
    assert "On the boards" in text and "Latest" in text
    assert "This round (round 1)" in text and "Quarter-final:" in text
    assert "matches decided" not in text  # this round listed, not summarised


def test_at_80x24_lower_sections_are_summarised_not_cut() -> None:
    view = at(NATIONAL, 5, 22_000.0)
    lines = screen(view, 80, 24)
    text = "\n".join(lines)
    assert re.search(r"This round \(round 1\): \d+ of 32 matches decided, \d+ in play", text)
    assert "Final:" in text or "Bracket:" in text


def test_latest_lines_wrap_and_keep_every_number() -> None:
    view = at(NATIONAL, 5, 22_000.0)
    text = "\n".join(screen(view, 80, 24))
    bids = [e.text for e in view.recent if e.kind == "bid"]
    assert bids  # a sudden-death bid is among the latest events
    flat = " ".join(text.split())
    for bid in bids:
        assert " ".join(bid.split()) in flat


def test_a_tiny_terminal_still_shows_the_headline() -> None:
    lines = screen(at(NATIONAL, 5, 5_000.0), 60, 8)
    assert lines[0].startswith("National knockout")


@pytest.mark.parametrize("seconds", [137_000.0, 10.0**7], ids=["in play", "over"])
def test_the_match_for_third_place_is_on_this_round(seconds: float) -> None:
    view = at(NATIONAL, 5, seconds)
    text = "\n".join(screen(view, 120, 60))
    assert "This round (final)" in text and "third place: 赵国荣" in text
