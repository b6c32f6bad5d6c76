"""``knockout simulate`` and ``knockout bench``: the Monte Carlo layer (sims) from the CLI."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any, Literal

import typer

from knockout import __version__
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
from knockout.errors import KnockoutError


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
    from knockout.dashboard.simulation import (
        estimate_line,
        progress_bar,
        progress_lines,
        simulated_view,
    )
    from knockout.io.envelope import envelope
    from sims.run import run_time_estimate, simulate_scenario
    from sims.runner import parse_workers, resolve_workers

    used_seed = fresh_seed() if seed is None else seed
    with user_errors():
        check_export(export, json_out=json_out)
        sc = read_scenario(scenario, encoding, sets)

        def warn(message: str) -> None:
            err_console.print(f"warning: {message}", markup=False)

        most = parse_workers(workers)
        kwargs: dict[str, Any] = {
            "executor": executor,
            "workers": most,
            "scheduler": scheduler,
            "warn": warn,
        }
        count = resolve_workers(most)
        seconds = run_time_estimate(sc, runs, workers=count)
        if seconds is not None and seconds > 60:
            err_console.print(estimate_line(seconds, runs, count), markup=False, soft_wrap=True)
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
    encoding: EncodingOpt = None,
    sets: SetOpt = None,
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
    from knockout.dashboard.simulation import bench_view
    from knockout.io.scenario import load_scenario
    from sims.bench import BenchSettings, run_benchmark
    from sims.runner import parse_workers, resolve_workers

    with user_errors():
        sc = read_scenario(scenario, encoding, sets)
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
