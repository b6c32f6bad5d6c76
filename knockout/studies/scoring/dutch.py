"""Swiss events paired by FIDE's Dutch system (C.04.3), with the ``caissify-pairings`` engine.

The simplified pairing of :mod:`knockout.studies.scoring.pairings` is vectorised and fast, but no
real event uses it. Here each simulated event is paired round by round by the FIDE Dutch engine
of the ``caissify-pairings`` library (cross-validated by its authors against bbpPairings, the
FIDE-endorsed reference). The engine is stateless: before every round this module hands it each
player's standing, built from the games played so far the way the library's own checker
(``caissify_pairings.fpc``) builds it from a TRF file:

* ``score``: the pairing system's points so far, in wins (points times 2 over the sum of its two
  wins): the traditional 2 / 1 / 0 become FIDE's 1 / 0.5 / 0 exactly. The engine makes score
  groups of equal scores, orders them, and in the last round relaxes the colour rules for the
  players above half the maximum score, so under another system the score groups are that
  system's own, exactly (equal points give equal numbers);
* ``color_hist``: ``white`` for Red (who moves first), ``black`` for Black, one entry per game
  played (a bye adds none);
* ``float_history``: per round, ``down`` if the player's score before the round was above the
  opponent's, ``up`` if below, ``none`` if equal; a bye is a downfloat;
* ``bye_count`` and the pairs that have met; the pairing number is the initial ranking (index
  ``0`` is number 1, the top seed, who has Red on board 1 in round 1).

With an odd number of players the engine gives one player a pairing-allocated bye each round (the
lowest score group, a player who has not had one). The bye is scored as
:mod:`knockout.standings` scores one (:func:`knockout.scoring.rescore.point_scale`): a win
without playing, worth the larger of the system's two wins, counted in its round's running total
(so in the progressive score) and in the pairing score; it is not a game, so it has no colour and
counts in no per-game figure.

The games come from the same numbers as the simplified pairing's: board ``b`` of round ``r`` (the
engine's table order, highest scores first) plays with the uniform ``u[e, r, b]``.

Most of the time goes to the engine's maximum-weight matchings: it solves dozens a round, each
with networkx's ``max_weight_matching`` (Edmonds' blossom algorithm in pure
Python) on the whole field. Building the standings takes well under 0.1 % of an event. While an
event is paired, :func:`plain_adjacency` hands networkx's own matching code the engine's graph
with its adjacency as plain dictionaries (the same nodes, edges and weights in the same order),
so the inner loop's edge look-ups skip networkx's read-only views: the same algorithm on the same
data, so the same matchings and pairings (a test re-pairs each round with the library outside
it), about a third less time. One event still takes tens of seconds for 100 players, so
:func:`play_dutch` can share the events among processes (:func:`sims.runner.run_blocks`, one
event a block); the result does not depend on how many.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from typing import Any

import networkx as nx
import numpy as np
from caissify_pairings import generate_pairings

from knockout.arrays import FloatArray, Int64Array
from knockout.rules.model.strength import DEFAULT_MODEL, ModelParams
from knockout.studies.scoring.events import (
    EventSample,
    PointsTable,
    event_scores,
    play_games,
    score_games,
)
from sims.runner import run_blocks

__all__ = [
    "DutchEvents",
    "DutchProgress",
    "PlayedEvent",
    "engine_score",
    "plain_adjacency",
    "play_dutch",
    "play_dutch_event",
    "simulate_dutch",
]

#: Called with ``(events done, events in all, seconds so far)``.
DutchProgress = Callable[[int, int, float], None]


def engine_score(units: int, table: PointsTable) -> float:
    """``units`` of ``table``'s points as the engine's score: in wins (a win is worth 1).

    >>> from knockout.points import get_scoring
    >>> engine_score(300, PointsTable.from_system(get_scoring("traditional"), 100))
    1.5
    """
    return units * 2 / int(table.red[0] + table.black[2])


@dataclass(frozen=True)
class PlayedEvent:
    """One Swiss event paired by the Dutch system.

    Attributes:
        red: ``(R, B)`` the Red player of each board (``B = n // 2``).
        black: ``(R, B)`` the Black player.
        results: ``(R, B)`` result codes (0 Red wins, 1 draw, 2 Black wins).
        bye: ``(R,)`` the player with the pairing-allocated bye, ``-1`` for none (even ``n``).
        rematches: Pairings of players who had met (the engine forbids them; counted anyway).
    """

    red: Int64Array
    black: Int64Array
    results: Int64Array
    bye: Int64Array
    rematches: int


@dataclass(frozen=True)
class DutchEvents:
    """Played events by their index: what a block of :func:`sims.runner.run_blocks` returns
    (adding two merges them, whichever process played which)."""

    played: Mapping[int, PlayedEvent]

    def __add__(self, other: DutchEvents) -> DutchEvents:
        return DutchEvents({**self.played, **other.played})


#: networkx's public matching function, as the engine calls it (``nx.max_weight_matching``).
_MATCHING = nx.max_weight_matching


class _Adjacency(dict[Any, dict[Any, dict[str, Any]]]):
    """An undirected networkx graph as ``max_weight_matching`` reads it, ``G[v]`` a plain dict.

    networkx's matching code reads its graph through ``list(G)``, ``G.nodes()``,
    ``G.edges(data=True)``, ``G.neighbors(v)`` and, in its innermost loop, ``G[v][w]`` (an edge's
    attributes). A ``Graph`` answers ``G[v]`` with a read-only view built per call; this answers
    it with the graph's own adjacency dict, and everything else from the graph itself, in the
    graph's order. Read only: the matching code never writes to its graph.
    """

    __slots__ = ("_graph",)

    def __init__(self, graph: nx.Graph) -> None:
        super().__init__(graph._adj)
        self._graph = graph

    def __iter__(self) -> Iterator[Any]:
        return iter(self._graph._node)

    def nodes(self) -> Any:
        return self._graph.nodes()

    def edges(self, data: bool = False) -> Any:
        return self._graph.edges(data=data)

    def neighbors(self, v: Any) -> Iterator[Any]:
        return iter(self[v])

    def is_directed(self) -> bool:
        return False

    def is_multigraph(self) -> bool:
        return False


def _plain_matching(
    G: Any,
    maxcardinality: bool = False,
    weight: str = "weight",
) -> Any:
    """networkx's ``max_weight_matching`` (its own code, no backend) run on :class:`_Adjacency`.

    Anything but a plain ``nx.Graph`` goes to the public function as it is.
    """
    code = getattr(_MATCHING, "orig_func", None)
    if code is None or type(G) is not nx.Graph:
        return _MATCHING(G, maxcardinality=maxcardinality, weight=weight)
    return code(_Adjacency(G), maxcardinality=maxcardinality, weight=weight)


@contextmanager
def plain_adjacency() -> Iterator[None]:
    """Within the block, ``networkx.max_weight_matching`` runs on plain adjacency dicts.

    The same function on the same graph, with cheaper look-ups: the matchings are those networkx
    finds anyway (``tests/studies/test_scoring_dutch.py`` checks it on graphs with tied weights,
    and that the engine's pairings under it equal its pairings without it). Not thread-safe:
    it swaps a module attribute for the block's length.
    """
    nx.max_weight_matching = _plain_matching
    try:
        yield
    finally:
        nx.max_weight_matching = _MATCHING


class _Standings:
    """What the engine is told before a round, kept up to date game by game."""

    def __init__(self, n: int, table: PointsTable) -> None:
        self.table = table
        self.units = [0] * n
        self.colours: list[list[str]] = [[] for _ in range(n)]
        self.floats: list[list[str]] = [[] for _ in range(n)]
        self.byes = [0] * n
        self.met: set[tuple[int, int]] = set()

    def players(self, ratings: FloatArray) -> list[dict[str, Any]]:
        """The engine's player dicts (ids and pairing numbers ``index + 1``)."""
        return [
            {
                "id": i + 1,
                "name": f"{i + 1:04d}",
                "score": engine_score(self.units[i], self.table),
                "rating": round(float(ratings[i])),
                "starting_number": i + 1,
                "pairing_number": i + 1,
                "color_hist": list(self.colours[i]),
                "float_history": list(self.floats[i]),
                "bye_count": self.byes[i],
            }
            for i in range(len(self.units))
        ]

    def record(self, red: Int64Array, black: Int64Array, results: Int64Array, bye: int) -> None:
        """Add a round's games and bye."""
        before = list(self.units)
        for r, b, code in zip(red.tolist(), black.tolist(), results.tolist(), strict=True):
            self.units[r] += int(self.table.red[code])
            self.units[b] += int(self.table.black[code])
            self.colours[r].append("white")
            self.colours[b].append("black")
            up_down = "down" if before[r] > before[b] else "up" if before[r] < before[b] else "none"
            self.floats[r].append(up_down)
            self.floats[b].append({"down": "up", "up": "down"}.get(up_down, "none"))
            self.met.add((min(r, b) + 1, max(r, b) + 1))
        if bye >= 0:
            self.units[bye] += self.table.bye
            self.byes[bye] += 1
            self.floats[bye].append("down")


def play_dutch_event(
    ratings: FloatArray, pairing: PointsTable, u: FloatArray, *, model: ModelParams = DEFAULT_MODEL
) -> PlayedEvent:
    """Play one Swiss event, each round paired by the engine.

    Args:
        ratings: ``(n,)`` ratings, best first (the initial ranking).
        pairing: The points that make the score groups (and score the byes).
        u: ``(R, n // 2)`` uniforms, one per board and round.
        model: The game model.

    Raises:
        RuntimeError: If the engine leaves a board empty or pairs a player twice.
    """
    n = ratings.shape[0]
    rounds, boards = u.shape
    if boards != n // 2:
        raise ValueError(f"expected {n // 2} uniforms a round, got {boards}")
    state = _Standings(n, pairing)
    red = np.empty((rounds, boards), dtype=np.int64)
    black = np.empty_like(red)
    results = np.empty_like(red)
    bye = np.full(rounds, -1, dtype=np.int64)
    rematches = 0
    for rnd in range(rounds):
        with plain_adjacency():
            out = generate_pairings(
                "dutch",
                state.players(ratings),
                set(state.met),
                rnd + 1,
                rounds,
                bye_value=engine_score(pairing.bye, pairing),
            )
        games = [p for p in out if p.get("black_id") is not None]
        byes = [p["white_id"] - 1 for p in out if p.get("black_id") is None]
        seen = sorted([p["white_id"] for p in games] + [p["black_id"] for p in games])
        if len(games) != boards or len(byes) != n % 2 or len(set(seen)) != len(seen):
            raise RuntimeError(f"round {rnd + 1}: the engine paired {out!r}")
        red[rnd] = [p["white_id"] - 1 for p in games]
        black[rnd] = [p["black_id"] - 1 for p in games]
        rematches += sum(
            (min(a, b) + 1, max(a, b) + 1) in state.met
            for a, b in zip(red[rnd].tolist(), black[rnd].tolist(), strict=True)
        )
        results[rnd] = play_games(ratings[red[rnd]], ratings[black[rnd]], u[rnd], model)
        bye[rnd] = byes[0] if byes else -1
        state.record(red[rnd], black[rnd], results[rnd], int(bye[rnd]))
    return PlayedEvent(red, black, results, bye, rematches)


def _block(
    ratings: FloatArray,
    u: FloatArray,
    pairing: PointsTable,
    model: ModelParams,
    index: int,
    size: int,
    seed: int,
) -> DutchEvents:
    """Block ``index`` of :func:`sims.runner.run_blocks`: event ``index`` (one a block; the
    numbers were drawn beforehand, so ``seed`` is not used)."""
    del size, seed
    return DutchEvents({index: play_dutch_event(ratings[index], pairing, u[index], model=model)})


def play_dutch(
    ratings: FloatArray,
    pairing: PointsTable,
    u: FloatArray,
    *,
    model: ModelParams = DEFAULT_MODEL,
    workers: int = 1,
    progress: DutchProgress | None = None,
) -> tuple[Int64Array, Int64Array, Int64Array, Int64Array, Int64Array]:
    """Play ``E`` Swiss events paired by the Dutch system.

    Args:
        ratings: ``(E, n)`` ratings, best first in each row.
        pairing: The points that make the score groups.
        u: ``(E, R, n // 2)`` uniforms.
        model: The game model.
        workers: Most processes (this one included) to share the events among.
        progress: Called as events complete.

    Returns:
        ``(red, black, results, byes, rematches)``: ``(E, R, B)`` players and result codes,
        ``(E, R)`` the bye of each round (``-1``: none) and ``(E,)`` rematches.
    """
    events = ratings.shape[0]
    start = time.perf_counter()

    def tick(done: int, total: int) -> None:
        if progress is not None:
            progress(done, total, time.perf_counter() - start)

    block = partial(_block, ratings, u, pairing, model)
    run = run_blocks(block, events, 0, workers=workers, block_size=1, progress=tick, adaptive=False)
    if run.interrupted or run.counts is None or len(run.counts.played) != events:
        raise KeyboardInterrupt  # Ctrl-C before every event was played: nothing to report
    played = [run.counts.played[i] for i in range(events)]
    return (
        np.stack([p.red for p in played]),
        np.stack([p.black for p in played]),
        np.stack([p.results for p in played]),
        np.stack([p.bye for p in played]),
        np.array([p.rematches for p in played], dtype=np.int64),
    )


def simulate_dutch(
    ratings: FloatArray,
    tables: Sequence[PointsTable],
    u: FloatArray,
    *,
    pairing: PointsTable | None = None,
    model: ModelParams = DEFAULT_MODEL,
    workers: int = 1,
    progress: DutchProgress | None = None,
    with_scores: bool = False,
) -> list[EventSample]:
    """Swiss events paired by the Dutch system, scored under every table (as
    :func:`~knockout.studies.scoring.events.simulate_swiss` for the simplified pairing).

    Args:
        ratings: ``(E, n)`` ratings, best first in each row.
        tables: The scoring systems.
        u: ``(E, R, n // 2)`` uniforms, shared by every table.
        pairing: Pair every event by these points (one set of games), or None for each table's
            own (a set of games per table, each paired and played from the same numbers).
        model: The game model.
        workers: Most processes to share the pairing among.
        progress: Called as events complete (each table's run in turn with ``pairing=None``).
        with_scores: Keep each event's :func:`~knockout.studies.scoring.events.event_scores`
            with the samples.
    """

    def scored(red: Int64Array, black: Int64Array, results: Int64Array) -> FloatArray | None:
        return event_scores(ratings, red, black, results, model) if with_scores else None

    if pairing is not None:
        red, black, results, byes, kept = play_dutch(
            ratings, pairing, u, model=model, workers=workers, progress=progress
        )
        scores = scored(red, black, results)
        return [
            score_games(ratings, red, black, results, t, kept, byes=byes, scores=scores)
            for t in tables
        ]
    samples = []
    events, earlier = ratings.shape[0], 0.0
    for k, table in enumerate(tables):

        def tick(
            done: int, total: int, seconds: float, k: int = k, before: float = earlier
        ) -> None:
            # Counted over every table's run: events done of all, seconds since the first.
            if progress is not None:
                progress(k * events + done, len(tables) * total, before + seconds)

        start = time.perf_counter()
        red, black, results, byes, kept = play_dutch(
            ratings, table, u, model=model, workers=workers, progress=tick
        )
        earlier += time.perf_counter() - start
        samples.append(
            score_games(
                ratings,
                red,
                black,
                results,
                table,
                kept,
                byes=byes,
                scores=scored(red, black, results),
            )
        )
    return samples
