"""A sweep's outputs: the tidy CSV, the JSON document, plots and a summary computed from the
numbers (every sentence states what it measured and the thresholds it used)."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from knockout.rules.model_sd import FigureSpread
from knockout.studies.output import StudyFiles
from knockout.studies.plots import heat_map, line_plot
from knockout.studies.sweep import BaseSpread, SweepResult
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


def _grid(result: SweepResult, metric: str, stat: str | None = None) -> np.ndarray:
    """The metric's estimates (or ``stat`` of its spread over the constants: ``q025``,
    ``q975``) as an array shaped like the grid (NaN where not measured or without one)."""
    shape = tuple(len(a.values) for a in result.sweep.axes)
    flat = np.full(int(np.prod(shape)), np.nan)
    for i, pr in enumerate(result.points):
        if stat is None:
            flat[i] = pr.values[metric][0]
        elif metric in pr.spread:
            flat[i] = getattr(pr.spread[metric][0], stat)
    return flat.reshape(shape)


def _has_spread(result: SweepResult, metric: str) -> bool:
    return any(metric in pr.spread for pr in result.points)


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
            band = ""
            if metric in at.spread:
                s = at.spread[metric][0]
                band = f" (95 % over the constants not swept: {_fmt(s.q025)} to {_fmt(s.q975)})"
            lines.append(
                f"At the grid point nearest the scenario's own values ({_where(paths, own)}): "
                f"{_fmt(v)}{err}{band}."
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
    lines += _spread_lines(result, metric)
    return [*lines, ""]


def _spread_lines(result: SweepResult, metric: str) -> list[str]:
    """What the uncertainty of the constants the grid does not sweep does at the points."""
    spread = [(pr, pr.spread[metric][0]) for pr in result.points if metric in pr.spread]
    if not spread:
        return []
    sweep = result.sweep
    held = ", ".join(f"`{p.removeprefix('model.sd.')}`" for p in sweep.held_constants)
    widest_pr, widest = max(spread, key=lambda x: x[1].q975 - x[1].q025)
    lines = [
        f"Over the uncertainty of the constants the grid does not sweep ({sweep.model_draws} "
        "draws a point"
        + (f"; {held} held at each point's value" if held else "")
        + f"), the central 95 % interval is widest at {_where(sweep.paths, widest_pr.point)}: "
        f"{_fmt(widest.q025)} to {_fmt(widest.q975)}."
    ]
    signed = [(pr, s) for pr, s in spread if s.p_above_zero is not None]
    if signed:
        above = sum(1 for _, s in signed if s.q025 > 0)
        below = sum(1 for _, s in signed if s.q975 < 0)
        lines.append(
            f"The interval lies above zero at {above} of {len(signed)} points, below zero at "
            f"{below}, and contains zero at {len(signed) - above - below} (the sign is not "
            "settled there)."
        )
    return lines


def _base_lines(base: BaseSpread) -> list[str]:
    """The metrics at the scenario's own constants over all of their uncertainty."""
    if not base.values:
        return []
    constants = ", ".join(
        f"`{path}` {c['value']:.4g} ± {c['sd']:.4g} ({c['distribution']})"
        for path, c in base.constants.items()
    )
    lines = [
        "## How sure, at the scenario's own constants",
        "",
        f"Every metric at the base scenario, integrated over the uncertainty of its constants: "
        f"{constants}; {base.draws} draws (randomised quasi-Monte Carlo: scrambled Sobol' "
        f"replicates), {base.seconds:.1f} s. ± is the standard error of the mean from the "
        'replicates; "most variance from": the constant whose knowledge would cut the '
        "metric's variance most (held at its value, the others drawn given it).",
        "",
        "| metric | at the central constants | mean over the constants | 95 % interval | "
        "P(> 0) | most variance from |",
        "|---|---|---|---|---|---|",
    ]
    for metric, value in base.values.items():
        s = base.spread.get(metric)
        if s is None:
            lines.append(f"| `{metric}` | {_fmt(value)} | - | - | - | - |")
            continue
        se = base.stderr[metric].mean
        above = "-" if s.p_above_zero is None else f"{s.p_above_zero:.3f}"
        cuts = base.decomposition.get(metric, {})
        main = "-"
        if cuts:
            best = max(cuts, key=lambda k: cuts[k]["variance_cut"])
            main = f"`{best}` ({max(cuts[best]['variance_cut'], 0.0):.0%})"
        undefined = base.undefined.get(metric)
        note = "" if not undefined else f" (undefined in {undefined:.1%} of draws)"
        lines.append(
            f"| `{metric}` | {_fmt(value)} | {_fmt(s.mean)} ± {_fmt(se)} | "
            f"{_fmt(s.q025)} to {_fmt(s.q975)}{note} | {above} | {main} |"
        )
    if base.how_sure:
        lines += ["", *base.how_sure]
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
    if result.base is not None:
        lines += _base_lines(result.base)
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


