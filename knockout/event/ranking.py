"""Records and the ranking of a real event, built from its journal.

The recorded games become the engine's records (:class:`~knockout.engine.records.MatchRecord`,
:class:`~knockout.engine.records.EventRecord`), so the event's final ranking is
:func:`knockout.engine.ranking.final_ranking`, the same as for a simulated event. While the event
is running, the ranking so far orders players by how far they have come (still in at round ``k``
ahead of those who lost in round ``k``), then by the same points and tie-breaks, computed on the
cross table of the decided matches (:func:`~knockout.engine.ranking.event_crosstable`).
"""

from __future__ import annotations

import math
from datetime import datetime

from knockout.engine.ranking import (
    Decided,
    KnockoutStanding,
    event_crosstable,
    final_ranking,
    how_far,
    rank_knockout,
)
from knockout.engine.records import (
    EventRecord,
    GameRecord,
    MatchRecord,
    RoundRecord,
    decision_fields,
)
from knockout.event.state import THIRD_ID, Event, Match, MatchKey, RecordedGame
from knockout.points import knockout_points
from knockout.rules.book.bracket import round_name
from knockout.rules.chain.progress import THIRD_PLACE

__all__ = ["decided_records", "event_record", "standings"]


def _offset(event: Event, at: str) -> float:
    """Seconds from the event's creation to ``at``."""
    start = datetime.fromisoformat(event.header.created)
    return (datetime.fromisoformat(at) - start).total_seconds()


def _game_record(event: Event, m: Match, g: RecordedGame) -> GameRecord:
    stage = event.scenario.format.stage(g.stage)
    red_pts, black_pts = knockout_points(g.result, draw_winner=stage.draw_winner)
    made = m.decisions.get(g.number)
    when = _offset(event, g.at)
    return GameRecord(
        number=g.number,
        stage=g.stage,
        red=g.red,
        black=g.black,
        clock=g.clock if g.clock is not None else stage.minutes,
        increment_seconds=g.increment_seconds,
        result=g.result,
        time_used={n: g.time_used.get(n, math.nan) for n in (g.red, g.black)},
        points={g.red: red_pts, g.black: black_pts},
        moves=g.moves or 0,
        flag_fall=None,
        start=when,
        end=when,
        **decision_fields(None if made is None else made.made, g.red, g.black),
    )


def _match_record(event: Event, m: Match) -> MatchRecord:
    assert m.players is not None and m.winner is not None and m.decided_in is not None
    games = tuple(_game_record(event, m, g) for g in m.games)
    start = games[0].start if games else 0.0
    end = games[-1].end if games else start
    return MatchRecord(m.players, m.winner, m.decided_in, games, start, end)


def decided_records(event: Event) -> dict[MatchKey, MatchRecord]:
    """Every decided match (the match for third place included) as a record, by key."""
    return {m.key: _match_record(event, m) for m in event.matches if m.winner is not None}


def _record(event: Event, records: dict[MatchKey, MatchRecord]) -> EventRecord:
    """The decided matches as an event record (every match, once the event is finished)."""
    third_key = (event.rounds, THIRD_PLACE)
    by_round: dict[int, list[MatchRecord]] = {}
    for key, r in sorted(records.items()):
        if key != third_key:
            by_round.setdefault(key[0], []).append(r)
    rounds = [
        RoundRecord(
            k,
            round_name(k, event.rounds),
            min(r.start for r in matches),
            max(r.end for r in matches),
            tuple(matches),
        )
        for k, matches in sorted(by_round.items())
    ]
    duration = max([r.end for r in records.values()] + [0.0])
    return EventRecord(event.state.bracket, tuple(rounds), records.get(third_key), duration)


def event_record(event: Event) -> EventRecord | None:
    """The finished event's record (None while it is running)."""
    return _record(event, decided_records(event)) if event.finished else None


def standings(event: Event) -> tuple[KnockoutStanding, ...]:
    """The final ranking once the event is finished, else the ranking so far: the same rule
    (:func:`~knockout.engine.ranking.how_far`, then points and the ``[ranking]`` tie-breaks
    under the FIDE rules it names) on the decided matches."""
    record = event_record(event)
    if record is not None:
        return final_ranking(record, event.scenario, seed=event.seed)
    table = event_crosstable(_record(event, decided_records(event)), event.scenario)
    decided: list[Decided] = [
        (m.key[0], m.id == THIRD_ID, m.winner, m.loser)
        for m in event.matches
        if m.winner is not None and m.loser is not None
    ]
    reached = how_far(event.state.bracket, decided)
    return rank_knockout(table, reached, event.scenario, seed=event.seed)
