"""The league's captains (主将) and the lot for boards 2-4 (seed 001, 一.1-2).

Seed 001, 一.1: before the season each team names one of its players captain (it may simply be
its highest rated), announced and reported to the organiser. The captain is not changed except in
very special cases: when he cannot play (illness, say), the team changes captain in advance,
reporting it to the organiser and telling the team it will meet; when he returns he is captain
again. A team may change its captain in at most three matches of the season
(:data:`MAX_CHANGES`). 一.2: in every round captain meets captain on board 1; the pairings of the
other three boards are drawn by lot at the venue.

How this module reads it:

* A **change** is a match played with a captain other than the declared one: a team whose captain
  misses three matches has used its three changes, whether the matches follow each other or not;
  the declared captain's return is not a change. A fourth is refused
  (:func:`captain_schedule`), with one line naming its round and the rounds of the earlier three.
* A team's **line-up** for a match (:func:`line_up`): the acting captain on board 1 and the next
  three players of its squad in the squad's order (strongest first), leaving out the declared
  captain when he is replaced.
* **The lot** (:func:`draw_boards`): the home side's three other players keep boards 2-4 in their
  squad order, and the lot gives each of them one of the away side's three (a uniformly random
  pairing, one of six). It is seeded: the same seed, round and teams give the same pairing,
  whatever else the file holds, so an organiser who publishes the seed lets anyone check it.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from knockout.errors import Problem

__all__ = [
    "MAX_CHANGES",
    "OTHER_BOARDS",
    "CaptainChange",
    "CaptainSchedule",
    "DrawnBoards",
    "Squad",
    "captain_schedule",
    "draw_boards",
    "line_up",
    "lot_generator",
]

#: Matches of a season in which a team may play with a captain other than its declared one.
MAX_CHANGES = 3
#: The boards drawn by lot (board 1 is captain v captain).
OTHER_BOARDS = 3


@dataclass(frozen=True)
class Squad:
    """A team's players for the season.

    Attributes:
        team: The team.
        captain: The declared captain (主将), one of ``players``.
        players: The squad, strongest first (at least four: the captain and three more).
    """

    team: str
    captain: str
    players: tuple[str, ...]

    def problems(self, source: str, key: str) -> list[Problem]:
        """One problem per thing that keeps this from being a squad."""
        out = []
        if self.captain not in self.players:
            out.append(
                Problem(
                    source,
                    f"{key}.captain",
                    f"expected one of the team's players ({', '.join(self.players)}), got "
                    f"{self.captain!r}",
                )
            )
        if len(self.players) < 1 + OTHER_BOARDS:
            out.append(
                Problem(
                    source,
                    f"{key}.players",
                    f"expected at least {1 + OTHER_BOARDS} players (a captain and three more), "
                    f"got {len(self.players)}",
                )
            )
        twice = sorted({p for p in self.players if self.players.count(p) > 1})
        if twice:
            out.append(
                Problem(source, f"{key}.players", f"{', '.join(twice)} listed more than once")
            )
        return out


@dataclass(frozen=True)
class CaptainChange:
    """A match a team plays with another captain, announced in advance.

    Attributes:
        round: The round of the match.
        team: The team.
        captain: Who is captain in that match.
        key: Where it was given (``changes[3]``), for messages.
    """

    round: int
    team: str
    captain: str
    key: str = ""


@dataclass(frozen=True)
class CaptainSchedule:
    """Who captains each team, match by match.

    Attributes:
        squads: Each team's squad, by team.
        changes: Each team's accepted changes, in round order.
    """

    squads: Mapping[str, Squad]
    changes: Mapping[str, tuple[CaptainChange, ...]]

    def captain(self, team: str, round: int) -> str:
        """``team``'s captain in ``round``: the replacement announced for it, else the declared
        captain."""
        for change in self.changes.get(team, ()):
            if change.round == round:
                return change.captain
        return self.squads[team].captain

    def changes_left(self, team: str) -> int:
        """Changes ``team`` may still make this season."""
        return MAX_CHANGES - len(self.changes.get(team, ()))


def captain_schedule(
    squads: Iterable[Squad], changes: Iterable[CaptainChange], *, source: str
) -> tuple[CaptainSchedule, list[Problem]]:
    """Check the announced changes against the squads and the limit of three a season.

    Returns:
        The schedule of the changes accepted, and one problem per change refused: an unknown
        team, a captain not in the squad, the declared captain named as his own replacement, two
        changes for one match, and a fourth change (named with the rounds of the three before).
    """
    by_team = {s.team: s for s in squads}
    accepted: dict[str, list[CaptainChange]] = {team: [] for team in by_team}
    problems: list[Problem] = []
    for change in sorted(changes, key=lambda c: (c.round, c.key)):
        squad = by_team.get(change.team)
        if squad is None:
            problems.append(
                Problem(
                    source,
                    f"{change.key}.team",
                    f"expected one of the teams ({', '.join(by_team)}), got {change.team!r}",
                )
            )
            continue
        message = _change_problem(change, squad, accepted[change.team])
        if message is not None:
            problems.append(Problem(source, change.key, message))
            continue
        accepted[change.team].append(change)
    schedule = CaptainSchedule(by_team, {t: tuple(c) for t, c in accepted.items()})
    return schedule, problems


def _change_problem(
    change: CaptainChange, squad: Squad, earlier: Sequence[CaptainChange]
) -> str | None:
    """Why ``change`` is refused, given the team's ``earlier`` accepted changes; None if not."""
    team, rnd = change.team, change.round
    if change.captain == squad.captain:
        return (
            f"{team}, round {rnd}: {change.captain} is the declared captain; a returning captain "
            "resumes by himself, so only the matches he misses are changes"
        )
    if change.captain not in squad.players:
        return (
            f"{team}, round {rnd}: expected a player of the squad ({', '.join(squad.players)}), "
            f"got {change.captain!r}"
        )
    same = [c for c in earlier if c.round == rnd]
    if same:
        return f"{team}, round {rnd}: a second change for the same match (also {same[0].key})"
    if len(earlier) >= MAX_CHANGES:
        rounds = ", ".join(str(c.round) for c in earlier)
        return (
            f"{team}, round {rnd}: a fourth captain change is refused (seed 001, 一.1: at most "
            f"{MAX_CHANGES} a season); the earlier three were in rounds {rounds}"
        )
    return None


