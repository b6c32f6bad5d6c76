"""The sudden-death bidding: 甲 announces a colour, 乙 accepts or objects (MODEL.md).

:class:`BiddingGame` turns the bidding menu and the model into the decision problem: for each
(announcement, reply) the chance that 甲 advances, as a function of ``x``, 甲's rating minus 乙's
(for the stage's time class). Every strategy decides from these values
(:mod:`knockout.rules.decisions.strategies`), so the engine, the exact solver and the Monte Carlo
kernel share one definition of who chooses what. The rational regions of many sets of constants
are found together (:func:`rational_regions_of`); the ``bayesian`` strategy's regions average over
the truth around each player's estimate (:func:`bayesian_regions`).

Arrays: ``x`` may be a scalar or an array of shape ``(n,)``; results have the same shape.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

import numpy as np
import numpy.typing as npt

from knockout.arrays import BoolArray, FloatArray
from knockout.game import Colour, Reply
from knockout.rules.book.formats import BiddingMenu, Stage
from knockout.rules.decisions.regions import (
    GRID_STEP,
    REGION_SPAN,
    Regions,
    regions_of_cuts,
    regions_where,
    switch_points,
    threshold_regions,
    vector_bounds,
)
from knockout.rules.model.strength import (
    DEFAULT_MODEL,
    ModelParams,
    PerClass,
    TimeClass,
    davidson_share,
    game_probabilities,
    strength_difference,
)

__all__ = [
    "BRANCHES",
    "BRANCH_NAMES",
    "BiddingGame",
    "bayesian_regions",
    "rational_regions_of",
]

#: The four (announcement, reply) branches of the bidding rule, in the order every table uses,
#: with the names outputs give them.
BRANCHES: tuple[tuple[Colour, Reply], ...] = (
    (Colour.RED, Reply.ACCEPT),
    (Colour.RED, Reply.OBJECT),
    (Colour.BLACK, Reply.ACCEPT),
    (Colour.BLACK, Reply.OBJECT),
)


BRANCH_NAMES: tuple[str, ...] = tuple(f"{a.value}_{r.value}" for a, r in BRANCHES)


def _branch_decisions(game: BiddingGame, x: FloatArray) -> dict[str, BoolArray]:
    """The rational rule's three decisions at ``x`` from the four branch values."""
    return _decisions_of([game.chooser_advances(a, r, x) for a, r in BRANCHES])


def _decisions_of(values: Sequence[FloatArray]) -> dict[str, BoolArray]:
    """The rational rule's decisions from P(甲 advances) in each branch (``BRANCHES`` order)."""
    red_accept, red_object, black_accept, black_object = values
    red_value, black_value = _announcement_values(values)
    return {
        "announce_red": np.asarray(red_value >= black_value),
        "object_red": np.asarray(red_object < red_accept),
        "object_black": np.asarray(black_object < black_accept),
    }


def _announcement_values(values: Sequence[FloatArray]) -> tuple[FloatArray, FloatArray]:
    """P(甲 advances) if 甲 announces Red, and Black, 乙 replying rationally (objecting where
    that is strictly worse for 甲), from the four branch values (``BRANCHES`` order)."""
    red_accept, red_object, black_accept, black_object = values
    red_value = np.where(red_object < red_accept, red_object, red_accept)
    black_value = np.where(black_object < black_accept, black_object, black_accept)
    return red_value, black_value


def _grid_decisions(game: BiddingGame, x: FloatArray) -> dict[str, BoolArray]:
    """:func:`_branch_decisions` on a big grid, value for value: each branch's P(甲 advances)
    from the model's own strength difference and
    :func:`~knockout.rules.model.strength.davidson_share` (davidson's operations, in place: fewer
    passes over memory than :meth:`BiddingGame.chooser_advances`). ``game``'s constants broadcast
    against ``x``."""
    model, tc = game.model, game.time_class
    values = []
    for announce, reply in BRANCHES:
        colour, clocks = game.menu.assignment(announce, reply)
        red_min, black_min = game.effective(clocks)
        red = colour is Colour.RED
        d = strength_difference(
            x if red else 0.0,  # 甲 as Red at x against 乙 at 0, or as Black
            0.0 if red else x,
            red_advantage=model.red_advantage[tc],
            elo_per_doubling=model.elo_per_doubling[tc],
            red_minutes=red_min,
            black_minutes=black_min,
        )
        values.append(
            davidson_share(d, model.draw_nu[tc], red=red, with_draw=game.draw_winner is colour)
        )
    return _decisions_of(values)


