"""The final ranking of every player of a knockout event.

Players are ordered by the round they reached (champion, runner-up, the losing semi-finalists, ...;
with a third-place match its winner is third and its loser fourth), then by their per-game points
(RULES.md section 1: win 3, draw 1, a drawn sudden-death game 1.5 for Black and 1 for Red), then by
the scenario's tie-breaks in order (``[ranking] tiebreaks``, codes of
:mod:`knockout.standings.tiebreaks`), optionally ending with a seeded drawing of lots; players still
tied share a rank (1, 2, 2, 4). The tie-breaks follow the version of FIDE's rules the scenario names
(``[ranking] rules``, ``"2024"`` or ``"2026"``; default the newest), with the Swiss conventions for
unplayed rounds: a knockout is paired round by round.

The tie-breaks read a :class:`~knockout.standings.records.CrossTable` of the event's games. Its
rounds are game slots: bracket round ``k`` has as many slots as its longest match had games, and a
match's ``g``-th game goes in that round's ``g``-th slot. Each entry carries the game's per-game
points, so Buchholz and Sonneborn-Berger are computed in that scoring. A walkover is a forfeit (FIDE
``WIN`` counts it, the seed's ``WON`` does not), and a slot in which a player had no game is an
absence, which FIDE C.07 treats as an unplayed round (see docs/tiebreaks.md). Where FIDE evaluates
an unplayed round "as a draw", it is worth a draw in per-game points (1).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import numpy as np

from knockout.engine.records import EventRecord
from knockout.game import Colour
from knockout.points import KNOCKOUT, knockout_points
from knockout.rules.book.bracket import Bracket, round_name
from knockout.rules.scenario.aggregate import Scenario
from knockout.standings.conventions import Conventions
from knockout.standings.records import CrossTable, Entry, Kind, Outcome
from knockout.standings.tiebreaks import get_tiebreak, json_number, rank_players

__all__ = [
    "Decided",
    "KnockoutStanding",
    "event_crosstable",
    "final_ranking",
    "how_far",
    "rank_knockout",
]

_DRAW = (KNOCKOUT.red_draw + KNOCKOUT.black_draw) / 2
"""A draw in per-game points: what an unplayed round "evaluated as a draw" is worth."""


@dataclass(frozen=True)
class KnockoutStanding:
    """One player's place in the final ranking.

    Attributes:
        name: The player.
        rank: 1 for the champion; players still tied share a rank.
        reached: What the player reached: ``champion``, ``final``, ``third place``, ``fourth
            place``, ``semi-final``, ..., ``round 1``.
        points: Per-game points over the whole event.
        tiebreaks: Tie-break values by code (None where one does not apply).
    """

    name: str
    rank: int
    reached: str
    points: Decimal
    tiebreaks: dict[str, Decimal | None]

    def to_json(self) -> dict[str, Any]:
        """``{"name", "rank", "reached", "points", "tiebreaks"}``."""
        return {
            "name": self.name,
            "rank": self.rank,
            "reached": self.reached,
            "points": json_number(self.points),
            "tiebreaks": {k: json_number(v) for k, v in self.tiebreaks.items()},
        }


def event_crosstable(record: EventRecord, scenario: Scenario) -> CrossTable:
    """The event's games as a cross table of game slots, with per-game points."""
    entries: list[tuple[str, Entry]] = []
    offset = 0
    stage_of = {s.name: s for s in scenario.format.stages}
    groups = [list(r.matches) for r in record.rounds]
    if record.third_place is not None:
        groups[-1].append(record.third_place)
    for matches in groups:
        # a walkover takes the slot after the games played before the withdrawal
        width = max([len(m.games) + (m.decided_in == "walkover") for m in matches] + [1])
        for m in matches:
            if m.decided_in == "walkover":
                slot = offset + len(m.games) + 1
                for name, outcome in ((m.winner, Outcome.WIN), (m.loser, Outcome.LOSS)):
                    other = m.loser if name == m.winner else m.winner
                    entries.append(
                        (name, Entry(slot, other, None, outcome, Kind.FORFEIT, Decimal(0)))
                    )
            for g, game in enumerate(m.games, start=1):
                draw_winner = stage_of[game.stage].draw_winner
                red_pts, black_pts = knockout_points(game.result, draw_winner=draw_winner)
                for name, other, colour, pts in (
                    (game.red, game.black, Colour.RED, red_pts),
                    (game.black, game.red, Colour.BLACK, black_pts),
                ):
                    outcome = Outcome.from_result(game.result, colour)
                    entries.append(
                        (name, Entry(offset + g, other, colour, outcome, Kind.PLAYED, pts))
                    )
        offset += width
    names = tuple(p.name for p in scenario.players)
    return CrossTable.from_entries(
        names, entries, rounds=offset, title=scenario.name, draw_points=_DRAW
    )


