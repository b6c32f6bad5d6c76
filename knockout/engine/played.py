"""What ``knockout play`` gives: a match or a whole event played through the SimPy engine.

:func:`play` takes the whole scenario (games already played, withdrawals, uncertain ratings)
and returns one answer type whose :meth:`to_json` is what ``knockout play --json`` prints inside
its envelope.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from knockout.engine.event import EventRecord, play_event
from knockout.engine.match import LogEvent, MatchRecord, play_scenario_match
from knockout.engine.ranking import KnockoutStanding, final_ranking
from knockout.rules.scenario.aggregate import Scenario

__all__ = ["PlayedEvent", "PlayedMatch", "play"]


@dataclass(frozen=True)
class PlayedMatch:
    """A two-player match played on: its record and the engine's log.

    Attributes:
        record: The match, game by game.
        log: What happened, in simulated time.
        seed: The seed it was played with.
    """

    record: MatchRecord
    log: tuple[LogEvent, ...]
    seed: int

    def to_json(self) -> dict[str, Any]:
        """``{"matches": [...], "log": [{"time", "kind", "text"}]}``."""
        return {
            "matches": [self.record.to_json()],
            "log": [{"time": round(e.time, 1), "kind": e.kind, "text": e.text} for e in self.log],
        }


@dataclass(frozen=True)
class PlayedEvent:
    """A bracket played to the end: the event's record and the final ranking.

    Attributes:
        record: Every round and match.
        ranking: Every player's place.
        log: What happened, in simulated time.
        seed: The seed it was played with.
    """

    record: EventRecord
    ranking: tuple[KnockoutStanding, ...]
    log: tuple[LogEvent, ...]
    seed: int

    def to_json(self) -> dict[str, Any]:
        """The event record's JSON (rounds, matches, duration, champion) and ``ranking``."""
        return {**self.record.to_json(), "ranking": [s.to_json() for s in self.ranking]}


def play(scenario: Scenario, *, seed: int) -> PlayedMatch | PlayedEvent:
    """Play the scenario's match (two players) or bracket (more) on from its games so far."""
    if scenario.is_bracket:
        record, events = play_event(scenario, seed=seed)
        ranking = final_ranking(record, scenario, seed=seed)
        return PlayedEvent(record, ranking, tuple(events), seed)
    match, log = play_scenario_match(scenario, seed=seed)
    return PlayedMatch(match, tuple(log), seed)
