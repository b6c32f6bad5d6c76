"""Differential test against FIDE's own tie-break checker, gacrux 1.11.65.

Every event is written as TRF-16 (with its start date in record 042 and its tournament type in
record 092) by :func:`~knockout.standings.trf.to_trf`; gacrux reads that text and computes the
tie-breaks under the rules it selects by the date (its rules version 1 before 1 March 2026,
version 2 from then on or when undated), and so does this project from the same text. Every
tie-break code the registry shares with gacrux must have identical values for every player;
direct encounter, whose gacrux value is a rank rather than points, must give identical ranks
wherever both apply it (tied players who all met each other equally often).

The events (:mod:`random_events`): 150 random Swiss events and 150 random round robins.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from decimal import Decimal
from itertools import combinations
from typing import Any

import pytest
from gacrux.tiebreak import tiebreak as GacruxTiebreak
from gacrux.trf2json import trf2json as GacruxTrf
from random_events import random_round_robin, random_swiss
from standings_helpers import FIDE_EXERCISE_2024, crosstable

from knockout.game import Colour
from knockout.standings.conventions import Conventions, parse_event_date
from knockout.standings.records import CrossTable, Entry, Kind
from knockout.standings.tiebreaks import rank_players
from knockout.standings.trf import parse_trf, to_trf

EVENTS = 150
"""Random events of each kind (Swiss, round robin)."""

#: Every code of the registry that gacrux also computes, with gacrux's spelling.
SHARED = {
    "BH": "BH",
    "BH-C1": "BH/C1",
    "BH-C2": "BH/C2",
    "BH-M1": "BH/M1",
    "BH-M2": "BH/M2",
    "SB": "SB",
    "SB-C1": "SB/C1",
    "SB-C2": "SB/C2",
    "SB-M1": "SB/M1",
    "PS": "PS",
    "PS-C1": "PS/C1",
    "WIN": "WIN",
    "WON": "WON",
    "BWG": "BWG",
    "BPG": "BPG",
}
GACRUX_RULES = {"2024-08-01": "2024", "2026-03-01": "2026"}
"""gacrux's label of its rules versions 1 and 2, and the version of FIDE C.07 each implements."""


def gacrux(text: str, codes: list[str]) -> tuple[dict[str, Any], bool]:
    """gacrux's result for the TRF ``text`` ranked by ``codes``; whether it saw a round robin."""
    reader = GacruxTrf()
    reader.parse_file(text, 0)
    status = reader.chessjson["status"]
    assert status.get("code", 0) < 400, status
    tournament = reader.get_tournament(1)
    params: dict[str, Any] = {"tiebreak": codes, "check": False, "unrated": None}
    checker = GacruxTiebreak(tournament, -1, params)
    return checker.compute_tiebreaks(tournament, params), bool(checker.rr)


def assert_same_values(table: CrossTable) -> Conventions:
    """Every shared tie-break of every player of ``table`` agrees with gacrux."""
    text = to_trf(table)
    ours = parse_trf(text)
    conventions = Conventions.for_event(ours)
    ranked = rank_players(ours, list(SHARED), conventions=conventions)
    mine = {s.name: s.tiebreaks for s in ranked.players}
    result, round_robin = gacrux(text, ["PTS", *SHARED.values()])
    assert GACRUX_RULES[result["rules"]] == conventions.rules, table.title
    assert round_robin == conventions.round_robin, table.title
    differences = []
    for competitor in result["competitors"]:
        name = ours.players[competitor["cid"] - 1]
        for code, value in zip(SHARED, competitor["tiebreakScore"][1:], strict=True):
            if Decimal(str(value)) != mine[name][code]:
                differences.append((name, code, str(value), str(mine[name][code])))
    assert differences == [], f"{table.title} ({conventions}): {differences}"
    return conventions


def _all_met_equally(table: CrossTable, group: list[str], round_robin: bool) -> bool:
    meetings: Counter[frozenset[str]] = Counter()
    for name in group:
        for e in table.entries[name]:
            counts = e.is_played or (round_robin and e.kind is Kind.FORFEIT)
            if counts and e.opponent in group:
                meetings[frozenset((name, e.opponent))] += 1
    times = {meetings[frozenset(pair)] for pair in combinations(group, 2)}
    return len(times) == 1 and 0 not in times


