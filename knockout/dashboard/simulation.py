"""Rich views of Monte Carlo results: estimates with standard errors beside the exact values."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager

from rich.console import Console, Group, RenderableType
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table
from rich.text import Text

from knockout.dashboard.bracket import simulated_reach_view
from knockout.dashboard.match import pct
from knockout.io.scenario import Scenario
from knockout.odds import BracketOdds, MatchOdds, Simulated
from sims.bench import BenchFigures
from sims.run import SimulationRun

__all__ = ["bench_view", "progress_bar", "simulated_view", "simulation_view"]


def _z(value: float, stderr: float, exact: float | None) -> Text:
    if exact is None:
        return Text("")
    if stderr == 0:
        ok = abs(value - exact) < 1e-12
        return Text("exact" if ok else "differs", style="green" if ok else "red")
    z = (value - exact) / stderr
    return Text(f"{z:+.1f}", style="green" if abs(z) < 3 else "red")


def simulation_view(est: Simulated[MatchOdds], exact: MatchOdds | None) -> RenderableType:
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

    def row(label: str, pick: Callable[[MatchOdds], float | None]) -> None:
        value, stderr = pick(est.value), pick(est.stderr)
        if value is None or stderr is None:
            return
        exact_value = None if exact is None else pick(exact)
        table.add_row(
            label,
            pct(value, 3),
            pct(stderr, 3),
            pct(exact_value, 3),
            _z(value, stderr, exact_value),
        )

    for name in est.value.win:
        row(f"{name} advances", lambda o, name=name: o.win[name])  # type: ignore[misc]
    for stage in est.value.decided:
        row(f"decided in {stage}", lambda o, stage=stage: o.decided[stage])  # type: ignore[misc]
    if est.value.sudden_death_reached > 0 or (exact is not None and exact.sudden_death_reached > 0):
        row("sudden death reached", lambda o: o.sudden_death_reached)
    row("甲 advances | reached", lambda o: o.chooser_advances)
    row("甲 announces Red | reached", lambda o: o.announce_red)
    row("乙 objects | reached", lambda o: o.objects)
    for k in list(est.value.games)[:12]:
        row(f"{k} games", lambda o, k=k: o.games.get(k, 0.0))  # type: ignore[misc]
    return table


def simulated_view(sim: SimulationRun, scenario: Scenario) -> RenderableType:
    """The view of a simulation: a match's estimates, or a bracket's chances per round."""
    est, exact = sim.estimates, sim.exact
    assert est is not None
    if isinstance(est.value, BracketOdds):
        assert isinstance(exact, BracketOdds)
        return simulated_reach_view(est, scenario, exact)
    assert isinstance(exact, MatchOdds)
    return simulation_view(est, exact)


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
    """The goals (measured ratio beside target) and the figures, as two tables."""
    goals = Table(
        title=f"Benchmark goals: {f.scenario} ({f.cores} CPUs visible)", title_justify="left"
    )
    goals.add_column("Goal")
    goals.add_column("Measured", justify="right")
    goals.add_column("Target", justify="right")
    goals.add_column("Met", justify="center")
    goals.add_column("From")
    for g in f.goals:
        met = {True: Text("yes", style="green"), False: Text("no", style="red"), None: Text("-")}
        measured = "-" if g.measured is None else f"{g.measured:.2f}"
        goals.add_row(g.label, measured, g.target_text, met[g.met], g.figures)
    figures = Table(title="Figures", title_justify="left")
    figures.add_column("Measure")
    figures.add_column("Figure", justify="right")
    for measure, figure in f.rows():
        figures.add_row(measure, figure)
    note = Text(
        f"Block size {f.block_size:,}. Each ratio's two sides are measured in this run, "
        "interleaved, best of several repeats; absolute figures depend on the machine and its load."
    )
    return Group(goals, figures, note)
