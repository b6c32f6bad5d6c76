"""Rich views of Monte Carlo results: estimates with standard errors beside the exact values."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager

from rich.console import Console, Group, RenderableType
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table
from rich.text import Text

from knockout.dashboard.match import pct
from knockout.exact.odds import MatchOdds
from sims.bench import BenchFigures
from sims.match import Estimate, MatchEstimates

__all__ = ["bench_view", "progress_bar", "simulation_view"]


def _z(est: Estimate | None, exact: float | None) -> Text:
    if est is None or exact is None:
        return Text("")
    if est.stderr == 0:
        ok = abs(est.value - exact) < 1e-12
        return Text("exact" if ok else "differs", style="green" if ok else "red")
    z = (est.value - exact) / est.stderr
    return Text(f"{z:+.1f}", style="green" if abs(z) < 3 else "red")


def simulation_view(est: MatchEstimates, exact: MatchOdds | None) -> RenderableType:
    """Estimates, standard errors and (where available) exact values with the z-score."""
    table = Table(
        title=f"Monte Carlo: {est.runs:,} matches (seed {est.seed})",
        title_justify="left",
        caption="z = (estimate - exact) / standard error",
        caption_justify="left",
    )
    table.add_column("Quantity")
    table.add_column("Estimate", justify="right")
    table.add_column("Std. error", justify="right")
    table.add_column("Exact", justify="right")
    table.add_column("z", justify="right")

    def row(label: str, e: Estimate | None, exact_value: float | None) -> None:
        if e is None:
            return
        table.add_row(
            label, pct(e.value, 3), pct(e.stderr, 3), pct(exact_value, 3), _z(e, exact_value)
        )

    for name, e in est.win.items():
        row(f"{name} advances", e, None if exact is None else exact.win[name])
    for stage, e in est.decided.items():
        row(f"decided in {stage}", e, None if exact is None else exact.decided[stage])
    row(
        "sudden death reached",
        est.sudden_death_reached,
        None if exact is None else exact.sudden_death_reached,
    )
    row(
        "甲 advances | reached",
        est.chooser_advances,
        None if exact is None else exact.chooser_advances,
    )
    row(
        "甲 announces Red | reached",
        est.announce_red,
        None if exact is None else exact.announce_red,
    )
    row("乙 objects | reached", est.objects, None if exact is None else exact.objects)
    for k, e in list(est.games.items())[:12]:
        row(f"{k} games", e, None if exact is None else exact.games.get(k, 0.0))
    return table


def progress_bar(
    console: Console, total: int
) -> tuple[AbstractContextManager[Progress], Callable[[int, int], None]]:
    """A rich progress bar and the callback that advances it (runs done, runs requested)."""
    bar = Progress(
        TextColumn("simulating"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=True,
    )
    task = bar.add_task("runs", total=total)

    def update(done: int, requested: int) -> None:
        bar.update(task, completed=done, total=requested)

    return bar, update


def bench_view(f: BenchFigures) -> RenderableType:
    """The benchmark figures as a table."""
    table = Table(title=f"Benchmark: {f.scenario} ({f.cores} cores visible)", title_justify="left")
    table.add_column("Measure")
    table.add_column("Figure", justify="right")
    table.add_row("kernel, one core", f"{f.kernel_per_second / 1e6:,.1f} M matches/s")
    table.add_row(
        "floor: 4 uniform doubles per match", f"{f.floor_per_second / 1e6:,.1f} M matches/s"
    )
    table.add_row("kernel time / floor time (target <= 3)", f"{f.ratio:.2f}")
    base_wall = f.scaling[0][2] if f.scaling else 0.0
    base_work = f.scaling[0][2] - f.scaling[0][3] if f.scaling else 0.0
    for workers, rate, wall, startup in f.scaling:
        work = max(wall - startup, 1e-9)
        table.add_row(
            f"{f.scaling_runs:,} matches, {workers} local process(es)",
            f"{rate / 1e6:,.1f} M/s, {wall:.1f} s: x{base_wall / wall:.2f} "
            f"(x{base_work / work:.2f} after {startup:.1f} s start-up)",
        )
    if f.ceiling[0] > 1:
        table.add_row(
            f"this machine's ceiling, {f.ceiling[0]} processes",
            f"x{f.ceiling[1]:.2f} (same work in each process, no runner)",
        )
    table.add_row("SimPy engine", f"{f.engine_per_second:,.0f} matches/s")
    table.add_row("exact solver (one pair per call)", f"{f.exact_per_second:,.0f} matches/s")
    note = Text(
        f"Block size {f.block_size:,}. Ratios are measured in one run; absolute figures depend "
        "on the machine and its load."
    )
    return Group(table, note)
