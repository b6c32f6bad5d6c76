"""Sweeps: a study file varies scenario values over a grid and measures outputs at every point.

A study file names a base scenario, a grid over any ``--set`` paths, and metrics::

    name = "The chooser's edge against the worth of time and the draw rate"
    scenario = "../final-2600-vs-2550.toml"      # relative to the study file
    metrics = ["odds.match.chooser_advances", "fair.chooser_advantage.seed_menu"]

    [grid]                                         # one or two paths (more are allowed)
    "model.elo_per_doubling.rapid" = { from = 0, to = 200, steps = 41 }
    "model.draw_nu.rapid" = [0.3, 0.5, 1.0, 1.5, 2.0]

    [set]                                          # fixed overrides, before the grid
    "strategy.kind" = "rational"

A metric is an output and a key path into its JSON: ``odds.`` (``knockout odds --json``),
``compare.`` (``knockout compare --json``; rows are addressed by format name, e.g.
``compare.rows.xq-bidding.decider_edge``), ``fair.`` (``knockout fair --json``),
``incentives.`` (``knockout incentives --json``, on a grid of ``pace_grid`` paces a player; e.g.
``incentives.manipulation_gain``, ``incentives.equilibria.0.chooser_advances``),
``equilibrium.`` (``knockout equilibrium --json``; e.g. ``equilibrium.max_deviation_gain``,
``equilibrium.equilibria.0.chooser_advances``) or ``simulate.``
(``knockout simulate --json``: a Monte Carlo estimate with its standard error, the same seed at
every point, so differences between points are common-random-number differences). A list entry
is addressed by its ``name`` or ``format``, or by its position from 0; a position past the end
of the list at some point (no equilibrium there) is undefined there (NaN).

Exact where the solver applies: ``odds`` metrics of a two-player match under a deterministic
strategy are computed for a whole group of grid points in one vectorised solver call (the model
constants and ratings become arrays); other points are solved one by one.
"""

from __future__ import annotations

import itertools
import json
import math
import os
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import Annotated, Any

import numpy as np
from pydantic import Field, ValidationError

from knockout.arrays import FloatArray
from knockout.errors import InputError, KnockoutError, Problem, ScenarioError
from knockout.exact.bracket import bracket_odds, bracket_odds_at
from knockout.exact.odds import (
    certain_odds,
    default_draws,
    from_solution,
    match_odds,
    match_odds_at,
    match_spread,
    solution_figures,
    solve_chunked,
    sudden_deaths,
)
from knockout.io.overrides import Override, apply_overrides
from knockout.io.text import read_text
from knockout.io.tomlfile import load_toml
from knockout.rules.chain.pairing import Pairing
from knockout.rules.model.players import Player
from knockout.rules.model.sd import (
    PATHS,
    REPLICATES,
    FigureSpread,
    design,
    figure_summaries,
)
from knockout.rules.model.strength import ModelParams, PerClass
from knockout.rules.scenario.aggregate import Scenario, parse_scenario
from knockout.studies.incentives import DEFAULT_GRID, MAX_GRID, MIN_GRID
from knockout.validation import Table, problems_of
from sims.runner import Executor

__all__ = [
    "OUTPUTS",
    "Axis",
    "BaseSpread",
    "PointResult",
    "Sweep",
    "SweepResult",
    "load_sweep",
    "lookup",
    "measure_block",
    "run_sweep",
]

#: The outputs a metric can read.
OUTPUTS = ("odds", "compare", "fair", "incentives", "equilibrium", "simulate")
#: Draws of uncertain constants at each point, unless the study file says (``model_draws``):
#: REPLICATES scrambles of 16.
STUDY_DRAWS = 128
#: A grid is held in memory (every point and its results): past this many points a study file is
#: refused outright, ``--yes`` or not (split it into several studies).
MAX_HELD_POINTS = 10_000_000

Progress = Callable[[int, int], None]


class _RangeIn(Table):
    start: Annotated[float, Field(strict=True, alias="from")]
    to: Annotated[float, Field(strict=True)]
    steps: Annotated[int, Field(ge=2)] | None = None
    step: Annotated[float, Field(strict=True, gt=0)] | None = None


class _SweepIn(Table):
    name: str = "study"
    scenario: Annotated[str, Field(min_length=1)]
    metrics: Annotated[list[str], Field(min_length=1)]
    grid: Annotated[dict[str, Any], Field(min_length=1, strict=False)]
    set: dict[str, Any] = Field(default_factory=dict, strict=False)
    seed: Annotated[int, Field(ge=0)] = 0
    runs: Annotated[int, Field(ge=1000)] = 200_000
    black_minutes: Annotated[float, Field(strict=True, gt=5)] = 10.0
    max_minutes: Annotated[float, Field(strict=True, gt=0)] | None = None
    gaps: list[Annotated[float, Field(strict=True, ge=0)]] = Field(
        default_factory=lambda: [0.0, 50.0, 100.0, 200.0]
    )
    base: Annotated[float, Field(strict=True)] = 2500.0
    model_draws: Annotated[int, Field(ge=REPLICATES)] = STUDY_DRAWS
    pace_grid: Annotated[int, Field(ge=MIN_GRID, le=MAX_GRID)] = DEFAULT_GRID


@dataclass(frozen=True)
class Axis:
    """One swept path and its values."""

    path: str
    values: tuple[Any, ...]

    @property
    def numeric(self) -> bool:
        """Whether every value is a number (a plot axis), not a category."""
        return all(isinstance(v, int | float) and not isinstance(v, bool) for v in self.values)


