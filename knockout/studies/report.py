"""A sweep's outputs: the tidy CSV, the JSON document, plots and a summary computed from the
numbers (every sentence states what it measured and the thresholds it used).

Plots are labelled in words with units (:mod:`knockout.studies.labels`), the keys in small print;
one plot per metric: a line for one swept path, a heat map for two numeric paths, a line per
category for a numeric path and a path of categories. Where a metric or a grid gets no plot (a
constant or undefined metric, three paths, list values), the summary says why.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from knockout.i18n import N_, _, ngettext
from knockout.rules.model.sd import FigureSpread
from knockout.studies.fair import search_cap
from knockout.studies.labels import label
from knockout.studies.output import StudyFiles
from knockout.studies.plots import heat_figure, line_figure, save
from knockout.studies.sweep import Axis, BaseSpread, SweepResult
from knockout.version import __version__

__all__ = [
    "CONSTANT",
    "ZERO",
    "Plot",
    "figure",
    "plan_plots",
    "plot_text",
    "summary_markdown",
    "sweep_files",
]

#: A value within this of zero counts as zero (signs of edges).
ZERO = 1e-9
#: Two estimates differ only beyond this many combined standard errors (Monte Carlo metrics).
SIGNIFICANT_SE = 3.0
#: A metric whose values spread by no more than this times max(1, |value|) over the grid is
#: constant (what is left is floating-point noise); the same line says a path does not move it.
CONSTANT = 1e-9


def _fmt(v: float) -> str:
    if math.isnan(v):
        return "undefined"
    if math.isinf(v):  # an open end of an interval (the fair clock above the search cap)
        return "open" if v > 0 else "-open"
    return f"{v:.4g}"


def _value(v: Any) -> str:
    return f"{v:g}" if isinstance(v, float) else str(v)


def _where(paths: Sequence[str], point: Sequence[Any]) -> str:
    return ", ".join(f"{p} = {_value(v)}" for p, v in zip(paths, point, strict=True))


def _grid(result: SweepResult, metric: str, stat: str | None = None) -> np.ndarray:
    """The metric's estimates (or ``stat`` of its spread over the constants: ``q025``,
    ``q975``) as an array shaped like the grid (NaN where not measured or without one)."""
    shape = tuple(len(a.values) for a in result.sweep.axes)
    flat = np.full(int(np.prod(shape)), np.nan)
    for pr in result.points:  # in grid order, with gaps where a run was interrupted
        i = result.sweep.index_of(pr.point)
        if stat is None:
            flat[i] = pr.values[metric][0]
        elif metric in pr.spread:
            flat[i] = getattr(pr.spread[metric][0], stat)
    return flat.reshape(shape)


def _has_spread(result: SweepResult, metric: str) -> bool:
    return any(metric in pr.spread for pr in result.points)


def _spread_is_noise(spread: float, size: float) -> bool:
    return spread <= CONSTANT * max(1.0, abs(size))


def _constant(values: Sequence[float]) -> float | None:
    """The metric's value if it is constant over the points measured (NaN left out)."""
    finite = [v for v in values if not math.isnan(v)]
    if not finite:
        return None
    lo, hi = min(finite), max(finite)
    return hi if _spread_is_noise(hi - lo, hi) else None


# ---------------------------------------------------------------------------------------------
# The scenario's own values


@dataclass(frozen=True)
class _Own:
    """Where the scenario's own values fall on the grid."""

    values: tuple[Any, ...]
    nearest: tuple[Any, ...]
    outside: tuple[str, ...]  # paths whose own value lies outside the grid's range

    @property
    def on_grid(self) -> bool:
        return self.values == self.nearest


def _own(result: SweepResult) -> _Own | None:
    """The scenario's own values and the grid point nearest them (None if a path has none, or a
    category that is not on the grid)."""
    own = result.sweep.own_values()
    values, nearest, outside = [], [], []
    for axis in result.sweep.axes:
        if axis.path not in own:
            return None
        value = own[axis.path]
        values.append(value)
        if axis.numeric and isinstance(value, int | float) and not isinstance(value, bool):
            nearest.append(min(axis.values, key=lambda v: abs(v - value)))
            if not min(axis.values) <= value <= max(axis.values):
                outside.append(axis.path)
        elif value in axis.values:
            nearest.append(value)
        else:
            return None
    return _Own(tuple(values), tuple(nearest), tuple(outside))