def line_up(schedule: CaptainSchedule, team: str, round: int) -> tuple[str, ...]:
    """``team``'s four players in ``round``: the captain (board 1), then the next three of the
    squad in its order, leaving out a declared captain who is replaced."""
    squad = schedule.squads[team]
    captain = schedule.captain(team, round)
    others = [p for p in squad.players if p not in (captain, squad.captain)]
    return (captain, *others[:OTHER_BOARDS])


@dataclass(frozen=True)
class DrawnBoards:
    """A match's four boards after the lot.

    Attributes:
        round: The round.
        home: The home team.
        away: The away team.
        boards: ``(home player, away player)`` on boards 1-4 (board 1 the captains).
        seed: The lot's seed.
    """

    round: int
    home: str
    away: str
    boards: tuple[tuple[str, str], ...]
    seed: int


def lot_generator(seed: int, round: int, home: str, away: str) -> np.random.Generator:
    """The lot's generator for one match: from the seed, the round and the two teams' names
    (their CRC-32 of UTF-8), so a match's lot does not depend on the other matches."""
    names = (zlib.crc32(home.encode("utf-8")), zlib.crc32(away.encode("utf-8")))
    return np.random.default_rng([seed, round, *names])


def draw_boards(
    round: int, home: str, away: str, home_players: Sequence[str], away_players: Sequence[str],
    *, seed: int,
) -> DrawnBoards:  # fmt: skip
    """Board 1 captain v captain; boards 2-4 paired by a seeded lot (module docstring).

    Args:
        round: The round.
        home: The home team.
        away: The away team.
        home_players: The home line-up, captain first (:func:`line_up`).
        away_players: The away line-up.
        seed: The lot's seed.

    Raises:
        ValueError: Unless each line-up has four players.
    """
    for players in (home_players, away_players):
        if len(players) != 1 + OTHER_BOARDS:
            raise ValueError(f"expected {1 + OTHER_BOARDS} players, got {list(players)}")
    order = lot_generator(seed, round, home, away).permutation(OTHER_BOARDS)
    boards = [(home_players[0], away_players[0])]
    boards += [(home_players[1 + i], away_players[1 + int(j)]) for i, j in enumerate(order)]
    return DrawnBoards(round, home, away, tuple(boards), seed)