@dataclass(frozen=True)
class Sweep:
    """A parsed study file.

    Attributes:
        name: Title.
        source: The study file.
        scenario_path: The base scenario file.
        base: The base scenario's tables (with the fixed ``[set]`` overrides applied).
        axes: The grid, one axis per swept path (points are every combination).
        metrics: The metrics measured at every point.
        seed: Seed of Monte Carlo metrics (the same at every point).
        runs: Simulations per point for ``simulate.`` metrics.
        black_minutes: Black's minutes for ``fair.`` metrics.
        max_minutes: The largest Red clock ``fair.`` metrics search (None: 10 times Black's).
        gaps: Rating gaps for ``compare.`` metrics.
        base_rating: The stronger player's rating for ``compare.`` metrics.
        model_draws: Draws of the uncertain constants at each point (a scenario with
            ``[model.sd]``).
        pace_grid: Paces a player on the grid of ``incentives.`` metrics.
        notes: What is valid but may surprise, one sentence each: a path both in ``[set]`` and
            in ``[grid]``, a correlation of constants without an sd.
    """

    name: str
    source: str
    scenario_path: str
    base: dict[str, Any]
    axes: tuple[Axis, ...]
    metrics: tuple[str, ...]
    seed: int = 0
    runs: int = 200_000
    black_minutes: float = 10.0
    gaps: tuple[float, ...] = (0.0, 50.0, 100.0, 200.0)
    base_rating: float = 2500.0
    model_draws: int = STUDY_DRAWS
    max_minutes: float | None = None
    pace_grid: int = DEFAULT_GRID
    notes: tuple[str, ...] = ()

    @property
    def points(self) -> list[tuple[Any, ...]]:
        """Every grid point (values in axis order), the last axis varying fastest."""
        return list(itertools.product(*(a.values for a in self.axes)))

    @property
    def size(self) -> int:
        """How many grid points there are (without listing them)."""
        return math.prod(len(a.values) for a in self.axes)

    def index_of(self, point: Sequence[Any]) -> int:
        """The place of ``point`` in the order of :attr:`points` (:meth:`point_at`'s inverse)."""
        index = 0
        for axis, value in zip(self.axes, point, strict=True):
            index = index * len(axis.values) + axis.values.index(value)
        return index

    def point_at(self, index: int) -> tuple[Any, ...]:
        """The grid point at ``index`` in the order of :attr:`points`."""
        values = []
        for axis in reversed(self.axes):
            index, k = divmod(index, len(axis.values))
            values.append(axis.values[k])
        return tuple(reversed(values))

    def scenario_at(self, point: Sequence[Any]) -> Scenario:
        """The base scenario with the point's values set. A swept model constant is held at
        the point's value: its ``[model.sd]`` is 0 there (the spread at the point is over the
        other constants).

        Raises:
            ScenarioError: If the point makes the scenario invalid.
        """
        where = ", ".join(f"{k}={v!r}" for k, v in zip(self.paths, point, strict=True))
        source = f"{self.source} at {where}"
        values = dict(zip(self.paths, point, strict=True))
        values |= dict.fromkeys(self.held_constants, 0.0)
        base = self._parsed_base
        if base is not None and all(path.startswith("model.") for path in values):
            # only constants change: the base scenario with them set (what parsing gives)
            found = base.with_constants(
                {path.removeprefix("model."): v for path, v in values.items()}, source=source
            )
            if found is not None:
                return found
        overrides = [Override(f"{k}={v!r}", tuple(k.split(".")), v) for k, v in values.items()]
        data, _, problems = apply_overrides(self.base, overrides)
        if problems:
            raise InputError(problems)
        return parse_scenario(data, source=source)

    @cached_property
    def _parsed_base(self) -> Scenario | None:
        """The base scenario parsed once (None if it is not valid as it stands: a point may
        make it so)."""
        try:
            return parse_scenario(self.base, source=self.source)
        except ScenarioError:
            return None

    @property
    def paths(self) -> tuple[str, ...]:
        """The swept paths."""
        return tuple(a.path for a in self.axes)

    @property
    def held_constants(self) -> tuple[str, ...]:
        """``model.sd.CONSTANT.CLASS`` of each swept model constant (held at each point)."""
        return tuple(
            f"model.sd.{a.path.removeprefix('model.')}"
            for a in self.axes
            if a.path.removeprefix("model.") in PATHS
        )

    def own_values(self) -> dict[str, Any]:
        """The base scenario's own value of each swept path (for marking plots), where it has
        one."""
        resolved = parse_scenario(self.base, source=self.source).to_dict()
        out = {}
        for path in self.paths:
            try:
                out[path] = _follow(resolved, path.split("."))
            except (KeyError, IndexError, TypeError):
                continue
        return out


def _follow(tree: Any, parts: Sequence[str]) -> Any:
    node = tree
    for i, part in enumerate(parts):
        if node is None:  # a null on the way (no fair split here): undefined at this point
            return None
        node = _pick(node, part, parts[:i]) if isinstance(node, list) else node[part]
    return node


def _pick(rows: list[Any], part: str, where: Sequence[str]) -> Any:
    """An entry of a list: by ``name`` or ``format`` field, else by position."""
    for row in rows:
        if isinstance(row, dict) and part in (row.get("name"), row.get("format")):
            return row
    if part.isdigit():
        return rows[int(part)] if int(part) < len(rows) else None
    raise KeyError(f"no entry {part!r} under {'.'.join(where)}")


def lookup(document: Mapping[str, Any], path: str) -> float:
    """The number at ``path`` (dotted) in an output's JSON; NaN where it is null.

    Raises:
        KeyError: If the path is not in the document.
        TypeError: If it leads to something that is not a number.
    """
    value = _follow(document, path.split("."))
    if value is None:
        return math.nan
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError(f"{path} is not a number (it is {type(value).__name__})")
    return float(value)


def _axis(path: str, raw: Any, source: str) -> tuple[Axis | None, list[Problem]]:
    key = f"grid.{path}"
    if isinstance(raw, list):
        if not raw:
            return None, [Problem(source, key, "expected at least one value")]
        return Axis(path, tuple(raw)), []
    if isinstance(raw, dict):
        try:
            r = _RangeIn.model_validate(raw)
        except ValidationError as exc:
            return None, problems_of(exc, source, _RangeIn, prefix=key)
        if r.steps is not None and r.step is not None:
            return None, [Problem(source, key, "expected steps or step, not both")]
        if r.steps is None and r.step is None:
            return None, [
                Problem(
                    source,
                    key,
                    "expected steps (how many values) or step (the distance between them) "
                    "beside from and to",
                )
            ]
        if r.steps is not None:
            count = r.steps
        else:
            assert r.step is not None
            count = math.floor((r.to - r.start) / r.step + 1e-9) + 1
            if count < 1:
                return None, [Problem(source, key, f"expected from <= to, got {r.start} > {r.to}")]
        if count > MAX_HELD_POINTS:
            return None, [
                Problem(
                    source,
                    key,
                    f"expected at most {MAX_HELD_POINTS:,} values on one path (a grid is held in "
                    f"memory), got {count:,}",
                )
            ]
        if r.steps is not None:
            values = [float(v) for v in np.linspace(r.start, r.to, r.steps)]
        else:
            assert r.step is not None
            values = [r.start + r.step * k for k in range(count)]
        return Axis(path, tuple(round(v, 12) for v in values)), []
    return None, [
        Problem(source, key, f"expected a list of values or {{from, to, steps}}, got {raw!r}")
    ]


