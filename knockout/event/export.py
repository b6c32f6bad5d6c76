"""What an event file gives out: JSON, CSV, a scenario file, and the odds of the rest.

* JSON: ``{"version", "event", "games", "bids", "ranking"}``; ``games`` lists every recorded
  game and then each match's next game (``result`` null until played).
* CSV: the same games, one per line.
* Scenario (TOML): the event's resolved scenario with the recorded games as ``[[played]]`` and
  the withdrawals as ``withdrawn = true``, which ``knockout odds``, ``simulate`` and ``play``
  start from. A sudden-death game carries the bid that set it up (``chooser``, ``announce``,
  ``reply``); a bid recorded for a game not yet played is a ``[[played]]`` entry of its own,
  with those keys and no result, so the odds start from the game the bid set up (its colours
  and clocks fixed), as ``knockout event odds`` does.
* Odds: exactly ``knockout odds --json`` of that scenario.
"""

from __future__ import annotations

import csv
import io
from typing import Any

from knockout.event.ranking import standings
from knockout.event.state import Event, NextGame, RecordedGame
from knockout.event.toml import dumps
from knockout.exact.bracket import bracket_odds
from knockout.exact.odds import match_odds
from knockout.io.envelope import envelope
from knockout.io.text import plural
from knockout.odds import BracketOdds, MatchOdds
from knockout.standings.tiebreaks import json_number

__all__ = [
    "CSV_COLUMNS",
    "event_odds",
    "odds_json",
    "to_csv",
    "to_json",
    "to_scenario_toml",
]

CSV_COLUMNS = (
    "match",
    "game",
    "stage",
    "red",
    "black",
    "clock_red",
    "clock_black",
    "result",
    "time_used_red",
    "time_used_black",
    "moves",
)


def _game_json(g: RecordedGame | NextGame) -> dict[str, Any]:
    return {
        "match": g.match,
        "game": g.number,
        "stage": g.stage,
        "red": g.red,
        "black": g.black,
        "clock": None if g.clock is None else [g.clock[0], g.clock[1]],
        "result": g.result.value if isinstance(g, RecordedGame) else None,
        "time_used": dict(g.time_used) if isinstance(g, RecordedGame) else {},
    }


def _games(event: Event) -> list[RecordedGame | NextGame]:
    """Every recorded game, then the next game of each match, in match order."""
    out: list[RecordedGame | NextGame] = []
    for m in event.matches:
        out.extend(m.games)
        step = event.next_step(m)
        if isinstance(step, NextGame):
            out.append(step)
    return out


def to_json(event: Event) -> dict[str, Any]:
    """``{"version", "event", "games", "bids", "ranking"}``."""
    body = {
        "event": event.name,
        "games": [_game_json(g) for g in _games(event)],
        "bids": [b.to_json() for b in event.bids.values()],
        "ranking": [
            {"name": s.name, "rank": s.rank, "points": json_number(s.points)}
            for s in standings(event)
        ],
    }
    return envelope(body)


def to_csv(event: Event) -> str:
    """The games, one per line (result ``red``/``draw``/``black``, empty until played)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for g in _games(event):
        used = g.time_used if isinstance(g, RecordedGame) else {}
        moves = g.moves if isinstance(g, RecordedGame) else None
        clock = g.clock or ("", "")
        writer.writerow(
            [
                g.match,
                g.number,
                g.stage,
                g.red,
                g.black,
                _cell(clock[0]),
                _cell(clock[1]),
                g.result.value if isinstance(g, RecordedGame) else "",
                _cell(used.get(g.red, "")),
                _cell(used.get(g.black, "")),
                "" if moves is None else moves,
            ]
        )
    return buffer.getvalue()


def _cell(value: float | str) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def to_scenario_toml(event: Event) -> str:
    """The scenario with ``[[played]]`` games and withdrawals, as a TOML file."""
    header = [
        f"{event.name}: exported from the event file {event.source}",
        f"{plural(len(event.games), 'game')} recorded, "
        f"{plural(len(event.withdrawn), 'withdrawal')}, "
        f"{plural(len(event.entries), 'journal entry', 'journal entries')}.",
        "knockout odds, simulate and play start from the games (and bids) below.",
    ]
    return dumps(event.scenario.to_dict(), header=header)


def event_odds(event: Event) -> MatchOdds | BracketOdds:
    """Exact odds of the rest of the event (of the match, for a two-player event)."""
    sc = event.scenario
    return bracket_odds(sc) if sc.is_bracket else match_odds(sc)


def odds_json(event: Event) -> dict[str, Any]:
    """The same JSON as ``knockout odds --json`` of the exported scenario."""
    return envelope(event_odds(event).to_json(), scenario=event.scenario.to_dict())
