"""Tie-breaks and rankings over game records (RULES.md section 4, FIDE C.07).

Each tie-break is a small pure function over a :class:`~knockout.standings.records.CrossTable`,
registered in :data:`TIEBREAKS` under its FIDE code; :func:`get_tiebreak` also understands the
generalised codes ``BH-Ck``, ``BH-Mk``, ``SB-Ck``, ``SB-Mk`` and ``PS-Ck``. :func:`rank_players`
ranks players by points and then by an ordered list of tie-breaks, optionally ending with a seeded
drawing of lots; players still tied share a rank (1, 2, 2, 4).

The FIDE text followed is the *FIDE Handbook C.07, Play-off and Tie-Break Regulations*: the
edition in force from 1 April 2024 (approved by the FIDE Council on 1 August 2023), and its
revision approved on 2 February 2026, in force from 1 March 2026. Which one applies, and whether
the event is a Swiss or a round robin, is a :class:`~knockout.standings.conventions.Conventions`
(by default the event's own: the rules in force on its start date). The conventions for unplayed
rounds (C.07 article 16):

* A *voluntarily unplayed round* (VUR) is a half- or zero-point bye, an absence or a forfeit loss;
  a pairing-allocated or full-point bye and a forfeit win are unplayed but not voluntary.
* When a player is somebody's opponent, the player's score counts every round with the points it
  earned, except the VURs without an opponent that follow the player's last round that was not a
  VUR (the rounds after a withdrawal): those count as draws (``CrossTable.draw_points``), or as
  nothing in a round robin (16.3).
* In a player's own Buchholz and Sonneborn-Berger, every unplayed round (bye, forfeit, absence)
  counts as a game against a dummy opponent whose score is the player's own final score; in
  Sonneborn-Berger that score is multiplied by the points the round earned (16.4). Since 1 March
  2026 the dummy's score is at most the scheduled opponent's adjusted score for a forfeit
  (16.4.1), and at most a draw per round of the event for a round without an opponent (16.4.2).
* In a round robin an unplayed game counts as played (the opponent's adjusted score, the result
  awarded, also in direct encounter), and a round without a game is left out altogether.
* Cut modifiers cut voluntarily unplayed rounds first, unless the least significant value is worth
  more than the VUR's (in Buchholz the VUR is always cut first).
* Direct encounter, WON, BWG and BPG count only games played over the board (direct encounter in
  a round robin: every scheduled game); WIN counts every round won, with or without playing
  (forfeit wins, full-point and pairing-allocated byes).

These rules agree, value for value, with FIDE's own checker (gacrux 1.11.65) on random events
(``tests/standings/test_gacrux_differential.py``).

All arithmetic is exact (:class:`~decimal.Decimal`) and uses the points each entry carries, so
every tie-break works under any scoring system. See ``docs/tiebreaks.md``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from types import MappingProxyType
from typing import Any

import numpy as np

from knockout.errors import Problem
from knockout.game import Colour
from knockout.points import GENERAL_TIEBREAK, TIEBREAK_CODES, canonical_tiebreak
from knockout.standings.conventions import Conventions, Rules
from knockout.standings.records import CrossTable, Entry, Kind, Outcome

__all__ = [
    "TIEBREAKS",
    "Standing",
    "Standings",
    "TieBreak",
    "TieValue",
    "adjusted_score",
    "black_games",
    "black_wins",
    "buchholz",
    "colour_results",
    "direct_encounter",
    "draw_lots",
    "floor_cuts",
    "games_won",
    "get_tiebreak",
    "json_number",
    "parse_tiebreaks",
    "progressive_score",
    "rank_players",
    "running_totals",
    "sonneborn_berger",
    "wins",
]

ZERO = Decimal(0)
_WITHDRAWN_KINDS = frozenset({Kind.HALF_BYE, Kind.ZERO_BYE, Kind.ABSENT})


# --- the pure functions ------------------------------------------------------------------------


def adjusted_score(table: CrossTable, player: str, *, round_robin: bool = False) -> Decimal:
    """``player``'s score as it counts in their opponents' Buchholz and Sonneborn-Berger.

    FIDE C.07 article 16.3: every round counts with the points it earned, except the voluntarily
    unplayed rounds without an opponent after the player's last round that was not voluntarily
    unplayed (a withdrawal), which count as draws. In a round robin (``round_robin``) they count
    nothing: the withdrawn player's scheduled games are what the opponents are measured by.
    """
    rows = table.entries[player]
    last = max((e.round for e in rows if not e.is_voluntarily_unplayed), default=0)
    after = ZERO if round_robin else table.draw_points
    return sum(
        (after if e.round > last and e.kind in _WITHDRAWN_KINDS else e.points for e in rows),
        ZERO,
    )


def _adjusted_scores(table: CrossTable, conventions: Conventions) -> dict[str, Decimal]:
    rr = conventions.round_robin
    return {name: adjusted_score(table, name, round_robin=rr) for name in table.players}


@dataclass(frozen=True)
class _Contribution:
    """One round's value in a Buchholz-like sum, and what decides whether it is cut."""

    round: int
    opponent_score: Decimal
    value: Decimal
    voluntary: bool

    @property
    def significance(self) -> tuple[Decimal, Decimal, int]:
        return self.opponent_score, self.value, self.round