def _metric_problems(metrics: Sequence[str], source: str) -> list[Problem]:
    out = []
    for i, m in enumerate(metrics):
        head = m.split(".", 1)[0]
        if head not in OUTPUTS or "." not in m:
            out.append(
                Problem(
                    source,
                    f"metrics[{i}]",
                    f"expected OUTPUT.key.path with OUTPUT one of {', '.join(OUTPUTS)}, got {m!r}",
                )
            )
    return out


def parse_sweep(data: Mapping[str, Any], *, source: str, folder: Path) -> Sweep:
    """A :class:`Sweep` from a study file's tables (``folder``: where relative paths start).

    Raises:
        InputError: Every problem at once, each naming its key.
    """
    if "players" in data and "metrics" not in data:
        raise InputError(
            [
                Problem(
                    source,
                    "players",
                    "expected a study file (scenario, metrics, [grid]); this looks like a "
                    "scenario: run it with knockout odds, or name it in a study's scenario key",
                )
            ]
        )
    try:
        parsed = _SweepIn.model_validate(dict(data))
    except ValidationError as exc:
        raise InputError(problems_of(exc, source, _SweepIn)) from None
    problems = _metric_problems(parsed.metrics, source)
    m = parsed.model_draws // REPLICATES
    if m * REPLICATES != parsed.model_draws or m & (m - 1):
        problems.append(
            Problem(
                source,
                "model_draws",
                f"expected {REPLICATES} times a power of two (16, 32, 64, 128, 256, ...), "
                f"got {parsed.model_draws}",
            )
        )
    axes = []
    for path, raw in parsed.grid.items():
        axis, found = _axis(path, raw, source)
        problems += found
        if axis is not None:
            axes.append(axis)
    scenario_path = os.path.normpath(folder / parsed.scenario)
    try:
        base = _base_tables(scenario_path, parsed.set, source)
    except InputError as exc:
        raise InputError([*problems, *exc.problems]) from None
    sweep = Sweep(
        name=parsed.name,
        source=source,
        scenario_path=scenario_path,
        base=base,
        axes=tuple(axes),
        metrics=tuple(parsed.metrics),
        seed=parsed.seed,
        runs=parsed.runs,
        black_minutes=parsed.black_minutes,
        gaps=tuple(parsed.gaps),
        base_rating=parsed.base,
        model_draws=parsed.model_draws,
        max_minutes=parsed.max_minutes,
        pace_grid=parsed.pace_grid,
        notes=_notes(parsed.set, parsed.grid, base, scenario_path, source),
    )
    problems += _grid_problems(sweep)
    if problems:
        raise InputError(problems)
    return sweep


def _notes(
    fixed: Mapping[str, Any],
    grid: Mapping[str, Any],
    base: Mapping[str, Any],
    scenario_path: str,
    source: str,
) -> tuple[str, ...]:
    """The study's notes (:attr:`Sweep.notes`)."""
    out = [
        f"{source}: `{path}` is set both in [set] ({value!r}) and in [grid]: the grid's values "
        "are used at every point; the [set] value only in the base scenario's own figures"
        for path, value in fixed.items()
        if path in grid
    ]
    sc = parse_scenario(dict(base), source=scenario_path)
    out += [f"{scenario_path}: {key}: {message}" for key, message in sc.model_sd.notes()]
    return tuple(out)


def _base_tables(path: str, fixed: Mapping[str, Any], source: str) -> dict[str, Any]:
    """The base scenario's tables with the study's fixed ``[set]`` overrides applied."""
    if path.lower().endswith(".json"):
        document = json.loads(read_text(path))
        data = document.get("scenario", document) if isinstance(document, dict) else {}
    else:
        data = load_toml(path)
    overrides = [Override(f"{k}={v!r}", tuple(k.split(".")), v) for k, v in fixed.items()]
    data, _, problems = apply_overrides(data, overrides)
    if problems:
        raise InputError([replace(p, source=source, key=f"set.{p.key}") for p in problems])
    parse_scenario(data, source=path)  # the base itself must be valid
    return data


def _grid_problems(sweep: Sweep) -> list[Problem]:
    """Each swept path must reach a valid scenario with every one of its values, set alone on the
    base (so a problem is reported under the path that causes it)."""
    if math.prod(len(a.values) for a in sweep.axes) > MAX_HELD_POINTS:
        sizes = " x ".join(f"{len(a.values):,}" for a in sweep.axes)
        return [
            Problem(
                sweep.source,
                "grid",
                f"expected at most {MAX_HELD_POINTS:,} points (a grid is held in memory), got "
                f"{sizes}: split the study",
            )
        ]
    out = []
    for axis in sweep.axes:
        alone = replace(sweep, axes=(axis,))
        for value in axis.values:
            try:
                alone.scenario_at((value,))
            except InputError as exc:
                out.append(Problem(sweep.source, f"grid.{axis.path}", _why(axis, value, exc)))
                break
    return out


def _why(axis: Axis, value: Any, exc: InputError) -> str:
    """The first problem of a path's value: about the path itself, or what the value breaks."""
    first = exc.problems[0]
    if axis.path == first.key:
        return first.message
    if axis.path.startswith(f"{first.key}."):
        return f"{first.key}: {first.message}"
    return f"the value {value!r} gives an invalid scenario: {first.key}: {first.message}"


def load_sweep(path: str | Path, *, encoding: str | None = None) -> Sweep:
    """Read a study file (TOML, any encoding).

    Raises:
        InputError: Every problem at once.
    """
    data = load_toml(path, encoding=encoding)
    return parse_sweep(data, source=str(path), folder=Path(path).parent)


# ---------------------------------------------------------------------------------------------
# Running