def _own_line(result: SweepResult, metric: str) -> str | None:
    paths = result.sweep.paths
    own = _own(result)
    if own is None:
        return None
    at = next((pr for pr in result.points if pr.point == own.nearest), None)
    if at is None:
        return None
    v, se, _method = at.values[metric]
    value = f"{_fmt(v)}" + (f" ± {_fmt(se)}" if se > 0 else "")
    if metric in at.spread:
        s = at.spread[metric][0]
        value += _(" (95 % over the constants not swept: {low} to {high})").format(
            low=_fmt(s.q025), high=_fmt(s.q975)
        )
    if own.outside:
        ranges = _("; ").join(
            _("{path}: {low} to {high}").format(
                path=a.path, low=_value(min(a.values)), high=_value(max(a.values))
            )
            for a in result.sweep.axes
            if a.path in own.outside
        )
        return _(
            "The scenario's own values ({own}) lie outside the grid ({ranges}); at the nearest "
            "grid point ({nearest}): {value}."
        ).format(
            own=_where(paths, own.values),
            ranges=ranges,
            nearest=_where(paths, own.nearest),
            value=value,
        )
    if own.on_grid:
        return _("At the scenario's own values ({own}): {value}.").format(
            own=_where(paths, own.values), value=value
        )
    return _(
        "At the grid point nearest the scenario's own values ({own}), {nearest}: {value}."
    ).format(own=_where(paths, own.values), nearest=_where(paths, own.nearest), value=value)


# ---------------------------------------------------------------------------------------------
# Why a metric is undefined


def _why_words(result: SweepResult, code: str) -> str:
    sweep = result.sweep
    if code == "above_cap":
        cap = search_cap(sweep.black_minutes, sweep.max_minutes)
        return _("the fair split lies above the {cap:g}-minute cap (raise max_minutes)").format(
            cap=cap
        )
    if code == "time_worth_nothing":
        return _("the clocks do not change the odds, so no split is fair at any clock")
    if code == "red_ahead_without_time":
        return _("Red is ahead even with almost no time, so no split is fair")
    if code == "no_equilibrium":
        return _("the pace game has no such pure-strategy equilibrium")
    return code


#: How a metric was measured (the CSV's method column), in words.
METHODS = {"exact": N_("exact"), "monte-carlo": N_("monte-carlo")}

_SHORT = {
    "time_worth_nothing": N_("no split at any clock"),
    "red_ahead_without_time": N_("Red ahead without time"),
    "no_equilibrium": N_("no pure equilibrium"),
    "": N_("no value"),
}


def _blank_words(result: SweepResult, metric: str) -> str:
    """What a blank cell of the metric's heat map means, in a few words."""
    counts = Counter(
        pr.why.get(metric, "") for pr in result.points if math.isnan(pr.values[metric][0])
    )
    cap = search_cap(result.sweep.black_minutes, result.sweep.max_minutes)
    short = {code: _(words) for code, words in _SHORT.items()}
    short["above_cap"] = _("above the {cap:g}-minute cap").format(cap=cap)
    return _("; ").join(
        ngettext("{words} ({n} point)", "{words} ({n} points)", n).format(
            words=short.get(code, code), n=n
        )
        for code, n in counts.most_common()
    )


def _undefined_words(result: SweepResult, metric: str) -> str:
    """Why the metric is undefined where it is: counts by reason."""
    counts = Counter(
        pr.why.get(metric, "")
        for pr in result.points
        if math.isnan(pr.values[metric][0])
    )  # fmt: skip
    parts = [
        _("{n} where {why}").format(n=n, why=_why_words(result, code))
        if code
        else _("{n} where the output has no value").format(n=n)
        for code, n in counts.most_common()
    ]
    return _("; ").join(parts)


