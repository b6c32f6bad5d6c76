"""Simulated round-robin and Swiss events under the shared game model, many events at once.

The simulation axis comes first: ``E`` events of ``n`` players and ``R`` rounds of ``B = n / 2``
boards. Game results come from :func:`knockout.rules.model.strength.game_probabilities` (classical
games, equal clocks) and one uniform number per board, round and event, which the caller draws once
and passes to every scoring system compared, so the comparisons use common random numbers. In a
round robin the games do not depend on the scoring system: one set of results is scored under every
system. In a Swiss event the pairings depend on the scores, so each system plays its own event from
the same uniforms (or, with a fixed ``pairing`` table, one set of games is scored under every
system, as seed 000 re-scores the games of an event paired under the traditional points).

Points are integers in units of ``1 / scale`` (``scale = 100`` for 1.63 / 2.37), so totals and
ties are exact: a float sum could make 1.9 + 2.1 differ from 2 + 2. A pairing-allocated bye (odd
numbers of players, Dutch pairing only: :mod:`knockout.studies.scoring.dutch`) is scored as
:mod:`knockout.standings` scores one: :attr:`PointsTable.bye`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from knockout.arrays import FloatArray, Int64Array
from knockout.game import Result
from knockout.points import ScoringSystem
from knockout.rules.model.strength import DEFAULT_MODEL, ModelParams, TimeClass, game_probabilities
from knockout.scoring.rescore import point_scale
from knockout.standings.records import Kind, bye_entry
from knockout.studies.scoring.pairings import berger_table, first_swiss_round, swiss_round
from knockout.studies.scoring.uncertainty import game_scores

__all__ = [
    "RESULT_CODES",
    "EventSample",
    "PointsTable",
    "draw_ratings",
    "event_scores",
    "play_games",
    "play_swiss",
    "scale_for",
    "score_games",
    "simulate_round_robin",
    "simulate_swiss",
]

#: Result codes used in the arrays: 0 Red wins, 1 draw, 2 Black wins.
RESULT_CODES = (Result.RED, Result.DRAW, Result.BLACK)


def scale_for(systems: Sequence[ScoringSystem]) -> int:
    """The smallest power of ten that makes every system's points whole numbers."""
    return int(10 ** max(s.decimals for s in systems))


@dataclass(frozen=True)
class PointsTable:
    """A scoring system as whole numbers of ``1 / scale`` points, indexed by result code.

    Attributes:
        name: The system's name.
        scale: Units per point.
        red: ``(3,)`` Red's points for a Red win, a draw, a Black win.
        black: ``(3,)`` Black's points for the same.
        bye: A pairing-allocated bye's points, as :mod:`knockout.standings` scores it (a win
            without playing: :func:`knockout.scoring.rescore.point_scale`).
    """

    name: str
    scale: int
    red: Int64Array
    black: Int64Array
    bye: int = 0

    @classmethod
    def from_system(cls, system: ScoringSystem, scale: int) -> PointsTable:
        """The table of ``system`` in units of ``1 / scale``.

        Raises:
            ValueError: If the system needs game details (moves, material) or is not exact at
                this scale.
        """
        if system.needs_details:
            raise ValueError(f"scoring {system.name!r} needs moves and material: not simulated")
        pairs = [system.points(r) for r in RESULT_CODES]
        units = [(red * scale, black * scale) for red, black in pairs]
        if any(x != x.to_integral_value() for pair in units for x in pair):
            raise ValueError(f"scoring {system.name!r} is not exact in units of 1/{scale}")
        red = np.array([int(r) for r, _ in units], dtype=np.int64)
        black = np.array([int(b) for _, b in units], dtype=np.int64)
        bye = bye_entry(1, Kind.PAIRING_BYE, scale=point_scale(system)).points * scale
        return cls(system.name, scale, red, black, int(bye))


@dataclass(frozen=True)
class EventSample:
    """``E`` simulated events scored under one system.

    Attributes:
        system: The scoring system's name.
        scale: Units per point of ``points`` and ``progressive``.
        ratings: ``(E, n)`` each player's rating (true strength).
        points: ``(E, n)`` final scores, in units.
        progressive: ``(E, n)`` progressive scores (sum of running totals), in units.
        reds: ``(E, n)`` games played with Red.
        rounds: Rounds played.
        rematches: ``(E,)`` pairings that repeat an earlier game (0 in a round robin).
        red_edge: ``(E,)`` mean over the event's games of Red's points minus Black's.
        byes: ``(E, n)`` pairing-allocated byes each player had (None: nobody had one, every
            player played ``rounds`` games).
        bye_units: Points of a bye, in units (included in ``points`` and ``progressive``).
        scores: ``(E, 2)`` each event's derivative of the log-probability of its games in the
            model's ``(red_advantage, log draw_nu)``
            (:mod:`knockout.studies.scoring.uncertainty`); None unless asked for.
    """

    system: str
    scale: int
    ratings: FloatArray
    points: Int64Array
    progressive: Int64Array
    reds: Int64Array
    rounds: int
    rematches: Int64Array
    red_edge: FloatArray
    byes: Int64Array | None = None
    bye_units: int = 0
    scores: FloatArray | None = None

    @property
    def games(self) -> Int64Array:
        """``(E, n)`` games each player played (rounds less byes)."""
        if self.byes is None:
            return np.full(self.points.shape, self.rounds, dtype=np.int64)
        return np.asarray(self.rounds - self.byes, dtype=np.int64)

    @property
    def game_points(self) -> Int64Array:
        """``(E,)`` the points of the event's games (byes left out), in units."""
        bye_total = 0 if self.byes is None else self.byes.sum(axis=1) * self.bye_units
        return np.asarray(self.points.sum(axis=1) - bye_total, dtype=np.int64)