@dataclass(frozen=True)
class PointResult:
    """The metrics at one grid point: ``{metric: (estimate, stderr, method)}``; ``why``: for a
    metric undefined here (NaN), the output's code for why, where it gives one (``fair``'s
    ``no_split``: ``above_cap``, ``time_worth_nothing``, ``red_ahead_without_time``;
    ``no_equilibrium`` for an equilibrium the pace game does not have there); with
    uncertain constants, ``spread``: each metric's spread over them, ``{metric: (spread, its
    standard errors, share of draws where it is undefined)}``."""

    point: tuple[Any, ...]
    values: dict[str, tuple[float, float, str]]
    why: dict[str, str] = field(default_factory=dict)
    spread: dict[str, tuple[FigureSpread, FigureSpread, float]] = field(default_factory=dict)


@dataclass(frozen=True)
class BaseSpread:
    """The metrics at the study's own scenario (no grid value set) over the uncertainty of
    all its constants, each with its variance decomposition, and the committee's sentences
    where a metric reads ``fair``.

    Attributes:
        values: Each metric at the central constants.
        spread: Each metric's spread (where it has one).
        stderr: The standard errors of the spread's statistics.
        undefined: Share of draws where a metric is undefined (where any).
        decomposition: Per metric, per constant: ``sd_if_known`` and ``variance_cut``.
        how_sure: The committee's sentences (:func:`knockout.studies.fair_report.how_sure`).
        draws: Draws of the constants.
        constants: The uncertain constants: value, sd, distribution.
        seconds: How long it took.
    """

    values: dict[str, float]
    spread: dict[str, FigureSpread]
    stderr: dict[str, FigureSpread]
    undefined: dict[str, float]
    decomposition: dict[str, dict[str, dict[str, float]]]
    how_sure: tuple[str, ...]
    draws: int
    constants: dict[str, dict[str, Any]]
    seconds: float = 0.0


@dataclass(frozen=True)
class SweepResult:
    """Every point measured (in grid order), and whether the run was interrupted; with
    uncertain constants, the metrics at the scenario's own constants over all of them."""

    sweep: Sweep
    points: tuple[PointResult, ...]
    interrupted: bool = False
    seconds: float = 0.0
    notes: tuple[str, ...] = field(default=())
    base: BaseSpread | None = None


def _vector_model(models: Sequence[ModelParams]) -> ModelParams:
    """One model whose per-class constants are arrays over the points (numpy broadcasts)."""

    def stack(name: str) -> PerClass:
        tables = [getattr(m, name) for m in models]
        columns: list[Any] = [
            np.array([t[tc] for t in tables]) for tc in ("classical", "rapid", "blitz")
        ]
        return PerClass(*columns)

    return ModelParams(
        stack("red_advantage"), stack("draw_nu"), stack("elo_per_doubling"), models[0].moves
    )


def _group_key(sc: Scenario) -> tuple[Any, ...] | None:
    """Points with the same key are solved in one vectorised call (None: solve alone: a
    bracket, decisions on beliefs, walkovers, sealed bids, or uncertain ratings, which the
    vectorised call does not integrate over)."""
    if sc.is_bracket or not sc.strategy.is_deterministic:
        return None
    if any(p.withdrawn for p in sc.players) or sc.format.sealed_bid_stage is not None:
        return None
    if any(p.rating_sd > 0 for p in sc.players):
        return None
    people = tuple((p.name, p.speed) for p in sc.players)
    return (sc.format, sc.strategy, sc.model.moves, people, sc.played)


def _odds_json_group(scenarios: Sequence[Scenario]) -> list[dict[str, Any]]:
    """``odds --json`` of two-player scenarios that differ only in model constants and
    ratings, from one vectorised solver call (at the central constants)."""
    first = scenarios[0]
    rep = first.position
    if rep.finished is not None:
        return [match_odds(sc, model_sd=False).to_json() for sc in scenarios]
    return _odds_json_pairs(
        first,
        [sc.players[0] for sc in scenarios],
        [sc.players[1] for sc in scenarios],
        _vector_model([sc.model for sc in scenarios]),
    )


def _joined(models: Sequence[ModelParams]) -> ModelParams:
    """Vectorised models one after the other."""

    def table(name: str) -> PerClass:
        cells: list[Any] = [
            np.concatenate([np.asarray(getattr(m, name)[tc]) for m in models])
            for tc in ("classical", "rapid", "blitz")
        ]
        return PerClass(*cells)

    return ModelParams(
        table("red_advantage"), table("draw_nu"), table("elo_per_doubling"), models[0].moves
    )


def _odds_json_pairs(
    first: Scenario, a_list: Sequence[Player], b_list: Sequence[Player], model: ModelParams
) -> list[dict[str, Any]]:
    """``odds --json`` (no spread) of ``first``'s match with each pair of players under each
    set of constants of the vectorised ``model``, from one vectorised solver call (a match
    decided already: its certain answer, laid open at each set of constants)."""
    names = (a_list[0].name, b_list[0].name)
    rep = first.position
    pairing = Pairing.of(
        first.format, list(a_list), list(b_list), model=model, strategy=first.strategy
    )
    if rep.finished is not None:
        return [odds.to_json() for odds in certain_odds(first, pairing, rep) or []]
    sol = solve_chunked(pairing, start=rep)
    laid_open = sudden_deaths(pairing, names, sol, bid=rep.bid)
    return [
        from_solution(
            sol,
            names,
            i,
            games_played=rep.games,
            sudden_death=None if laid_open is None else laid_open[i],
        ).to_json()
        for i in range(len(a_list))
    ]


def _odds_documents(scenarios: Sequence[Scenario]) -> list[dict[str, Any]]:
    groups: dict[Any, list[int]] = {}
    alone: list[int] = []
    for i, sc in enumerate(scenarios):
        key = _group_key(sc)
        if key is None:
            alone.append(i)
        else:
            groups.setdefault(key, []).append(i)
    docs: dict[int, dict[str, Any]] = {}
    for members in groups.values():
        for i, doc in zip(members, _odds_json_group([scenarios[i] for i in members]), strict=True):
            docs[i] = doc
    for i in alone:
        sc = scenarios[i]
        answer = (
            bracket_odds(sc, model_sd=False) if sc.is_bracket else match_odds(sc, model_sd=False)
        )
        docs[i] = answer.to_json()
    return [docs[i] for i in range(len(scenarios))]