def _unplayed_opponent_score(
    table: CrossTable,
    player: str,
    entry: Entry,
    adjusted: Mapping[str, Decimal],
    rules: Rules,
) -> Decimal:
    """The score of the dummy opponent of ``player``'s own unplayed round ``entry`` (Swiss).

    FIDE C.07 article 16.4: the participant's own final score. The 2026 revision bounds it: by
    the adjusted score of the scheduled opponent of a forfeit (16.4.1), and otherwise (byes,
    absences) by the points of a draw times the number of rounds (16.4.2).
    """
    own = table.score(player)
    if rules == "2024":
        return own
    if entry.opponent is not None:
        return min(own, adjusted[entry.opponent])
    return min(own, table.draw_points * table.rounds)


def _contributions(
    table: CrossTable,
    player: str,
    adjusted: Mapping[str, Decimal],
    conventions: Conventions,
    *,
    weighted: bool,
) -> list[_Contribution]:
    """Each round's value in ``player``'s Buchholz (or Sonneborn-Berger, ``weighted``).

    Swiss: a game played over the board counts the opponent's adjusted score; any other round
    counts a dummy opponent (:func:`_unplayed_opponent_score`). Round robin: every scheduled
    game, played or not, counts the opponent's adjusted score, and a round without a game is left
    out (it is not a round of the player's tournament). Sonneborn-Berger multiplies each score by
    the points the round earned.
    """
    out = []
    for e in table.entries[player]:
        if conventions.round_robin:
            if e.opponent is None:
                continue
            score, voluntary = adjusted[e.opponent], False
        elif e.is_played and e.opponent is not None:
            score, voluntary = adjusted[e.opponent], False
        else:
            score = _unplayed_opponent_score(table, player, e, adjusted, conventions.rules)
            voluntary = e.is_voluntarily_unplayed
        value = score * e.points if weighted else score
        out.append(_Contribution(e.round, score, value, voluntary))
    return out


def _cut(
    items: Iterable[_Contribution], low: int, high: int, floor: int = 0
) -> list[_Contribution]:
    """Drop the ``low`` least and the ``high`` most significant values (VURs go first).

    The least significant value is the one of the lowest opponent's score (then the lowest
    value). A voluntarily unplayed round is cut instead when it is worth at least as much; of
    several, the one worth least. The most significant values are cut by score alone.

    ``floor`` (seed 003's seven-round rule): cutting stops where only ``floor`` values would be
    left (:func:`floor_cuts`).
    """
    rest = list(items)
    if floor:
        low, high = floor_cuts(len(rest), low, high, floor)
    for _ in range(min(low, len(rest))):
        least = min(rest, key=lambda c: c.significance)
        voluntary = [c for c in rest if c.voluntary]
        if voluntary:
            least_vur = min(voluntary, key=lambda c: (c.value, c.opponent_score, c.round))
            if least_vur.value >= least.value:
                least = least_vur
        rest.remove(least)
    for _ in range(min(high, len(rest))):
        rest.remove(max(rest, key=lambda c: c.significance))
    return rest


