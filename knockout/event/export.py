"""What an event file gives out: JSON, CSV, a scenario file, and the odds of the rest.

* JSON: ``{"version", "event", "games", "bids", "ranking", "matches", "withdrawn",
  "scenario"}``; ``games`` lists every recorded game and then each match's next game
  (``result`` null until played); ``matches`` says who won each match and how
  (:mod:`knockout.event.facts`); ``scenario`` is the scenario export's, so ``knockout odds`` on
  the JSON file gives what ``knockout event odds`` gives.
* CSV: the same games, one per line; or (``table="matches"``) one line per match. A text cell
  that a spreadsheet would take for a formula (it starts with ``=``, ``+``, ``-``, ``@``, a tab
  or a carriage return) is written with a leading ``'``.
* Scenario (TOML): the event's resolved scenario with the recorded games as ``[[played]]`` (in
  the order they were recorded, with their times and moves) and the withdrawals as
  ``withdrawn = true``, which ``knockout odds``, ``simulate`` and ``play`` start from; its
  ``[event]`` table holds what ``knockout event new`` needs to carry the event on exactly: the
  event's seed (the colour lots of the games to come), its language, the federations and when
  each withdrawal came (``after``: how many ``[[played]]`` entries came before it). A
  sudden-death game carries the bid that set it up (``chooser``, ``announce``, ``reply``), a
  chosen game its colour choice (``chooser``, ``colour``), an Armageddon its
  sealed bids (``bids``, ``lot_black`` for equal bids), a cut-and-choose game its cut
  (``cutter``, ``red_minutes``, ``colour``); a decision recorded for a game not yet played is a
  ``[[played]]`` entry of its own, with those keys and no result, so the odds start from the
  game it set up (its colours and clocks fixed), as ``knockout event odds`` does.
* Odds: exactly ``knockout odds --json`` of that scenario.
"""

from __future__ import annotations

import csv
import io
from typing import Any

from knockout.event.facts import match_facts
from knockout.event.ranking import standings
from knockout.event.state import Event, NextGame, RecordedGame
from knockout.event.toml import dumps
from knockout.i18n import _, ngettext
from knockout.io.envelope import envelope
from knockout.standings.tiebreaks import json_number

__all__ = [
    "CSV_COLUMNS",
    "MATCH_COLUMNS",
    "csv_cell",
    "matches_csv",
    "scenario_data",
    "to_csv",
    "to_json",
    "to_scenario_toml",
    "withdrawn_json",
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


#: The columns of the matches table (``--table matches``).
MATCH_COLUMNS = (
    "match",
    "round",
    "label",
    "upper",
    "lower",
    "seed_upper",
    "seed_lower",
    "games",
    "points_upper",
    "points_lower",
    "winner",
    "loser",
    "decided_in",
    "how",
    "withdrawn",
    "status",
)

#: What a spreadsheet reads as the start of a formula (OWASP's list for CSV injection).
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: object) -> str:
    """A CSV cell: numbers as they are (``2.5``), text with a leading ``'`` where a spreadsheet
    would run it as a formula.

    >>> csv_cell("=HYPERLINK(1)"), csv_cell(-2.5), csv_cell("R1-M1"), csv_cell(None)
    ("'=HYPERLINK(1)", '-2.5', 'R1-M1', '')
    """
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, int):
        return str(value)
    text = str(value)
    return "'" + text if text.startswith(_FORMULA_START) else text


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


def withdrawn_json(event: Event) -> list[dict[str, Any]]:
    """``[{"name", "match"}]``: who withdrew, in journal order, and from which match."""
    undone = event.undone
    return [
        {"name": e.player, "match": e.match}
        for e in event.entries
        if e.kind == "withdraw" and e.seq not in undone
    ]