@dataclass(frozen=True)
class BiddingGame:
    """The sudden-death game as a decision problem for 甲 and 乙.

    Attributes:
        menu: Clock pairs and priority rule.
        draw_winner: Who a drawn game counts for.
        time_class: Model time class of the game.
        model: Model constants.
    """

    menu: BiddingMenu
    draw_winner: Colour
    time_class: TimeClass = TimeClass.RAPID
    model: ModelParams = field(default=DEFAULT_MODEL)
    increment_seconds: float = 10.0

    @classmethod
    def from_stage(
        cls, stage: Stage, model: ModelParams, time_class: TimeClass | None = None
    ) -> BiddingGame:
        """The decision problem of a bidding stage (its time class: as the stage resolves it
        under ``model``, unless given)."""
        if stage.bidding is None or stage.draw_winner is None:
            raise ValueError(f"stage {stage.name!r} is not a bidding stage")
        tc = stage.time_class_for(model.moves) if time_class is None else time_class
        return cls(stage.bidding, stage.draw_winner, tc, model, stage.increment_seconds)

    def effective(self, clocks: tuple[float, float]) -> tuple[float, float]:
        """Effective clocks (minutes) of a branch's base clocks."""
        red, black = (float(self.model.effective(m, self.increment_seconds)) for m in clocks)
        return red, black

    def chooser_advances(self, announce: Colour, reply: Reply, x: npt.ArrayLike) -> FloatArray:
        """P(甲 advances) after ``announce``/``reply`` when 甲's rating minus 乙's is ``x``."""
        colour, clocks = self.menu.assignment(announce, reply)
        red_min, black_min = self.effective(clocks)
        x_arr = np.asarray(x, dtype=np.float64)
        if colour is Colour.RED:
            p = game_probabilities(
                x_arr,
                0.0,
                self.time_class,
                model=self.model,
                red_minutes=red_min,
                black_minutes=black_min,
            )
            win = p.red
        else:
            p = game_probabilities(
                0.0,
                x_arr,
                self.time_class,
                model=self.model,
                red_minutes=red_min,
                black_minutes=black_min,
            )
            win = p.black
        if self.draw_winner is colour:
            return np.asarray(win + p.draw)
        return np.asarray(win)

    def branch_values(self, x: npt.ArrayLike) -> FloatArray:
        """P(甲 advances) in each branch (``BRANCHES`` order, last axis) at advantage ``x``."""
        return np.stack([self.chooser_advances(a, r, x) for a, r in BRANCHES], axis=-1).astype(
            np.float64
        )

    def rational_objects(self, announce: Colour, x: npt.ArrayLike) -> BoolArray:
        """乙's rational reply to ``announce``: True = object (strictly worse for 甲)."""
        return np.asarray(
            self.chooser_advances(announce, Reply.OBJECT, x)
            < self.chooser_advances(announce, Reply.ACCEPT, x)
        )

    def value_of_announcing(self, announce: Colour, x: npt.ArrayLike) -> FloatArray:
        """P(甲 advances) if 甲 announces ``announce`` and 乙 replies rationally at ``x``."""
        return np.asarray(
            np.where(
                self.rational_objects(announce, x),
                self.chooser_advances(announce, Reply.OBJECT, x),
                self.chooser_advances(announce, Reply.ACCEPT, x),
            )
        )

    def rational_announces_red(self, x: npt.ArrayLike) -> BoolArray:
        """甲's rational announcement at ``x``: True = Red (Red on a tie)."""
        return np.asarray(
            self.value_of_announcing(Colour.RED, x) >= self.value_of_announcing(Colour.BLACK, x)
        )

    @cached_property
    def regions(self) -> Mapping[str, Regions]:
        """Decision regions in ``x`` for the rational rule, computed once per distinct game
        (the exact companion and the kernel of a simulation, each point of a study, share
        them): :meth:`rational_regions`."""
        try:
            return _rational_regions(self)
        except TypeError:  # a game whose model constants are arrays is not hashable
            return self.rational_regions()

    def rational_regions(self) -> Mapping[str, Regions]:
        """Decision regions in ``x`` for the rational rule.

        Keys: ``announce_red`` (甲 announces Red), ``object_red`` / ``object_black`` (乙 objects to
        that announcement). Thresholds are bracketed on a 1-Elo grid over ``[-REGION_SPAN,
        REGION_SPAN]`` and refined by a root search (:func:`switch_points`) to 1e-9 Elo.
        """

        def obj(announce: Colour) -> Callable[[FloatArray], FloatArray]:
            return lambda y: (
                self.chooser_advances(announce, Reply.OBJECT, y)
                - self.chooser_advances(announce, Reply.ACCEPT, y)
            )

        def red_minus_black(y: FloatArray) -> FloatArray:
            return self.value_of_announcing(Colour.RED, y) - self.value_of_announcing(
                Colour.BLACK, y
            )

        grid = np.arange(-REGION_SPAN, REGION_SPAN + GRID_STEP, GRID_STEP)
        return {
            "announce_red": regions_where(grid, self.rational_announces_red(grid), red_minus_black),
            "object_red": regions_where(
                grid, self.rational_objects(Colour.RED, grid), obj(Colour.RED)
            ),
            "object_black": regions_where(
                grid, self.rational_objects(Colour.BLACK, grid), obj(Colour.BLACK)
            ),
        }

    @cached_property
    def vector_regions(self) -> dict[str, FloatArray]:
        """:attr:`regions` for a vectorised model: per set of constants, the padded bounds
        (:func:`vector_bounds`) of ``announce_red``, ``object_red`` and ``object_black``."""

        def decide(m: ModelParams, x: FloatArray) -> dict[str, BoolArray]:
            return _branch_decisions(replace(self, model=m), x)

        return vector_bounds(decide, self.model, ("announce_red", "object_red", "object_black"))


