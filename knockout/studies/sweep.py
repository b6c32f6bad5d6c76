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
``compare.rows.xq-bidding.decider_edge``), ``fair.`` (``knockout fair --json``) or ``simulate.``
(``knockout simulate --json``: a Monte Carlo estimate with its standard error, the same seed at
every point, so differences between points are common-random-number differences).

Exact where the solver applies: ``odds`` metrics of a two-player match under a deterministic
strategy are computed for a whole group of grid points in one vectorised solver call (the model
constants and ratings become arrays); other points are solved one by one.
"""

from __future__ import annotations

import itertools
import math
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Annotated, Any

import numpy as np
from pydantic import Field, ValidationError

from knockout.errors import InputError, KnockoutError, Problem
from knockout.exact.bracket import bracket_odds
from knockout.exact.odds import from_solution, match_odds, sudden_deaths
from knockout.exact.solver import solve
from knockout.io.overrides import Override, apply_overrides
from knockout.io.text import read_text
from knockout.io.tomlfile import load_toml
from knockout.rules.match import Pairing
from knockout.rules.model import ModelParams, PerClass
from knockout.rules.scenario import Scenario, parse_scenario
from knockout.validation import Table, problems_of
from sims.runner import Executor

__all__ = [
    "OUTPUTS",
    "Axis",
    "PointResult",
    "Sweep",
    "SweepResult",
    "load_sweep",
    "lookup",
    "measure_block",
    "run_sweep",
]

#: The outputs a metric can read.
OUTPUTS = ("odds", "compare", "fair", "simulate")
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
    max_minutes: float | None = None

    @property
    def points(self) -> list[tuple[Any, ...]]:
        """Every grid point (values in axis order), the last axis varying fastest."""
        return list(itertools.product(*(a.values for a in self.axes)))

    @property
    def size(self) -> int:
        """How many grid points there are (without listing them)."""
        return math.prod(len(a.values) for a in self.axes)

    def point_at(self, index: int) -> tuple[Any, ...]:
        """The grid point at ``index`` in the order of :attr:`points`."""
        values = []
        for axis in reversed(self.axes):
            index, k = divmod(index, len(axis.values))
            values.append(axis.values[k])
        return tuple(reversed(values))

    def scenario_at(self, point: Sequence[Any]) -> Scenario:
        """The base scenario with the point's values set.

        Raises:
            ScenarioError: If the point makes the scenario invalid.
        """
        overrides = [
            Override(f"{a.path}={v!r}", tuple(a.path.split(".")), v)
            for a, v in zip(self.axes, point, strict=True)
        ]
        data, _, problems = apply_overrides(self.base, overrides)
        if problems:
            raise InputError(problems)
        where = ", ".join(f"{k}={v!r}" for k, v in zip(self.paths, point, strict=True))
        return parse_scenario(data, source=f"{self.source} at {where}")

    @property
    def paths(self) -> tuple[str, ...]:
        """The swept paths."""
        return tuple(a.path for a in self.axes)

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
    if part.isdigit() and int(part) < len(rows):
        return rows[int(part)]
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
        max_minutes=parsed.max_minutes,
    )
    problems += _grid_problems(sweep)
    if problems:
        raise InputError(problems)
    return sweep


def _base_tables(path: str, fixed: Mapping[str, Any], source: str) -> dict[str, Any]:
    """The base scenario's tables with the study's fixed ``[set]`` overrides applied."""
    if path.lower().endswith(".json"):
        import json  # noqa: PLC0415

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
    ``no_split``: ``above_cap``, ``time_worth_nothing``, ``red_ahead_without_time``)."""

    point: tuple[Any, ...]
    values: dict[str, tuple[float, float, str]]
    why: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class SweepResult:
    """Every point measured (in grid order), and whether the run was interrupted."""

    sweep: Sweep
    points: tuple[PointResult, ...]
    interrupted: bool = False
    seconds: float = 0.0
    notes: tuple[str, ...] = field(default=())


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
    """Points with the same key are solved in one vectorised call (None: solve alone)."""
    if sc.is_bracket or not sc.strategy.is_deterministic:
        return None
    if any(p.withdrawn for p in sc.players) or sc.format.sealed_bid_stage is not None:
        return None
    people = tuple((p.name, p.speed) for p in sc.players)
    return (sc.format, sc.strategy, sc.model.moves, people, sc.played)