def floor_cuts(values: int, low: int, high: int, floor: int) -> tuple[int, int]:
    """How many of ``values`` values to cut from the bottom and the top when at least ``floor``
    must be kept: the cuts asked for, taken alternately from the bottom and the top (bottom
    first) while values above the floor remain. So under seed 003's floor of seven a median
    (``BH-M1``) of an eight-round event cuts the lowest value only, and ``BH-M2`` of a nine-round
    event cuts one from each end.

    >>> [floor_cuts(n, 1, 1, 7) for n in (5, 7, 8, 9)]
    [(0, 0), (0, 0), (1, 0), (1, 1)]
    >>> floor_cuts(9, 2, 2, 7), floor_cuts(11, 2, 2, 7)
    ((1, 1), (2, 2))
    """
    room = max(values - floor, 0)
    cut_low = cut_high = 0
    while cut_low + cut_high < room and (cut_low < low or cut_high < high):
        if cut_low < low and (cut_low <= cut_high or cut_high >= high):
            cut_low += 1
        else:
            cut_high += 1
    return cut_low, cut_high


def buchholz(
    table: CrossTable,
    player: str,
    *,
    low: int = 0,
    high: int = 0,
    adjusted: Mapping[str, Decimal] | None = None,
    conventions: Conventions | None = None,
) -> Decimal:
    """Buchholz (对手分): the sum of the opponents' scores.

    Args:
        table: The event.
        player: Whose Buchholz.
        low: How many of the least significant values to cut (``BH-C1``: 1).
        high: How many of the most significant values to cut (``BH-M1``: low = high = 1).
        adjusted: Precomputed :func:`adjusted_score` of every player (under the same
            conventions), to save time.
        conventions: Rules version and tournament kind; default: those of the event
            (:meth:`Conventions.for_event`).
    """
    return _opponents_sum(table, player, low, high, adjusted, conventions, weighted=False)


def sonneborn_berger(
    table: CrossTable,
    player: str,
    *,
    low: int = 0,
    high: int = 0,
    adjusted: Mapping[str, Decimal] | None = None,
    conventions: Conventions | None = None,
) -> Decimal:
    """Sonneborn-Berger (索伯分): each opponent's score times the points scored against them.

    On the 1 / 0.5 / 0 scale: the scores of the opponents beaten plus half the scores of those
    drawn. Under another scale each product uses the points the entry actually earned. Arguments
    as for :func:`buchholz`; the least significant value is the one of the lowest-scored opponent.
    """
    return _opponents_sum(table, player, low, high, adjusted, conventions, weighted=True)


def _opponents_sum(
    table: CrossTable,
    player: str,
    low: int,
    high: int,
    adjusted: Mapping[str, Decimal] | None,
    conventions: Conventions | None,
    *,
    weighted: bool,
) -> Decimal:
    if low < 0 or high < 0:
        raise ValueError(f"cuts must be non-negative, got low={low}, high={high}")
    conv = Conventions.for_event(table) if conventions is None else conventions
    adj = _adjusted_scores(table, conv) if adjusted is None else adjusted
    contributions = _contributions(table, player, adj, conv, weighted=weighted)
    kept = _cut(contributions, low, high, conv.cut_floor)
    return sum((c.value for c in kept), ZERO)


def running_totals(table: CrossTable, player: str) -> tuple[Decimal, ...]:
    """``player``'s score after each round (byes and forfeits included)."""
    totals = []
    total = ZERO
    for e in table.entries[player]:
        total += e.points
        totals.append(total)
    return tuple(totals)