@functools.lru_cache(maxsize=256)
def _rational_regions(game: BiddingGame) -> Mapping[str, Regions]:
    return game.rational_regions()


#: Sets of constants whose switch points are refined at once (memory: a few arrays of one
#: entry per switch found, so the whole group).
_GAMES_AT_ONCE = 256


#: Grid cells evaluated at once when the decisions of many sets of constants are taken on the
#: 1-Elo grid: about 48,000 (8 sets' rows) keeps the pass's temporaries near the processor's
#: cache (measured on this 2-vCPU machine: with the in-place arithmetic of
#: :func:`_grid_decisions`, 2.5-3x faster than 64 rows at once; 1 row at a time is slower).
_GRID_CELLS_AT_ONCE = 48_000


#: The rational rule's decisions, in the order of :func:`_decision_gaps`' keys.
_REGION_KEYS = ("announce_red", "object_red", "object_black")


def rational_regions_of(games: Sequence[BiddingGame]) -> list[Mapping[str, Regions]]:
    """``[game.rational_regions() for game in games]``, bit for bit, for games that differ only
    in their model constants (plain numbers each), found together: the decisions on the 1-Elo
    grid for a few games at a time in one array pass (rows sized to stay in cache), and every
    switch point of every game refined in one root search
    (:func:`~knockout.rules.decisions.regions.switch_points`, the one-game search's). A study
    of many sets of constants pays a few array passes instead of one root search per set.

    Raises:
        ValueError: If the games differ in more than their constants, or a constant is an array.
    """
    if not games:
        return []
    first = games[0]
    shape = (first.menu, first.draw_winner, first.time_class, first.increment_seconds)
    for g in games:
        if (g.menu, g.draw_winner, g.time_class, g.increment_seconds) != shape:
            raise ValueError("rational_regions_of needs games that differ only in constants")
        if g.model.size is not None or g.model.moves != first.model.moves:
            raise ValueError("rational_regions_of needs plain constants and the same moves")
    grid = np.arange(-REGION_SPAN, REGION_SPAN + GRID_STEP, GRID_STEP)
    keys = _REGION_KEYS
    cuts: list[dict[str, list[float]]] = [{k: [] for k in keys} for _ in games]
    starts: list[dict[str, bool]] = [{} for _ in games]
    per_pass = max(1, _GRID_CELLS_AT_ONCE // grid.size)
    for lo in range(0, len(games), _GAMES_AT_ONCE):
        part = games[lo : lo + _GAMES_AT_ONCE]
        rows = replace(first, model=_stacked([g.model for g in part]))
        found: list[tuple[npt.NDArray[np.intp], ...]] = []  # (key, row, cell) of each switch
        for at in range(0, len(part), per_pass):
            stop = min(at + per_pass, len(part))
            column = replace(rows, model=rows.model.mapped(lambda a: a[at:stop, None]))  # noqa: B023
            decided = _grid_decisions(column, grid)  # the grid's decisions, as one game's
            for k, key in enumerate(keys):
                inside_grid = decided[key]
                for r in range(stop - at):
                    starts[lo + at + r][key] = bool(inside_grid[r, 0])
                row, cell = np.nonzero(inside_grid[:, 1:] != inside_grid[:, :-1])
                found.append((np.full(row.size, k, dtype=np.intp), row + at, cell))
        key_of, row, cell = (np.concatenate(parts) for parts in zip(*found, strict=True))
        points = _switch_points(rows, key_of, row, grid[cell], grid[cell + 1])
        # each game's switches of a decision come in grid order, as the one-game search's
        for k, r, cut in zip(key_of.tolist(), row.tolist(), points.tolist(), strict=True):
            cuts[lo + r][keys[k]].append(cut)
    out: list[Mapping[str, Regions]] = []
    for start, found_cuts in zip(starts, cuts, strict=True):
        out.append({k: regions_of_cuts(start[k], found_cuts[k]) for k in keys})
    return out


def _stacked(models: Sequence[ModelParams]) -> ModelParams:
    """One model whose constants are arrays over ``models`` (the same moves)."""

    def table(name: str) -> PerClass:
        cells: list[Any] = [
            np.array([getattr(m, name)[tc] for m in models], dtype=np.float64) for tc in TimeClass
        ]
        return PerClass(*cells)

    return ModelParams(
        table("red_advantage"), table("draw_nu"), table("elo_per_doubling"), models[0].moves
    )


def _decision_gaps(game: BiddingGame, key: npt.NDArray[np.intp], y: FloatArray) -> FloatArray:
    """The functions whose roots are switches of the decisions ``_REGION_KEYS[key]`` (what
    :meth:`BiddingGame.rational_regions` refines), for a vectorised ``game`` whose entries
    match ``y``: the four branch values once, each entry's gap taken from them with the same
    arithmetic as the one-game search."""
    values = [game.chooser_advances(a, r, y) for a, r in BRANCHES]
    red_accept, red_object, black_accept, black_object = values
    red_value, black_value = _announcement_values(values)
    gaps = (red_value - black_value, red_object - red_accept, black_object - black_accept)
    return np.asarray(np.choose(key, gaps), dtype=np.float64)


def _switch_points(
    rows: BiddingGame,
    key: npt.NDArray[np.intp],
    row: npt.NDArray[np.intp],
    lo: FloatArray,
    hi: FloatArray,
) -> FloatArray:
    """Each switch of decision ``_REGION_KEYS[key]`` between ``lo`` and ``hi`` (game ``row``
    of ``rows``), as the one-game search settles it (:func:`switch_points`: every decision's
    switches of every game in one search)."""

    def gap(y: FloatArray, index: npt.NDArray[np.intp]) -> FloatArray:
        return _decision_gaps(replace(rows, model=rows.model.take(row[index])), key[index], y)

    return switch_points(gap, lo, hi)


@functools.lru_cache(maxsize=64)
def bayesian_regions(game: BiddingGame, sd: float) -> Mapping[str, Regions]:
    """Decision regions in each player's own estimate for the ``bayesian`` strategy.

    乙, holding the truth to be ``Normal(e, sd)`` around its estimate ``e``, objects to an
    announcement when that lowers 甲's expected chance. 甲 averages over the truth around its
    estimate and over 乙's reply, knowing 乙 decides the same way from the truth plus 乙's own
    noise: P(乙 objects | truth X) is the Normal mass of 乙's region around X.
    """

    def gap(announce: Colour) -> Callable[[FloatArray], FloatArray]:
        return lambda y: (
            game.chooser_advances(announce, Reply.OBJECT, y)
            - game.chooser_advances(announce, Reply.ACCEPT, y)
        )

    bidder = {a: threshold_regions(gap(a), sd, strict=True) for a in (Colour.RED, Colour.BLACK)}

    def value(announce: Colour, y: FloatArray) -> FloatArray:
        q = bidder[announce].normal_mass(y, sd)
        return np.asarray(
            q * game.chooser_advances(announce, Reply.OBJECT, y)
            + (1 - q) * game.chooser_advances(announce, Reply.ACCEPT, y)
        )

    announce = threshold_regions(
        lambda y: value(Colour.RED, y) - value(Colour.BLACK, y), sd, strict=False
    )
    return {
        "announce_red": announce,
        "object_red": bidder[Colour.RED],
        "object_black": bidder[Colour.BLACK],
    }