def draw_ratings(
    rng: np.random.Generator, events: int, players: int, *, mean: float, sd: float
) -> FloatArray:
    """``(events, players)`` ratings, Normal(``mean``, ``sd``), each row sorted best first."""
    ratings = rng.normal(mean, sd, size=(events, players))
    return np.asarray(-np.sort(-ratings, axis=1), dtype=np.float64)


def play_games(
    red_rating: FloatArray, black_rating: FloatArray, u: FloatArray, model: ModelParams
) -> Int64Array:
    """Result codes (0 Red wins, 1 draw, 2 Black wins) of classical games, any shape.

    ``u`` holds one Uniform(0, 1) number per game: Red wins below P(Red wins), Black wins above
    P(Red wins) + P(draw).
    """
    p = game_probabilities(red_rating, black_rating, TimeClass.CLASSICAL, model=model)
    return np.asarray((u >= p.red).astype(np.int64) + (u >= p.red + p.draw), dtype=np.int64)


def event_scores(
    ratings: FloatArray, red: Int64Array, black: Int64Array, results: Int64Array, model: ModelParams
) -> FloatArray:
    """``(E, 2)`` each event's derivative of the log-probability of its games (``red``,
    ``black``, ``results`` of shape ``(E, R, B)``, or broadcastable) in ``(red_advantage,
    log draw_nu)``: the sum of :func:`~knockout.studies.scoring.uncertainty.game_scores`."""
    results = np.asarray(results)
    red = np.broadcast_to(red, results.shape)
    black = np.broadcast_to(black, results.shape)
    e = np.arange(ratings.shape[0])[:, None, None]
    games = game_scores(ratings[e, red], ratings[e, black], results, model)
    return np.asarray(games.sum(axis=(1, 2)), dtype=np.float64)


def score_games(
    ratings: FloatArray,
    red: Int64Array,
    black: Int64Array,
    results: Int64Array,
    table: PointsTable,
    rematches: Int64Array | None = None,
    *,
    byes: Int64Array | None = None,
    scores: FloatArray | None = None,
) -> EventSample:
    """Score played games under ``table``.

    Args:
        ratings: ``(E, n)`` ratings.
        red: ``(E, R, B)`` (or broadcastable) Red player of each game.
        black: ``(E, R, B)`` Black player of each game.
        results: ``(E, R, B)`` result codes.
        table: The scoring system.
        rematches: ``(E,)`` rematches in the pairings (default none).
        byes: ``(E, R)`` the player with the round's pairing-allocated bye, ``-1`` for none
            (default: no byes). A bye earns ``table.bye`` in its round.
        scores: ``(E, 2)`` the events' :func:`event_scores`, kept with the sample.
    """
    events, n = ratings.shape
    rounds = results.shape[1]
    red = np.broadcast_to(red, results.shape)
    black = np.broadcast_to(black, results.shape)
    e = np.arange(events)[:, None, None]
    r = np.arange(rounds)[None, :, None]
    red_points, black_points = table.red[results], table.black[results]
    per_round = np.zeros((events, rounds, n), dtype=np.int64)
    per_round[e, r, red] = red_points
    per_round[e, r, black] = black_points
    bye_count = None
    if byes is not None:
        be, br = np.nonzero(byes >= 0)
        per_round[be, br, byes[be, br]] += table.bye
        bye_count = np.zeros((events, n), dtype=np.int64)
        np.add.at(bye_count, (be, byes[be, br]), 1)
    running = per_round.cumsum(axis=1)
    reds = np.zeros((events, n), dtype=np.int64)
    np.add.at(reds, (np.broadcast_to(e, results.shape), red), 1)
    edge = (red_points - black_points).mean(axis=(1, 2)) / table.scale
    return EventSample(
        system=table.name,
        scale=table.scale,
        ratings=ratings,
        points=running[:, -1],
        progressive=running.sum(axis=1),
        reds=reds,
        rounds=rounds,
        rematches=np.zeros(events, dtype=np.int64) if rematches is None else rematches,
        red_edge=np.asarray(edge, dtype=np.float64),
        byes=bye_count,
        bye_units=table.bye,
        scores=scores,
    )