def progressive_score(table: CrossTable, player: str, *, cut: int = 0) -> Decimal:
    """Progressive score (累进分): the sum of the running totals after each round.

    ``cut`` leaves out the running totals of the first ``cut`` rounds (FIDE's ``PS-Ck``).

    Raises:
        ValueError: For a negative ``cut``.
    """
    if cut < 0:
        raise ValueError(f"cut must be non-negative, got {cut}")
    return sum(running_totals(table, player)[cut:], ZERO)


def wins(table: CrossTable, player: str) -> int:
    """FIDE ``WIN``: rounds won, with or without playing (forfeit wins, full-point and
    pairing-allocated byes count)."""
    return sum(1 for e in table.entries[player] if e.outcome is Outcome.WIN)


def games_won(table: CrossTable, player: str) -> int:
    """FIDE ``WON`` (the seed's 胜局数): games won over the board."""
    return sum(1 for e in table.entries[player] if e.is_played and e.outcome is Outcome.WIN)


def black_games(table: CrossTable, player: str) -> int:
    """FIDE ``BPG``: games played over the board with Black."""
    return sum(1 for e in table.entries[player] if e.is_played and e.colour is Colour.BLACK)


def black_wins(table: CrossTable, player: str) -> int:
    """FIDE ``BWG``: games won over the board with Black."""
    return sum(
        1
        for e in table.entries[player]
        if e.is_played and e.colour is Colour.BLACK and e.outcome is Outcome.WIN
    )


def colour_results(table: CrossTable, player: str, colour: Colour, outcome: Outcome) -> int:
    """Games played over the board with ``colour`` that ended in ``outcome`` for ``player``.

    Seed 001's ranking chains count Black wins, Red wins, Black draws and Red draws (codes
    ``BWG``, ``RWG``, ``BDG``, ``RDG``).
    """
    return sum(
        1
        for e in table.entries[player]
        if e.is_played and e.colour is colour and e.outcome is outcome
    )


def direct_encounter(
    table: CrossTable, group: Iterable[str], *, round_robin: bool = False
) -> dict[str, Decimal] | None:
    """Direct encounter (直胜): each player's points in the games among ``group``.

    Only games played over the board count, except in a round robin (``round_robin``), where an
    unplayed game counts as played with the result awarded (FIDE C.07 article 16). ``None``
    unless every two players of the group have met (FIDE C.07 and seed 003: "only if all tied
    players have met each other").
    """
    members = list(dict.fromkeys(group))
    if len(members) < 2:
        return None
    inside = set(members)
    points = dict.fromkeys(members, ZERO)
    met: set[frozenset[str]] = set()
    for name in members:
        for e in table.entries[name]:
            counts = e.is_played or (round_robin and e.kind is Kind.FORFEIT)
            if counts and e.opponent in inside:
                points[name] += e.points
                met.add(frozenset((name, e.opponent)))
    if len(met) < len(members) * (len(members) - 1) // 2:
        return None
    return points


def draw_lots(players: Sequence[str], rng: np.random.Generator) -> dict[str, int]:
    """A drawing of lots: each player gets a distinct number 1..n; number 1 ranks first.

    Deterministic for a generator's seed and the order of ``players``.
    """
    order = rng.permutation(len(players))
    return {name: int(lot) + 1 for name, lot in zip(players, order, strict=True)}


# --- the registry ------------------------------------------------------------------------------


@dataclass(frozen=True)
class TieValue:
    """A tie-break's value for one player.

    Attributes:
        shown: What the standings show (``None``: not applicable).
        key: What ranking compares, lexicographically; a larger key ranks higher.
    """

    shown: Decimal | None
    key: tuple[Decimal, ...]


Evaluator = Callable[
    [CrossTable, Sequence[str], "np.random.Generator | None", Conventions],
    Mapping[str, TieValue],
]
"""``evaluate(table, group, rng, conventions)``: a value for every player of ``group``."""


