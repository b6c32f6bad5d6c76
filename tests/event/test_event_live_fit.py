"""``knockout event show --live`` on the terminals people have: every frame fits the screen,
the games to play now and the decisions to ask come first, then the bracket as far as it fits
("and N more"), and a resized terminal gets a frame of its new size."""

from __future__ import annotations

import io
import re
import threading
from datetime import datetime
from pathlib import Path

import pytest
from chinese import english_left
from event_helpers import new_event
from hall_helpers import hall_event, record_next
from rich.cells import cell_len
from rich.console import Console

from knockout.dashboard.event import LiveEventFile
from knockout.dashboard.event_live import EventFrame
from knockout.event.state import Event
from knockout.event.store import journal_head, load_event
from knockout.i18n import speaking

SIZES = [(80, 24), (100, 30), (120, 40)]
NOW = datetime(2026, 11, 30, 9, 15)


def screen(event: Event, width: int, height: int) -> list[str]:
    """The frame as a fixed-width terminal of ``width`` x ``height`` shows it."""
    out = io.StringIO()
    console = Console(file=out, width=width, height=height, color_system=None)
    console.print(EventFrame(event, NOW))
    return out.getvalue().splitlines()


def first_line(lines: list[str], pattern: str) -> int:
    return next(i for i, line in enumerate(lines) if re.search(pattern, line))


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_the_frame_fits_with_the_games_and_decisions_first(
    tmp_path: Path, width: int, height: int
) -> None:
    event = load_event(hall_event(tmp_path))
    lines = screen(event, width, height)
    assert len(lines) <= height
    assert all(len(line.rstrip()) <= width for line in lines)
    assert lines[0].startswith(event.name)
    text = "\n".join(lines)
    for g in event.next_games():  # every game to play is listed, with its board and clock
        assert re.search(rf"{g.board}\s+{g.match}\s+{g.number}\s+{g.stage}\s+{g.red}", text), g
    assert "Decisions to ask: 1" in text and "R1-M3 game 4, board 3" in text
    games, asks = first_line(lines, "Games to play now"), first_line(lines, "Decisions to ask")
    bracket = first_line(lines, "^Bracket")
    assert 0 < games < asks < bracket
    assert "…" not in text


def test_at_80x24_the_bracket_is_cut_with_a_count(tmp_path: Path) -> None:
    event = load_event(hall_event(tmp_path))
    lines = screen(event, 80, 24)
    below = lines[first_line(lines, "^Bracket") :]
    shown = [line for line in below if re.match(r"(R\d-M\d|3RD)\s", line)]
    more = re.search(r"and (\d+) more \(knockout event show\)", "\n".join(lines))
    assert shown and more
    assert len(shown) + int(more[1]) == len(event.matches)  # every match shown or counted
    assert shown[0].startswith("R1-M1")  # the current round first


def test_a_big_first_round_lists_games_before_anything_else(tmp_path: Path) -> None:
    path = new_event(tmp_path, 16)  # 8 games on 4 boards: 4 wait for a board
    event = load_event(path)
    lines = screen(event, 80, 24)
    text = "\n".join(lines)
    assert len(lines) <= 24
    listed = re.findall(r"^\s+(?:\d+|-)\s+(R1-M\d)\s", text, re.MULTILINE)
    more = re.search(r"and (\d+) more games? to play", text)
    assert len(listed) + (int(more[1]) if more else 0) == len(event.next_games())
    assert len(listed) >= 4


def test_a_resized_terminal_gets_a_frame_of_its_size(tmp_path: Path) -> None:
    frame = EventFrame(load_event(hall_event(tmp_path)), NOW)
    for width, height in [(120, 40), (80, 24), (100, 30), (80, 24)]:
        out = io.StringIO()
        Console(file=out, width=width, height=height, color_system=None).print(frame)
        lines = out.getvalue().splitlines()
        assert len(lines) <= height and all(len(x.rstrip()) <= width for x in lines)


def test_the_live_view_redraws_the_fitted_frame(tmp_path: Path) -> None:
    path = hall_event(tmp_path)
    polls = 0

    def sleep(_: float) -> None:
        nonlocal polls
        polls += 1
        if polls == 2:
            record_next(path, "R1-M8", "1/2")

    out = io.StringIO()
    console = Console(file=out, width=80, height=24, color_system=None)
    view = LiveEventFile(
        head=lambda: journal_head(path), load=lambda: load_event(path), sleep=sleep, max_polls=4
    )
    last = view.watch(console)
    assert last.games[-1].match == "R1-M8"
    assert "Games to play now" in out.getvalue()


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_the_frame_in_chinese_fits_in_cells(tmp_path: Path, width: int, height: int) -> None:
    """Chinese characters take two cells each: every line still fits the terminal's width (in
    cells, as the terminal draws it) and the frame its height; the order and the glossary's
    words are the English frame's, with no English sentence of the catalogue left."""
    event = load_event(hall_event(tmp_path))
    with speaking("zh_CN"):
        lines = screen(event, width, height)
    assert len(lines) <= height
    assert max(cell_len(line.rstrip()) for line in lines) <= width
    assert any(cell_len(line.rstrip()) > len(line.rstrip()) for line in lines)  # wide cells
    text = "\n".join(lines)
    for g in event.next_games():
        assert re.search(rf"{g.board}\s+{g.match}\s+{g.number}\s+慢棋\s+{g.red}", text), g
    assert "需要询问的决定：1" in text and "R1-M3 第 4 局，第 3 台" in text
    games, asks = first_line(lines, "现在要下的对局"), first_line(lines, "需要询问的决定")
    bracket = first_line(lines, "^对阵表")
    assert 0 < games < asks < bracket
    assert "台" in lines[games + 2] and "红方" in lines[games + 2]
    assert english_left(text) == [] and "…" not in text
    if (width, height) == (80, 24):
        assert re.fullmatch(r"还有 \d+ 场（knockout event show）", lines[-1].strip()), lines[-1]


def test_the_frame_keeps_its_language_when_drawn_from_another_thread(tmp_path: Path) -> None:
    """rich's Live refreshes from its own thread, which starts in the default language: the
    frame speaks the language in force where it was made."""
    event = load_event(hall_event(tmp_path))
    with speaking("zh_CN"):
        frame = EventFrame(event, NOW)
    out = io.StringIO()
    drawer = threading.Thread(
        target=lambda: Console(file=out, width=80, height=24, color_system=None).print(frame)
    )
    drawer.start()
    drawer.join(60)
    text = out.getvalue()
    assert "现在要下的对局" in text and "Games to play now" not in text
