"""The backtest's views: its scores as a rich table, its reliability diagrams as PNG files."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from knockout.backtest.report import ECE_LINE, SETTLED_Z, BacktestReport, GroupScores
from knockout.backtest.scores import Reliability
from knockout.i18n import N_, _, pgettext
from knockout.studies.plots import pyplot, save

__all__ = ["backtest_view", "reliability_figure", "write_reliability_plots"]

#: The outcomes as the plots name them (translated where drawn).
_PLOT_OUTCOMES = {"red": N_("Red wins"), "draw": N_("draw"), "black": N_("Black wins")}


def _scores_table(title: str, group: GroupScores) -> list[Table]:
    """Two narrow tables: each score by forecaster, then the model's paired differences."""
    scores = Table(title=title, title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False)
    scores.add_column("score", no_wrap=True)
    rows = {"model": group.model, **group.baselines}
    for name in rows:
        scores.add_column(name.replace("colour base rates", "base rates"), justify="right",
                          no_wrap=True)  # fmt: skip
    for label, key in (("log loss", "log_loss"), ("Brier", "brier"), ("RPS", "rps")):
        scores.add_row(label, *(f"{getattr(s, key).mean:.4f}" for s in rows.values()))
        scores.add_row(
            Text("  ± stderr", style="dim"),
            *(Text(f"{getattr(s, key).stderr:.4f}", style="dim") for s in rows.values()),
        )
    scores.add_row("ECE", *(f"{s.ece:.4f}" for s in rows.values()))
    diffs = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    diffs.add_column("model minus", no_wrap=True)
    for label in ("log loss", "Brier", "RPS"):
        diffs.add_column(label, justify="right", no_wrap=True)
    for name, d in group.differences.items():
        diffs.add_row(
            name,
            *(f"{d[k].mean:+.4f} ± {d[k].stderr:.4f}" for k in ("log_loss", "brier", "rps")),
        )
    return [scores, diffs]


def backtest_view(report: BacktestReport) -> RenderableType:
    """The scores of every game forecast, then per time class, and how to read them."""
    f = report.forecasts
    parts: list[RenderableType] = list(
        _scores_table(
            f"{f.source}: {report.overall.n:,} games forecast, {f.start}-{report.last_year}, "
            "each from earlier years only",
            report.overall,
        )
    )
    if f.by is not None:
        for name, group in report.by_class.items():
            parts += _scores_table(f"{name}: {group.n:,} games", group)
    o = report.overall
    better = [
        name
        for name, d in o.differences.items()
        if d["log_loss"].mean + SETTLED_Z * d["log_loss"].stderr < 0
    ]
    ece = o.model.ece
    beaten = (
        "no baseline's"
        if not better
        else "the "
        + ", ".join(better[:-1])
        + (" and " if len(better) > 1 else "")
        + better[-1]
        + (" baselines'" if len(better) > 1 else " baseline's")
    )
    parts.append(
        Text(
            "Lower is better; stderr: one standard error; differences paired, game by game. The "
            f"model's log loss is lower than {beaten} by more than {SETTLED_Z} standard errors. "
            f"ECE of P(Red win), 10 bins: {ece:.4f} "
            f"({'below' if ece < ECE_LINE else 'not below'} {ECE_LINE}). See "
            "docs/validation.md.",
            style="dim",
        )
    )
    return Group(*parts)


def reliability_figure(r: Reliability, title: str) -> object:
    """A reliability diagram: each bin's observed share against its mean forecast, with 95 %
    Wilson intervals, the diagonal of perfect calibration, and the games per bin below."""
    plt = pyplot()
    fig, (top, bottom) = plt.subplots(
        2, 1, figsize=(6.0, 6.4), gridspec_kw={"height_ratios": [3, 1]}, sharex=True
    )
    used = r.count > 0
    outcome = _(_PLOT_OUTCOMES[r.outcome])
    top.plot([0, 1], [0, 1], color="grey", linestyle="--", linewidth=1, label=_("perfect"))
    top.errorbar(
        r.forecast[used],
        r.observed[used],
        yerr=[
            np.maximum(r.observed[used] - r.low[used], 0.0),
            np.maximum(r.high[used] - r.observed[used], 0.0),
        ],
        fmt="o",
        color="tab:red"
        if r.outcome == "red"
        else "tab:blue"
        if r.outcome == "black"
        else "tab:green",
        capsize=3,
        label=_("observed share (95 % interval)"),
    )
    top.set_xlim(0, 1)
    top.set_ylim(0, 1)
    top.set_ylabel(_("observed share of {outcome}").format(outcome=outcome))
    top.set_title(title, fontsize=10)
    top.legend(loc="upper left", fontsize=8)
    top.text(0.98, 0.03, f"ECE {r.ece:.4f}", ha="right", va="bottom", fontsize=9)
    bottom.bar(r.lower + 0.05, r.count, width=0.09, color="lightgrey", edgecolor="grey")
    bottom.set_ylabel(pgettext("count", "games"))
    bottom.set_xlabel(_("forecast P({outcome}), 10 equal-width bins").format(outcome=outcome))
    fig.tight_layout()
    return fig


def write_reliability_plots(report: BacktestReport, folder: Path) -> list[Path]:
    """``reliability-red.png``, ``-draw.png``, ``-black.png`` in ``folder``."""
    f = report.forecasts
    paths = []
    for r in report.reliability:
        title = _(
            "Reliability of the model's P({outcome}): {n:,} games {start}-{end},\neach forecast "
            "from earlier years only"
        ).format(
            outcome=_(_PLOT_OUTCOMES[r.outcome]),
            n=report.overall.n,
            start=f.start,
            end=report.last_year,
        )
        paths.append(save(reliability_figure(r, title), folder / f"reliability-{r.outcome}.png"))
    return paths