@dataclass(frozen=True)
class TieBreak:
    """A registered tie-break.

    Attributes:
        code: FIDE-style code (``BH-C1``), the key in standings and JSON.
        title: Name for listings.
        description: One line.
        evaluate: ``evaluate(table, group, rng, conventions)`` gives every player of ``group`` a
            value under the event's conventions (rules version, Swiss or round robin).
        depends_on_group: The value depends on who is tied (direct encounter): it is computed for
            each tied group, and reapplied to a smaller group that is still tied.
        needs_rng: Uses the random generator (drawing of lots).
    """

    code: str
    title: str
    description: str
    evaluate: Evaluator
    depends_on_group: bool = False
    needs_rng: bool = False


def _per_player(fn: Callable[[CrossTable, str], Decimal | int]) -> Evaluator:
    def evaluate(
        table: CrossTable,
        group: Sequence[str],
        rng: np.random.Generator | None,
        conventions: Conventions,
    ) -> Mapping[str, TieValue]:
        out = {}
        for name in group:
            value = Decimal(fn(table, name))
            out[name] = TieValue(value, (value,))
        return out

    return evaluate


def _opponents_based(*, weighted: bool, low: int, high: int) -> Evaluator:
    def evaluate(
        table: CrossTable,
        group: Sequence[str],
        rng: np.random.Generator | None,
        conventions: Conventions,
    ) -> Mapping[str, TieValue]:
        adj = _adjusted_scores(table, conventions)
        fn = sonneborn_berger if weighted else buchholz
        out = {}
        for name in group:
            value = fn(table, name, low=low, high=high, adjusted=adj, conventions=conventions)
            out[name] = TieValue(value, (value,))
        return out

    return evaluate


def _progressive(cut: int | None) -> Evaluator:
    def evaluate(
        table: CrossTable,
        group: Sequence[str],
        rng: np.random.Generator | None,
        conventions: Conventions,
    ) -> Mapping[str, TieValue]:
        out = {}
        for name in group:
            totals = running_totals(table, name)
            if cut is None:
                # Seed 003 / RULES.md: if still tied, drop the first round, then the first two, ...
                key = tuple(sum(totals[k:], ZERO) for k in range(max(len(totals), 1)))
                out[name] = TieValue(key[0], key)
            else:
                value = sum(totals[cut:], ZERO)
                out[name] = TieValue(value, (value,))
        return out

    return evaluate


def _direct_encounter(
    table: CrossTable,
    group: Sequence[str],
    rng: np.random.Generator | None,
    conventions: Conventions,
) -> Mapping[str, TieValue]:
    points = direct_encounter(table, group, round_robin=conventions.round_robin)
    if points is None:
        return {name: TieValue(None, ()) for name in group}
    return {name: TieValue(value, (value,)) for name, value in points.items()}


def _lots(
    table: CrossTable,
    group: Sequence[str],
    rng: np.random.Generator | None,
    conventions: Conventions,
) -> Mapping[str, TieValue]:
    if rng is None:
        raise ValueError("the drawing of lots needs a random generator (a seed)")
    lots = draw_lots(table.players, rng)
    return {name: TieValue(Decimal(lots[name]), (Decimal(-lots[name]),)) for name in group}


def _buchholz_like(code: str) -> TieBreak:
    family, _, modifier = code.partition("-")
    weighted = family == "SB"
    k = int(modifier[1:]) if modifier else 0
    low = k
    high = k if modifier.startswith("M") else 0
    base = "Sonneborn-Berger" if weighted else "Buchholz"
    if not modifier:
        title = base
    elif high:
        title = f"{base} median {k}"
    else:
        title = f"{base} cut {k}"
    what = (
        "opponents' scores times the points scored against them"
        if weighted
        else "sum of the opponents' scores"
    )
    cuts = ""
    if modifier:
        cuts = f", less the {k} lowest" + (f" and the {k} highest" if high else "")
    return TieBreak(
        code, title, what + cuts, _opponents_based(weighted=weighted, low=low, high=high)
    )


