"""A game played as one wait (nobody watches its clocks) gives the records, logs and times of
the same game played move by move, to the last bit: the same sums, the same SimPy instants."""

from __future__ import annotations

from pathlib import Path

import pytest

from knockout.engine.event import EventRun, play_event
from knockout.engine.match import play_match
from knockout.io.scenario import load_scenario

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"


@pytest.mark.parametrize("name", ["national-64.toml", "open-12-in-progress.toml"])
@pytest.mark.parametrize("seed", [1, 2])
def test_an_event_played_unwatched_equals_one_played_move_by_move(name: str, seed: int) -> None:
    sc = load_scenario(SCENARIOS / name)
    watched = EventRun(sc, seed=seed, move_by_move=True)
    record = watched.run()
    quick, log = play_event(sc, seed=seed)
    assert quick.to_json() == record.to_json()
    assert [(e.time, e.kind, e.text) for e in log] == [
        (e.time, e.kind, e.text) for e in watched.log
    ]
    assert EventRun(sc, seed=seed).engine.move_by_move  # the live views' default


@pytest.mark.parametrize("seed", range(6))
def test_a_match_played_unwatched_equals_one_played_move_by_move(seed: int) -> None:
    sc = load_scenario(SCENARIOS / "final-2600-vs-2550.toml")
    a, b = sc.players
    kwargs = {"strategy": sc.strategy, "model": sc.model, "seed": seed}
    slow, slow_log = play_match(sc.format, a, b, move_by_move=True, **kwargs)
    quick, quick_log = play_match(sc.format, a, b, **kwargs)
    assert quick.to_json() == slow.to_json()
    assert [(e.time, e.text) for e in quick_log] == [(e.time, e.text) for e in slow_log]
