"""The event views: what to play next, the dashboard, the journal, and the live redraw."""

from __future__ import annotations

import io
from pathlib import Path

from event_helpers import decide, level_to_sudden_death, new_event
from rich.console import Console

from knockout.dashboard.event import LiveEventFile, event_dashboard, journal_view, next_view
from knockout.event.state import Event
from knockout.event.store import journal_head, load_event, record_game, undo, withdraw


def render(renderable: object, width: int = 120) -> str:
    console = Console(width=width, file=io.StringIO(), color_system=None)
    console.print(renderable)
    out = console.file.getvalue()  # type: ignore[attr-defined]
    assert isinstance(out, str)
    return out


def test_next_view_lists_games_and_the_bid_prompt(tmp_path: Path) -> None:
    path = new_event(tmp_path)
    level_to_sudden_death(path, "R1-M1")
    # wide enough for the command with its temporary path (longer in a pytest-xdist worker)
    text = render(next_view(load_event(path)), width=400)
    assert "games to play now" in text and "R1-M2" in text and "by lot" in text
    assert "甲 = Alpha" in text and "Theta accepts or objects" in text
    assert f"knockout event bid {path} R1-M1 --announce red|black" in text
    level_to_sudden_death(path, "R1-M2", times=False)
    text = render(next_view(load_event(path)))
    assert "甲 is drawn by lot" in text and "--chooser NAME" in text


def test_dashboard_shows_bracket_results_and_ranking(tmp_path: Path) -> None:
    path = new_event(tmp_path)
    decide(path, "R1-M1")
    withdraw(path, "Zeta")
    text = render(event_dashboard(load_event(path)))
    assert "Bracket" in text and "Alpha (slow, 2 games)" in text
    assert "(walkover)" in text and "Withdrawn: Zeta" in text
    assert "Latest results" in text and "Ranking so far" in text
    assert "Third place (3RD)" in text


def test_journal_view_marks_undone_entries_and_the_next_undo(tmp_path: Path) -> None:
    path = new_event(tmp_path)
    decide(path, "R1-M1")
    undo(path)
    text = render(journal_view(load_event(path)), width=200)
    assert "undone by #4" in text and "undo #3: R1-M1 game 2" in text
    lines = [line for line in text.splitlines() if "<- undo" in line and "R1-M1" in line]
    assert len(lines) == 1 and "R1-M1 game 1" in lines[0]


def test_live_view_redraws_when_another_terminal_writes(tmp_path: Path) -> None:
    path = new_event(tmp_path)
    loads: list[Event] = []
    polls = 0

    def load() -> Event:
        event = load_event(path)
        loads.append(event)
        return event

    def sleep(_: float) -> None:
        nonlocal polls
        polls += 1
        if polls in (2, 4):  # another terminal records a game
            g = load_event(path).next_games()[0]
            record_game(path, g.match, g.number, "1/2")

    console = Console(width=120, file=io.StringIO(), color_system=None)
    view = LiveEventFile(head=lambda: journal_head(path), load=load, sleep=sleep, max_polls=6)
    last = view.watch(console)
    assert len(loads) == 3  # the first picture, then one redraw per new entry
    assert len(last.games) == 2 and last.entries[-1].seq == 3
    assert "R1-M1" in console.file.getvalue()  # type: ignore[attr-defined]


def test_live_view_waits_while_the_event_file_is_away(tmp_path: Path) -> None:
    path = new_event(tmp_path)
    away = tmp_path / "remounting.db"
    polls = 0

    def sleep(_: float) -> None:
        nonlocal polls
        polls += 1
        if polls == 2:  # the USB stick goes away ...
            path.rename(away)
        if polls == 4:  # ... and comes back, with a game recorded elsewhere meanwhile
            g = load_event(away).next_games()[0]
            record_game(away, g.match, g.number, "1/2")
            away.rename(path)

    console = Console(width=200, file=io.StringIO(), force_terminal=True, color_system=None)
    view = LiveEventFile(
        head=lambda: journal_head(path),
        load=lambda: load_event(path),
        sleep=sleep,
        max_polls=6,
        screen=False,
    )
    last = view.watch(console)
    assert len(last.games) == 1 and last.entries[-1].seq == 2
    shown = console.file.getvalue()  # type: ignore[attr-defined]
    note = "The event file cannot be read since"
    assert note in shown and "no such event file" in shown
    assert "waiting for the file to come back" in shown
    assert note not in shown[shown.rindex("entry #2") :]  # gone once the file is back