#: Values of a metric path at each draw of the constants, per point (None: certain constants).
Draws = list[dict[str, FloatArray] | None]


def _looked_up(docs: Sequence[Mapping[str, Any]], paths: Sequence[str]) -> dict[str, FloatArray]:
    """Each path's values over a list of JSON documents (NaN where null)."""
    return {p: np.array([lookup(d, p) for d in docs], dtype=np.float64) for p in paths}


def _groups(scenarios: Sequence[Scenario], key: Callable[[Scenario], Any]) -> tuple[
    dict[Any, list[int]], list[int]
]:  # fmt: skip
    """Points with uncertain constants grouped by ``key`` (None: alone), and those alone."""
    groups: dict[Any, list[int]] = {}
    alone: list[int] = []
    for i, sc in enumerate(scenarios):
        if not sc.model_sd.uncertain:
            continue
        k = key(sc)
        if k is None:
            alone.append(i)
        else:
            groups.setdefault(k, []).append(i)
    return groups, alone


def _joined_draws(
    scenarios: Sequence[Scenario], members: Sequence[int], sweep: Sweep
) -> tuple[ModelParams, list[int]]:
    """One vectorised model over every draw of every member point, and each point's draws."""
    designs = [
        design(scenarios[i].model, scenarios[i].model_sd, draws=sweep.model_draws) for i in members
    ]
    model = _joined([d.model(scenarios[i].model) for i, d in zip(members, designs, strict=True)])
    return model, [d.size for d in designs]


def _split_draws(
    values: Mapping[str, FloatArray], sizes: Sequence[int]
) -> list[dict[str, FloatArray]]:
    """Values over joined draws, cut back into each point's."""
    out = []
    start = 0
    for n in sizes:
        out.append({p: v[start : start + n] for p, v in values.items()})
        start += n
    return out


def _odds_draws(scenarios: Sequence[Scenario], sweep: Sweep, paths: Sequence[str]) -> Draws:
    """The ``odds`` metric paths at each draw of the uncertain constants, per point: the draws
    of a group of points in one vectorised solver call, read off the solution."""
    out: Draws = [None] * len(scenarios)
    groups, alone = _groups(scenarios, _group_key)
    for i in alone:
        sc = scenarios[i]
        des = design(sc.model, sc.model_sd, draws=_draws(sc, sweep))
        at = bracket_odds_at(sc, des) if sc.is_bracket else match_odds_at(sc, des)
        out[i] = _looked_up([x.to_json() for x in at], paths)
    for members in groups.values():
        model, sizes = _joined_draws(scenarios, members, sweep)
        first = scenarios[members[0]]
        a_list = [scenarios[i].players[0] for i, n in zip(members, sizes, strict=True)
                  for _ in range(n)]  # fmt: skip
        b_list = [scenarios[i].players[1] for i, n in zip(members, sizes, strict=True)
                  for _ in range(n)]  # fmt: skip
        names = (a_list[0].name, b_list[0].name)
        rep = first.position
        pairing = Pairing.of(first.format, a_list, b_list, model=model, strategy=first.strategy)
        if rep.finished is not None:
            docs = [x.to_json() for x in certain_odds(first, pairing, rep) or []]
            values = _looked_up(docs, paths)
        else:
            sol = solve_chunked(pairing, start=rep)
            figures = solution_figures(sol, names, pairing, games_played=rep.games, bid=rep.bid)
            values = {p: figures.get(p, np.full(pairing.size, np.nan)) for p in paths}
        for i, part in zip(members, _split_draws(values, sizes), strict=True):
            out[i] = part
    return out


#: ``fair`` metrics a group of points gets in one vectorised pass (others: point by point).
_FAIR_FAST = ("chooser_advantage.seed_menu", "armageddon.red", "armageddon.black")


def _fair_key(sc: Scenario) -> tuple[Any, ...] | None:
    if not sc.strategy.vectorises or sc.format.bidding_stage is None:
        return None
    return (sc.format, sc.strategy, sc.model.moves)


def _fair_draws(scenarios: Sequence[Scenario], sweep: Sweep, paths: Sequence[str]) -> Draws:
    """The ``fair`` metric paths at each draw, per point: the split and the seed menu's edge
    of a group of points in one vectorised pass; other figures point by point."""
    from knockout.studies.fair import fair_at, fair_rules, seed_edges_and_splits  # noqa: PLC0415 (start-up: a metric's study, loaded when a grid asks for it)

    out: Draws = [None] * len(scenarios)
    fast = all(p in _FAIR_FAST for p in paths)
    groups, alone = _groups(scenarios, _fair_key if fast else lambda sc: None)
    for i in alone:
        sc = scenarios[i]
        central = fair_rules(
            sc,
            black_minutes=sweep.black_minutes,
            detail=False,
            model_sd=False,
            max_minutes=sweep.max_minutes,
        )
        des = design(sc.model, sc.model_sd, draws=_draws(sc, sweep))
        out[i] = _looked_up([x.to_json() for x in fair_at(sc, central, des)], paths)
    for members in groups.values():
        model, sizes = _joined_draws(scenarios, members, sweep)
        first = scenarios[members[0]]
        edges, reds = seed_edges_and_splits(first, model, sweep.black_minutes, sweep.max_minutes)
        values = {
            "chooser_advantage.seed_menu": edges,
            "armageddon.red": reds,
            "armageddon.black": np.where(np.isnan(reds), np.nan, sweep.black_minutes),
        }
        for i, part in zip(members, _split_draws(values, sizes), strict=True):
            out[i] = {p: part[p] for p in paths}
    return out


