"""Seeded opening randomisation: the first plies of each game drawn among the engine's good moves.

Uniformly random first moves would throw away much of Red's first-move advantage (the quantity
being measured) and give lopsided openings. Instead each of the first ``plies`` half-moves is
drawn uniformly, with the run's ``numpy`` Generator, among the engine's ``multipv`` best moves
whose score is within ``margin_cp`` of the best (a node-limited ``MultiPV`` search after
``ucinewgame``, so deterministic). An opening already drawn is drawn again, so every opening of a
run is distinct; each is then played once with every pairing of budgets (both colours).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from knockout.errors import KnockoutError
from knockout.selfplay.uci import Engine

__all__ = ["OpeningBook", "OpeningConfig"]


@dataclass(frozen=True)
class OpeningConfig:
    """How openings are drawn (recorded in the run's provenance).

    Attributes:
        plies: Half-moves drawn at random before the engines play.
        multipv: Candidate lines searched at each of those plies.
        margin_cp: A candidate must score within this many centipawns of the best.
        nodes: Nodes for each candidate search.
    """

    plies: int = 6
    multipv: int = 5
    margin_cp: int = 30
    nodes: int = 20000

    def __post_init__(self) -> None:
        if self.plies < 0 or self.multipv < 1 or self.margin_cp < 0 or self.nodes < 1:
            raise KnockoutError(f"openings: expected plies >= 0 and positive settings, got {self}")


class OpeningBook:
    """Draws distinct openings with one engine, caching each position's candidates.

    Args:
        engine: A started engine (its ``MultiPV`` is set here and reset afterwards by the caller
            closing it: the book's engine plays no games).
        config: The drawing settings.
        rng: The run's generator for openings.
    """

    def __init__(self, engine: Engine, config: OpeningConfig, rng: np.random.Generator) -> None:
        self._engine = engine
        self._config = config
        self._rng = rng
        self._cache: dict[tuple[str, ...], tuple[str, ...]] = {}
        self._seen: set[tuple[str, ...]] = set()
        engine.send(f"setoption name MultiPV value {config.multipv}")
        engine.ready()

    def _candidates(self, moves: tuple[str, ...]) -> tuple[str, ...]:
        if moves not in self._cache:
            self._engine.new_game()
            found = self._engine.search(moves, f"nodes {self._config.nodes}", timeout=120)
            lines = found.lines or ((found.move, found.score or 0),)
            best = max(score for _, score in lines)
            self._cache[moves] = tuple(
                sorted({m for m, s in lines if s >= best - self._config.margin_cp})
            )
        return self._cache[moves]

    def draw(self) -> tuple[str, ...]:
        """A new opening, distinct from every one drawn before.

        Raises:
            KnockoutError: If 1,000 draws in a row give only openings already drawn.
        """
        for _ in range(1000):
            moves: tuple[str, ...] = ()
            for _ply in range(self._config.plies):
                options = self._candidates(moves)
                if not options or options[0] == "(none)":
                    break
                moves = (*moves, options[int(self._rng.integers(len(options)))])
            if moves not in self._seen:
                self._seen.add(moves)
                return moves
        raise KnockoutError(
            f"only {len(self._seen)} distinct openings of {self._config.plies} plies were found; "
            "ask for fewer games or more opening plies"
        )

    def draw_many(
        self, count: int, progress: Callable[[int, int], None] | None = None
    ) -> list[tuple[str, ...]]:
        """``count`` distinct openings, in order (the same seed gives the same list)."""
        found: list[tuple[str, ...]] = []
        for i in range(count):
            found.append(self.draw())
            if progress is not None:
                progress(i + 1, count)
        return found
