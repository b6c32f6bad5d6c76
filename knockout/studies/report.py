"""A sweep's outputs: the tidy CSV, the JSON document, plots and a summary computed from the
numbers (every sentence states what it measured and the thresholds it used)."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from knockout.studies.output import StudyFiles
from knockout.studies.plots import heat_map, line_plot
from knockout.studies.sweep import SweepResult
from knockout.version import __version__

__all__ = ["ZERO", "summary_markdown", "sweep_files"]

#: A value within this of zero counts as zero (signs of edges).
ZERO = 1e-9
#: Two estimates differ only beyond this many combined standard errors (Monte Carlo metrics).
SIGNIFICANT_SE = 3.0


def _fmt(v: float) -> str:
    if math.isnan(v):
        return "undefined"
    return f"{v:.4g}"


def _where(paths: Sequence[str], point: Sequence[Any]) -> str:
    return ", ".join(
        f"{p} = {v:g}" if isinstance(v, float) else f"{p} = {v}"
        for p, v in zip(paths, point, strict=True)
    )


def _grid(result: SweepResult, metric: str) -> np.ndarray:
    """The metric's estimates as an array shaped like the grid (NaN where not measured)."""
    shape = tuple(len(a.values) for a in result.sweep.axes)
    flat = np.full(int(np.prod(shape)), np.nan)
    for i, pr in enumerate(result.points):
        flat[i] = pr.values[metric][0]
    return flat.reshape(shape)


def _own_point(result: SweepResult) -> tuple[Any, ...] | None:
    """The grid point nearest to the scenario's own values (None if a path has none)."""
    own = result.sweep.own_values()
    point = []
    for axis in result.sweep.axes:
        if axis.path not in own:
            return None
        value = own[axis.path]
        if axis.numeric and isinstance(value, int | float):
            point.append(min(axis.values, key=lambda v: abs(v - value)))
        elif value in axis.values:
            point.append(value)
        else:
            return None
    return tuple(point)


def _metric_lines(result: SweepResult, metric: str) -> list[str]:
    sweep = result.sweep
    paths = sweep.paths
    measured = [pr for pr in result.points if not math.isnan(pr.values[metric][0])]
    lines = [f"### `{metric}`", ""]
    undefined = len(result.points) - len(measured)
    if not measured:
        return [*lines, "Undefined at every point measured.", ""]
    lo = min(measured, key=lambda pr: pr.values[metric][0])
    hi = max(measured, key=lambda pr: pr.values[metric][0])
    method = lo.values[metric][2]
    lines.append(
        f"Over {len(result.points)} points ({method}), from {_fmt(lo.values[metric][0])} at "
        f"{_where(paths, lo.point)} to {_fmt(hi.values[metric][0])} at {_where(paths, hi.point)}."
        + (f" Undefined at {undefined} points." if undefined else "")
    )
    own = _own_point(result)
    if own is not None:
        at = next((pr for pr in result.points if pr.point == own), None)
        if at is not None:
            v, se, _ = at.values[metric]
            err = f" ± {_fmt(se)}" if se > 0 else ""
            lines.append(
                f"At the grid point nearest the scenario's own values ({_where(paths, own)}): "
                f"{_fmt(v)}{err}."
            )
    values = np.array([pr.values[metric][0] for pr in measured])
    ses = np.array([pr.values[metric][1] for pr in measured])
    margin = np.maximum(ZERO, SIGNIFICANT_SE * ses)
    pos, neg = int(np.sum(values > margin)), int(np.sum(values < -margin))
    if neg or pos < len(measured):  # the sign is news only where the metric reaches zero
        near = "±" + format(ZERO, "g") if not ses.any() else f"{SIGNIFICANT_SE:g} standard errors"
        lines.append(
            f"Above zero at {pos} of {len(measured)} points, below zero at {neg}, and within "
            f"{near} of zero at {len(measured) - pos - neg}."
        )
    lines += _sensitivity_lines(result, metric)
    return [*lines, ""]


def _sensitivity_lines(result: SweepResult, metric: str) -> list[str]:
    """How far the metric moves across each axis, holding the others fixed (mean range)."""
    axes = result.sweep.axes
    if len(axes) < 1 or result.interrupted:
        return []
    grid = _grid(result, metric)
    ranges = {}
    for k, axis in enumerate(axes):
        if len(axis.values) < 2:
            continue
        moved = np.nanmax(grid, axis=k) - np.nanmin(grid, axis=k)
        if np.all(np.isnan(moved)):
            continue
        ranges[axis.path] = float(np.nanmean(moved))
    if not ranges:
        return []
    parts = [f"{path}: {_fmt(r)}" for path, r in ranges.items()]
    biggest = max(ranges, key=lambda p: ranges[p])
    text = (
        "How far it moves across each swept value, the others held fixed (mean over the other "
        f"values of max - min): {'; '.join(parts)}."
    )
    if len(ranges) > 1:
        text += f" It depends most on {biggest}."
    return [text]