def _odds_json_group(scenarios: Sequence[Scenario]) -> list[dict[str, Any]]:
    """``odds --json`` of two-player scenarios that differ only in model constants and
    ratings, from one vectorised solver call."""
    first = scenarios[0]
    a_list = [sc.players[0] for sc in scenarios]
    b_list = [sc.players[1] for sc in scenarios]
    names = (a_list[0].name, b_list[0].name)
    rep = first.position
    if rep.finished is not None:
        return [match_odds(sc).to_json() for sc in scenarios]
    pairing = Pairing.of(
        first.format,
        a_list,
        b_list,
        model=_vector_model([sc.model for sc in scenarios]),
        strategy=first.strategy,
    )
    sol = solve(pairing, start=rep)
    laid_open = sudden_deaths(pairing, names, sol, bid=rep.bid)
    return [
        from_solution(
            sol,
            names,
            i,
            games_played=rep.games,
            sudden_death=None if laid_open is None else laid_open[i],
        ).to_json()
        for i in range(len(scenarios))
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
        docs[i] = (bracket_odds(sc) if sc.is_bracket else match_odds(sc)).to_json()
    return [docs[i] for i in range(len(scenarios))]


def _other_document(
    output: str, sc: Scenario, sweep: Sweep, executor: Executor, workers: int
) -> dict[str, Any]:
    if output == "compare":
        from knockout.studies.compare import compare_formats, resolve_formats  # noqa: PLC0415

        return compare_formats(
            sc, resolve_formats(sc, None), gaps=sweep.gaps, base=sweep.base_rating
        ).to_json()
    if output == "fair":
        from knockout.studies.fair import fair_rules  # noqa: PLC0415

        rules = fair_rules(
            sc,
            black_minutes=sweep.black_minutes,
            seed=sweep.seed,
            detail=False,
            max_minutes=sweep.max_minutes,
        )
        return rules.to_json()
    from sims.run import simulate_scenario  # noqa: PLC0415

    return simulate_scenario(
        sc, sweep.runs, sweep.seed, executor=executor, workers=workers
    ).to_json()


def _measure(
    sweep: Sweep, metric: str, doc: Mapping[str, Any], output: str
) -> tuple[float, float, str]:
    path = metric.split(".", 1)[1]
    value = lookup(doc, path)
    if output == "simulate":
        return value, lookup(doc["stderr"], path), "monte-carlo"
    return value, 0.0, "exact"


def run_sweep(
    sweep: Sweep,
    *,
    progress: Progress | None = None,
    chunk: int = 256,
    executor: Executor = "local",
    workers: int = 1,
) -> SweepResult:
    """Measure every metric at every grid point.

    Points are measured in chunks (``odds`` metrics of each chunk in vectorised solver calls);
    ``progress`` is called with (points done, points). Ctrl-C stops after the chunk in hand and
    returns the points finished, with ``interrupted`` set. ``executor``/``workers``: how
    ``simulate.`` metrics run (results are the same whatever they are).

    Raises:
        KnockoutError: A metric path that is not in its output, or not a number.
    """
    import time  # noqa: PLC0415

    start = time.perf_counter()
    points = sweep.points
    outputs = sorted({m.split(".", 1)[0] for m in sweep.metrics})
    done: list[PointResult] = []
    interrupted = False
    try:
        for lo in range(0, len(points), chunk):
            block = points[lo : lo + chunk]
            done += measure_block(sweep, block, outputs, executor, workers)
            if progress is not None:
                progress(len(done), len(points))
    except KeyboardInterrupt:
        interrupted = True
    return SweepResult(sweep, tuple(done), interrupted, time.perf_counter() - start)


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
    for output in outputs:
        if output == "odds":
            docs[output] = _odds_documents(scenarios)
        else:
            docs[output] = [
                _other_document(output, sc, sweep, executor, workers) for sc in scenarios
            ]
    out = []
    for i, point in enumerate(block):
        values = {}
        why = {}
        for metric in sweep.metrics:
            output = metric.split(".", 1)[0]
            try:
                values[metric] = _measure(sweep, metric, docs[output][i], output)
                code = docs[output][i].get("no_split")
                if math.isnan(values[metric][0]) and isinstance(code, str):
                    why[metric] = code
            except (KeyError, IndexError) as exc:
                raise KnockoutError(
                    f"{sweep.source}: metric {metric!r}: no such key in the {output} output ({exc})"
                ) from None
            except TypeError as exc:
                raise KnockoutError(f"{sweep.source}: metric {metric!r}: {exc}") from None
        out.append(PointResult(tuple(point), values, why))
    return out