#: A decided match for the ranking: its round, whether it is the match for third place, the
#: winner and the loser.
Decided = tuple[int, bool, str, str]


def how_far(bracket: Bracket, decided: Iterable[Decided]) -> dict[str, tuple[int, str]]:
    """The knockout ranking rule: per player, a sort key (larger is further) and a label.

    One rule for a finished event and for one still running: lost in round ``k``: ``2k``
    (the label is the round's name, ``final`` for the runner-up); still in at round ``k``:
    ``2k + 1`` (``in <round>``; a first-round bye: in round 2); the champion ``2R + 2``; with
    a match for third place its winner ``2R - 1`` and its loser ``2R - 2``.
    """
    rounds = bracket.rounds
    out = {
        name: (5, f"in {round_name(2, rounds)}")
        if bracket.has_bye(name) and rounds >= 2
        else (3, f"in {round_name(1, rounds)}")
        for name in bracket.players
    }
    for k, third, winner, loser in sorted(decided, key=lambda d: (d[0], d[1])):
        if third:
            out[winner] = (2 * rounds - 1, "third place")
            out[loser] = (2 * rounds - 2, "fourth place")
        elif k == rounds:
            out[winner] = (2 * rounds + 2, "champion")
            out[loser] = (2 * rounds, "final")
        else:
            out[loser] = (2 * k, round_name(k, rounds))
            out[winner] = (2 * k + 3, f"in {round_name(k + 1, rounds)}")
    return out


def rank_knockout(
    table: CrossTable, reached: Mapping[str, tuple[int, str]], scenario: Scenario, *, seed: int
) -> tuple[KnockoutStanding, ...]:
    """Order players by how far they came, then per-game points, then the scenario's
    ``[ranking]`` tie-breaks under the FIDE rules it names (lots, if asked for, from ``seed``)."""
    codes = list(scenario.ranking.tiebreaks) + (["lots"] if scenario.ranking.lots else [])
    # a generator only where lots are drawn (numpy.random is slow to load for a short command)
    draws = any(get_tiebreak(code).needs_rng for code in codes)
    standings = rank_players(
        table,
        codes,
        rng=np.random.default_rng(seed) if draws else None,
        primary={name: (key,) for name, (key, _) in reached.items()},
        conventions=Conventions(rules=scenario.ranking.rules, tournament="swiss"),
    )
    return tuple(
        KnockoutStanding(s.name, s.rank, reached[s.name][1], s.points, dict(s.tiebreaks))
        for s in standings.players
    )


def final_ranking(
    record: EventRecord, scenario: Scenario, *, seed: int = 0
) -> tuple[KnockoutStanding, ...]:
    """Rank every player of a finished event (lots, if asked for, drawn from ``seed``)."""
    decided: list[Decided] = [
        (r.number, False, m.winner, m.loser) for r in record.rounds for m in r.matches
    ]
    if record.third_place is not None:
        decided.append(
            (record.bracket.rounds, True, record.third_place.winner, record.third_place.loser)
        )
    return rank_knockout(
        event_crosstable(record, scenario), how_far(record.bracket, decided), scenario, seed=seed
    )
