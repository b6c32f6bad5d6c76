"""An event in the middle of its first round, for the hall's pages, the browser and the live
view: the bundled 16-player cup (Chinese names) with a match decided, one won on a
sudden-death draw, one at its sudden-death bid, a withdrawal, and games in play."""

from __future__ import annotations

from pathlib import Path

from event_helpers import CUP_PLAYERS, CUP_SCENARIO, decide, level_to_sudden_death, upper

from knockout.event.decisions import bid_answer
from knockout.event.state import Event, NextGame
from knockout.event.store import create_event, load_event, record_decision, record_game, withdraw


def next_game(path: Path, match: str) -> NextGame:
    """The next game of ``match``."""
    event = load_event(path)
    step = event.next_step(event.find_match(match))
    assert isinstance(step, NextGame), step
    return step


def hall_event(folder: Path, name: str = "cup.db") -> Path:
    """The bundled cup, part-way through round 1 (see the module)."""
    path = folder / name
    create_event(path, CUP_SCENARIO, players_path=CUP_PLAYERS, command="test", seed=11)
    decide(path, "R1-M1")
    level_to_sudden_death(path, "R1-M2")
    record_decision(path, "R1-M2", bid_answer(announce="black", reply="object"))
    g = next_game(path, "R1-M2")
    record_game(path, "R1-M2", g.number, "1/2")  # a draw: Black goes through
    level_to_sudden_death(path, "R1-M3")  # the bid still to record
    g = next_game(path, "R1-M4")
    record_game(path, "R1-M4", g.number, "1-0")
    withdraw(path, upper(load_event(path), "R1-M5"))
    return path


def record_next(path: Path, match: str, result: str = "1-0") -> Event:
    """Record ``result`` as the next game of ``match``."""
    g = next_game(path, match)
    _, event = record_game(path, match, g.number, result)
    return event