def to_json(event: Event) -> dict[str, Any]:
    """``{"version", "event", "games", "bids", "ranking", "matches", "withdrawn",
    "scenario"}``: a results file that ``knockout odds`` also reads (its ``scenario``)."""
    body = {
        "event": event.name,
        "games": [_game_json(g) for g in _games(event)],
        "bids": [b.to_json() for b in event.recorded("bid").values()],
        "ranking": [
            {"name": s.name, "rank": s.rank, "points": json_number(s.points)}
            for s in standings(event)
        ],
        "matches": [f.to_json() for f in match_facts(event)],
        "withdrawn": withdrawn_json(event),
    }
    return envelope(body, scenario=scenario_data(event))


def to_csv(event: Event, table: str = "games") -> str:
    """The games, one per line (result ``red``/``draw``/``black``, empty until played); with
    ``table="matches"``, the matches (:data:`MATCH_COLUMNS`)."""
    if table == "matches":
        return matches_csv(event)
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for g in _games(event):
        used = g.time_used if isinstance(g, RecordedGame) else {}
        moves = g.moves if isinstance(g, RecordedGame) else None
        clock = g.clock or ("", "")
        row = [
            g.match,
            g.number,
            g.stage,
            g.red,
            g.black,
            clock[0],
            clock[1],
            g.result.value if isinstance(g, RecordedGame) else "",
            used.get(g.red, ""),
            used.get(g.black, ""),
            moves,
        ]
        writer.writerow([csv_cell(v) for v in row])
    return buffer.getvalue()


def matches_csv(event: Event) -> str:
    """One line per match (:data:`MATCH_COLUMNS`): players (upper and lower line of the draw),
    their seeds and points, the winner and how (``games``, ``sudden-death draw``, ``walkover``,
    ``withdrawal``), who of them withdrew, and whether it is decided, playing or waiting."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(MATCH_COLUMNS)
    for f in match_facts(event):
        up, down = f.players if f.players is not None else (None, None)
        row = [
            f.match,
            f.round,
            f.label,
            up,
            down,
            None if up is None else f.seeds[up],
            None if down is None else f.seeds[down],
            len(f.games),
            None if up is None else f.points[up],
            None if down is None else f.points[down],
            f.winner,
            f.loser,
            f.decided_in,
            f.how,
            ";".join(f.withdrawn),
            f.status,
        ]
        writer.writerow([csv_cell(v) for v in row])
    return buffer.getvalue()


def scenario_data(event: Event, *, language: str | None = None) -> dict[str, Any]:
    """The event's scenario (``[[played]]`` in journal order, withdrawals) with its
    ``[event]`` table: the seed, the language (``language``, when the file stores one), the
    federations given, and after how many ``[[played]]`` entries each withdrawal came."""
    data = event.scenario.to_dict()
    left = [e.seq for e in event.entries if e.kind == "withdraw" and e.seq not in event.undone]
    withdrawals = [  # event.withdrawn: the same entries in the same order, names as they are now
        {"name": name, "after": sum(1 for at in event.played_at if at < seq)}
        for name, seq in zip(event.withdrawn, left, strict=True)
    ]
    table: dict[str, Any] = {"seed": event.seed}
    if language is not None:
        table["language"] = language
    table["federations"] = {n: f for n, f in event.federations.items() if f is not None}
    table["withdrawals"] = withdrawals
    return {**data, "event": table}


def to_scenario_toml(event: Event, *, language: str | None = None) -> str:
    """The scenario with ``[[played]]`` games and withdrawals, and the ``[event]`` table that
    carries the event on (:func:`scenario_data`), as a TOML file."""
    games, withdrawn, entries = len(event.games), len(event.withdrawn), len(event.entries)
    header = [
        _("{event}: exported from the event file {source}").format(
            event=event.name, source=event.source
        ),
        _("{games} recorded, {withdrawals}, {entries}.").format(
            games=ngettext("{n} game", "{n} games", games).format(n=games),
            withdrawals=ngettext("{n} withdrawal", "{n} withdrawals", withdrawn).format(
                n=withdrawn
            ),
            entries=ngettext("{n} journal entry", "{n} journal entries", entries).format(n=entries),
        ),
        _("knockout odds, simulate and play start from the games (and bids) below;"),
        _("knockout event new NEW.db --scenario FILE carries the event on from here ([event])."),
    ]
    return dumps(scenario_data(event, language=language), header=header)