def _bands(
    result: SweepResult, metrics: Sequence[str], rows: Sequence[Any] | None = None
) -> dict[str, tuple[list[float], list[float]]]:
    """Per metric with a spread: its 2.5 % and 97.5 % quantiles at the points ``rows``."""
    rows = list(result.points) if rows is None else list(rows)
    out = {}
    for m in metrics:
        if any(m in pr.spread for pr in rows):
            out[m] = (
                [pr.spread[m][0].q025 if m in pr.spread else math.nan for pr in rows],
                [pr.spread[m][0].q975 if m in pr.spread else math.nan for pr in rows],
            )
    return out


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
        bands=_bands(result, result.sweep.metrics),
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
    bounds = None
    if _has_spread(result, metric):
        bounds = (_grid(result, metric, "q025").tolist(), _grid(result, metric, "q975").tolist())
        lo = np.nanmin([np.nanmin(grid), np.nanmin(bounds[0])])
        hi = np.nanmax([np.nanmax(grid), np.nanmax(bounds[1])])
    else:
        lo, hi = np.nanmin(grid), np.nanmax(grid)
    centre = 0.0 if lo < 0 < hi else None
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
        bounds=bounds,
    )


def _by_category(result: SweepResult, metric: str, out: Path) -> Path:
    axes = result.sweep.axes
    k_num = 0 if axes[0].numeric else 1
    num, cat = axes[k_num], axes[1 - k_num]
    lines: dict[str, list[float]] = {}
    errors: dict[str, list[float]] = {}
    bands: dict[str, tuple[list[float], list[float]]] = {}
    for c in cat.values:
        rows = [pr for pr in result.points if pr.point[1 - k_num] == c]
        lines[str(c)] = [pr.values[metric][0] for pr in rows]
        errors[str(c)] = [pr.values[metric][1] for pr in rows]
        bands |= {str(c): b for b in _bands(result, [metric], rows).values()}
    return line_plot(
        out / f"{_slug(metric)}.png",
        list(num.values),
        lines,
        errors=errors,
        bands=bands,
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
                    | _spread_json(pr.spread.get(m))
                    for m, (v, se, method) in pr.values.items()
                },
            }
            for pr in result.points
        ],
        "interrupted": result.interrupted,
        "seconds": round(result.seconds, 2),
        **({} if result.base is None else {"base": _base_json(result.base)}),
        "scenario": scenario,
    }


def _spread_json(found: tuple[FigureSpread, FigureSpread, float] | None) -> dict[str, Any]:
    """A metric's ``model_uncertainty`` at a point (empty without one)."""
    if found is None:
        return {}
    spread, errors, undefined = found
    out: dict[str, Any] = {"model_uncertainty": spread.to_json() | {"stderr": errors.to_json()}}
    if undefined > 0:
        out["model_uncertainty"]["undefined"] = undefined
    return out


def _base_json(base: BaseSpread) -> dict[str, Any]:
    """The metrics at the scenario's own constants, over all of them."""
    return {
        "draws": base.draws,
        "constants": base.constants,
        "metrics": {
            m: {"value": v}
            | ({} if m not in base.spread else {"model_uncertainty": base.spread[m].to_json()})
            | ({} if m not in base.decomposition else {"decomposition": base.decomposition[m]})
            | ({} if m not in base.undefined else {"undefined": base.undefined[m]})
            for m, v in base.values.items()
        },
        "how_sure": list(base.how_sure),
        "seconds": round(base.seconds, 2),
    }


#: The CSV's columns for a metric's spread over uncertain constants (empty without one).
_SPREAD_COLUMNS = (
    "model_mean",
    "model_sd",
    "model_q025",
    "model_q975",
    "model_p_above_zero",
    "model_undefined",
)


def _spread_cells(found: tuple[FigureSpread, FigureSpread, float] | None) -> list[Any]:
    if found is None:
        return [""] * len(_SPREAD_COLUMNS)
    s, _, undefined = found
    above = "" if s.p_above_zero is None else s.p_above_zero
    return [s.mean, s.sd, s.q025, s.q975, above, undefined]


def sweep_files(result: SweepResult, scenario: dict[str, Any]) -> StudyFiles:
    """The sweep's outputs (``scenario``: the base scenario, resolved)."""
    sweep = result.sweep
    header = [*sweep.paths, "metric", "estimate", "stderr", "method", *_SPREAD_COLUMNS]
    rows = [
        [*pr.point, m, v, se, method, *_spread_cells(pr.spread.get(m))]
        for pr in result.points
        for m, (v, se, method) in pr.values.items()
    ]
    return StudyFiles(
        header, rows, _document(result, scenario), _plotters(result), summary_markdown(result)
    )
