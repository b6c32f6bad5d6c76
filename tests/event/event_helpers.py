"""Helpers for the event-mode tests: small events in a temporary folder, and a scripted arbiter."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from knockout.event.decisions import bid_answer
from knockout.event.export import to_csv, to_json, to_scenario_toml
from knockout.event.state import Event, NextGame
from knockout.event.store import create_event, load_event, record_decision, record_game

ROOT = Path(__file__).resolve().parents[2]
CUP_SCENARIO = ROOT / "scenarios" / "events" / "city-cup-16.toml"
CUP_PLAYERS = ROOT / "scenarios" / "events" / "city-cup-16-players.csv"

NAMES = [
    "Alpha", "Beta", "Gamma", "Delta", "Epsilon", "Zeta", "Eta", "Theta",
    "Iota", "Kappa", "Lambda", "Mu", "Nu", "Xi", "Omicron", "Pi",
]  # fmt: skip


def write_scenario(folder: Path, *, third_place: bool = True, extra: str = "") -> Path:
    """A scenario template without players."""
    path = folder / "rules.toml"
    path.write_text(
        'name = "Test cup"\n[format]\npreset = "xq-bidding"\n'
        f"[bracket]\nthird_place = {'true' if third_place else 'false'}\n"
        f"[schedule]\nboards = 4\n{extra}",
        encoding="utf-8",
    )
    return path


def write_players(folder: Path, n: int = 8) -> Path:
    """An entry list of ``n`` players (Alpha is the top seed)."""
    path = folder / "players.csv"
    rows = [f"{NAMES[i]},{2600 - 50 * i},F{i % 3}" for i in range(n)]
    path.write_text("name,rating,federation\n" + "\n".join(rows) + "\n", encoding="utf-8")
    return path


def new_event(
    folder: Path, n: int = 8, *, third_place: bool = True, extra: str = "", seed: int = 7
) -> Path:
    """A new event file with ``n`` players."""
    path = folder / "cup.db"
    create_event(
        path,
        write_scenario(folder, third_place=third_place, extra=extra),
        players_path=write_players(folder, n),
        command="test",
        seed=seed,
    )
    return path


def result_for(game: NextGame, winner: str | None) -> str:
    """The result text of ``game`` when ``winner`` wins it (None: a draw)."""
    if winner is None:
        return "1/2"
    return "1-0" if winner == game.red else "0-1"


def upper(event: Event, match: str) -> str:
    """The upper-line player of ``match``."""
    m = event.find_match(match)
    assert m.players is not None
    return m.players[0]


def decide(path: Path, match: str) -> Event:
    """Play ``match`` to its end: the upper player wins the first game and draws the second."""
    event = load_event(path)
    winner = upper(event, match)
    for plan in (winner, None):
        event = load_event(path)
        m = event.find_match(match)
        if m.winner is not None:
            break
        step = event.next_step(m)
        assert isinstance(step, NextGame)
        _, event = record_game(path, match, step.number, result_for(step, plan))
    return event


def level_to_sudden_death(path: Path, match: str, *, times: bool = True) -> Event:
    """Games 1-3 of ``match`` leave it level (each wins one, the rapid game drawn); with
    ``times``, the rapid game's times are recorded (the upper player used less)."""
    event = load_event(path)
    a = upper(event, match)
    m = event.find_match(match)
    assert m.players is not None
    b = m.players[1]
    for plan in (a, b, None):
        event = load_event(path)
        step = event.next_step(event.find_match(match))
        assert isinstance(step, NextGame)
        used = [f"{a}=600", f"{b}=700"] if times and step.stage == "rapid" else []
        _, event = record_game(path, match, step.number, result_for(step, plan), time_used=used)
    return event


def bid_and_play(path: Path, match: str, winner_colour: str = "black") -> Event:
    """Record a bid (chooser by lot if needed) and the sudden-death game."""
    event = load_event(path)
    pending = next(b for b in event.pending_bids() if b.match == match)
    chooser = None if pending.chooser else pending.players[0]
    record_decision(path, match, bid_answer(announce="red", reply="accept", chooser=chooser))
    event = load_event(path)
    step = event.next_step(event.find_match(match))
    assert isinstance(step, NextGame)
    result = "1-0" if winner_colour == "red" else "1/2"
    _, event = record_game(path, match, step.number, result)
    return event


def snapshot(path: Path) -> tuple[str, str, str, int]:
    """Everything an event gives out, and the journal's length: equal before and after a
    refused entry."""
    event = load_event(path)
    with sqlite3.connect(path) as conn:
        count = conn.execute("SELECT COUNT(*) FROM journal").fetchone()[0]
    conn.close()
    return (
        json.dumps(to_json(event), ensure_ascii=False, sort_keys=True),
        to_csv(event),
        to_scenario_toml(event),
        int(count),
    )