def _progressive_cut(k: int) -> TieBreak:
    return TieBreak(
        f"PS-C{k}",
        f"progressive score cut {k}",
        f"sum of the running scores after each round, leaving out the first {k} (FIDE PS-C{k})",
        _progressive(k),
    )


_FIXED: tuple[TieBreak, ...] = (
    TieBreak(
        "DE",
        "direct encounter",
        "points in the games among the tied players, if all of them have met",
        _direct_encounter,
        depends_on_group=True,
    ),
    _buchholz_like("BH"),
    _buchholz_like("BH-C1"),
    _buchholz_like("BH-M1"),
    _buchholz_like("SB"),
    _buchholz_like("SB-C1"),
    TieBreak(
        "PS",
        "progressive score",
        "sum of the running scores after each round; if still tied, without the first round, "
        "then the first two, ...",
        _progressive(None),
    ),
    TieBreak(
        "WIN",
        "wins",
        "rounds won, with or without playing (forfeit wins and full-point byes count)",
        _per_player(wins),
    ),
    TieBreak("WON", "games won", "games won over the board (胜局数)", _per_player(games_won)),
    TieBreak(
        "BWG", "wins with Black", "games won over the board with Black", _per_player(black_wins)
    ),
    TieBreak(
        "BPG",
        "games with Black",
        "games played over the board with Black",
        _per_player(black_games),
    ),
    TieBreak(
        "RWG",
        "wins with Red",
        "games won over the board with Red (seed 001's chains: 红胜总局数)",
        _per_player(lambda t, p: colour_results(t, p, Colour.RED, Outcome.WIN)),
    ),
    TieBreak(
        "BDG",
        "draws with Black",
        "games drawn over the board with Black (seed 001's chains: 黑和总局数)",
        _per_player(lambda t, p: colour_results(t, p, Colour.BLACK, Outcome.DRAW)),
    ),
    TieBreak(
        "RDG",
        "draws with Red",
        "games drawn over the board with Red (seed 001's chains: 红和总局数)",
        _per_player(lambda t, p: colour_results(t, p, Colour.RED, Outcome.DRAW)),
    ),
    TieBreak(
        "lots",
        "drawing of lots",
        "a seeded drawing of lots; lot 1 ranks first",
        _lots,
        needs_rng=True,
    ),
)

TIEBREAKS: Mapping[str, TieBreak] = MappingProxyType({tb.code: tb for tb in _FIXED})
"""The named tie-breaks; :func:`get_tiebreak` also builds ``BH-Ck``, ``BH-Mk``, ``SB-Ck``,
``SB-Mk`` and ``PS-Ck`` for any k."""

assert tuple(TIEBREAKS) == TIEBREAK_CODES, "the registry and the vocabulary (knockout.points)"


def get_tiebreak(code: str) -> TieBreak:
    """The tie-break with FIDE code ``code`` (case-insensitive; ``lots`` for the drawing of lots).

    >>> get_tiebreak("bh-c2").title
    'Buchholz cut 2'

    Raises:
        ValueError: For an unknown code.
    """
    canonical = canonical_tiebreak(code)
    if canonical in TIEBREAKS:
        return TIEBREAKS[canonical]
    match = GENERAL_TIEBREAK.fullmatch(canonical)
    assert match is not None
    if match.group(4):
        return _progressive_cut(int(match.group(4)))
    return _buchholz_like(canonical)


def parse_tiebreaks(text: str) -> tuple[TieBreak, ...]:
    """Tie-breaks from a comma-separated list of codes (``"BH,BH-C1,SB"``; empty: none).

    Raises:
        ValueError: For an unknown or repeated code.
    """
    codes = [part for part in (p.strip() for p in text.split(",")) if part]
    chosen = tuple(get_tiebreak(code) for code in codes)
    seen: set[str] = set()
    for tb in chosen:
        if tb.code in seen:
            raise ValueError(f"tie-break listed twice: {tb.code!r}")
        seen.add(tb.code)
    return chosen