def _fair_documents(scenarios: Sequence[Scenario], sweep: Sweep) -> list[dict[str, Any]]:
    """The ``fair`` figures a sweep reads in one vectorised pass per group of points (the
    seed menu's edge and the split, this by bisection to 1e-12 minute), at the central
    constants; points that cannot be grouped get ``knockout fair --json``'s own."""
    from knockout.studies.fair import seed_edges_and_splits  # noqa: PLC0415 (start-up: a metric's study, loaded when a grid asks for it)

    out: list[dict[str, Any] | None] = [None] * len(scenarios)
    groups: dict[Any, list[int]] = {}
    for i, sc in enumerate(scenarios):
        key = _fair_key(sc)
        if key is None:
            out[i] = _other_document("fair", sc, sweep, "local", 1)
        else:
            groups.setdefault(key, []).append(i)
    for members in groups.values():
        model = _vector_model([scenarios[i].model for i in members])
        first = scenarios[members[0]]
        edges, reds = seed_edges_and_splits(first, model, sweep.black_minutes, sweep.max_minutes)
        for k, i in enumerate(members):
            red = float(reds[k])
            if math.isnan(red):  # no split here: the output's own document says why
                out[i] = _other_document("fair", scenarios[i], sweep, "local", 1)
                continue
            out[i] = {
                "armageddon": None
                if math.isnan(red)
                else {"red": red, "black": sweep.black_minutes},
                "chooser_advantage": {"seed_menu": float(edges[k])},
            }
    return [d for d in out if d is not None]


def _compare_draws(scenarios: Sequence[Scenario], sweep: Sweep, paths: Sequence[str]) -> Draws:
    """The ``compare`` metric paths at each draw, per point."""
    from knockout.studies.compare import compare_at, resolve_formats  # noqa: PLC0415 (start-up: a metric's study, loaded when a grid asks for it)

    out: Draws = [None] * len(scenarios)
    for i, sc in enumerate(scenarios):
        if not sc.model_sd.uncertain:
            continue
        des = design(sc.model, sc.model_sd, draws=_draws(sc, sweep))
        at = compare_at(sc, resolve_formats(sc, None), des, gaps=sweep.gaps, base=sweep.base_rating)
        out[i] = _looked_up([c.to_json() for c in at], paths)
    return out


def _draws(sc: Scenario, sweep: Sweep) -> int:
    """The study's draws, or fewer where each draw is solved on its own."""
    return min(sweep.model_draws, default_draws(sc))


def _other_document(
    output: str, sc: Scenario, sweep: Sweep, executor: Executor, workers: int
) -> dict[str, Any]:
    """The output at the point's central constants (their spread is measured apart)."""
    if output == "compare":
        from knockout.studies.compare import compare_formats, resolve_formats  # noqa: PLC0415 (start-up: a metric's study, loaded when a grid asks for it)

        return compare_formats(
            sc, resolve_formats(sc, None), gaps=sweep.gaps, base=sweep.base_rating, model_sd=False
        ).to_json()
    if output == "equilibrium":
        from knockout.studies.equilibrium import equilibrium_report  # noqa: PLC0415 (start-up: a metric's study, loaded when a grid asks for it)

        return equilibrium_report(sc, model_sd=False).to_json()
    if output == "fair":
        from knockout.studies.fair import fair_rules  # noqa: PLC0415 (start-up: a metric's study, loaded when a grid asks for it)

        rules = fair_rules(
            sc,
            black_minutes=sweep.black_minutes,
            seed=sweep.seed,
            detail=False,
            max_minutes=sweep.max_minutes,
            model_sd=False,
        )
        return rules.to_json()
    if output == "incentives":
        from knockout.studies.incentives import incentives  # noqa: PLC0415 (start-up: a metric's study, loaded when a grid asks for it)

        fairness = any(m.startswith("incentives.sequential_fairness") for m in sweep.metrics)
        return incentives(sc, grid=sweep.pace_grid, fairness=fairness, model_sd=False).to_json()
    from sims.run import estimates_json  # noqa: PLC0415 (start-up: the Monte Carlo, for simulate. metrics)

    # the estimates alone: a study measures no path of simulate's exact companion (those
    # are odds. metrics), which would cost as much as the runs
    return estimates_json(sc, sweep.runs, sweep.seed, executor=executor, workers=workers)


def _kernel_key(sc: Scenario) -> tuple[Any, ...] | None:
    """Points with the same key get their kernel tables built together (None: alone: a
    bracket, a withdrawal, a match under way, or uncertain ratings, drawn per match)."""
    if sc.is_bracket or any(p.withdrawn or p.rating_sd > 0 for p in sc.players):
        return None
    if not sc.position.is_fresh:
        return None
    return (sc.format, sc.strategy, sc.model.moves)


def _simulate_documents(
    scenarios: Sequence[Scenario], sweep: Sweep, executor: Executor, workers: int
) -> list[dict[str, Any]]:
    """``simulate --json``'s estimates at each point (:func:`_other_document`'s), the kernel
    tables of a group of points built together (:meth:`sims.kernel.MatchTables.for_points`:
    the tables each point builds alone, value for value), so only the runs are per point."""
    from sims.kernel import MatchTables  # noqa: PLC0415 (start-up: the Monte Carlo, for simulate. metrics)
    from sims.run import estimates_json  # noqa: PLC0415 (start-up: the Monte Carlo, for simulate. metrics)

    tables: list[MatchTables | None] = [None] * len(scenarios)
    groups: dict[Any, list[int]] = {}
    for i, sc in enumerate(scenarios):
        key = _kernel_key(sc)
        if key is not None:
            groups.setdefault(key, []).append(i)
    for members in groups.values():
        if len(members) < 2:
            continue
        group = [scenarios[i] for i in members]
        singles = [
            Pairing.of(sc.format, *sc.players, model=sc.model, strategy=sc.strategy) for sc in group
        ]
        block = Pairing.of(
            group[0].format,
            [sc.players[0] for sc in group],
            [sc.players[1] for sc in group],
            model=_vector_model([sc.model for sc in group]),
            strategy=group[0].strategy,
        )
        for i, built in zip(members, MatchTables.for_points(block, singles), strict=True):
            tables[i] = built
    return [
        estimates_json(sc, sweep.runs, sweep.seed, executor=executor, workers=workers, tables=built)
        for sc, built in zip(scenarios, tables, strict=True)
    ]


def _measure(
    sweep: Sweep, metric: str, doc: Mapping[str, Any], output: str
) -> tuple[float, float, str]:
    path = metric.split(".", 1)[1]
    value = lookup(doc, path)
    if output == "simulate":
        return value, lookup(doc["stderr"], path), "monte-carlo"
    return value, 0.0, "exact"


#: Keys of ``simulate --json`` that hold its exact companion, not estimates.
_SIMULATE_EXACT = ("exact", "win_if_ratings_exact", "model_uncertainty")