# ---------------------------------------------------------------------------------------------
# The summary


def _heading(metric: str) -> str:
    words = label(metric)
    return f"### `{metric}`" if words == metric else f"### `{metric}`: {words}"


def _metric_lines(result: SweepResult, metric: str) -> list[str]:
    paths = result.sweep.paths
    measured = [pr for pr in result.points if not math.isnan(pr.values[metric][0])]
    lines = [_heading(metric), ""]
    undefined = len(result.points) - len(measured)
    if not measured:
        return [
            *lines,
            _("Undefined at every point measured ({why}).").format(
                why=_undefined_words(result, metric)
            ),
            "",
        ]
    method = _(METHODS.get(measured[0].values[metric][2], measured[0].values[metric][2]))
    missing = _(" Undefined at {n} points: {why}.").format(
        n=undefined, why=_undefined_words(result, metric)
    )
    constant = _constant([pr.values[metric][0] for pr in measured])
    if constant is not None:
        least = min(pr.values[metric][0] for pr in measured)
        lines.append(
            _(
                "Constant over the {n} points measured ({method}): {value} (max - min = "
                "{spread:.2g}, within the line of {line:g} that counts as no change)."
            ).format(
                n=len(measured),
                method=method,
                value=_fmt(constant),
                spread=constant - least,
                line=CONSTANT,
            )
            + (missing if undefined else "")
        )
        return [*lines, ""]
    lo = min(measured, key=lambda pr: pr.values[metric][0])
    hi = max(measured, key=lambda pr: pr.values[metric][0])
    lines.append(
        _("Over {n} points ({method}), from {low} at {low_at} to {high} at {high_at}.").format(
            n=len(result.points),
            method=method,
            low=_fmt(lo.values[metric][0]),
            low_at=_where(paths, lo.point),
            high=_fmt(hi.values[metric][0]),
            high_at=_where(paths, hi.point),
        )
        + (missing if undefined else "")
    )
    own_line = _own_line(result, metric)
    if own_line is not None:
        lines.append(own_line)
    lines += _sign_lines(measured, metric)
    lines += _sensitivity_lines(result, metric)
    lines += _spread_lines(result, metric)
    return [*lines, ""]


def _sign_lines(measured: Sequence[Any], metric: str) -> list[str]:
    values = np.array([pr.values[metric][0] for pr in measured])
    ses = np.array([pr.values[metric][1] for pr in measured])
    margin = np.maximum(ZERO, SIGNIFICANT_SE * ses)
    pos, neg = int(np.sum(values > margin)), int(np.sum(values < -margin))
    if not neg and pos == len(measured):  # the sign is news only where the metric reaches zero
        return []
    near = (
        "±" + format(ZERO, "g")
        if not ses.any()
        else _("{n:g} standard errors").format(n=SIGNIFICANT_SE)
    )
    return [
        _(
            "Above zero at {pos} of {n} points, below zero at {neg}, and within {near} of zero at "
            "{rest}."
        ).format(pos=pos, n=len(measured), neg=neg, near=near, rest=len(measured) - pos - neg)
    ]


def _spread_lines(result: SweepResult, metric: str) -> list[str]:
    """What the uncertainty of the constants the grid does not sweep does at the points."""
    spread = [(pr, pr.spread[metric][0]) for pr in result.points if metric in pr.spread]
    if not spread:
        return []
    sweep = result.sweep
    held = _(", ").join(f"`{p.removeprefix('model.sd.')}`" for p in sweep.held_constants)
    widest_pr, widest = max(spread, key=lambda x: x[1].q975 - x[1].q025)
    lines = [
        _(
            "Over the uncertainty of the constants the grid does not sweep ({draws} draws a "
            "point{held}), the central 95 % interval is widest at {where}: {low} to {high}."
        ).format(
            draws=sweep.model_draws,
            held=_("; {held} held at each point's value").format(held=held) if held else "",
            where=_where(sweep.paths, widest_pr.point),
            low=_fmt(widest.q025),
            high=_fmt(widest.q975),
        )
    ]
    signed = [(pr, s) for pr, s in spread if s.p_above_zero is not None]
    if signed:
        above = sum(1 for _pr, s in signed if s.q025 > 0)
        below = sum(1 for _pr, s in signed if s.q975 < 0)
        lines.append(
            _(
                "The interval lies above zero at {above} of {n} points, below zero at {below}, "
                "and contains zero at {rest} (there the sign cannot be settled by these data)."
            ).format(above=above, n=len(signed), below=below, rest=len(signed) - above - below)
        )
    return lines