def summary_markdown(result: SweepResult) -> str:
    """The study's summary: the grid, then each metric's range, value at the scenario's own
    point, sign and sensitivity, all computed from the results."""
    sweep = result.sweep
    lines = [
        f"# {sweep.name}",
        "",
        f"Study file `{sweep.source}`; base scenario `{sweep.scenario_path}`. "
        f"{len(result.points)} of {len(sweep.points)} grid points measured in "
        f"{result.seconds:.1f} s"
        + (
            " (interrupted: the summary covers the points finished)." if result.interrupted else "."
        ),
        "",
        "| swept path | values |",
        "|---|---|",
    ]
    for axis in sweep.axes:
        shown = (
            f"{_fmt(min(axis.values))} to {_fmt(max(axis.values))} ({len(axis.values)} values)"
            if axis.numeric and len(axis.values) > 4
            else ", ".join(str(v) for v in axis.values)
        )
        lines.append(f"| `{axis.path}` | {shown} |")
    lines += ["", "## Metrics", ""]
    if any(m.startswith("simulate.") for m in sweep.metrics):
        lines += [
            f"Monte Carlo metrics: {sweep.runs:,} runs a point with seed {sweep.seed} at every "
            "point (common random numbers), ± one standard error.",
            "",
        ]
    for metric in sweep.metrics:
        lines += _metric_lines(result, metric)
    return "\n".join(lines) + "\n"


def _slug(metric: str) -> str:
    return "".join(c if c.isalnum() else "-" for c in metric).strip("-")


def _plotters(result: SweepResult) -> list[Callable[[Path], Sequence[Path]]]:
    axes = result.sweep.axes
    if result.interrupted or not result.points:
        return []
    own = result.sweep.own_values()
    draws: list[Callable[[Path], Path]] = []
    if len(axes) == 1 and axes[0].numeric:
        draws = [partial(_lines_1d, result, own.get(axes[0].path))]
    elif len(axes) == 2 and axes[0].numeric and axes[1].numeric:
        draws = [partial(_heat, result, m, own) for m in result.sweep.metrics]
    elif len(axes) == 2 and (axes[0].numeric != axes[1].numeric):
        draws = [partial(_by_category, result, m) for m in result.sweep.metrics]
    return [partial(_one, draw) for draw in draws]


def _one(draw: Callable[[Path], Path], out: Path) -> list[Path]:
    return [draw(out)]


def _lines_1d(result: SweepResult, mark: Any, out: Path) -> Path:
    axis = result.sweep.axes[0]
    x = [pr.point[0] for pr in result.points]
    lines = {m: [pr.values[m][0] for pr in result.points] for m in result.sweep.metrics}
    errors = {m: [pr.values[m][1] for pr in result.points] for m in result.sweep.metrics}
    return line_plot(
        out / "sweep.png",
        x,
        lines,
        errors=errors,
        title=result.sweep.name,
        xlabel=axis.path,
        ylabel="value",
        mark=mark if isinstance(mark, int | float) else None,
    )


def _heat(result: SweepResult, metric: str, own: dict[str, Any], out: Path) -> Path:
    ax0, ax1 = result.sweep.axes
    grid = _grid(result, metric)  # [ax0][ax1]
    mark = None
    if isinstance(own.get(ax0.path), int | float) and isinstance(own.get(ax1.path), int | float):
        mark = (float(own[ax1.path]), float(own[ax0.path]))
    centre = 0.0 if np.nanmin(grid) < 0 < np.nanmax(grid) else None
    return heat_map(
        out / f"{_slug(metric)}.png",
        list(ax1.values),
        list(ax0.values),
        grid.tolist(),
        title=f"{result.sweep.name}\n{metric}",
        xlabel=ax1.path,
        ylabel=ax0.path,
        colorbar=metric,
        mark=mark,
        centre=centre,
    )


def _by_category(result: SweepResult, metric: str, out: Path) -> Path:
    axes = result.sweep.axes
    k_num = 0 if axes[0].numeric else 1
    num, cat = axes[k_num], axes[1 - k_num]
    lines: dict[str, list[float]] = {}
    errors: dict[str, list[float]] = {}
    for c in cat.values:
        rows = [pr for pr in result.points if pr.point[1 - k_num] == c]
        lines[str(c)] = [pr.values[metric][0] for pr in rows]
        errors[str(c)] = [pr.values[metric][1] for pr in rows]
    return line_plot(
        out / f"{_slug(metric)}.png",
        list(num.values),
        lines,
        errors=errors,
        title=f"{result.sweep.name}\n{metric}",
        xlabel=num.path,
        ylabel=metric,
    )


def _document(result: SweepResult, scenario: dict[str, Any]) -> dict[str, Any]:
    sweep = result.sweep
    return {
        "version": __version__,
        "study": sweep.name,
        "source": sweep.source,
        "seed": sweep.seed,
        "grid": {a.path: list(a.values) for a in sweep.axes},
        "metrics": list(sweep.metrics),
        "points": [
            {
                "point": dict(zip(sweep.paths, pr.point, strict=True)),
                "metrics": {
                    m: {"estimate": v, "stderr": se, "method": method}
                    for m, (v, se, method) in pr.values.items()
                },
            }
            for pr in result.points
        ],
        "interrupted": result.interrupted,
        "seconds": round(result.seconds, 2),
        "scenario": scenario,
    }


def sweep_files(result: SweepResult, scenario: dict[str, Any]) -> StudyFiles:
    """The sweep's outputs (``scenario``: the base scenario, resolved)."""
    sweep = result.sweep
    header = [*sweep.paths, "metric", "estimate", "stderr", "method"]
    rows = [
        [*pr.point, m, v, se, method]
        for pr in result.points
        for m, (v, se, method) in pr.values.items()
    ]
    return StudyFiles(
        header, rows, _document(result, scenario), _plotters(result), summary_markdown(result)
    )