# --- ranking -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Standing:
    """One line of the final standings.

    Attributes:
        name: The player.
        rank: 1 for the first; players still tied share a rank (1, 2, 2, 4).
        points: Total points.
        tiebreaks: Each tie-break's value, by code; ``None`` where it does not apply (direct
            encounter for a player who was not tied, or when the tied players had not all met).
    """

    name: str
    rank: int
    points: Decimal
    tiebreaks: Mapping[str, Decimal | None]

    def to_json(self) -> dict[str, Any]:
        """``{"name", "rank", "points", "tiebreaks"}`` with JSON numbers."""
        return {
            "name": self.name,
            "rank": self.rank,
            "points": json_number(self.points),
            "tiebreaks": {code: json_number(v) for code, v in self.tiebreaks.items()},
        }


@dataclass(frozen=True)
class Standings:
    """The ranked players of an event.

    Attributes:
        codes: The tie-break codes, in the order applied.
        players: Best first; tied players in starting order.
        title: The event's name.
        conventions: The rules version and tournament kind the tie-breaks were computed under.
        warnings: The cross table's warnings (see :attr:`CrossTable.warnings`).
        teams: Whether the entrants are teams ranked by match points
            (:mod:`knockout.standings.teams`).
    """

    codes: tuple[str, ...]
    players: tuple[Standing, ...]
    title: str = ""
    conventions: Conventions = field(default_factory=Conventions)
    warnings: tuple[Problem, ...] = ()
    teams: bool = False

    def to_json(self) -> dict[str, Any]:
        """``{"rules", "tournament", "cuts", "players": [...]}``, numbers as JSON numbers; a
        team event: ``{"rules", "tournament", "cuts", "event": "team", "teams": [{"name", "rank",
        "match_points", "tiebreaks"}]}``."""
        if not self.teams:
            return {**self.conventions.to_json(), "players": [s.to_json() for s in self.players]}
        rows = []
        for s in self.players:
            row = s.to_json()
            rows.append(
                {
                    "name": row["name"],
                    "rank": row["rank"],
                    "match_points": row["points"],
                    "tiebreaks": row["tiebreaks"],
                }
            )
        return {**self.conventions.to_json(), "event": "team", "teams": rows}


def json_number(value: Decimal | None) -> int | float | None:
    """A Decimal as a JSON number: an int when whole, else the float with the same digits.

    >>> json_number(Decimal("20.50")), json_number(Decimal("4.0"))
    (20.5, 4)
    """
    if value is None:
        return None
    if value == value.to_integral_value():
        return int(value)
    # Python prints the shortest float that reads back the same, so a Decimal with at most 15
    # significant digits comes out with exactly its own digits (no 0.30000000000000004).
    return float(value)