def _base_lines(base: BaseSpread) -> list[str]:
    """The metrics at the scenario's own constants over all of their uncertainty."""
    if not base.values:
        return []
    constants = _(", ").join(
        f"`{path}` {c['value']:.4g} ± {c['sd']:.4g} ({c['distribution']})"
        for path, c in base.constants.items()
    )
    lines = [
        _("## How sure, at the scenario's own constants"),
        "",
        _(
            "Every metric at the base scenario, integrated over the uncertainty of its "
            "constants: {constants}; {draws} draws (randomised quasi-Monte Carlo: scrambled "
            "Sobol' replicates), {seconds:.1f} s. ± is the standard error of the mean from the "
            'replicates; "most variance from": the constant whose knowledge would cut the '
            "metric's variance most (held at its value, the others drawn given it)."
        ).format(constants=constants, draws=base.draws, seconds=base.seconds),
        "",
        _(
            "| metric | at the central constants | mean over the constants | 95 % interval | "
            "P(> 0) | most variance from |"
        ),
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
        note = (
            ""
            if not undefined
            else _(" (undefined in {share:.1%} of draws)").format(share=undefined)
        )
        mean = "-" if math.isnan(s.mean) else f"{_fmt(s.mean)} ± {_fmt(se)}"
        span = _("{low} to {high}").format(low=_fmt(s.q025), high=_fmt(s.q975))
        if math.isinf(s.q975) or math.isinf(s.q025):  # over every draw, open-ended
            note = (
                ""
                if not undefined
                else _(" (none in {share:.1%} of draws)").format(share=undefined)
            )
            if s.q975 == math.inf:
                span = _("{low} and above (open-ended)").format(low=_fmt(s.q025))
        lines.append(f"| `{metric}` | {_fmt(value)} | {mean} | {span}{note} | {above} | {main} |")
    bare = [m for m in base.values if m not in base.spread]
    if bare:
        lines += [
            "",
            f"No spread for {', '.join(f'`{m}`' for m in bare)}: "
            + ("it is" if len(bare) == 1 else "they are")
            + " at the central constants only (a Monte Carlo estimate, or a figure its command "
            "does not integrate over the constants: an equilibrium, the exploitability, the "
            "sequential-fairness figure), so "
            + ("its" if len(bare) == 1 else "their")
            + " row says nothing of how sure it is.",
        ]
    if base.how_sure:
        lines += ["", *base.how_sure]
    return [*lines, ""]


def _sensitivity_lines(result: SweepResult, metric: str) -> list[str]:
    """How far the metric moves across each axis, holding the others fixed (mean range)."""
    axes = result.sweep.axes
    if not axes or result.interrupted:
        return []
    grid = _grid(result, metric)
    ranges = {}
    for k, axis in enumerate(axes):
        if len(axis.values) < 2:
            continue
        # fmax/fmin skip NaN without numpy's all-NaN warnings; an all-NaN slice stays NaN
        moved = np.fmax.reduce(grid, axis=k) - np.fmin.reduce(grid, axis=k)
        known = moved[~np.isnan(moved)]
        if known.size:
            ranges[axis.path] = float(known.mean())
    if not ranges:
        return []
    size = float(np.nanmax(np.abs(grid)))
    parts = [
        f"{path}: {_fmt(r)}" + (_(" (no change)") if _spread_is_noise(r, size) else "")
        for path, r in ranges.items()
    ]
    text = _(
        "How far it moves across each swept value, the others held fixed (mean over the other "
        "values of max - min): {parts}."
    ).format(parts=_("; ").join(parts))
    biggest = max(ranges, key=lambda p: ranges[p])
    if len(ranges) > 1 and not _spread_is_noise(ranges[biggest], size):
        text += _(" It depends most on {path}.").format(path=biggest)
    return [text]


def _axis_values(axis: Axis) -> str:
    if axis.numeric and len(axis.values) > 4:
        message = (
            _("{low} to {high} ({n} values, listed from the largest)")
            if axis.values[0] > axis.values[-1]
            else _("{low} to {high} ({n} values)")
        )
        return message.format(
            low=_fmt(min(axis.values)), high=_fmt(max(axis.values)), n=len(axis.values)
        )
    return _(", ").join(str(v) for v in axis.values)


def summary_markdown(result: SweepResult) -> str:
    """The study's summary: the grid, then each metric's range, value at the scenario's own
    point, sign and sensitivity, then the plots (or why there are none), all computed from the
    results."""
    sweep = result.sweep
    lines = [
        f"# {sweep.name}",
        "",
        (
            _(
                "Study file `{source}`; base scenario `{scenario}`. {done} of {points} grid points "
                "measured in {seconds:.1f} s (interrupted: the summary covers the points finished)."
            )
            if result.interrupted
            else _(
                "Study file `{source}`; base scenario `{scenario}`. {done} of {points} grid points "
                "measured in {seconds:.1f} s."
            )
        ).format(
            source=sweep.source,
            scenario=sweep.scenario_path,
            done=len(result.points),
            points=len(sweep.points),
            seconds=result.seconds,
        ),
        "",
        _("| swept path | in words | values |"),
        "|---|---|---|",
    ]
    for axis in sweep.axes:
        lines.append(f"| `{axis.path}` | {label(axis.path)} | {_axis_values(axis)} |")
    if sweep.notes:
        lines += ["", *(_("Note: {note}.").format(note=n) for n in sweep.notes)]
    lines += ["", _("## Metrics"), ""]
    if any(m.startswith("simulate.") for m in sweep.metrics):
        lines += [
            _(
                "Monte Carlo metrics: {runs:,} runs a point with seed {seed} at every point "
                "(common random numbers), ± one standard error."
            ).format(runs=sweep.runs, seed=sweep.seed),
            "",
        ]
    for metric in sweep.metrics:
        lines += _metric_lines(result, metric)
    if result.base is not None:
        lines += _base_lines(result.base)
    lines += [_("## Plots"), ""]
    plots, general = plan_plots(result)
    if general is not None:
        lines.append(_("No plots: {why}.").format(why=general))
    for p in plots:
        if p.file is not None:
            lines.append(f"- `{p.file}`: `{p.metric}`, {label(p.metric)}")
        else:
            lines.append(_("- no plot of `{metric}`: {why}").format(metric=p.metric, why=p.reason))
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------------------------
# Plots


@dataclass(frozen=True)
class Plot:
    """A metric's plot: its file name, or why it has none."""

    metric: str
    file: str | None
    reason: str | None = None


def _slug(metric: str) -> str:
    """An ASCII file name for the metric: letters and digits kept, the rest dashes; a short hash
    of the whole key keeps names that lose characters (Chinese names) apart.

    >>> _slug("odds.match.chooser_advances")
    'odds-match-chooser-advances'
    >>> _slug("odds.win.王天一").startswith("odds-win-") and _slug("odds.win.王天一").isascii()
    True
    """
    kept = "".join(c if c.isascii() and c.isalnum() else "-" for c in metric)
    slug = "-".join(part for part in kept.split("-") if part)
    if not metric.isascii():
        slug += "-" + hashlib.sha1(metric.encode("utf-8")).hexdigest()[:6]
    return slug


def _grid_reason(result: SweepResult) -> str | None:
    """Why the grid gets no plot at all, or None."""
    axes = result.sweep.axes
    if result.interrupted:
        return "the run was interrupted (the summary covers the points finished)"
    if not result.points:
        return "no point was measured"
    listed = [a for a in axes if any(isinstance(v, list | tuple | dict) for v in a.values)]
    if listed:
        return (
            f"`{listed[0].path}` takes lists or tables as values ({listed[0].values[0]!r}, ...), "
            "which have no order to draw along"
        )
    if len(axes) > 2:
        return (
            f"the study sweeps {len(axes)} paths and a plot draws one or two; fix all but two "
            "in [set], or run one study per value"
        )
    if not any(a.numeric for a in axes):
        names = " and ".join(f"`{a.path}`" for a in axes)
        return f"{names} take categories, not numbers: there is no axis to draw along"
    return None


def plan_plots(result: SweepResult) -> tuple[list[Plot], str | None]:
    """Each metric's plot or why it has none, and why the whole grid has none (or None)."""
    general = _grid_reason(result)
    if general is not None:
        return [], general
    plots = []
    for metric in result.sweep.metrics:
        values = [pr.values[metric][0] for pr in result.points]
        constant = _constant(values)
        if all(math.isnan(v) for v in values):
            reason = f"undefined at every point ({_undefined_words(result, metric)})"
            plots.append(Plot(metric, None, reason))
        elif constant is not None:
            plots.append(Plot(metric, None, f"constant: {_fmt(constant)} at every point"))
        else:
            plots.append(Plot(metric, f"{_slug(metric)}.png"))
    return plots, None


def _note(metric: str, axes: Sequence[tuple[str, str]]) -> str:
    return "keys: " + "; ".join([f"{name} {path}" for name, path in axes] + [f"value {metric}"])


def _method(result: SweepResult, metric: str) -> str:
    method = result.points[0].values[metric][2]
    return "exact" if method == "exact" else f"{method}, ± 2 standard errors"


def _mark(axis: Axis, own: _Own | None, k: int) -> float | None:
    if own is None or axis.path in own.outside:
        return None
    v = own.values[k]
    return float(v) if isinstance(v, int | float) and not isinstance(v, bool) else None


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


def references(metric: str) -> list[tuple[float, str]]:
    """The lines a metric's verdict is drawn at, for its plot: the tolerance that decides
    "verified" (an equilibrium, the pace game's), the strategy-proofness line."""
    from knockout.studies.equilibrium import VERIFIED  # noqa: PLC0415 (start-up: a metric's study, loaded when its plot asks)
    from knockout.studies.incentives import STRATEGY_PROOF, TOLERANCE  # noqa: PLC0415 (start-up: a metric's study, loaded when its plot asks)

    if metric == "equilibrium.max_deviation_gain":
        return [
            (VERIFIED["threshold"], f"{VERIFIED['threshold']:g}: verified at or below "
             "(threshold equilibria: the bidding, a colour choice)"),
            (VERIFIED["grid"], f"{VERIFIED['grid']:g}: verified at or below "
             "(grid equilibria: sealed bids, cut-and-choose)"),
        ]  # fmt: skip
    if re.fullmatch(r"incentives\.verification\.\d+\.deviation_gain\.[^.]+", metric):
        return [(TOLERANCE, f"{TOLERANCE:g}: verified at or below")]
    if metric == "incentives.manipulation_gain" or re.fullmatch(
        r"incentives\.best_response\.[^.]+\.gain", metric
    ):
        return [(STRATEGY_PROOF, f"{STRATEGY_PROOF:g}: strategy-proof below")]
    return []


def _line_1d(result: SweepResult, metric: str) -> Any:
    axis = result.sweep.axes[0]
    x = [pr.point[0] for pr in result.points]
    return line_figure(
        x,
        {label(metric): [pr.values[metric][0] for pr in result.points]},
        errors={label(metric): [pr.values[metric][1] for pr in result.points]},
        title=f"{label(metric)}\n({_method(result, metric)})",
        xlabel=label(axis.path),
        ylabel=label(metric),
        mark=_mark(axis, _own(result), 0),
        note=_note(metric, [("x", axis.path)]),
        bands={label(metric): b for b in _bands(result, [metric]).values()},
        references=references(metric),
    )


def _heat(result: SweepResult, metric: str) -> Any:
    ax0, ax1 = result.sweep.axes
    grid = _grid(result, metric)  # [ax0][ax1]
    own = _own(result)
    mark0, mark1 = _mark(ax0, own, 0), _mark(ax1, own, 1)
    bounds = None
    finite = grid[np.isfinite(grid)]
    lo, hi = finite.min(), finite.max()
    if _has_spread(result, metric):
        bounds = (_grid(result, metric, "q025").tolist(), _grid(result, metric, "q975").tolist())
        lo = min(lo, float(np.nanmin(bounds[0])))
        hi = max(hi, float(np.nanmax(bounds[1])))
    centre = 0.0 if lo < 0 < hi else None
    blank = f"; blank: {_blank_words(result, metric)}" if np.isnan(grid).any() else ""
    return heat_figure(
        list(ax1.values),
        list(ax0.values),
        grid.tolist(),
        title=f"{label(metric)}\n({_method(result, metric)}{blank})",
        xlabel=label(ax1.path),
        ylabel=label(ax0.path),
        colorbar=label(metric),
        mark=None if mark0 is None or mark1 is None else (mark1, mark0),
        centre=centre,
        note=_note(metric, [("x", ax1.path), ("y", ax0.path)]),
        bounds=bounds,
        references=references(metric),
    )


def _by_category(result: SweepResult, metric: str) -> Any:
    axes = result.sweep.axes
    k_num = 0 if axes[0].numeric else 1
    num, cat = axes[k_num], axes[1 - k_num]
    lines: dict[str, list[float]] = {}
    errors: dict[str, list[float]] = {}
    bands: dict[str, tuple[list[float], list[float]]] = {}
    for c in cat.values:
        # one value per x, NaN where a point was not measured (an interrupted run)
        at = {
            num.values.index(pr.point[k_num]): pr
            for pr in result.points
            if pr.point[1 - k_num] == c
        }
        rows = [at.get(i) for i in range(len(num.values))]
        nan = (math.nan, math.nan, "")
        lines[str(c)] = [(nan if pr is None else pr.values[metric])[0] for pr in rows]
        errors[str(c)] = [(nan if pr is None else pr.values[metric])[1] for pr in rows]
        measured = [pr for pr in rows if pr is not None]
        if len(measured) == len(rows):
            bands |= {str(c): b for b in _bands(result, [metric], measured).values()}
    return line_figure(
        list(num.values),
        lines,
        errors=errors,
        title=f"{label(metric)}, by {label(cat.path)}\n({_method(result, metric)})",
        xlabel=label(num.path),
        ylabel=label(metric),
        mark=_mark(num, _own(result), k_num),
        note=_note(metric, [("x", num.path), ("lines", cat.path)]),
        bands=bands,
        references=references(metric),
    )


def figure(result: SweepResult, metric: str) -> Any:
    """The metric's plot as a matplotlib figure (see :func:`plan_plots` for which get one)."""
    axes = result.sweep.axes
    if len(axes) == 1:
        return _line_1d(result, metric)
    if axes[0].numeric and axes[1].numeric:
        return _heat(result, metric)
    return _by_category(result, metric)


def plot_text(result: SweepResult) -> str:
    """The words the plots may draw (labels, keys, categories), to check that a font has them."""
    sweep = result.sweep
    keys = [*sweep.metrics, *sweep.paths]
    categories = [str(v) for a in sweep.axes if not a.numeric for v in a.values]
    return " ".join([*keys, *(label(k) for k in keys), *categories])


def _draw(result: SweepResult, plot: Plot, out: Path) -> list[Path]:
    assert plot.file is not None
    return [save(figure(result, plot.metric), out / plot.file)]


def _plotters(result: SweepResult) -> list[Callable[[Path], Sequence[Path]]]:
    plots, _ = plan_plots(result)
    return [partial(_draw, result, p) for p in plots if p.file is not None]


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
                    | ({"undefined": pr.why[m]} if m in pr.why else {})
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
