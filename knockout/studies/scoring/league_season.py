"""Seasons of seed 001's team league, simulated many at once.

A season is a double round robin of ``N`` teams: every team is at home once against every other
(``N (N - 1)`` matches; the order of the rounds does not matter, since the ranking uses totals and
head-to-head only). Each match has four boards, the home side choosing its captain's colour by a
**policy**:

========= ===============================================================================
``red``   the home captain always takes Red (his three team-mates Black)
``black`` always Black
``best``  the colour with the higher expected match points for the home side (exact odds,
          :mod:`knockout.studies.scoring.team_match`; Red when equal)
``lot``   a fair coin per match
========= ===============================================================================

**Captains and the lot** (seed 001, 一.1-2; :func:`line_ups`). Each team has a squad, best
first; its best player is the declared captain. When the captain misses a match (independently,
match by match, with the event's probability), the team changes captain for that match: its next
strongest player takes board 1 and the following three boards 2-4 (the squad's reserve comes
in). A team may do so in at most three matches of the season
(:data:`knockout.scoring.captains.MAX_CHANGES`), counted in the order of the schedule; when its
captain misses a match after that, the captain's board is lost by forfeit (the seed allows no
fourth change and names no other remedy) and the next three players take boards 2-4; if both
captains' boards are forfeited, neither side scores on board 1 and the board totals of the three
others decide the match (they cannot be equal). A forfeit is no game: it counts in no colour
tie-break. Boards 2-4 are paired by lot: the away side's three players are given to the home
side's boards 2-4 in one of the six orders, uniformly.

Board results come from one uniform number per board, match and season (the home player wins
below P(home win), loses above P(home win) + P(draw)), drawn once and shared by every policy, and
so is each match's coin for ``lot``: policies are compared with common random numbers. Each
outcome is scored by the :class:`~knockout.studies.scoring.team_match.OutcomeTable` of the
league's rules, and the table is ranked by the seed's cascade
(:data:`knockout.scoring.league.RANKING_CHAIN`: match points; head-to-head; board points; Black
wins; Red wins; Black draws; Red draws) exactly as :func:`knockout.scoring.league.league_table`
ranks a recorded league (the tests compare the two season by season). Points are whole numbers
of ``1 / scale`` points, so ties are exact.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from knockout.arrays import BoolArray, FloatArray, Int64Array
from knockout.game import Colour, Result
from knockout.rules.model.strength import ModelParams, TimeClass
from knockout.scoring.captains import MAX_CHANGES
from knockout.scoring.league import LEAGUE_RULES, RANKING_CHAIN, LeagueRules
from knockout.studies.scoring.team_match import (
    board_probabilities,
    outcome_probabilities,
    outcome_table,
)

__all__ = [
    "PAIRINGS",
    "POLICIES",
    "LineUps",
    "SeasonSample",
    "double_round_robin",
    "line_ups",
    "play_seasons",
    "rank_season",
]

POLICIES = ("lot", "red", "black", "best")
#: Powers of three that turn four result codes (0 win, 1 draw, 2 loss) into an outcome index.
_DIGITS = np.array([27, 9, 3, 1], dtype=np.int64)
#: Matches whose 81 outcome probabilities are held in memory at once (policy ``best``).
_CHUNK = 20_000
#: The lot's six pairings of boards 2-4: ``PAIRINGS[k][i]`` is the away player (0-2 among the
#: three) who meets the home side's board ``2 + i``.
PAIRINGS: tuple[tuple[int, ...], ...] = tuple(itertools.permutations(range(3)))


def double_round_robin(teams: int) -> tuple[Int64Array, Int64Array]:
    """``(home, away)``: every ordered pair of different teams once.

    >>> [x.tolist() for x in double_round_robin(3)]
    [[0, 0, 1, 1, 2, 2], [1, 2, 0, 2, 0, 1]]
    """
    pairs = [(i, j) for i in range(teams) for j in range(teams) if i != j]
    home = np.array([i for i, _ in pairs], dtype=np.int64)
    away = np.array([j for _, j in pairs], dtype=np.int64)
    return home, away


@dataclass(frozen=True)
class SeasonSample:
    """``E`` simulated seasons of one policy.

    Attributes:
        policy: How the home sides chose their captain's colour.
        scale: Units per point of the points arrays.
        strength: ``(E, N)`` each team's mean rating.
        home: ``(M,)`` the home team of each match; ``away`` likewise.
        away: ``(M,)``.
        captain_red: ``(E, M)`` whether the home captain had Red.
        outcome: ``(E, M)`` the outcome index (into ``team_match.OUTCOMES``).
        match_points: ``(E, M, 2)`` home and away match points, in units.
        kind: ``(E, M, 2)`` each side's kind of result (-1: equal board totals).
        totals: ``(E, N, 7)`` each team's value of every criterion of the ranking chain
            (head-to-head left 0: it depends on the tied group).
        ranks: ``(E, N)`` final ranks (teams equal on everything share one).
        reached: ``(E, 7)`` whether the ranking needed each step of the chain anywhere in the
            table (step 0, match points, whenever there are two teams), the last column whether
            teams were still tied after the whole chain.
        title_reached: ``(E, 7)`` the same for first place.
    """

    policy: str
    scale: int
    strength: FloatArray
    home: Int64Array
    away: Int64Array
    captain_red: BoolArray
    outcome: Int64Array
    match_points: Int64Array
    kind: Int64Array
    totals: Int64Array
    ranks: Int64Array
    reached: BoolArray
    title_reached: BoolArray


@dataclass(frozen=True)
class LineUps:
    """Who plays each board of every match of ``E`` seasons (:func:`line_ups`).

    Attributes:
        home: ``(E, M, 4)`` the home players' ratings, board 1 first (any value on a forfeited
            board 1).
        away: ``(E, M, 4)`` the away players'.
        forfeit: ``(E, M, 2)`` whether the home (0) or away (1) side forfeits board 1.
        changes: ``(E, N)`` the captain changes each team used.
        absences: ``(E, N)`` the matches each team's declared captain missed.
    """

    home: FloatArray
    away: FloatArray
    forfeit: BoolArray
    changes: Int64Array
    absences: Int64Array


def line_ups(
    squads: FloatArray,
    absent: BoolArray,
    pairing: Int64Array,
    *,
    max_changes: int = MAX_CHANGES,
) -> LineUps:
    """The line-ups of every match under the seed's captain rule and the lot (module docstring).

    Args:
        squads: ``(E, N, S)`` each team's players' ratings, best first (``S >= 4``; a team whose
            captain may be absent needs ``S >= 5``).
        absent: ``(E, M, 2)`` whether the home (0) and away (1) side's declared captain misses
            the match (matches in the order of :func:`double_round_robin`, the schedule's).
        pairing: ``(E, M)`` the lot of each match, an index into :data:`PAIRINGS`.
        max_changes: Changes a team may make in a season.

    Raises:
        ValueError: For a squad of fewer than four players, or of four when a captain is absent.
    """
    events, teams, size = squads.shape
    home, away = double_round_robin(teams)
    if size < 4 or (size < 5 and absent.any()):
        raise ValueError(f"a squad needs 4 players, 5 when a captain may be absent; got {size}")
    rows = np.arange(events)[:, None, None]
    changed = np.zeros(absent.shape, dtype=bool)
    changes = np.zeros((events, teams), dtype=np.int64)
    absences = np.zeros((events, teams), dtype=np.int64)
    for t in range(teams):
        matches, sides = np.nonzero(np.stack([home == t, away == t], axis=1))
        missed = absent[:, matches, sides]
        used = np.cumsum(missed, axis=1)
        changed[:, matches, sides] = missed & (used <= max_changes)
        changes[:, t] = np.minimum(used[:, -1], max_changes)
        absences[:, t] = used[:, -1]
    forfeit = absent & ~changed
    first = np.where(absent, 1, 0)  # the squad index of board 1's player
    players = first[..., None] + np.arange(4)  # (E, M, 2, 4): boards 1-4
    players[..., 1:] = np.where(forfeit[..., None], np.arange(1, 4), players[..., 1:])
    order = np.asarray(PAIRINGS, dtype=np.int64)[pairing]  # (E, M, 3)
    away_players = players[:, :, 1].copy()
    away_players[..., 1:] = np.take_along_axis(players[:, :, 1, 1:], order, axis=-1)
    home_r = squads[rows, home[None, :, None], players[:, :, 0]]
    away_r = squads[rows, away[None, :, None], away_players]
    return LineUps(
        np.asarray(home_r, dtype=np.float64),
        np.asarray(away_r, dtype=np.float64),
        forfeit,
        changes,
        absences,
    )


def _expected_home_points(probs: FloatArray, captain: Colour, rules: LeagueRules) -> FloatArray:
    """``(E, M)`` the home side's expected match points from ``(E, M, 4, 3)`` board odds."""
    table = outcome_table(captain, rules)
    flat = probs.reshape(-1, *probs.shape[-2:])
    out = np.empty(flat.shape[0], dtype=np.float64)
    for start in range(0, flat.shape[0], _CHUNK):
        joint = outcome_probabilities(flat[start : start + _CHUNK])
        out[start : start + _CHUNK] = joint @ table.match_points[:, 0]
    return out.reshape(probs.shape[:-2])


def rank_season(
    values: Sequence[Sequence[int]], head_to_head: Sequence[Sequence[int]]
) -> tuple[list[int], list[bool], list[bool]]:
    """Rank one season's table by the seed's cascade, as ``league_table`` does.

    Args:
        values: ``values[t][k]``: team ``t``'s value of criterion ``k`` of
            :data:`~knockout.scoring.league.RANKING_CHAIN` (any value for head-to-head).
        head_to_head: ``head_to_head[a][b]``: match points team ``a`` took from its matches
            against ``b`` (every pair has met).

    Returns:
        The ranks; whether each step was needed anywhere (and whether a tie survived the chain);
        the same for first place.
    """
    steps = len(RANKING_CHAIN)
    h2h = RANKING_CHAIN.index("head_to_head")
    groups: list[list[int]] = [list(range(len(values)))]
    reached = [False] * (steps + 1)
    title = [False] * (steps + 1)
    for k in range(steps + 1):
        reached[k] = any(len(g) > 1 for g in groups)
        title[k] = len(groups[0]) > 1
        if k == steps or not reached[k]:
            break
        split: list[list[int]] = []
        for group in groups:
            if len(group) == 1:
                split.append(group)
                continue
            if k == h2h:
                key = {t: sum(head_to_head[t][o] for o in group) for t in group}
            else:
                key = {t: values[t][k] for t in group}
            for value in sorted(set(key.values()), reverse=True):
                split.append([t for t in group if key[t] == value])
        groups = split
    ranks = [0] * len(values)
    position = 1
    for group in groups:
        for t in group:
            ranks[t] = position
        position += len(group)
    return ranks, reached, title


def _totals(
    teams: int,
    home: Int64Array,
    away: Int64Array,
    match_points: Int64Array,
    board_points: Int64Array,
    games: Int64Array,
) -> tuple[Int64Array, Int64Array]:
    """``(E, N, 7)`` chain values and ``(E, N, N)`` head-to-head match points."""
    events = match_points.shape[0]
    totals = np.zeros((events, teams, len(RANKING_CHAIN)), dtype=np.int64)
    h2h = np.zeros((events, teams, teams), dtype=np.int64)
    chain = {name: k for k, name in enumerate(RANKING_CHAIN)}
    colour_columns = [chain[n] for n in ("black_wins", "red_wins", "black_draws", "red_draws")]
    for t in range(teams):
        at_home, away_from = home == t, away == t
        totals[:, t, chain["match_points"]] = match_points[:, at_home, 0].sum(1) + match_points[
            :, away_from, 1
        ].sum(1)
        totals[:, t, chain["board_points"]] = board_points[:, at_home, 0].sum(1) + board_points[
            :, away_from, 1
        ].sum(1)
        totals[:, t, colour_columns] = games[:, at_home, 0].sum(1) + games[:, away_from, 1].sum(1)
    for m, (h, a) in enumerate(zip(home, away, strict=True)):
        h2h[:, h, a] += match_points[:, m, 0]
        h2h[:, a, h] += match_points[:, m, 1]
    return totals, h2h


def play_seasons(
    ratings: FloatArray,
    u: FloatArray,
    lot: BoolArray,
    policy: str,
    *,
    classes: Sequence[TimeClass],
    model: ModelParams,
    rules: LeagueRules = LEAGUE_RULES,
    line_ups: LineUps | None = None,
) -> SeasonSample:
    """Play and rank ``E`` seasons under one policy.

    Args:
        ratings: ``(E, N, S)`` each team's players' ratings, best first (board 1, the captain,
            first; ``S >= 4``).
        u: ``(E, M, 4)`` uniforms, one per board of every match (``M = N (N - 1)``, in the order of
            :func:`double_round_robin`).
        lot: ``(E, M)`` the coin of policy ``lot``: True gives the home captain Red.
        policy: One of :data:`POLICIES`.
        classes: Each board's time class.
        model: The game model.
        rules: The league's points.
        line_ups: Who plays each board (:func:`line_ups`: captains' absences, changes, forfeits
            and the lot for boards 2-4); None: every team's best four on boards 1-4 in order.

    Raises:
        ValueError: For an unknown policy or arrays of the wrong shape.
    """
    if policy not in POLICIES:
        raise ValueError(f"unknown policy {policy!r} (expected one of {', '.join(POLICIES)})")
    events, teams = ratings.shape[:2]
    home, away = double_round_robin(teams)
    if u.shape != (events, len(home), 4) or lot.shape != (events, len(home)):
        raise ValueError(f"expected uniforms {(events, len(home), 4)}, got {u.shape}")
    if line_ups is None:
        home_r, away_r = ratings[:, home, :4], ratings[:, away, :4]
        forfeit = np.zeros((events, len(home), 2), dtype=bool)
    else:
        home_r, away_r, forfeit = line_ups.home, line_ups.away, line_ups.forfeit
    probs = {
        c: _forfeits(board_probabilities(home_r, away_r, c, classes, model), forfeit)
        for c in (Colour.RED, Colour.BLACK)
    }
    if policy == "best":
        red = _expected_home_points(probs[Colour.RED], Colour.RED, rules)
        black = _expected_home_points(probs[Colour.BLACK], Colour.BLACK, rules)
        captain_red = red >= black
    else:
        captain_red = {
            "red": np.ones_like(lot),
            "black": np.zeros_like(lot),
            "lot": lot,
        }[policy].astype(bool)
    p = np.where(captain_red[..., None, None], probs[Colour.RED], probs[Colour.BLACK])
    results = (u >= p[..., 0]).astype(np.int64) + (u >= p[..., 0] + p[..., 1])
    outcome = results @ _DIGITS
    red_table, black_table = outcome_table(Colour.RED, rules), outcome_table(Colour.BLACK, rules)
    if red_table.scale != black_table.scale:
        raise ValueError("the two captain colours' points need the same scale")

    def pick(name: str) -> Int64Array:
        r, b = getattr(red_table, name)[outcome], getattr(black_table, name)[outcome]
        mask = captain_red.reshape(*captain_red.shape, *([1] * (r.ndim - 2)))
        return np.asarray(np.where(mask, r, b), dtype=np.int64)

    match_points, board_points, kind, games = (
        pick(n) for n in ("match_points", "board_points", "kind", "games")
    )
    if forfeit.any():
        _score_forfeits(
            forfeit, captain_red, results[..., 0], red_table.scale, rules,
            match_points, board_points, kind, games,
        )  # fmt: skip
    totals, h2h = _totals(teams, home, away, match_points, board_points, games)
    ranks = np.zeros((events, teams), dtype=np.int64)
    steps = len(RANKING_CHAIN) + 1
    reached = np.zeros((events, steps), dtype=bool)
    title = np.zeros((events, steps), dtype=bool)
    totals_list, h2h_list = totals.tolist(), h2h.tolist()
    for e in range(events):
        ranks[e], reached[e], title[e] = rank_season(totals_list[e], h2h_list[e])
    return SeasonSample(
        policy=policy,
        scale=red_table.scale,
        strength=np.asarray(ratings[..., :4].mean(axis=2), dtype=np.float64),
        home=home,
        away=away,
        captain_red=captain_red,
        outcome=outcome,
        match_points=match_points,
        kind=kind,
        totals=totals,
        ranks=ranks,
        reached=reached,
        title_reached=title,
    )


def _forfeits(probs: FloatArray, forfeit: BoolArray) -> FloatArray:
    """``(E, M, 4, 3)`` board odds with board 1 certain where it is forfeited: a home loss, a
    home win, or (both forfeited) a draw that :func:`_score_forfeits` then takes off both
    sides."""
    if not forfeit.any():
        return probs
    out = probs.copy()
    home, away = forfeit[..., 0], forfeit[..., 1]
    code = np.where(home & away, 1, np.where(home, 2, 0))
    certain = np.eye(3)[code]
    out[..., 0, :] = np.where((home | away)[..., None], certain, probs[..., 0, :])
    return out


def _score_forfeits(
    forfeit: BoolArray,
    captain_red: BoolArray,
    board1: Int64Array,
    scale: int,
    rules: LeagueRules,
    match_points: Int64Array,
    board_points: Int64Array,
    kind: Int64Array,
    games: Int64Array,
) -> None:
    """Correct, in place, the matches whose board 1 was forfeited: a forfeit is no game (its
    count in the colour columns is taken off), and where both sides forfeited, the draw that
    stood for board 1 is taken off both sides' board points and the match goes 3 : 0 to the side
    with more (the three other boards never total equal)."""
    any_forfeit = forfeit.any(axis=-1)
    # games columns: Black wins, Red wins, Black draws, Red draws; board 1's colour for the home
    # side is its captain's, the other for the away side.
    home_red = captain_red
    for side, red in ((0, home_red), (1, ~home_red)):
        won = board1 == (0 if side == 0 else 2)
        drew = board1 == 1
        column = np.where(won, np.where(red, 1, 0), np.where(red, 3, 2))
        counted = any_forfeit & (won | drew)
        e, m = np.nonzero(counted)
        games[e, m, side, column[e, m]] -= 1
    both = forfeit.all(axis=-1)
    if not both.any():
        return
    e, m = np.nonzero(both)
    for side in (0, 1):
        red = home_red[e, m] if side == 0 else ~home_red[e, m]
        draw = [
            int(rules.captain.points_for(c, Result.DRAW) * scale)
            for c in (Colour.BLACK, Colour.RED)
        ]
        board_points[e, m, side] -= np.where(red, draw[1], draw[0])
    home_more = board_points[e, m, 0] > board_points[e, m, 1]
    win, loss = int(rules.win * scale), int(rules.loss * scale)
    match_points[e, m, 0] = np.where(home_more, win, loss)
    match_points[e, m, 1] = np.where(home_more, loss, win)
    kind[e, m, 0] = np.where(home_more, 0, 3)
    kind[e, m, 1] = np.where(home_more, 3, 0)
