"""Which tie-break conventions apply to an event: FIDE's rules in force, Swiss or round robin.

Two things decide how a tie-break treats unplayed rounds (FIDE C.07, article 16):

* **The rules version** (:data:`Rules`). FIDE's Play-off and Tie-Break Regulations in force from
  1 April 2024 (``"2024"``), or their revision approved by the FIDE Council on 2 February 2026 and
  in force from 1 March 2026 (``"2026"``), which bounds the value of a participant's own unplayed
  rounds in Buchholz-type tie-breaks (article 16.4). FIDE applies the rules in force when the
  event starts: :func:`rules_in_force` picks them by the start date, and an undated event gets
  the newest rules, as FIDE's own checker (gacrux) does.
* **The cut rule** (:data:`CutRule`). FIDE's cut and median modifiers (``BH-C1``, ``BH-M1``,
  ``SB-C1`` ...) cut however many rounds the event has (``"fide"``, the default). Seed 003's
  Chinese practice keeps at least seven rounds' results (``"floor-7"``):
  "采用扣除对手分时，至少保留7轮比赛成绩参加计算". Cutting stops where seven values
  would be left, so an event of seven rounds or fewer cuts nothing, and one of eight cuts one
  value at most (the lowest).
* **The tournament kind** (:data:`TournamentKind`). In a round robin every pairing is fixed in
  advance: an unplayed game counts as played with the result awarded, and a round in which a
  player has no game (the round a player sits out when the number of players is odd) is not a
  round at all for Buchholz, Sonneborn-Berger and the adjusted scores. In a Swiss event such a
  round is an unplayed round. The kind comes from a TRF's record 092 when it names one
  (:func:`kind_from_type`), otherwise from the games (:func:`is_complete_round_robin`).

:class:`Conventions` holds both; :meth:`Conventions.for_event` resolves them for a cross table,
with overrides.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from datetime import date
from itertools import combinations
from typing import Literal, get_args

from knockout.standings.records import CrossTable, Kind

__all__ = [
    "CUT_RULES",
    "NEWEST_RULES",
    "RULES",
    "RULES_2026_IN_FORCE",
    "TOURNAMENT_KINDS",
    "Conventions",
    "CutRule",
    "Rules",
    "TournamentKind",
    "get_cut_rule",
    "get_rules",
    "get_tournament_kind",
    "is_complete_round_robin",
    "kind_from_type",
    "parse_event_date",
    "rules_in_force",
]

Rules = Literal["2024", "2026"]
"""A version of FIDE C.07: ``"2024"`` (in force from 1 April 2024), ``"2026"`` (1 March 2026)."""

RULES: tuple[Rules, ...] = get_args(Rules)
NEWEST_RULES: Rules = "2026"

RULES_2026_IN_FORCE = date(2026, 3, 1)
"""The day the 2026 revision came into force; an event that started earlier keeps the 2024 rules."""

TournamentKind = Literal["swiss", "round-robin"]
"""How the event was paired: a Swiss event, or a (single or double) round robin."""

TOURNAMENT_KINDS: tuple[TournamentKind, ...] = get_args(TournamentKind)

CutRule = Literal["fide", "floor-7"]
"""How far cut and median modifiers may cut: ``"fide"`` (FIDE C.07: no floor) or ``"floor-7"``
(seed 003: at least seven rounds' values are kept)."""

CUT_RULES: tuple[CutRule, ...] = get_args(CutRule)

#: The values seed 003's rule keeps at least (``floor-7``).
SEED_003_FLOOR = 7


def rules_in_force(on: date | None) -> Rules:
    """The rules FIDE applies to an event that started ``on`` (undated: the newest).

    >>> rules_in_force(date(2026, 2, 28)), rules_in_force(date(2026, 3, 1)), rules_in_force(None)
    ('2024', '2026', '2026')
    """
    if on is None or on >= RULES_2026_IN_FORCE:
        return NEWEST_RULES
    return "2024"


def get_rules(name: str) -> Rules:
    """The rules version named ``name`` (``"2024"`` or ``"2026"``).

    Raises:
        ValueError: For any other name.
    """
    for rules in RULES:
        if name.strip() == rules:
            return rules
    raise ValueError(f"expected {' or '.join(RULES)}, got {name!r}")


def get_cut_rule(name: str) -> CutRule:
    """The cut rule named ``name`` (``"fide"`` or ``"floor-7"``, any case).

    Raises:
        ValueError: For any other name.
    """
    for rule in CUT_RULES:
        if name.strip().lower() == rule:
            return rule
    raise ValueError(f"expected {' or '.join(CUT_RULES)}, got {name!r}")


def get_tournament_kind(name: str) -> TournamentKind:
    """The tournament kind named ``name`` (``"swiss"`` or ``"round-robin"``, any case).

    Raises:
        ValueError: For any other name.
    """
    for kind in TOURNAMENT_KINDS:
        if name.strip().lower() == kind:
            return kind
    raise ValueError(f"expected {' or '.join(TOURNAMENT_KINDS)}, got {name!r}")


# Patterns compiled on first use (re caches them): ranking an event never parses a date.
_YEAR_FIRST = r"(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})"
_DAY_FIRST = r"(\d{1,2})\.(\d{1,2})\.(\d{4})"


def parse_event_date(text: str) -> date:
    """A start date as events write it: ``2026/03/01`` (TRF-16), ``2026-03-01``, ``2026.03.01``,
    or ``01.03.2026``. A time after the date is ignored.

    >>> parse_event_date("2026/03/01"), parse_event_date("01.03.2026 10:00")
    (datetime.date(2026, 3, 1), datetime.date(2026, 3, 1))

    Raises:
        ValueError: If ``text`` is not one of these forms or not a real day.
    """
    first = text.strip().split(" ")[0] if text.strip() else ""
    if m := re.fullmatch(_YEAR_FIRST, first):
        year, month, day = (int(g) for g in m.groups())
    elif m := re.fullmatch(_DAY_FIRST, first):
        day, month, year = (int(g) for g in m.groups())
    else:
        raise ValueError(f"expected a date such as 2026/03/01 or 2026-03-01, got {text.strip()!r}")
    try:
        return date(year, month, day)
    except ValueError:
        raise ValueError(f"expected a real day, got {text.strip()!r}") from None


_ROUND_ROBIN_TYPE = r"robin|berger|\brr\b|\bdrr\b|循环"
_SWISS_TYPE = r"swiss|瑞士"


def kind_from_type(text: str) -> TournamentKind | None:
    """The kind a TRF record 092 (type of tournament) names, or None if it names neither.

    >>> kind_from_type("Individual: Swiss-System"), kind_from_type("单循环"), kind_from_type("")
    ('swiss', 'round-robin', None)
    """
    if re.search(_SWISS_TYPE, text, re.IGNORECASE):
        return "swiss"
    if re.search(_ROUND_ROBIN_TYPE, text, re.IGNORECASE):
        return "round-robin"
    return None


_POINTS_BYES = frozenset({Kind.PAIRING_BYE, Kind.FULL_BYE, Kind.HALF_BYE})


def is_complete_round_robin(table: CrossTable) -> bool:
    """Whether the games make a complete round robin.

    Every two players met the same number of times, once or twice (a meeting is a scheduled
    game, played or forfeited), and nobody got a bye that earns points (pairing-allocated,
    full-point or half-point): such byes belong to events paired round by round. Rounds without a
    game that earn nothing (absences, zero-point byes) are the rounds a player sits out.
    """
    if len(table.players) < 2:
        return False
    met: Counter[frozenset[str]] = Counter()
    for name in table.players:
        for e in table.entries[name]:
            if e.kind in _POINTS_BYES:
                return False
            if e.opponent is not None and name < e.opponent:
                met[frozenset((name, e.opponent))] += 1
    times = {met[frozenset(pair)] for pair in combinations(table.players, 2)}
    return times in ({1}, {2})


@dataclass(frozen=True)
class Conventions:
    """The tie-break conventions an event is ranked under.

    Attributes:
        rules: The version of FIDE C.07.
        tournament: Swiss or round robin.
        cuts: How far cut and median modifiers may cut (FIDE's rule, or seed 003's floor of
            seven rounds kept).
    """

    rules: Rules = NEWEST_RULES
    tournament: TournamentKind = "swiss"
    cuts: CutRule = "fide"

    @property
    def cut_floor(self) -> int:
        """The fewest values a cut or median modifier leaves (0: no floor)."""
        return SEED_003_FLOOR if self.cuts == "floor-7" else 0

    @property
    def round_robin(self) -> bool:
        """Whether round-robin conventions apply."""
        return self.tournament == "round-robin"

    @classmethod
    def for_event(
        cls,
        table: CrossTable,
        *,
        rules: Rules | None = None,
        tournament: TournamentKind | None = None,
        on: date | None = None,
        cuts: CutRule = "fide",
    ) -> Conventions:
        """The conventions of the event in ``table``, unless overridden.

        Args:
            table: The event.
            rules: Use these rules; default: those in force on the start date.
            tournament: Use this kind; default: the kind the table's tournament type names,
                else a round robin if every two players met equally often (once or twice).
            on: The start date; default: the table's own (a TRF's record 042), if any.
            cuts: The cut rule (FIDE's by default; no file names one).
        """
        if rules is None:
            rules = rules_in_force(on if on is not None else table.start_date)
        if tournament is None:
            tournament = kind_from_type(table.tournament_type)
        if tournament is None:
            tournament = "round-robin" if is_complete_round_robin(table) else "swiss"
        return cls(rules, tournament, cuts)

    def to_json(self) -> dict[str, str]:
        """``{"rules": ..., "tournament": ..., "cuts": ...}``."""
        return {"rules": self.rules, "tournament": self.tournament, "cuts": self.cuts}
