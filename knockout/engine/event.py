"""The SimPy event engine: a whole knockout event played on a limited number of boards.

Every round's matches start together; each game holds one board (a SimPy ``PriorityResource``)
while it is played, and a playoff game gets the next free board before any match's first game,
so playoffs follow their match the same day. A round starts ``round_gap_minutes`` after the
previous one has finished; consecutive games of a match are ``gap_minutes`` apart. Byes advance
without a match; a withdrawn player loses by walkover; games already played (``[[played]]``) are
replayed into the records and their matches continue from there.

The result records when each round ends and the event's total duration (simulated seconds from
the start), so organisers can plan sessions; many seeds give the duration's distribution.
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass
from typing import Any

import numpy as np
import simpy

from knockout.engine.match import LogEvent, MatchEngine, MatchRecord, Observer
from knockout.exact.bracket import EventState
from knockout.io.scenario import Scenario
from knockout.rules.bracket import Bracket, round_name

__all__ = ["EventRecord", "RoundRecord", "event_process", "play_event"]


@dataclass(frozen=True)
class RoundRecord:
    """One round of the event.

    Attributes:
        number: From 1.
        name: ``round 1``, ..., ``final``.
        start: Simulated start (s).
        end: When its last game finished (s).
        matches: Its matches, in bracket order (byes are not matches).
    """

    number: int
    name: str
    start: float
    end: float
    matches: tuple[MatchRecord, ...]


@dataclass(frozen=True)
class EventRecord:
    """A finished event.

    Attributes:
        bracket: The draw.
        rounds: Every round, in order.
        third_place: The match for third place, if played.
        duration: Simulated seconds from the start to the last game's end.
    """

    bracket: Bracket
    rounds: tuple[RoundRecord, ...]
    third_place: MatchRecord | None
    duration: float

    @property
    def champion(self) -> str:
        """The winner of the final."""
        return self.rounds[-1].matches[0].winner

    @property
    def matches(self) -> tuple[MatchRecord, ...]:
        """Every match, round by round, the third-place match last."""
        out = [m for r in self.rounds for m in r.matches]
        if self.third_place is not None:
            out.append(self.third_place)
        return tuple(out)

    def to_json(self) -> dict[str, Any]:
        """Rounds with their timing, and every match."""
        return {
            "duration": round(self.duration, 1),
            "champion": self.champion,
            "rounds": [
                {
                    "round": r.number,
                    "name": r.name,
                    "start": round(r.start, 1),
                    "end": round(r.end, 1),
                }
                for r in self.rounds
            ],
            "matches": [{"round": r.number, **m.to_json()} for r in self.rounds for m in r.matches]
            + (
                []
                if self.third_place is None
                else [{"round": "third place", **self.third_place.to_json()}]
            ),
        }


def event_process(
    env: simpy.Environment, engine: MatchEngine, scenario: Scenario, state: EventState
) -> Generator[simpy.Event, Any, EventRecord]:
    """SimPy process: play the whole event; returns its record."""
    bracket = state.bracket
    players = {p.name: p for p in scenario.players}
    gap = scenario.schedule.round_gap_minutes * 60.0
    alive: list[str | None] = list(bracket.lines)
    rounds: list[RoundRecord] = []
    third: MatchRecord | None = None
    for k in range(1, bracket.rounds + 1):
        if k > 1 and gap > 0:
            yield env.timeout(gap)
        start = float(env.now)
        name = round_name(k, bracket.rounds)
        engine.emit("round_start", f"{name.capitalize()} begins", ("", ""))
        processes: list[simpy.Process] = []
        slots: list[tuple[int, MatchRecord | simpy.Process]] = []
        winners: list[str | None] = []
        for m in range(len(alive) // 2):
            up, down = alive[2 * m], alive[2 * m + 1]
            if up is None or down is None:
                winners.append(down if up is None else up)
                continue
            progress = state.progress.get((k, m))
            if progress is not None and progress.walkover is not None:
                loser = down if progress.walkover == up else up
                slots.append((m, engine.walkover(progress.walkover, loser)))
                continue
            if progress is None and (up in state.withdrawn or down in state.withdrawn):
                wd_up, wd_down = up in state.withdrawn, down in state.withdrawn
                up_wins = wd_down and (not wd_up or bracket.seeds[up] < bracket.seeds[down])
                w, loser = (up, down) if up_wins else (down, up)
                slots.append((m, engine.walkover(w, loser)))
                continue
            played = () if progress is None else progress.games
            proc = env.process(engine.match(players[up], players[down], played))
            processes.append(proc)
            slots.append((m, proc))
        third_proc: simpy.Process | None = None
        if k == bracket.rounds and bracket.third_place and len(rounds) > 0:
            semis = rounds[-1].matches
            losers = [mr.loser for mr in semis]
            if len(losers) == 2:
                third_proc = env.process(engine.match(players[losers[0]], players[losers[1]]))
                processes.append(third_proc)
        if processes:
            yield simpy.AllOf(env, processes)
        records: list[MatchRecord] = []
        by_index: dict[int, str] = {}
        for m, item in slots:
            record = item if isinstance(item, MatchRecord) else item.value
            assert isinstance(record, MatchRecord)
            records.append(record)
            by_index[m] = record.winner
        byes = iter(winners)  # in match order, like the slots
        alive = [by_index[m] if m in by_index else next(byes) for m in range(len(alive) // 2)]
        if third_proc is not None:
            third = third_proc.value
        end = float(env.now)
        rounds.append(RoundRecord(k, name, start, end, tuple(records)))
        engine.emit("round_end", f"{name.capitalize()} ends", ("", ""))
    return EventRecord(bracket, tuple(rounds), third, float(env.now))


def play_event(
    scenario: Scenario,
    *,
    seed: int,
    observer: Observer | None = None,
) -> tuple[EventRecord, list[LogEvent]]:
    """Play the scenario's whole event in a fresh environment."""
    state = EventState.of(scenario)
    env = simpy.Environment()
    engine = MatchEngine(
        env,
        scenario.format,
        scenario.model,
        scenario.strategy,
        np.random.default_rng(seed),
        observer=observer,
        gap_seconds=scenario.schedule.gap_minutes * 60.0,
        boards=simpy.PriorityResource(env, capacity=scenario.schedule.boards),
    )
    process = env.process(event_process(env, engine, scenario, state))
    env.run()
    record = process.value
    assert isinstance(record, EventRecord)
    return record, engine.log