def _checked(sweep: Sweep, metric: str, output: str, docs: Sequence[Mapping[str, Any]]) -> None:
    """Refuse a metric path that is not a number of its output (at every point).

    Raises:
        KnockoutError: Naming the metric and why.
    """
    for doc in docs:
        try:
            _measure(sweep, metric, doc, output)
        except (KeyError, IndexError) as exc:
            path = metric.split(".", 1)[1]
            if output == "simulate" and path.split(".")[0] in _SIMULATE_EXACT:
                odds = path.removeprefix("exact.")
                raise KnockoutError(
                    f"{sweep.source}: metric {metric!r}: a study measures the Monte Carlo "
                    f"estimates of simulate, not its exact companion: use 'odds.{odds}'"
                ) from None
            raise KnockoutError(
                f"{sweep.source}: metric {metric!r}: no such key in the {output} output ({exc})"
            ) from None
        except TypeError as exc:
            raise KnockoutError(f"{sweep.source}: metric {metric!r}: {exc}") from None


def _is_probability(output: str, path: str) -> bool:
    """Whether a metric is a probability by nature (no P(> 0) for it)."""
    if output == "fair":
        return path.startswith("by_gap.")
    if output == "compare":
        return not path.endswith(("decider_edge", "expected_games", "expected_minutes"))
    return True


def _spreads(metric: str, at_draws: Draws) -> list[tuple[FigureSpread, FigureSpread, float] | None]:
    """A metric's spread over the constants at every point of a block, from its values at the
    draws (None: certain constants, a Monte Carlo metric, or undefined at every draw), the
    points with as many draws summarised at once."""
    output, path = metric.split(".", 1)
    signed = not _is_probability(output, path)
    out: list[tuple[FigureSpread, FigureSpread, float] | None] = [None] * len(at_draws)
    by_size: dict[int, list[int]] = {}
    for i, d in enumerate(at_draws):
        if d is not None and path in d:
            by_size.setdefault(len(d[path]), []).append(i)
    for members in by_size.values():
        rows = np.stack([np.asarray(at_draws[i][path]) for i in members])  # type: ignore[index]
        for i, found in zip(
            members, figure_summaries(rows, REPLICATES, signed=signed), strict=True
        ):
            out[i] = found
    return out


def run_sweep(
    sweep: Sweep,
    *,
    progress: Progress | None = None,
    chunk: int = 256,
    executor: Executor = "local",
    workers: int = 1,
    measured: Sequence[PointResult] = (),
    interrupted: bool = False,
    measured_seconds: float = 0.0,
) -> SweepResult:
    """Measure every metric at every grid point.

    Points are measured in chunks (``odds`` metrics of each chunk in vectorised solver calls);
    ``progress`` is called with (points done, points). Ctrl-C stops after the chunk in hand and
    returns the points finished, with ``interrupted`` set. ``executor``/``workers``: how
    ``simulate.`` metrics run (results are the same whatever they are). ``measured``: points
    already measured (a pilot's), kept in their place in the grid's order and not measured
    again (``measured_seconds``: the time they took, counted in the run's); ``interrupted``:
    the pilot was stopped, so nothing more is measured.

    Raises:
        KnockoutError: A metric path that is not in its output, or not a number.
    """

    start = time.perf_counter()
    points = sweep.points
    outputs = sorted({m.split(".", 1)[0] for m in sweep.metrics})
    # by grid index: a point's values may be lists (not hashable)
    done: dict[int, PointResult] = {sweep.index_of(pr.point): pr for pr in measured}
    try:
        if not interrupted:
            todo = [i for i in range(len(points)) if i not in done]
            for lo in range(0, len(todo), chunk):
                indices = todo[lo : lo + chunk]
                block = [points[i] for i in indices]
                results = measure_block(sweep, block, outputs, executor, workers)
                done.update(zip(indices, results, strict=True))
                if progress is not None:
                    progress(len(done), len(points))
    except KeyboardInterrupt:
        interrupted = True
    seconds = time.perf_counter() - start + measured_seconds
    base = None if interrupted else base_spread(sweep)
    ordered = tuple(done[i] for i in sorted(done))
    return SweepResult(sweep, ordered, interrupted, seconds, base=base)


def base_spread(sweep: Sweep) -> BaseSpread | None:
    """The metrics at the study's own scenario over the uncertainty of every constant it
    gives an sd (None when it gives none): ``odds`` and ``fair`` metrics with their variance
    decomposition, ``compare``, ``incentives`` and ``equilibrium`` metrics with the spread
    their commands give (the equilibria themselves, the exploitability and the
    sequential-fairness figure are at the central constants); ``simulate`` metrics are Monte
    Carlo estimates at the central constants and have none. The summary says which metrics
    have no spread."""

    start = time.perf_counter()
    sc = parse_scenario(sweep.base, source=sweep.scenario_path)
    if not sc.model_sd.uncertain:
        return None
    by_output: dict[str, list[str]] = {}
    for metric in sweep.metrics:
        by_output.setdefault(metric.split(".", 1)[0], []).append(metric.split(".", 1)[1])
    docs: dict[str, dict[str, Any]] = {}
    sentences: list[str] = []
    if "odds" in by_output:
        if sc.is_bracket:
            docs["odds"] = bracket_odds(sc).to_json()
        else:
            plain = match_odds(sc, model_sd=False)
            spread = match_spread(sc, plain, decompose=tuple(by_output["odds"]))
            docs["odds"] = replace(plain, model_uncertainty=spread).to_json()
    if "fair" in by_output:
        from knockout.studies.fair import fair_rules  # noqa: PLC0415 (start-up: a metric's study, loaded when a grid asks for it)
        from knockout.studies.fair_report import how_sure  # noqa: PLC0415 (start-up: a metric's study, loaded when a grid asks for it)

        rules = fair_rules(
            sc,
            black_minutes=sweep.black_minutes,
            seed=sweep.seed,
            detail=False,
            max_minutes=sweep.max_minutes,
        )
        docs["fair"] = rules.to_json()
        sentences = how_sure(rules)
    if "compare" in by_output:
        from knockout.studies.compare import compare_formats, resolve_formats  # noqa: PLC0415 (start-up: a metric's study, loaded when a grid asks for it)

        docs["compare"] = compare_formats(
            sc, resolve_formats(sc, None), gaps=sweep.gaps, base=sweep.base_rating
        ).to_json()
    if "incentives" in by_output:
        from knockout.studies.incentives import incentives  # noqa: PLC0415 (start-up: a metric's study, loaded when a grid asks for it)

        fairness = any(m.startswith("incentives.sequential_fairness") for m in sweep.metrics)
        docs["incentives"] = incentives(sc, grid=sweep.pace_grid, fairness=fairness).to_json()
    if "equilibrium" in by_output:
        from knockout.studies.equilibrium import equilibrium_report  # noqa: PLC0415 (start-up: a metric's study, loaded when a grid asks for it)

        docs["equilibrium"] = equilibrium_report(sc).to_json()
    return _base_of(sweep, sc, docs, sentences, time.perf_counter() - start)


