"""``knockout simulate`` and ``knockout bench``: the Monte Carlo layer (sims) from the CLI."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any, Literal

import typer

from knockout import __version__
from knockout.cli.app import (
    ExportOpt,
    app,
    emit_json,
    err_console,
    fresh_seed,
    out_console,
    show,
    user_errors,
)
from knockout.cli.match import JsonOpt, ScenarioArg
from knockout.errors import KnockoutError


@app.command()
def simulate(
    scenario: ScenarioArg,
    runs: Annotated[int, typer.Option("--runs", help="Number of matches to simulate.")],
    seed: Annotated[
        int | None, typer.Option(help="Random seed (default: random, reported in the output).")
    ] = None,
    workers: Annotated[
        str,
        typer.Option(
            help="Most processes to use, or auto (every CPU). This process computes too; "
            "helpers start only when the run is long enough to pay for them."
        ),
    ] = "auto",
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
    from knockout.dashboard.simulation import progress_bar, simulated_view  # noqa: PLC0415
    from knockout.io.envelope import envelope  # noqa: PLC0415
    from knockout.io.scenario import load_scenario  # noqa: PLC0415
    from sims.run import simulate_scenario  # noqa: PLC0415
    from sims.runner import parse_workers  # noqa: PLC0415

    used_seed = fresh_seed() if seed is None else seed
    with user_errors():
        sc = load_scenario(scenario)
        show_bar = not json_out and sys.stdout.isatty()
        kwargs: dict[str, Any] = {
            "executor": executor,
            "workers": parse_workers(workers),
            "scheduler": scheduler,
            "warn": lambda message: err_console.print(f"warning: {message}", markup=False),
        }
        if show_bar:
            bar, update = progress_bar(err_console, runs)
            with bar:
                sim = simulate_scenario(sc, runs, used_seed, progress=update, **kwargs)
        else:
            sim = simulate_scenario(sc, runs, used_seed, **kwargs)
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
        Path, typer.Argument(help="Two-player scenario to benchmark.", show_default=True)
    ] = Path("scenarios/final-2600-vs-2550.toml"),
    bracket: Annotated[
        Path | None,
        typer.Option(help="Bracket scenario for the bracket Monte Carlo figures."),
    ] = Path("scenarios/national-64.toml"),
    scaling_runs: Annotated[
        int, typer.Option(help="Matches in the long run (1 process against many).")
    ] = 2**28,
    workers: Annotated[
        str, typer.Option(help="Processes to compare with one, or auto (every CPU).")
    ] = "auto",
    dask: Annotated[
        bool, typer.Option("--dask/--no-dask", help="Also time a local Dask cluster.")
    ] = True,
    json_out: JsonOpt = False,
    markdown: Annotated[
        bool, typer.Option("--markdown", help="Print Markdown tables (the README's).")
    ] = False,
) -> None:
    """Measure the performance goals and figures in one run: each goal's measured ratio beside
    its target.

    Goals: the kernel against the random-number floor (the time numpy needs just to draw 4
    uniform doubles per match); a long run on every CPU against one process, as a share of this
    machine's own ceiling; runs of every size never slower with more processes allowed; the
    start-up of knockout --version against python -c "import numpy"; the bracket Monte Carlo
    per match against the single-match kernel; a local Dask cluster against the ceiling. Each
    ratio's two sides are measured in this run, interleaved; nothing here fails on a slow
    machine. Takes about two minutes.

    Example:

        knockout bench scenarios/final-2600-vs-2550.toml --json
    """
    from knockout.dashboard.simulation import bench_view  # noqa: PLC0415
    from knockout.io.scenario import load_scenario  # noqa: PLC0415
    from sims.bench import BenchSettings, run_benchmark  # noqa: PLC0415
    from sims.runner import parse_workers, resolve_workers  # noqa: PLC0415

    with user_errors():
        sc = load_scenario(scenario)
        if sc.is_bracket:
            raise KnockoutError(f"{scenario}: bench needs a two-player scenario (see --bracket)")
        brk = None if bracket is None else load_scenario(bracket)
        if brk is not None and not brk.is_bracket:
            raise KnockoutError(f"--bracket: {bracket} has two players, not a bracket")
        count = resolve_workers(
            parse_workers(workers),
            lambda message: err_console.print(f"warning: {message}", markup=False),
        )
        figures = run_benchmark(
            sc,
            path=scenario,
            bracket=brk,
            workers=count,
            settings=BenchSettings(scaling_runs=scaling_runs, dask=dask),
            progress=lambda text: err_console.print(f"[dim]measuring {text}...[/dim]"),
        )
    if json_out:
        emit_json({"version": __version__, **figures.to_json()})
    elif markdown:
        sys.stdout.write(figures.markdown())
    else:
        out_console.print(bench_view(figures))