def rank_players(
    table: CrossTable,
    tiebreaks: Sequence[TieBreak | str],
    *,
    rng: np.random.Generator | None = None,
    primary: Mapping[str, tuple[int, ...]] | None = None,
    conventions: Conventions | None = None,
) -> Standings:
    """Rank the players of ``table`` by points, then by ``tiebreaks`` in order.

    A tie-break only separates players still tied on everything before it. Direct encounter is
    computed among the players tied at that point and reapplied to any smaller group it leaves
    tied; the progressive score drops the first round, then the first two, ... while players stay
    tied. Players still tied at the end share a rank, listed in starting order.

    Args:
        table: The event.
        tiebreaks: Tie-breaks or their codes, e.g. ``["BH-C1", "BH", "SB", "DE", "lots"]``.
        rng: Random generator for the drawing of lots (needed only with ``lots``).
        primary: A key that ranks before points (larger first), e.g. the round a player reached
            in a knockout event.
        conventions: The rules version and tournament kind; default: those of the event
            (:meth:`Conventions.for_event`: the rules in force on the table's start date, the
            newest if undated; a round robin if the table says so or every two players met
            equally often).

    Raises:
        ValueError: For an unknown or repeated code, or ``lots`` without ``rng``.
    """
    chosen = _resolve(tiebreaks, rng)
    conv = Conventions.for_event(table) if conventions is None else conventions
    ranker = _Ranker(table, chosen, rng, conv)
    scores = table.scores
    first = primary or {}
    groups: list[list[str]] = []
    for by_points in _partition(
        list(table.players), lambda name: (*(Decimal(x) for x in first.get(name, ())), scores[name])
    ):
        groups.extend(ranker.split(by_points, chosen))
    standings = []
    position = 1
    for group in groups:
        for name in group:
            frozen = MappingProxyType(dict(ranker.shown[name]))
            standings.append(Standing(name, position, scores[name], frozen))
        position += len(group)
    return Standings(tuple(tb.code for tb in chosen), tuple(standings), table.title, conv)


def _resolve(
    tiebreaks: Sequence[TieBreak | str], rng: np.random.Generator | None
) -> tuple[TieBreak, ...]:
    """The tie-breaks of ``tiebreaks`` (codes looked up), checked for repeats and a generator."""
    chosen = tuple(tb if isinstance(tb, TieBreak) else get_tiebreak(tb) for tb in tiebreaks)
    if len({tb.code for tb in chosen}) != len(chosen):
        raise ValueError("a tie-break is listed twice")
    if any(tb.needs_rng for tb in chosen) and rng is None:
        raise ValueError("the drawing of lots needs a random generator (a seed)")
    return chosen


class _Ranker:
    """Splits groups of tied players with tie-breaks, recording the values shown."""

    def __init__(
        self,
        table: CrossTable,
        chosen: tuple[TieBreak, ...],
        rng: np.random.Generator | None,
        conventions: Conventions,
    ) -> None:
        self.table = table
        self.rng = rng
        self.conventions = conventions
        self.shown: dict[str, dict[str, Decimal | None]] = {
            name: dict.fromkeys((tb.code for tb in chosen), None) for name in table.players
        }
        # Tie-breaks whose value does not depend on who is tied are computed once, for everyone.
        self.fixed: dict[str, Mapping[str, TieValue]] = {}
        for tb in chosen:
            if not tb.depends_on_group:
                self.fixed[tb.code] = tb.evaluate(table, table.players, rng, conventions)
                for name, value in self.fixed[tb.code].items():
                    self.shown[name][tb.code] = value.shown

    def split(self, group: list[str], todo: tuple[TieBreak, ...]) -> list[list[str]]:
        """``group`` (tied so far) split by the tie-breaks ``todo``, in order, best first.

        A tie-break that depends on the group (direct encounter) is applied again to a smaller
        group it leaves tied.
        """
        if len(group) < 2 or not todo:
            return [group]
        tb, rest = todo[0], todo[1:]
        values = self.fixed.get(tb.code)
        if values is None:
            values = tb.evaluate(self.table, group, self.rng, self.conventions)
            for name in group:
                self.shown[name][tb.code] = values[name].shown
        out: list[list[str]] = []
        for part in _partition(group, lambda name: values[name].key):
            again = tb.depends_on_group and 1 < len(part) < len(group)
            out.extend(self.split(part, todo if again else rest))
        return out


def _partition(group: list[str], key: Callable[[str], tuple[Decimal, ...]]) -> list[list[str]]:
    """``group`` split into runs of equal key, larger keys first, starting order kept in a run."""
    ordered = sorted(group, key=key, reverse=True)  # stable: ties keep their order
    parts: list[list[str]] = []
    for name in ordered:
        if parts and key(parts[-1][0]) == key(name):
            parts[-1].append(name)
        else:
            parts.append([name])
    return parts
