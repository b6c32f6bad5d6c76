"""The odds of the rest of an event (``knockout event odds``): the exact solver on the event's
scenario, with the games, bids and withdrawals recorded so far as ``[[played]]``.

Apart from :mod:`knockout.event.export` so that the command loads the solver and not the
exports' ranking and CSV writers.
"""

from __future__ import annotations

from typing import Any

from knockout.answers import BracketOdds, MatchOdds
from knockout.event.state import Event
from knockout.exact.bracket import bracket_odds
from knockout.exact.odds import match_odds
from knockout.io.envelope import envelope

__all__ = ["event_odds", "odds_json"]


def event_odds(event: Event) -> MatchOdds | BracketOdds:
    """Exact odds of the rest of the event (of the match, for a two-player event)."""
    sc = event.scenario
    return bracket_odds(sc) if sc.is_bracket else match_odds(sc)


def odds_json(event: Event) -> dict[str, Any]:
    """The same JSON as ``knockout odds --json`` of the exported scenario."""
    return envelope(event_odds(event).to_json(), scenario=event.scenario.to_dict())
