"""``knockout simulate`` and ``knockout bench``: the Monte Carlo layer (sims) from the CLI."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal

import typer

from knockout.cli.app import (
    EncodingOpt,
    ExportOpt,
    SetOpt,
    app,
    check_export,
    check_seed,
    emit_json,
    err_console,
    fresh_seed,
    out_console,
    read_scenario,
    show,
    user_errors,
)
from knockout.cli.match import JsonOpt, ScenarioArg
from knockout.dashboard.simulation import (
    bench_view,
    estimate_line,
    progress_bar,
    progress_lines,
    simulated_view,
)
from knockout.errors import KnockoutError
from knockout.io.envelope import envelope
from sims.bench import run_benchmark
from sims.run import run_time_estimate, simulate_scenario


@app.command()
def simulate(
    scenario: ScenarioArg,
    runs: Annotated[int, typer.Option("--runs", help="Number of matches to simulate.")],
    encoding: EncodingOpt = None,
    sets: SetOpt = None,
    seed: Annotated[
        int | None,
        typer.Option(
            help="Random seed (default: random, reported in the output).", callback=check_seed
        ),
    ] = None,
    workers: Annotated[int, typer.Option(help="Worker processes (1: this process).")] = 1,
    executor: Annotated[
        Literal["local", "dask"],
        typer.Option(help="local: this process or a process pool; dask: a Dask cluster."),
    ] = "local",
    scheduler: Annotated[
        str | None,
        typer.Option(help="Address of an existing Dask scheduler, e.g. tcp://10.0.0.5:8786."),
    ] = None,
    json_out: JsonOpt = False,
    export: ExportOpt = None,
) -> None:
    """Monte Carlo odds of the scenario's match or bracket, with standard errors.

    Work is simulated in blocks (65,536 matches or 4,096 events), each seeded from the run's
    seed and its block number, so the same seed gives bit-identical results with any number of
    workers or executor. Tables show each estimate beside the exact value. For a bracket: each
    player's chance to be in at the start of every round and to win, P(a highest-rated player
    wins), the expected number of upsets and the games played. Ctrl-C stops cleanly and reports
    the blocks completed.

    Example:

        knockout simulate scenarios/final-2600-vs-2550.toml --runs 1000000 --seed 1 --workers 2
    """
    used_seed = fresh_seed() if seed is None else seed
    with user_errors():
        check_export(export, json_out=json_out)
        sc = read_scenario(scenario, encoding, sets)
        kwargs: dict[str, Any] = {"executor": executor, "workers": workers, "scheduler": scheduler}
        seconds = run_time_estimate(sc, runs, workers=workers)
        if seconds is not None and seconds > 60:
            err_console.print(estimate_line(seconds, runs, workers), markup=False, soft_wrap=True)
        # A bar on a terminal; plain lines now and then in a log or a pipe.
        bar, update = (
            progress_bar(err_console, runs)
            if err_console.is_terminal
            else progress_lines(err_console)
        )
        with bar:
            sim = simulate_scenario(sc, runs, used_seed, progress=update, **kwargs)
        result = sim.result
        if result.interrupted:
            err_console.print(
                f"interrupted: {len(result.blocks)} blocks, {result.runs:,} of "
                f"{result.requested:,} runs completed; the estimates use those"
            )
        if sim.estimates is None:
            raise typer.Exit(130)
        if json_out:
            emit_json(envelope(sim.to_json(), seed=used_seed, scenario=sc.to_dict()))
        else:
            show(simulated_view(sim, sc), export, title=sc.name)
    if result.interrupted:
        raise typer.Exit(130)


@app.command()
def bench(
    scenario: Annotated[
        Path, typer.Argument(help="Scenario to benchmark.", show_default=True)
    ] = Path("scenarios/final-2600-vs-2550.toml"),
    scaling_runs: Annotated[
        int, typer.Option(help="Matches per scaling run (local processes).")
    ] = 2**26,
    workers: Annotated[str, typer.Option(help="Comma-separated worker counts to time.")] = "1,2",
    encoding: EncodingOpt = None,
    sets: SetOpt = None,
) -> None:
    """Print performance figures: the kernel against the random-number floor, speed-up with
    local processes, and the SimPy engine and exact solver rates.

    The floor is the time numpy needs just to draw 4 uniform doubles per match; the kernel's
    target is at most 3 times that on one core. Figures are measured in one run; nothing here
    fails on a slow machine.

    Example:

        knockout bench scenarios/final-2600-vs-2550.toml --workers 1,2
    """
    with user_errors():
        sc = read_scenario(scenario, encoding, sets)
        try:
            counts = tuple(int(w) for w in workers.split(","))
        except ValueError:
            raise KnockoutError(f"--workers: expected numbers like 1,2, got {workers!r}") from None
        figures = run_benchmark(
            sc,
            scaling_runs=scaling_runs,
            workers=counts,
            progress=lambda text: err_console.print(f"[dim]measuring {text}...[/dim]"),
        )
    out_console.print(bench_view(figures))