def _base_of(
    sweep: Sweep,
    sc: Scenario,
    docs: Mapping[str, Mapping[str, Any]],
    sentences: Sequence[str],
    seconds: float,
) -> BaseSpread:
    values: dict[str, float] = {}
    spread: dict[str, FigureSpread] = {}
    stderr: dict[str, FigureSpread] = {}
    undefined: dict[str, float] = {}
    decomposition: dict[str, dict[str, dict[str, float]]] = {}
    draws = 0
    for metric in sweep.metrics:
        output, path = metric.split(".", 1)
        doc = docs.get(output)
        if doc is None:
            continue
        values[metric] = lookup(doc, path)
        u = doc.get("model_uncertainty") or {}
        draws = max(draws, int(u.get("draws", 0)))
        if path in u.get("figures", {}):
            spread[metric] = _figure_of(u["figures"][path], open_ends=True)
            stderr[metric] = _figure_of(u["stderr"][path], open_ends=False)
        if path in u.get("undefined", {}):
            undefined[metric] = float(u["undefined"][path])
        if path in u.get("decomposition", {}):
            decomposition[metric] = u["decomposition"][path]
    return BaseSpread(
        values,
        spread,
        stderr,
        undefined,
        decomposition,
        tuple(sentences),
        draws,
        sc.model_sd.distributions(sc.model),
        seconds,
    )


def _figure_of(doc: Mapping[str, Any], *, open_ends: bool) -> FigureSpread:
    """A figure's spread from its JSON (``model_uncertainty.figures.PATH``): a null mean or
    sd is undefined (NaN); a null quantile is an open end (``open_ends``: -inf below, +inf
    above, as the fair clock's) or unknown (NaN, a standard error); other keys are left out."""

    def number(key: str, missing: float) -> float:
        v = doc.get(key)
        return missing if v is None else float(v)

    low, high = (-math.inf, math.inf) if open_ends else (math.nan, math.nan)
    above = doc.get("p_above_zero")
    return FigureSpread(
        number("mean", math.nan),
        number("sd", math.nan),
        number("q025", low),
        number("q975", high),
        None if above is None else float(above),
    )


def _why_undefined(metric: str, doc: Mapping[str, Any]) -> str | None:
    """The output's code for why a metric is undefined: ``fair``'s ``no_split``, or
    ``no_equilibrium`` for an ``incentives.equilibria.N...`` metric past the equilibria found."""
    code = doc.get("no_split")
    if isinstance(code, str):
        return code
    parts = metric.split(".")
    past = len(parts) > 2 and parts[2].isdigit() and int(parts[2]) >= len(doc.get("equilibria", []))
    return "no_equilibrium" if parts[:2] == ["incentives", "equilibria"] and past else None


def _documents(
    output: str,
    scenarios: Sequence[Scenario],
    sweep: Sweep,
    paths: Sequence[str],
    executor: Executor,
    workers: int,
) -> list[dict[str, Any]]:
    """The output's JSON at each point (``paths``: the metric paths read from it): groups of
    points solved together where the output allows, else point by point."""
    if output == "odds":
        return _odds_documents(scenarios)
    if output == "fair" and all(p in _FAIR_FAST for p in paths):
        return _fair_documents(scenarios, sweep)
    if output == "simulate":
        return _simulate_documents(scenarios, sweep, executor, workers)
    return [_other_document(output, sc, sweep, executor, workers) for sc in scenarios]


def measure_block(
    sweep: Sweep,
    block: Sequence[tuple[Any, ...]],
    outputs: Sequence[str],
    executor: Executor,
    workers: int,
) -> list[PointResult]:
    """The metrics at each point of ``block``, from the ``outputs`` they read.

    Raises:
        KnockoutError: A metric path that is not in its output, or not a number.
    """
    scenarios = [sweep.scenario_at(p) for p in block]
    docs: dict[str, list[dict[str, Any]]] = {}
    draws: dict[str, Draws] = {}
    measured = {
        o: [m.split(".", 1)[1] for m in sweep.metrics if m.startswith(f"{o}.")] for o in outputs
    }
    for output in outputs:
        docs[output] = _documents(output, scenarios, sweep, measured[output], executor, workers)
        # the central values first: a bad metric path is refused before any integration
        for metric in sweep.metrics:
            if metric.startswith(f"{output}."):
                _checked(sweep, metric, output, docs[output])
        spread_of = {"odds": _odds_draws, "fair": _fair_draws, "compare": _compare_draws}
        maker = spread_of.get(output)
        draws[output] = (
            [None] * len(scenarios) if maker is None else maker(scenarios, sweep, measured[output])
        )
    spread_at = {m: _spreads(m, draws[m.split(".", 1)[0]]) for m in sweep.metrics}
    out = []
    for i, point in enumerate(block):
        values = {}
        spreads = {}
        why = {}
        for metric in sweep.metrics:
            output = metric.split(".", 1)[0]
            try:
                values[metric] = _measure(sweep, metric, docs[output][i], output)
                code = _why_undefined(metric, docs[output][i])
                if math.isnan(values[metric][0]) and code is not None:
                    why[metric] = code
            except (KeyError, IndexError) as exc:
                raise KnockoutError(
                    f"{sweep.source}: metric {metric!r}: no such key in the {output} output ({exc})"
                ) from None
            except TypeError as exc:
                raise KnockoutError(f"{sweep.source}: metric {metric!r}: {exc}") from None
            found = spread_at[metric][i]
            if found is not None:
                spreads[metric] = found
        out.append(PointResult(tuple(point), values, why, spreads))
    return out
