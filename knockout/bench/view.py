"""The benchmark's view: each goal's measured ratio beside its target, then the figures."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from knockout.bench.figures import BenchFigures
from knockout.bench.waits import STEADY_NOTE

__all__ = ["bench_view"]


def bench_view(f: BenchFigures) -> RenderableType:
    """The goals (measured ratio beside target) and the figures, as two tables."""
    goals = Table(
        title=f"Benchmark goals: {f.scenario} ({f.cores} CPUs visible)", title_justify="left"
    )
    goals.add_column("Goal", overflow="fold")
    goals.add_column("Measured", justify="right", no_wrap=True)
    goals.add_column("Target", justify="right", no_wrap=True)
    goals.add_column("Met", justify="center", no_wrap=True)
    goals.add_column("From", overflow="fold")
    for g in f.goals:
        met = {True: Text("yes", style="green"), False: Text("no", style="red"), None: Text("-")}
        measured = "-" if g.measured is None else f"{g.measured:.2f}"
        goals.add_row(g.label, measured, g.target_text, met[g.met], g.figures)
    figures = Table(title="Figures", title_justify="left")
    figures.add_column("Measure", overflow="fold")
    figures.add_column("Figure", justify="right", overflow="fold")
    for measure, figure in f.rows():
        figures.add_row(measure, figure)
    note = Text(
        f"Block size {f.block_size:,}. Each ratio's two sides are measured in this run, "
        "interleaved, best of several repeats or the repeat of median ratio; absolute figures "
        f"depend on the machine and its load. Steady yardstick: {STEADY_NOTE}."
    )
    return Group(goals, figures, note)
