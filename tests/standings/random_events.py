"""Random Swiss events and round robins for the differential test against FIDE's checker.

Each event is a :class:`~knockout.standings.records.CrossTable` with a start date (or none) and a
tournament type, built from a seeded numpy generator, so a seed names an event. Swiss events are
paired at random without rematches and have pairing-allocated, full-point, half-point and
zero-point byes, absences, withdrawals, forfeits (won, lost, and by both players); round robins
are paired by the circle method (single or double, odd or even sizes, the odd player out sitting
the round out) and have forfeits and withdrawals (the games left recorded as forfeits or as
absences).
"""

from __future__ import annotations

from datetime import date, timedelta

import numpy as np

from knockout.game import Colour, Result
from knockout.standings.records import (
    CrossTable,
    Entry,
    Kind,
    Outcome,
    bye_entry,
    forfeit_entries,
    game_entries,
)

__all__ = ["random_round_robin", "random_swiss"]

_FIRST_DAY = date(2024, 4, 1)
_LAST_DAY = date(2026, 12, 31)
_RESULTS = (Result.RED, Result.DRAW, Result.BLACK)


def _start_date(rng: np.random.Generator) -> date | None:
    """Undated one time in five; else a day from 1 April 2024 to 2026, half of them after the
    2026 rules came into force."""
    if rng.random() < 0.2:
        return None
    if rng.random() < 0.5:
        return date(2026, 3, 1) + timedelta(days=int(rng.integers(0, 306)))
    return _FIRST_DAY + timedelta(days=int(rng.integers(0, (date(2026, 3, 1) - _FIRST_DAY).days)))


def _game(
    rng: np.random.Generator, rnd: int, red: str, black: str, forfeits: float
) -> tuple[tuple[str, Entry], ...]:
    """A game between ``red`` and ``black``: usually played, sometimes forfeited."""
    if rng.random() >= forfeits:
        return game_entries(rnd, red, black, _RESULTS[int(rng.integers(0, 3))])
    how = int(rng.integers(0, 3))  # 0: Red won by forfeit, 1: Black did, 2: neither came
    if how == 1:
        return forfeit_entries(rnd, black, red, Outcome.WIN, first_colour=Colour.BLACK)
    outcome = Outcome.WIN if how == 0 else Outcome.LOSS
    return forfeit_entries(rnd, red, black, outcome, first_colour=Colour.RED, double=how == 2)


def _pairs(
    rng: np.random.Generator, players: list[str], met: set[frozenset[str]]
) -> list[tuple[str, str]] | None:
    """A random pairing of an even number of ``players`` with no rematch (None if none found)."""
    for _ in range(200):
        order = [players[i] for i in rng.permutation(len(players))]
        pairs = list(zip(order[::2], order[1::2], strict=True))
        if not any(frozenset(p) in met for p in pairs):
            return pairs
    return None


def random_swiss(seed: int) -> CrossTable:
    """A random Swiss event of 4 to 12 players and 2 to 7 rounds."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(4, 13))
    players = [f"S{i:02d}" for i in range(1, n + 1)]
    withdraws = {p: int(rng.integers(2, 8)) for p in players if rng.random() < 0.1}
    met: set[frozenset[str]] = set()
    entries: list[tuple[str, Entry]] = []
    rounds = 0
    for rnd in range(1, int(rng.integers(2, 8)) + 1):
        playing = []
        taken: list[tuple[str, Entry]] = []
        for p in players:
            if withdraws.get(p, 99) <= rnd:
                continue  # withdrew: not paired again (an absence)
            u = rng.random()
            if u < 0.05:
                taken.append((p, bye_entry(rnd, Kind.HALF_BYE)))
            elif u < 0.08:
                taken.append((p, bye_entry(rnd, Kind.ZERO_BYE)))
            elif u < 0.10:
                pass  # absent without notice
            else:
                playing.append(p)
        if len(playing) % 2:
            odd = playing.pop(int(rng.integers(0, len(playing))))
            kind = Kind.FULL_BYE if rng.random() < 0.15 else Kind.PAIRING_BYE
            taken.append((odd, bye_entry(rnd, kind)))
        pairs = _pairs(rng, playing, met)
        if pairs is None:
            break  # no pairing without a rematch: the event ends here
        for red, black in pairs:
            met.add(frozenset((red, black)))
            taken.extend(_game(rng, rnd, red, black, forfeits=0.12))
        entries.extend(taken)
        rounds = rnd
    return CrossTable.from_entries(
        players,
        [(p, e) for p, e in entries if e.round <= rounds],
        rounds=max(rounds, 1),
        title=f"random Swiss {seed}",
        start_date=_start_date(rng),
        tournament_type="Individual: Swiss-System",
    )


def _circle(n: int) -> list[list[tuple[int, int]]]:
    """Round-robin rounds for players 0..n-1 by the circle method (``n`` even: -1 sits out)."""
    size = n + n % 2
    seats = list(range(size))
    out = []
    for _ in range(size - 1):
        pairs = [(seats[i], seats[size - 1 - i]) for i in range(size // 2)]
        out.append([(a, b) for a, b in pairs if a < n and b < n])
        seats = [seats[0], seats[-1], *seats[1:-1]]
    return out


def random_round_robin(seed: int) -> CrossTable:
    """A random single or double round robin of 3 to 10 players."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(3, 11))
    double = rng.random() < 0.3
    players = [f"R{i:02d}" for i in range(1, n + 1)]
    schedule = _circle(n)
    if double:
        schedule += [[(b, a) for a, b in pairs] for pairs in schedule]
    withdrawn: dict[str, tuple[int, bool]] = {}
    if rng.random() < 0.25:
        who = players[int(rng.integers(0, n))]
        # After round k, the games left are forfeits (as arbiters record them), or absences.
        withdrawn[who] = (int(rng.integers(1, len(schedule) + 1)), rng.random() < 0.7)
    entries: list[tuple[str, Entry]] = []
    for rnd, pairs in enumerate(schedule, start=1):
        for a, b in pairs:
            red, black = (
                (players[a], players[b]) if rng.random() < 0.5 else (players[b], players[a])
            )
            gone = [p for p in (red, black) if p in withdrawn and rnd > withdrawn[p][0]]
            if not gone:
                entries.extend(_game(rng, rnd, red, black, forfeits=0.06))
            elif withdrawn[gone[0]][1]:
                winner = black if gone[0] == red else red
                entries.extend(
                    forfeit_entries(rnd, winner, gone[0], Outcome.WIN, first_colour=Colour.RED)
                )
    kind = "Double round robin" if double else str(rng.choice(["Round robin", "Berger", "RR"]))
    return CrossTable.from_entries(
        players,
        entries,
        rounds=len(schedule),
        title=f"random round robin {seed}",
        start_date=_start_date(rng),
        tournament_type=kind,
    )