def simulate_round_robin(
    ratings: FloatArray,
    tables: Sequence[PointsTable],
    u: FloatArray,
    *,
    model: ModelParams = DEFAULT_MODEL,
    with_scores: bool = False,
) -> list[EventSample]:
    """Round robins by the Berger table, one set of games scored under every table.

    Args:
        ratings: ``(E, n)`` ratings; player ``i`` takes Berger number ``i + 1`` (shuffle the
            ratings first for a random draw of numbers).
        tables: The scoring systems to score the games under.
        u: ``(E, n - 1, n // 2)`` uniforms, one per game.
        model: The game model.
        with_scores: Keep each event's :func:`event_scores` with the samples.

    Returns:
        One :class:`EventSample` per table, in order.
    """
    events, n = ratings.shape
    table = berger_table(n)
    if u.shape != (events, *table.shape[:2]):
        raise ValueError(f"expected uniforms of shape {(events, *table.shape[:2])}, got {u.shape}")
    red, black = table[..., 0], table[..., 1]
    results = play_games(ratings[:, red], ratings[:, black], u, model)
    scores = event_scores(ratings, red[None], black[None], results, model) if with_scores else None
    return [score_games(ratings, red[None], black[None], results, t, scores=scores) for t in tables]


def play_swiss(
    ratings: FloatArray,
    pairing: PointsTable,
    u: FloatArray,
    *,
    model: ModelParams = DEFAULT_MODEL,
) -> tuple[Int64Array, Int64Array, Int64Array, Int64Array]:
    """Play Swiss events paired by :mod:`knockout.studies.scoring.pairings`, score groups by
    ``pairing``'s points.

    Args:
        ratings: ``(E, n)`` ratings, best first in each row (the initial ranking).
        pairing: The points that make the score groups.
        u: ``(E, R, n // 2)`` uniforms, one per board and round.
        model: The game model.

    Returns:
        ``(red, black, results, rematches)``: ``(E, R, B)`` players and result codes of every
        game, and ``(E,)`` rematches the pairing could not avoid.
    """
    events, n = ratings.shape
    rounds = u.shape[1]
    if u.shape != (events, rounds, n // 2):
        raise ValueError(f"expected uniforms of shape {(events, rounds, n // 2)}, got {u.shape}")
    rows = np.arange(events)[:, None]
    score = np.zeros((events, n), dtype=np.int64)
    met = np.zeros((events, n, n), dtype=bool)
    colour_diff = np.zeros((events, n), dtype=np.int64)
    last = np.zeros((events, n), dtype=np.int64)
    rematches = np.zeros(events, dtype=np.int64)
    red_all = np.empty((events, rounds, n // 2), dtype=np.int64)
    black_all = np.empty_like(red_all)
    results_all = np.empty_like(red_all)
    for rnd in range(rounds):
        if rnd == 0:
            pairs = first_swiss_round(events, n)
        else:
            pairs, kept = swiss_round(score, met, colour_diff, last)
            rematches += kept
        red, black = pairs[..., 0], pairs[..., 1]
        results = play_games(ratings[rows, red], ratings[rows, black], u[:, rnd], model)
        score[rows, red] += pairing.red[results]
        score[rows, black] += pairing.black[results]
        met[rows, red, black] = True
        met[rows, black, red] = True
        colour_diff[rows, red] += 1
        colour_diff[rows, black] -= 1
        last[rows, red] = 1
        last[rows, black] = -1
        red_all[:, rnd], black_all[:, rnd], results_all[:, rnd] = red, black, results
    return red_all, black_all, results_all, rematches


def simulate_swiss(
    ratings: FloatArray,
    tables: Sequence[PointsTable],
    u: FloatArray,
    *,
    pairing: PointsTable | None = None,
    model: ModelParams = DEFAULT_MODEL,
    with_scores: bool = False,
) -> list[EventSample]:
    """Swiss events scored under every table.

    Args:
        ratings: ``(E, n)`` ratings, best first in each row (the initial ranking).
        tables: The scoring systems.
        u: ``(E, R, n // 2)`` uniforms, one per board and round, shared by every table.
        pairing: Pair every event by these points (one set of games, scored under every table),
            or None to pair each table's events by its own points (a set of games per table).
        model: The game model.
        with_scores: Keep each event's :func:`event_scores` with the samples.

    Returns:
        One :class:`EventSample` per table, in order.
    """

    def scored(red: Int64Array, black: Int64Array, results: Int64Array) -> FloatArray | None:
        return event_scores(ratings, red, black, results, model) if with_scores else None

    if pairing is not None:
        red, black, results, kept = play_swiss(ratings, pairing, u, model=model)
        scores = scored(red, black, results)
        return [score_games(ratings, red, black, results, t, kept, scores=scores) for t in tables]
    samples = []
    for table in tables:
        red, black, results, kept = play_swiss(ratings, table, u, model=model)
        samples.append(
            score_games(
                ratings, red, black, results, table, kept, scores=scored(red, black, results)
            )
        )
    return samples