def assert_same_direct_encounter(table: CrossTable) -> int:
    """Ranks by points then direct encounter agree with gacrux for every tied group in which
    every two players met equally often; returns how many such groups there were."""
    text = to_trf(table)
    ours = parse_trf(text)
    conventions = Conventions.for_event(ours)
    mine = {s.name: s.rank for s in rank_players(ours, ["DE"], conventions=conventions).players}
    result, _ = gacrux(text, ["PTS", "DE"])
    theirs = {ours.players[c["cid"] - 1]: c["rank"] for c in result["competitors"]}
    by_points: dict[Decimal, list[str]] = {}
    for name in ours.players:
        by_points.setdefault(ours.score(name), []).append(name)
    checked = 0
    for group in by_points.values():
        if len(group) > 1 and _all_met_equally(ours, group, conventions.round_robin):
            assert {n: mine[n] for n in group} == {n: theirs[n] for n in group}, table.title
            checked += 1
    return checked


def _features(table: CrossTable) -> set[str]:
    kinds = {e.kind.value for rows in table.entries.values() for e in rows}
    size = "odd" if len(table.players) % 2 else "even"
    return kinds | {f"{size} size", table.tournament_type.split(" ")[0]}


@pytest.mark.slow
@pytest.mark.parametrize("make", [random_swiss, random_round_robin], ids=["swiss", "round-robin"])
def test_random_events_agree_with_fides_checker(make: Callable[[int], CrossTable]) -> None:
    seen: Counter[str] = Counter()
    tied_groups = 0
    for seed in range(EVENTS):
        table = make(seed)
        conventions = assert_same_values(table)
        tied_groups += assert_same_direct_encounter(table)
        seen.update(_features(table) | {f"rules {conventions.rules}", conventions.tournament})
    # The events cover what the test is about: both rules versions, every kind of unplayed
    # round, odd and even round robins, single and double.
    assert seen["rules 2024"] >= 40 and seen["rules 2026"] >= 40, seen
    assert seen["forfeit"] >= 50 and seen["absent"] >= 30, seen
    if make is random_swiss:
        assert seen["swiss"] == EVENTS
        assert all(seen[k] >= 20 for k in ("pairing-bye", "full-bye", "half-bye", "zero-bye"))
    else:
        assert seen["round-robin"] == EVENTS
        assert seen["odd size"] >= 30 and seen["even size"] >= 30 and seen["Double"] >= 20, seen
    assert tied_groups >= 50


def _forfeits_with_colours(table: CrossTable) -> CrossTable:
    """``table`` with every forfeit given colours (the lower starting rank Red).

    gacrux's TRF reader pairs the two sides of a game by who had White, so a forfeit written
    with colour ``-`` on both sides is not read as one game.
    """
    order = {name: i for i, name in enumerate(table.players)}

    def coloured(name: str, e: Entry) -> Entry:
        if e.kind is not Kind.FORFEIT or e.opponent is None or e.colour is not None:
            return e
        return replace(e, colour=Colour.RED if order[name] < order[e.opponent] else Colour.BLACK)

    entries = {n: tuple(coloured(n, e) for e in rows) for n, rows in table.entries.items()}
    return replace(table, entries=entries)


@pytest.mark.parametrize("day", [None, "2024/09/01", "2026/03/01"])
def test_fides_published_exercise_agrees_with_fides_checker(day: str | None) -> None:
    """The Technical Commission's exercise of 18 March 2024, dated before and after the 2026
    revision and undated."""
    table = replace(
        _forfeits_with_colours(crosstable(FIDE_EXERCISE_2024)),
        title="FIDE tie-break exercise",
        start_date=None if day is None else parse_event_date(day),
        tournament_type="Individual: Swiss-System",
    )
    conventions = assert_same_values(table)
    assert conventions.rules == ("2024" if day == "2024/09/01" else "2026")
